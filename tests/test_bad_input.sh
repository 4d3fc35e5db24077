#!/bin/sh
# the bad-input catalogue: every tests/bad_input/*.case is one malformed input or nonsense
# option that ipcc must refuse cleanly. A case is a shell fragment that sets
#   expect=N          the exit code (2 bad input, 1 failed simulation/check)
#   message='TEXT'    a fragment the output (stdout + stderr) must contain
#   run() { ... }     the command; $IPCC is the binary, $T a fresh empty folder,
#                     $C the tests/bad_input folder (inputs in $C/inputs), $R the project root
#   timeout=S         optional, seconds before the case counts as a hang (default 60)
# A case fails on another exit code, a missing message, a sanitizer report, a signal or a
# hang. Every case runs under an address-space limit of 8 GB (ulimit -v; BAD_INPUT_VMEM_KB
# changes it), as the campaign that found most of them did; a sanitizer build, which reserves
# terabytes of shadow memory and cannot start under it, gets the same bound on each
# allocation instead (ASAN_OPTIONS max_allocation_size_mb). The slowest case is reported.
# usage: test_bad_input.sh path/to/ipcc [CASE...]   (run from the project root)
set -u
IPCC=$1
case $IPCC in /*) ;; *) IPCC=$PWD/$IPCC ;; esac
shift
R=$PWD
C=$R/tests/bad_input
export IPCC C R
vmem=${BAD_INPUT_VMEM_KB:-8000000}
if sh -c "ulimit -v $vmem && exec \"\$IPCC\" --help" >/dev/null 2>&1; then
  limit="ulimit -v $vmem"
  echo "address-space limit: $vmem KiB (ulimit -v)"
else
  limit=true
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=$((vmem / 1024)):allocator_may_return_null=0"
  export ASAN_OPTIONS
  echo "address-space limit: not applicable (sanitizer build); each allocation at most $((vmem / 1024)) MiB"
fi
slowest=0
slowest_name=''
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fails=0
n=0
[ $# -gt 0 ] || set -- "$C"/*.case
for case in "$@"; do
  case $case in /*) ;; *) case=$R/$case ;; esac # the case runs in $T
  name=$(basename "$case" .case)
  T=$root/$name
  mkdir -p "$T"
  (
    expect=''
    message=''
    timeout=60
    . "$case"
    export T
    cd "$T" || exit 3
    t0=$(date +%s)
    timeout -k 5 "$timeout" sh -c "$limit; . '$case'; run" >"$T/.out" 2>&1
    rc=$?
    echo $(($(date +%s) - t0)) >"$T/.seconds"
    ok=1
    why=''
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then ok=0; why="hung (over ${timeout} s)"
    elif [ "$rc" -ne "$expect" ]; then ok=0; why="exit $rc, expected $expect"
    elif [ -n "$message" ] && ! grep -qF -- "$message" "$T/.out"; then ok=0; why="output lacks '$message'"
    elif grep -qE 'Sanitizer|runtime error:' "$T/.out"; then ok=0; why="sanitizer report"
    fi
    if [ "$ok" -eq 1 ]; then
      echo "ok: $name"
    else
      echo "FAIL: $name: $why"
      head -c 4000 "$T/.out"
      exit 1
    fi
  ) || fails=$((fails + 1))
  n=$((n + 1))
  s=$(cat "$T/.seconds" 2>/dev/null || echo 0)
  if [ "$s" -gt "$slowest" ]; then slowest=$s; slowest_name=$name; fi
done
[ -z "$slowest_name" ] || echo "slowest case: $slowest_name, $slowest s"

echo "$((n - fails)) of $n bad-input cases refused cleanly"
[ "$fails" -eq 0 ]
