/* the LCP world: model, state and workspace (internal to src/lcp) */
#ifndef IPCC_LCP_LCP_WORLD_INTERNAL_H
#define IPCC_LCP_LCP_WORLD_INTERNAL_H

#include "affine/affine.h"
#include "core/model.h"
#include "core/prescribe.h"
#include "core/rest.h"
#include "core/state.h"
#include "core/world.h"
#include "geometry/broad_phase.h"
#include "lcp/body_factors.h"
#include "lcp/body_pairs.h"
#include "lcp/contact.h"
#include "lcp/lcp_world.h"
#include "linalg/cholmod_solver.h"
#include "linalg/sparse.h"

/* the last solve of the region a contact was in, and whether it was added since */
typedef struct ipc_lcp_region_result {
  double residual, rel_residual;
  int converged;
  int fresh;
} ipc_lcp_region_result;

/* the LCP strategy's workspace (core/world.h): world points at m, rest, s and pre */
struct ipc_lcp_world {
  ipcc_world world; /* first: the world this workspace steps */
  ipc_model m;
  ipc_rest rest; /* rest shapes, the affine bodies' list and moments (about their centres) */
  ipcc_lcp_world_def def;
  char *dump_dir;
  double h, gap;
  ipc_state s; /* time, step, x, v, affine q and qdot, script centres (core/state.h) */
  /* workspace (nverts x 3 unless noted) */
  double *vstar;        /* unconstrained velocity of the step */
  double *x0;           /* linearisation point: x with scripted vertices on their targets */
  double *dv;           /* velocity change of the contact impulses */
  unsigned char *fixed; /* (nverts) velocity prescribed this step (obstacles, scripts) */
  unsigned char *dof_fixed, *dof_fixed_prev; /* (nverts x 3) */
  int have_mask;
  ipc_prescription pre; /* the step's scripted targets (core/prescribe.h) */
  /* elasticity */
  double *tet_g, *tet_H; /* (IPC_LCP_TET_CHUNK x 12), (IPC_LCP_TET_CHUNK x 144) */
  /* linear solve of A = M + h^2 K over the free DOFs */
  ipc_sparse *asm_;
  ipc_cholmod *chol;
  int tet_set;
  double *grad, *diag; /* (nverts x 3) */
  double *rhs, *sol;   /* reduced */
  /* contacts at x (found at the end of the previous step) */
  ipc_candidates cand;
  double *grow; /* (nverts) the broad phase's growth of each vertex box (reduced manifolds) */
  ipc_lcp_body_pairs bp; /* the broad phase by body pairs (reduced manifolds), when use_bp */
  int use_bp;
  ipc_lcp_contact_set contacts;
  ipc_lcp_contact_set prev_contacts; /* the previous step's, for the sides of unsigned pairs */
  double min_phi;
  /* the contacts the step solves: contacts itself (manifold full) or its reduction to
     manifolds (ipc_lcp_world_reduce) */
  ipc_lcp_contact_set manifold;
  const ipc_lcp_contact_set *active;
  size_t manifolds;      /* manifolds in active (full: one per contact) */
  double patch_cell;     /* edge of the patch cells of deformable bodies' manifolds (m), 0: none */
  size_t activated;      /* dropped points the last step added back (activation.c) */
  int activation_rounds; /* extra solves of the last step that they took */
  int projecting;        /* the solve is a projection of positions (projection.c) */
  ipc_lcp_region_result *cres; /* (active contacts) of the step's solves */
  size_t cres_cap;
  ipc_lcp_contact_set proj; /* the contacts of the last projection */
  unsigned char *moved;     /* (nbodies) the bodies the last projection moved */
  size_t moved_cap;
  /* impulses of the last step per contact (rows_per_contact each), for warm starts */
  unsigned long long *prev_key; /* (prev_n x 3) */
  double *prev_z;
  size_t prev_n, prev_cap_key, prev_cap_z;
  /* solver scratch, grown as needed */
  double *z; /* (ncontacts x rows) current impulses */
  size_t z_cap;
  int *loc; /* (nverts) local index of a vertex in the current region, -1 */
  /* reuse of the factor of A across steps (free_velocity.c) */
  int factor_n;      /* size of the system the factor holds, 0 when none */
  double *x_factor;  /* (nverts x 3) the x0 the factor was assembled at (checkpoints) */
  int refactor_next; /* the last solve iterated too long: refactor at the next step */
  int always_factor; /* factor A every step (tests compare against it) */
  int pcg_budget;    /* iterations allowed with an old factor; 0: from the factor's cost */
  int reuse_skip;    /* steps left that factor without trying the old factor */
  int backoff;       /* reuse_skip after the next failed try (grows while tries fail) */
  double *pcg_buf;   /* (4 x free DOFs) */
  size_t pcg_cap;
  /* coupled mode: A factored body by body (body_factors.c); use_bf when they hold this
     step's A (else the whole factor in chol does) */
  ipc_lcp_body_factors bf;
  int use_bf;
  int whole_factor; /* coupled mode factors A whole (tests compare against it) */
  /* affine bodies (lcp_affine.c): rest.naff bodies of 12 DOFs q = (p, A e1, A e2, A e3);
     their vertices are x_i = J_i q (recomputed, never advanced on their own) and have no DOF
     in the sparse system */
  int *aff_loc;            /* (naff) local index in the region being solved, -1 */
  double *aqd_star, *adqd; /* (naff x 12) unconstrained qdot, change by the impulses */
  double *aL;              /* (naff x 144) lower Cholesky factor of M + h^2 K_orth */
};

/* tets whose elastic derivatives are computed at once (the tet_g/tet_H buffers) */
#define IPC_LCP_TET_CHUNK 256

/* the separation the contacts between two meshes aim at, as a fraction of the contact gap */
#define IPC_LCP_SKIN 0.1

/* the unconstrained velocity w->vstar of the step from w->x0, w->s.v, w->fixed (linearly
   implicit Euler, free_velocity.c); fills st->velocity_iterations and st->refactored.
   IPCC_ERR_SIM when a tet is inverted or A cannot be factored. */
ipcc_status ipc_lcp_world_free_velocity(ipc_lcp_world *w, ipcc_lcp_step_stats *st, ipcc_error *err);

/* factors A at w->x_factor with the mask w->dof_fixed_prev again, as the factor w->factor_n
   says the world held (a loaded checkpoint: the next steps reuse it as the saved world
   would have). IPCC_ERR_INPUT when it does not fit (free DOF count) or a tet is inverted */
ipcc_status ipc_lcp_world_rebuild_factor(ipc_lcp_world *w, ipcc_error *err);

/* a deformable body's contacts form manifolds per cell of this many mean surface edges */
#define IPC_LCP_PATCH_EDGES 3.0

/* points within this fraction of the contact gap of a manifold's deepest count as deep as it
   (of them the outermost is kept: a corner of a flat face, not a point on its edge) */
#define IPC_LCP_MANIFOLD_TIE 0.01

/* w->active from w->contacts at w->s.x under w->def.manifold */
void ipc_lcp_world_reduce(ipc_lcp_world *w);

/* one solve of the contacts of w->active from the impulses in w->z (in: start, out: the
   solution): w->dv and w->adqd from them; region statistics of this solve into st, its
   iterations added (lcp_solve.c). all = 0: only the regions that hold a contact marked fresh
   in w->cres are solved, the others keep their impulses (w->cres as the last solve left it) */
ipcc_status ipc_lcp_world_solve_pass(ipc_lcp_world *w, int all, ipcc_lcp_step_stats *st,
                                     ipcc_error *err);

/* post-stabilization (projection.c): when the contacts found after the step (w->contacts)
   hold a penetration deeper than IPC_LCP_PROJECT_TOL x the gap, the positions of the bodies
   involved are projected out of it (velocities unchanged; w->moved flags the bodies moved).
   Adds the solver's iterations to st->lcp_iterations; 1 when it projected, 0 when there was
   nothing to do, -1 on failure (err set) */
int ipc_lcp_world_project(ipc_lcp_world *w, ipcc_lcp_step_stats *st, ipcc_error *err);

/* penetrations deeper than this fraction of the contact gap are projected out */
#define IPC_LCP_PROJECT_TOL 0.05

/* after a projection (w->adqd its change of qdot): q += h adqd on the rotations, x = J q of
   the affine bodies it moved; qdot and v unchanged */
void ipc_lcp_affine_displace(ipc_lcp_world *w);

/* the step's PGS sweeps test the residual after every this many (lcp.h check_every): the test
   costs as much as a sweep, and a region that stops at the sweep cap never passes it */
#define IPC_LCP_CHECK_EVERY 4

/* solves after the first that add dropped points back (at most) */
#define IPC_LCP_ACTIVATION_ROUNDS 8

/* a dropped point is added back when the step's velocities would close it more than this
   fraction of the contact gap past what its constraint allows */
#define IPC_LCP_ACTIVATION_TOL 0.05

/* after a solve of the manifolds (w->dv, w->adqd set): the contacts of w->contacts left out
   of w->active whose normal velocity at the end of the step v* + dv falls short of what their
   constraint requires by more than IPC_LCP_ACTIVATION_TOL x gap / h are added to w->manifold
   (sorted by key) and w->z (impulse 0; the others keep theirs). Returns how many. */
size_t ipc_lcp_world_activate(ipc_lcp_world *w);

/* the normal velocity contact c requires (m/s): -phi/h, Baumgarte, skin, restitution
   (lcp_solve.c) */
double ipc_lcp_required_normal_velocity(const ipc_lcp_world *w, const ipc_lcp_contact *c);

/* the default contact gap as a fraction of the mean surface edge length */
#define IPC_LCP_GAP_EDGE_FRACTION 0.1

/* default contact gap (m): IPC_LCP_GAP_EDGE_FRACTION x the mean length of the deformable
   bodies' surface edges (the obstacles' when there are no bodies), at most 1e-2 x the
   bounding-box diagonal; 1e-3 m for a scene with neither edges nor extent */
double ipc_lcp_default_gap(const ipc_model *m);

/* unknowns per contact in the J rows (1, 3, or 1 + k) */
int ipc_lcp_world_rows(const ipc_lcp_world *w);

/* solves the contact problem of the step: from w->contacts and w->vstar, fills w->dv (the
   velocity change) and the solver fields of st. IPCC_ERR_SIM if a solve failed badly (not
   finite). */
ipcc_status ipc_lcp_world_solve_contacts(ipc_lcp_world *w, ipcc_lcp_step_stats *st,
                                         ipcc_error *err);

/* ---- affine bodies (lcp_affine.c); every function is a no-op when naff == 0 ---- */

/* the state and workspace of the affine bodies of w->rest: q = (centre, I), qdot fitted to
   the initial vertex velocities, x and v mapped from them (ipc_rest_affine_start) */
void ipc_lcp_affine_init(ipc_lcp_world *w);
void ipc_lcp_affine_free(ipc_lcp_world *w);

/* x_i = J_i q and v_i = J_i qdot for every affine vertex */
void ipc_lcp_affine_map(ipc_lcp_world *w);

/* the unconstrained qdot* of every affine body (factoring A_a into aL) and w->vstar of its
   vertices; a scripted body moves with its script. IPCC_ERR_SIM when A_a cannot be factored */
ipcc_status ipc_lcp_affine_free_velocity(ipc_lcp_world *w, ipcc_error *err);

/* g <- L_a^-1 g and y <- L_a^-T y with body a's factor of A_a */
void ipc_lcp_affine_forward(const ipc_lcp_world *w, int a, double g[12]);
void ipc_lcp_affine_backward(const ipc_lcp_world *w, int a, double y[12]);

/* the end of the step: qdot = qdot* + adqd, q += h qdot (a scripted body: q = pre.qs), and x, v
   of the affine vertices from them */
void ipc_lcp_affine_advance(ipc_lcp_world *w);

/* the LCP strategy's fields of the state record (lcp_world_state.c) */
int ipc_lcp_world_state_fields(const ipcc_world *w, ipc_state_field *extra, void *scratch);
extern const uint32_t ipc_lcp_world_state_tags[8];
ipcc_status ipc_lcp_world_state_apply(ipcc_world *w, const ipc_state_record *r,
                                      const ipc_state_shape *sh, ipcc_error *err);

/* the model (for writers) */
const ipc_model *ipc_lcp_world_model(const ipc_lcp_world *w);

#endif
