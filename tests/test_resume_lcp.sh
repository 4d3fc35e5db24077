#!/bin/sh
# ipcc run --resume in LCP mode: a run killed with SIGKILL midway and resumed writes the same
# frames and previews, byte for byte, as an uninterrupted run; runs cut at a chosen step and
# extended with --resume --steps match too, in lumped coupling while the old factor of
# M + h^2 K is being reused (the factor is rebuilt from the checkpoint), with scripted
# rotation and cone friction (the options come from the checkpoint, not the defaults), and
# with affine bodies (free and scripted) in both couplings.
# usage: test_resume_lcp.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"

# same_files REF CUT DESCRIPTION: every file of REF is in CUT with the same bytes, no more
same_files() {
  n=0; diff=0
  for f in "$1"/*; do
    n=$((n + 1))
    cmp -s "$f" "$2/$(basename "$f")" || { diff=$((diff + 1)); echo "differs: $f"; }
  done
  m=$(ls "$2" | grep -Evc '\.tmp\.')
  [ "$n" -gt 0 ] && [ "$diff" -eq 0 ] && [ "$m" -eq "$n" ] && ok "$3 ($n files)" ||
    bad "$3: $diff of $n differ, $m after resume"
}

# 1. SIGKILL midway (default coupled coupling) after the cubes met, frames in every format
# and previews (a checkpoint at every frame, so the kill lands after several)
SCENE=scenes/two_cubes.json
ARGS="--mode lcp --steps 600 --every 2 --format obj,ply,vtu --preview-every 10 --quiet"
# shellcheck disable=SC2086
"$IPCC" run "$SCENE" -o "$T/ref" $ARGS || bad "uninterrupted run"
# shellcheck disable=SC2086
kill_midway "$T/cut/frames/000015.vtu" "$T/cut/frames/000300.obj" "$IPCC" run "$SCENE" -o "$T/cut" $ARGS --checkpoint-every 1
"$IPCC" run --resume "$T/cut" >"$T/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "resume exits 0" || { bad "resume exit $rc"; cat "$T/out"; }
grep -q "LCP mode" "$T/out" && ok "resume says LCP mode" || bad "resume: $(cat "$T/out")"
same_files "$T/ref/frames" "$T/cut/frames" "resumed frames identical to the uninterrupted run"
same_files "$T/ref/preview" "$T/cut/preview" "resumed previews identical"
steps=$(grep -c '"step":' "$T/cut/stats.json")
[ "$steps" -eq 600 ] && ok "stats.json has 600 steps" || bad "stats.json has $steps step records"
grep -Eq '"mode":[[:space:]]*"lcp"' "$T/cut/stats.json" && ok "resumed stats: mode lcp" || bad "resumed stats mode"
for k in 1 300 600; do
  grep -A4 "\"step\":[[:space:]]*$k," "$T/cut/stats.json" >"$T/a"
  grep -A4 "\"step\":[[:space:]]*$k," "$T/ref/stats.json" >"$T/b"
  cmp -s "$T/a" "$T/b" && ok "step $k's record matches" || bad "step $k's record differs"
done

# cut_and_resume NAME SCENE CUT TOTAL OPTIONS...: a run of CUT steps extended to TOTAL with
# --resume --steps against an uninterrupted run of TOTAL steps
cut_and_resume() {
  name=$1; scene=$2; cut=$3; total=$4; shift 4
  "$IPCC" run "$scene" -o "$T/$name-ref" --steps "$total" --quiet "$@" || bad "$name: reference run"
  "$IPCC" run "$scene" -o "$T/$name" --steps "$cut" --quiet "$@" || bad "$name: run of $cut steps"
  "$IPCC" run --resume "$T/$name" --steps "$total" --quiet || bad "$name: resume"
  same_files "$T/$name-ref/frames" "$T/$name/frames" "$name: cut at step $cut, resumed to $total"
}

# 2. lumped coupling: steps 2-18 of two_cubes reuse the factor of step 1 (PCG); a resume at
# step 10 must rebuild it (a fresh factor gives other bits)
cut_and_resume lumped scenes/two_cubes.json 10 40 --mode lcp --coupling lumped --format obj,vtu
grep -Eq '"velocity_iterations":[[:space:]]*[1-9]' "$T/lumped-ref/stats.json" &&
  ok "lumped: the old factor was reused" || bad "lumped: no step reused the factor"

# 3. a scripted rotation (scripted centers move) with cone friction on a plane
cat >"$T/twist.json" <<EOF
{"time_step": 0.01, "duration": 0.3, "mode": "lcp",
 "lcp": {"friction": "cone", "coupling": "lumped"},
 "bodies": [{"name": "block", "mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0, 0.001, 0],
   "friction": 0.5, "material": {"density": 1000, "young": 1e5, "poisson": 0.3},
   "dirichlet": [{"box": [[0, 0.8, 0], [1, 1, 1]], "angular_velocity": [0, 3, 0]}]}],
 "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "friction": 0.5}]}
EOF
cut_and_resume twist "$T/twist.json" 7 30
grep -Eq '"friction":[[:space:]]*"cone"' "$T/twist/stats.json" && ok "twist: options from the scene kept" || bad "twist: stats options"

# 4. command-line options are the checkpoint's: restitution and box friction
cut_and_resume flags scenes/two_cubes.json 12 30 --mode lcp --friction box --restitution 0.5 --tol 1e-6

# 5. affine bodies (q and qdot are in the record; x = J q): an affine cube dropped spinning
# onto a deformable one, beside a scripted affine cube (a kinematic mover), in both couplings
cat >"$T/affine.json" <<EOF
{"time_step": 0.01, "duration": 0.3, "mode": "lcp", "lcp": {"friction": "cone"},
 "bodies": [{"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0, 0.001, 0], "friction": 0.5,
   "material": {"density": 1000, "young": 1e5, "poisson": 0.3}},
  {"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0.2, 1.05, 0.1], "affine": true,
   "angular_velocity": [0, 2, 0], "friction": 0.5},
  {"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [3, 0.001, 0], "affine": true,
   "dirichlet": [{"box": [[-0.1, -0.1, -0.1], [1.1, 1.1, 1.1]], "velocity": [0.3, 0, 0],
     "angular_velocity": [0, 3, 0]}]}],
 "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "friction": 0.5}]}
EOF
cut_and_resume affine "$T/affine.json" 13 30
cut_and_resume affine-lumped "$T/affine.json" 9 30 --coupling lumped

# bad input: exit 2 and a message
"$IPCC" run --resume "$T/flags" --coupling lumped >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "checkpoint" "$T/out" && ok "resume with an LCP option: exit 2" || bad "resume with an LCP option"
"$IPCC" run --resume "$T/flags" --dump-lcp "$T/d" >"$T/out" 2>&1
[ $? -eq 2 ] && ok "resume with --dump-lcp: exit 2" || bad "resume with --dump-lcp"
"$IPCC" run --resume "$T/flags" --mode lcp >"$T/out" 2>&1
[ $? -eq 2 ] && ok "resume with --mode: exit 2" || bad "resume with --mode"
# a flipped byte in the LCP world state (the end of the file) is caught by the checksum
ck="$T/flags/checkpoint.bin"
size=$(wc -c <"$ck")
printf 'X' | dd of="$ck" bs=1 seek=$((size - 9)) conv=notrunc 2>/dev/null
"$IPCC" run --resume "$T/flags" --steps 40 >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "corrupted" "$T/out" && ok "damaged LCP checkpoint: exit 2" || { bad "damaged LCP checkpoint"; cat "$T/out"; }

echo "$fails failed"
[ "$fails" -eq 0 ]
