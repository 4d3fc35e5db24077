/* the IPC mode's handle (internal since stage 7, docs/one-world.md): ipc_world_*, the
   functions of an ipc_world, the IPC strategy's workspace. The public API is the unified world
   of ipcc/world_unified.h; the command line, tests and benchmarks, which link the static
   library, keep using these. Written once for both handles in src/ipc/world_api.c. */
#ifndef IPCC_IPC_WORLD_H
#define IPCC_IPC_WORLD_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"
#include "ipcc/output.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"
#include "ipcc/world_unified.h"

typedef struct ipc_world ipc_world;

/* builds the world from a scene: checks def (ipcc_scene_def_check: every number in the JSON
   reader's range, named by its key or script line; def NULL is an error too), reads meshes,
   checks the start state (rejects inverted tets and intersecting or touching surfaces,
   naming the primitives). NULL on error (err filled; IPCC_ERR_INPUT).
   The world copies what it needs: def (and every array it points to) may be freed as soon
   as this returns. */
ipc_world *ipc_world_create(const ipcc_scene_def *def, ipcc_error *err);
/* a scene file (JSON or IPC .txt; flags as ipcc_scene_load_any) loaded and built into a
   world in one call, for callers that need no ipcc_scene_def (language bindings). NULL on
   error (err filled; IPCC_ERR_INPUT naming the file, line or key). */
ipc_world *ipc_world_load(const char *path, unsigned flags, ipcc_error *err) IPCC_NONNULL(1);
/* frees the world and everything it owns (positions, body names, ...); w may be NULL */
void ipc_world_destroy(ipc_world *w);

/* one time step; IPCC_ERR_SIM if the step failed (NaN, line search stalled). st is required
   and overwritten; err may be NULL. A run should stop at the first failed step. */
ipcc_status ipc_world_step(ipc_world *w, ipcc_step_stats *st, ipcc_error *err) IPCC_NONNULL(1, 2);

/* current positions (ipc_world_vertex_count x 3, row-major x y z per vertex), owned by the
   world: the pointer stays the same for the world's lifetime, its contents change at each
   ipc_world_step and ipc_world_load_state */
const double *ipc_world_positions(const ipc_world *w) IPCC_NONNULL(1);
/* vertices of all bodies and obstacles (bodies in scene order, each a contiguous range) */
int ipc_world_vertex_count(const ipc_world *w) IPCC_NONNULL(1);
/* simulated time in seconds (0 at creation; + time_step per step) */
double ipc_world_time(const ipc_world *w) IPCC_NONNULL(1);
/* absolute barrier activation distance dhat in use */
double ipc_world_dhat(const ipc_world *w) IPCC_NONNULL(1);
/* exact check of the current state: 1 if no two surface primitives intersect (pairs of
   kinematic obstacles with each other are not checked); otherwise 0 and, when what is
   not NULL, a description of the first pair */
int ipc_world_intersection_free(const ipc_world *w, char *what, size_t n) IPCC_NONNULL(1);
/* number of steps the scene asks for (duration / time_step, rounded) */
int ipc_world_scene_steps(const ipc_world *w) IPCC_NONNULL(1);

/* current velocities (nverts x 3, m/s), owned by the world (as ipc_world_positions) */
const double *ipc_world_velocities(const ipc_world *w) IPCC_NONNULL(1);
/* number of tets of all deformable bodies */
int ipc_world_tet_count(const ipc_world *w) IPCC_NONNULL(1);
/* elastic energy density Psi(F) in J/m^3 of every tet at the current positions into psi
   (ipc_world_tet_count entries; +INFINITY for an inverted tet) */
void ipc_world_tet_energy_density(const ipc_world *w, double *psi) IPCC_NONNULL(1, 2);
/* steps taken so far */
int ipc_world_step_count(const ipc_world *w) IPCC_NONNULL(1);

/* number of bodies and obstacles, in scene order (bodies and obstacles share one list) */
int ipc_world_body_count(const ipc_world *w) IPCC_NONNULL(1);
/* fills *info for body i (0 <= i < ipc_world_body_count); returns 0, or -1 (info
   untouched) when i is out of range */
int ipc_world_body(const ipc_world *w, int i, ipcc_body_info *info) IPCC_NONNULL(1, 3);
/* number of analytic ground planes (the scene's "planes"); plane k's point and unit normal
   (the side it points to is outside); returns 0, or -1 (nothing written) when k is out of
   range */
int ipc_world_plane_count(const ipc_world *w) IPCC_NONNULL(1);
int ipc_world_plane(const ipc_world *w, int k, double point[3], double normal[3])
    IPCC_NONNULL(1, 3, 4);
/* the collision surface's triangles (*ntris x 3 vertex indices into ipc_world_positions,
   outward, counter-clockwise seen from outside), body after body; owned by the world and
   fixed for its lifetime. ntris may be NULL. */
const int *ipc_world_surface_triangles(const ipc_world *w, int *ntris) IPCC_NONNULL(1);

/* the changing state (positions, velocities, time, step, barrier stiffness, scripted-region
   centers; list in src/ipc/world_state.c) as a versioned binary record on f, the format both
   modes share (src/core/state.h). a world created
   from the same scene and loaded with it continues bit for bit as the saved one would. */
ipcc_status ipc_world_save_state(const ipc_world *w, FILE *f, ipcc_error *err) IPCC_NONNULL(1, 2);
/* reads what ipc_world_save_state wrote into w (created from the same scene);
   IPCC_ERR_INPUT when the record is malformed, of another version, or of another scene */
ipcc_status ipc_world_load_state(ipc_world *w, FILE *f, ipcc_error *err) IPCC_NONNULL(1, 2);

/* writes the surfaces of all bodies and obstacles at the current state as one OBJ
   file, one named object each, atomically (temporary file, then rename) */
ipcc_status ipc_world_write_obj(const ipc_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* binary little-endian PLY of the same surfaces: vertex x, y, z (double) and object_id (int,
   the body index; names in header comments), faces (uchar count, int indices) and, when
   there are segments, an edge element (vertex1, vertex2); written atomically */
ipcc_status ipc_world_write_ply(const ipc_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* ParaView XML UnstructuredGrid of every vertex (binary zlib-compressed appended arrays;
   IPC_VTU_ENCODING=raw or ascii chooses another encoding): tets of deformable bodies,
   triangles / lines / vertex cells of obstacles; point data velocity (m/s) and object_id,
   cell data energy_density (Psi in J/m^3, 0 on surface cells) and object_id; the time in
   FieldData TimeValue. written atomically */
ipcc_status ipc_world_write_vtu(const ipc_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* the point cache of a run for renderers (docs/rendering.md): frame 0 writes dir/rest.obj
   (the surfaces as the OBJ frame, the same objects and vertex order, with vertex normals) and
   starts dir/motion.pc2 (PC2: one sample of those vertices' positions, float32); frame k > 0
   appends sample k to it, in place: samples k and later are replaced, so dir/motion.pc2 must
   hold at least k samples of the same vertex count (IPCC_ERR_INPUT otherwise). the file is a
   valid cache after every call (the sample is synced before the header counts it) */
ipcc_status ipc_world_write_pc2(const ipc_world *w, const char *dir, int frame, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* writes the current state as frame number `frame` in every format of `formats`
   (no frame format bit = OBJ) to dir/NNNNNN.obj, .ply, .vtu (six digits); with VTU also
   dir/frames.pvd (ipcc_frames_pvd_add), with PC2 sample `frame` of dir/motion.pc2
   (ipc_world_write_pc2); with IPCC_FORMAT_PLANES dir/planes.obj: the analytic planes as
   squares (two triangles, normal as "vn") around the bounding box of every vertex of this
   and, read back from the planes.obj there, the earlier frames, with a margin of half its
   diagonal: rewritten with every frame, it covers all frames so far */
ipcc_status ipc_world_write_frame(const ipc_world *w, const char *dir, int frame, unsigned formats,
                                  ipcc_error *err) IPCC_NONNULL(1, 2);

/* the scene's camera (output.camera) if it has one, else a 3/4 view of the initial
   bounding box of all bodies, up against gravity (+y without gravity). the same for every
   frame of a run. */
ipcc_camera ipc_world_default_camera(const ipc_world *w) IPCC_NONNULL(1);

/* a camera that follows the moving bodies: the scene's camera if it has one, else the 3/4
   view framing the bodies both where they started and where they are now (so a body that
   travels stays in the picture, and the view moves continuously with it; it depends on the
   current state alone). What `ipcc run` draws its previews with */
ipcc_camera ipc_world_follow_camera(const ipc_world *w) IPCC_NONNULL(1);

/* draws the surfaces of all bodies (a color each; obstacles grey) with Gouraud Lambert
   shading and a z-buffer over a sky gradient, with a checkered tile floor for each
   half-space plane of the scene; 2x2 supersampled. deterministic. */
void ipc_render_world(ipcc_image *im, const ipc_world *w, const ipcc_camera *cam)
    IPCC_NONNULL(1, 2, 3);

/* the unified world of a handle (owned by it: do not destroy it separately) */
ipcc_world *ipc_world_unified(ipc_world *w) IPCC_NONNULL(1);
#endif
