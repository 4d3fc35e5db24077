#!/usr/bin/env python3
"""Writes the stiff cube pile of the affine-vs-tet speed comparison (issue 13), run from the
repository root:
  scenes/meshes/cube_kuhn3.msh   a 0.1 m cube, 3 x 3 x 3 grid cells, 6 Kuhn tets each
                                 (64 nodes, 162 tets)
  scenes/cube_pile.json          N cubes (default 100), affine bodies
  scenes/cube_pile_tets.json     the same cubes as stiff tet bodies (E 1e9)
The cubes start in a lattice of 5 x 5 columns (0.18 m apart and per layer) with small
random rotations (seeded, so the files are the same on every run) and fall into a square
pen of four planes onto a ground plane, with friction. Run the LCP mode on either file with
`ipcc run FILE --mode lcp`."""
import argparse
import json
import random

from gen_lcp_meshes import kuhn_tets, orient, write_msh


def cube(n=3, edge=0.1):
    ids = {}
    x = []
    for i in range(n + 1):
        for j in range(n + 1):
            for k in range(n + 1):
                ids[(i, j, k)] = len(x)
                x.append([edge * (c / n - 0.5) for c in (i, j, k)])
    return x, orient(x, kuhn_tets(n, n, n, lambda i, j, k: ids[(i, j, k)]))


def scene(count, affine, seed):
    rng = random.Random(seed)
    cols, pitch, layer = 5, 0.18, 0.18
    half = 0.5 * cols * pitch + 0.02
    bodies = []
    for b in range(count):
        lay, r = divmod(b, cols * cols)
        i, k = divmod(r, cols)
        body = {
            "name": "cube%d" % b,
            "mesh": "meshes/cube_kuhn3.msh",
            "translation": [(i - (cols - 1) / 2) * pitch, 0.1 + lay * layer,
                            (k - (cols - 1) / 2) * pitch],
            "rotation": [rng.uniform(-20, 20) for _ in range(3)],
            "velocity": [rng.uniform(-0.2, 0.2), 0, rng.uniform(-0.2, 0.2)],
            "friction": 0.4,
            "material": {"model": "neo_hookean", "density": 2000, "young": 1e9,
                         "poisson": 0.3},
        }
        if affine:
            body["affine"] = True
        bodies.append(body)
    planes = [{"point": [0, 0, 0], "normal": [0, 1, 0], "friction": 0.4}]
    for ax in (0, 2):
        for s in (-1, 1):
            p = [0, 0, 0]
            n = [0, 0, 0]
            p[ax] = s * half
            n[ax] = -s
            planes.append({"point": p, "normal": n, "friction": 0.4})
    kind = "affine bodies" if affine else "stiff tet bodies (E 1e9)"
    return {
        "description": "%d stiff 0.1 m cubes fall into a pen onto the ground, %s "
                       "(tools/gen_cube_pile.py)" % (count, kind),
        "time_step": 0.01,
        "duration": 1.0,
        "gravity": [0, -9.80665, 0],
        "bodies": bodies,
        "planes": planes,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="scenes", help="folder of the two scene files")
    a = ap.parse_args()
    x, t = cube()
    write_msh("scenes/meshes/cube_kuhn3.msh", x, t)
    for affine, name in ((True, "cube_pile.json"), (False, "cube_pile_tets.json")):
        with open("%s/%s" % (a.out, name), "w") as f:
            json.dump(scene(a.count, affine, a.seed), f, indent=1)
            f.write("\n")
    print("cube_kuhn3.msh: %d nodes, %d tets; %d cubes" % (len(x), len(t), a.count))


if __name__ == "__main__":
    main()
