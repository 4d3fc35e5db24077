#!/usr/bin/env python3
"""How far the original IPC code (ipc-sim/IPC) moves from its own answer when only its
floating-point rounding changes: the same script with its `shapes` lines in reverse order.

That is a renumbering of the same physical scene (the same shapes, placements, materials and
contact model; vertices, elements and unknowns come in another order), so every difference
between the two runs is rounding carried along by IPC's Newton iterations: assembly order,
the factorization's ordering, and the tests IPC makes on rounded values (the projection of
near-zero eigenvalues of its elastic Hessian at the rest state, see IPC_PROJECT_IPC in
src/elastic/tet.c). It is the floor under any comparison with IPC's frames: no other code
can be expected to agree with IPC more closely than IPC agrees with itself.

  tools/ipc_self_spread.py --ipc PATH/IPC_bin [--steps N] [--work DIR] [--json F] SCRIPT...
  tools/ipc_self_spread.py --ipc PATH/IPC_bin --ipc-b PATH/IPC_bin [...] SCRIPT...

With --ipc-b, the other perturbation of rounding alone: the script as given, run by a second
build of the same IPC source that differs only in its compiler's floating-point contraction
(the reference build compiles with -march=native -mfma, so GCC fuses a*b+c into one rounding
wherever it sees fit; a build configured with CMAKE_CXX_FLAGS=-ffp-contract=off rounds every
product). Vertices are compared one to one. At an exact tie (a vertex exactly over an edge or
a corner of a triangle, parallel edges) IPC's choice of closest feature, and of a CTCD root,
is the sign of such a rounding residue.

SCRIPT as for tools/compare_ipc.py (a path or a name under IPC's input/). Both orders run
live (one thread, cut to N steps as compare_ipc.py cuts them); per step it prints the max
vertex distance between the two runs over the bounding-box diagonal, vertices matched back
shape by shape (each shape's surface is one connected component of IPC's OBJ frame).
--json F writes {script: {step: deviation}}, which tools/compare_ipc.py --ipc-spread reads.
Exit status 0; a script that IPC cannot run in both orders is reported and skipped.
"""
import argparse
import os
import shutil
import subprocess
import sys

from compare_ipc import DEFAULT_INPUT, cut_script, deviation, input_root, read_obj_vertices


def shapes_block(lines):
    """(first, count) of the shape lines after `shapes input N`, or None"""
    for i, line in enumerate(lines):
        t = line.split()
        if len(t) >= 3 and t[0] == "shapes" and t[1] == "input":
            return i + 1, int(t[2])
    return None


def components(path):
    """vertex index lists of the connected components of an OBJ's faces, in vertex order"""
    nv, parent, faces = 0, [], []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                nv += 1
            elif line.startswith("f "):
                faces.append([int(t.split("/")[0]) - 1 for t in line.split()[1:]])
    parent = list(range(nv))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for fc in faces:
        for v in fc[1:]:
            parent[find(v)] = find(fc[0])
    comps, seen = [], {}
    for v in range(nv):
        r = find(v)
        if r not in seen:
            seen[r] = len(comps)
            comps.append([])
        comps[seen[r]].append(v)
    return comps


def run_ipc(ipc, script, folder):
    out = subprocess.run([ipc, "100", os.path.basename(script), "--numThreads", "1", "--noPBar",
                          "--logLevel", "off"], cwd=folder, capture_output=True, text=True,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    runs = [d for d in os.listdir(os.path.join(folder, "output"))]
    if out.returncode != 0 or len(runs) != 1:
        return None
    return os.path.join(folder, "output", runs[0])


def two_builds(a, name):
    """per-step deviation between a.ipc and a.ipc_b on the script as given, or None"""
    path = name if os.path.exists(name) else os.path.join(a.input, name + ".txt")
    root = input_root(path)
    dirs = []
    for tag, ipc in (("a", a.ipc), ("b", a.ipc_b)):
        d = os.path.join(a.work, name.replace("/", "__").replace(".txt", ""), "build-" + tag)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        os.symlink(os.path.join(root, "input"), os.path.join(d, "input"))
        cut_script(path, os.path.join(d, "s.txt"), a.steps)
        dirs.append(run_ipc(ipc, os.path.join(d, "s.txt"), d))
    if None in dirs:
        print("%s: IPC did not finish with both builds" % name)
        return None
    devs = []
    for k in range(1, a.steps + 1):
        fa, fb = (os.path.join(d, "%d.obj" % k) for d in dirs)
        if not (os.path.exists(fa) and os.path.exists(fb)):
            break
        devs.append(deviation(read_obj_vertices(fa), read_obj_vertices(fb)))
    first_off = next((k + 1 for k, v in enumerate(devs) if v > 1e-6), None)
    print("%s: IPC against another build of itself, first step > 1e-6: %s" %
          (name, first_off if first_off else "-"))
    print("    " + " ".join("%d:%.1e" % (k + 1, v) for k, v in enumerate(devs)))
    return devs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scripts", nargs="+")
    ap.add_argument("--ipc", required=True, help="the original IPC's IPC_bin")
    ap.add_argument("--input", default=DEFAULT_INPUT, help="IPC's input/ folder")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--work", default="/tmp/ipc_self_spread")
    ap.add_argument("--json", help="write every script's per-step spread to this file")
    ap.add_argument("--ipc-b", help="a second IPC_bin (another build of the same source): "
                    "compare the two builds on each script as given instead of reordering")
    a = ap.parse_args()
    spread = {"_kind": "built without FMA contraction" if a.ipc_b else "renumbered"}
    for name in a.scripts:
        if a.ipc_b:
            devs = two_builds(a, name)
            if devs is None:
                continue
            spread[name.replace(".txt", "")] = {str(k + 1): v for k, v in enumerate(devs)}
            continue
        path = name if os.path.exists(name) else os.path.join(a.input, name + ".txt")
        with open(path) as f:
            lines = f.read().split("\n")
        blk = shapes_block(lines)
        if not blk or blk[1] < 2:
            print("%s: fewer than two shapes, nothing to reorder" % name)
            continue
        first, n = blk
        root = input_root(path)
        dirs = []
        for order in ("as-given", "reversed"):
            d = os.path.join(a.work, name.replace("/", "__").replace(".txt", ""), order)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            os.symlink(os.path.join(root, "input"), os.path.join(d, "input"))
            body = list(lines)
            if order == "reversed":
                body[first:first + n] = reversed(lines[first:first + n])
            src = os.path.join(d, "full.txt")
            with open(src, "w") as f:
                f.write("\n".join(body))
            cut_script(src, os.path.join(d, "s.txt"), a.steps)
            dirs.append(run_ipc(a.ipc, os.path.join(d, "s.txt"), d))
        if None in dirs:
            print("%s: IPC did not finish in both orders" % name)
            continue
        comps = components(os.path.join(dirs[0], "0.obj"))
        comps_r = components(os.path.join(dirs[1], "0.obj"))
        if len(comps) != n or [len(c) for c in comps] != [len(c) for c in reversed(comps_r)]:
            print("%s: shapes are not one surface component each; cannot match vertices" % name)
            continue
        perm = [v for c in reversed(comps_r) for v in c]  # reversed run's indices, given order
        devs = []
        for k in range(1, a.steps + 1):
            fa, fb = (os.path.join(d, "%d.obj" % k) for d in dirs)
            if not (os.path.exists(fa) and os.path.exists(fb)):
                break
            pa, pb = read_obj_vertices(fa), read_obj_vertices(fb)
            devs.append(deviation(pa, [pb[i] for i in perm]))
        first_off = next((k + 1 for k, v in enumerate(devs) if v > 1e-6), None)
        print("%s: IPC against itself with its shapes reversed, first step > 1e-6: %s" %
              (name, first_off if first_off else "-"))
        print("    " + " ".join("%d:%.1e" % (k + 1, v) for k, v in enumerate(devs)))
        spread[name.replace(".txt", "")] = {str(k + 1): v for k, v in enumerate(devs)}
    if a.json:
        import json
        with open(a.json, "w") as f:
            json.dump(spread, f, indent=1)


if __name__ == "__main__":
    main()
