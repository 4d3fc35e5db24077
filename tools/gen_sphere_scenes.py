#!/usr/bin/env python3
"""Writes the sphere scenes of the LCP comparison (run from the repository root, after
tools/gen_lcp_meshes.py):

after Miyamoto et al. (AMGS, Sec. 5), in 3D, masses and radii as the paper's circles:
  scenes/stacking_spheres.json  "Stacking": a column of 30 balls, r 0.18 m, 1 kg
  scenes/pool_spheres.json      "Pool 1": 200 balls, r 0.21 m, 2 kg, dropped into a box
  scenes/pool2_spheres.json     "Pool 2": the same, masses 1..3 kg rising with height
after Lazarevych et al. (contact regions, Sec. 5):
  scenes/bucket_spheres.json    balls stacking in a bucket (obstacle) under gravity
  scenes/skittles_balls.json    two balls hitting a triangle of 10 skittles, no gravity

Bodies are near-rigid (E = 1e8 Pa) coarse tet meshes (scenes/meshes/ball_coarse.msh,
125 nodes; skittle.msh, 425 nodes); the contact gap is the default (0.1 x the mean surface
edge). Coupled contact (W = J A^-1 J^T): these bodies are light and stiff against
h = 0.005 s (E h^2 / (rho l^2) >> 1 for an element of size l), where the lumped mode pumps
energy into the contact vertices and inverts tets within 20-30 steps (docs/lcp-mode.md,
Lumped or coupled). Restitution 0.2 as the paper; no friction in the AMGS scenes (the paper's Table 1
sets it to 0 too; AMGS solves the frictionless LCP), friction 0.3 (cone) in the region
scenes.

--affine: writes the Stacking and Pool scenes with every ball an affine body (12 DOFs, its
tets only give its mass properties; docs/affine-integration.md) instead, as
scenes/stacking_spheres_affine.json, pool_spheres_affine.json, pool2_spheres_affine.json:
rigid-like bodies with one small block each in W, the footing of Miyamoto et al.'s 2D rigid
circles (README, PGS vs AMGS)."""
import json
import math
import sys

AFFINE = "--affine" in sys.argv[1:]
SUFFIX = "_affine" if AFFINE else ""


def mesh_volume(path):
    """volume of a Gmsh 2.2 tet mesh"""
    lines = open(path).read().split("\n")
    i = lines.index("$Nodes")
    n = int(lines[i + 1])
    x = [list(map(float, l.split()[1:4])) for l in lines[i + 2:i + 2 + n]]
    j = lines.index("$Elements")
    m = int(lines[j + 1])
    vol = 0.0
    for l in lines[j + 2:j + 2 + m]:
        t = [int(v) - 1 for v in l.split()[-4:]]
        a, b, c, d = (x[v] for v in t)
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - a[k] for k in range(3)]
        w = [d[k] - a[k] for k in range(3)]
        vol += (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                u[2] * (v[0] * w[1] - v[1] * w[0])) / 6
    return vol


BALL = "meshes/ball_coarse.msh"
BALL_VOLUME = mesh_volume("scenes/" + BALL)  # unit diameter
SKITTLE = "meshes/skittle.msh"
SKITTLE_VOLUME = mesh_volume("scenes/" + SKITTLE)


def ball(name, at, radius, mass, velocity=None, friction=0.0):
    scale = 2 * radius
    b = {"name": name, "mesh": BALL, "scale": scale, "translation": at,
         "material": {"model": "neo_hookean", "density": mass / (BALL_VOLUME * scale ** 3),
                      "young": 1e8, "poisson": 0.3}}
    if AFFINE:
        b["affine"] = True
    if velocity:
        b["velocity"] = velocity
    if friction:
        b["friction"] = friction
    return b


def box_planes(half):
    return [{"point": [0, 0, 0], "normal": [0, 1, 0]},
            {"point": [-half, 0, 0], "normal": [1, 0, 0]},
            {"point": [half, 0, 0], "normal": [-1, 0, 0]},
            {"point": [0, 0, -half], "normal": [0, 0, 1]},
            {"point": [0, 0, half], "normal": [0, 0, -1]}]


def write(path, scene):
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")


G = [0, -9.80665, 0]

# Stacking: a column of 30 balls (r 0.18 m, 1 kg), each 1 mm above the one below
write("scenes/stacking_spheres%s.json" % SUFFIX, {
    "description": "a column of 30 %s balls (r 0.18 m, 1 kg) settling on the ground "
                   % ("affine" if AFFINE else "near-rigid") +
                   "(Stacking of Miyamoto et al., 3D)",
    "mode": "lcp", "time_step": 0.005, "duration": 2.0, "gravity": G,
    "lcp": {"restitution": 0.2, "coupling": "coupled"},
    "bodies": [ball("s%02d" % k, [0, 0.181 + 0.361 * k, 0], 0.18, 1.0) for k in range(30)],
    "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]})


def pool(path, graded):
    n, layers, r = 5, 8, 0.21
    half = 0.5 * n * 2.3 * r + 0.05  # a 2.5 m box
    bodies = []
    for j in range(layers):
        for i in range(n):
            for k in range(n):
                # a loose lattice, every ball nudged so the pile does not stay a lattice
                off = 0.01 * (((i * 7 + j * 3 + k * 5) % 5) - 2)
                at = [2.3 * r * (i - (n - 1) / 2) + off, r + 0.002 + 2.3 * r * j,
                      2.3 * r * (k - (n - 1) / 2) - 0.7 * off]
                mass = 1.0 + 2.0 * j / (layers - 1) if graded else 2.0
                bodies.append(ball("s%d_%d_%d" % (j, i, k), at, r, mass))
    write(path, {
        "description": "%d %s balls (r 0.21 m, %s) dropped into a %.1f m box of planes "
                       "(Pool %s of Miyamoto et al., 3D)" % (
                           len(bodies), "affine" if AFFINE else "near-rigid",
                           "1..3 kg rising with height" if graded else "2 kg",
                           2 * half, "2" if graded else "1"),
        "mode": "lcp", "time_step": 0.005, "duration": 3.0, "gravity": G,
        "lcp": {"restitution": 0.2, "coupling": "coupled"}, "bodies": bodies, "planes": box_planes(half)})


pool("scenes/pool_spheres%s.json" % SUFFIX, False)
pool("scenes/pool2_spheres%s.json" % SUFFIX, True)
if AFFINE:
    sys.exit(0)

# balls stacking in a bucket: 24 balls (r 0.1 m, 0.5 kg) in three rings of 8 above an open
# bucket (bottom radius 0.5 m, rim 0.6 m, 0.6 m tall) standing on the ground
bodies = []
for j in range(3):
    for s in range(8):
        a = 2 * math.pi * (s + 0.5 * j) / 8
        rr = 0.3
        bodies.append(ball("b%d_%d" % (j, s), [rr * math.cos(a), 0.102 + 0.25 * j,
                                               rr * math.sin(a)], 0.1, 0.5, friction=0.3))
bodies.append({"name": "bucket", "mesh": "meshes/bucket.obj", "obstacle": True,
               "friction": 0.3})
write("scenes/bucket_spheres.json", {
    "description": "24 near-rigid balls (r 0.1 m, 0.5 kg) dropped into an open bucket "
                   "(obstacle), friction 0.3: the static scene of Lazarevych et al.",
    "mode": "lcp", "time_step": 0.005, "duration": 2.0, "gravity": G,
    "lcp": {"friction": "cone", "restitution": 0.2, "coupling": "coupled"},
    "bodies": bodies,
    "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "friction": 0.3}]})

# balls hitting skittles: 10 skittles (1 m tall, 1 kg) in the bowling triangle, two balls
# (r 0.15 m, 5 kg) thrown at them at 6 m/s, no gravity
bodies = []
row_gap, pin_gap = 0.4, 0.45
for row in range(4):
    for p in range(row + 1):
        x = pin_gap * (p - row / 2)
        bodies.append({"name": "pin%d_%d" % (row, p), "mesh": SKITTLE,
                       "translation": [x, 0, -row_gap * row], "friction": 0.2,
                       "material": {"model": "neo_hookean", "density": 1.0 / SKITTLE_VOLUME,
                                    "young": 1e8, "poisson": 0.3}})
bodies.append(ball("ball0", [-0.12, 0.3, 1.2], 0.15, 5.0, velocity=[0, 0, -6], friction=0.2))
bodies.append(ball("ball1", [0.35, 0.45, 1.9], 0.15, 5.0, velocity=[-0.6, 0, -6],
                   friction=0.2))
write("scenes/skittles_balls.json", {
    "description": "two near-rigid balls (r 0.15 m, 5 kg, 6 m/s) hitting 10 skittles (1 m, "
                   "1 kg) in the bowling triangle, no gravity, friction 0.2: the dynamic "
                   "scene of Lazarevych et al.",
    "mode": "lcp", "time_step": 0.005, "duration": 1.0, "gravity": [0, 0, 0],
    "lcp": {"friction": "cone", "restitution": 0.2, "coupling": "coupled"},
    "bodies": bodies})
