#!/bin/sh
# runs IPC's .txt scene scripts for a few steps each with the exact intersection check of
# every frame, and prints a Markdown table (script, status, steps, seconds) for README.md.
# usage: tools/run-ipc-scripts.sh [path/to/ipcc] [DATA]   (run from the project root)
#   DATA defaults to ../shared/data/ipc-input/input; STEPS=N overrides every step count;
#   LIMIT=S is the time limit per script in seconds (default 120).
set -u
IPCC=${1:-build/src/cli/ipcc}
D=${2:-../shared/data/ipc-input/input}
LIMIT=${LIMIT:-120}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# script:steps (fewer steps for the large meshes)
LIST="
tutorialExamples/2cubesFall.txt:20
tutorialExamples/2cubesFall_full.txt:20
tutorialExamples/2cubesFall_heavyTop.txt:20
tutorialExamples/2cubesFall_largerDt.txt:5
tutorialExamples/2cubesFall_smallerDt.txt:20
tutorialExamples/2cubesFall_stiffer.txt:20
tutorialExamples/BC/2cubesFall_DBC.txt:20
tutorialExamples/BC/2cubesFall_DBC_timeRange.txt:20
tutorialExamples/BC/2cubesFall_NBC.txt:20
tutorialExamples/BC/2cubesFall_NBC_timeRange.txt:20
tutorialExamples/MCO/2cubesFall_rotateCO.txt:20
tutorialExamples/MCO/2cubesFall_rotateCO_closedSurface.txt:20
tutorialExamples/MCO/2cubesFall_rotateCO_edges.txt:20
tutorialExamples/MCO/2cubesFall_rotateCO_points.txt:20
tutorialExamples/MCO/2cubesFall_rotateCO_triangle.txt:20
tutorialExamples/MCO/2cubesFall_translateCO.txt:20
tutorialExamples/advanced/2cubesFall_BE.txt:20
tutorialExamples/advanced/2cubesFall_NM.txt:20
tutorialExamples/advanced/2cubesFall_attach.txt:20
tutorialExamples/advanced/2cubesFall_rotateCO_meshSeq.txt:20
tutorialExamples/initVel/2cubesFall_initRot.txt:20
tutorialExamples/initVel/2cubesFall_initVel.txt:20
paperExamples/10_tetTet.txt:20
paperExamples/10_cubeStack.txt:20
paperExamples/10_tetSlots.txt:20
paperExamples/11_erleben/cubeCliffCO.txt:20
paperExamples/11_erleben/cubeInternalEdgesCO.txt:20
paperExamples/11_erleben/spikeCrackCO.txt:20
paperExamples/11_erleben/spikeHoleCO.txt:20
paperExamples/11_erleben/spikePlaneCO.txt:20
paperExamples/11_erleben/spikeSpikeCO.txt:20
paperExamples/11_erleben/spikeWedgeCO.txt:20
paperExamples/11_erleben/wedgeCrackCO.txt:20
paperExamples/11_erleben/wedgePlaneCO.txt:20
paperExamples/11_erleben/wedgeWedgoCO.txt:20
paperExamples/12_largeMassRatio.txt:20
paperExamples/12_matOnBoard.txt:5
paperExamples/12_sphereOnMat.txt:5
paperExamples/15_trashComp_shapes.txt:1
paperExamples/17_pinCushionBall.txt:3
paperExamples/18_pointRollerBall.txt:3
paperExamples/18_segRollerBall.txt:3
paperExamples/2_matKnives.txt:5
paperExamples/2_spherePoints.txt:3
paperExamples/5_hitCardHouse.txt:10
paperExamples/7_masonryArch.txt:10
paperExamples/8_rollerBall.txt:3
paperExamples/21_scalability/mat40x40_twist.txt:3
paperExamples/21_scalability/mat100x100_twist.txt:1
paperExamples/21_scalability/armadillo13K_twist.txt:1
paperExamples/supplementB/SQPBenchmark/01_pointTriangleCO.txt:20
paperExamples/supplementB/SQPBenchmark/02_trianglePointCO.txt:20
paperExamples/supplementB/SQPBenchmark/03_edgeEdgeCO.txt:20
paperExamples/supplementB/SQPBenchmark/04_pointTriangle.txt:20
paperExamples/supplementB/SQPBenchmark/05_edgeEdge.txt:20
paperExamples/supplementB/SQPBenchmark/06_tetTet.txt:20
paperExamples/supplementB/SQPBenchmark/07_cubePlaneCO.txt:20
paperExamples/supplementB/SQPBenchmark/08_cubeCubeCO.txt:20
paperExamples/supplementB/SQPBenchmark/09_tetCube.txt:20
paperExamples/supplementB/SQPBenchmark/10_alignedTetCube.txt:20
paperExamples/supplementB/SQPBenchmark/11_cubes.txt:20
paperExamples/supplementB/SQPBenchmark/12_alignedCubes.txt:20
paperExamples/supplementB/SQPBenchmark/13_fiveCubePyramid.txt:20
paperExamples/supplementB/SQPBenchmark/14_fiveCubeStack.txt:20
paperExamples/supplementB/SQPBenchmark/15_cubesCornerCO.txt:20
paperExamples/supplementB/SQPBenchmark/16_tetsCornerCO.txt:20
paperExamples/supplementB/SQPBenchmark/17_ErlebenSpikes.txt:20
paperExamples/supplementB/SQPBenchmark/18_ErlebenSpikeWedge.txt:20
paperExamples/supplementB/SQPBenchmark/19_ErlebenWedges.txt:20
paperExamples/supplementB/SQPBenchmark/20_ErlebenSpikeHole.txt:20
paperExamples/supplementB/SQPBenchmark/21_ErlebenSpikeCrack.txt:20
paperExamples/supplementB/SQPBenchmark/22_ErlebenWedgeCrack.txt:20
paperExamples/supplementB/SQPBenchmark/23_ErlebenSlidingSpike.txt:20
paperExamples/supplementB/SQPBenchmark/24_ErlebenSlidingWedge.txt:20
paperExamples/supplementB/SQPBenchmark/25_ErlebenCliffEdges.txt:20
paperExamples/supplementB/SQPBenchmark/26_ErlebenInternalEdges.txt:20
paperExamples/supplementB/SQPBenchmark/27_chain.txt:10
paperExamples/supplementB/SQPBenchmark/29_cowHeadPlaneCO.txt:10
paperExamples/supplementB/SQPBenchmark/30_matTwist.txt:10
"
echo "| script | status | steps | seconds |"
echo "|---|---|---|---|"
for e in $LIST; do
  s=${e%%:*}; n=${STEPS:-${e##*:}}
  t0=$(date +%s.%N)
  timeout "$LIMIT" "$IPCC" run "$D/$s" --steps "$n" --check --quiet -o "$T/out" --overwrite >"$T/log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  sec=$(echo "$t1 $t0" | awk '{printf "%.1f", $1 - $2}')
  case $rc in
    0) st="intersection-free" ;;
    124) st="skipped: over ${LIMIT} s" ;;
    2) st="rejected: $(head -n 1 "$T/log" | sed 's/^ipcc run: //; s/^.*input\///; s/|/\\|/g')" ;;
    *) st="FAILED (exit $rc): $(head -n 1 "$T/log" | sed 's/^ipcc run: //; s/|/\\|/g')" ;;
  esac
  echo "| $s | $st | $n | $sec |"
  rm -rf "$T/out"
done
