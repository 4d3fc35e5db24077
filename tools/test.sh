#!/bin/sh
# builds and runs the test suite three times: the default (release) build with warnings as
# errors, AddressSanitizer + UndefinedBehaviorSanitizer, and clang with OpenBLAS forced to
# its baseline kernel (OPENBLAS_CORETYPE=Prescott, runs on any x86-64), so results cannot
# depend on which BLAS kernel the CPU selects. Prints one line per test, the output of the
# failing tests only (the lines that say why, then their last lines), and ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
tools/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0

# the logs of the tests that did not pass, from a meson test log
failing_logs() { # $1 testlog.txt
  awk '
    /^=+ [0-9]+\/[0-9]+ =+$/ { inblk = 1; n = 0; name = ""; res = ""; next }
    inblk && /^=+$/ {
      inblk = 0
      if (res != "exit status 0" && res != "") {
        print "---- " name " (" res ") ----"
        for (i = 1; i <= n; ++i)
          if (buf[i] ~ /FAIL|CHECK failed|error|Error|Sanitizer|runtime error|Assertion/) print "  " buf[i]
        print "  ... last lines:"
        for (i = (n > 25 ? n - 24 : 1); i <= n; ++i) print "  " buf[i]
      }
      next
    }
    inblk && /^test:/ { name = $2 }
    inblk && /^result:/ { r = $0; sub(/^result: */, "", r); res = r }
    inblk { buf[++n] = $0 }
  ' "$1"
}

run_suite() { # $1 title, $2 build dir, $3 environment ("VAR=value ..." or ""), $4.. meson setup options
  title=$1; dir=$2; envv=$3; shift 3
  log=$(mktemp)
  echo "== $title"
  if { [ -f "$dir/build.ninja" ] || env $envv meson setup "$dir" --werror "$@"; } >"$log" 2>&1 &&
     ninja -C "$dir" >>"$log" 2>&1; then
    env $envv meson test -C "$dir" --num-processes 2 >>"$log" 2>&1
    p=$(grep -E '^Ok:' "$log" | awk '{print $2}')
    f=$(grep -E '^(Fail|Timeout|Unexpected Pass):' "$log" | awk '{s+=$2} END {print s+0}')
    grep -E '^ *[0-9]+/[0-9]+ ' "$log"
    [ "${f:-0}" -gt 0 ] && failing_logs "$dir/meson-logs/testlog.txt"
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
  else
    # a failed configuration or build: its errors, not the whole log
    grep -E 'error|Error|ERROR' "$log" | head -40
    tail -20 "$log"
    echo "build failed in $dir"
    failed=$((failed + 1))
  fi
  rm -f "$log"
}

run_suite "gcc, default build type" build-test ""
run_suite "gcc, ASan + UBSan" build-test-asan "" -Dsanitize_all=true -Dbench=false
if command -v clang >/dev/null 2>&1; then
  run_suite "clang, OPENBLAS_CORETYPE=Prescott" build-test-clang "CC=clang OPENBLAS_CORETYPE=Prescott" -Dbench=false
else
  echo "clang not found (tools/install-deps.sh installs it)"
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
