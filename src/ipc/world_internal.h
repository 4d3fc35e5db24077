/* the IPC world: model, state and workspace (internal to src/ipc) */
#ifndef IPCC_IPC_WORLD_INTERNAL_H
#define IPCC_IPC_WORLD_INTERNAL_H

#include "affine/affine.h"
#include "core/model.h"
#include "core/prescribe.h"
#include "core/rest.h"
#include "core/state.h"
#include "core/world.h"
#include "elastic/elasticity.h"
#include "geometry/broad_phase.h"
#include "ipc/contacts.h"
#include "ipc/friction.h"
#include "ipc/world.h"

typedef struct ipc_newton_solver ipc_newton_solver;

/* Newmark's parameters (average acceleration: unconditionally stable, second order) */
#define IPC_NEWMARK_BETA 0.25
#define IPC_NEWMARK_GAMMA 0.5

/* the IPC strategy's workspace (core/world.h): world points at m, rest, s and pre */
struct ipc_world {
  ipcc_world world; /* first: the world this workspace steps */
  ipc_model m;
  ipc_rest rest; /* rest shapes, the affine bodies' list and moments (about the world origin) */
  ipc_contact_model cm;
  double h, dhat;
  double c_elastic; /* weight of h^2 Psi and the barrier: 1 (Euler) or beta (Newmark) */
  ipc_state s;      /* time, step, x, v, a, affine q, qdot, qddot, script centres (core/state.h) */
  /* workspace */
  double *xn;           /* positions at the start of the step */
  double *xt;           /* inertial prediction */
  double *xe;           /* trial / end of the swept step */
  double *p, *g;        /* Newton direction and gradient (full layout) */
  double *penalty;      /* (nverts) weight pulling scripted vertices to their targets */
  unsigned char *fixed; /* (nverts) vertex removed from the solve this step */
  /* the original IPC code's moving boundary conditions, for the scripted vertices of
     deformable bodies on IPC's Newton path (scripted.c, ipc_mbc_begin / ipc_mbc_update): at a
     step's start they move as far as IPC's CCD lets them and are held there; short of their
     targets, after one Newton iteration they are let go under the augmented Lagrangian pull 1/2 rho
     m |x - t|^2 - sqrt(m) lambda . (x - t) (penalty[i] = rho m), and held again where they are once
     within 1e-3 of the move, as IPC's Optimizer::solveSub_IP does */
  struct {
    int on;             /* 1 while this step's scripted move is not complete */
    int held;           /* 1: the scripted vertices are fixed where they are (IPC's m_projectDBC) */
    double rho;         /* the penalty's stiffness per unit mass */
    double done;        /* the completed fraction of the move, 1 - |x - t| / |t - x_start| */
    double start, dir2; /* the fraction taken at the step's start; |t - x_start|^2 */
    double *pull;       /* (nverts x 3) sqrt(m) lambda */
    double *mass;       /* (nverts) the mass m of a scripted vertex here (world.c, mbc_masses) */
  } mbc;
  ipc_prescription pre; /* the step's scripted targets (core/prescribe.h) */
  /* elasticity */
  double *tet_g, *tet_H; /* (ntets x 12), (ntets x 144) per-iteration scratch */
  double *damp_H;        /* (ntets x 144) Rayleigh damping blocks of the step (damping.h) */
  /* contact */
  ipc_candidates cand;      /* valid for every point of the last swept segment */
  ipc_candidates cand_wide; /* IPC's full CCD: the pairs that may close to 0.2 of their distance */
  ipc_contact_set contacts;
  /* 1 while `contacts` is every contact within dhat at s.x (set where a solve ends at the
     contacts of its last point, cleared at each solve's start): a re-lag of friction at the
     end of the step takes them instead of a broad phase of its own */
  int contacts_at_x;
  double min_d2;
  double kappa, kappa_min, kappa_max, mean_mass;
  double dhat0;   /* dhat at the start of every step (dhat_target's continuation lowers dhat) */
  int step_begin; /* 1 until the step's first solve has chosen kappa and lagged friction */
  ipc_newton_solver *solver;
  /* optional trace of Newton iterations (tests): potential and |p|_inf at each iterate */
  double *trace_energy, *trace_step;
  int trace_n, trace_cap;
  /* 1: every Newton iteration is logged to stderr (environment IPCC_TRACE set; a developer's
     tool for comparing iteration by iteration with IPC's --logLevel info) */
  int log_newton;
  /* lagged friction (friction.c): potential relative to xn */
  ipc_friction fric;
  /* 1 when the scene has a friction coefficient > 0 (a body's or a plane's): every solve
     then re-lags friction and tests the direction, as IPC's solveFric */
  int solve_friction;
  /* affine bodies (affine_world.c, docs/affine-integration.md): rest.naff bodies of 12 DOFs
     q each; body a owns the pseudo-vertices nverts + 4a .. nverts + 4a + 3 of the Newton
     system (its DOF blocks p, A e1, A e2, A e3), its real vertices are fixed there and
     recomputed as x_i = J_i q */
  int nsys;                /* vertices of the Newton system: nverts + 4 naff */
  int *aff_pv;             /* (naff x 4) pseudo-vertex ids */
  double *aff_grow;        /* (nverts) broad-phase growth of each vertex box for curved trials */
  double *aqn;             /* (naff x 12) q at the start of the step (q, qdot: s.q, s.qd) */
  double *aqt, *aqe, *adq; /* (naff x 12) prediction, trial q, Newton direction */
  double *aff_damp;        /* (naff x 9) A_n^T A_n for the strain damping (damping.h), or NULL */
  /* scripted affine bodies move as kinematic rigid movers: body a's scripts are the model's
     dirichlet entries rest.aff_dir0[a] .. + rest.aff_ndir[a] - 1 (whole body each); when
     one is active, pre.qs holds the step's target q and pre.aff_scripted[a] is 1. Like scripted
     vertices, such a body is placed on its target and fixed (aff_fixed, its pseudo-vertices
     leave the Newton system) or, when that move is refused, pulled there by the penalty
     1/2 aff_penalty (q - qs)^T M (q - qs) first */
  double *aff_penalty;      /* (naff) */
  unsigned char *aff_fixed; /* (naff) */
  /* 1 once x or v was set from outside or a state record loaded since the last step: the
     lagged friction (relative to xn) no longer describes the state (ipcc_world_contacts
     then reports no friction force) */
  int drive_stale;
};

/* the projection of the elastic Hessian (IPC_PROJECT_*) in Newton and the damping matrix:
   the original IPC's own on its scripts (ipcc_scene_def.ipc_newton_path) */
static inline int ipc_world_elastic_project(const ipc_world *w) {
  return w->m.params.ipc_newton_path ? IPC_PROJECT_IPC : IPC_PROJECT_ANALYTIC;
}

/* the IPC strategy's fields of the state record (world_state.c): kappa, min_d2 (ipcc_strategy's
   state_fields, state_tags, state_apply) */
int ipc_world_state_fields(const ipcc_world *w, ipc_state_field *extra, void *scratch);
extern const uint32_t ipc_world_state_tags[2];
ipcc_status ipc_world_state_apply(ipcc_world *w, const ipc_state_record *r,
                                  const ipc_state_shape *sh, ipcc_error *err);

/* elastic energy sum_t vol_t Psi(F_t(x)) (+INFINITY when undefined) */
double ipc_elastic_energy(const ipc_world *w, const double *x);

/* runs the Newton solve of one step (scripted targets and prediction set) */
ipcc_status ipc_newton_step(ipc_world *w, ipcc_step_stats *st, ipcc_error *err);

/* chooses kappa at x for the current dhat as IPC does at a step's start (kappa.c), from the
   current kappa as start value; collects the contacts at x into w->contacts */
void ipc_newton_choose_kappa(ipc_world *w, ipcc_step_stats *st);

/* 1 when a Newton direction at x (the current fixed set, lagged friction and kappa) is within
   the Newton tolerance, 0 when not, -1 on a failed factorization (err set) */
int ipc_newton_direction_converged(ipc_world *w, ipcc_step_stats *st, ipcc_error *err);

/* the solver's DOF mask from w->fixed and the bodies it has frozen */
void ipc_newton_update_mask(ipc_world *w);

/* candidates swept over x -> xe (boxes inflated by `inflation`) into w->cand and the CCD
   bound of that step, both timed into st */
double ipc_newton_swept_max_step(ipc_world *w, ipcc_step_stats *st, double inflation);

/* for tests: the incremental potential of the last step's setting (prediction, lagged
   friction, kappa) at the current x and q, and its gradient into w->g (nsys x 3) as a Newton
   iteration assembles it */
double ipc_newton_potential_gradient(ipc_world *w);

ipc_newton_solver *ipc_newton_solver_create(int nverts);

/* ---- affine bodies (affine_world.c); every function is a no-op when naff == 0 ---- */

/* the state and workspace of the affine bodies of w->rest: q = identity and qdot fitted to
   the initial vertex velocities (ipc_rest_affine_start); sets nsys. Call once x, v, tet_g,
   tet_H exist. */
void ipc_affine_world_init(ipc_world *w, const ipcc_scene_def *def);
void ipc_affine_world_free(ipc_world *w);

/* how far the line search's curved trials (ipc_affine_curved_step of aq along adq, any step
   up to alpha) stray from the straight segments x -> xe(alpha) of the affine vertices, at
   most: per vertex into grow (nverts; its body's ipc_affine_curved_sag plus 1%, 0 on other
   vertices) */
void ipc_affine_world_sag(const ipc_world *w, double alpha, double *grow);

/* x_i = J_i q for the vertices of every affine body (q: naff x 12) */
void ipc_affine_world_positions(const ipc_world *w, const double *q, double *x);

/* start of a step at time t: qn = q, qtilde = qn + h qdot + h^2 M^-1 f, f the generalized
   force of gravity and of the Neumann loads active at t (sum over the loaded vertices of
   m_i J_i^T a, with the model's vertex masses) */
void ipc_affine_world_predict(ipc_world *w, double t);

/* end of a step: qdot = (q - qn) / h (implicit Euler), or Newmark's qddot and qdot from
   q; v_i = J_i qdot and a_i = J_i qddot on the affine vertices */
void ipc_affine_world_velocities(ipc_world *w);

/* Newmark's starting qddot: M^-1 f with f the generalized force of gravity and the Neumann
   loads active at t = 0 (the orthogonality force vanishes at q = (0, I)); a_i = J_i qddot */
void ipc_affine_world_initial_acceleration(ipc_world *w);

/* q: every affine body's prediction aqt with A projected onto the rotations (its polar
   factor; the prediction itself when that fails), the start the Newton solve tries first */
void ipc_affine_world_rotated_prediction(const ipc_world *w, double *q);

/* affine body a's terms of the incremental potential at q (naff x 12): inertia
   1/2 |q_a - qtilde_a|_M^2, c h^2 times the orthogonality energy, the script penalty and the
   strain damping */
double ipc_affine_world_body_energy(const ipc_world *w, const double *q, int a);

/* moves a gradient (nsys x 3) of the real affine vertices onto their pseudo-vertices:
   g_P += J_i^T g_i, then g_i = 0 */
void ipc_affine_world_pull(const ipc_world *w, double *g);
/* the same, except for the bodies b with skip[b] (skip may be NULL): their vertices' entries
   are zeroed, their pseudo-vertices' left as they are (rows out of the system) */
void ipc_affine_world_pull_skip(const ipc_world *w, double *g, const unsigned char *skip);

/* gradients (into g, nsys x 3, may be NULL) and, with A, the Hessians M + c h^2 H_orth
   (PSD-projected) of the bodies as elements of set `set` */
void ipc_affine_world_add(const ipc_world *w, double *g, ipc_sparse *A, int set);
/* the same for affine body a alone */
void ipc_affine_world_add_body(const ipc_world *w, double *g, ipc_sparse *A, int set, int a);

/* the vertices of the system a local Hessian over real vertices verts (nv <= 4) lands on with
   ipc_affine_world_sparse_add: each real vertex, or its affine body's 4 pseudo-vertices, once
   each, into ids (room for 16); returns their number */
int ipc_affine_world_targets(const ipc_world *w, int nv, const int *verts, int *ids);

/* a local Hessian H over real vertices verts (nv <= 4) with every affine vertex replaced by
   its body's pseudo-vertices (J^T H J) into ids (room for 16; ipc_affine_world_targets'
   order) and Hm (3 nu x 3 nu): returns nu; 0 when no vertex is affine (H stands as it is), -1 when
   the targets are more than max_targets (nothing written but ids) */
int ipc_affine_world_map(const ipc_world *w, int nv, const int *verts, const double *H,
                         int max_targets, int *ids, double *Hm);

/* ipc_sparse_add of a local Hessian over real vertices, with every affine vertex replaced
   by its body's pseudo-vertices (J^T H J); unchanged when none is affine */
void ipc_affine_world_sparse_add(const ipc_world *w, ipc_sparse *A, int nv, const int *verts,
                                 const double *H);

/* from a Newton solution p (nsys x 3): adq = the pseudo-vertex blocks, p_i = J_i dq */
void ipc_affine_world_direction(ipc_world *w, double *p);
void ipc_newton_solver_destroy(ipc_newton_solver *s);

#endif
