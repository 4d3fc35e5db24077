#!/bin/sh
# PGS vs AMGS on the LCP of a settled pool (Miyamoto et al., Table 1; README "PGS vs AMGS").
# Runs SCENE in LCP mode (its own options: coupled, frictionless) for STEP steps, writes the
# region LCPs of step STEP only (bench_lcp_dump; `ipcc run --dump-lcp` would write every
# step), then solves the largest region from z = 0 with PGS and AMGS to each relative
# residual (bench_lcp_mtx: same solvers, options and sweep counts as `ipcc lcp`, reading time
# excluded). Long: ~4 s per step once the pool is one region (2 shared cores, nice 19).
# usage: tools/measure_pool_lcp.sh [SCENE] [STEP] [OUTDIR] [TOL ...]
#        (defaults: scenes/pool_spheres.json 200 out/pool_lcp 1e-4 1e-6); from the checkout,
#        after `ninja -C build`.
set -eu
scene=${1:-scenes/pool_spheres.json}
step=${2:-200}
out=${3:-out/pool_lcp}
[ $# -ge 3 ] && shift 3 || shift $#
tols=${*:-1e-4 1e-6}
bin=build/tests/bench
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mkdir -p "$out"
echo "== $scene, $step steps (log: $out/steps.log)"
nice -n 19 "$bin/bench_lcp_dump" "$scene" "$step" "$out" "$step" >"$out/steps.log"
tail -n 1 "$out/steps.log" | awk '{print "step " $1 ": contacts " $2 ", regions " $3 ", largest region " $4}'
# the largest region of that step (largest q file = most rows)
q=$(ls -S "$out/step$step"/*_q.mtx | head -n 1)
m=${q%_q.mtx}_M.mtx
echo "== $m"
# shellcheck disable=SC2086
nice -n 19 "$bin/bench_lcp_mtx" "$m" "$q" 1000000 $tols
