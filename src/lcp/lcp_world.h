/* the LCP mode's handle (internal since stage 7, docs/one-world.md): ipc_lcp_world_*, the
   functions of an ipc_lcp_world, the LCP strategy's workspace. The public API is the unified
   world of ipcc/world_unified.h; the command line, tests and benchmarks, which link the static
   library, keep using these. */
#ifndef IPCC_LCP_LCP_WORLD_H
#define IPCC_LCP_LCP_WORLD_H

#include <stddef.h>
#include <stdio.h>

#include "ipc/world.h"
#include "ipcc/lcp_world.h"

typedef struct ipc_lcp_world ipc_lcp_world;

/* builds the world; checks the scene as ipc_world_create does (ipcc_scene_def_check) and that
   the friction formulation and solver fit together; def NULL: the defaults.
   NULL on error (err filled; IPCC_ERR_INPUT). The scene's integrator is ignored: LCP mode
   is linearly implicit Euler.
   scene and def may be freed as soon as this returns (the world copies what it needs;
   def->dump_dir is copied too). */
ipc_lcp_world *ipc_lcp_world_create(const ipcc_scene_def *scene, const ipcc_lcp_world_def *def,
                                    ipcc_error *err);
/* frees the world and everything it owns; w may be NULL */
void ipc_lcp_world_destroy(ipc_lcp_world *w);

/* one time step; IPCC_ERR_SIM when it failed (NaN, singular system). st is required and
   overwritten; err may be NULL. */
ipcc_status ipc_lcp_world_step(ipc_lcp_world *w, ipcc_lcp_step_stats *st, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* current positions and velocities (nverts x 3), owned by the world: the pointers stay the
   same for the world's lifetime, their contents change at each step */
const double *ipc_lcp_world_positions(const ipc_lcp_world *w) IPCC_NONNULL(1);
const double *ipc_lcp_world_velocities(const ipc_lcp_world *w) IPCC_NONNULL(1);
/* vertices of all bodies and obstacles, as ipc_world_vertex_count */
int ipc_lcp_world_vertex_count(const ipc_lcp_world *w) IPCC_NONNULL(1);
/* simulated time in seconds */
double ipc_lcp_world_time(const ipc_lcp_world *w) IPCC_NONNULL(1);
/* bodies and obstacles, their vertex ranges, the planes and the surface triangles, exactly
   as the ipc_world functions of the same names (ipcc/world.h) */
int ipc_lcp_world_body_count(const ipc_lcp_world *w) IPCC_NONNULL(1);
int ipc_lcp_world_body(const ipc_lcp_world *w, int i, ipcc_body_info *info) IPCC_NONNULL(1, 3);
int ipc_lcp_world_plane_count(const ipc_lcp_world *w) IPCC_NONNULL(1);
int ipc_lcp_world_plane(const ipc_lcp_world *w, int k, double point[3], double normal[3])
    IPCC_NONNULL(1, 3, 4);
const int *ipc_lcp_world_surface_triangles(const ipc_lcp_world *w, int *ntris) IPCC_NONNULL(1);
/* absolute contact gap in use */
double ipc_lcp_world_gap(const ipc_lcp_world *w) IPCC_NONNULL(1);

/* from the next step on, writes each region's LCP into dir (as --dump-lcp; the folder must
   exist), or stops writing (dir NULL). A failed write makes the step fail with
   IPCC_ERR_INPUT naming the file. */
void ipc_lcp_world_set_dump_dir(ipc_lcp_world *w, const char *dir) IPCC_NONNULL(1);

/* the largest E h^2 / (rho l^2) over the deformable bodies (E Young's modulus, rho density,
   l the body's mean surface edge length): how far the elastic wave travels in one step,
   in elements. Above about 1 the lumped coupling gains energy at contacts
   (docs/lcp-mode.md, "Why lumped fails on light, stiff bodies"); *body (may be NULL) gets
   that body's name (owned by the world). 0 without deformable bodies. */
double ipc_lcp_world_stiffness_ratio(const ipc_lcp_world *w, const char **body) IPCC_NONNULL(1);
/* duration / time_step, rounded */
int ipc_lcp_world_scene_steps(const ipc_lcp_world *w) IPCC_NONNULL(1);
/* exact check of the current state, as ipc_world_intersection_free */
int ipc_lcp_world_intersection_free(const ipc_lcp_world *w, char *what, size_t n) IPCC_NONNULL(1);
/* the surfaces at the current state as one OBJ file (as ipc_world_write_obj) */
ipcc_status ipc_lcp_world_write_obj(const ipc_lcp_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* the same surfaces as binary PLY (as ipc_world_write_ply) */
ipcc_status ipc_lcp_world_write_ply(const ipc_lcp_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* every vertex and tet as a ParaView .vtu (as ipc_world_write_vtu; an inverted tet, which LCP
   mode can produce, has energy_density -1) */
ipcc_status ipc_lcp_world_write_vtu(const ipc_lcp_world *w, const char *path, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* frame `frame` of the point cache dir/motion.pc2 (frame 0 also dir/rest.obj), as
   ipc_world_write_pc2 */
ipcc_status ipc_lcp_world_write_pc2(const ipc_lcp_world *w, const char *dir, int frame,
                                    ipcc_error *err) IPCC_NONNULL(1, 2);
/* frame number `frame` in every format of `formats` (as ipc_world_write_frame) */
ipcc_status ipc_lcp_world_write_frame(const ipc_lcp_world *w, const char *dir, int frame,
                                      unsigned formats, ipcc_error *err) IPCC_NONNULL(1, 2);
/* the elastic energy density Psi (J/m^3) of every tet at the current positions (ntets);
   not finite for an inverted tet */
void ipc_lcp_world_tet_energy_density(const ipc_lcp_world *w, double *psi) IPCC_NONNULL(1, 2);
/* the scene's camera or the default view of its initial bounding box (as
   ipc_world_default_camera) */
ipcc_camera ipc_lcp_world_default_camera(const ipc_lcp_world *w) IPCC_NONNULL(1);
ipcc_camera ipc_lcp_world_follow_camera(const ipc_lcp_world *w) IPCC_NONNULL(1);
/* a preview of the current state (as ipc_render_world) */
void ipc_render_lcp_world(ipcc_image *im, const ipc_lcp_world *w, const ipcc_camera *cam)
    IPCC_NONNULL(1, 2, 3);

/* the world's changing state (positions, velocities, time, step count, scripted centers,
   the contacts found at the end of the last step, the warm-start impulses and what decides
   the reuse of the factor of M + h^2 K) for checkpoints; a loaded world steps on exactly as
   the saved one would have (the factor is rebuilt from the positions it was made at); the
   record's format is the one both modes share (src/core/state.h), with the LCP fields */
ipcc_status ipc_lcp_world_save_state(const ipc_lcp_world *w, FILE *f, ipcc_error *err)
    IPCC_NONNULL(1, 2);
/* reads what ipc_lcp_world_save_state wrote into w, created from the same scene and options;
   IPCC_ERR_INPUT when it does not fit w (sizes, contact vertex ids, impulse rows) */
ipcc_status ipc_lcp_world_load_state(ipc_lcp_world *w, FILE *f, ipcc_error *err) IPCC_NONNULL(1, 2);

ipcc_world *ipc_lcp_world_unified(ipc_lcp_world *w) IPCC_NONNULL(1);

#endif
