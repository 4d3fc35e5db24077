#!/bin/sh
# end-to-end tests of the ipcc command line: every scene runs (short) and
# `ipcc check` certifies its frames; bad input exits 2 naming the problem;
# `ipcc check` finds a planted intersection and passes clean meshes.
# usage: test_cli.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"

# every scene, short, then the exact check of every frame
for s in two_cubes:40 torus_stack:10 squeeze_ball:8 bunny_drop:4 mat_twist:3 incline_plane:20 incline_obstacle:20 card_frame:20 spinning_cube:30; do
  name=${s%%:*}; steps=${s##*:}
  expect 0 "run $name ($steps steps)" "$IPCC" run "scenes/$name.json" --steps "$steps" -o "$T/$name" --quiet --check
  expect 0 "check $name" "$IPCC" check "$T/$name" --quiet
  n=$(ls "$T/$name/frames" | grep -c '\.obj$')
  [ "$n" -eq $((steps + 1)) ] && ok "$name: $n frames" || bad "$name: $n frames, expected $((steps + 1))"
  grep -Eq '"intersection_free":[[:space:]]*true' "$T/$name/stats.json" && ok "$name: stats say intersection-free" || bad "$name: stats.json"
done

# the granular pour (1,000 surface-only affine ellipsoids): loads, starts and steps
# intersection-free (its full run is a benchmark, not a test)
expect 0 "run granular_tube (1 step)" "$IPCC" run scenes/granular_tube.json --steps 1 --every 1 -o "$T/granular" --quiet --check
grep -Eq '"intersection_free":[[:space:]]*true' "$T/granular/stats.json" && ok "granular_tube: stats say intersection-free" || bad "granular_tube: stats.json"
# tools/pile_compare.py on the pour's two frames: every ellipsoid still in the tube, a frame
# against itself all in the same place, one step apart none beyond 1 cm; a missing frame named
G=$T/granular/frames
expect 0 "pile_compare: a frame against itself" python3 tools/pile_compare.py "$G/000000.obj" "$G/000000.obj"
contains "1000 bodies, 1000 above 0.1 m" "pile_compare: 1000 ellipsoids in the tube at the start"
contains "within 0.0001 m: 1000 of 1000" "pile_compare: a frame is where it is"
expect 0 "pile_compare: one step apart" python3 tools/pile_compare.py "$G/000000.obj" "$G/000001.obj"
contains "beyond 1 cm: 0;" "pile_compare: one step moves no ellipsoid by 1 cm"
expect 1 "pile_compare: a missing frame" python3 tools/pile_compare.py "$G/000000.obj" "$G/nothing.obj"
contains "nothing.obj" "pile_compare names the missing frame"
# the same surface-only affine bodies in LCP mode (mass properties from the surface)
expect 0 "run granular_tube in LCP mode (2 steps)" "$IPCC" run scenes/granular_tube.json --mode lcp --steps 2 -o "$T/granular_lcp" --quiet
grep -Eq '"steps":[[:space:]]*2' "$T/granular_lcp/stats.json" && ok "granular_tube LCP: 2 steps in stats" || bad "granular_tube LCP: stats.json"

# same bits whatever the thread count (contact-rich: the torus stack)
expect 0 "torus_stack on 1 thread" "$IPCC" run scenes/torus_stack.json --steps 10 --threads 1 -o "$T/thr1" --quiet
expect 0 "torus_stack on 2 threads" "$IPCC" run scenes/torus_stack.json --steps 10 --threads 2 -o "$T/thr2" --quiet
diff -r "$T/thr1/frames" "$T/thr2/frames" >/dev/null && ok "frames identical on 1 and 2 threads" || bad "frames differ between 1 and 2 threads"
expect 2 "bad --threads" "$IPCC" run scenes/two_cubes.json --threads 0

# friction statistics per step
grep -Eq '"friction_contacts":[[:space:]]*[1-9]' "$T/incline_plane/stats.json" && ok "incline_plane: friction contacts in stats" || bad "incline_plane: no friction_contacts in stats.json"
grep -Eq '"max_slip_speed":' "$T/card_frame/stats.json" && ok "card_frame: slip speed in stats" || bad "card_frame: no max_slip_speed in stats.json"

# bad input: exit 2, message names the file / key
expect 2 "missing scene" "$IPCC" run "$T/nope.json" -o "$T/x"
contains "$T/nope.json" "missing scene named"
printf '{"bodies": [{"mesh": "missing.msh"}]}' >"$T/m.json"
expect 2 "missing mesh" "$IPCC" run "$T/m.json" -o "$T/x"
contains "missing.msh" "missing mesh named"
printf '{"bodies": [{"mesh": "a.msh", "materia": {}}]}' >"$T/k.json"
expect 2 "unknown key" "$IPCC" run "$T/k.json" -o "$T/x"
contains "bodies[0].materia" "unknown key named"
printf '{"bodies": [\n{"mesh": }]}' >"$T/j.json"
expect 2 "malformed JSON" "$IPCC" run "$T/j.json" -o "$T/x"
contains "j.json:2" "malformed JSON line named"
expect 2 "bad --steps" "$IPCC" run scenes/two_cubes.json --steps -3
printf '{"bodies": [{"mesh": "a.msh", "friction": {"static": 0.2, "kinetic": 0.5}}]}' >"$T/f.json"
expect 2 "static friction below kinetic" "$IPCC" run "$T/f.json" -o "$T/x"
contains "bodies[0].friction.static" "friction key named"
printf '{"contact": {"friction_combine": "avg"}, "bodies": [{"mesh": "a.msh"}]}' >"$T/c.json"
expect 2 "unknown friction_combine" "$IPCC" run "$T/c.json" -o "$T/x"
contains "contact.friction_combine" "friction_combine key named"
# two cubes that start interpenetrating are rejected, naming the primitives
cat >"$T/isect.json" <<EOT
{"bodies": [{"mesh": "$PWD/scenes/meshes/cube.msh"},
            {"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0.5, 0.5, 0.5]}]}
EOT
expect 2 "intersecting start" "$IPCC" run "$T/isect.json" -o "$T/x"
contains "intersects" "intersecting start explained"
contains "triangle" "intersecting primitives named"

# ipcc check: clean IPC meshes pass (those in scenes/meshes and tests/data/ipc-input; all of
# them in tools/validate.sh), a planted intersection is found
D=tests/data/ipc-input/input
for m in scenes/meshes/cube.msh scenes/meshes/mat40x40.msh scenes/meshes/torus.msh scenes/meshes/bunny.msh "$D/triMeshes/cube.obj"; do
  expect 0 "check clean $m" "$IPCC" check "$m"
done
{ echo "o a"; grep -E '^(v|f) ' "$D/triMeshes/cube.obj"
  echo "o b"; nv=$(grep -c '^v ' "$D/triMeshes/cube.obj")
  awk -v nv="$nv" '/^v /{printf "v %.17g %.17g %.17g\n", $2+0.3, $3+0.2, $4+0.1} /^f /{printf "f %d %d %d\n", $2+nv, $3+nv, $4+nv}' "$D/triMeshes/cube.obj"
} >"$T/planted.obj"
expect 1 "check finds planted intersection" "$IPCC" check "$T/planted.obj"
contains "INTERSECTING" "planted intersection reported"
# the same two cubes apart are clean
{ echo "o a"; grep -E '^(v|f) ' "$D/triMeshes/cube.obj"
  echo "o b"; awk -v nv="$nv" '/^v /{printf "v %.17g %.17g %.17g\n", $2+3, $3, $4} /^f /{printf "f %d %d %d\n", $2+nv, $3+nv, $4+nv}' "$D/triMeshes/cube.obj"
} >"$T/apart.obj"
expect 0 "check passes separated cubes" "$IPCC" check "$T/apart.obj"
expect 2 "check on a missing path" "$IPCC" check "$T/none"

# ipcc ccd on the benchmark queries vendored in tests/data (the full set: tools/validate.sh):
# no false negative, JSON totals
expect 0 "ccd on the vendored queries" "$IPCC" ccd tests/data/ccd-queries --json
contains '"false_negatives": 0,' "ccd reports zero false negatives"
contains '"queries": 784,' "ccd counts all queries"
mkdir -p "$T/q/vertex-face"
cp tests/data/ccd_bad.csv "$T/q/vertex-face/data_0_0.csv"
expect 2 "ccd on a malformed file" "$IPCC" ccd "$T/q"
contains "data_0_0.csv:3" "ccd error names file and line"
expect 2 "ccd on a file of unknown kind" "$IPCC" ccd tests/data/ccd_bad.csv
contains "vertex-face" "ccd says how the kind is told"

# LCP mode: frames, stats.json with mode lcp, dumped LCPs that `ipcc lcp` solves; bad options
expect 0 "run two_cubes --mode lcp" "$IPCC" run scenes/two_cubes.json --mode lcp --steps 40 -o "$T/lcp" --quiet --dump-lcp "$T/dump"
n=$(ls "$T/lcp/frames" | grep -c '\.obj$')
[ "$n" -eq 41 ] && ok "lcp: $n frames" || bad "lcp: $n frames, expected 41"
grep -Eq '"mode":[[:space:]]*"lcp"' "$T/lcp/stats.json" && ok "lcp: stats mode" || bad "lcp: stats mode"
grep -Eq '"lcp_iterations":[[:space:]]*[1-9]' "$T/lcp/stats.json" && ok "lcp: iterations counted" || bad "lcp: iterations"
m=$(ls "$T/dump" | grep '_M\.mtx$' | tail -n 1)
expect 0 "lcp: a dumped region solves" "$IPCC" lcp "$T/dump/$m" "$T/dump/${m%_M.mtx}_q.mtx" --solver lemke
printf '{"mode": "lcp", "lcp": {"friction": "pyramid"}, "bodies": [{"mesh": "%s/scenes/meshes/cube.msh"}]}' "$PWD" >"$T/lp.json"
expect 2 "lcp: pyramid needs lemke" "$IPCC" run "$T/lp.json" -o "$T/x" --quiet
contains "lcp.solver" "lcp: the error names lcp.solver"
expect 2 "lcp: unknown friction flag" "$IPCC" run scenes/two_cubes.json --mode lcp --friction cones -o "$T/x"
contains "lcp.friction" "lcp: the error names lcp.friction"

# LCP mode takes the output options of IPC mode: --format, --every, --preview(-every),
# --no-checkpoint, --lenient (IPC scripts), --check; checkpoints at each frame
expect 0 "lcp: --format ply,vtu --every 5 --preview-every 2" "$IPCC" run scenes/two_cubes.json --mode lcp --steps 20 --format ply,vtu --every 5 --preview-every 2 -o "$T/lfmt" --quiet
n=$(ls "$T/lfmt/frames" | grep -Ec '^[0-9]{6}\.(ply|vtu)$')
[ "$n" -eq 10 ] && ok "lcp: 5 frames in ply and vtu" || bad "lcp: $n ply/vtu frames, expected 10"
ls "$T/lfmt/frames" | grep -q '\.obj$' && bad "lcp: obj written without being asked" || ok "lcp: no obj frames"
p=$(ls "$T/lfmt/preview" | grep -c '\.png$')
[ "$p" -eq 3 ] && ok "lcp: previews of frames 0, 2, 4" || bad "lcp: $p previews, expected 3"
head -c 3 "$T/lfmt/frames/000004.ply" | grep -q ply && grep -q 'Name="velocity"' "$T/lfmt/frames/000004.vtu" &&
  grep -q 'Name="energy_density"' "$T/lfmt/frames/000004.vtu" && ok "lcp: ply and vtu frames" || bad "lcp: ply/vtu content"
[ -f "$T/lfmt/checkpoint.bin" ] && ok "lcp: checkpoint written" || bad "lcp: no checkpoint"
expect 0 "lcp: --preview" "$IPCC" run scenes/two_cubes.json --mode lcp --steps 2 --preview -o "$T/lpv" --quiet --no-checkpoint
[ "$(ls "$T/lpv/preview" | grep -c '\.png$')" -eq 3 ] && ok "lcp: --preview: a preview per frame" || bad "lcp: --preview"
[ ! -e "$T/lpv/checkpoint.bin" ] && ok "lcp: --no-checkpoint" || bad "lcp: checkpoint written despite --no-checkpoint"
expect 0 "lcp: --check" "$IPCC" run scenes/two_cubes.json --mode lcp --steps 4 --check -o "$T/lck" --quiet
expect 0 "lcp: check its frames" "$IPCC" check "$T/lck" --quiet
printf 'time 1 0.01\nshapes input 1\n%s 0 0 0 0 0 0 1 1 1\nnonsense 3\n' "$PWD/tests/data/ipc-input/input/tetMeshes/cube.msh" >"$T/lu.txt"
expect 2 "lcp: script with an unknown keyword" "$IPCC" run "$T/lu.txt" --mode lcp -o "$T/x"
contains "lu.txt:4: keyword 'nonsense'" "lcp: the script's error named"
expect 0 "lcp: --lenient script" "$IPCC" run "$T/lu.txt" --mode lcp --lenient --steps 2 -o "$T/lul" --quiet --friction box
contains "lu.txt:4: warning: keyword 'nonsense'" "lcp: --lenient warns"
grep -Eq '"friction":[[:space:]]*"box"' "$T/lul/stats.json" && ok "lcp: script run with the flags' options" || bad "lcp: script options"
expect 2 "LCP option with --mode ipc" "$IPCC" run scenes/two_cubes.json --mode ipc --coupling lumped -o "$T/x"
contains "--coupling is an option of LCP mode" "LCP option with --mode ipc named"
expect 2 "bad --mode" "$IPCC" run scenes/two_cubes.json --mode lpc -o "$T/x"
contains "expected ipc or lcp" "bad --mode named"
# the summary counts the regions whose solver stopped above the tolerance
expect 0 "lcp: few sweeps" "$IPCC" run scenes/two_cubes.json --mode lcp --steps 30 --max-iter 2 -o "$T/lun"
contains "unconverged:" "lcp: the summary reports unconverged regions"
contains "worst relative residual" "lcp: the summary reports the worst residual"
grep -Eq '"unconverged_regions":[[:space:]]*[1-9]' "$T/lun/stats.json" && ok "lcp: unconverged in stats.json" || bad "lcp: unconverged_regions"
# the LCP paper scenes declare "mode": "lcp": a plain run is an LCP run
expect 0 "stacking_spheres: plain run is LCP" "$IPCC" run scenes/stacking_spheres.json --steps 0 -o "$T/plain" --quiet
grep -Eq '"mode":[[:space:]]*"lcp"' "$T/plain/stats.json" && grep -Eq '"coupling":[[:space:]]*"coupled"' "$T/plain/stats.json" &&
  ok "stacking_spheres: mode lcp, coupled" || bad "stacking_spheres: $(grep -E '"(mode|coupling)"' "$T/plain/stats.json")"
for s in stacking_spheres pool_spheres pool2_spheres bucket_spheres skittles_balls; do
  grep -Eq '"mode":[[:space:]]*"lcp"' "scenes/$s.json" && ok "$s declares mode lcp" || bad "$s lacks mode lcp"
done

# output formats, --every, previews, plots
expect 0 "run --format ply,vtu --every 5 --preview-every 2" "$IPCC" run scenes/two_cubes.json --steps 20 --format ply,vtu --every 5 --preview-every 2 -o "$T/fmt" --quiet
n=$(ls "$T/fmt/frames" | grep -Ec '^[0-9]{6}\.(ply|vtu)$')
[ "$n" -eq 10 ] && ok "5 frames in ply and vtu" || bad "$n ply/vtu frames, expected 10"
ls "$T/fmt/frames" | grep -q '\.obj$' && bad "obj written without being asked" || ok "no obj frames"
[ -f "$T/fmt/frames/000004.vtu" ] && [ ! -f "$T/fmt/frames/000005.vtu" ] && ok "frame numbers zero-padded" || bad "frame names"
p=$(ls "$T/fmt/preview" | grep -c '\.png$')
[ "$p" -eq 3 ] && ok "previews of frames 0, 2, 4" || bad "$p previews, expected 3"
expect 0 "plot" "$IPCC" plot "$T/fmt"
p=$(ls "$T/fmt/plots" | grep -c '\.png$')
[ "$p" -eq 5 ] && ok "5 plots" || bad "$p plots, expected 5"
expect 2 "plot without stats.json" "$IPCC" plot "$T/none"
contains "stats.json" "plot names the missing file"
expect 2 "bad --format" "$IPCC" run scenes/two_cubes.json --format stl -o "$T/x"
contains "--format" "bad --format named"
expect 2 "bad --every" "$IPCC" run scenes/two_cubes.json --every 0 -o "$T/x"
contains "--every" "bad --every named"
expect 2 "bad --preview-every" "$IPCC" run scenes/two_cubes.json --preview-every x -o "$T/x"
expect 2 "--every without a value" "$IPCC" run scenes/two_cubes.json --every
printf '{"output": {"format": "gif"}, "bodies": [{"mesh": "a.msh"}]}' >"$T/f.json"
expect 2 "bad output.format" "$IPCC" run "$T/f.json" -o "$T/x"
contains "output.format" "bad output.format named"
# ipcc compare: both modes on the same steps, frames under DIR/ipc and DIR/lcp, the table
# in compare.json; --check in LCP mode records intersection_free without failing the run
expect 0 "compare two_cubes" "$IPCC" compare scenes/two_cubes.json --steps 12 -o "$T/cmp"
contains "intersection-free" "compare: the table has the exact-check row"
for mode in ipc lcp; do
  n=$(ls "$T/cmp/$mode/frames" | grep -c '\.obj$')
  [ "$n" -eq 13 ] && ok "compare: $mode frames" || bad "compare: $n $mode frames, expected 13"
done
grep -Eq '"energy_drift":' "$T/cmp/compare.json" && grep -Eq '"lcp":' "$T/cmp/compare.json" &&
  ok "compare: compare.json" || bad "compare: compare.json"
grep -Eq '"intersection_free":[[:space:]]*(true|false)' "$T/cmp/lcp/stats.json" &&
  ok "compare: lcp stats record intersection_free" || bad "compare: lcp intersection_free"
expect 2 "compare: bad steps" "$IPCC" compare scenes/two_cubes.json --steps x -o "$T/x"
contains "--steps" "compare: the error names --steps"
# LCP options go to the LCP run; a bad one is refused before the IPC run starts
expect 0 "compare --coupling lumped --friction box --solver pcg-pgs" "$IPCC" compare scenes/two_cubes.json --steps 3 -o "$T/cmpl" --coupling lumped --friction box --solver pcg-pgs
grep -Eq '"coupling":[[:space:]]*"lumped"' "$T/cmpl/lcp/stats.json" && grep -Eq '"friction":[[:space:]]*"box"' "$T/cmpl/lcp/stats.json" &&
  grep -Eq '"solver":[[:space:]]*"pcg-pgs"' "$T/cmpl/lcp/stats.json" && ok "compare: LCP options reach the LCP run" || bad "compare: LCP options"
expect 2 "compare: bad coupling" "$IPCC" compare scenes/two_cubes.json --steps 3 -o "$T/cmpx" --coupling stiff
contains "lcp.coupling" "compare: the error names lcp.coupling"
[ ! -e "$T/cmpx" ] && ok "compare: nothing run on a bad option" || bad "compare: ran despite a bad option"
expect 0 "compare --overwrite" "$IPCC" compare scenes/two_cubes.json --steps 2 -o "$T/cmp" --overwrite
n=$(ls "$T/cmp/ipc/frames" "$T/cmp/lcp/frames" | grep -c '\.obj$')
[ "$n" -eq 6 ] && ok "compare --overwrite: only the new frames" || bad "compare --overwrite: $n frames, expected 6"
# compare on affine bodies (an affine cube dropped onto a deformable one): both modes run,
# every frame intersection-free in both, and the table reports both
cat >"$T/affine.json" <<EOF
{"time_step": 0.01, "duration": 0.2, "gravity": [0, -9.80665, 0],
 "bodies": [{"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0, 0.001, 0], "friction": 0.5,
   "material": {"density": 1000, "young": 1e5, "poisson": 0.3}},
  {"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0.2, 1.05, 0.1], "affine": true,
   "friction": 0.5}],
 "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "friction": 0.5}]}
EOF
expect 0 "compare an affine scene" "$IPCC" compare "$T/affine.json" --steps 20 -o "$T/cmpa"
grep -Eq '^completed +yes +yes' "$T/out" && ok "compare affine: both runs completed" || { bad "compare affine: completed row"; cat "$T/out"; }
grep -Eq '^intersection-free \(frames\) +yes \(21\) +yes \(21\)' "$T/out" &&
  ok "compare affine: both intersection-free" || { bad "compare affine: intersection-free row"; cat "$T/out"; }
grep -Eq '"ipc":' "$T/cmpa/compare.json" && grep -Eq '"lcp":' "$T/cmpa/compare.json" &&
  ok "compare affine: compare.json has both" || bad "compare affine: compare.json"

# a run into the folder of an earlier one: refused; --overwrite clears ipcc's files (frames,
# previews, plots, stats.json, checkpoint) and nothing else; bad input clears nothing
expect 2 "rerun into a run's folder" "$IPCC" run scenes/two_cubes.json --steps 2 -o "$T/fmt" --quiet
contains "--overwrite" "rerun: the error says --overwrite"
touch "$T/fmt/notes.txt" "$T/fmt/frames/mine.obj" "$T/fmt/frames/000019.vtu.tmp.99"
expect 2 "bad input with --overwrite" "$IPCC" run "$T/nope.json" -o "$T/fmt" --overwrite
[ -f "$T/fmt/frames/000004.vtu" ] && ok "bad input clears nothing" || bad "bad input cleared the earlier run"
expect 0 "rerun --overwrite" "$IPCC" run scenes/two_cubes.json --steps 2 -o "$T/fmt" --quiet --overwrite
[ "$(ls "$T/fmt/frames" | tr '\n' ' ')" = "000000.obj 000001.obj 000002.obj mine.obj " ] &&
  ok "--overwrite: the new frames and the user's file" || bad "--overwrite left: $(ls "$T/fmt/frames")"
[ -f "$T/fmt/notes.txt" ] && [ ! -e "$T/fmt/preview" ] && [ ! -e "$T/fmt/plots" ] &&
  ok "--overwrite: previews and plots gone, other files kept" || bad "--overwrite: $(ls "$T/fmt")"
grep -Eq '"steps":[[:space:]]*2,' "$T/fmt/stats.json" && ok "--overwrite: new stats.json" || bad "--overwrite: stats.json"
expect 0 "LCP rerun --overwrite" "$IPCC" run scenes/two_cubes.json --mode lcp --steps 1 -o "$T/fmt" --quiet --overwrite
[ ! -e "$T/fmt/frames/000002.obj" ] && "$IPCC" run --resume "$T/fmt" 2>&1 | grep -q "LCP mode" &&
  ok "LCP --overwrite: the IPC run's frames gone, the checkpoint is the LCP run's" || bad "LCP --overwrite: $(ls "$T/fmt" "$T/fmt/frames")"
expect 2 "--resume with --overwrite" "$IPCC" run --resume "$T/fmt" --overwrite

# the sphere scenes of the LCP comparison (tools/gen_sphere_scenes.py) load in LCP mode and
# start intersection-free (0 steps: a step of 30-64 spheres takes seconds)
for s in stacking_spheres pool_spheres pool2_spheres; do
  expect 0 "lcp: $s loads" "$IPCC" run "scenes/$s.json" --mode lcp --steps 0 --check -o "$T/$s" --quiet
  grep -Eq '"intersection_free":[[:space:]]*true' "$T/$s/stats.json" && ok "lcp: $s starts apart" || bad "lcp: $s starts apart"
done

# lumped coupling on bodies too stiff and light for the step warns (stacking: E h^2/(rho l^2) ~ 1e4);
# the scene's own coupled mode and the soft two cubes do not
expect 0 "lcp: lumped stacking loads" "$IPCC" run scenes/stacking_spheres.json --mode lcp --coupling lumped --steps 0 -o "$T/lw"
contains "warning: lumped coupling with body" "lcp: lumped on stiff light bodies warns"
expect 0 "lcp: coupled stacking loads" "$IPCC" run scenes/stacking_spheres.json --mode lcp --steps 0 -o "$T/lw" --quiet --overwrite
grep -qF "warning" "$T/out" && bad "lcp: coupled stacking warns" || ok "lcp: coupled stacking does not warn"
expect 0 "lcp: lumped two_cubes" "$IPCC" run scenes/two_cubes.json --mode lcp --coupling lumped --steps 0 -o "$T/lw" --quiet --overwrite
grep -qF "warning" "$T/out" && bad "lcp: lumped two_cubes warns" || ok "lcp: lumped two_cubes does not warn"

# FCLIB problems (tests/data/fclib): solved, exit 0; not converged within the sweeps, exit 1;
# a missing file, exit 2 naming it
F=tests/data/fclib
expect 0 "fclib: Box_Stacks converges" "$IPCC" fclib "$F/Box_Stacks-i0122-82-5.hdf5"
contains "converged" "fclib: Box_Stacks says converged"
expect 1 "fclib: 3 sweeps are not enough" "$IPCC" fclib "$F/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5" --max-iter 3
expect 2 "fclib: missing file" "$IPCC" fclib "$T/nothing.hdf5"
contains "nothing.hdf5" "fclib: the error names the file"

# infeasible scripts (tests/data): a cube scripted into the ground plane, and a quad scripted
# onto a cube pinned in place. The run ends normally (exit 0), no frame intersects nor crosses
# the plane, the steps that cannot follow the script report dirichlet_unmet (the steps before
# contact follow it), and the summary counts them and says so on the terminal
for s in infeasible_script infeasible_obstacle infeasible_touch; do
  expect 0 "$s: runs to the end" "$IPCC" run "tests/data/$s.json" -o "$T/$s" --check --no-checkpoint
  contains "script not followed in" "$s: the terminal summary reports the unmet script"
  expect 0 "$s: check" "$IPCC" check "$T/$s" --quiet
  j="$T/$s/stats.json"
  grep -Eq '"intersection_free":[[:space:]]*true' "$j" && ok "$s: intersection-free" || bad "$s: intersection_free"
  unmet=$(grep -Ec '"dirichlet_unmet":[[:space:]]*[1-9]' "$j")
  total=$(sed -n 's/.*"dirichlet_unmet_steps":[[:space:]]*\([0-9]*\).*/\1/p' "$j")
  steps=$(grep -c '"dirichlet_unmet":' "$j")
  [ "$unmet" -gt 0 ] && [ "$unmet" -lt "$steps" ] && ok "$s: $unmet of $steps steps unmet" ||
    bad "$s: $unmet of $steps steps report dirichlet_unmet"
  [ "$total" = "$unmet" ] && ok "$s: summary dirichlet_unmet_steps" ||
    bad "$s: summary dirichlet_unmet_steps '$total', steps say $unmet"
  grep -Eq '"dirichlet_unmet":[[:space:]]*0,' "$j" && ok "$s: feasible steps met" || bad "$s: no step met its script"
done
below=$(cat "$T"/infeasible_script/frames/*.obj | awk '/^v /{if ($3 <= 0) n++} END {print n + 0}')
[ "$below" -eq 0 ] && ok "infeasible_script: every frame above the plane" ||
  bad "infeasible_script: $below vertices on or below the plane"

# the pinned cube does not yield to the quad pressing on it
pinned() { awk '/^o /{on = ($2 == "pinned")} on && /^v /' "$1"; }
first=$(ls "$T"/infeasible_obstacle/frames/*.obj | head -n 1)
last=$(ls "$T"/infeasible_obstacle/frames/*.obj | tail -n 1)
[ -n "$(pinned "$first")" ] && [ "$(pinned "$first")" = "$(pinned "$last")" ] &&
  ok "infeasible_obstacle: the pinned cube stays in place" ||
  bad "infeasible_obstacle: the pinned cube moved"

# obstacles overlapping each other (walls meeting at a corner) are the script's doing: the
# frames mark obstacles, and `ipcc check` counts only what the simulator is responsible for
cat >"$T/oo.json" <<EOT
{"bodies": [{"mesh": "$PWD/scenes/meshes/cube.msh", "translation": [0, 3, 0]},
  {"mesh": "$PWD/scenes/meshes/cube.msh", "obstacle": true},
  {"mesh": "$PWD/scenes/meshes/cube.msh", "obstacle": true, "translation": [0.5, 0.5, 0.5]}]}
EOT
expect 0 "overlapping obstacles run" "$IPCC" run "$T/oo.json" -o "$T/oo" --steps 2 --quiet --check
expect 0 "overlapping obstacles: check passes" "$IPCC" check "$T/oo" --quiet
grep -q '^# ipcc obstacle$' "$T/oo/frames/000001.obj" && ok "frames mark obstacles" || bad "frames do not mark obstacles"
sed '/^# ipcc obstacle$/d' "$T/oo/frames/000001.obj" >"$T/oo_unmarked.obj"
expect 1 "the same frame without the marks intersects" "$IPCC" check "$T/oo_unmarked.obj" --quiet

echo "$fails failed"
[ "$fails" -eq 0 ]
