#!/bin/sh
# small command-line promises: every command answers -h/--help with its usage and exit 0
# (ipcc ccd --help did not); the top-level usage names .txt scripts, --mode, --format,
# previews, --resume and --overwrite; a folder given with a trailing slash is never printed
# with a doubled one ("-o out/" prints out/frames/...).
# usage: test_cli_misc.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
. "$(dirname "$0")/lib.sh"
lacks() { # lacks TEXT DESCRIPTION
  if grep -qF -- "$1" "$T/out"; then bad "$2: output has '$1'"; cat "$T/out"; else ok "$2"; fi
}

for c in run check compare ccd lcp fclib plot render; do
  for h in -h --help; do
    expect 0 "ipcc $c $h" "$IPCC" $c $h
    contains "usage: ipcc $c" "ipcc $c $h prints its usage"
  done
done
expect 2 "ipcc ccd without a path" "$IPCC" ccd
contains "usage: ipcc ccd PATH" "ipcc ccd without a path prints its usage"

expect 0 "ipcc help" "$IPCC" help
for w in ".txt script" "--mode ipc|lcp" "--format obj,ply,vtu" "--preview" "--overwrite" "--resume" ".ply, .vtu"; do
  contains "$w" "usage names $w"
done
expect 2 "ipcc without a command" "$IPCC"
contains "--format" "usage on stderr too"

# trailing slashes: printed paths never double them
expect 0 "run -o DIR/" "$IPCC" run scenes/two_cubes.json --steps 2 --preview -o "$T/a/" --no-checkpoint
contains "frames: $T/a/frames/NNNNNN" "frames path printed once-slashed"
contains "previews: $T/a/preview/NNNNNN.png" "preview path printed once-slashed"
contains "statistics: $T/a/stats.json" "stats path printed once-slashed"
lacks "//" "no doubled slash in run's output"
expect 0 "run -o DIR// with a checkpoint" "$IPCC" run scenes/two_cubes.json --steps 2 -o "$T/b//"
lacks "//" "no doubled slash with two trailing slashes"
expect 0 "resume DIR/" "$IPCC" run --resume "$T/b/" --steps 3
lacks "//" "no doubled slash in --resume's output"
expect 0 "check DIR/" "$IPCC" check "$T/a/"
contains "$T/a/frames/000000.obj: ok" "check prints frame paths once-slashed"
lacks "//" "no doubled slash in check's output"
expect 0 "plot DIR/" "$IPCC" plot "$T/a/"
lacks "//" "no doubled slash in plot's output"

# IPCC_TRACE: one line per Newton iteration; the bodies above the tolerance are counted from
# the same direction as |p|inf, so none is above it exactly when |p|inf is within it, and an
# accepted step decreased the energy by a positive share of its first-order prediction
IPCC_TRACE=1 "$IPCC" run scenes/stacking_spheres_affine.json --mode ipc --steps 6 --no-checkpoint \
  -o "$T/trace" >/dev/null 2>"$T/trace.err"
lines=$(grep -c "^ipcc trace: step" "$T/trace.err")
if [ "$lines" -ge 6 ]; then ok "IPCC_TRACE prints $lines Newton iterations"; else
  bad "IPCC_TRACE printed $lines iterations over 6 steps"; fi
verdict=$(awk '/^ipcc trace: step/ {
  split("", f)
  for (i = 1; i < NF; ++i) if (!($i in f)) f[$i] = $(i + 1)
  p = f["|p|inf"]; tol = f["tol"]; over = f["bodies>tol"]; a = f["alpha"]
  if ((p <= tol) != (over == 0)) { print "bodies>tol " over " with |p|inf " p " tol " tol; exit }
  if (a > 0 && p > tol && !(f["decrease/predicted"] > 0)) { print "decrease/predicted " f["decrease/predicted"]; exit }
  n++ } END { if (n == 0) print "no trace lines" }' "$T/trace.err")
if [ -z "$verdict" ]; then ok "IPCC_TRACE: bodies above the tolerance and decrease agree with |p|inf"; else
  bad "IPCC_TRACE: $verdict"; fi

echo "$fails failed"
[ "$fails" -eq 0 ]
