#!/bin/sh
# a contact sheet of a run's previews, to look at a scene's whole run in one picture:
#   tools/preview_sheet.sh IPCC SCENE SHEET.png [--steps N] [other ipcc run options]
# runs SCENE into a temporary folder with about 12 previews over the run (--preview-every
# from the scene's steps), then joins them 4 per row with ImageMagick's convert (not a
# dependency of ipcc: a developer tool; Debian package imagemagick)
set -e
convert=/usr/bin/convert
ipcc=$1 scene=$2 sheet=$3
shift 3
out=$(mktemp -d /tmp/ipcc_sheet.XXXXXX)
trap 'rm -rf "$out"' EXIT
steps=$(/usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(round(d.get('duration', 1.0) / d['time_step']))" "$scene")
for a in "$@"; do
  case $prev in --steps) steps=$a ;; esac
  prev=$a
done
every=$(( (steps + 11) / 12 ))
[ "$every" -ge 1 ] || every=1
"$ipcc" run "$scene" -o "$out/run" --preview-every "$every" --every 1 --quiet --no-checkpoint "$@"
set -- "$out"/run/preview/*.png
rows=""
i=0
while [ $# -gt 0 ]; do
  row="$out/row$i.png"
  n=0
  files=""
  while [ $# -gt 0 ] && [ $n -lt 4 ]; do files="$files $1"; shift; n=$((n + 1)); done
  # shellcheck disable=SC2086
  $convert $files -resize 50% +append "$row"
  rows="$rows $row"
  i=$((i + 1))
done
# shellcheck disable=SC2086
$convert $rows -append "$sheet"
echo "$sheet: $(ls "$out"/run/preview/*.png | wc -l) previews, every $every frames"
