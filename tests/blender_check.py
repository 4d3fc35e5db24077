"""Run by tests/test_blender.sh inside Blender:

    blender -b --factory-startup --python-exit-code 1 --python tests/blender_check.py -- \
        TOOLS_DIR RUN_DIR OUT.png

imports RUN_DIR with tools/blender_import.py's load_run, evaluates the depsgraph at a few
frames and compares every evaluated vertex with ipcc's OBJ frame of the same number
(RUN_DIR/frames/NNNNNN.obj; the cache holds float32, so within 1e-6 of the scene's size),
then renders the last frame with Cycles on the CPU (4 samples, 160x120) and checks that the
picture shows something where the bodies are. Prints "ok: ..." / "FAIL: ..." lines and
exits 1 on a failure."""

import importlib.util
import math
import os
import sys

import bpy
import mathutils
from bpy_extras.object_utils import world_to_camera_view

sys.dont_write_bytecode = True  # no tools/__pycache__ in the source tree
tools, run, png = sys.argv[sys.argv.index("--") + 1 :][:3]
spec = importlib.util.spec_from_file_location(
    "blender_import", os.path.join(tools, "blender_import.py")
)
bi = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bi)

fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    fails += 0 if cond else 1


def obj_vertices(path):
    with open(path) as f:
        return [tuple(float(t) for t in line.split()[1:4]) for line in f if line.startswith("v ")]


bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.resolution_x, scene.render.resolution_y = 160, 120
got = bi.load_run(run, scene)
obj, n = got["object"], got["samples"]
check(scene.frame_start == 0 and scene.frame_end == n - 1, f"frame range 0..{n - 1}")
check(abs(got["fps"] - 40.0) < 1e-9, f"frame rate {got['fps']:.6g} fps (time step 0.025 s)")

frames = sorted({0, 1, n // 2, n - 1})
ref = {k: obj_vertices(os.path.join(run, "frames", f"{k:06d}.obj")) for k in frames}
size = max(abs(c) for v in ref.values() for p in v for c in p)
worst, where = 0.0, None
for k in frames:
    scene.frame_set(k)
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = ev.to_mesh()
    co = [tuple(v.co) for v in mesh.vertices]
    ev.to_mesh_clear()
    if len(co) != len(ref[k]):
        check(False, f"frame {k}: {len(co)} vertices, the OBJ frame has {len(ref[k])}")
        continue
    for i, (a, b) in enumerate(zip(co, ref[k])):
        e = max(abs(a[d] - b[d]) for d in range(3))
        if e > worst or where is None:
            worst, where = e, (k, i)
tol = 1e-6 * size
check(
    where is not None and worst <= tol,
    f"frames {frames}: every evaluated vertex within {tol:.3g} of the OBJ frame "
    f"(max error {worst:.3g} at frame {where[0] if where else '-'}, scene size {size:.3g})",
)
# the modifier plays the cache: a vertex of the falling cube moved
scene.frame_set(0)
first = tuple(obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh().vertices[0].co)
check(math.dist(first, ref[n - 1][0]) > 0.1, "the bodies move from frame 0 to the last")

bi.render(png, scene, frame=n - 1, samples=4, size=(160, 120))
img = bpy.data.images.load(os.path.abspath(png))
w, h = img.size
px = list(img.pixels)  # RGBA floats, bottom row first


def pixel(x, y):
    return px[4 * (y * w + x) : 4 * (y * w + x) + 3]


sky = pixel(0, h - 1)  # the top-left corner: the background above the horizon
differ = sum(
    1 for y in range(h) for x in range(w) if max(abs(a - b) for a, b in zip(pixel(x, y), sky)) > 0.05
)
check(w == 160 and h == 120, f"{png}: {w}x{h}")
check(differ > 0.05 * w * h, f"{differ} of {w * h} pixels differ from the background")
# the centre of the moving bodies is drawn in a body's color, not the background's
scene.frame_set(n - 1)
mw = obj.matrix_world
cx = [sum(p[d] for p in ref[n - 1][:8]) / 8 for d in range(3)]  # the upper cube (8 vertices)
uv = world_to_camera_view(scene, scene.camera, mw @ mathutils.Vector(cx))
x, y = int(uv.x * w), int(uv.y * h)
inside = 0 <= x < w and 0 <= y < h
check(inside, f"the upper cube's centre projects into the picture at ({x}, {y})")
if inside:
    c = pixel(x, y)
    check(
        max(abs(a - b) for a, b in zip(c, sky)) > 0.1,
        f"pixel ({x}, {y}) is the cube's color {tuple(round(t, 2) for t in c)}, "
        f"not the background's {tuple(round(t, 2) for t in sky)}",
    )
print(f"blender_check: {fails} failed")
sys.exit(1 if fails else 0)
