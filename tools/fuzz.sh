#!/bin/sh
# fuzzes every input reader with libFuzzer (tests/fuzz/fuzz_*.c; clang, ASan + UBSan): builds
# the targets in build-fuzz/ and runs them one after another (one core) for RUNS executions
# each, starting from the seeds in tests/fuzz/corpus/TARGET with tests/fuzz/dict/TARGET.dict.
#
# usage: tools/fuzz.sh [RUNS [TARGET...]]
#   RUNS    executions per target (default 150000: 1.2 million over the first 8 targets);
#           fclib runs RUNS / 10 (each of its inputs is written and read as an HDF5 file)
#   TARGET  scene_json scene_txt msh obj tetgen matrix_market checkpoint ccd_queries fclib (all)
#   IPCC_FUZZ_SECONDS=S  optional cap on the seconds per target (then no restart after a
#                        finding)
#
# a finding is a sanitizer report, a leak, an oracle abort (see tests/fuzz/fuzz_common.h), an
# input running over 10 s or an allocation over 1 GB. its input is saved as
# tests/fuzz/crashes/TARGET-KIND-HASH with the report beside it (TARGET-N.log), and the target
# restarts for the executions left, at most 5 times. prints executions and findings per
# target; exits 1 when anything was found, 2 when the targets could not be built.
set -u
cd "$(dirname "$0")/.." || exit 2
RUNS=${1:-150000}
[ $# -gt 0 ] && shift
TARGETS=${*:-scene_json scene_txt msh obj tetgen matrix_market checkpoint ccd_queries fclib vtu}
BUILD=build-fuzz
CRASHES=tests/fuzz/crashes
MAX_RESTARTS=5

sh tools/install-deps.sh --fuzz || exit 2
if [ -f "$BUILD/build.ninja" ]; then
  meson configure "$BUILD" -Dfuzz=true >/dev/null || exit 2
else
  CC=clang meson setup "$BUILD" -Dfuzz=true -Dbench=false --werror >/dev/null || exit 2
fi
# shellcheck disable=SC2046
ninja -C "$BUILD" $(for t in $TARGETS; do printf 'tests/fuzz/fuzz_%s ' "$t"; done) >"$BUILD/fuzz-build.log" 2>&1 ||
  { cat "$BUILD/fuzz-build.log"; exit 2; }

# the harnesses write each input to a file: tmpfs is some 50 times faster than the disk here
scratch=$(mktemp -d -p /dev/shm ipcc-fuzz.XXXXXX 2>/dev/null || mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT INT TERM
mkdir -p "$CRASHES"

# executions of one libFuzzer run from its log (its final statistics, else its last status line)
executions() {
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -n 1)
  [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$1" | tail -n 1 | tr -d '#')
  echo "${n:-0}"
}

limit=''
[ -n "${IPCC_FUZZ_SECONDS:-}" ] && limit="-max_total_time=$IPCC_FUZZ_SECONDS"
printf '%-14s %11s %9s %8s\n' target executions findings seconds
all_runs=0
all_found=0
for t in $TARGETS; do
  work=$scratch/$t
  mkdir -p "$work/corpus" "$work/files"
  dict=''
  [ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=tests/fuzz/dict/$t.dict"
  want=$RUNS
  [ "$t" = fclib ] && want=$((RUNS / 10))
  runs=0
  found=0
  start=$(date +%s)
  while [ "$runs" -lt "$want" ]; do
    # new inputs go to the scratch corpus (the first folder); the committed seeds stay as they are
    # shellcheck disable=SC2086
    IPCC_FUZZ_DIR=$work/files "$BUILD/tests/fuzz/fuzz_$t" -runs=$((want - runs)) \
      -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="$CRASHES/$t-" $dict $limit "$work/corpus" "tests/fuzz/corpus/$t" \
      >"$work/log" 2>&1
    rc=$?
    n=$(executions "$work/log")
    runs=$((runs + n))
    [ "$rc" -eq 0 ] && break
    found=$((found + 1))
    cp "$work/log" "$CRASHES/$t-$found.log"
    grep -m 1 -E '^SUMMARY|fuzz oracle|ERROR: libFuzzer' "$work/log" | sed "s/^/  $t: /" >&2
    # a finding at start-up (a seed) would only repeat
    if [ "$n" -eq 0 ] || [ "$found" -gt "$MAX_RESTARTS" ] || [ -n "$limit" ]; then break; fi
  done
  printf '%-14s %11d %9d %8d\n' "$t" "$runs" "$found" $(($(date +%s) - start))
  all_runs=$((all_runs + runs))
  all_found=$((all_found + found))
done
printf '%-14s %11d %9d\n' total "$all_runs" "$all_found"
[ "$all_found" -eq 0 ] || { echo "fuzz: findings saved in $CRASHES/"; exit 1; }
