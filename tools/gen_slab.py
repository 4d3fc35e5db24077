#!/usr/bin/env python3
"""Writes a tet slab dropped on a ground plane (issue 21, the million-tet scene): a grid of
nx x ny x nz cubes (y up, ny cubes thick), 6 Kuhn tets per cube, as a Gmsh 4.1 ASCII mesh,
and a scene JSON that drops it on the plane y = 0 (Neo-Hookean, E 1e6, dt 0.01).
  python3 tools/gen_slab.py                                  # 20 x 4 x 20: 9,600 tets
  python3 tools/gen_slab.py --nx 100 --ny 17 --nz 100 \\
      --out /tmp/slab1m/slab.json                            # 1.02M tets, 184K vertices
The mesh goes to --mesh-dir (default: the scene's folder) and the scene names it relative to
the scene file. numpy writes the files in a few seconds at 1M tets (about 60 MB of mesh)."""
import argparse
import json
import os

import numpy as np

# the 6 tets of a cube around its main diagonal: each a path (0,0,0) -> (1,1,1) that moves
# along one axis at a time, in the order of a permutation of the axes
PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def slab(nx, ny, nz, h):
    """node coordinates (N x 3, lowest node at y = 0, centred in x and z) and tets (T x 4,
    0-based, positive volume)"""
    i, j, k = np.meshgrid(np.arange(nx + 1), np.arange(ny + 1), np.arange(nz + 1), indexing="ij")
    x = np.stack([(i - 0.5 * nx) * h, j * h, (k - 0.5 * nz) * h], axis=-1).reshape(-1, 3)

    def node(a, b, c):
        return (a * (ny + 1) + b) * (nz + 1) + c

    ci, cj, ck = (a.ravel() for a in np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz),
                                                 indexing="ij"))
    tets = []
    for p in PERMS:
        c = [ci.copy(), cj.copy(), ck.copy()]
        path = [node(*c)]
        for axis in p:
            c[axis] = c[axis] + 1
            path.append(node(*c))
        tets.append(np.stack(path, axis=1))
    # cube by cube, its 6 tets together (the element order of the scalar generators)
    t = np.stack(tets, axis=1).reshape(-1, 4)
    a, b, c, d = (x[t[:, m]] for m in range(4))
    vol = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)
    neg = vol < 0
    t[neg, 1], t[neg, 2] = t[neg, 2].copy(), t[neg, 1].copy()
    return x, t


def write_msh41(path, x, t):
    """Gmsh 4.1 ASCII: one node block and one tet block on volume entity 1"""
    n, m = len(x), len(t)
    with open(path, "w") as f:
        f.write("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
        f.write("$Nodes\n1 %d 1 %d\n3 1 0 %d\n" % (n, n, n))
        np.savetxt(f, np.arange(1, n + 1), fmt="%d")
        np.savetxt(f, x, fmt="%.12g")
        f.write("$EndNodes\n$Elements\n1 %d 1 %d\n3 1 4 %d\n" % (m, m, m))
        np.savetxt(f, np.column_stack([np.arange(1, m + 1), t + 1]), fmt="%d")
        f.write("$EndElements\n")


def scene(mesh, nx, ny, nz, h, height, speed, steps):
    return {
        "description": "a %d x %d x %d grid of %g m cubes (6 tets each: %d tets) dropped on a "
                       "plane (tools/gen_slab.py, issue 21)" % (nx, ny, nz, h, 6 * nx * ny * nz),
        "time_step": 0.01,
        "duration": 0.01 * steps,
        "gravity": [0, -9.80665, 0],
        "bodies": [{
            "name": "slab",
            "mesh": mesh,
            "translation": [0, height, 0],
            "velocity": [0, -speed, 0],
            "material": {"model": "neo_hookean", "density": 1000, "young": 1e6,
                         "poisson": 0.3},
        }],
        "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nx", type=int, default=20, help="cubes along x")
    ap.add_argument("--ny", type=int, default=4, help="cubes along y (the thickness, up)")
    ap.add_argument("--nz", type=int, default=20, help="cubes along z")
    ap.add_argument("--cube", type=float, default=0.01, help="cube edge, m")
    ap.add_argument("--height", type=float, default=0.002,
                    help="gap between the slab's bottom and the plane, m")
    ap.add_argument("--speed", type=float, default=0.5, help="initial downward speed, m/s")
    ap.add_argument("--steps", type=int, default=20, help="the scene's duration in steps")
    ap.add_argument("--out", default="slab.json", help="the scene file")
    ap.add_argument("--mesh-dir", default=None, help="folder of the mesh (default: --out's)")
    a = ap.parse_args()
    if min(a.nx, a.ny, a.nz) < 1 or not a.cube > 0:
        ap.error("--nx, --ny, --nz must be >= 1 and --cube > 0")
    out_dir = os.path.dirname(os.path.abspath(a.out))
    mesh_dir = os.path.abspath(a.mesh_dir) if a.mesh_dir else out_dir
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(mesh_dir, exist_ok=True)
    mesh_path = os.path.join(mesh_dir, "slab_%dx%dx%d.msh" % (a.nx, a.ny, a.nz))
    x, t = slab(a.nx, a.ny, a.nz, a.cube)
    write_msh41(mesh_path, x, t)
    sc = scene(os.path.relpath(mesh_path, out_dir), a.nx, a.ny, a.nz, a.cube, a.height,
               a.speed, a.steps)
    with open(a.out, "w") as f:
        json.dump(sc, f, indent=1)
        f.write("\n")
    print("%s: %d vertices, %d tets; %s" % (mesh_path, len(x), len(t), a.out))


if __name__ == "__main__":
    main()
