#!/bin/sh
# ipcc render: with --camera follow, the previews it draws from a run's frame files are the
# very images `ipcc run --preview` drew during the run (byte for byte, frame label included), from OBJ, PLY or VTU frames, for
# tet, affine and LCP-mode scenes, with the scene found through stats.json or, for a run still
# going, checkpoint.bin; --every, --frame, -o, --size and --camera; and clear errors for a folder that
# is no run, a frame of another scene, a missing frame, bad options.
# usage: test_render.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"
same_previews() { # same_previews RUNDIR OTHERDIR DESCRIPTION
  n=0; diff=0
  for f in "$1"/preview/*.png; do
    n=$((n + 1))
    cmp -s "$f" "$2/$(basename "$f")" || diff=$((diff + 1))
  done
  if [ "$n" -gt 0 ] && [ "$diff" -eq 0 ]; then ok "$3 ($n images identical)"; else bad "$3 ($diff of $n differ)"; fi
}

# squeeze_ball: tets and kinematic obstacles; cube_pile: affine bodies and a floor plane
for spec in "two_cubes obj" "squeeze_ball vtu" "cube_pile ply"; do
  set -- $spec
  expect 0 "run $1 --format $2 --preview" "$IPCC" run "scenes/$1.json" -o "$T/$1" --steps 6 \
    --every 2 --preview --format "$2" --quiet
  expect 0 "render $1" "$IPCC" render "$T/$1" -o "$T/$1/re" --camera follow
  contains "4 previews in $T/$1/re" "render $1 draws every frame"
  same_previews "$T/$1" "$T/$1/re" "render $1 ($2 frames) = the run's previews"
done
expect 0 "run pool_spheres in LCP mode" "$IPCC" run scenes/pool_spheres.json --mode lcp \
  -o "$T/lcp" --steps 4 --every 2 --preview --quiet
expect 0 "render an LCP run" "$IPCC" render "$T/lcp" -o "$T/lcp/re" --camera follow
same_previews "$T/lcp" "$T/lcp/re" "render of LCP frames = the run's previews"

# a run without previews gets them in RUNDIR/preview; a run still going (no stats.json)
# names its scene in checkpoint.bin
expect 0 "run without previews" "$IPCC" run scenes/two_cubes.json -o "$T/np" --steps 6 \
  --every 2 --quiet
rm "$T/np/stats.json"
expect 0 "render a run without stats.json" "$IPCC" render "$T/np" --camera follow
same_previews "$T/two_cubes" "$T/np/preview" "scene from checkpoint.bin, previews in RUNDIR/preview"
rm -rf "$T/np/preview"
expect 0 "render --every 2" "$IPCC" render "$T/np" --every 2
if [ -f "$T/np/preview/000000.png" ] && [ -f "$T/np/preview/000002.png" ] &&
   [ -f "$T/np/preview/000003.png" ] && [ ! -f "$T/np/preview/000001.png" ]; then
  ok "--every 2 draws frames 0, 2 and the last"
else bad "--every 2 drew: $(ls "$T/np/preview" | tr '\n' ' ')"; fi
expect 0 "render --frame 1 --size 320x200" "$IPCC" render "$T/np" --frame 1 --size 320x200 -o "$T/one"
if [ "$(ls "$T/one")" = "000001.png" ] &&
   [ "$(od -An -tu1 -j16 -N8 "$T/one/000001.png" | tr -s ' ')" = " 0 0 1 64 0 0 0 200" ]; then
  ok "--frame 1 --size 320x200: one image of 320 x 200"
else bad "--frame/--size: $(ls "$T/one"), header $(od -An -tu1 -j16 -N8 "$T/one/000001.png")"; fi

expect 0 "render --camera" "$IPCC" render "$T/np" --frame 1 --camera 3,4,5,0,1,0,30 -o "$T/cam"
if cmp -s "$T/cam/000001.png" "$T/np/preview/000001.png"; then bad "--camera changed nothing"
else ok "--camera draws another view"; fi

# bad input
expect 2 "render --camera with eye = target" "$IPCC" render "$T/np" --camera 1,1,1,1,1,1
contains "eye apart from target" "names the degenerate camera"
expect 2 "render --camera with five numbers" "$IPCC" render "$T/np" --camera 1,2,3,4,5
contains "--camera: expected EX,EY,EZ,TX,TY,TZ" "names the camera form"
expect 2 "render a folder that is no run" "$IPCC" render "$T/one"
contains "no stats.json or checkpoint.bin" "names what a run folder holds"
expect 2 "render a run with another scene's frames" "$IPCC" render "$T/np" --scene scenes/cube_pile.json -o "$T/x"
contains "is it a frame of this scene?" "a frame of another scene is refused"
expect 2 "render --frame of a frame the run lacks" "$IPCC" render "$T/np" --frame 9
contains "--frame 9" "names the missing frame"
contains "frames 0 to 3" "names the frames there are"
expect 2 "render --size 0x10" "$IPCC" render "$T/np" --size 0x10
contains "expected WxH" "names the expected size form"
expect 2 "render --every 0" "$IPCC" render "$T/np" --every 0
contains "--every: expected an integer >= 1" "names the bad --every"
expect 2 "render --scene of a missing file" "$IPCC" render "$T/np" --scene "$T/none.json"
contains "none.json" "names the missing scene"
expect 2 "render without a folder" "$IPCC" render
contains "usage: ipcc render" "prints its usage"
mkdir -p "$T/empty/frames"
expect 2 "render a run without frames" "$IPCC" render "$T/empty" --scene scenes/two_cubes.json
contains "no frames" "says there are no frames"

echo "$fails failed"
[ "$fails" -eq 0 ]
