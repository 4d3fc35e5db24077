#!/bin/sh
# the point cache in Blender (--format pc2, tools/blender_import.py, docs/rendering.md): a
# short two_cubes run with OBJ frames and the cache; Blender (Debian's, tools/install-deps.sh)
# imports it, and every vertex its depsgraph evaluates at frames 0, 1, the middle and the last
# matches ipcc's OBJ frame within float32 rounding; one frame rendered with Cycles on the CPU
# shows the bodies (tests/blender_check.py). Not skipped without Blender: it fails.
# usage: test_blender.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"

BLENDER=$(command -v blender)
if [ -z "$BLENDER" ]; then
  bad "blender not found: install it (tools/install-deps.sh installs Debian's blender)"
  echo "$fails failed"
  exit 1
fi

"$IPCC" run scenes/two_cubes.json -o "$T/run" --steps 20 --format obj,pc2 --quiet &&
  ok "ipcc run --format obj,pc2" || bad "ipcc run --format obj,pc2"
[ -f "$T/run/frames/rest.obj" ] && [ -f "$T/run/frames/motion.pc2" ] &&
  ok "rest.obj and motion.pc2 written" || bad "no rest.obj or motion.pc2"

# Blender's own files (preferences, caches) go to the scratch folder
HOME=$T "$BLENDER" -b --factory-startup --python-exit-code 1 \
  --python tests/blender_check.py -- tools "$T/run" "$T/frame.png" >"$T/blender.log" 2>&1
rc=$?
grep -E '^(ok|FAIL): ' "$T/blender.log"
if [ "$rc" -eq 0 ] && grep -q '^blender_check: 0 failed' "$T/blender.log"; then
  ok "Blender round trip and render"
else
  bad "Blender check (exit $rc)"
  tail -n 30 "$T/blender.log"
fi
[ -s "$T/frame.png" ] && ok "PNG written" || bad "no PNG"
echo "$fails failed"
[ "$fails" -eq 0 ]
