/* what newton.c shares with newton_split.c, the Newton systems' assembly split among MPI
 * ranks (stage 2 of mpi_run.h, docs/scaling.md): the solver's state and the pieces of the
 * whole assembly that the split one reuses. Internal to src/ipc. */
#ifndef IPCC_IPC_NEWTON_INTERNAL_H
#define IPCC_IPC_NEWTON_INTERNAL_H

#include <stddef.h>

#include "ipc/islands.h"
#include "ipc/world_internal.h"
#include "linalg/linear_solver.h"
#include "linalg/sparse.h"

/* one contact's compressed local derivatives */
typedef struct contact_local {
  int nv, verts[4];
  double g[12], H[144];
} contact_local;

/* a term's local gradient and its Hessian mapped onto the system's vertices (affine ones onto
   their bodies' pseudo-vertices: ipc_affine_world_map), for the assembly's blocks of terms */
enum { MAPPED_TARGETS = 8 };
typedef struct mapped_local {
  int nu; /* targets; 0: H over the term's real vertices as it is, -1: more than MAPPED_TARGETS
             (H over the real vertices, mapped when added), -2: nothing (the term's rows are
             out of the system) */
  int nv; /* with nu 0 or -1: the term's real vertices, in ids */
  int ids[16];
  double g[12];
  double H[(3 * MAPPED_TARGETS) * (3 * MAPPED_TARGETS)];
} mapped_local;

struct ipc_newton_solver {
  double g2; /* squared norm of the last Newton system's right-hand side (the trace) */
  /* 1 while w->cand holds the static candidates of the current x (ipc_newton_choose_kappa ran
     the broad phase at the step's start): the first Newton iteration takes them as they are */
  int static_fresh;
  ipc_sparse *asm_;
  ipc_linear_solver *ls; /* created at the first solve: the kind is the scene's */
  int tet_set;
  int aff_set;              /* the affine bodies' 4-pseudo-vertex elements, -1 until registered */
  unsigned char *dof_fixed; /* (nverts x 3) */
  double *rhs, *sol;        /* reduced vectors */
  double *diag;             /* (nverts x 3) */
  double *xyz;              /* (nverts x 3) the free vertices' positions, in system order */
  double *gB, *gE;          /* kappa initialisation */
  int registered;
  contact_local *cl; /* (contacts) per-iteration scratch */
  mapped_local *ml;  /* (2 ASSEMBLY_BLOCK) the assembly's mapped terms, two blocks */
  /* the last assembly was split among the MPI ranks (assemble_split): the matrix holds this
     rank's share */
  int split;
  /* assemble_split: the points each contact's terms take (contact_mask), this rank's and all */
  unsigned char *mine, *masks;
  size_t cap_mine, cap_masks;
  /* assemble_split's ownership: the rank of each vertex's rows (-1: all its unknowns fixed),
     of each contact, this rank's tets or contacts, the unknowns its terms touched, its share
     of the diagonal */
  int *vrank, *crank, *own;
  unsigned char *touched;
  double *diag_mine;
  size_t cap_vrank, cap_crank, cap_own, cap_touched, cap_diag_mine;
  double *pts; /* (nsys x 3) free_block_points */
  size_t cap_pts;
  int fresh; /* the next assembly is the step's first: rebuild the pattern exactly */
  size_t cap_cl;
  ipc_contact_set next;  /* the contacts at the point the line search accepted */
  ipc_contact_set watch; /* pairs closer than the kappa watch distance after the last iteration */
  double next_min_d2;
  int next_valid;
  /* line search per contact island (islands.h) */
  ipc_islands isl;
  int *isl_pairs; /* the pairs of bodies that may meet at any step lengths (islands_begin) */
  size_t nisl_pairs, cap_isl_pairs;
  unsigned char *moving;                      /* (nverts) the vertex moves along the step */
  double *e0, *e1, *alpha, *pmax, *toi, *dec; /* (nbodies + 1) per island */
  unsigned char *state, *ccd_ok, *check;
  /* bodies whose island has converged within this solve: their DOFs leave the system and
     their primitives are passive in the broad phase until an active body comes near */
  unsigned char *frozen, *thaw; /* (nbodies) */
  /* with newton.body_freezing, the frozen bodies that per-body freezing holds inside islands
     still moving (ipc_newton_rehold), the others frozen with their converged island */
  unsigned char *held;    /* (nbodies) */
  long holds;             /* bodies held so far (a count for tests) */
  unsigned char *passive; /* (nverts) obstacle or frozen vertex */
  int nfrozen;
  /* tests: with verify_next set, every iteration that starts from the accepted point's
     contacts (next) counts the contacts that a search afresh at x finds and next lacks (those
     of pairs with a vertex of a body not frozen); and the searches for the contacts of bodies
     thawed (ipc_newton_contacts_of_thawed), those after islands settled */
  int verify_next;
  long next_checked, next_missing, thaw_searches, settle_thaws;
  /* body_freezing.c: the candidates of the bodies just thawed, the other vertices passive */
  ipc_candidates thaw_cand;
  unsigned char *thaw_passive;
  size_t cap_thaw_passive;
  /* the vertices no affine body places (ascending; every vertex without affine bodies), built
     on first use (NULL before): the loops over vertices moved along p by themselves */
  int *plain, nplain;
};

/* elastic work over tets [begin, end) of one body: energy only, or with per-tet
   gradients and projected Hessians into w->tet_g / tet_H */
typedef struct elastic_job {
  const ipc_world *w; /* derivatives go to the arrays tet_g / tet_H point to */
  const double *x;
  int body, derivs;
} elastic_job;

/* the energy of body j->body's tets [t0, t0 + nt) (global numbers), with j->derivs their
   gradients and projected Hessians into tet_g / tet_H */
double ipc_newton_elastic_tets(const elastic_job *j, size_t t0, int nt);

/* elastic energy with per-tet gradients and projected Hessians into w->tet_g / tet_H */
double ipc_newton_elastic_derivatives(ipc_world *w, const double *x);

/* 1 when vertices v[0..nv) are all passive (frozen or an obstacle's) */
static inline int ipc_newton_all_passive(const ipc_newton_solver *s, const int *v, int nv) {
  for (int k = 0; k < nv; ++k)
    if (!s->passive[v[k]]) return 0;
  return 1;
}

/* 1 when every vertex of contact c is passive (frozen or an obstacle's): its distance is
   the same after the step */
static inline int ipc_newton_contact_frozen(const ipc_newton_solver *s, const ipc_contact *c) {
  return ipc_newton_all_passive(s, c->v, ipc_contact_vertices(c));
}

/* the gradient (full layout, into w->g) and the assembled, projected Hessian into
   solver->asm_ (newton_assembly.c; split among MPI ranks when the linear solver adds their
   shares) */
void ipc_newton_assemble(ipc_world *w, ipcc_step_stats *st);

/* the vertices' inertia and scripted-vertex penalty terms: their Hessian diagonal into
   solver->diag, and with `gradient` their gradient into w->g (vertex entries, which it sets) */
void ipc_newton_inertia_terms(ipc_world *w, int gradient);

/* tet t's elastic gradient into w->g and its Hessian (with the damping's) into the assembly,
   both scaled by h2 (newton_assembly.c) */
void ipc_newton_add_tet(ipc_world *w, int t, double h2);

/* the gradient (into w->g) and this rank's part of the projected Hessian, each term assembled
   by the rank of its rows (newton_split.c); sets solver->split */
void ipc_newton_assemble_split(ipc_world *w, ipcc_step_stats *st);

/* the kappa watch list from the contacts in solver->next (newton.c) */
void ipc_newton_watch_next(ipc_world *w);

/* per-body freezing of the global line search (body_freezing.c). After an accepted step
   along w->p (the candidates of that step in w->cand): freezes every free body the
   direction moves by at most a fifth of tol, unless a candidate or friction pair ties it to
   one it moves by more, when that leaves at most half of the free bodies in the system,
   else thaws all; returns 1 when the frozen set changed. Contacts of a thawed body are
   taken again at x into solver->next */
int ipc_newton_refreeze(ipc_world *w, double tol, ipcc_step_stats *st);

/* solver->nfrozen, solver->passive (obstacle or frozen vertex) and the DOF mask from
   solver->frozen (body_freezing.c; settle_islands too) */
void ipc_newton_apply_frozen(ipc_world *w);

/* the contacts at x of the bodies just thawed (solver->thaw) with the frozen ones and each
   other (pairs the last candidates left out: all their vertices passive), in solver->next in
   place of those it held of them (body_freezing.c) */
void ipc_newton_contacts_of_thawed(ipc_world *w, ipcc_step_stats *st);

/* per-body freezing inside the island line search (newton.body_freezing with "islands"), after
   an accepted step along w->p: among the bodies the step moved, holds (freezes) each that the
   direction moves by at most a fifth of tol and that no candidate or friction pair ties to one
   it moves by more, when that leaves at most half of them in the system; releases the held
   bodies such a pair now ties, or all when more than half stay. The bodies frozen with their
   island are left alone. Returns 1 when the frozen set changed; a released body's contacts at
   x are taken into solver->next */
int ipc_newton_rehold(ipc_world *w, double tol, ipcc_step_stats *st);

/* releases every held body (the island line search's solve may end only with none held), the
   contacts at x again into solver->next; returns 1 when some body was held */
int ipc_newton_release_held(ipc_world *w, ipcc_step_stats *st);

/* thaws every frozen body (held ones too), the contacts at x again over every pair into
   solver->next */
void ipc_newton_unfreeze(ipc_world *w, ipcc_step_stats *st);

#endif
