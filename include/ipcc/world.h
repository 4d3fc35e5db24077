/* the IPC mode's public types: a step's statistics (ipcc_world_step's record in IPC mode),
   a body's ranges (ipcc_world_body); the library's thread count */
#ifndef IPCC_WORLD_H
#define IPCC_WORLD_H

#include "ipcc/error.h"
#include "ipcc/export.h"

/* statistics of one time step (times in seconds) */
typedef struct ipcc_step_stats {
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
  int ccd_cuts;            /* Newton iterations whose line search CCD shortened below the full
                              step (the first trial's length < 1) */
  int backtracks;          /* halvings of a line search's step on an energy that did not
                              decrease, summed over the step's iterations */
  int frozen_iterations;   /* Newton iterations over part of the bodies, the others frozen
                              (newton.line_search "islands" or newton.body_freezing) */
} ipcc_step_stats;

/* number of threads for ipcc's own loops (default 1; n < 1: one per core; returns the
   number in use). Results do not depend on it: work is split in chunks fixed by the problem size.
 */
IPCC_API int ipcc_set_threads(int n);

/* one body or obstacle of a world, as the scene listed it */
typedef struct ipcc_body_info {
  const char *name;   /* the scene's name, or the mesh file's; owned by the world */
  int obstacle;       /* 1: kinematic obstacle (no mass, moves by script only) */
  int vertex_begin;   /* its vertices are [vertex_begin, vertex_begin + vertex_count) of */
  int vertex_count;   /*   ipcc_world_positions (vertex indices, not x 3) */
  int tet_begin;      /* its tets in the world's tet order (ipcc_world_tet_energy_density); */
  int tet_count;      /*   0 for obstacles */
  int triangle_begin; /* its triangles are [triangle_begin, triangle_begin + triangle_count) */
  int triangle_count; /*   of ipcc_world_surface_triangles */
} ipcc_body_info;

#endif
