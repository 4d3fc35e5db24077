#!/usr/bin/env python3
"""Writes the granular pour of issue 13 (seed 004): N ellipsoids slide down an inclined open
tube and pile up on the ground. Run from the repository root (Python 3 + numpy):

  tools/gen_granular.py                       # scenes/granular_tube.json, 1,000 ellipsoids
  tools/gen_granular.py --count 64 --out /tmp/pour64/scene.json
  tools/gen_granular.py --count 2000 --seed 7 --out bench/granular_2000.json

The meshes go to scenes/meshes/ (rewritten each time, deterministic): four UV spheres of
unit radius (ellipsoid_uv120.obj ... ellipsoid_uv288.obj: 120, 168, 224 and 288 triangles)
and the tube (granular_tube.obj: a cylinder side of unit radius and unit length along x,
24 segments by 48 rings, open at both ends). The scene refers to them relative to its own
folder.

Scene (SI units, y up):
  - each ellipsoid is an affine body (12 DOFs, mass properties from its closed surface) of
    one of the four spheres, `scale` (a, b, c) with a in [1, 2] cm and b/a in [0.5, 1],
    c/a in [0.4, 1], a uniformly random `rotation`, density 1500 kg/m^3, friction 0.4,
    affine_stiffness 1e10 Pa;
  - the bodies start at rest in a lattice of cubic cells (4.4 cm) inside the tube: the cells
    of one cross-section that fit in the tube's circle, layer after layer along its axis
    from its lower end up; every ellipsoid lies in its cell's inscribed ball less 2 mm, so
    none overlaps another or the tube;
  - the tube (obstacle, friction 0.4): radius 15 cm, inclined 35 deg (tan 35 = 0.70 > 0.4:
    the ellipsoids slide), as long as the lattice needs plus 10 cm at each end, its lower rim
    25 cm above the ground plane y = 0 (friction 0.4);
  - in LCP mode (`ipcc run --mode lcp`) friction is the Coulomb cone (the scene's "lcp"
    block), the other LCP options their defaults;
  - h = 0.005 s, dhat 0.5 mm and eps_v 1 cm/s (absolute; at 1 mm/s the 64-ellipsoid pour
    needed 50 Newton iterations a step while flowing, at 1 cm/s 16), duration 3 s; Newton's tolerance
    2 cm/s (newton.tolerance is set to 0.02 m/s over the bounding-box diagonal, so every count
    is solved alike; at the default 1e-2 x diagonal the 27-ellipsoid pour needed 34 Newton
    iterations a step, at 2 cm/s 15); newton.body_freezing on (--no-body-freezing: off), the
    same answer within the tolerance in less time (README, the granular pour: session 22).
Same seed and count give the same file."""
import argparse
import json
import math
import os

import numpy as np

CELL = 0.044  # lattice cell edge (m)
GAP = 0.002  # an ellipsoid's bounding ball stays this far inside its cell's inscribed ball
TUBE_R = 0.15
TUBE_DEG = 35.0
TUBE_SEGMENTS = 24
TUBE_RINGS = 48
MARGIN = 0.10  # tube beyond the lattice at each end (m)
RIM = 0.25  # lowest point of the tube's lower rim above the ground (m)
V_TOL = 0.02  # Newton tolerance as a velocity (m/s)
UV = [(10, 7), (12, 8), (14, 9), (16, 10)]  # (segments, bands) of the sphere meshes


def uv_sphere(nseg, nband):
    """unit sphere: poles and nband - 1 rings of nseg vertices; triangles outward CCW"""
    v = [(0.0, 0.0, 1.0)]
    for i in range(1, nband):
        th = math.pi * i / nband
        for j in range(nseg):
            ph = 2 * math.pi * j / nseg
            v.append((math.sin(th) * math.cos(ph), math.sin(th) * math.sin(ph), math.cos(th)))
    v.append((0.0, 0.0, -1.0))
    ring = lambda i, j: 1 + (i - 1) * nseg + j % nseg  # noqa: E731
    south = len(v) - 1
    f = []
    for j in range(nseg):
        f.append((0, ring(1, j), ring(1, j + 1)))
        f.append((south, ring(nband - 1, j + 1), ring(nband - 1, j)))
    for i in range(1, nband - 1):
        for j in range(nseg):
            a, b, c, d = ring(i, j), ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j)
            f.append((a, d, c))
            f.append((a, c, b))
    return np.array(v), np.array(f)


def tube(nseg, nring):
    """cylinder side of radius 1 along x in [0, 1], open ends; normals point inward (the
    orientation of an obstacle's triangles does not matter to the barrier)"""
    v, f = [], []
    for i in range(nring + 1):
        for j in range(nseg):
            ph = 2 * math.pi * j / nseg
            v.append((i / nring, math.cos(ph), math.sin(ph)))
    for i in range(nring):
        for j in range(nseg):
            a, b = i * nseg + j, i * nseg + (j + 1) % nseg
            c, d = a + nseg, b + nseg
            f.append((a, b, d))
            f.append((a, d, c))
    return np.array(v), np.array(f)


def signed_volume(v, f):
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def write_obj(path, v, f, comment):
    with open(path, "w") as out:
        out.write("# %s\n" % comment)
        for p in v:
            out.write("v %.9g %.9g %.9g\n" % tuple(p))
        for t in f:
            out.write("f %d %d %d\n" % tuple(int(k) + 1 for k in t))


def euler_xyz(R):
    """angles (a, b, c) in degrees with R = Rx(a) Ry(b) Rz(c), the scene's convention"""
    b = math.asin(max(-1.0, min(1.0, R[0, 2])))
    a = math.atan2(-R[1, 2], R[2, 2])
    c = math.atan2(-R[0, 1], R[0, 0])
    return [math.degrees(a), math.degrees(b), math.degrees(c)]


def rot_xyz(ang):
    a, b, c = (math.radians(t) for t in ang)
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    rz = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    return rx @ ry @ rz


def random_rotation(rng):
    """uniform on SO(3): a normalised Gaussian quaternion"""
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def cross_section_cells():
    """centres (u, v) of the lattice cells of one layer that fit in the tube's circle"""
    n = int(2 * TUBE_R / CELL) + 1
    cells = []
    for i in range(-n, n):
        for j in range(-n, n):
            u, v = (i + 0.5) * CELL, (j + 0.5) * CELL
            if math.hypot(u, v) + CELL / 2 + GAP <= TUBE_R:
                cells.append((u, v))
    return cells


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="number of ellipsoids")
    ap.add_argument("--seed", type=int, default=4, help="random seed")
    ap.add_argument("--out", default="scenes/granular_tube.json", help="scene file to write")
    ap.add_argument("--mesh-dir", default="scenes/meshes", help="folder of the meshes")
    ap.add_argument("--duration", type=float, default=3.0)
    ap.add_argument("--time-step", type=float, default=0.005)
    ap.add_argument("--no-body-freezing", action="store_true",
                    help="leave newton.body_freezing off (every Newton iteration over all bodies)")
    args = ap.parse_args()
    if args.count < 1:
        ap.error("--count must be at least 1")
    rng = np.random.default_rng(args.seed)

    os.makedirs(args.mesh_dir, exist_ok=True)
    names = []
    for nseg, nband in UV:
        v, f = uv_sphere(nseg, nband)
        assert 0.75 < signed_volume(v, f) / (4 / 3 * math.pi) < 1, "sphere orientation"
        name = "ellipsoid_uv%d.obj" % len(f)
        write_obj(os.path.join(args.mesh_dir, name), v, f,
                  "unit UV sphere, %d segments x %d bands, %d triangles (tools/gen_granular.py)"
                  % (nseg, nband, len(f)))
        names.append(name)
    v, f = tube(TUBE_SEGMENTS, TUBE_RINGS)
    write_obj(os.path.join(args.mesh_dir, "granular_tube.obj"), v, f,
              "open cylinder, radius 1, x in [0, 1], %d segments x %d rings (tools/gen_granular.py)"
              % (TUBE_SEGMENTS, TUBE_RINGS))
    out_dir = os.path.dirname(os.path.abspath(args.out))
    rel = lambda name: os.path.relpath(os.path.join(os.path.abspath(args.mesh_dir), name), out_dir)  # noqa: E731

    th = math.radians(TUBE_DEG)
    axis = np.array([math.cos(th), math.sin(th), 0.0])
    e1 = np.array([-math.sin(th), math.cos(th), 0.0])  # cross-section, in the vertical plane
    e2 = np.array([0.0, 0.0, 1.0])
    cells = cross_section_cells()
    layers = -(-args.count // len(cells))
    length = layers * CELL + 2 * MARGIN
    # lower end centre: its rim's lowest point (centre - R e1) RIM above the ground
    base = np.array([0.0, RIM + TUBE_R * e1[1], 0.0])

    bodies = []
    for k in range(args.count):
        layer, (cu, cv) = divmod(k, len(cells))[0], cells[k % len(cells)]
        centre = base + (MARGIN + (layer + 0.5) * CELL) * axis + cu * e1 + cv * e2
        a = rng.uniform(0.01, 0.02)
        axes = np.array([a, a * rng.uniform(0.5, 1.0), a * rng.uniform(0.4, 1.0)])
        axes *= min(1.0, (CELL / 2 - GAP) / a)  # the bounding ball fits the cell
        R = random_rotation(rng)
        ang = euler_xyz(R)
        assert np.allclose(rot_xyz(ang), R, atol=1e-9)
        mesh = names[int(rng.integers(len(names)))]
        bodies.append({"name": "e%d" % k, "mesh": rel(mesh),
                       "scale": [round(float(s), 6) for s in axes],
                       "rotation": [round(t, 6) for t in ang],
                       "translation": [round(float(t), 6) for t in centre],
                       "affine": True, "affine_stiffness": 1e10, "friction": 0.4,
                       "material": {"density": 1500, "young": 1e7, "poisson": 0.3}})
    # Newton's tolerance is relative to the bounding-box diagonal (per second): fix it at
    # V_TOL m/s whatever the tube's length, so every count is solved to the same accuracy
    tv, _ = tube(TUBE_SEGMENTS, TUBE_RINGS)
    tv = tv * np.array([length, TUBE_R, TUBE_R]) @ rot_xyz([0, 0, TUBE_DEG]).T + base
    lo = np.minimum(tv.min(axis=0), np.min([b["translation"] for b in bodies], axis=0) - CELL)
    hi = np.maximum(tv.max(axis=0), np.max([b["translation"] for b in bodies], axis=0) + CELL)
    diag = float(np.linalg.norm(hi - lo))
    bodies.append({"name": "tube", "mesh": rel("granular_tube.obj"), "obstacle": True,
                   "scale": [round(length, 6), TUBE_R, TUBE_R], "rotation": [0, 0, TUBE_DEG],
                   "translation": [round(float(t), 6) for t in base], "friction": 0.4})
    scene = {
        "description": "granular pour (issue 13, seed 004): %d affine ellipsoids (semi-axes "
                       "1-2 cm, axis ratios 1 : 0.5-1 : 0.4-1, random orientations) slide down "
                       "an open tube (r %.2f m, %.0f deg, %.2f m long) onto the ground; "
                       "tools/gen_granular.py --count %d --seed %d"
                       % (args.count, TUBE_R, TUBE_DEG, length, args.count, args.seed),
        "time_step": args.time_step,
        "duration": args.duration,
        "gravity": [0, -9.80665, 0],
        "contact": {"dhat": 5e-4, "dhat_absolute": True, "epsv": 1e-2, "epsv_absolute": True,
                    "friction_iterations": 1},
        "newton": {"tolerance": round(V_TOL / diag, 6), "body_freezing": not args.no_body_freezing},
        # `ipcc run --mode lcp`: the same friction (Coulomb cone), other LCP options default
        "lcp": {"friction": "cone"},
        "output": {"every": 10},
        "bodies": bodies,
        "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "friction": 0.4}],
    }
    os.makedirs(out_dir, exist_ok=True)
    with open(args.out, "w") as out:
        out.write("{\n")
        keys = [k for k in scene if k != "bodies"]
        for k in keys:
            out.write(" %s: %s,\n" % (json.dumps(k), json.dumps(scene[k])))
        out.write(' "bodies": [\n')
        out.write(",\n".join("  " + json.dumps(b) for b in bodies))
        out.write("\n ]\n}\n")
    print("%s: %d ellipsoids in %d layers of %d cells, tube %.2f m" %
          (args.out, args.count, layers, len(cells), length))


if __name__ == "__main__":
    main()
