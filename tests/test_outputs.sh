#!/bin/sh
# frames in PLY and VTU: `ipcc check` certifies runs written with --format ply,vtu, only ply
# or only vtu (one format per frame when there are several), finds planted intersections in
# PLY and VTU files (exit 1), honours their obstacle marks; the ParaView collection
# frames/frames.pvd lists every VTU frame with rising times, also after --resume (a killed
# and resumed run writes the same frames.pvd as an uninterrupted one: test_resume.sh).
# (damaged PLY/VTU frames: tests/bad_input/check_*.case; the readers: test_frame_read.c)
# usage: test_outputs.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"

# runs in each format, certified afterwards (incline_obstacle: a block on an obstacle ramp;
# squeeze_ball: obstacle walls closing on a ball)
for fmt in ply,vtu ply vtu; do
  for s in incline_obstacle:12 squeeze_ball:6; do
    name=${s%%:*}; steps=${s##*:}
    out="$T/$name-$fmt"
    expect 0 "run $name --format $fmt" "$IPCC" run "scenes/$name.json" --steps "$steps" --format "$fmt" -o "$out" --quiet --check
    expect 0 "check $name ($fmt)" "$IPCC" check "$out"
    contains "$((steps + 1)) frames checked: 0 intersecting, 0 unreadable" "$name ($fmt): every frame checked once"
  done
done
expect 0 "check of ply,vtu frames" "$IPCC" check "$T/incline_obstacle-ply,vtu"
contains "checking one file per frame (.obj, else .ply, else .vtu); 0 .ply and 13 .vtu files not checked" "one format per frame, said so"
contains "000012.ply: ok" "PLY preferred over VTU"
expect 0 "check of one VTU frame" "$IPCC" check "$T/squeeze_ball-vtu/frames/000006.vtu"
contains "000006.vtu: ok" "VTU frame checked"

# planted intersections: two triangles through each other (ascii PLY), two tets through
# each other (VTU)
mkdir -p "$T/planted"
cat >"$T/planted/a.ply" <<'EOF'
ply
format ascii 1.0
element vertex 6
property float x
property float y
property float z
property int object_id
element face 2
property list uchar int vertex_indices
end_header
0 0 0 0
1 0 0 0
0 1 0 0
0.2 0.2 -1 1
0.2 0.2 1 1
1 1 0.5 1
3 0 1 2
3 3 4 5
EOF
cat >"$T/planted/b.vtu" <<'EOF'
<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="1.0">
<UnstructuredGrid>
<Piece NumberOfPoints="8" NumberOfCells="2">
<Points>
<DataArray type="Float64" NumberOfComponents="3" format="ascii">
0 0 0 1 0 0 0 1 0 0 0 1
0.1 0.1 0.1 1.1 0.1 0.1 0.1 1.1 0.1 0.1 0.1 1.1
</DataArray>
</Points>
<Cells>
<DataArray type="Int64" Name="connectivity" format="ascii">0 1 2 3 4 5 6 7</DataArray>
<DataArray type="Int64" Name="offsets" format="ascii">4 8</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">10 10</DataArray>
</Cells>
</Piece>
</UnstructuredGrid>
</VTKFile>
EOF
expect 1 "planted intersection in a PLY file" "$IPCC" check "$T/planted/a.ply"
contains "a.ply: INTERSECTING" "PLY intersection named"
expect 1 "planted intersection in a VTU file" "$IPCC" check "$T/planted/b.vtu"
contains "b.vtu: INTERSECTING" "VTU intersection named"
expect 1 "folder with planted PLY and VTU" "$IPCC" check "$T/planted"
contains "2 frames checked: 2 intersecting" "both planted frames found"
# the same triangles marked as obstacles: a meeting of obstacles is not the run's doing
sed 's/^end_header$/comment obstacle 0\ncomment obstacle 1\nend_header/' "$T/planted/a.ply" >"$T/obstacles.ply"
expect 0 "obstacle-obstacle pair in a PLY file skipped" "$IPCC" check "$T/obstacles.ply"
sed 's|^</Points>$|</Points>\n<PointData><DataArray type="UInt8" Name="obstacle" format="ascii">1 1 1 1 1 1 1 1</DataArray></PointData>|' \
  "$T/planted/b.vtu" >"$T/obstacles.vtu"
expect 0 "obstacle-obstacle pair in a VTU file skipped" "$IPCC" check "$T/obstacles.vtu"

# the ParaView collection: one DataSet per VTU frame, rising times; valid XML
pvd_ok() { # pvd_ok FOLDER N DESCRIPTION
  p="$1/frames/frames.pvd"
  n=$(grep -c '<DataSet ' "$p")
  [ "$n" -eq "$2" ] && ok "$3: $n frames in frames.pvd" || bad "$3: $n DataSets in frames.pvd, expected $2"
  k=0
  for f in $(sed -n 's/.*file="\([0-9]*\.vtu\)".*/\1/p' "$p"); do
    [ -f "$1/frames/$f" ] || bad "$3: frames.pvd lists the missing $f"
    [ "$f" = "$(printf '%06d.vtu' $k)" ] || bad "$3: entry $k of frames.pvd is $f"
    k=$((k + 1))
  done
  sed -n 's/.*timestep="\([^"]*\)".*/\1/p' "$p" | awk 'NR > 1 && $1 <= prev { bad = 1 } { prev = $1 } END { exit bad }' &&
    ok "$3: times rise" || bad "$3: times in frames.pvd do not rise"
  if command -v xmllint >/dev/null; then
    xmllint --noout "$p" && ok "$3: frames.pvd is well-formed XML" || bad "$3: xmllint"
  fi
}
pvd_ok "$T/squeeze_ball-vtu" 7 "squeeze_ball"
[ ! -f "$T/squeeze_ball-ply/frames/frames.pvd" ] && ok "no frames.pvd without VTU frames" || bad "frames.pvd without VTU frames"
expect 0 "run in VTU with --every 3" "$IPCC" run scenes/incline_obstacle.json --steps 10 --every 3 --format vtu -o "$T/pvd" --quiet
grep -q 'timestep="0.[0-9]*" part="0" file="000004.vtu"' "$T/pvd/frames/frames.pvd" && ok "last frame (step 10) listed" || bad "frames.pvd lacks the last frame"
# extending the finished run: frame 4 stays at step 10, then steps 12, 15 and 16
expect 0 "resume to 16 steps" "$IPCC" run --resume "$T/pvd" --steps 16 --quiet
pvd_ok "$T/pvd" 8 "resumed run"
expect 0 "--overwrite removes frames.pvd with the frames" "$IPCC" run scenes/incline_obstacle.json --steps 2 -o "$T/pvd" --overwrite --quiet
[ ! -f "$T/pvd/frames/frames.pvd" ] && ok "old frames.pvd gone" || bad "frames.pvd left by --overwrite"

echo "$fails failed"
[ "$fails" -eq 0 ]
