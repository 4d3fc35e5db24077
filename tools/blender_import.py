"""Import an ipcc run into Blender as one animated mesh (docs/rendering.md).

    blender -b --python tools/blender_import.py -- RUN_FOLDER [--render OUT.png]
            [--frame K] [--samples N] [--size WxH] [--save OUT.blend]

RUN_FOLDER is the output folder of `ipcc run SCENE -o RUN_FOLDER --format pc2` (or
obj,pc2 ...): the mesh is built from RUN_FOLDER/frames/rest.obj with its vertices in the
file's order (the order of the point cache; Blender's own OBJ importer may split or reorder
them), and a Mesh Cache modifier plays RUN_FOLDER/frames/motion.pc2 on it. Blender frame k
is ipcc frame k (the scene starts at frame 0), at the run's frame rate: 1 / (every x
time_step) from stats.json when the run wrote them, else 25 fps. ipcc's y axis points up,
Blender's z: the objects carry a 90 degree rotation about x (their vertex coordinates stay
ipcc's). The analytic planes of stats.json become large square planes; a camera frames the
moving bodies over the whole run and a sun lights them. With --render, frame K (default:
the last) is rendered with Cycles on the CPU (8 samples, 320x240 unless told) into a PNG.

Inside Blender (or from another script) `load_run(folder)` does the import and returns what
it made; `render(path, ...)` renders. Needs only bpy and the standard library.
"""

import json
import math
import os
import struct
import sys

import bpy
import mathutils

PC2_HEADER = struct.Struct("<12siiffi")
# the colors of ipcc's previews: one per body, grey obstacles and planes
PALETTE = [
    (0.85, 0.33, 0.10),
    (0.00, 0.45, 0.74),
    (0.47, 0.67, 0.19),
    (0.93, 0.69, 0.13),
    (0.49, 0.18, 0.56),
    (0.30, 0.75, 0.93),
    (0.64, 0.08, 0.18),
]
GREY = (0.6, 0.6, 0.6)


def read_pc2_header(path):
    """(points, start frame, sample rate, samples) of a PC2 file; ValueError if it is not one"""
    with open(path, "rb") as f:
        head = f.read(PC2_HEADER.size)
        f.seek(0, os.SEEK_END)
        size = f.tell()
    if len(head) < PC2_HEADER.size:
        raise ValueError(f"{path}: shorter than the PC2 header")
    magic, version, points, start, rate, samples = PC2_HEADER.unpack(head)
    if magic != b"POINTCACHE2\0" or version != 1:
        raise ValueError(f"{path}: not a PC2 point cache of version 1")
    if points < 0 or samples < 0 or PC2_HEADER.size + 12 * points * samples > size:
        raise ValueError(f"{path}: counts do not fit the file (truncated?)")
    return points, start, rate, samples


def read_pc2_sample(path, k, points):
    """the positions of sample k, a flat tuple of 3 * points floats"""
    with open(path, "rb") as f:
        f.seek(PC2_HEADER.size + 12 * points * k)
        data = f.read(12 * points)
    return struct.unpack(f"<{3 * points}f", data)


def read_rest_obj(path):
    """the rest shape ipcc writes (frames/rest.obj): vertices, edges, faces and the objects,
    each {"name", "obstacle", "first", "count", "faces": [face indices]}, in file order"""
    verts, edges, faces, objects = [], [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith("# ipcc obstacle") and objects:
                objects[-1]["obstacle"] = True
                continue
            word, _, rest = line.strip().partition(" ")
            if word == "o":
                objects.append(
                    {"name": rest, "obstacle": False, "first": len(verts), "count": 0, "faces": []}
                )
            elif word == "v":
                verts.append(tuple(float(t) for t in rest.split()[:3]))
                if objects:
                    objects[-1]["count"] += 1
            elif word == "f":
                # "a//a b//b c//c" (1-based; negative indices are relative, as in any OBJ)
                idx = [int(t.split("/")[0]) for t in rest.split()]
                face = tuple(i - 1 if i > 0 else len(verts) + i for i in idx)
                if objects:
                    objects[-1]["faces"].append(len(faces))
                faces.append(face)
            elif word == "l":
                idx = [int(t.split("/")[0]) - 1 for t in rest.split()]
                edges.extend(zip(idx, idx[1:]))
    return verts, edges, faces, objects


def run_frame_rate(run_dir, samples):
    """(frames per second, seconds of simulated time per frame or None) from stats.json"""
    try:
        with open(os.path.join(run_dir, "stats.json")) as f:
            stats = json.load(f)
    except (OSError, ValueError):
        return 25.0, None
    summary = stats.get("summary", {})
    dt, every = summary.get("time_step"), summary.get("every")
    if isinstance(dt, (int, float)) and isinstance(every, int) and dt > 0 and every > 0:
        interval = dt * every
    else:
        # a run written before stats.json recorded them: the mean interval of its frames
        steps = stats.get("steps") or []
        last = steps[-1].get("time") if steps else None
        if not isinstance(last, (int, float)) or last <= 0 or samples < 2:
            return 25.0, None
        interval = last / (samples - 1)
    return 1.0 / interval, interval


def _material(name, color):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*color, 1.0)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes.get("Principled BSDF")
    if bsdf:
        bsdf.inputs["Base Color"].default_value = (*color, 1.0)
        bsdf.inputs["Roughness"].default_value = 0.6
    return mat


Y_UP_TO_Z_UP = (math.pi / 2, 0.0, 0.0)  # ipcc (x, y, z) shows at Blender (x, -z, y)


def _to_blender(p):
    return mathutils.Vector((p[0], -p[2], p[1]))


def _bounds(points):
    lo = [min(p[d] for p in points) for d in range(3)]
    hi = [max(p[d] for p in points) for d in range(3)]
    return lo, hi


def load_run(run_dir, scene=None, camera=True, light=True, planes=True):
    """imports the run in run_dir into scene (default: the current one): the mesh with its
    Mesh Cache modifier, the frame range and rate, and optionally the planes, a camera and a
    sun. returns {"object", "samples", "points", "fps", "interval", "camera"}"""
    scene = scene or bpy.context.scene
    frames = os.path.join(run_dir, "frames")
    rest, cache = os.path.join(frames, "rest.obj"), os.path.join(frames, "motion.pc2")
    for p in (rest, cache):
        if not os.path.isfile(p):
            raise FileNotFoundError(f"{p}: missing (run ipcc with --format pc2)")
    verts, edges, faces, objects = read_rest_obj(rest)
    points, _, _, samples = read_pc2_header(cache)
    if points != len(verts):
        raise ValueError(f"{cache}: {points} points per sample, {rest} has {len(verts)} vertices")
    if samples < 1:
        raise ValueError(f"{cache}: no samples")

    name = os.path.basename(os.path.normpath(run_dir)) or "ipcc"
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, edges, faces)  # vertex i is point i of the cache
    mesh.update()
    if len(mesh.vertices) != points:
        raise ValueError("the mesh lost vertices on import")
    dynamic = 0
    for b, o in enumerate(objects):
        color = GREY if o["obstacle"] else PALETTE[dynamic % len(PALETTE)]
        dynamic += 0 if o["obstacle"] else 1
        mesh.materials.append(_material(f"{name}:{o['name']}", color))
        for k in o["faces"]:
            mesh.polygons[k].material_index = b
    # smooth across edges flatter than 40 degrees, sharp beyond (as ipcc's previews)
    for poly in mesh.polygons:
        poly.use_smooth = True
    mesh.use_auto_smooth = True
    mesh.auto_smooth_angle = math.radians(40)
    obj = bpy.data.objects.new(name, mesh)
    obj.rotation_euler = Y_UP_TO_Z_UP
    scene.collection.objects.link(obj)

    mod = obj.modifiers.new("ipcc motion", "MESH_CACHE")
    mod.cache_format = "PC2"
    mod.filepath = os.path.abspath(cache)
    mod.time_mode = "FRAME"
    mod.play_mode = "SCENE"
    mod.frame_start = 0.0  # scene frame k plays sample k
    mod.frame_scale = 1.0
    mod.interpolation = "LINEAR"
    mod.deform_mode = "OVERWRITE"
    mod.forward_axis, mod.up_axis = "POS_Y", "POS_Z"  # no axis conversion

    fps, interval = run_frame_rate(run_dir, samples)
    scene.frame_start, scene.frame_end = 0, samples - 1
    scene.frame_set(0)
    base = max(1, min(32767, round(fps)))
    scene.render.fps, scene.render.fps_base = base, base / fps

    # what the camera frames: the moving bodies (all of them without any) over the run
    moving = [o for o in objects if not o["obstacle"]] or objects
    watch = [i for o in moving for i in range(o["first"], o["first"] + o["count"])] or range(points)
    seen = []
    for k in sorted({round(j * (samples - 1) / 31) for j in range(32)}):
        s = read_pc2_sample(cache, k, points)
        seen.extend((s[3 * i], s[3 * i + 1], s[3 * i + 2]) for i in watch)
    lo, hi = _bounds(seen)
    center = [(lo[d] + hi[d]) / 2 for d in range(3)]
    radius = max(0.5 * math.dist(lo, hi), 1e-6)

    if planes:
        _add_planes(scene, run_dir, center, radius)
    cam = _add_camera(scene, center, radius) if camera else None
    if light:
        sun = bpy.data.lights.new("sun", "SUN")
        sun.energy = 2.0
        sun_obj = bpy.data.objects.new("sun", sun)
        sun_obj.rotation_euler = (math.radians(35), math.radians(10), math.radians(30))
        scene.collection.objects.link(sun_obj)
    world = scene.world or bpy.data.worlds.new("world")
    scene.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes.get("Background")
    if bg:
        bg.inputs["Color"].default_value = (0.75, 0.8, 0.85, 1.0)
        bg.inputs["Strength"].default_value = 0.6
    return {
        "object": obj,
        "samples": samples,
        "points": points,
        "fps": fps,
        "interval": interval,
        "camera": cam,
    }


def _add_planes(scene, run_dir, center, radius):
    """the analytic planes of stats.json as squares around the bodies"""
    try:
        with open(os.path.join(run_dir, "stats.json")) as f:
            found = json.load(f).get("summary", {}).get("planes") or []
    except (OSError, ValueError):
        return
    half = 4 * radius
    for k, pl in enumerate(found):
        p, n = mathutils.Vector(pl["point"]), mathutils.Vector(pl["normal"]).normalized()
        c = mathutils.Vector(center)
        c -= n * n.dot(c - p)
        u = n.orthogonal().normalized()
        v = n.cross(u)
        corners = [c + half * (su * u + sv * v) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        mesh = bpy.data.meshes.new(f"plane {k}")
        mesh.from_pydata([tuple(q) for q in corners], [], [(0, 1, 2, 3)])
        mesh.update()
        if mesh.polygons[0].normal.dot(n) < 0:
            mesh.polygons[0].flip()
        mesh.materials.append(_material(f"plane {k}", (0.42, 0.42, 0.4)))
        obj = bpy.data.objects.new(f"plane {k}", mesh)
        obj.rotation_euler = Y_UP_TO_Z_UP
        scene.collection.objects.link(obj)


def _add_camera(scene, center, radius):
    """a camera 35 degrees round and 25 degrees above the bodies, the whole box in view"""
    cam = bpy.data.cameras.new("camera")
    cam.lens_unit = "FOV"
    cam.angle = math.radians(40)
    obj = bpy.data.objects.new("camera", cam)
    target = _to_blender(center)
    az, el = math.radians(35), math.radians(25)
    d = mathutils.Vector((math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)))
    w, h = scene.render.resolution_x, scene.render.resolution_y
    # cam.angle spans the longer side of the picture
    half = 0.5 * cam.angle if w <= h else math.atan(math.tan(0.5 * cam.angle) * h / w)
    dist = 1.15 * radius / math.sin(half)
    obj.location = target + dist * d
    obj.rotation_euler = (-d).to_track_quat("-Z", "Y").to_euler()
    cam.clip_start = max(1e-4, 0.01 * dist)
    cam.clip_end = 10 * (dist + radius)
    scene.collection.objects.link(obj)
    scene.camera = obj
    return obj


def render(path, scene=None, frame=None, samples=8, size=(320, 240)):
    """renders frame (default: the scene's last) with Cycles on the CPU into the PNG path"""
    scene = scene or bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False
    scene.cycles.use_adaptive_sampling = False
    scene.render.resolution_x, scene.render.resolution_y = size
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.compression = 100
    scene.view_settings.view_transform = "Standard"
    scene.render.filepath = os.path.abspath(path)
    scene.frame_set(scene.frame_end if frame is None else frame)
    bpy.ops.render.render(write_still=True)


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(prog="blender -b --python tools/blender_import.py --")
    ap.add_argument("run", help="an ipcc run folder written with --format pc2")
    ap.add_argument("--render", metavar="OUT.png", help="render one frame into this PNG")
    ap.add_argument("--frame", type=int, help="the frame to render (default: the last)")
    ap.add_argument("--samples", type=int, default=8, help="Cycles samples (default 8)")
    ap.add_argument("--size", default="320x240", help="picture size WxH (default 320x240)")
    ap.add_argument("--save", metavar="OUT.blend", help="save the scene as a .blend file")
    a = ap.parse_args(argv)
    w, h = (int(t) for t in a.size.lower().split("x"))
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.resolution_x, scene.render.resolution_y = w, h
    got = load_run(a.run, scene)
    print(
        f"ipcc: {got['points']} points x {got['samples']} frames from {a.run}, "
        f"{got['fps']:.6g} fps"
    )
    if a.save:
        bpy.ops.wm.save_as_mainfile(filepath=os.path.abspath(a.save))
    if a.render:
        render(a.render, scene, a.frame, a.samples, (w, h))


if __name__ == "__main__":
    main(sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else [])
