#!/bin/sh
# IPC .txt scripts end to end: a handful of IPC's scripts (vendored in tests/data/ipc-input;
# tools/validate.sh runs all of them from a full copy) run a few steps with the
# exact check of every frame, then `ipcc check` certifies the frames again; unsupported
# keywords exit 2 naming file, line and keyword; --lenient turns them into warnings.
# usage: test_ipc_scripts.sh path/to/ipcc   (run from the project root)
set -u
IPCC=$1
D=tests/data/ipc-input/input
. "$(dirname "$0")/lib.sh"

i=0
for s in tutorialExamples/2cubesFall.txt:20 tutorialExamples/BC/2cubesFall_DBC.txt:10 \
         tutorialExamples/advanced/2cubesFall_NM.txt:10 \
         tutorialExamples/MCO/2cubesFall_rotateCO_edges.txt:10 \
         paperExamples/11_erleben/spikeCrackCO.txt:10 \
         paperExamples/supplementB/SQPBenchmark/03_edgeEdgeCO.txt:10 \
         paperExamples/supplementB/SQPBenchmark/30_matTwist.txt:3; do
  f=${s%%:*}; n=${s##*:}; i=$((i + 1))
  expect 0 "run $f ($n steps)" "$IPCC" run "$D/$f" --steps "$n" -o "$T/r$i" --quiet --check
  expect 0 "check $f" "$IPCC" check "$T/r$i" --quiet
  c=$(ls "$T/r$i/frames" | grep -c '\.obj$')
  [ "$c" -eq $((n + 1)) ] && ok "$f: $c frames" || bad "$f: $c frames, expected $((n + 1))"
done

# a script given by content (no .txt name) is recognised
cp "$D/tutorialExamples/2cubesFall.txt" "$T/nameless"
sed -i "s#input/#$PWD/$D/#" "$T/nameless"
expect 0 "script without .txt" "$IPCC" run "$T/nameless" --steps 2 -o "$T/n" --quiet

# unsupported and malformed keywords: exit 2 with file:line: keyword
printf 'time 1 0.01\nshapes input 1\n%s 0 0 0 0 0 0 1 1 1\nscript scaleF\n' "$PWD/$D/tetMeshes/cube.msh" >"$T/c.txt"
expect 2 "unsupported scenario" "$IPCC" run "$T/c.txt" -o "$T/x"
contains "c.txt:4: keyword 'script': scenario 'scaleF' is not supported (" "scenario and line named"
printf 'time 1 0.01\nshapes input 1\n%s 0 0 0 0 0 0 1 1 1\nnonsense 3\n' "$PWD/$D/tetMeshes/cube.msh" >"$T/u.txt"
expect 2 "unknown keyword" "$IPCC" run "$T/u.txt" -o "$T/x"
contains "u.txt:4: keyword 'nonsense' is not supported" "unknown keyword named"
expect 0 "--lenient" "$IPCC" run "$T/u.txt" --lenient --steps 2 -o "$T/l" --quiet
contains "u.txt:4: warning: keyword 'nonsense'" "--lenient warns"
printf 'time 1 zero\n' >"$T/m.txt"
expect 2 "malformed number" "$IPCC" run "$T/m.txt" -o "$T/x"
contains "m.txt:1: keyword 'time'" "malformed keyword named"

echo "$fails failed"
[ "$fails" -eq 0 ]
