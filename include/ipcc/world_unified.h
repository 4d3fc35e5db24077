/* one world for both contact models (docs/one-world.md), and driving it from outside: set
   positions, velocities and external forces between steps, read the contact list, and copy
   the state to branch a run. Works for a world of either mode. Since stage 7 this is the one
   world interface of the library: the per-mode handles (ipc_world, ipc_lcp_world) are
   internal. A control loop: docs/using-ipcc-from-c.md,
   "Driving a world from outside". */
#ifndef IPCC_WORLD_UNIFIED_H
#define IPCC_WORLD_UNIFIED_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"
#include "ipcc/export.h"
#include "ipcc/lcp_world.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

typedef struct ipcc_world ipcc_world;

/* the contact model a world steps with */
typedef enum ipcc_mode {
  IPCC_MODE_IPC = 0, /* barrier (IPC): Newton on the incremental potential */
  IPCC_MODE_LCP = 1, /* velocity-level complementarity (docs/lcp-mode.md) */
} ipcc_mode;

/* builds a world of the given mode from a scene (every input checked, the start state too: inverted
   tets, intersecting or touching surfaces, named by key, script line or primitive); lcp: the LCP
   mode's options (NULL: ipcc_default_lcp_world_def(); ignored in IPC mode). NULL on error (err
   filled). Free with ipcc_world_destroy. */
IPCC_API ipcc_world *ipcc_world_new(const ipcc_scene_def *def, ipcc_mode mode,
                                    const ipcc_lcp_world_def *lcp, ipcc_error *err) IPCC_NONNULL(1);
/* the mode ipcc_world_load takes from the scene: its "mode" key (IPC when it has none, and
   for an IPC .txt script) */
#define IPCC_MODE_SCENE (-1)

/* a scene file (JSON or IPC .txt; flags as ipcc_scene_load_any) loaded and built into a world
   in one call, for callers that hold no ipcc_scene_def (language bindings). mode:
   IPCC_MODE_IPC, IPCC_MODE_LCP or IPCC_MODE_SCENE. The LCP mode's options are taken as
   `ipcc run` takes them: the defaults, then the scene's "lcp" object, then the nopts
   overrides keys[k] = values[k] (the names and spellings of ipcc_lcp_world_def_set; keys and
   values may be NULL with nopts 0). The scene's "mode" and "lcp" are checked in either mode;
   overrides for a world that is in IPC mode are refused. NULL on error (err filled;
   IPCC_ERR_INPUT naming the file, line, key or option). Free with ipcc_world_destroy. */
IPCC_API ipcc_world *ipcc_world_load(const char *path, unsigned flags, int mode,
                                     const char *const *keys, const char *const *values, int nopts,
                                     ipcc_error *err) IPCC_NONNULL(1);
/* frees a world made by ipcc_world_new or ipcc_world_load; w may be NULL */
IPCC_API void ipcc_world_destroy(ipcc_world *w);

IPCC_API ipcc_mode ipcc_world_mode(const ipcc_world *w) IPCC_NONNULL(1);
/* one step. record: NULL, or the mode's statistics (ipcc_step_stats in IPC mode,
   ipcc_lcp_step_stats in LCP mode), overwritten. IPCC_ERR_SIM when the step failed. */
IPCC_API ipcc_status ipcc_world_step(ipcc_world *w, void *record, ipcc_error *err) IPCC_NONNULL(1);

/* positions and velocities (ipcc_world_vertex_count x 3), owned by the world */
IPCC_API const double *ipcc_world_positions(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API const double *ipcc_world_velocities(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API int ipcc_world_vertex_count(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API double ipcc_world_time(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API int ipcc_world_step_count(const ipcc_world *w) IPCC_NONNULL(1);
/* the distance contacts act below: IPC's dhat, LCP's contact gap (m) */
IPCC_API double ipcc_world_contact_distance(const ipcc_world *w) IPCC_NONNULL(1);
/* the vertices' lumped masses (ipcc_world_vertex_count, kg; 0 on obstacles), owned by the
   world: a force m_i a on every vertex of a body accelerates it by a */
IPCC_API const double *ipcc_world_masses(const ipcc_world *w) IPCC_NONNULL(1);
/* the body (ipcc_world_body order) vertex i belongs to, or -1 when i is out of range */
IPCC_API int ipcc_world_vertex_body(const ipcc_world *w, int i) IPCC_NONNULL(1);

/* for a world of either mode: the steps the scene asks for (duration / time_step, rounded), the
   bodies and obstacles in scene order, the analytic planes, the surface triangles (fixed for the
   world's lifetime; ntris may be NULL) */
IPCC_API int ipcc_world_scene_steps(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API int ipcc_world_body_count(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API int ipcc_world_body(const ipcc_world *w, int i, ipcc_body_info *info) IPCC_NONNULL(1, 3);
IPCC_API int ipcc_world_plane_count(const ipcc_world *w) IPCC_NONNULL(1);
IPCC_API int ipcc_world_plane(const ipcc_world *w, int k, double point[3], double normal[3])
    IPCC_NONNULL(1, 3, 4);
IPCC_API const int *ipcc_world_surface_triangles(const ipcc_world *w, int *ntris) IPCC_NONNULL(1);
/* the exact check of the current state (pairs of kinematic obstacles with each other are not
   checked): 1 when no two surface primitives intersect, else 0 and the first pair in what (may be
   NULL). In LCP mode, where small overlaps at contacts are part of the model, the planes and the
   affine maps are not checked. */
IPCC_API int ipcc_world_intersection_free(const ipcc_world *w, char *what, size_t n)
    IPCC_NONNULL(1);
/* number of tets of all deformable bodies */
IPCC_API int ipcc_world_tet_count(const ipcc_world *w) IPCC_NONNULL(1);
/* elastic energy density Psi(F) in J/m^3 of every tet at the current positions into psi
   (ipcc_world_tet_count entries, in the tet order of ipcc_body_info's tet_begin; +INFINITY for
   an inverted tet) */
IPCC_API void ipcc_world_tet_energy_density(const ipcc_world *w, double *psi) IPCC_NONNULL(1, 2);

/* ---- frames. Every file is written atomically (a temporary file, then rename). ---- */

/* the surfaces of all bodies and obstacles at the current state as one OBJ file, one named
   object each */
IPCC_API ipcc_status ipcc_world_write_obj(const ipcc_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* binary little-endian PLY of the same surfaces: vertex x, y, z (double) and object_id (int,
   the body index; names in header comments), faces (uchar count, int indices) and, when
   there are segments, an edge element (vertex1, vertex2) */
IPCC_API ipcc_status ipcc_world_write_ply(const ipcc_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* ParaView XML UnstructuredGrid of every vertex (binary zlib-compressed appended arrays;
   IPC_VTU_ENCODING=raw or ascii chooses another encoding): tets of deformable bodies,
   triangles / lines / vertex cells of obstacles; point data velocity (m/s) and object_id,
   cell data energy_density (Psi in J/m^3, 0 on surface cells, -1 on an inverted tet) and
   object_id; the time in FieldData TimeValue */
IPCC_API ipcc_status ipcc_world_write_vtu(const ipcc_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* the point cache of a run for renderers (docs/rendering.md): frame 0 writes dir/rest.obj
   (the surfaces as the OBJ frame, the same objects and vertex order, with vertex normals) and
   starts dir/motion.pc2 (PC2: one sample of those vertices' positions, float32); frame k > 0
   appends sample k to it, in place: samples k and later are replaced, so dir/motion.pc2 must
   hold at least k samples of the same vertex count (IPCC_ERR_INPUT otherwise). the file is a
   valid cache after every call (the sample is synced before the header counts it) */
IPCC_API ipcc_status ipcc_world_write_pc2(const ipcc_world *w, const char *dir, int frame,
                                          ipcc_error *err) IPCC_NONNULL(1, 2);
/* the current state as frame number `frame` in every format of `formats` (IPCC_FORMAT_* bits,
   ipcc_output_formats_parse; no frame format bit = OBJ) to dir/NNNNNN.obj, .ply, .vtu (six
   digits); with VTU also dir/frames.pvd (ipcc_frames_pvd_add), with PC2 sample `frame` of
   dir/motion.pc2 (ipcc_world_write_pc2); with IPCC_FORMAT_PLANES dir/planes.obj: the analytic
   planes as squares (two triangles, normal as "vn") around the bounding box of every vertex of
   this and, read back from the planes.obj there, the earlier frames, with a margin of half its
   diagonal: rewritten with every frame, it covers all frames so far */
IPCC_API ipcc_status ipcc_world_write_frame(const ipcc_world *w, const char *dir, int frame,
                                            unsigned formats, ipcc_error *err) IPCC_NONNULL(1, 2);

/* ---- cameras and previews ---- */

/* the scene's camera (output.camera) if it has one, else a 3/4 view of the initial bounding
   box of all bodies, up against gravity (+y without gravity); the same for every frame */
IPCC_API ipcc_camera ipcc_world_default_camera(const ipcc_world *w) IPCC_NONNULL(1);
/* a camera that follows the moving bodies: the scene's camera if it has one, else the 3/4
   view framing the bodies both where they started and where they are now (it depends on the
   current state alone). What `ipcc run` draws its previews with */
IPCC_API ipcc_camera ipcc_world_follow_camera(const ipcc_world *w) IPCC_NONNULL(1);
/* draws the surfaces of all bodies (a color each; obstacles grey) with Gouraud Lambert
   shading and a z-buffer over a sky gradient, with a checkered tile floor for each
   half-space plane of the scene; 2x2 supersampled; deterministic */
IPCC_API void ipcc_render_world(ipcc_image *im, const ipcc_world *w, const ipcc_camera *cam)
    IPCC_NONNULL(1, 2, 3);

/* ---- checkpoints: the changing state (positions, velocities, time, step, scripted-region
   centres, and the mode's own: IPC's barrier stiffness, LCP's contacts, warm-start impulses
   and what decides the reuse of its factor) as a versioned binary record on f, the format
   both modes share (src/core/state.h; the bytes of ipcc_state_data). A world created from
   the same scene and mode and loaded with it continues bit for bit as the saved one would. */
IPCC_API ipcc_status ipcc_world_save_state(const ipcc_world *w, FILE *f, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* reads what ipcc_world_save_state wrote into w; IPCC_ERR_INPUT when the record is malformed,
   of another version, scene or mode */
IPCC_API ipcc_status ipcc_world_load_state(ipcc_world *w, FILE *f, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* ---- driving from outside. Every setter checks its input first (nverts must be
   ipcc_world_vertex_count, every number finite); on IPCC_ERR_INPUT the world is unchanged.
   Vertices of an affine body follow its affine map: their values are fitted (least squares,
   mass-weighted) by the body's 12 coordinates, then mapped back. Scripted and fixed vertices
   follow their scripts at the next step whatever is set here. ---- */

/* sets every vertex position (nverts x 3). Refused (IPCC_ERR_INPUT, naming the first pair)
   when the new state intersects, as world creation refuses it, or, in IPC mode, when two
   surfaces touch (distance 0) or a vertex is on or behind a plane. Velocities unchanged. */
IPCC_API ipcc_status ipcc_world_set_positions(ipcc_world *w, const double *x, int nverts,
                                              ipcc_error *err) IPCC_NONNULL(1, 2);
/* sets every vertex velocity (nverts x 3, m/s) */
IPCC_API ipcc_status ipcc_world_set_velocities(ipcc_world *w, const double *v, int nverts,
                                               ipcc_error *err) IPCC_NONNULL(1, 2);
/* per-vertex external forces (nverts x 3, N) applied in every following step until set again;
   f NULL (nverts ignored) removes them. IPC mode: the term -f.x in the incremental potential
   (scaled as gravity, c h^2 with c = 1, or Newmark's beta); LCP mode: the impulse h f in the
   free velocity. Forces on obstacles and massless vertices have no effect; an affine body
   gets their generalized force sum J_i^T f_i. */
IPCC_API ipcc_status ipcc_world_set_forces(ipcc_world *w, const double *f, int nverts,
                                           ipcc_error *err) IPCC_NONNULL(1);

/* the end-of-step positions of some vertices for the next step only (kinematic control: an
   obstacle's vertices, a scripted region's, or any vertex of a deformable body): verts[k]
   ends the next step at targets[3k .. 3k+2], moved there as the scene's scripts move theirs
   (IPC: placed if no contact is crossed, else pulled there; LCP: given the velocity
   (target - x) / h), overriding a script of the same vertex; after that step an obstacle
   stays where it is and the other vertices are free again. Replaces targets set before and
   not yet used; count 0 clears them. Refused (IPCC_ERR_INPUT, nothing set): an id out of
   range, a vertex of an affine body (it moves as a whole), a target not finite. */
IPCC_API ipcc_status ipcc_world_set_targets(ipcc_world *w, const int *verts, int count,
                                            const double *targets, ipcc_error *err) IPCC_NONNULL(1);

/* ---- the contact list at the current state (after creation, a step, or a setter) ---- */

typedef enum ipcc_contact_kind {
  IPCC_CONTACT_VERTEX_FACE = 0, /* vertex[0] against triangle vertex[1..3] */
  IPCC_CONTACT_EDGE_EDGE = 1,   /* edge vertex[0]-vertex[1] against edge vertex[2]-vertex[3] */
  IPCC_CONTACT_VERTEX_EDGE = 2, /* vertex[0] against edge vertex[1]-vertex[2] */
  IPCC_CONTACT_VERTEX_VERTEX = 3,
  IPCC_CONTACT_VERTEX_PLANE = 4, /* vertex[0] against plane `plane` */
  IPCC_CONTACT_POINTS = 5,       /* LCP: weighted points (weight > 0: side 0, < 0: side 1) */
} ipcc_contact_kind;

typedef struct ipcc_contact {
  int kind;            /* ipcc_contact_kind */
  int body[2];         /* the two bodies (ipcc_world_body order); body[1] = -1 against a plane */
  int plane;           /* the plane (ipcc_world_plane) or -1 */
  int vertex[4];       /* the primitives' vertices (by kind; -1 where unused) */
  double weight[4];    /* LCP: the vertices' weights (+ side 0, - side 1); IPC: 0 */
  double point[2][3];  /* closest points on side 0 (vertex[0]'s) and side 1 */
  double normal[3];    /* unit normal from side 1 towards side 0 */
  double distance;     /* IPC: distance (0 < d < dhat); LCP: signed gap (< 0: penetration) */
  double normal_force; /* on side 0 along normal, N (IPC: -grad of the barrier / (c h^2) at
                          the state; LCP: the last step's normal impulse / h) */
  double friction_force[3]; /* on side 0, N (IPC: the lagged friction at the state; LCP: the
                               last step's tangential impulses / h; 0 without friction) */
} ipcc_contact;

/* the contacts at the current state into out (at most cap of them; out may be NULL with cap
   0); returns how many there are (IPC: the pairs closer than dhat; LCP: the contacts the next
   step solves, with the impulses the last step gave the same pairs, 0 for new ones) */
IPCC_API int ipcc_world_contacts(const ipcc_world *w, ipcc_contact *out, int cap) IPCC_NONNULL(1);

/* ---- state snapshots: the way to branch a run. A snapshot holds everything a step starts
   from (time, step, x, v, affine q and qdot, scripted regions' centres, and the mode's own:
   IPC's kappa, LCP's contacts and warm-start impulses), as the checkpoints' state record,
   in memory. Restoring it into the world it was taken from (or one created from the same
   scene and mode) continues bit for bit as the world did after the snapshot. External forces
   are inputs, not state: they stay as set. ---- */

typedef struct ipcc_state ipcc_state;

/* a snapshot of w's state; NULL on error (err filled) */
IPCC_API ipcc_state *ipcc_state_create(const ipcc_world *w, ipcc_error *err) IPCC_NONNULL(1);
/* copies a snapshot; NULL on error */
IPCC_API ipcc_state *ipcc_state_copy(const ipcc_state *s, ipcc_error *err) IPCC_NONNULL(1);
/* puts snapshot s into w; IPCC_ERR_INPUT (w unchanged) when s was taken from a world of
   another scene or mode */
IPCC_API ipcc_status ipcc_state_restore(ipcc_world *w, const ipcc_state *s, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* the snapshot's bytes (the state record of ipcc_world_save_state), e.g. to store it */
IPCC_API const void *ipcc_state_data(const ipcc_state *s, size_t *bytes) IPCC_NONNULL(1, 2);
/* s may be NULL */
IPCC_API void ipcc_state_free(ipcc_state *s);

#endif
