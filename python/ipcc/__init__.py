"""Python bindings of ipcc, the contact simulator, over its shared library (ctypes; see
docs/using-ipcc-from-c.md for the C API underneath). One World class for both contact
models: IPC (barrier, intersection-free) and LCP (velocity-level complementarity).

    import ipcc
    with ipcc.load_scene("scenes/two_cubes.json") as w:            # or mode="lcp"
        for _ in range(20):
            w.step()
        print(w.positions[:, 1].min(), w.check())

The library is found through the environment variable IPCC_LIBRARY (a path to
libipcc.so), else as the installed libipcc.so.0.
"""
import ctypes
import numbers
import os
import weakref
from dataclasses import dataclass

import numpy as np

from ._native import (BodyInfo, Camera as _CCamera, Contact as _CContact, Error as _CError,
                      Image as _CImage, LcpStepStats as _CLcpStepStats,
                      StepStats as _CStepStats, lib as _lib)

__version__ = "0.1.0"

__all__ = ["Body", "Contact", "Error", "InputError", "OutputError", "SimulationError", "World", "load_scene",
           "scene_from_dict", "set_threads"]

_IPC_ERR_SIM = 1
_IPC_ERR_IO = 3
_SCENE_LENIENT = 1
_MODES = {"ipc": 0, "lcp": 1}  # ipcc_mode; None: IPCC_MODE_SCENE (-1)
_MODE_SCENE = -1


class Error(Exception):
    """an ipcc failure; status is the C ipcc_status (1 simulation, 2 bad input, 3 output)"""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class InputError(Error, ValueError):
    """bad input (IPCC_ERR_INPUT): the message names the file, line or key"""


class SimulationError(Error, RuntimeError):
    """a failed time step (IPCC_ERR_SIM): NaN, no progress"""


class OutputError(Error, OSError):
    """output that could not be written (IPCC_ERR_IO): a full disk, an I/O error"""


def _raise(err):
    msg = err.msg.decode("utf-8", "replace")
    cls = {_IPC_ERR_SIM: SimulationError, _IPC_ERR_IO: OutputError}.get(err.status, InputError)
    raise cls(err.status, msg)


@dataclass(frozen=True)
class Body:
    """one body or obstacle: its rows of World.positions and of World.triangles"""

    name: str
    obstacle: bool
    vertices: slice   # rows of World.positions
    tets: range       # tet indices (empty for obstacles)
    triangles: slice  # rows of World.triangles


def set_threads(n):
    """threads for ipcc's own loops (process-wide; n < 1: one per core); returns the number
    in use. Results do not depend on it."""
    return _lib.ipcc_set_threads(int(n))


def _mode_value(mode):
    if mode is None:
        return _MODE_SCENE
    if isinstance(mode, str) and mode in _MODES:
        return _MODES[mode]
    raise InputError(2, "mode: expected \"ipc\" or \"lcp\" (or None: the scene's \"mode\", "
                        "IPC when it has none), got %r" % (mode,))


def _option_text(key, value):
    # an LCP option as ipcc_lcp_world_def_set spells it (as a scene's "lcp" object would give it)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return value
    raise InputError(2, "lcp: %s: expected a string, number or boolean, got %r" % (key, value))


def _lcp_options(lcp):
    if lcp is None:
        return None, None, 0
    if not hasattr(lcp, "items"):
        raise InputError(2, "lcp: expected a dict of LCP options (as a scene's \"lcp\" object), "
                            "got %r" % (lcp,))
    keys, values = [], []
    for k, v in lcp.items():
        if not isinstance(k, str):
            raise InputError(2, "lcp: option names are strings, got %r" % (k,))
        keys.append(k.encode())
        values.append(_option_text(k, v).encode())
    n = len(keys)
    return (ctypes.c_char_p * max(n, 1))(*keys), (ctypes.c_char_p * max(n, 1))(*values), n


def load_scene(path, mode=None, lenient=False, lcp=None):
    """loads a scene file (JSON or IPC .txt script) and builds its World. InputError names
    the file, line or key when the scene is rejected (also an initial intersection).
    mode: "ipc" (barrier), "lcp" (velocity-level complementarity), or None: the scene's
    "mode" key (IPC when it has none). LCP mode takes its options as `ipcc run` does: the
    scene's "lcp" object, then lcp, a dict of overrides with the same keys and values
    (docs/lcp-mode.md: "solver", "friction", "coupling", "gap", "baumgarte", "restitution",
    "tolerance", "max_iterations", ...); lcp with an IPC-mode world is an InputError.
    lenient: unsupported .txt keywords are a warning on stderr instead of an error."""
    m = _mode_value(mode)
    keys, values, n = _lcp_options(lcp)
    err = _CError()
    w = _lib.ipcc_world_load(os.fsencode(path), _SCENE_LENIENT if lenient else 0, m, keys, values,
                             n, ctypes.byref(err))
    if not w:
        _raise(err)
    return World(w)


def scene_from_dict(scene, base_dir=".", lenient=False, mode=None, lcp=None):
    """builds the World of a scene given in code: a dict in the JSON scene format
    (docs/scene-format.md), e.g.

        {"time_step": 0.01, "bodies": [{"mesh": "scenes/meshes/cube.msh",
                                         "translation": [0, 0.5, 0]}],
         "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]}

    Relative mesh paths are taken relative to base_dir. The scene is checked exactly as a
    file would be: InputError names the key that is wrong (as "scene dict: key: ...").
    mode and lcp as load_scene (the dict may also hold "mode" and "lcp")."""
    import json
    import tempfile

    _mode_value(mode)  # refused before anything is written
    s = json.loads(json.dumps(scene))  # a deep copy; also refuses what JSON cannot hold
    for body in s.get("bodies", []) if isinstance(s, dict) else []:
        mesh = body.get("mesh") if isinstance(body, dict) else None
        if isinstance(mesh, str) and not os.path.isabs(mesh):
            body["mesh"] = os.path.abspath(os.path.join(base_dir, mesh))
    with tempfile.TemporaryDirectory(prefix="ipcc-scene-") as d:
        path = os.path.join(d, "scene.json")
        with open(path, "w") as f:
            json.dump(s, f)
        try:
            return load_scene(path, mode, lenient, lcp)
        except Error as e:
            # the scene is the caller's dict, not our temporary file: say so
            msg = str(e).replace(path, "scene dict").replace(d, os.path.abspath(base_dir))
            raise type(e)(e.status, msg) from None


_CONTACT_KINDS = {0: "vertex_face", 1: "edge_edge", 2: "vertex_edge", 3: "vertex_vertex",
                  4: "vertex_plane", 5: "points"}


@dataclass(frozen=True)
class Contact:
    """one contact at the world's state (ipcc_contact, include/ipcc/world_unified.h): kind
    ("vertex_face", "edge_edge", "vertex_edge", "vertex_vertex", "vertex_plane", and in LCP
    mode "points": weighted points, weights > 0 on side 0 and < 0 on side 1), the two bodies
    (bodies[1] = -1 against a plane), the plane or -1, the primitives' vertices (-1 where
    unused), closest points on side 0 and side 1, the unit normal from side 1 towards side 0,
    the distance (m; IPC: below dhat; LCP: the signed gap, negative for an overlap), the
    normal force on side 0 (N; IPC: from the barrier; LCP: the last step's normal impulse / h)
    and the friction force on side 0 (N; IPC: the lagged friction; LCP: the last step's
    tangential impulses / h); weights: the vertices' weights (LCP; 0 in IPC mode)"""

    kind: str
    bodies: tuple
    plane: int
    vertices: tuple
    points: np.ndarray   # (2, 3)
    normal: np.ndarray   # (3,)
    distance: float
    normal_force: float
    friction_force: np.ndarray  # (3,)
    weights: tuple = (0.0, 0.0, 0.0, 0.0)


class State:
    """a snapshot of a world's state (World.snapshot): time, step, positions, velocities and
    the solver's own state, held in memory; World.restore puts it back and the world then
    continues bit for bit as it did after the snapshot (the way to branch a run)"""

    def __init__(self, handle):
        self._s = ctypes.c_void_p(handle)

    def __del__(self):
        if getattr(self, "_s", None):
            _lib.ipcc_state_free(self._s)
            self._s = None


class World:
    """a simulation in either contact model (World.mode: "ipc" or "lcp"), over the C library's
    ipcc_world. Create one with load_scene or scene_from_dict; close() (or a with block, or
    garbage collection) frees it. Not safe to use from two threads at once."""

    def __init__(self, handle):
        self._w = ctypes.c_void_p(handle)
        self._c = self._w  # the C world, freed once closed and no array views it
        self._n = _lib.ipcc_world_vertex_count(self._w)
        self._mode = "lcp" if _lib.ipcc_world_mode(self._w) == _MODES["lcp"] else "ipc"
        self._views = 0

    def close(self):
        """ends the world: later calls raise ValueError. Its memory is freed now, or, while
        arrays from positions, velocities or triangles still view it, when the last of them
        goes (they stay readable, frozen at the state of the close)."""
        self._w = None
        self._release()

    def _release(self):
        if self._c and self._w is None and self._views == 0:
            _lib.ipcc_world_destroy(self._c)
            self._c = None

    def _view_gone(self):
        self._views -= 1
        self._release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self._w = None
        self._views = 0
        self._release()

    def _handle(self):
        if not self._w:
            raise ValueError("ipcc.World is closed")
        return self._w

    @property
    def mode(self):
        """the contact model: "ipc" (barrier) or "lcp" (velocity-level complementarity)"""
        return self._mode

    def _ipc_only(self, what):
        if self._mode != "ipc":
            raise InputError(2, "%s: IPC mode only; this world is in LCP mode" % what)

    def step(self):
        """one time step; returns its statistics as a dict, the mode's (keys as stats.json's
        step records). IPC: step, time, newton_iterations, contacts, min_distance, energy,
        kappa, ... (ipcc_step_stats); LCP: step, time, contacts, regions, lcp_iterations,
        residual, min_distance, energy, ... (ipcc_lcp_step_stats). Both have step, time,
        min_distance, energy and t_total. Raises SimulationError when the step fails."""
        cls = _CLcpStepStats if self._mode == "lcp" else _CStepStats
        st = cls()
        err = _CError()
        if _lib.ipcc_world_step(self._handle(), ctypes.byref(st), ctypes.byref(err)) != 0:
            _raise(err)
        out = {}
        for name, _ in cls._fields_:
            value = getattr(st, name)
            out[name] = list(value) if isinstance(value, ctypes.Array) else value
        return out

    def _view(self, ptr, shape, ctype, dtype):
        # a read-only array over C memory; the ctypes buffer holds a reference to self and
        # counts as a view, so the C world is freed only after the last array goes, even
        # when close() comes first
        count = shape[0] * shape[1]
        address = ctypes.cast(ptr, ctypes.c_void_p).value
        buf = (ctype * count).from_address(address) if count else (ctype * 0)()
        buf._world = self
        self._views += 1
        weakref.finalize(buf, World._view_gone, self)
        a = np.frombuffer(buf, dtype=dtype).reshape(shape)
        a.flags.writeable = False
        return a

    @property
    def positions(self):
        """current positions, (vertex_count, 3) float64, a read-only view (no copy) of the
        world's buffer: it changes in place at every step() and is valid until close().
        Use copy_positions() for a snapshot."""
        return self._view(_lib.ipcc_world_positions(self._handle()), (self._n, 3),
                          ctypes.c_double, np.float64)

    def copy_positions(self):
        """a copy of the current positions, (vertex_count, 3) float64"""
        return self.positions.copy()

    @property
    def velocities(self):
        """current velocities (m/s), a read-only view as positions"""
        return self._view(_lib.ipcc_world_velocities(self._handle()), (self._n, 3),
                          ctypes.c_double, np.float64)

    @property
    def triangles(self):
        """the surface triangles, (n, 3) int32 vertex indices (outward, counter-clockwise),
        body after body; a read-only view, fixed for the world's lifetime"""
        n = ctypes.c_int()
        ptr = _lib.ipcc_world_surface_triangles(self._handle(), ctypes.byref(n))
        return self._view(ptr, (n.value, 3), ctypes.c_int, np.int32)

    @property
    def bodies(self):
        """the bodies and obstacles in scene order (list of Body)"""
        out = []
        for i in range(_lib.ipcc_world_body_count(self._handle())):
            b = BodyInfo()
            _lib.ipcc_world_body(self._w, i, ctypes.byref(b))
            out.append(Body(
                name=b.name.decode("utf-8", "replace"),
                obstacle=bool(b.obstacle),
                vertices=slice(b.vertex_begin, b.vertex_begin + b.vertex_count),
                tets=range(b.tet_begin, b.tet_begin + b.tet_count),
                triangles=slice(b.triangle_begin, b.triangle_begin + b.triangle_count)))
        return out

    def body(self, name):
        """the Body called name (KeyError if none)"""
        for b in self.bodies:
            if b.name == name:
                return b
        raise KeyError(name)

    def _unified(self):
        return self._handle()

    def _vertex_array(self, a, what):
        a = np.ascontiguousarray(a, dtype=np.float64)
        if a.shape != (self._n, 3):
            raise InputError(2, "%s: expected an array of shape (%d, 3), got %s" %
                             (what, self._n, a.shape))
        return a

    @property
    def masses(self):
        """the vertices' lumped masses (vertex_count,) in kg (0 on obstacles), a copy: forces
        m_i a on every vertex of a body accelerate it by a"""
        ptr = _lib.ipcc_world_masses(self._unified())
        return np.ctypeslib.as_array(ptr, shape=(self._n,)).copy()

    def _set_vertex_values(self, setter, a, what):
        # one of the ipcc_world_set_* taking (vertex_count, 3) doubles; a None: NULL, 0
        err = _CError()
        if a is None:
            rc = setter(self._unified(), None, 0, ctypes.byref(err))
        else:
            a = self._vertex_array(a, what)
            rc = setter(self._unified(), a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                        self._n, ctypes.byref(err))
        if rc != 0:
            _raise(err)

    def set_velocities(self, v):
        """sets every vertex velocity (vertex_count, 3) in m/s for the next steps; InputError
        (the world unchanged) on a wrong shape or a value that is not finite"""
        self._set_vertex_values(_lib.ipcc_world_set_velocities, self._required(v), "set_velocities")

    def set_positions(self, x):
        """sets every vertex position (vertex_count, 3); refused with InputError (the world
        unchanged) when the new state intersects and, in IPC mode, when two surfaces touch or
        a vertex is on or behind a plane"""
        self._set_vertex_values(_lib.ipcc_world_set_positions, self._required(x), "set_positions")

    def set_forces(self, f):
        """per-vertex external forces (vertex_count, 3) in N, applied in every following step
        until set again; None removes them. IPC mode: the term -f.x of the incremental
        potential; LCP mode: the impulse h f in the free velocity"""
        self._set_vertex_values(_lib.ipcc_world_set_forces, f, "set_forces")

    def set_targets(self, vertices, targets):
        """scripted targets for the next step only: vertex vertices[k] ends the next step at
        targets[k] (kinematic control of an obstacle, a scripted region or any vertex of a
        deformable body; IPC: placed there if no contact is crossed, else pulled there; LCP:
        given the velocity (target - x) / h), overriding the scene's script of that vertex.
        After that step an obstacle stays where it is and other vertices are free again.
        vertices: vertex ids (a sequence of ints, a boolean mask of vertex_count, or a slice
        such as Body.vertices); targets: (len(vertices), 3). Replaces targets set before and
        not yet used; empty vertices clear them. InputError (nothing set) on a wrong shape, a
        target that is not finite, an id out of range or a vertex of an affine body."""
        if vertices is None or targets is None:
            raise TypeError("set_targets: expected vertex ids and an array of shape (k, 3), "
                            "got None")
        if isinstance(vertices, slice):
            ids = np.arange(self._n)[vertices]
        else:
            ids = np.asarray(vertices)
            if ids.dtype == np.bool_:
                if ids.shape != (self._n,):
                    raise InputError(2, "set_targets: a boolean mask of vertices has shape "
                                        "(%d,), got %s" % (self._n, ids.shape))
                ids = np.flatnonzero(ids)
            elif ids.size == 0:
                ids = ids.astype(np.int64).reshape(0)
            elif ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
                raise InputError(2, "set_targets: vertices: expected a 1-d sequence of vertex "
                                    "ids (integers), got %s of shape %s" % (ids.dtype, ids.shape))
        k = len(ids)
        if k and (ids.min() < 0 or ids.max() >= self._n):
            bad = int(ids[(ids < 0) | (ids >= self._n)][0])
            raise InputError(2, "set_targets: vertex %d: expected a vertex id in [0, %d)" %
                             (bad, self._n))
        x = np.ascontiguousarray(targets, dtype=np.float64)
        if x.shape != (k, 3):
            raise InputError(2, "set_targets: expected targets of shape (%d, 3) for %d vertices, "
                                "got %s" % (k, k, x.shape))
        ids = np.ascontiguousarray(ids, dtype=np.intc)
        err = _CError()
        if _lib.ipcc_world_set_targets(self._handle(),
                                       ids.ctypes.data_as(ctypes.POINTER(ctypes.c_int)), k,
                                       x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                                       ctypes.byref(err)) != 0:
            _raise(err)

    @staticmethod
    def _required(a):
        if a is None:
            raise TypeError("expected an array of shape (vertex_count, 3), got None")
        return a

    def contacts(self):
        """the contacts at the current state (list of Contact)"""
        w = self._unified()
        n = _lib.ipcc_world_contacts(w, None, 0)
        if n <= 0:
            return []
        buf = (_CContact * n)()
        n = min(n, _lib.ipcc_world_contacts(w, buf, n))
        out = []
        for c in buf[:n]:
            out.append(Contact(
                kind=_CONTACT_KINDS.get(c.kind, str(c.kind)), bodies=(c.body[0], c.body[1]),
                plane=c.plane, vertices=tuple(c.vertex),
                points=np.array([list(c.point[0]), list(c.point[1])]),
                normal=np.array(list(c.normal)), distance=c.distance,
                normal_force=c.normal_force, friction_force=np.array(list(c.friction_force)),
                weights=tuple(c.weight)))
        return out

    def snapshot(self):
        """a State holding the current state in memory (restore() puts it back)"""
        err = _CError()
        s = _lib.ipcc_state_create(self._unified(), ctypes.byref(err))
        if not s:
            _raise(err)
        return State(s)

    def restore(self, state):
        """puts a snapshot back into this world; InputError when it was taken from a world of
        another scene or mode"""
        if not isinstance(state, State) or not state._s:
            raise TypeError("restore: expected a State from World.snapshot()")
        err = _CError()
        if _lib.ipcc_state_restore(self._unified(), state._s, ctypes.byref(err)) != 0:
            _raise(err)

    def check(self):
        """the exact intersection check of the current state: True when no two surface
        primitives intersect (obstacle pairs are not checked; in LCP mode, where small
        overlaps at contacts are part of the model, neither are the planes); see
        intersection()"""
        return bool(_lib.ipcc_world_intersection_free(self._handle(), None, 0))

    def intersection(self):
        """None when the current state is intersection-free, else a description of the
        first intersecting pair"""
        what = ctypes.create_string_buffer(512)
        if _lib.ipcc_world_intersection_free(self._handle(), what, len(what)):
            return None
        return what.value.decode("utf-8", "replace")

    def write_obj(self, path):
        """the surfaces at the current state as one OBJ file, one object per body"""
        err = _CError()
        if _lib.ipcc_world_write_obj(self._handle(), os.fsencode(path), ctypes.byref(err)) != 0:
            _raise(err)

    def write_frame(self, directory, frame, formats="obj"):
        """the current state as frame number `frame` in directory (which must exist), in the
        formats of a comma list of obj, ply, vtu, pc2 (as `ipcc run --format`): NNNNNN.obj,
        .ply, .vtu (with frames.pvd), sample `frame` of motion.pc2"""
        bits = ctypes.c_uint(0)
        if _lib.ipcc_output_formats_parse(formats.encode(), ctypes.byref(bits)) != 0:
            raise InputError(2, "write_frame: formats %r: expected a comma list of obj, ply, "
                                "vtu, pc2" % (formats,))
        err = _CError()
        if _lib.ipcc_world_write_frame(self._handle(), os.fsencode(directory), int(frame),
                                       bits.value, ctypes.byref(err)) != 0:
            _raise(err)

    def render(self, path=None, width=640, height=480, camera=None):
        """draws the surfaces (one color per body, obstacles grey, a tiled floor for each
        plane) as `ipcc run`'s previews do, and returns the picture as a (height, width, 3)
        uint8 array; with path, also writes it as a PNG there (whole or not at all). camera:
        None (the scene's camera, else one that follows the bodies), "default" (the scene's,
        else a 3/4 view of the start), or a dict with eye, target, up (3 numbers each) and fov
        (vertical, degrees)"""
        if not (isinstance(width, int) and isinstance(height, int) and 0 < width <= 16384 and
                0 < height <= 16384):
            raise InputError(2, "render: width and height: expected whole numbers in 1..16384, "
                                "got %r x %r" % (width, height))
        if camera is None:
            cam = _lib.ipcc_world_follow_camera(self._handle())
        elif camera == "default":
            cam = _lib.ipcc_world_default_camera(self._handle())
        elif isinstance(camera, dict):
            cam = _CCamera()
            try:
                for key in ("eye", "target", "up"):
                    v = np.asarray(camera[key], dtype=float)
                    if v.shape != (3,) or not np.all(np.isfinite(v)):
                        raise ValueError
                    getattr(cam, key)[:] = list(v)
                cam.fov = float(camera.get("fov", 40.0))
            except (KeyError, ValueError, TypeError):
                raise InputError(2, "render: camera: expected eye, target, up (3 finite numbers "
                                    "each) and fov (degrees), got %r" % (camera,)) from None
            if not (0 < cam.fov < 180) or np.allclose(cam.eye, cam.target, rtol=0, atol=1e-12):
                raise InputError(2, "render: camera: fov must be in (0, 180) degrees and the eye "
                                    "apart from the target, got %r" % (camera,))
        else:
            raise InputError(2, "render: camera: expected None, \"default\" or a dict, got %r"
                             % (camera,))
        bg = (ctypes.c_ubyte * 3)(255, 255, 255)
        im = _lib.ipcc_image_create(width, height, bg)
        try:
            _lib.ipcc_render_world(im, self._handle(), ctypes.byref(cam))
            img = ctypes.cast(im, ctypes.POINTER(_CImage)).contents
            pixels = np.ctypeslib.as_array(img.rgb, shape=(height, width, 3)).copy()
            if path is not None:
                err = _CError()
                if _lib.ipcc_image_write_png(im, os.fsencode(path), ctypes.byref(err)) != 0:
                    _raise(err)
        finally:
            _lib.ipcc_image_destroy(im)
        return pixels

    def tet_energy_density(self):
        """the elastic energy density Psi (J/m^3) of every tet at the current positions, in
        the tet order of Body.tets (inf for an inverted tet); a new array"""
        n = _lib.ipcc_world_tet_count(self._handle())
        psi = np.zeros(n)
        if n:
            _lib.ipcc_world_tet_energy_density(
                self._handle(), psi.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))
        return psi

    @property
    def vertex_count(self):
        return self._n

    @property
    def time(self):
        """simulated time (s)"""
        return _lib.ipcc_world_time(self._handle())

    @property
    def step_count(self):
        """steps taken so far"""
        return _lib.ipcc_world_step_count(self._handle())

    @property
    def scene_steps(self):
        """steps the scene asks for (duration / time_step)"""
        return _lib.ipcc_world_scene_steps(self._handle())

    @property
    def contact_distance(self):
        """the distance contacts act below (m): IPC's dhat, LCP's contact gap"""
        return _lib.ipcc_world_contact_distance(self._handle())

    @property
    def dhat(self):
        """barrier activation distance in use (m); IPC mode only (InputError in LCP mode:
        see contact_distance)"""
        self._ipc_only("dhat")
        return _lib.ipcc_world_contact_distance(self._handle())
