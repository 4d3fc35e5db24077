/* a simulation: model + state, stepped in IPC mode */
#ifndef IPCC_WORLD_H
#define IPCC_WORLD_H

#include <stddef.h>
#include <stdio.h>

#include "ipcc/error.h"
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
  int analyses;     /* symbolic analyses (new sparsity pattern) during the step */
  double t_analyze; /* their time, part of t_factor */
  int friction_contacts;   /* contacts with friction in the last lagged set */
  int friction_iterations; /* Newton solves with updated lagged friction (0 without friction) */
  double max_slip_speed;   /* largest tangential slip speed over the step, m/s */
  int factor_shifts;       /* factorizations retried with a diagonal shift (not positive
                              definite in floating point) */
  int newton_floor; /* 1 when Newton stopped above its tolerance because the energy can no
                       longer resolve the step: the predicted decrease -g.p was within the
                       rounding error of the potential (the tolerance is below what double
                       precision can certify for this state) */
} ipc_step_stats;

/* number of threads for ipcc's own loops (default 1; n < 1: one per core; returns the
   number in use). Results do not depend on it: work is split in chunks fixed by the problem size. */
int ipc_set_threads(int n);

/* builds the world from a scene: reads meshes, checks the start state (rejects
   inverted tets and intersecting or touching surfaces, naming the primitives).
   NULL on error (err filled; IPC_ERR_INPUT). */
ipc_world *ipc_world_create(const ipc_scene_def *def, ipc_error *err);
void ipc_world_destroy(ipc_world *w);

/* one time step; IPC_ERR_SIM if the step failed (NaN, line search stalled) */
ipc_status ipc_world_step(ipc_world *w, ipc_step_stats *st, ipc_error *err);

/* current positions (nverts x 3), owned by the world */
const double *ipc_world_positions(const ipc_world *w);
int ipc_world_vertex_count(const ipc_world *w);
double ipc_world_time(const ipc_world *w);
/* absolute barrier activation distance dhat in use */
double ipc_world_dhat(const ipc_world *w);
/* exact check of the current state: 1 if no two surface primitives intersect (pairs of
   kinematic obstacles with each other are not checked); otherwise 0 and, when what is
   not NULL, a description of the first pair */
int ipc_world_intersection_free(const ipc_world *w, char *what, size_t n);
/* number of steps the scene asks for (duration / time_step, rounded) */
int ipc_world_scene_steps(const ipc_world *w);

/* current velocities (nverts x 3, m/s), owned by the world */
const double *ipc_world_velocities(const ipc_world *w);
/* number of tets of all deformable bodies */
int ipc_world_tet_count(const ipc_world *w);
/* elastic energy density Psi(F) in J/m^3 of every tet at the current positions into psi
   (ipc_world_tet_count entries; +INFINITY for an inverted tet) */
void ipc_world_tet_energy_density(const ipc_world *w, double *psi);
/* steps taken so far */
int ipc_world_step_count(const ipc_world *w);

/* the changing state (positions, velocities, time, step, barrier stiffness, scripted-region
   centers; list in src/ipc/world_state.c) as a versioned binary record on f. a world created
   from the same scene and loaded with it continues bit for bit as the saved one would. */
ipc_status ipc_world_save_state(const ipc_world *w, FILE *f, ipc_error *err);
/* reads what ipc_world_save_state wrote into w (created from the same scene);
   IPC_ERR_INPUT when the record is malformed, of another version, or of another scene */
ipc_status ipc_world_load_state(ipc_world *w, FILE *f, ipc_error *err);

#endif
