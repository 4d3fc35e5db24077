#!/bin/sh
# scenes where the original IPC runs and ipcc once stopped with "the energy is not finite":
#   a ball (sphere1K, scaled to 0.2) shot at 40 m/s into a mat (mat20x20) pinned at both
#   ends: the first Newton steps of the impact try states with inverted tets; the line search
#   must see their energy as infinite and cut the step (before the fix the energy of the
#   trial's island left the elastic term out, a trial with an inverted tet was accepted and
#   step 2 ended with an infinite energy). Two steps, every frame checked exactly.
# usage: test_ipc_hard_scenes.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"
ROOT=$(pwd)
cat >"$T/ball_mat.txt" <<TXT
energy NH
warmStart 0
size 1
time 0.02 0.01
density 1000
stiffness 1e6 0.4
shapes input 2
$ROOT/scenes/meshes/sphere1K.msh 0.5 0.5 0.5  0 0 0  0.2 0.2 0.2  initVel 0 -40 0  0 0 0
$ROOT/tests/data/ipc-input/input/tetMeshes/mat20x20.msh 0 0 0  0 0 0  1 1 1  DBC -0.1 -0.1 -0.1  0.02 1.1 1.1  0 0 0  0 0 0  DBC 0.98 -0.1 -0.1  1.1 1.1 1.1  0 0 0  0 0 0
selfCollisionOn
constraintSolver interiorPoint
TXT
expect 0 "ball shot into a pinned mat: two steps, intersection-free" \
  "$IPCC" run "$T/ball_mat.txt" -o "$T/ball_mat" --check --quiet --no-checkpoint
python3 - "$T/ball_mat/stats.json" <<'PY' && ok "finite energies, contact, no failed step" || bad "statistics of the ball-mat run"
import json, math, sys
d = json.load(open(sys.argv[1]))
steps = d["steps"]
assert len(steps) == 2, len(steps)
for s in steps:
    assert s["energy"] is not None and math.isfinite(s["energy"]), s["energy"]
assert steps[0]["contacts"] > 0
assert d["summary"]["intersection_free"] is True
PY
echo "$fails failed"
[ "$fails" -eq 0 ]
