# shared by the shell tests (sourced after IPCC is set): a scratch folder $T removed on exit,
# the failure count, and the checks
#   ok DESCRIPTION / bad DESCRIPTION          record a pass or a failure
#   expect CODE DESCRIPTION CMD...            CMD must exit with CODE (its output in $T/out)
#   contains TEXT DESCRIPTION                 $T/out must contain TEXT
# a test ends with: echo "$fails failed"; [ "$fails" -eq 0 ]
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
expect() {
  code=$1; what=$2; shift 2
  "$@" >"$T/out" 2>&1
  rc=$?
  if [ "$rc" -eq "$code" ]; then ok "$what"; else bad "$what (exit $rc, expected $code)"; cat "$T/out"; fi
}
contains() {
  if grep -qF -- "$1" "$T/out"; then ok "$2"; else bad "$2: output lacks '$1'"; cat "$T/out"; fi
}
