# shared by the shell tests (sourced after IPCC is set): a scratch folder $T removed on exit,
# the failure count, and the checks
#   ok DESCRIPTION / bad DESCRIPTION          record a pass or a failure
#   expect CODE DESCRIPTION CMD...            CMD must exit with CODE (its output in $T/out)
#   contains TEXT DESCRIPTION                 $T/out must contain TEXT
#   kill_midway WAIT_FOR FINAL CMD...         run CMD and SIGKILL it midway (below)
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
# kill_midway WAIT_FOR FINAL CMD...: runs CMD in the background and SIGKILLs it once the
# file WAIT_FOR exists (waiting at most 30 s); records whether it was stopped before it
# wrote FINAL (a frame file; the count of OBJ frames beside it is reported)
kill_midway() {
  wait_for=$1; final=$2; shift 2
  "$@" &
  pid=$!
  i=0
  while [ ! -f "$wait_for" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if [ -f "$final" ]; then
    bad "the run finished before it was killed (machine too fast for this test?)"
  else
    ok "killed midway ($(ls "$(dirname "$final")" | grep -c '\.obj$') frames written)"
  fi
}
