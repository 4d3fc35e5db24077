/* a simulation stepped in LCP mode: the same model as ipc_world (bodies, materials,
   boundary conditions, planes), velocity-level complementarity contact instead of the
   barrier. Details and the choice of options: docs/lcp-mode.md. */
#ifndef IPCC_LCP_WORLD_H
#define IPCC_LCP_WORLD_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"
#include "ipcc/export.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

typedef struct ipc_lcp_world ipc_lcp_world;

/* friction formulations */
typedef enum ipc_lcp_friction {
  IPC_LCP_FRICTION_NONE = 0,
  IPC_LCP_FRICTION_BOX = 1,     /* boxed LCP: |t_i| <= mu n on two orthogonal tangents */
  IPC_LCP_FRICTION_PYRAMID = 2, /* polyhedral cone with k directions (LCP with slack) */
  IPC_LCP_FRICTION_CONE = 3,    /* exact Coulomb disk by projection */
} ipc_lcp_friction;

/* which inverse the contact impulses act through */
typedef enum ipc_lcp_coupling {
  IPC_LCP_LUMPED = 0,  /* W = J M^-1 J^T, M the lumped mass (sparse, regions per vertex) */
  IPC_LCP_COUPLED = 1, /* W = J A^-1 J^T, A = M + h^2 K (CHOLMOD; regions per body) */
} ipc_lcp_coupling;

/* statistics of one LCP time step (times in seconds) */
typedef struct ipc_lcp_step_stats {
  int step;            /* 1-based index of the step just taken */
  double time;         /* simulated time at the end of the step */
  int contacts;        /* contacts solved in the step */
  int regions;         /* independent contact regions solved */
  int region_max;      /* contacts in the largest region */
  int region_hist[6];  /* regions of 1, 2-4, 5-16, 17-64, 65-256, > 256 contacts */
  long lcp_iterations; /* summed over regions */
  int unconverged;     /* regions whose solver stopped above tolerance */
  double residual;     /* largest natural-map residual ||min(z, Wz+q)||_2 over regions */
  double rel_residual; /* largest residual / ||q||_2 over regions */
  double min_distance; /* smallest signed gap within the contact gap at the end of the step
                          (negative: penetration depth); INFINITY when none */
  int contacts_after;  /* contacts within the gap at the end of the step */
  double energy;       /* kinetic + elastic + gravity potential at the end of the step */
  double t_velocity;   /* unconstrained velocity: assembly, factor, solve */
  double t_contacts;   /* broad phase and contact generation */
  double t_solve;      /* LCP assembly and solves */
  double t_total;
  int velocity_iterations; /* preconditioned CG iterations of the unconstrained velocity with
                              an earlier factor (0: factored this step) */
  int refactored;          /* A = M + h^2 K was factored this step */
  int prescribed_overlap;  /* contacts at the end of the step with a negative gap whose vertices
                              all move by prescription (scripted, pinned, obstacles): surfaces
                              that prescribed motions carried into or through each other, which
                              no contact impulse can separate */
} ipc_lcp_step_stats;

/* which contact points the LCP mode solves */
typedef enum ipc_lcp_manifold {
  IPC_LCP_MANIFOLD_REDUCED = 0, /* at most four per touching pair (deformable: per patch) */
  IPC_LCP_MANIFOLD_FULL = 1,    /* every point contact within the gap */
} ipc_lcp_manifold;

/* options of the LCP mode. solver takes the values of the LCP solvers:
   0 pgs, 1 pcg-pgs, 2 amgs, 3 lemke (see ipc_lcp_world_def_set for names) */
typedef struct ipc_lcp_world_def {
  int solver;
  ipc_lcp_friction friction;
  int pyramid_directions; /* k >= 3 for the pyramid (4) */
  ipc_lcp_coupling coupling;
  double contact_gap;   /* contacts are generated below this distance (m); 0 = 0.1 x the
                           mean surface edge length, at most 1e-2 x the bbox diagonal */
  double baumgarte;     /* in [0, 1]: fraction of a penetration corrected per step (0.2) */
  double restitution;   /* in [0, 1] (0) */
  double tol;           /* relative residual tolerance of the iterative solvers (1e-8) */
  int max_iter;         /* sweeps (1000) */
  double omega;         /* PGS over-relaxation in (0, 2) (1) */
  int warm_start;       /* start from the previous step's impulses of the same contacts (1) */
  int split_regions;    /* solve each independent region separately (1) */
  const char *dump_dir; /* when set, each region's LCP is written there as Matrix Market */
  /* contact manifolds: at most four points per touching pair (reduced) or every point */
  ipc_lcp_manifold manifold;
} ipc_lcp_world_def;

/* defaults as listed above: PGS, no friction, coupled (stable on stiff, light bodies; lumped
   is the model of Lazarevych et al. and Erleben's notes: docs/lcp-mode.md) */
IPCC_API ipc_lcp_world_def ipc_default_lcp_world_def(void);

/* sets one option by name, as scenes and the command line spell them: "solver" (pgs,
   pcg-pgs, amgs, lemke), "friction" (none, box, pyramid, cone), "directions", "coupling"
   (lumped, coupled), "gap", "baumgarte", "restitution", "tolerance", "max_iterations",
   "omega", "warm_start" (true/false), "regions" (true/false), "manifold" (reduced, full).
   IPC_ERR_INPUT names the key and what was expected. */
IPCC_API ipc_status ipc_lcp_world_def_set(ipc_lcp_world_def *d, const char *key, const char *value,
                                          ipc_error *err) IPC_NONNULL(1, 2, 3);

/* reads a scene file's "mode" ("ipc" or "lcp", *lcp_mode 1 for lcp) and its "lcp" object of
   options (keys as ipc_lcp_world_def_set) into d; d keeps its values for missing keys.
   lcp_mode may be NULL. */
IPCC_API ipc_status ipc_lcp_scene_load(const char *path, ipc_lcp_world_def *d, int *lcp_mode,
                                       ipc_error *err) IPC_NONNULL(1, 2);

/* builds the world; checks the scene as ipc_world_create does (ipc_scene_def_check) and that
   the friction formulation and solver fit together; def NULL: the defaults.
   NULL on error (err filled; IPC_ERR_INPUT). The scene's integrator is ignored: LCP mode
   is linearly implicit Euler.
   scene and def may be freed as soon as this returns (the world copies what it needs;
   def->dump_dir is copied too). */
IPCC_API ipc_lcp_world *ipc_lcp_world_create(const ipc_scene_def *scene,
                                             const ipc_lcp_world_def *def, ipc_error *err);
/* frees the world and everything it owns; w may be NULL */
IPCC_API void ipc_lcp_world_destroy(ipc_lcp_world *w);

/* one time step; IPC_ERR_SIM when it failed (NaN, singular system). st is required and
   overwritten; err may be NULL. */
IPCC_API ipc_status ipc_lcp_world_step(ipc_lcp_world *w, ipc_lcp_step_stats *st, ipc_error *err)
    IPC_NONNULL(1, 2);

/* current positions and velocities (nverts x 3), owned by the world: the pointers stay the
   same for the world's lifetime, their contents change at each step */
IPCC_API const double *ipc_lcp_world_positions(const ipc_lcp_world *w) IPC_NONNULL(1);
IPCC_API const double *ipc_lcp_world_velocities(const ipc_lcp_world *w) IPC_NONNULL(1);
/* vertices of all bodies and obstacles, as ipc_world_vertex_count */
IPCC_API int ipc_lcp_world_vertex_count(const ipc_lcp_world *w) IPC_NONNULL(1);
/* simulated time in seconds */
IPCC_API double ipc_lcp_world_time(const ipc_lcp_world *w) IPC_NONNULL(1);
/* bodies and obstacles, their vertex ranges, the planes and the surface triangles, exactly
   as the ipc_world functions of the same names (ipcc/world.h) */
IPCC_API int ipc_lcp_world_body_count(const ipc_lcp_world *w) IPC_NONNULL(1);
IPCC_API int ipc_lcp_world_body(const ipc_lcp_world *w, int i, ipc_body_info *info)
    IPC_NONNULL(1, 3);
IPCC_API int ipc_lcp_world_plane_count(const ipc_lcp_world *w) IPC_NONNULL(1);
IPCC_API int ipc_lcp_world_plane(const ipc_lcp_world *w, int k, double point[3], double normal[3])
    IPC_NONNULL(1, 3, 4);
IPCC_API const int *ipc_lcp_world_surface_triangles(const ipc_lcp_world *w, int *ntris)
    IPC_NONNULL(1);
/* absolute contact gap in use */
IPCC_API double ipc_lcp_world_gap(const ipc_lcp_world *w) IPC_NONNULL(1);

/* from the next step on, writes each region's LCP into dir (as --dump-lcp; the folder must
   exist), or stops writing (dir NULL). A failed write makes the step fail with
   IPC_ERR_INPUT naming the file. */
IPCC_API void ipc_lcp_world_set_dump_dir(ipc_lcp_world *w, const char *dir) IPC_NONNULL(1);

/* the largest E h^2 / (rho l^2) over the deformable bodies (E Young's modulus, rho density,
   l the body's mean surface edge length): how far the elastic wave travels in one step,
   in elements. Above about 1 the lumped coupling gains energy at contacts
   (docs/lcp-mode.md, "Why lumped fails on light, stiff bodies"); *body (may be NULL) gets
   that body's name (owned by the world). 0 without deformable bodies. */
IPCC_API double ipc_lcp_world_stiffness_ratio(const ipc_lcp_world *w, const char **body)
    IPC_NONNULL(1);
/* duration / time_step, rounded */
IPCC_API int ipc_lcp_world_scene_steps(const ipc_lcp_world *w) IPC_NONNULL(1);
/* exact check of the current state, as ipc_world_intersection_free */
IPCC_API int ipc_lcp_world_intersection_free(const ipc_lcp_world *w, char *what, size_t n)
    IPC_NONNULL(1);
/* the surfaces at the current state as one OBJ file (as ipc_world_write_obj) */
IPCC_API ipc_status ipc_lcp_world_write_obj(const ipc_lcp_world *w, const char *path,
                                            ipc_error *err) IPC_NONNULL(1, 2);
/* the same surfaces as binary PLY (as ipc_world_write_ply) */
IPCC_API ipc_status ipc_lcp_world_write_ply(const ipc_lcp_world *w, const char *path,
                                            ipc_error *err) IPC_NONNULL(1, 2);
/* every vertex and tet as a ParaView .vtu (as ipc_world_write_vtu; an inverted tet, which LCP
   mode can produce, has energy_density -1) */
IPCC_API ipc_status ipc_lcp_world_write_vtu(const ipc_lcp_world *w, const char *path,
                                            ipc_error *err) IPC_NONNULL(1, 2);
/* frame `frame` of the point cache dir/motion.pc2 (frame 0 also dir/rest.obj), as
   ipc_world_write_pc2 */
IPCC_API ipc_status ipc_lcp_world_write_pc2(const ipc_lcp_world *w, const char *dir, int frame,
                                            ipc_error *err) IPC_NONNULL(1, 2);
/* frame number `frame` in every format of `formats` (as ipc_world_write_frame) */
IPCC_API ipc_status ipc_lcp_world_write_frame(const ipc_lcp_world *w, const char *dir, int frame,
                                              unsigned formats, ipc_error *err) IPC_NONNULL(1, 2);
/* the elastic energy density Psi (J/m^3) of every tet at the current positions (ntets);
   not finite for an inverted tet */
IPCC_API void ipc_lcp_world_tet_energy_density(const ipc_lcp_world *w, double *psi)
    IPC_NONNULL(1, 2);
/* the scene's camera or the default view of its initial bounding box (as
   ipc_world_default_camera) */
IPCC_API ipc_camera ipc_lcp_world_default_camera(const ipc_lcp_world *w) IPC_NONNULL(1);
IPCC_API ipc_camera ipc_lcp_world_follow_camera(const ipc_lcp_world *w) IPC_NONNULL(1);
/* a preview of the current state (as ipc_render_world) */
IPCC_API void ipc_render_lcp_world(ipc_image *im, const ipc_lcp_world *w, const ipc_camera *cam)
    IPC_NONNULL(1, 2, 3);

/* the world's changing state (positions, velocities, time, step count, scripted centers,
   the contacts found at the end of the last step, the warm-start impulses and what decides
   the reuse of the factor of M + h^2 K) for checkpoints; a loaded world steps on exactly as
   the saved one would have (the factor is rebuilt from the positions it was made at); the
   record's format is the one both modes share (src/core/state.h), with the LCP fields */
IPCC_API ipc_status ipc_lcp_world_save_state(const ipc_lcp_world *w, FILE *f, ipc_error *err)
    IPC_NONNULL(1, 2);
/* reads what ipc_lcp_world_save_state wrote into w, created from the same scene and options;
   IPC_ERR_INPUT when it does not fit w (sizes, contact vertex ids, impulse rows) */
IPCC_API ipc_status ipc_lcp_world_load_state(ipc_lcp_world *w, FILE *f, ipc_error *err)
    IPC_NONNULL(1, 2);

/* names of a friction formulation and a coupling as ipc_lcp_world_def_set spells them */
IPCC_API const char *ipc_lcp_friction_name(ipc_lcp_friction f);
IPCC_API const char *ipc_lcp_coupling_name(ipc_lcp_coupling c);

#endif
