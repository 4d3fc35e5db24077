#!/bin/sh
# ipcc run --resume: a run killed with SIGKILL midway and resumed writes the same frames,
# byte for byte, as an uninterrupted run; stats.json then holds every step once; the
# killed run's temporary files are gone; checkpoints by default and with --checkpoint-every.
# (damaged or foreign checkpoints:
# tests/bad_input/ckpt_*.case, tests/test_checkpoint.c)
# usage: test_resume.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"

SCENE=scenes/torus_stack.json
ARGS="--steps 30 --every 2 --format obj,ply,vtu --quiet"
# shellcheck disable=SC2086
"$IPCC" run "$SCENE" -o "$T/ref" $ARGS || bad "uninterrupted run"

# interrupted: wait for frame 5, then SIGKILL. a checkpoint at every 3rd frame: the frames
# after the last one are computed again on resume, the same bytes
# shellcheck disable=SC2086
kill_midway "$T/cut/frames/000005.vtu" "$T/cut/frames/000015.obj" "$IPCC" run "$SCENE" -o "$T/cut" $ARGS --checkpoint-every 3
[ -f "$T/cut/checkpoint.bin" ] && ok "checkpoint exists" || bad "no checkpoint after the kill"

# temporary files of a dead writer, as a kill between write and rename leaves them
: >"$T/cut/frames/000099.obj.tmp.999999999"
: >"$T/cut/checkpoint.bin.tmp.999999999"
written=$(ls "$T/cut/frames" | grep -c '\.vtu$')
"$IPCC" run --resume "$T/cut" --checkpoint-every 3 >"$T/resumed" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "resume exits 0" || { bad "resume exit $rc"; cat "$T/resumed"; }
from=$(sed -n 's/^resuming .* (frame \([0-9]*\))$/\1/p' "$T/resumed")
[ -n "$from" ] && [ $((from % 3)) -eq 0 ] && ok "resumed from checkpointed frame $from ($written frames were written)" ||
  bad "resumed from frame '$from', expected a multiple of 3"
left=$(find "$T/cut" -name '*.tmp.*')
[ -z "$left" ] && ok "temporary files of the killed run removed" || bad "left over: $left"

n=0; diff=0
for f in "$T"/ref/frames/*; do
  b=$(basename "$f")
  n=$((n + 1))
  if ! cmp -s "$f" "$T/cut/frames/$b"; then diff=$((diff + 1)); echo "differs: $b"; fi
done
[ "$n" -eq 49 ] && ok "48 reference frame files and frames.pvd" || bad "$n reference frame files, expected 49"
[ "$diff" -eq 0 ] && ok "resumed frames identical to the uninterrupted run" || bad "$diff frame files differ"
nres=$(ls "$T/cut/frames" | grep -Ec '^([0-9]{6}\.(obj|ply|vtu)|frames\.pvd)$')
[ "$nres" -eq "$n" ] && ok "no extra frames" || bad "$nres frame files after resume, expected $n"
steps=$(grep -c '"step":' "$T/cut/stats.json")
[ "$steps" -eq 30 ] && ok "stats.json has 30 steps" || bad "stats.json has $steps step records"
grep -A3 '"step":[[:space:]]*30,' "$T/cut/stats.json" >"$T/a"
grep -A3 '"step":[[:space:]]*30,' "$T/ref/stats.json" >"$T/b"
cmp -s "$T/a" "$T/b" && ok "last step's record matches" || bad "last step's record differs"

# resuming a finished run does nothing more; extending it with --steps continues
"$IPCC" run --resume "$T/cut" --quiet && ok "resume of a finished run" || bad "resume of a finished run"
"$IPCC" run --resume "$T/cut" --steps 32 --quiet && [ -f "$T/cut/frames/000016.obj" ] &&
  ok "--resume --steps extends the run" || bad "--resume --steps 32"

# bad input: exit 2 and a message
"$IPCC" run --resume "$T/none" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "checkpoint" "$T/out" && ok "resume without a checkpoint: exit 2" || bad "resume without a checkpoint"
"$IPCC" run --resume "$T/cut" --format obj >"$T/out" 2>&1
[ $? -eq 2 ] && ok "resume with output options: exit 2" || bad "resume with output options"
head -c 100 "$T/ref/checkpoint.bin" >"$T/short.bin"; mkdir -p "$T/trunc"; mv "$T/short.bin" "$T/trunc/checkpoint.bin"
"$IPCC" run --resume "$T/trunc" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "truncated" "$T/out" && ok "truncated checkpoint: exit 2" || { bad "truncated checkpoint"; cat "$T/out"; }

# when checkpoints are written: by default (a short run) at the last frame only, with
# --checkpoint-every N at every Nth frame and the last
"$IPCC" run scenes/two_cubes.json --steps 6 -o "$T/auto" >"$T/out" 2>&1
# (one at the end; a second one only on a machine that needs more than 1 s for 6 steps)
n=$(sed -n 's/^writing: .*, \([0-9]*\) checkpoints* .*/\1/p' "$T/out")
[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 2 ] && ok "short run: $n checkpoint(s) for 7 frames" || { bad "short run checkpoints"; cat "$T/out"; }
"$IPCC" run --resume "$T/auto" --steps 8 >"$T/out" 2>&1 && grep -q "at step 6 of 8 (frame 6)" "$T/out" &&
  ok "its checkpoint is the last frame" || { bad "resume after the end checkpoint"; cat "$T/out"; }
"$IPCC" run scenes/two_cubes.json --steps 7 --checkpoint-every 3 -o "$T/every" >"$T/out" 2>&1
grep -q ", 4 checkpoints 0" "$T/out" && ok "--checkpoint-every 3: frames 0, 3, 6 and the last" || { bad "--checkpoint-every 3"; cat "$T/out"; }
"$IPCC" run scenes/two_cubes.json --steps 2 --checkpoint-every 0 -o "$T/zero" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "checkpoint-every: expected a positive integer" "$T/out" && ok "--checkpoint-every 0: exit 2" || { bad "--checkpoint-every 0"; cat "$T/out"; }

# an affine cube falling onto a deformable one (q and qdot in the world state record): a run
# stopped at step 12 and resumed to 30 writes the frames of an uninterrupted run
cp tests/data/mesh/cube.node tests/data/mesh/cube.ele "$T/"
cat >"$T/affine.json" <<'JSON'
{"time_step": 0.025, "duration": 1, "gravity": [0, -9.80665, 0],
 "bodies": [{"mesh": "cube.node", "translation": [0, 0.01, 0], "material": {"young": 1e6}},
            {"mesh": "cube.node", "translation": [0.2, 1.1, 0.1], "rotation": [0, 20, 10],
             "affine": true}],
 "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]}
JSON
"$IPCC" run "$T/affine.json" -o "$T/aref" --steps 30 --quiet || bad "affine: uninterrupted run"
{ "$IPCC" run "$T/affine.json" -o "$T/acut" --steps 12 --checkpoint-every 1 --quiet &&
  "$IPCC" run --resume "$T/acut" --steps 30 --quiet; } || bad "affine: run and resume"
diff=0
for f in "$T"/aref/frames/*; do cmp -s "$f" "$T/acut/frames/$(basename "$f")" || diff=$((diff + 1)); done
if [ "$diff" -eq 0 ] && [ -f "$T/acut/frames/000030.obj" ]; then
  ok "affine scene: resumed frames identical to the uninterrupted run"
else
  bad "affine scene: $diff frame files differ"
fi

# the same with Newmark (the affine bodies' qddot in the record too)
sed 's/"duration": 1,/"duration": 1, "integrator": "newmark",/' "$T/affine.json" >"$T/affnm.json"
"$IPCC" run "$T/affnm.json" -o "$T/nref" --steps 30 --quiet || bad "affine Newmark: uninterrupted run"
{ "$IPCC" run "$T/affnm.json" -o "$T/ncut" --steps 12 --checkpoint-every 1 --quiet &&
  "$IPCC" run --resume "$T/ncut" --steps 30 --quiet; } || bad "affine Newmark: run and resume"
diff=0
for f in "$T"/nref/frames/*; do cmp -s "$f" "$T/ncut/frames/$(basename "$f")" || diff=$((diff + 1)); done
if [ "$diff" -eq 0 ] && [ -f "$T/ncut/frames/000030.obj" ] &&
   ! cmp -s "$T/nref/frames/000030.obj" "$T/aref/frames/000030.obj"; then
  ok "affine Newmark scene: resumed frames identical to the uninterrupted run"
else
  bad "affine Newmark scene: $diff frame files differ (or Newmark ran as implicit Euler)"
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
