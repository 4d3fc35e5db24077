#!/usr/bin/env python3
"""Writes the sphere scenes of the LCP comparison (scenes/stacking_spheres.json,
scenes/pool_spheres.json, scenes/pool2_spheres.json) after Miyamoto et al. (AMGS, Sec. 5:
"Stacking", "Pool 1", "Pool 2") in 3D, reduced: 0.5 m spheres (scenes/meshes/sphere1K.msh),
E = 1e8 Pa (near-rigid), no friction, LCP contact gap 1 cm (the default, 1 % of the
bounding-box diagonal, would be 0.3 m here). Run from the repository root."""
import json


def sphere(name, at, density=1000.0):
    return {"name": name, "mesh": "meshes/sphere1K.msh", "translation": at,
            "material": {"model": "neo_hookean", "density": density, "young": 1e8,
                         "poisson": 0.3}}


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


# Stacking: a column of 30 spheres, each 1 mm above the one below
write("scenes/stacking_spheres.json", {
    "description": "a column of 30 near-rigid spheres (r 0.5 m) settling on the ground "
                   "(Stacking of Miyamoto et al., 3D)",
    "time_step": 0.005, "duration": 1.0, "gravity": [0, -9.81, 0],
    "lcp": {"gap": 0.01},
    "bodies": [sphere("s%02d" % k, [0, 0.501 + 1.001 * k, 0]) for k in range(30)],
    "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]})


def pool(path, graded):
    n, layers, half = 4, 4, 2.2
    bodies = []
    for j in range(layers):
        for i in range(n):
            for k in range(n):
                off = 0.02 * ((i + j + k) % 3)
                at = [1.05 * (i - 1.5) + off, 0.6 + 1.1 * j, 1.05 * (k - 1.5) - off]
                dens = 1000.0 * (1 + 2 * j / (layers - 1)) if graded else 1000.0
                bodies.append(sphere("s%d_%d_%d" % (j, i, k), at, dens))
    write(path, {
        "description": "%d near-rigid spheres (r 0.5 m) dropped into a 4.4 m box%s (Pool %s of "
                       "Miyamoto et al., 3D, reduced)" % (
                           len(bodies), ", masses 1..3 x with height" if graded else "",
                           "2" if graded else "1"),
        "time_step": 0.005, "duration": 1.0, "gravity": [0, -9.81, 0],
        "lcp": {"gap": 0.01}, "bodies": bodies, "planes": box_planes(half)})


pool("scenes/pool_spheres.json", False)
pool("scenes/pool2_spheres.json", True)
