/* a simulation: model + state, stepped in IPC mode */
#ifndef IPCC_WORLD_H
#define IPCC_WORLD_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"
#include "ipcc/export.h"
#include "ipcc/scene.h"

typedef struct ipc_world ipc_world;

/* statistics of one time step (times in seconds) */
typedef struct ipc_step_stats {
  int step;    /* 1-based index of the step just taken */
  double time; /* simulated time at the end of the step */
  int newton_iterations;
  int newton_capped;     /* 1 when the iteration cap was hit before convergence */
  int line_search_steps; /* backtracking evaluations, summed over iterations */
  double ccd_alpha_min;  /* smallest CCD step bound (before scaling) seen in the step */
  int contacts;          /* active contacts at the end of the step */
  int contacts_max;      /* largest active set during the step */
  double min_distance;   /* smallest surface distance at the end of the step when below
                            dhat; INFINITY when no pair is within dhat */
  double energy;         /* kinetic + elastic + gravity potential at the end of the step */
  double kappa;          /* barrier stiffness at the end of the step */
  int dirichlet_unmet;   /* scripted vertices that could not reach their target */
  double residual;       /* final ||p||_inf / h */
  double t_assembly, t_factor, t_ccd, t_broad_phase, t_total;
  int analyses;            /* symbolic analyses (new sparsity pattern) during the step */
  double t_analyze;        /* their time, part of t_factor */
  int friction_contacts;   /* contacts with friction in the last lagged set */
  int friction_iterations; /* Newton solves with updated lagged friction (0 without friction) */
  double max_slip_speed;   /* largest tangential slip speed over the step, m/s */
  int dhat_halvings;       /* times dhat was halved towards dhat_target in the step */
  int factor_shifts;       /* factorizations retried with a diagonal shift (not positive
                              definite in floating point) */
  int newton_floor;        /* 1 when Newton stopped above its tolerance because the energy can no
                              longer resolve the step: the predicted decrease -g.p was within the
                              rounding error of the potential (the tolerance is below what double
                              precision can certify for this state) */
  long linear_iterations;  /* Krylov iterations of the step's Newton solves (an iterative
                              newton.linear_solver; 0 for CHOLMOD and other direct solvers) */
} ipc_step_stats;

/* number of threads for ipcc's own loops (default 1; n < 1: one per core; returns the
   number in use). Results do not depend on it: work is split in chunks fixed by the problem size.
 */
IPCC_API int ipc_set_threads(int n);

/* builds the world from a scene: checks def (ipc_scene_def_check: every number in the JSON
   reader's range, named by its key or script line; def NULL is an error too), reads meshes,
   checks the start state (rejects inverted tets and intersecting or touching surfaces,
   naming the primitives). NULL on error (err filled; IPC_ERR_INPUT).
   The world copies what it needs: def (and every array it points to) may be freed as soon
   as this returns. */
IPCC_API ipc_world *ipc_world_create(const ipc_scene_def *def, ipc_error *err);
/* a scene file (JSON or IPC .txt; flags as ipc_scene_load_any) loaded and built into a
   world in one call, for callers that need no ipc_scene_def (language bindings). NULL on
   error (err filled; IPC_ERR_INPUT naming the file, line or key). */
IPCC_API ipc_world *ipc_world_load(const char *path, unsigned flags, ipc_error *err) IPC_NONNULL(1);
/* frees the world and everything it owns (positions, body names, ...); w may be NULL */
IPCC_API void ipc_world_destroy(ipc_world *w);

/* one time step; IPC_ERR_SIM if the step failed (NaN, line search stalled). st is required
   and overwritten; err may be NULL. A run should stop at the first failed step. */
IPCC_API ipc_status ipc_world_step(ipc_world *w, ipc_step_stats *st, ipc_error *err)
    IPC_NONNULL(1, 2);

/* current positions (ipc_world_vertex_count x 3, row-major x y z per vertex), owned by the
   world: the pointer stays the same for the world's lifetime, its contents change at each
   ipc_world_step and ipc_world_load_state */
IPCC_API const double *ipc_world_positions(const ipc_world *w) IPC_NONNULL(1);
/* vertices of all bodies and obstacles (bodies in scene order, each a contiguous range) */
IPCC_API int ipc_world_vertex_count(const ipc_world *w) IPC_NONNULL(1);
/* simulated time in seconds (0 at creation; + time_step per step) */
IPCC_API double ipc_world_time(const ipc_world *w) IPC_NONNULL(1);
/* absolute barrier activation distance dhat in use */
IPCC_API double ipc_world_dhat(const ipc_world *w) IPC_NONNULL(1);
/* exact check of the current state: 1 if no two surface primitives intersect (pairs of
   kinematic obstacles with each other are not checked); otherwise 0 and, when what is
   not NULL, a description of the first pair */
IPCC_API int ipc_world_intersection_free(const ipc_world *w, char *what, size_t n) IPC_NONNULL(1);
/* number of steps the scene asks for (duration / time_step, rounded) */
IPCC_API int ipc_world_scene_steps(const ipc_world *w) IPC_NONNULL(1);

/* current velocities (nverts x 3, m/s), owned by the world (as ipc_world_positions) */
IPCC_API const double *ipc_world_velocities(const ipc_world *w) IPC_NONNULL(1);
/* number of tets of all deformable bodies */
IPCC_API int ipc_world_tet_count(const ipc_world *w) IPC_NONNULL(1);
/* elastic energy density Psi(F) in J/m^3 of every tet at the current positions into psi
   (ipc_world_tet_count entries; +INFINITY for an inverted tet) */
IPCC_API void ipc_world_tet_energy_density(const ipc_world *w, double *psi) IPC_NONNULL(1, 2);
/* steps taken so far */
IPCC_API int ipc_world_step_count(const ipc_world *w) IPC_NONNULL(1);

/* one body or obstacle of a world, as the scene listed it */
typedef struct ipc_body_info {
  const char *name;   /* the scene's name, or the mesh file's; owned by the world */
  int obstacle;       /* 1: kinematic obstacle (no mass, moves by script only) */
  int vertex_begin;   /* its vertices are [vertex_begin, vertex_begin + vertex_count) of */
  int vertex_count;   /*   ipc_world_positions (vertex indices, not x 3) */
  int tet_begin;      /* its tets in the world's tet order (ipc_world_tet_energy_density); */
  int tet_count;      /*   0 for obstacles */
  int triangle_begin; /* its triangles are [triangle_begin, triangle_begin + triangle_count) */
  int triangle_count; /*   of ipc_world_surface_triangles */
} ipc_body_info;

/* number of bodies and obstacles, in scene order (bodies and obstacles share one list) */
IPCC_API int ipc_world_body_count(const ipc_world *w) IPC_NONNULL(1);
/* fills *info for body i (0 <= i < ipc_world_body_count); returns 0, or -1 (info
   untouched) when i is out of range */
IPCC_API int ipc_world_body(const ipc_world *w, int i, ipc_body_info *info) IPC_NONNULL(1, 3);
/* number of analytic ground planes (the scene's "planes"); plane k's point and unit normal
   (the side it points to is outside); returns 0, or -1 (nothing written) when k is out of
   range */
IPCC_API int ipc_world_plane_count(const ipc_world *w) IPC_NONNULL(1);
IPCC_API int ipc_world_plane(const ipc_world *w, int k, double point[3], double normal[3])
    IPC_NONNULL(1, 3, 4);
/* the collision surface's triangles (*ntris x 3 vertex indices into ipc_world_positions,
   outward, counter-clockwise seen from outside), body after body; owned by the world and
   fixed for its lifetime. ntris may be NULL. */
IPCC_API const int *ipc_world_surface_triangles(const ipc_world *w, int *ntris) IPC_NONNULL(1);

/* the changing state (positions, velocities, time, step, barrier stiffness, scripted-region
   centers; list in src/ipc/world_state.c) as a versioned binary record on f, the format both
   modes share (src/core/state.h). a world created
   from the same scene and loaded with it continues bit for bit as the saved one would. */
IPCC_API ipc_status ipc_world_save_state(const ipc_world *w, FILE *f, ipc_error *err)
    IPC_NONNULL(1, 2);
/* reads what ipc_world_save_state wrote into w (created from the same scene);
   IPC_ERR_INPUT when the record is malformed, of another version, or of another scene */
IPCC_API ipc_status ipc_world_load_state(ipc_world *w, FILE *f, ipc_error *err) IPC_NONNULL(1, 2);

#endif
