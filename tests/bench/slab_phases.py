#!/usr/bin/env python3
"""Per-Newton-iteration phases of `ipcc run` outputs side by side (issue 21's slab table):
  slab_phases.py [--frames] NAME=OUTDIR[:TIMEFILE] ...
Each OUTDIR holds a run's stats.json; TIMEFILE, if given, is the output of
`/usr/bin/time -f "%U %S %e %M" -o TIMEFILE ipcc run ...` (user and system CPU seconds, wall
seconds, peak resident KB). Prints per run: steps, Newton iterations per step, and per Newton
iteration the wall seconds of assembly, linear solve (factorization or preconditioner set-up
plus solve), CCD, broad phase and the rest, then CPU seconds per iteration and peak memory.
With --frames, the largest vertex difference of every run's last common frame (OBJ) from
the first run's. The stats' phases are wall times: on a loaded machine compare CPU."""
import json
import os
import sys


def obj_vertices(path):
    with open(path) as f:
        return [tuple(map(float, ln.split()[1:4])) for ln in f if ln.startswith("v ")]


def main():
    args = sys.argv[1:]
    frames = "--frames" in args
    args = [a for a in args if a != "--frames"]
    if not args:
        sys.exit(__doc__)
    runs = []
    for a in args:
        name, rest = a.split("=", 1)
        out, _, timefile = rest.partition(":")
        with open(os.path.join(out, "stats.json")) as f:
            st = json.load(f)
        runs.append((name, out, st, timefile))
    print("| run | steps | Newton its/step | per iteration (wall s): assembly / linear solve / "
          "CCD / broad phase / rest | CPU s per iteration | peak RSS |")
    print("|---|---|---|---|---|---|")
    for name, out, st, timefile in runs:
        steps = st["steps"]
        its = sum(s["newton_iterations"] for s in steps) or 1
        sec = {k: sum(s["seconds"][k] for s in steps) / its
               for k in ("total", "assembly", "factorization", "ccd", "broad_phase")}
        rest = sec["total"] - sec["assembly"] - sec["factorization"] - sec["ccd"] - \
            sec["broad_phase"]
        cpu, mem = "-", "-"
        if timefile:
            with open(timefile) as f:
                u, s_, _, kb = f.read().split()[-4:]
            cpu = "%.1f" % ((float(u) + float(s_)) / its)
            mem = "%.2f GB" % (float(kb) / 1024 ** 2)
        print("| %s | %d | %.2f | %.1f = %.1f / %.1f / %.2f / %.2f / %.1f | %s | %s |" % (
            name, len(steps), its / len(steps), sec["total"], sec["assembly"],
            sec["factorization"], sec["ccd"], sec["broad_phase"], rest, cpu, mem))
    if frames:
        last = min(len(r[2]["steps"]) for r in runs)
        ref = obj_vertices(os.path.join(runs[0][1], "frames", "%06d.obj" % last))
        for name, out, _, _ in runs[1:]:
            x = obj_vertices(os.path.join(out, "frames", "%06d.obj" % last))
            d = max(abs(p - q) for a, b in zip(ref, x) for p, q in zip(a, b))
            print("frame %d: %s within %.3g m of %s (%d vertices)" % (last, name, d, runs[0][0],
                                                                     len(x)))


if __name__ == "__main__":
    main()
