"""A scene built in code: a unit cube dropped from 0.5 m onto the ground, stepped until it
rests; prints the lowest point and whether every step stayed intersection-free.

    IPCC_LIBRARY=build/libipcc.so PYTHONPATH=python python3 python/examples/drop_cube.py
"""
import os

import ipcc

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

scene = {
    "time_step": 0.01,
    "bodies": [{"name": "cube", "mesh": "scenes/meshes/cube.msh",
                "translation": [0, 0.5, 0], "material": {"young": 1e5}}],
    "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}],
}

with ipcc.scene_from_dict(scene, base_dir=ROOT) as world:
    clean = True
    for _ in range(80):
        world.step()
        clean = clean and world.check()
    lowest = world.positions[:, 1].min()
    print(f"after {world.step_count} steps ({world.time:.2f} s): lowest y {lowest:.6f} m, "
          f"intersection-free: {clean}")
