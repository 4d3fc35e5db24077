#!/bin/sh
# builds and runs the test suite twice (release-like build with warnings as errors, then
# AddressSanitizer + UndefinedBehaviorSanitizer); ends with "N passed, N failed"
set -u
cd "$(dirname "$0")/.."
tools/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
run_suite() { # $1 build dir, $2.. meson setup options
  dir=$1; shift
  log=$(mktemp)
  if { [ -f "$dir/build.ninja" ] || meson setup "$dir" --werror "$@"; } >"$log" 2>&1 &&
     ninja -C "$dir" >>"$log" 2>&1; then
    meson test -C "$dir" --print-errorlogs --num-processes 2 >>"$log" 2>&1
    p=$(grep -E '^Ok:' "$log" | awk '{print $2}')
    f=$(grep -E '^(Fail|Timeout|Unexpected Pass):' "$log" | awk '{s+=$2} END {print s+0}')
    grep -E '^ *[0-9]+/[0-9]+ |^(Ok|Fail|Timeout|Expected Fail|Skipped|Unexpected Pass):' "$log"
    grep -q '^ *[0-9]*/[0-9]* .* FAIL' "$log" && cat "$log"
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
  else
    cat "$log"
    echo "build failed in $dir"
    failed=$((failed + 1))
  fi
  rm -f "$log"
}

run_suite build-test
run_suite build-test-asan -Dsanitize_all=true -Dbench=false
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
