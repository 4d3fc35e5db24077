#!/bin/sh
# ipcc against the original IPC's own frames on two of its scripts (vendored slice in
# tests/data/ipc-reference; tools/validate.sh compares all of them): tools/compare_ipc.py runs
# each script cut to 20 steps and measures the largest vertex distance to IPC's frame of every
# step as a fraction of the bounding-box diagonal.
#   2cubesFall_rotateCO_triangle: a cube falls past a triangle rotating by IPC's script rule
#     (Rx Ry Rz of w h about the bbox centre each step): the same to 1e-12 at every step
#   SQPBenchmark 06_tetTet: two tets meeting with dHat = 0.5 of the diagonal, continued down to
#     1e-3 (tuning 1e-4 5e-1), kappa chosen per step, contact from step 14: the same to 1e-9
#     up to step 14, to 1e-4 at every step (IPC's own Newton path: 3.8e-7 at step 20), Newton
#     iterations within 2% of IPC's 365
#   friction/slopeTest_highSchoolPhysics_0.5: a cube resting on a half space of slope 0.5 with
#     mu = 0.5 (sticks at the limit), friction re-lagged until converged (fricIterAmt -1): every
#     solve ending in contact re-lags friction, as IPC's, also at the first step where nothing
#     touched at its start: the same to 1e-5 at every step
#   friction/2tets, paperExamples/10_tetTet: two tets falling onto a half space (with and
#     without friction), first contact at step 14: the same to 1e-9 through the first contact
#     step (the issue asks 1e-6), 2tets to 1e-6 over all 20 steps; 10_tetTet within 1e-3 at
#     step 20 (IPC itself moves by 1.7e-3 there once its two shapes are listed the other way
#     round, tools/ipc_self_spread.py); Newton iterations within 2% of IPC's (102, 79)
#   ipccExamples/cubeSegBedSquash (ipcc's own script, run by the original IPC): a cube squashed
#     by a bed of kinematic segments; IPC's dHat, kappa and tolerance refer to the diagonal of
#     the tet shapes alone: the same to 1e-9 before contact (step 9), within 1% at step 20,
#     Newton iterations within 10% of IPC's 54
#   ipccExamples/cubeSlide (ipcc's own script, run by the original IPC): a unit cube dropped
#     onto the ground sliding at 2 m/s, mu 0.3, useAbsParameters with IPC's default tol 1e-2:
#     IPC's Newton tolerance is then 1e-2 m itself (not x dt) and its slip threshold epsv x
#     0.025 s (its constructor's dt) at dt 0.01; IPC's loose first step leaves the cube deep in
#     the barrier and the lagged normal force stops it within 3 steps: within 1e-4 at every
#     step (ipcc scaled both by dt: 0.2 of the diagonal off at step 20), Newton within 2%
#   MCO/2cubesFall_rotateCO, 2cubesFall_translateCO: a cube whose every node is scripted
#     (angularVelocity / linearVelocity: IPC's Dirichlet nodes, with the cube's mass), hit by a
#     falling cube. At a step's start IPC moves them by the fraction its CCD allows (slackness
#     0.5) and holds them there for one iteration, then pulls them by its augmented Lagrangian
#     (rho 1e6 doubling, lambda updates) until within 1e-3 of the move. rotateCO (contact from
#     step 18, held short of the target at steps 19 and 20): the same to 1e-12 up to step 17,
#     to 1e-5 after, IPC's 51
#     Newton iterations within 2%; translateCO (contact at step 15): the same to 1e-12 up to
#     step 14, within 1e-3 at step 15 (IPC moves by 9e-4 there itself once its shapes are
#     listed the other way round: a corner exactly over a diagonal, decided by rounding; the
#     step where the falling cube, undeformed up to rounding, first touches: README, "Same
#     answers, one step at a time"), IPC's 57 Newton iterations within 10% (steps 16-20 run on
#     the state step 15 left; one step at a time from IPC's states they take IPC's iterations:
#     tests/test_ipc_onestep.c)
#   MCO/2cubesFall_rotateCO_closedSurface: the rotating cube is a closed triangle surface (an
#     IPC codimensional shape): while pulled, its nodes carry IPC's lumped mass (Voronoi area x
#     mean edge length / 3 x density): the same to 1e-12 up to step 17, to 1e-6 after, IPC's 53
#     Newton iterations within 2%
# usage: test_ipc_reference.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"
python3 tools/compare_ipc.py tutorialExamples/MCO/2cubesFall_rotateCO_triangle \
  paperExamples/supplementB/SQPBenchmark/06_tetTet ipccExamples/cubeSegBedSquash \
  otherExamples/friction/slopeTest_highSchoolPhysics_0.5 otherExamples/friction/2tets \
  paperExamples/10_tetTet tutorialExamples/MCO/2cubesFall_rotateCO ipccExamples/cubeSlide \
  tutorialExamples/MCO/2cubesFall_translateCO \
  tutorialExamples/MCO/2cubesFall_rotateCO_closedSurface --reference tests/data/ipc-reference \
  --input tests/data/ipc-input/input --ipcc "$IPCC" --work "$T/cmp" --json "$T/cmp.json" \
  >"$T/out.txt" 2>&1 && ok "compare_ipc.py ran" || { cat "$T/out.txt"; bad "compare_ipc.py failed"; }
cat "$T/out.txt"
python3 - "$T/cmp.json" <<'PY' && ok "deviations and Newton counts within bounds" || bad "deviation or Newton count out of bounds"
import json, sys
r = {x["script"]: x for x in json.load(open(sys.argv[1]))}
fail = 0
def need(cond, what):
    global fail
    if not cond:
        print("FAIL:", what)
        fail = 1
def check(script, name, steps, tol, final=None, newton=False, newton_rel=0.1):
    """deviation <= tol at steps 1..steps, <= final at steps + 1..20, Newton within newton_rel
    of IPC's"""
    x = r[script]
    for k in range(1, steps + 1):
        need(x["dev"].get(str(k), 1) <= tol, "%s step %d: %s" % (name, k, x["dev"].get(str(k))))
    if final is not None:
        for k in range(steps + 1, 21):
            need(x["dev"].get(str(k), 1) <= final, "%s step %d: %s" % (name, k, x["dev"].get(str(k))))
    if newton:
        need(abs(x["ipcc_newton"] - x["ipc_newton"]) <= newton_rel * x["ipc_newton"],
             "%s Newton %d against IPC's %d" % (name, x["ipcc_newton"], x["ipc_newton"]))
check("tutorialExamples/MCO/2cubesFall_rotateCO_triangle", "rotateCO_triangle", 20, 1e-12)
check("paperExamples/supplementB/SQPBenchmark/06_tetTet", "06_tetTet", 14, 1e-9, 1e-4, True, 0.02)
check("otherExamples/friction/2tets", "2tets", 14, 1e-9, 1e-6, True, 0.02)
check("paperExamples/10_tetTet", "10_tetTet", 14, 1e-9, 1e-3, True, 0.02)
check("otherExamples/friction/slopeTest_highSchoolPhysics_0.5", "slopeTest_0.5", 20, 1e-5)
check("ipccExamples/cubeSegBedSquash", "cubeSegBedSquash", 9, 1e-9, 1e-2, True)
check("ipccExamples/cubeSlide", "cubeSlide", 20, 1e-4, None, True, 0.02)
check("tutorialExamples/MCO/2cubesFall_rotateCO", "rotateCO", 17, 1e-12, 1e-5, True, 0.02)
check("tutorialExamples/MCO/2cubesFall_translateCO", "translateCO", 14, 1e-12, None, True, 0.1)
check("tutorialExamples/MCO/2cubesFall_rotateCO_closedSurface", "rotateCO_closedSurface", 17,
      1e-12, 1e-6, True, 0.02)
x = r["tutorialExamples/MCO/2cubesFall_translateCO"]["dev"].get("15", 1)
need(x <= 1e-3, "translateCO step 15: %s" % x)
sys.exit(fail)
PY
echo "$fails failed"
[ "$fails" -eq 0 ]
