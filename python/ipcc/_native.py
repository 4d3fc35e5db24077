"""ctypes declarations of the part of ipcc's C API (include/ipcc/) this package uses.

The structures mirror the C ones field for field; a change there must be made here too
(tests/test_ipcc.py checks the step statistics end to end).
"""
import ctypes
import ctypes.util
import os

SONAME = "libipcc.so.0"


class Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("msg", ctypes.c_char * 1024)]


class StepStats(ctypes.Structure):
    _fields_ = [
        ("step", ctypes.c_int),
        ("time", ctypes.c_double),
        ("newton_iterations", ctypes.c_int),
        ("newton_capped", ctypes.c_int),
        ("line_search_steps", ctypes.c_int),
        ("ccd_alpha_min", ctypes.c_double),
        ("contacts", ctypes.c_int),
        ("contacts_max", ctypes.c_int),
        ("min_distance", ctypes.c_double),
        ("energy", ctypes.c_double),
        ("kappa", ctypes.c_double),
        ("dirichlet_unmet", ctypes.c_int),
        ("residual", ctypes.c_double),
        ("t_assembly", ctypes.c_double),
        ("t_factor", ctypes.c_double),
        ("t_ccd", ctypes.c_double),
        ("t_broad_phase", ctypes.c_double),
        ("t_total", ctypes.c_double),
        ("analyses", ctypes.c_int),
        ("t_analyze", ctypes.c_double),
        ("friction_contacts", ctypes.c_int),
        ("friction_iterations", ctypes.c_int),
        ("max_slip_speed", ctypes.c_double),
        ("dhat_halvings", ctypes.c_int),
        ("factor_shifts", ctypes.c_int),
        ("newton_floor", ctypes.c_int),
        ("linear_iterations", ctypes.c_long),
        ("ccd_cuts", ctypes.c_int),
        ("backtracks", ctypes.c_int),
        ("frozen_iterations", ctypes.c_int),
    ]


class LcpStepStats(ctypes.Structure):
    """ipcc_lcp_step_stats (include/ipcc/lcp_world.h)"""
    _fields_ = [
        ("step", ctypes.c_int),
        ("time", ctypes.c_double),
        ("contacts", ctypes.c_int),
        ("regions", ctypes.c_int),
        ("region_max", ctypes.c_int),
        ("region_hist", ctypes.c_int * 6),
        ("lcp_iterations", ctypes.c_long),
        ("unconverged", ctypes.c_int),
        ("residual", ctypes.c_double),
        ("rel_residual", ctypes.c_double),
        ("min_distance", ctypes.c_double),
        ("contacts_after", ctypes.c_int),
        ("energy", ctypes.c_double),
        ("t_velocity", ctypes.c_double),
        ("t_contacts", ctypes.c_double),
        ("t_solve", ctypes.c_double),
        ("t_total", ctypes.c_double),
        ("velocity_iterations", ctypes.c_int),
        ("refactored", ctypes.c_int),
        ("prescribed_overlap", ctypes.c_int),
    ]


class BodyInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("obstacle", ctypes.c_int),
        ("vertex_begin", ctypes.c_int),
        ("vertex_count", ctypes.c_int),
        ("tet_begin", ctypes.c_int),
        ("tet_count", ctypes.c_int),
        ("triangle_begin", ctypes.c_int),
        ("triangle_count", ctypes.c_int),
    ]


class Contact(ctypes.Structure):
    """ipcc_contact (include/ipcc/world_unified.h)"""
    _fields_ = [
        ("kind", ctypes.c_int),
        ("body", ctypes.c_int * 2),
        ("plane", ctypes.c_int),
        ("vertex", ctypes.c_int * 4),
        ("weight", ctypes.c_double * 4),
        ("point", (ctypes.c_double * 3) * 2),
        ("normal", ctypes.c_double * 3),
        ("distance", ctypes.c_double),
        ("normal_force", ctypes.c_double),
        ("friction_force", ctypes.c_double * 3),
    ]


class Camera(ctypes.Structure):
    """ipcc_camera: a pinhole camera, fov the vertical field of view in degrees"""
    _fields_ = [
        ("eye", ctypes.c_double * 3),
        ("target", ctypes.c_double * 3),
        ("up", ctypes.c_double * 3),
        ("fov", ctypes.c_double),
    ]


class Image(ctypes.Structure):
    """ipcc_image: width x height RGB, rows top to bottom"""
    _fields_ = [
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("rgb", ctypes.POINTER(ctypes.c_ubyte)),
    ]


_HOW_TO_FIND = (
    "install the library (meson install), and for an install under a prefix outside the "
    "loader's path (e.g. $HOME/.local) set LD_LIBRARY_PATH to PREFIX/lib/x86_64-linux-gnu "
    "(or PREFIX/lib), or set IPCC_LIBRARY to the path of libipcc.so")


def _find():
    """IPCC_LIBRARY if set, else the installed soname, else what ld.so.cache knows"""
    path = os.environ.get("IPCC_LIBRARY")
    if path:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise OSError("ipcc: cannot load IPCC_LIBRARY=%s (%s); set IPCC_LIBRARY to the path "
                          "of libipcc.so, or unset it to load the installed %s (for a prefix "
                          "install, with LD_LIBRARY_PATH set to the prefix's library folder)"
                          % (path, e, SONAME)) from None
    try:
        return ctypes.CDLL(SONAME)
    except OSError:
        found = ctypes.util.find_library("ipcc")
        if not found:
            raise OSError("ipcc: cannot load %s; %s" % (SONAME, _HOW_TO_FIND)) from None
        return ctypes.CDLL(found)


def _declare(lib):
    U = ctypes.c_void_p  # ipcc_world *
    S = ctypes.c_void_p  # ipcc_state *
    E = ctypes.POINTER(Error)
    P = ctypes.POINTER
    protos = {
        "ipcc_set_threads": (ctypes.c_int, [ctypes.c_int]),
        # the world of either mode (world_unified.h)
        "ipcc_world_load": (U, [ctypes.c_char_p, ctypes.c_uint, ctypes.c_int,
                                P(ctypes.c_char_p), P(ctypes.c_char_p), ctypes.c_int, E]),
        "ipcc_world_destroy": (None, [U]),
        "ipcc_world_mode": (ctypes.c_int, [U]),
        "ipcc_world_step": (ctypes.c_int, [U, ctypes.c_void_p, E]),
        "ipcc_world_positions": (P(ctypes.c_double), [U]),
        "ipcc_world_velocities": (P(ctypes.c_double), [U]),
        "ipcc_world_vertex_count": (ctypes.c_int, [U]),
        "ipcc_world_time": (ctypes.c_double, [U]),
        "ipcc_world_step_count": (ctypes.c_int, [U]),
        "ipcc_world_scene_steps": (ctypes.c_int, [U]),
        "ipcc_world_contact_distance": (ctypes.c_double, [U]),
        "ipcc_world_intersection_free": (ctypes.c_int, [U, ctypes.c_char_p, ctypes.c_size_t]),
        "ipcc_world_body_count": (ctypes.c_int, [U]),
        "ipcc_world_body": (ctypes.c_int, [U, ctypes.c_int, P(BodyInfo)]),
        "ipcc_world_surface_triangles": (P(ctypes.c_int), [U, P(ctypes.c_int)]),
        "ipcc_world_write_obj": (ctypes.c_int, [U, ctypes.c_char_p, E]),
        "ipcc_world_write_frame": (ctypes.c_int, [U, ctypes.c_char_p, ctypes.c_int, ctypes.c_uint,
                                                  E]),
        "ipcc_output_formats_parse": (ctypes.c_int, [ctypes.c_char_p, P(ctypes.c_uint)]),
        "ipcc_world_tet_count": (ctypes.c_int, [U]),
        # pictures (render.h)
        "ipcc_world_default_camera": (Camera, [U]),
        "ipcc_world_follow_camera": (Camera, [U]),
        "ipcc_image_create": (ctypes.c_void_p, [ctypes.c_int, ctypes.c_int,
                                                P(ctypes.c_ubyte)]),
        "ipcc_image_destroy": (None, [ctypes.c_void_p]),
        "ipcc_render_world": (None, [ctypes.c_void_p, U, P(Camera)]),
        "ipcc_image_write_png": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, E]),
        "ipcc_world_tet_energy_density": (None, [U, P(ctypes.c_double)]),
        # driving a world from outside
        "ipcc_world_set_velocities": (ctypes.c_int, [U, P(ctypes.c_double), ctypes.c_int, E]),
        "ipcc_world_set_forces": (ctypes.c_int, [U, P(ctypes.c_double), ctypes.c_int, E]),
        "ipcc_world_set_positions": (ctypes.c_int, [U, P(ctypes.c_double), ctypes.c_int, E]),
        "ipcc_world_set_targets": (ctypes.c_int, [U, P(ctypes.c_int), ctypes.c_int,
                                                  P(ctypes.c_double), E]),
        "ipcc_world_masses": (P(ctypes.c_double), [U]),
        "ipcc_world_contacts": (ctypes.c_int, [U, P(Contact), ctypes.c_int]),
        "ipcc_state_create": (S, [U, E]),
        "ipcc_state_restore": (ctypes.c_int, [U, S, E]),
        "ipcc_state_free": (None, [S]),
    }
    for name, (restype, argtypes) in protos.items():
        try:
            f = getattr(lib, name)
        except AttributeError:
            raise OSError("ipcc: the library %s has no %s: it is older than this package; "
                          "%s" % (lib._name, name, _HOW_TO_FIND)) from None
        f.restype = restype
        f.argtypes = argtypes
    return lib


lib = _declare(_find())
