/* the IPC world: model, state and workspace (internal to src/ipc) */
#ifndef IPCC_IPC_WORLD_INTERNAL_H
#define IPCC_IPC_WORLD_INTERNAL_H

#include "core/model.h"
#include "geometry/broad_phase.h"
#include "ipc/contacts.h"
#include "ipc/friction.h"
#include "ipcc/world.h"

typedef struct ipc_newton_solver ipc_newton_solver;

struct ipc_world {
  ipc_model m;
  ipc_contact_model cm;
  double h, dhat;
  double c_elastic; /* weight of h^2 Psi and the barrier: 1 (Euler) or beta (Newmark) */
  double time;
  int step;
  /* state, all (nverts x 3) */
  double *x, *v, *a;
  /* workspace */
  double *xn;              /* positions at the start of the step */
  double *xt;              /* inertial prediction */
  double *xe;              /* trial / end of the swept step */
  double *p, *g;           /* Newton direction and gradient (full layout) */
  double *target;          /* scripted targets (nverts x 3) */
  double *penalty;         /* (nverts) weight pulling scripted vertices to their targets */
  unsigned char *fixed;    /* (nverts) vertex removed from the solve this step */
  unsigned char *scripted; /* (nverts) vertex has a scripted target this step */
  double *dir_center;      /* (ndirichlet x 3) current centers of scripted regions */
  /* elasticity */
  double *DmInv, *vol;   /* (ntets x 9), (ntets) */
  int *tet_model;        /* (ntets) ipc_material_model */
  double *tet_g, *tet_H; /* (ntets x 12), (ntets x 144) per-iteration scratch */
  double *damp_H;        /* (ntets x 144) Rayleigh damping blocks of the step (damping.h) */
  /* contact */
  ipc_candidates cand; /* valid for every point of the last swept segment */
  ipc_contact_set contacts;
  double min_d2;
  double kappa, kappa_min, kappa_max, mean_mass;
  ipc_newton_solver *solver;
  /* optional trace of Newton iterations (tests): potential and |p|_inf at each iterate */
  double *trace_energy, *trace_step;
  int trace_n, trace_cap;
  /* lagged friction (friction.c): potential relative to xn */
  ipc_friction fric;
};

/* elastic energy sum_t vol_t Psi(F_t(x)) (+INFINITY when undefined) */
double ipc_elastic_energy(const ipc_world *w, const double *x);

/* runs the Newton solve of one step (scripted targets and prediction set) */
ipc_status ipc_newton_step(ipc_world *w, ipc_step_stats *st, ipc_error *err);

ipc_newton_solver *ipc_newton_solver_create(int nverts);
void ipc_newton_solver_destroy(ipc_newton_solver *s);

#endif
