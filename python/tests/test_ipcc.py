"""the Python package over the shared library (IPCC_LIBRARY); run from the project root:
   IPCC_LIBRARY=build/libipcc.so python3 -m pytest python/tests"""
import os
import subprocess
import sys

import numpy as np
import pytest

import ipcc

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
TWO_CUBES = os.path.join(ROOT, "scenes", "two_cubes.json")


@pytest.fixture
def world():
    with ipcc.load_scene(TWO_CUBES) as w:
        yield w


def test_bodies(world):
    bodies = world.bodies
    assert [b.name for b in bodies] == ["upper", "lower"]
    assert not any(b.obstacle for b in bodies)
    assert bodies[0].vertices == slice(0, 8) and bodies[1].vertices == slice(8, 16)
    assert len(bodies[0].tets) == 6 and bodies[1].tets == range(6, 12)
    assert world.vertex_count == 16
    assert world.body("lower") == bodies[1]
    with pytest.raises(KeyError):
        world.body("nothing")


def test_initial_positions(world):
    x = world.positions
    assert x.shape == (16, 3) and x.dtype == np.float64
    # upper cube [0,1]^3 translated to y = 3, lower to y = 1 (scenes/two_cubes.json)
    assert x[world.body("upper").vertices, 1].min() == 3.0
    assert x[world.body("lower").vertices, 1].min() == 1.0
    assert not x.flags.writeable


def test_triangles(world):
    t = world.triangles
    assert t.shape == (24, 3) and t.dtype == np.int32
    for b in world.bodies:
        tb = t[b.triangles]
        assert tb.shape == (12, 3)
        assert tb.min() >= b.vertices.start and tb.max() < b.vertices.stop
    # outward: the closed cube surface encloses a positive volume
    x = world.positions
    a, b, c = x[t[:12, 0]], x[t[:12, 1]], x[t[:12, 2]]
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6
    assert volume == pytest.approx(1.0)


def test_step_and_view(world):
    view = world.positions
    before = world.copy_positions()
    st = world.step()
    assert st["step"] == 1 and st["time"] == pytest.approx(0.025)
    assert world.time == pytest.approx(0.025) and world.step_count == 1
    assert st["newton_iterations"] >= 1 and st["energy"] == st["energy"]
    # the last fields of the C struct: a layout mismatch would scramble them
    assert st["factor_shifts"] == 0 and st["newton_floor"] in (0, 1)
    assert st["t_total"] >= st["t_factor"] >= 0
    # the view follows the world; the copy does not
    assert view[0, 1] < before[0, 1]
    assert np.array_equal(view, world.positions)
    assert not np.array_equal(view, before)
    v = world.velocities
    assert v[0, 1] == pytest.approx((view[0, 1] - before[0, 1]) / 0.025)


def test_run_lands_without_intersection(world):
    for _ in range(world.scene_steps):
        world.step()
    lower = world.positions[world.body("lower").vertices]
    assert 0 < lower[:, 1].min() < world.dhat
    assert world.check() and world.intersection() is None


def test_view_outlives_world_reference():
    x = ipcc.load_scene(TWO_CUBES).positions  # the World is only referenced by the view
    assert x[:, 1].max() == 4.0


def test_bad_scene(tmp_path):
    with pytest.raises(ipcc.InputError) as e:
        ipcc.load_scene(tmp_path / "missing.json")
    assert "missing.json" in str(e.value) and e.value.status == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"time_step": -1, "bodies": []}')
    with pytest.raises(ValueError, match="time_step"):
        ipcc.load_scene(bad)


def test_intersecting_start_rejected(tmp_path):
    scene = tmp_path / "overlap.json"
    mesh = os.path.abspath(os.path.join(ROOT, "scenes", "meshes", "cube.msh"))
    scene.write_text('{"bodies": [{"mesh": "%s"}, {"mesh": "%s", "translation": [0.5, 0.5, 0.5]}]}'
                     % (mesh, mesh))
    with pytest.raises(ipcc.InputError, match="intersects"):
        ipcc.load_scene(scene)


@pytest.mark.parametrize("mode", ["ipc", "lcp"])
def test_frames_and_tets(mode, tmp_path):
    with ipcc.load_scene(os.path.join(ROOT, "scenes", "two_cubes.json"), mode=mode) as w:
        w.step()
        w.write_frame(tmp_path, 1, "obj,vtu,ply")
        for name in ("000001.obj", "000001.vtu", "000001.ply", "frames.pvd"):
            assert (tmp_path / name).stat().st_size > 0
        with pytest.raises(ipcc.InputError, match="formats"):
            w.write_frame(tmp_path, 2, "gif")
        psi = w.tet_energy_density()
        assert psi.shape == (12,) and np.all(np.isfinite(psi)) and np.all(psi >= 0)
        assert [len(w.body(n).tets) for n in ("upper", "lower")] == [6, 6]


@pytest.mark.parametrize("mode", ["ipc", "lcp"])
def test_render(mode, tmp_path):
    with ipcc.load_scene(os.path.join(ROOT, "scenes", "two_cubes.json"), mode=mode) as w:
        png = tmp_path / "p.png"
        img = w.render(png, 160, 120)
        assert img.shape == (120, 160, 3) and img.dtype == np.uint8
        # the PNG holds the same picture: signature and IHDR size
        head = png.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(head[16:20], "big") == 160 and int.from_bytes(head[20:24], "big") == 120
        # the bodies are drawn: many colors, not just the sky gradient
        assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50
        # deterministic, and a camera looking away from the bodies sees none of them
        assert np.array_equal(img, w.render(None, 160, 120))
        away = w.render(None, 160, 120, camera={"eye": [0, 2, 0], "target": [0, 2, -100],
                                                 "up": [0, 1, 0], "fov": 30})
        assert not np.array_equal(away, img)
        fixed = w.render(None, 160, 120, camera="default")
        assert fixed.shape == img.shape
        for bad in ({"eye": [0, 0, 0], "target": [0, 0, 0], "up": [0, 1, 0]},
                    {"eye": [0, 0, 1], "target": [0, 0, 0]}, "front"):
            with pytest.raises(ipcc.InputError, match="camera"):
                w.render(None, 16, 16, camera=bad)
        with pytest.raises(ipcc.InputError, match="width and height"):
            w.render(None, 0, 16)
        # a folder that does not exist is the caller's path: named as given, no temporary file
        bad_png = tmp_path / "no" / "such" / "dir.png"
        with pytest.raises(ipcc.InputError, match=r"dir\.png: cannot write") as e:
            w.render(bad_png, 16, 16)
        assert ".tmp" not in str(e.value)


def test_closed(world, tmp_path):
    world.write_obj(tmp_path / "f.obj")
    assert (tmp_path / "f.obj").read_text().count("\no ") == 2
    world.close()
    with pytest.raises(ValueError, match="closed"):
        world.step()
    world.close()  # twice is fine


def test_found_by_soname():
    # without IPCC_LIBRARY the package loads libipcc.so.0 from the loader's search path
    lib = os.environ.get("IPCC_LIBRARY")
    if not lib:
        pytest.skip("IPCC_LIBRARY not set")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(os.path.abspath(lib)))
    del env["IPCC_LIBRARY"]
    code = "import ipcc; print(len(ipcc.load_scene(%r).bodies))" % TWO_CUBES
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2"


def test_scene_built_in_code():
    """the example: a dict scene, stepped to rest on the ground, positions read"""
    example = os.path.join(ROOT, "python", "examples", "drop_cube.py")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable, example], env=env, capture_output=True, text=True,
                         check=True).stdout
    lowest = float(out.split("lowest y ")[1].split()[0])
    assert 0 < lowest < 0.01  # resting on the ground, above it
    assert "intersection-free: True" in out


def test_scene_from_dict_bad_key():
    with pytest.raises(ipcc.InputError) as e:
        ipcc.scene_from_dict({"bodies": [{"mesh": "scenes/meshes/cube.msh", "colour": 1}]},
                             base_dir=ROOT)
    assert "bodies[0].colour" in str(e.value)


def test_scene_from_dict_young():
    with pytest.raises(ipcc.InputError, match=r"bodies\[0\]\.material\.young"):
        ipcc.scene_from_dict({"bodies": [{"mesh": "scenes/meshes/cube.msh",
                                          "material": {"young": -5}}]}, base_dir=ROOT)


def test_view_outlives_close():
    """an array read from a world stays valid after close(): the C world is freed when the
    last view goes (it used to read freed memory silently)"""
    import gc

    w = ipcc.load_scene(os.path.join(ROOT, "scenes", "two_cubes.json"))
    w.step()
    p = w.positions
    snapshot = p.copy()
    w.close()
    with pytest.raises(ValueError):
        w.positions
    junk = [np.full((1000, 3), 7.0) for _ in range(200)]  # would reuse freed memory
    assert np.array_equal(p, snapshot)
    assert w._c is not None  # still held by the view
    del p, junk
    gc.collect()
    assert w._c is None  # freed with the last view


def test_scene_dict_error_names_no_temporary_file():
    with pytest.raises(ipcc.InputError) as e:
        ipcc.scene_from_dict({"bodies": [{"mesh": "scenes/meshes/cube.msh", "colour": 1}]},
                             base_dir=ROOT)
    assert "scene dict" in str(e.value) and "ipcc-scene-" not in str(e.value)


def _c_struct_fields(header, name):
    """member names of `typedef struct NAME {...} NAME;` in an installed-style header, in order"""
    import re

    text = open(os.path.join(ROOT, "include", "ipcc", header)).read()
    body = text[text.index("typedef struct %s {" % name):]
    body = body[body.index("{") + 1:body.index("} %s;" % name)]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = []
    for decl in body.split(";"):
        decl = decl.strip()
        if not decl:
            continue
        # "double t_assembly, t_factor" -> the names after the type
        parts = decl.split(None, 1)[1]
        names += [p.strip().lstrip("*").split("[")[0] for p in parts.split(",")]
    return names


def test_step_stats_mirror_the_c_struct():
    # the ctypes struct must hold every C member in order: C writes the whole struct into it
    from ipcc import _native

    names = [n for n, _ in _native.StepStats._fields_]
    assert names == _c_struct_fields("world.h", "ipcc_step_stats")


def test_step_reports_linear_iterations(world):
    st = world.step()
    assert st["linear_iterations"] == 0  # CHOLMOD: a direct solve
    assert st["dhat_halvings"] >= 0 and st["factor_shifts"] == 0


# ---- driving a world from outside (include/ipcc/world_unified.h) ----

CUBE = os.path.join(ROOT, "scenes", "meshes", "cube.msh")


def resting_cube():
    return ipcc.scene_from_dict({
        "time_step": 0.01,
        "contact": {"dhat": 1e-3, "dhat_absolute": True},
        "bodies": [{"name": "cube", "mesh": CUBE, "translation": [0, 5e-4, 0],
                    "material": {"model": "neo_hookean", "density": 1000, "young": 1e8,
                                 "poisson": 0.3}}],
        "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]})


def test_set_velocities_moves_the_next_step(world):
    upper = world.body("upper").vertices
    v = np.zeros((world.vertex_count, 3))
    v[upper, 0] = 2.0
    world.set_velocities(v)
    before = world.copy_positions()
    t0 = world.time
    world.step()
    h = world.time - t0
    dx = world.positions[upper, 0] - before[upper, 0]
    # a free cube in flight: x moves by h v (gravity acts along y only)
    assert dx == pytest.approx(np.full(dx.shape, 2.0 * h), rel=1e-6)


def test_setters_refuse_bad_input(world):
    with pytest.raises(ipcc.InputError, match="shape"):
        world.set_velocities(np.zeros((3, 3)))
    bad = np.zeros((world.vertex_count, 3))
    bad[2, 1] = np.nan
    with pytest.raises(ipcc.InputError):
        world.set_velocities(bad)
    with pytest.raises(ipcc.InputError):
        world.set_forces(bad)
    with pytest.raises(TypeError):
        world.restore("not a state")
    # a state where the two cubes overlap is refused and the world is unchanged
    x = world.copy_positions()
    y = x.copy()
    y[world.body("upper").vertices, 1] -= 1.5
    with pytest.raises(ipcc.InputError):
        world.set_positions(y)
    assert np.array_equal(world.positions, x)
    world.set_forces(None)


def test_snapshot_restore_branches_bit_for_bit(world):
    for _ in range(3):
        world.step()
    snap = world.snapshot()
    for _ in range(5):
        world.step()
    first = world.copy_positions()
    steps = world.step_count
    world.restore(snap)
    assert world.step_count == 3
    for _ in range(5):
        world.step()
    assert world.step_count == steps
    assert np.array_equal(world.positions, first)


def test_contacts_of_a_resting_cube_carry_its_weight():
    with resting_cube() as w:
        for _ in range(30):
            w.step()
        cs = w.contacts()
        assert len(cs) >= 4
        assert all(c.kind == "vertex_plane" and c.bodies == (0, -1) and c.plane == 0 for c in cs)
        for c in cs:
            assert c.normal == pytest.approx([0, 1, 0], abs=1e-9)
            assert 0 < c.distance < 1e-3
        # 1 m^3 of density 1000 under g = 9.81 (the scene's default gravity)
        assert sum(c.normal_force for c in cs) == pytest.approx(9810.0, rel=0.02)


def test_constant_force_accelerates_a_free_cube(world):
    upper = world.body("upper").vertices
    m = world.masses
    assert m.shape == (world.vertex_count,)
    assert m[upper].sum() == pytest.approx(1000.0)  # a unit cube of density 1000
    f = np.zeros((world.vertex_count, 3))
    f[upper, 0] = 0.8 * m[upper]  # m_i a with a = 0.8 m/s^2: no strain, the whole cube
    world.set_forces(f)
    x0 = world.copy_positions()
    t0 = world.time
    for _ in range(3):
        world.step()
    h = (world.time - t0) / 3
    # implicit Euler from rest: x_3 = x_0 + 6 h^2 a
    dx = world.positions[upper, 0] - x0[upper, 0]
    assert dx == pytest.approx(np.full(dx.shape, 6 * h * h * 0.8), rel=1e-6)
    world.set_forces(None)
    x1 = world.copy_positions()
    world.step()
    # without the force the cube keeps its x velocity (3 h a)
    dx1 = world.positions[upper, 0] - x1[upper, 0]
    assert dx1 == pytest.approx(np.full(dx1.shape, 3 * h * h * 0.8), rel=1e-6)


# ---- the LCP mode: the same World over ipcc_world_new's LCP strategy ----


def lcp_cube(y=0.05, gravity=(0, -9.80665, 0), **lcp):
    """a 1 m^3 cube (1000 kg) above the ground plane, in LCP mode"""
    return ipcc.scene_from_dict({
        "time_step": 0.01, "gravity": list(gravity),
        "bodies": [{"name": "cube", "mesh": CUBE, "translation": [0, y, 0],
                    "material": {"model": "neo_hookean", "density": 1000, "young": 1e8,
                                 "poisson": 0.3}}],
        "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]}, mode="lcp", lcp=lcp or None)


@pytest.fixture
def lcp_world():
    with ipcc.load_scene(TWO_CUBES, mode="lcp") as w:
        yield w


def test_lcp_step_stats_mirror_the_c_struct():
    from ipcc import _native

    names = [n for n, _ in _native.LcpStepStats._fields_]
    assert names == _c_struct_fields("lcp_world.h", "ipcc_lcp_step_stats")


def test_lcp_mode_world(lcp_world, tmp_path):
    w = lcp_world
    assert w.mode == "lcp" and w.vertex_count == 16
    assert [b.name for b in w.bodies] == ["upper", "lower"]
    assert w.triangles.shape == (24, 3) and w.scene_steps == 80
    assert w.contact_distance > 0
    st = w.step()
    # the LCP step's own statistics; the last fields would be scrambled by a layout mismatch
    assert st["step"] == 1 and st["time"] == pytest.approx(0.025) and w.step_count == 1
    assert "lcp_iterations" in st and "newton_iterations" not in st
    assert len(st["region_hist"]) == 6 and st["prescribed_overlap"] == 0
    assert st["refactored"] in (0, 1) and st["t_total"] >= 0
    assert w.check() and w.intersection() is None
    w.write_obj(tmp_path / "f.obj")
    assert (tmp_path / "f.obj").read_text().count("\no ") == 2
    # the barrier's dhat has no meaning here: a clear error, not a wrong number
    with pytest.raises(ipcc.InputError, match="IPC mode only"):
        w.dhat
    with ipcc.load_scene(TWO_CUBES) as ipc:
        assert ipc.mode == "ipc" and ipc.dhat == ipc.contact_distance


def test_mode_from_the_scene_and_options():
    # no mode given: the scene's "mode" key, as `ipcc run` reads it; its "lcp" options apply
    scene = {"mode": "lcp", "lcp": {"gap": 0.03},
             "bodies": [{"mesh": "scenes/meshes/cube.msh", "translation": [0, 0.5, 0]}]}
    with ipcc.scene_from_dict(scene, base_dir=ROOT) as w:
        assert w.mode == "lcp" and w.contact_distance == 0.03
    # overrides after the scene's options, as the command line's
    with ipcc.scene_from_dict(scene, base_dir=ROOT, lcp={"gap": 0.04, "friction": "box",
                                                         "warm_start": False}) as w:
        assert w.contact_distance == 0.04
    with ipcc.load_scene(TWO_CUBES, mode="lcp", lcp={"gap": 0.02}) as w:
        assert w.contact_distance == 0.02
    with ipcc.load_scene(TWO_CUBES) as w:
        assert w.mode == "ipc"  # no "mode" key: IPC


def test_bad_mode_and_options_refused(tmp_path):
    with pytest.raises(ipcc.InputError, match=r'mode: expected "ipc" or "lcp".*\'LCP\''):
        ipcc.load_scene(TWO_CUBES, mode="LCP")
    with pytest.raises(ipcc.InputError, match=r'mode: expected "ipc" or "lcp"'):
        ipcc.scene_from_dict({"bodies": []}, mode=1)
    with pytest.raises(ipcc.InputError, match="lcp.solver: expected pgs"):
        ipcc.load_scene(TWO_CUBES, mode="lcp", lcp={"solver": "simplex"})
    with pytest.raises(ipcc.InputError, match="IPC mode"):
        ipcc.load_scene(TWO_CUBES, mode="ipc", lcp={"solver": "pgs"})
    with pytest.raises(ipcc.InputError, match="lcp: expected a dict"):
        ipcc.load_scene(TWO_CUBES, mode="lcp", lcp="pgs")
    # a scene's bad "mode" names the key, and the dict, never the temporary file
    with pytest.raises(ipcc.InputError) as e:
        ipcc.scene_from_dict({"mode": "fem", "bodies": []})
    assert str(e.value) == 'scene dict: mode: expected "ipc" or "lcp"'
    with pytest.raises(ipcc.InputError) as e:
        ipcc.scene_from_dict({"lcp": {"gap": -1}, "bodies": []}, mode="lcp")
    assert "scene dict: lcp.gap" in str(e.value) and "ipcc-scene-" not in str(e.value)
    bad = tmp_path / "bad_mode.json"
    bad.write_text('{"mode": "fem", "bodies": []}')
    with pytest.raises(ipcc.InputError, match="bad_mode.json: mode"):
        ipcc.load_scene(bad)


def test_lcp_cube_rests_on_the_plane_carrying_its_weight():
    with lcp_cube() as w:
        for _ in range(60):
            st = w.step()
        cs = w.contacts()
        assert len(cs) >= 4 and st["unconverged"] == 0
        assert all(c.kind == "vertex_plane" and c.bodies == (0, -1) and c.plane == 0 for c in cs)
        for c in cs:
            assert c.normal == pytest.approx([0, 1, 0], abs=1e-12)
            assert abs(c.distance) < 1e-6  # at rest on it (Baumgarte removed any overlap)
        # 1000 kg under 9.80665 m/s^2: 9806.65 N (measured: 9806.650063)
        assert sum(c.normal_force for c in cs) == pytest.approx(9806.65, rel=0.01)
        assert np.abs(w.velocities).max() < 1e-6
        assert abs(w.positions[:, 1].min()) < 1e-6


def test_lcp_set_velocities_moves_the_next_step(lcp_world):
    w = lcp_world
    upper = w.body("upper").vertices
    v = np.zeros((w.vertex_count, 3))
    v[upper, 0] = 2.0
    v[upper, 2] = -0.5
    w.set_velocities(v)
    assert np.array_equal(w.velocities, v)
    before = w.copy_positions()
    w.step()
    h = 0.025
    dx = w.positions[upper] - before[upper]
    # free flight: x moves by h v along x and z (gravity acts along y only)
    assert dx[:, 0] == pytest.approx(np.full(8, 2.0 * h), rel=1e-9)
    assert dx[:, 2] == pytest.approx(np.full(8, -0.5 * h), rel=1e-9)


def test_lcp_constant_force_is_the_linearly_implicit_euler_update(lcp_world):
    """LCP mode's free velocity (src/lcp/free_velocity.c): (M + h^2 K) v+ = M v + h (M g -
    grad E + f), then x+ = x + h v+ (lcp_world.c). A force m_i a on every vertex of an unstrained
    cube from rest: v_k = k h a, x_k = x_0 + h^2 a k (k + 1) / 2; explicit Euler would give
    k (k - 1) / 2"""
    w = lcp_world
    upper = w.body("upper").vertices
    m = w.masses
    assert m[upper].sum() == pytest.approx(1000.0)
    f = np.zeros((w.vertex_count, 3))
    f[upper, 0] = 0.8 * m[upper]
    f[upper, 2] = -0.3 * m[upper]
    w.set_forces(f)
    x0 = w.copy_positions()
    h = 0.025
    for k in range(1, 4):
        w.step()
        dx = w.positions[upper] - x0[upper]
        assert dx[:, 0] == pytest.approx(np.full(8, 0.8 * h * h * k * (k + 1) / 2), rel=1e-9)
        assert dx[:, 2] == pytest.approx(np.full(8, -0.3 * h * h * k * (k + 1) / 2), rel=1e-9)
        assert w.velocities[upper, 0] == pytest.approx(np.full(8, 0.8 * h * k), rel=1e-9)
        # gravity the same way: the scene's -9.80665 along y
        assert dx[:, 1] == pytest.approx(np.full(8, -9.80665 * h * h * k * (k + 1) / 2),
                                         rel=1e-9)
    w.set_forces(None)
    x3 = w.copy_positions()
    w.step()
    # without the force the cube keeps its x velocity 3 h a
    assert w.positions[upper, 0] - x3[upper, 0] == pytest.approx(np.full(8, 3 * h * h * 0.8),
                                                                 rel=1e-9)


def test_lcp_snapshot_restore_branches_bit_for_bit(lcp_world):
    w = lcp_world
    for _ in range(20):  # the cubes land between steps 20 and 40 (contacts, warm starts)
        w.step()
    snap = w.snapshot()
    contacts_seen = 0
    for _ in range(20):
        contacts_seen += w.step()["contacts"]
    first, vfirst = w.copy_positions(), w.velocities.copy()
    w.restore(snap)
    assert w.step_count == 20
    for _ in range(20):
        w.step()
    assert contacts_seen > 0
    assert np.array_equal(w.positions, first) and np.array_equal(w.velocities, vfirst)
    # a snapshot of the other mode is refused
    with ipcc.load_scene(TWO_CUBES) as ipc:
        with pytest.raises(ipcc.InputError):
            ipc.restore(snap)


def test_lcp_setters_refuse_bad_input(lcp_world):
    w = lcp_world
    x = w.copy_positions()
    with pytest.raises(ipcc.InputError,
                       match=r"set_velocities: expected an array of shape \(16, 3\)"):
        w.set_velocities(np.zeros((15, 3)))
    bad = np.zeros((w.vertex_count, 3))
    bad[3, 2] = np.nan
    with pytest.raises(ipcc.InputError, match="vertex 3"):
        w.set_velocities(bad)
    with pytest.raises(ipcc.InputError, match="vertex 3"):
        w.set_forces(bad)
    with pytest.raises(ipcc.InputError, match="vertex 3"):
        w.set_positions(x + bad)
    with pytest.raises(TypeError, match="None"):
        w.set_positions(None)
    with pytest.raises(TypeError, match="None"):
        w.set_velocities(None)
    # overlapping cubes: refused, the world unchanged
    y = x.copy()
    y[w.body("upper").vertices, 1] -= 1.5
    with pytest.raises(ipcc.InputError):
        w.set_positions(y)
    assert np.array_equal(w.positions, x)
    assert not np.any(w.velocities)


@pytest.mark.parametrize("mode", ["ipc", "lcp"])
def test_set_targets_moves_a_vertex_to_its_target(mode):
    scene = {"time_step": 0.01, "gravity": [0, -9.81, 0],
             "bodies": [{"name": "cube", "mesh": CUBE, "translation": [0, 1, 0],
                         "material": {"young": 1e5, "poisson": 0.3}}]}
    with ipcc.scene_from_dict(scene, mode=mode) as w:
        x0 = w.copy_positions()
        target = x0[[0, 1]] + [[0.02, 0, 0], [0, 0.01, 0]]
        w.set_targets([0, 1], target)
        w.step()
        assert w.positions[[0, 1]] == pytest.approx(target, abs=1e-12)
        # the other vertices are free: they fall and follow the pulled ones
        assert w.positions[2, 1] < x0[2, 1]
        # it got there with the velocity (target - x) / h
        assert w.velocities[0, 0] == pytest.approx(0.02 / 0.01, rel=1e-9)
        # for the next step only: then vertex 0 moves on freely, with its velocity (h v = 0.02
        # m) less the elastic pull of its neighbours
        x1 = w.copy_positions()
        w.step()
        assert 0.01 < w.positions[0, 0] - x1[0, 0] < 0.02
        # the whole body through its slice: a rigid lift of 1 mm, exactly
        xb = w.copy_positions()
        w.set_targets(w.body("cube").vertices, xb + [0, 1e-3, 0])
        w.step()
        assert w.positions == pytest.approx(xb + [0, 1e-3, 0], abs=1e-12)
        # cleared: nothing scripted
        w.set_targets([0], w.copy_positions()[:1] + 1.0)
        w.set_targets([], np.zeros((0, 3)))
        xc = w.copy_positions()
        w.step()
        assert np.abs(w.positions - xc).max() < 0.1


@pytest.mark.parametrize("mode", ["ipc", "lcp"])
def test_set_targets_refuses_bad_input(mode):
    with ipcc.load_scene(TWO_CUBES, mode=mode) as w:
        with pytest.raises(ipcc.InputError, match="not finite"):
            w.set_targets([0], [[np.nan, 0, 0]])
        with pytest.raises(ipcc.InputError, match=r"shape \(1, 3\)"):
            w.set_targets([0], [[0, 0, 0], [1, 1, 1]])
        with pytest.raises(ipcc.InputError, match=r"vertex 16: expected a vertex id in \[0, 16\)"):
            w.set_targets([16], [[0, 0, 0]])
        with pytest.raises(ipcc.InputError, match="vertex ids"):
            w.set_targets([0.5], [[0, 0, 0]])
        with pytest.raises(TypeError, match="None"):
            w.set_targets(None, [[0, 0, 0]])
        with pytest.raises(TypeError, match="None"):
            w.set_targets([0], None)
        # nothing was set: the next step is free flight
        x = w.copy_positions()
        w.step()
        assert w.positions[:, 0] == pytest.approx(x[:, 0], abs=1e-12)


def test_docs_python_examples_run():
    """the ```python blocks of docs/using-ipcc-from-c.md ("Python") and python/README.md run
    as written, from the project root"""
    import re

    for doc, start in (("docs/using-ipcc-from-c.md", "## Python"), ("python/README.md", "")):
        text = open(os.path.join(ROOT, doc)).read()
        text = text[text.index(start):]
        code = "\n".join(re.findall(r"```python\n(.*?)```", text, flags=re.S))
        assert code
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                             text=True)
        assert out.returncode == 0, doc + ": " + out.stderr


def test_library_not_found_says_how_to_find_it():
    code = "import ipcc"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               IPCC_LIBRARY="/nonexistent/libipcc.so")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "IPCC_LIBRARY=/nonexistent/libipcc.so" in out.stderr
    assert "LD_LIBRARY_PATH" in out.stderr
    # without IPCC_LIBRARY and nothing installed: the installed soname, then the hint
    env.pop("IPCC_LIBRARY")
    env["LD_LIBRARY_PATH"] = ""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode == 0:
        pytest.skip("libipcc.so.0 is installed on this machine")
    assert "IPCC_LIBRARY" in out.stderr and "LD_LIBRARY_PATH" in out.stderr
