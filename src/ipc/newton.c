/* projected Newton on the incremental potential with a CCD-filtered backtracking
   line search (Li et al. 2020, Alg. 1):
     repeat: contacts at x; g, H with every element and contact Hessian projected
     to PSD; solve H p = -g (CHOLMOD, symbolic analysis reused while the pattern
     holds); stop when |p|_inf / h < tol * diag; alpha from CCD over the swept
     step, scaled by ccd_scale; halve alpha until the energy decreases.
   with newton.line_search "islands" (islands.h) the line search runs per contact island
   (its own alpha, CCD bound and energy test) and converged islands leave the system until
   a body that moved comes near them; "global" (the default) is one island.
   scripted vertices of kinematic obstacles are placed on their targets directly when
   that move is collision-free. scripted (Dirichlet) vertices of deformable bodies are
   first pulled towards their targets by a stiff penalty 1/2 w |x - xhat|^2 (w = 1e6 m_i)
   through the same Newton solve and line search, as IPC's augmented Lagrangian does, so
   the first Newton step carries the body along with its handles (placing the handles
   first shears the elements next to them, and Newton then needs several more
   iterations: 4-9 instead of 2-3 per step on the mat twists). once that solve has
   converged they are placed exactly; when the remaining gap was below 1% of the
   Newton tolerance the step ends there, otherwise Newton runs again with them fixed.
   if they cannot be placed, w is raised tenfold and the solve repeated, up to 1e12.
   a script that cannot be followed (e.g. an obstacle pushing a pinned body) is
   therefore never forced through: the vertices stop short, the step reports
   them as dirichlet_unmet, and the next step tries again. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/timer.h"
#include "elastic/elasticity.h"
#include "ipc/damping.h"
#include "ipc/islands.h"
#include "ipc/kappa.h"
#include "ipc/line_search.h"
#include "ipc/newton_internal.h"
#include "ipc/scripted.h"
#include "ipc/world_internal.h"
#include "linalg/dense.h"
#include "linalg/linear_solver.h"
#include "linalg/mpi_run.h"
#include "linalg/sparse.h"

ipc_newton_solver *ipc_newton_solver_create(int nverts) {
  ipc_newton_solver *s = IPC_NEW0(ipc_newton_solver, 1);
  s->asm_ = ipc_sparse_create(nverts);
  s->dof_fixed = IPC_NEW0(unsigned char, 3 * (size_t)nverts + 1);
  s->rhs = IPC_NEW(double, 3 * (size_t)nverts + 1);
  s->sol = IPC_NEW(double, 3 * (size_t)nverts + 1);
  s->diag = IPC_NEW(double, 3 * (size_t)nverts + 1);
  s->xyz = IPC_NEW(double, 3 * (size_t)nverts + 1);
  s->gB = IPC_NEW(double, 3 * (size_t)nverts + 1);
  s->gE = IPC_NEW(double, 3 * (size_t)nverts + 1);
  s->moving = IPC_NEW0(unsigned char, (size_t)nverts + 1);
  s->passive = IPC_NEW0(unsigned char, (size_t)nverts + 1);
  s->tet_set = -1;
  s->aff_set = -1;
  return s;
}

void ipc_newton_solver_destroy(ipc_newton_solver *s) {
  if (!s) return;
  ipc_sparse_destroy(s->asm_);
  ipc_linear_solver_destroy(s->ls);
  ipc_free(s->dof_fixed);
  ipc_free(s->rhs);
  ipc_free(s->sol);
  ipc_free(s->diag);
  ipc_free(s->xyz);
  ipc_free(s->gB);
  ipc_free(s->gE);
  ipc_free(s->cl);
  ipc_free(s->ml);
  ipc_free(s->plain);
  ipc_free(s->mine);
  ipc_free(s->masks);
  ipc_free(s->vrank);
  ipc_free(s->crank);
  ipc_free(s->own);
  ipc_free(s->touched);
  ipc_free(s->diag_mine);
  ipc_free(s->pts);
  ipc_contact_set_free(&s->next);
  ipc_contact_set_free(&s->watch);
  ipc_islands_free(&s->isl);
  ipc_free(s->isl_pairs);
  ipc_free(s->moving);
  ipc_free(s->e0);
  ipc_free(s->e1);
  ipc_free(s->alpha);
  ipc_free(s->pmax);
  ipc_free(s->toi);
  ipc_free(s->state);
  ipc_free(s->ccd_ok);
  ipc_free(s->check);
  ipc_free(s->dec);
  ipc_free(s->frozen);
  ipc_free(s->thaw);
  ipc_free(s->held);
  ipc_free(s->passive);
  ipc_candidates_free(&s->thaw_cand);
  ipc_free(s->thaw_passive);
  ipc_free(s);
}

/* the energy of body j->body's tets [t0, t0 + nt) (global numbers), with j->derivs their
   gradients and projected Hessians into tet_g / tet_H */
double ipc_newton_elastic_tets(const elastic_job *j, size_t t0, int nt) {
  const ipc_world *w = j->w;
  const ipc_body *bd = &w->m.bodies[j->body];
  ipc_material_model mm = (ipc_material_model)w->rest.tet_model[bd->t0];
  const int *tets = w->m.tets + 4 * t0;
  if (!j->derivs)
    return ipc_tets_energy(mm, bd->mu, bd->lambda, nt, tets, w->rest.DmInv + 9 * t0,
                           w->rest.vol + t0, j->x);
  return ipc_tets_derivatives(mm, bd->mu, bd->lambda, nt, tets, w->rest.DmInv + 9 * t0,
                              w->rest.vol + t0, j->x, NULL, w->tet_g + 12 * t0, w->tet_H + 144 * t0,
                              ipc_world_elastic_project(w));
}

static double elastic_range(void *vctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const elastic_job *j = vctx;
  return ipc_newton_elastic_tets(j, (size_t)j->w->m.bodies[j->body].t0 + begin, (int)(end - begin));
}

static double elastic_sum(const ipc_world *w, const double *x, int derivs) {
  double e = 0;
  for (int b = 0; b < w->m.nbodies; ++b) {
    if (w->m.bodies[b].nt == 0 || w->m.bodies[b].affine) continue;
    elastic_job j = {w, x, b, derivs};
    e += ipc_parallel_sum((size_t)w->m.bodies[b].nt, 256, elastic_range, &j);
  }
  return e;
}

double ipc_elastic_energy(const ipc_world *w, const double *x) {
  return elastic_sum(w, x, 0);
}

double ipc_newton_elastic_derivatives(ipc_world *w, const double *x) {
  return elastic_sum(w, x, 1);
}

/* the island slot of body b's terms: its island, or is->n (the slot of the terms of nothing
   that moves) */
static int body_slot(const ipc_islands *is, int b) {
  return is->body[b] >= 0 ? is->body[b] : is->n;
}

/* the solver's list of the vertices no affine body places (s->plain) */
static const int *plain_vertices(ipc_world *w, int *count) {
  ipc_newton_solver *s = w->solver;
  if (!s->plain) {
    int n = w->m.nverts;
    const int *va = w->rest.naff > 0 ? w->rest.vert_aff : NULL;
    s->plain = IPC_NEW(int, (size_t)n + 1);
    s->nplain = 0;
    for (int v = 0; v < n; ++v)
      if (!va || va[v] < 0) s->plain[s->nplain++] = v;
  }
  *count = s->nplain;
  return s->plain;
}

/* the incremental potential at x, barrier over the candidate pairs; with next, the contact
   set at x too (ipc_barrier_energy_islands). q: the affine bodies' state that x belongs to
   (their inertia and orthogonality terms; the real vertices of an affine body are fixed, so
   the vertex inertia below skips them). With islands, every term also goes to e[its island]
   (e: is->n + 1 entries, the last for the terms of nothing that moves; cleared here) */
static double potential_split(ipc_world *w, const double *x, const double *q, const ipc_islands *is,
                              double *e, double *min_d2, ipc_contact_set *next) {
  const ipc_model *m = &w->m;
  double h2 = w->c_elastic * w->h * w->h, e_one;
  int none = is ? is->n : 0;
  if (!is) e = &e_one;
  memset(e, 0, ((size_t)none + 1) * sizeof(double));
  /* with bodies frozen in the global line search (body_freezing.c), the terms of nothing that
     moves are left out: a constant of the line search, and most of the terms then */
  int skip = is && w->solver->nfrozen > 0 && !m->params.island_line_search;
  const int *vb = m->surface.vert_body;
  /* the real vertices of affine bodies are fixed without penalty all along a Newton step
     (ipc_newton_step, ipc_newton_potential_gradient): no term of theirs here */
  int np;
  const int *plain = plain_vertices(w, &np);
  for (int k = 0; k < np; ++k) {
    int i = plain[k];
    if (skip && is->body[vb[i]] < 0) continue;
    const double *a = x + 3 * i, *b = w->xt + 3 * i;
    double ei = 0, mi = w->fixed[i] ? 0.0 : m->mass[i] > 0 ? m->mass[i] : w->mbc.mass[i];
    if (mi > 0) {
      double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
      ei += 0.5 * mi * (d0 * d0 + d1 * d1 + d2 * d2);
    }
    if (w->penalty[i] > 0) {
      const double *t = w->pre.target + 3 * i, *l = w->mbc.pull + 3 * i;
      double d0 = a[0] - t[0], d1 = a[1] - t[1], d2 = a[2] - t[2];
      ei +=
          0.5 * w->penalty[i] * (d0 * d0 + d1 * d1 + d2 * d2) - (l[0] * d0 + l[1] * d1 + l[2] * d2);
    }
    if (ei != 0) e[is ? body_slot(is, vb[i]) : 0] += ei;
  }
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt == 0 || bd->affine || (skip && is->body[b] < 0)) continue;
    elastic_job j = {w, x, b, 0};
    /* over MPI ranks each rank sums its chunks of tets (mpi_run.h) */
    double el = ipc_mpi_parallel_sum((size_t)bd->nt, 256, elastic_range, &j, IPC_WORK_ELASTIC);
    /* an inverted tet makes its island's energy (and the total) infinite; the rest is
       still computed, as a per-island search may accept the other islands' steps here */
    e[is ? body_slot(is, b) : 0] +=
        isfinite(el) ? h2 * el + ipc_damping_energy_tets(w, x, bd->t0, bd->nt) : INFINITY;
  }
  for (int a = 0; a < w->rest.naff; ++a)
    if (!(skip && is->body[w->rest.aff_body[a]] < 0))
      e[is ? body_slot(is, w->rest.aff_body[a]) : 0] += ipc_affine_world_body_energy(w, q, a);
  double kb = ipc_barrier_energy_islands(&w->cm, &w->cand, x, w->kappa, is ? is->vert : NULL, none,
                                         e, min_d2, next);
  if (!is) e[0] += kb;
  const ipc_friction *f = &w->fric;
  double eps = f->eps_v * f->h;
  for (size_t k = 0; k < f->n; ++k) {
    const ipc_friction_contact *fc = &f->c[k];
    int i = is ? ipc_islands_of(is->vert, fc->v, fc->nv, none) : 0;
    if (skip && i == none) continue;
    e[i] += ipc_friction_contact_local(fc, x, w->xn, eps, 0, NULL, NULL);
  }
  double total = 0;
  for (int i = 0; i <= none; ++i) total += e[i];
  return total;
}

static double potential(ipc_world *w, const double *x, const double *q, double *min_d2) {
  return potential_split(w, x, q, NULL, NULL, min_d2, NULL);
}

/* sets the DOF mask of the solver from w->fixed */
void ipc_newton_update_mask(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  int n = w->m.nverts;
  const int *vb = w->m.surface.vert_body;
  for (int i = 0; i < n; ++i) {
    unsigned char f = w->fixed[i] || (s->nfrozen > 0 && s->frozen[vb[i]]);
    for (int d = 0; d < 3; ++d) s->dof_fixed[3 * i + d] = f;
  }
  /* a scripted affine body is kinematic: its pseudo-vertices are fixed too */
  for (int a = 0; a < w->rest.naff; ++a)
    memset(s->dof_fixed + 3 * (size_t)w->aff_pv[4 * a],
           w->aff_fixed[a] || (s->nfrozen > 0 && s->frozen[w->rest.aff_body[a]]), 12);
  ipc_sparse_set_mask(s->asm_, s->dof_fixed);
  if (s->tet_set < 0 && w->m.ntets > 0)
    s->tet_set = ipc_sparse_add_element_set(s->asm_, w->m.ntets, 4, w->m.tets);
  if (s->aff_set < 0 && w->rest.naff > 0)
    s->aff_set = ipc_sparse_add_element_set(s->asm_, w->rest.naff, 4, w->aff_pv);
}

/* 1 for an edge-edge contact whose edges are nearly parallel at x (|ea x eb|^2 < eps_x: its
   barrier is mollified). The original IPC keeps these pairs apart from its constraint set
   (SelfCollisionHandler's paraEE set) and leaves them out of its kappa rules (initKappa,
   postLineSearch); on IPC's Newton path so does ipcc */
static int ee_mollified(const ipc_contact *c, const double *x) {
  if (c->kind != IPC_CONTACT_EE) return 0;
  const int *v = c->v;
  return ipc_ee_cross2(x + 3 * v[0], x + 3 * v[1], x + 3 * v[2], x + 3 * v[3], NULL, NULL) <
         c->eps_x;
}

/* the squared distance at x of a contact's primitives with the distance type it had when
   recorded (IPC's postLineSearch evaluates its watched constraints that way: a point-triangle
   pair recorded as point-edge stays point-edge) */
static double contact_d2_as_recorded(const ipc_contact *c, const ipc_contact_model *cm,
                                     const double *x) {
  const int *v = c->v;
#define XV(i) (x + 3 * v[i])
  switch (c->kind) {
    case IPC_CONTACT_PT:
      return ipc_pt_distance2(XV(0), XV(1), XV(2), XV(3), (ipc_pt_type)c->type, NULL, NULL);
    case IPC_CONTACT_EE:
      return ipc_ee_distance2(XV(0), XV(1), XV(2), XV(3), (ipc_ee_type)c->type, NULL, NULL);
    case IPC_CONTACT_PE:
      return ipc_pe_distance2(XV(0), XV(1), XV(2), (ipc_pe_type)c->type, NULL, NULL);
    default: {
      ipc_contact t = *c;
      return ipc_contact_distance2(&t, cm, x);
    }
  }
#undef XV
}

/* candidates within dhat at x into w->cand, timed into st: the pairs within dhat alone (the
   contact set is all they serve), through the narrowed search's superset where it still
   holds (a move of length zero) */
static void static_candidates(ipc_world *w, ipcc_step_stats *st) {
  const ipc_surface *sf = &w->m.surface;
  double t0 = ipc_now();
  ipc_broad_phase_narrowed(&w->cand, sf, w->s.x, w->s.x, w->dhat, NULL, sf->vert_obstacle, w->dhat);
  st->t_broad_phase += ipc_now() - t0;
}

/* the contacts' barrier gradients at kappa 1 into solver->cl (no vertex for a contact IPC's
   initKappa leaves out: on IPC's path the nearly parallel edge pairs, the mollified ones of
   its paraEE set, are not in its constraint set proper) */
static double kappa_range(void *vw, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  ipc_world *w = vw;
  contact_local *cl = w->solver->cl;
  double Hl[144];
  for (size_t k = begin; k < end; ++k) {
    const ipc_contact *c = &w->contacts.c[k];
    if (w->m.params.ipc_newton_path && ee_mollified(c, w->s.x))
      cl[k].nv = 0;
    else
      ipc_contact_local(c, &w->cm, w->s.x, 1.0, 0, &cl[k].nv, cl[k].verts, cl[k].g, Hl);
  }
  return 0.0;
}

/* kappa chosen at x as IPC does at a step's start (kappa.c): from w->kappa, the value balancing
   the barrier gradient against the rest of the incremental potential's over the contacts
   within dhat at x (scripted vertices, held on their targets in IPC, left out; on IPC's path also
   the nearly parallel edge pairs), clamped to the bounds of the current dhat */
void ipc_newton_choose_kappa(ipc_world *w, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  const ipc_model *m = &w->m;
  int n = m->nverts;
  ipc_kappa_bounds(&w->kappa_min, &w->kappa_max, m->bbox_diag, w->dhat, w->mean_mass);
  static_candidates(w, st);
  double d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
  s->static_fresh = 1;
  if (w->contacts.n > 0) w->min_d2 = d2;
  double h2 = w->c_elastic * w->h * w->h;
  size_t n3 = 3 * (size_t)w->nsys;
  memset(s->gB, 0, n3 * sizeof(double));
  memset(s->gE, 0, n3 * sizeof(double));
  /* the contacts' barrier gradients at kappa 1 in parallel, then added in order */
  ipc_reserve((void **)&s->cl, &s->cap_cl, w->contacts.n, sizeof(contact_local));
  ipc_parallel_sum(w->contacts.n, 64, kappa_range, w);
  for (size_t k = 0; k < w->contacts.n; ++k) {
    const contact_local *cl = &s->cl[k];
    for (int a = 0; a < cl->nv; ++a)
      for (int d = 0; d < 3; ++d) s->gB[3 * cl->verts[a] + d] += cl->g[3 * a + d];
  }
  if (w->contacts.n > 0) {
    ipc_newton_elastic_derivatives(w, w->s.x);
    for (int t = 0; t < m->ntets; ++t)
      for (int k = 0; k < 4; ++k)
        for (int d = 0; d < 3; ++d)
          s->gE[3 * m->tets[4 * t + k] + d] += h2 * w->tet_g[12 * (size_t)t + 3 * k + d];
    ipc_affine_world_pull(w, s->gB);
    ipc_affine_world_add(w, s->gE, NULL, -1);
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < 3; ++d) {
        if (w->fixed[i] || w->pre.scripted[i]) {
          s->gB[3 * i + d] = s->gE[3 * i + d] = 0;
        } else {
          s->gE[3 * i + d] += m->mass[i] * (w->s.x[3 * i + d] - w->xt[3 * i + d]);
        }
      }
    }
  }
  double start = w->kappa > 0 ? w->kappa : w->kappa_min;
  w->kappa = ipc_kappa_initial(s->gB, s->gE, n3, start, w->kappa_min, w->kappa_max);
}

/* candidates swept over x -> xe (boxes inflated by `inflation`: dhat when the line search
   will evaluate the barrier along the segment, 0 for CCD alone) into w->cand, and the CCD
   bound of that step; both timed into st */
double ipc_newton_swept_max_step(ipc_world *w, ipcc_step_stats *st, double inflation) {
  double t0 = ipc_now();
  ipc_broad_phase(&w->cand, &w->m.surface, w->s.x, w->xe, inflation);
  st->t_broad_phase += ipc_now() - t0;
  t0 = ipc_now();
  double toi = ipc_ccd_max_step(&w->cm, &w->cand, w->s.x, w->xe);
  st->t_ccd += ipc_now() - t0;
  return toi;
}

/* 1 when the Newton direction w->p at w->s.x can no longer be judged by the energy: its
   predicted decrease -g.p (the exact decrease of the quadratic model at alpha = 1 is half
   of it) is within the rounding error of evaluating the potential e0, a sum of
   non-negative terms whose computed value is off by up to a few thousand ulps of e0.
   Below that floor no backtracking line search can see a decrease, whatever the BLAS
   kernel that produced p; a tighter tolerance is not reachable from this state. */
static int at_rounding_floor(ipc_world *w, double e0) {
  /* the gradient's entries at the real vertices of affine bodies are zeros (moved onto the
     pseudo-vertices, ipc_affine_world_pull_skip): the sum over the others in the same order is
     the same */
  int np;
  const int *plain = plain_vertices(w, &np);
  double dec = 0;
  for (int k = 0; k < np; ++k)
    for (int d = 0; d < 3; ++d) dec -= w->g[3 * plain[k] + d] * w->p[3 * plain[k] + d];
  for (int i = 3 * w->m.nverts; i < 3 * w->nsys; ++i) dec -= w->g[i] * w->p[i];
  return dec <= 4096 * DBL_EPSILON * fabs(e0);
}

/* an island's line search: pending, accepted (a step above the tolerance), failed (no
   decrease found), done (no step: its last one found no decrease), last (took its last step,
   within the tolerance) */
enum { LS_PENDING, LS_ACCEPTED, LS_FAILED, LS_DONE, LS_LAST };

/* candidates of the whole Newton step into w->cand: boxes over x -> x + p inflated by dhat,
   and with affine bodies over x -> xe(1), the end of the curved step, grown by the sag of
   every curved trial up to it, so one broad phase serves every trial of the line search */
static void swept_candidates(ipc_world *w, ipcc_step_stats *st) {
  double t0 = ipc_now();
  int np;
  const int *plain = plain_vertices(w, &np); /* an affine body's are placed by the body below */
  for (int k = 0; k < np; ++k)
    for (int d = 0, v = plain[k]; d < 3; ++d)
      w->xe[3 * v + d] = w->s.x[3 * v + d] + w->p[3 * v + d];
  if (w->rest.naff > 0) {
    for (int a = 0; a < w->rest.naff; ++a)
      ipc_affine_curved_step(w->s.q + 12 * (size_t)a, w->adq + 12 * (size_t)a, 1.0,
                             w->aqe + 12 * (size_t)a);
    ipc_affine_world_positions(w, w->aqe, w->xe);
    ipc_affine_world_sag(w, 1.0, w->aff_grow);
  }
  const ipc_surface *sf = &w->m.surface;
  /* within a solve the trees of the last broad phase are refit (the solve's first one, at
     its start, is built afresh) */
  w->cand.refit = 1;
  const double *grow = w->rest.naff > 0 ? w->aff_grow : NULL;
  const unsigned char *passive = w->solver->nfrozen > 0 ? w->solver->passive : sf->vert_obstacle;
  /* with one step length for all, the pairs that stay beyond dhat all along the step (and
     beyond the distance the kappa update watches) can touch nothing the line search
     computes: dropped once here rather than skipped by every CCD pass and energy (over MPI
     ranks, by each rank before the pairs are gathered). With a step length per island the
     same holds within an island; the islands join every two bodies whose boxes swept in world
     coordinates meet (islands_begin), so two bodies in different islands stay beyond dhat
     at any step lengths, and two in one island take one */
  ipc_broad_phase_narrowed(&w->cand, sf, w->s.x, w->xe, w->dhat, grow, passive,
                           fmax(w->dhat, ipc_kappa_watch_distance(w->m.bbox_diag)));
  w->solver->nisl_pairs = 0;
  if (w->m.params.island_line_search)
    w->solver->nisl_pairs =
        ipc_broad_phase_body_pairs(&w->cand, sf, w->s.x, w->xe, w->dhat, grow, passive,
                                   &w->solver->isl_pairs, &w->solver->cap_isl_pairs);
  st->t_broad_phase += ipc_now() - t0;
}

/* the moving vertices, the islands of the step's candidates and lagged friction, and each
   island's largest vertex step into s->pmax */
static void islands_begin(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  int n = w->m.nverts;
  for (int i = 0; i < n; ++i) {
    int a = w->rest.naff > 0 ? w->rest.vert_aff[i] : -1;
    s->moving[i] = (a >= 0 ? !w->aff_fixed[a] : !w->fixed[i]) &&
                   !(s->nfrozen > 0 && s->frozen[w->m.surface.vert_body[i]]);
  }
  ipc_islands_build(&s->isl, &w->m, s->moving, &w->cand, &w->fric, s->isl_pairs, s->nisl_pairs,
                    !w->m.params.island_line_search);
  if (!s->e0) { /* islands are at most the bodies, plus the slot of what does not move */
    size_t k = (size_t)w->m.nbodies + 1;
    s->e0 = IPC_NEW(double, k);
    s->e1 = IPC_NEW(double, k);
    s->alpha = IPC_NEW(double, k);
    s->pmax = IPC_NEW(double, k);
    s->toi = IPC_NEW(double, k);
    s->dec = IPC_NEW(double, k);
    s->state = IPC_NEW(unsigned char, k);
    s->ccd_ok = IPC_NEW(unsigned char, k);
    s->check = IPC_NEW(unsigned char, k);
    s->frozen = IPC_NEW0(unsigned char, k);
    s->thaw = IPC_NEW0(unsigned char, k);
    s->held = IPC_NEW0(unsigned char, k);
  }
  for (int i = 0; i < s->isl.n; ++i) s->pmax[i] = 0;
  for (int v = 0; v < n; ++v) { /* p is finite */
    int i = s->isl.vert[v];
    if (i < 0) continue;
    for (int d = 0; d < 3; ++d) {
      double a = fabs(w->p[3 * v + d]);
      if (a > s->pmax[i]) s->pmax[i] = a;
    }
  }
}

/* the trial point: each island's vertices at x + alpha_i p, its affine bodies along their
   curved step to alpha_i (into xe, aqe); what does not move stays */
static void set_trial(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  const ipc_islands *is = &s->isl;
  int np;
  const int *plain = plain_vertices(w, &np); /* an affine body's are placed by the body below */
  for (int k = 0; k < np; ++k) {
    int v = plain[k], i = is->vert[v];
    double al = i >= 0 ? s->alpha[i] : 0.0;
    for (int d = 0; d < 3; ++d) w->xe[3 * v + d] = w->s.x[3 * v + d] + al * w->p[3 * v + d];
  }
  if (w->rest.naff == 0) return;
  for (int a = 0; a < w->rest.naff; ++a) {
    int i = is->body[w->rest.aff_body[a]];
    const double *q = w->s.q + 12 * (size_t)a;
    if (i < 0)
      memcpy(w->aqe + 12 * (size_t)a, q, 12 * sizeof(double));
    else
      ipc_affine_curved_step(q, w->adq + 12 * (size_t)a, s->alpha[i], w->aqe + 12 * (size_t)a);
  }
  ipc_affine_world_positions(w, w->aqe, w->xe);
}

/* 1 when island i's step has become too small to matter: it stays where it is */
static int step_too_small(const ipc_world *w, int i, double tol) {
  const ipc_newton_solver *s = w->solver;
  /* IPC halves without a floor (until the step length is 0) */
  if (w->m.params.ipc_newton_path) return s->alpha[i] < 1e-20;
  return s->alpha[i] * s->pmax[i] < 1e-3 * tol || s->alpha[i] < 1e-20;
}

/* s->dec[i] = -g.p over the DOFs of island i (the decrease a unit step predicts to first
   order; affine bodies by their 12 generalized coordinates) */
static void island_decrease(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  const ipc_islands *is = &s->isl;
  int np;
  const int *plain = plain_vertices(w, &np);
  for (int i = 0; i < is->n; ++i) s->dec[i] = 0;
  for (int k = 0; k < np; ++k) {
    int v = plain[k], i = is->vert[v];
    if (i < 0) continue;
    for (int d = 0; d < 3; ++d) s->dec[i] -= w->g[3 * v + d] * w->p[3 * v + d];
  }
  for (int a = 0; a < w->rest.naff; ++a) {
    int i = is->body[w->rest.aff_body[a]];
    if (i < 0) continue;
    size_t o = 3 * (size_t)w->aff_pv[4 * a];
    for (int k = 0; k < 12; ++k) s->dec[i] -= w->g[o + k] * w->p[o + k];
  }
}

/* the CCD-filtered backtracking line search of each island (islands.h) along w->p from the
   energies s->e0 at x: each island starts at alpha 1, is cut to ccd_scale times its time of
   impact until its step is collision-free (the chord of each curved affine trial checked on
   its own; a straight step once, its shorter trials lie on it), and halved until its energy
   decreases. The trial point ends in xe / aqe with its contact set in s->next and smallest
   squared distance in *min_d2. Per island, an island whose step is within the tolerance takes
   it as its last, as the global search takes the last direction of a solve (LS_LAST when it
   decreased the energy, else LS_DONE at x). Returns 0 when some island took a step, 1 when none
   did (s->state tells which islands failed) */
static int line_search(ipc_world *w, ipcc_step_stats *st, double tol, double alpha0,
                       double *min_d2) {
  ipc_newton_solver *s = w->solver;
  const ipc_islands *is = &s->isl;
  int ni = is->n, curved = w->rest.naff > 0;
  double scale = w->m.params.ccd_scale;
  int per_island = w->m.params.island_line_search;
  for (int i = 0; i < ni; ++i) {
    s->alpha[i] = per_island ? 1.0 : alpha0;
    s->state[i] = LS_PENDING;
    s->ccd_ok[i] = 0;
  }
  int evaluated = 0; /* s->next and *min_d2 hold the current trial point */
  int ccd_cut = alpha0 < 1.0;
  for (;;) {
    int need = 0;
    for (int i = 0; i < ni; ++i) need |= s->check[i] = s->state[i] == LS_PENDING && !s->ccd_ok[i];
    if (need) {
      set_trial(w);
      double tc = ipc_now();
      ipc_ccd_max_step_islands(&w->cm, &w->cand, w->s.x, w->xe, is->vert, ni, s->check, s->toi);
      st->t_ccd += ipc_now() - tc;
      int cut = 0;
      for (int i = 0; i < ni; ++i) {
        if (!s->check[i]) continue;
        double t = s->toi[i];
        if (s->alpha[i] * t < st->ccd_alpha_min) st->ccd_alpha_min = s->alpha[i] * t;
        if (!(t < 1.0)) {
          s->ccd_ok[i] = 1;
          continue;
        }
        s->alpha[i] *= scale * t;
        cut = ccd_cut = 1;
        evaluated = 0;
        if (step_too_small(w, i, tol)) {
          s->state[i] = LS_FAILED;
          s->alpha[i] = 0.0;
        } else {
          s->ccd_ok[i] = !curved; /* a shorter straight step lies on the checked one */
        }
      }
      if (cut && curved) continue;
    }
    int pending = 0;
    for (int i = 0; i < ni; ++i) pending |= s->state[i] == LS_PENDING;
    if (!pending) break;
    set_trial(w);
    ++st->line_search_steps;
    potential_split(w, w->xe, w->aqe, is, s->e1, min_d2, &s->next);
    evaluated = 1;
    pending = 0;
    for (int i = 0; i < ni; ++i) {
      if (s->state[i] != LS_PENDING) continue;
      if (s->e1[i] <= s->e0[i]) {
        s->state[i] = LS_ACCEPTED;
        continue;
      }
      s->alpha[i] *= 0.5;
      ++st->backtracks;
      evaluated = 0;
      if (step_too_small(w, i, tol)) {
        s->state[i] = LS_FAILED;
        s->alpha[i] = 0.0;
      } else {
        s->ccd_ok[i] &= !curved;
        pending = 1;
      }
    }
    if (!pending) break;
  }
  st->ccd_cuts += ccd_cut;
  /* a step within the tolerance is an island's last (the global search's is the solve's): it
     settles after it, and finding no decrease along it is no failure */
  int progress = 0;
  for (int i = 0; i < ni; ++i) {
    if (per_island && s->pmax[i] <= tol)
      s->state[i] = s->state[i] == LS_ACCEPTED ? LS_LAST : LS_DONE;
    progress |= s->state[i] == LS_ACCEPTED || s->state[i] == LS_LAST;
  }
  if (!progress) return 1;
  if (!evaluated) { /* some island fell back to x after the last evaluation */
    set_trial(w);
    double tb = ipc_now();
    *min_d2 = ipc_contacts_collect(&s->next, &w->cm, &w->cand, w->xe);
    st->t_broad_phase += ipc_now() - tb;
  }
  return 0;
}

typedef struct thaw_ctx {
  ipc_newton_solver *s;
  const int *vert_body;
  int thawed;
} thaw_ctx;

/* a term with a vertex that has just moved (its island took a step) thaws the frozen bodies
   among its vertices (not those per-body freezing holds: ipc_newton_rehold judges them) */
static void thaw_term(const int *v, int nv, void *vctx) {
  thaw_ctx *t = vctx;
  ipc_newton_solver *s = t->s;
  int any = 0;
  for (int k = 0; k < nv; ++k) {
    int i = s->isl.vert[v[k]];
    any |= i >= 0 && s->state[i] == LS_ACCEPTED;
  }
  if (!any) return;
  for (int k = 0; k < nv; ++k) {
    int b = t->vert_body[v[k]];
    if (s->frozen[b] && !s->held[b] && !s->thaw[b]) {
      s->thaw[b] = 1;
      t->thawed = 1;
    }
  }
}

/* after a line search per island: freezes the bodies of every island that took its last step
   (within the tolerance) or no step (no decrease found along it) and thaws every frozen body
   that a candidate pair or lagged friction pair of this step ties to a vertex that moved by a
   step above the tolerance: its forces may have changed (after a last step, as after the
   global search's, nothing is judged again). An island frozen on no decrease is within the answer's
   tolerance when its step is within ten times the tolerance or its predicted decrease is below the
   rounding error of its energy (newton_floor); otherwise *stuck is set. Returns 1 while some body
   is active (moving this step and not frozen) or thawed, 0 when the solve has converged */
static int settle_islands(ipc_world *w, double tol, int *stuck, ipcc_step_stats *st) {
  ipc_newton_solver *s = w->solver;
  const ipc_islands *is = &s->isl;
  const ipc_model *m = &w->m;
  const int *vb = m->surface.vert_body;
  int nb = m->nbodies, ni = is->n;
  memset(s->thaw, 0, (size_t)nb);
  thaw_ctx t = {s, vb, 0};
  if (s->nfrozen > 0) ipc_islands_terms(m, &w->cand, &w->fric, thaw_term, &t);
  /* the predicted decrease -g.p of each island that found none */
  int any_failed = 0;
  for (int i = 0; i < ni; ++i) any_failed |= s->state[i] == LS_FAILED;
  if (any_failed) {
    island_decrease(w);
    for (int i = 0; i < ni; ++i) {
      if (s->state[i] != LS_FAILED) continue;
      if (s->dec[i] <= 4096 * DBL_EPSILON * fabs(s->e0[i]))
        st->newton_floor = 1;
      else if (s->pmax[i] > 10 * tol)
        *stuck = 1;
    }
  }
  int active = 0;
  for (int b = 0; b < nb; ++b) {
    int i = is->body[b];
    if (s->thaw[b]) s->frozen[b] = 0;
    if (i < 0) continue;
    if (s->state[i] == LS_DONE || s->state[i] == LS_FAILED || s->state[i] == LS_LAST)
      s->frozen[b] = 1;
    else
      active = 1;
  }
  ipc_newton_apply_frozen(w);
  /* the accepted point's contacts left out the pairs of a thawed body with a frozen one (no
     vertex of theirs moved): the next direction needs their barrier */
  if (t.thawed && s->next_valid) {
    ipc_newton_contacts_of_thawed(w, st);
    ++s->settle_thaws;
  }
  return active || t.thawed;
}

/* a point for each vertex of the system whose unknowns the reduced system holds, into xyz, when
   its unknowns are whole vertices in vertex order (x, y, z of the first free vertex, then of
   the next ...): a real vertex's position, an affine body's pseudo-vertices at the body's first
   vertex; their number, else 0 (a vertex with only some coordinates fixed) */
static int free_block_points(const ipc_world *w, double *xyz) {
  const int *map = ipc_sparse_dof_map(w->solver->asm_);
  int nb = 0;
  for (int v = 0; v < w->nsys; ++v) {
    const int *m = map + 3 * (size_t)v;
    if (m[0] < 0 && m[1] < 0 && m[2] < 0) continue;
    if (m[0] != 3 * nb || m[1] != 3 * nb + 1 || m[2] != 3 * nb + 2) return 0;
    int p = v;
    if (v >= w->m.nverts) /* pseudo-vertex 4a + k of affine body a */
      p = w->m.bodies[w->rest.aff_body[(v - w->m.nverts) / 4]].v0;
    memcpy(xyz + 3 * (size_t)nb, w->s.x + 3 * (size_t)p, 3 * sizeof(double));
    ++nb;
  }
  return 3 * nb == ipc_sparse_num_free(w->solver->asm_) ? nb : 0;
}

/* the free vertices' positions (free_block_points) when the system's unknowns are real
   vertices only, else 0 (affine bodies' pseudo-vertices have no position) */
static int free_vertex_coordinates(const ipc_world *w, double *xyz) {
  return w->nsys == w->m.nverts ? free_block_points(w, xyz) : 0;
}

/* what the linear solver takes from the positions: the free vertices' for multigrid's
   near-null space (the rigid-body modes), and over several MPI ranks a point per free vertex
   for the rows' layout along a space-filling curve (petsc_solver.c), which the split assembly
   reads */
static void give_coordinates(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  if (ipc_linear_solver_iterative(s->ls)) {
    int nb = free_vertex_coordinates(w, s->xyz);
    ipc_linear_solver_set_coordinates(s->ls, nb, nb ? s->xyz : NULL);
  }
  if (ipc_rank_count() > 1) {
    ipc_reserve((void **)&s->pts, &s->cap_pts, 3 * (size_t)w->nsys + 1, sizeof(double));
    int nb = free_block_points(w, s->pts);
    ipc_linear_solver_set_layout_points(s->ls, nb, nb ? s->pts : NULL);
  }
}

/* entries [begin, end) of the direction p: how many are not finite */
static double nonfinite_range(void *p, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const double *d = p;
  double r = 0.0;
  for (size_t i = begin; i < end; ++i) r += !isfinite(d[i]);
  return r;
}

/* entries [begin, end) of the direction p: minus the largest magnitude (ipc_parallel_min's
   smallest is minus the largest) */
static double largest_range(void *p, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const double *d = p;
  double r = 0.0;
  for (size_t i = begin; i < end; ++i) {
    double a = fabs(d[i]);
    if (a > r) r = a;
  }
  return -r;
}

/* assembles g and the projected H at x (contacts in w->contacts) and solves H p = -g into w->p
   (affine bodies' vertices moved by J_i dq); *pmax = |p|_inf. Returns 0, 1 on a failure
   (err set), 2 when no unknown is free */
static int newton_direction(ipc_world *w, ipcc_step_stats *st, ipcc_error *err, double *pmax_out) {
  ipc_newton_solver *s = w->solver;
  int n = w->m.nverts;
  /* over MPI ranks, before the assembly, which asks it whether it adds the ranks' shares
     and which rank's rows hold each unknown (assembly_split) */
  if (!s->ls && ipc_mpi_splitting()) {
    ipcc_linear_solver_kind kind = ipc_linear_solver_pick(w->m.params.linear_solver);
    s->ls = ipc_linear_solver_create(kind, err);
    if (!s->ls) return 1;
  }
  if (s->ls) give_coordinates(w);
  ipc_newton_assemble(w, st);
  ipc_csc A;
  /* The first assembly of a step starts the sparse pattern afresh (exactly what it adds), so
     the pattern, and with it the bits of every solve, depend on the state at the start of the
     step only: a run resumed from a checkpoint repeats an uninterrupted one exactly.
     (Reserving the blocks of all candidate pairs whenever contacts bring new blocks cut
     CHOLMOD's analyses on the mat twist from 633 to 51 in 125 steps, but multiplied the
     factorization's flops by 5 once the mat is wound up, so the pattern holds only what is
     assembled.) */
  int fresh = s->fresh;
  if (fresh) ipc_sparse_set_policy(s->asm_, IPC_SPARSE_EXACT);
  int changed = ipc_sparse_finish(s->asm_, &A);
  if (fresh) ipc_sparse_set_policy(s->asm_, IPC_SPARSE_GROW);
  s->fresh = 0;
  int nf = ipc_sparse_num_free(s->asm_);
  if (nf == 0) return 2;
  ipc_sparse_gather(s->asm_, w->g, s->rhs);
  s->g2 = 0;
  for (int i = 0; i < nf; ++i) {
    s->rhs[i] = -s->rhs[i];
    s->g2 += s->rhs[i] * s->rhs[i];
  }
  int created = !s->ls;
  if (created) {
    ipcc_linear_solver_kind kind = ipc_linear_solver_pick(w->m.params.linear_solver);
    s->ls = ipc_linear_solver_create(kind, err);
    if (!s->ls) return 1;
  }
  ipc_linear_solver_set_partial(s->ls, s->split, s->split ? s->touched : NULL);
  /* contacts change the pattern at nearly every iteration; the fill-reducing ordering
     chosen at the step's first analysis serves the others (same flops within 10%) */
  if (fresh) ipc_linear_solver_new_ordering(s->ls);
  /* an iterative solve stops once its error is within 1% of the Newton tolerance or of the
     step it found: |p - p_exact|_inf <= 0.01 max(tol, |p|_inf), so the test |p|_inf <= tol
     below takes the exact direction's decision unless that direction lies within 1% of tol,
     and every direction is within 1% of Newton's (0.1 cost 12% fewer Krylov iterations on a
     ball dropped on a box, but up to 3 more Newton iterations in a step). The Hessian is the
     lumped mass (and penalties) plus PSD terms, so the smallest of those diagonal entries
     bounds its smallest eigenvalue from below (affine bodies' DOFs, whose inertia is in
     their elements, are not covered) */
  if (ipc_linear_solver_iterative(s->ls)) {
    ipc_solve_accuracy acc = {0.01 * w->m.params.newton_tol * w->m.bbox_diag * w->h, 0.01, 0};
    double dmin = INFINITY;
    for (int i = 0; i < 3 * n; ++i)
      if (s->diag[i] > 0) dmin = fmin(dmin, s->diag[i]);
    acc.lambda_min = isfinite(dmin) ? dmin : 0;
    ipc_linear_solver_set_accuracy(s->ls, &acc);
  }
  if (created) give_coordinates(w);
  double t0 = ipc_now();
  ipc_linear_solver_stats cs0, cs1;
  ipc_linear_solver_get_stats(s->ls, &cs0);
  ipc_factor_status fs = ipc_linear_solver_factor(s->ls, &A, changed, 0.0);
  if (fs == IPC_FACTOR_OK) fs = ipc_linear_solver_solve(s->ls, s->rhs, s->sol);
  /* the projected Hessian plus the mass is positive definite in exact arithmetic; a barrier
     term many orders above the rest can lose that to round-off: shift the diagonal by a
     growing fraction of its largest entry until the factorization (or, for an iterative
     solver, the solve) succeeds */
  if (fs == IPC_FACTOR_NOT_PD) {
    double dmax = 0;
    if (s->split) { /* the diagonal of the ranks' sum; its largest entry the same on all */
      double *dg = IPC_NEW(double, (size_t)A.n + 1);
      for (int j = 0; j < A.n; ++j) dg[j] = A.val[A.colptr[j + 1] - 1];
      ipc_mpi_reduce(dg, (size_t)A.n, IPC_MPI_SUM);
      for (int j = 0; j < A.n; ++j) dmax = fmax(dmax, fabs(dg[j]));
      ipc_free(dg);
      ipc_mpi_reduce(&dmax, 1, IPC_MPI_MAX);
    } else {
      for (int j = 0; j < A.n; ++j) dmax = fmax(dmax, fabs(A.val[A.colptr[j + 1] - 1]));
    }
    for (double f = 1e-12; fs == IPC_FACTOR_NOT_PD && f <= 1e-2; f *= 100) {
      fs = ipc_linear_solver_factor(s->ls, &A, 0, f * dmax);
      ++st->factor_shifts;
      if (fs == IPC_FACTOR_OK) fs = ipc_linear_solver_solve(s->ls, s->rhs, s->sol);
    }
  }
  int ok = fs == IPC_FACTOR_OK;
  st->t_factor += ipc_now() - t0;
  ipc_linear_solver_get_stats(s->ls, &cs1);
  st->analyses += cs1.analyses - cs0.analyses;
  st->linear_iterations += cs1.iterations - cs0.iterations;
  st->t_analyze += cs1.analyze_seconds - cs0.analyze_seconds;
  if (!ok) {
    if (ipc_linear_solver_iterative(s->ls))
      ipc_error_set(err, IPCC_ERR_SIM,
                    "step %d: the Newton system could not be solved (newton.linear_solver \"%s\": "
                    "the Krylov solve did not converge)",
                    w->s.step + 1,
                    ipc_linear_solver_kind_name(ipc_linear_solver_pick(w->m.params.linear_solver)));
    else
      ipc_error_set(err, IPCC_ERR_SIM, "step %d: the Newton system could not be factored",
                    w->s.step + 1);
    return 1;
  }
  ipc_sparse_scatter(s->asm_, s->sol, w->p);
  if (ipc_parallel_sum(3 * (size_t)w->nsys, 16384, nonfinite_range, w->p) > 0) {
    ipc_error_set(err, IPCC_ERR_SIM, "step %d: the Newton direction is not finite", w->s.step + 1);
    return 1;
  }
  /* affine vertices move by J_i dq: the step and its size are judged in vertex space */
  ipc_affine_world_direction(w, w->p);
  *pmax_out = n > 0 ? -ipc_parallel_min(3 * (size_t)n, 16384, largest_range, w->p) : 0.0;
  return 0;
}

/* after a line search accepted x (its contacts in s->next): kappa doubles when a pair watched
   after the previous iteration is no farther apart now (a pair of frozen bodies has not
   moved), then the pairs of x closer than the watch distance are watched (IPC's
   postLineSearch, kappa.c) */
static void watch_kappa(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  const int ipc_path = w->m.params.ipc_newton_path;
  int closer = 0;
  for (size_t k = 0; k < s->watch.n && !closer; ++k) {
    ipc_contact c = s->watch.c[k];
    if (s->nfrozen > 0 && ipc_newton_contact_frozen(s, &c)) continue; /* held by body freezing */
    closer = (ipc_path ? contact_d2_as_recorded(&c, &w->cm, w->s.x)
                       : ipc_contact_distance2(&c, &w->cm, w->s.x)) <= s->watch.c[k].d2;
  }
  if (closer) w->kappa = ipc_kappa_doubled(w->kappa, w->kappa_max);
  ipc_newton_watch_next(w);
}

void ipc_newton_watch_next(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  const int ipc_path = w->m.params.ipc_newton_path;
  double dw = ipc_kappa_watch_distance(w->m.bbox_diag);
  s->watch.n = 0;
  for (size_t k = 0; k < s->next.n; ++k) {
    if (!(s->next.c[k].d2 < dw * dw)) continue;
    if (ipc_path && ee_mollified(&s->next.c[k], w->s.x)) continue;
    ipc_reserve((void **)&s->watch.c, &s->watch.cap, s->watch.n + 1, sizeof(ipc_contact));
    s->watch.c[s->watch.n++] = s->next.c[k];
  }
}

/* IPCC_TRACE: the bodies whose largest vertex move along the direction w->p exceeds tol, the
   body of the largest move and the largest move of any other body */
static void bodies_over(const ipc_world *w, double tol, int *over, int *worst, double *second) {
  const ipc_model *m = &w->m;
  double *bm = IPC_NEW0(double, (size_t)m->nbodies);
  for (int v = 0; v < m->nverts; ++v) {
    int b = m->surface.vert_body[v];
    for (int d = 0; d < 3; ++d) bm[b] = fmax(bm[b], fabs(w->p[3 * v + d]));
  }
  *over = 0;
  *worst = -1;
  for (int b = 0; b < m->nbodies; ++b) {
    *over += bm[b] > tol;
    if (*worst < 0 || bm[b] > bm[*worst]) *worst = b;
  }
  *second = 0;
  for (int b = 0; b < m->nbodies; ++b)
    if (b != *worst) *second = fmax(*second, bm[b]);
  ipc_free(bm);
}

/* IPCC_TRACE: the accepted step's decrease of the energy over the decrease its first-order
   term predicts (alpha g.p); a quadratic model that fits gives 1 - alpha / 2 */
static double decrease_agreement(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  island_decrease(w);
  double got = 0, predicted = 0;
  for (int i = 0; i < s->isl.n; ++i) {
    if (s->state[i] != LS_ACCEPTED && s->state[i] != LS_LAST) continue;
    got += s->e0[i] - s->e1[i];
    predicted += s->alpha[i] * s->dec[i];
  }
  return predicted > 0 ? got / predicted : 0.0;
}

/* newton.body_freezing, or IPCC_BODY_FREEZING=0 / 1 (a developer's switch, for comparing the
   two on a run resumed from a checkpoint, whose scene is stored in it) */
static int body_freezing_on(const ipc_model *m) {
  static int env = -2;
  if (env == -2) {
    const char *e = getenv("IPCC_BODY_FREEZING");
    env = e ? atoi(e) != 0 : -1;
  }
  return env >= 0 ? env : m->params.body_freezing;
}

/* qsort order of contacts by pair: kind, vertices, and a plane's index */
static int contact_order(const void *pa, const void *pb) {
  const ipc_contact *a = pa, *b = pb;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  for (int k = 0; k < 4; ++k)
    if (a->v[k] != b->v[k]) return a->v[k] < b->v[k] ? -1 : 1;
  int pa_ = a->kind == IPC_CONTACT_PLANE ? a->plane : 0,
      pb_ = b->kind == IPC_CONTACT_PLANE ? b->plane : 0;
  return (pa_ > pb_) - (pa_ < pb_);
}

/* tests (verify_next): the contacts at x over every pair with a vertex of a body that is not
   frozen, searched afresh, against those the iteration took from the accepted point */
static void verify_next_contacts(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  const ipc_surface *sf = &w->m.surface;
  ipc_candidates cand = {0};
  ipc_contact_set all = {0}, have = {0};
  ipc_broad_phase_passive(&cand, sf, w->s.x, NULL, w->dhat, NULL,
                          s->nfrozen > 0 ? s->passive : sf->vert_obstacle);
  ipc_contacts_collect(&all, &w->cm, &cand, w->s.x);
  have.n = w->contacts.n;
  have.c = IPC_NEW(ipc_contact, have.n + 1);
  if (have.n > 0) memcpy(have.c, w->contacts.c, have.n * sizeof(ipc_contact));
  if (all.n > 1) qsort(all.c, all.n, sizeof(ipc_contact), contact_order);
  if (have.n > 1) qsort(have.c, have.n, sizeof(ipc_contact), contact_order);
  size_t j = 0;
  for (size_t i = 0; i < all.n; ++i) {
    while (j < have.n && contact_order(&have.c[j], &all.c[i]) < 0) ++j;
    s->next_missing += j == have.n || contact_order(&have.c[j], &all.c[i]) != 0;
  }
  ++s->next_checked;
  ipc_free(have.c);
  ipc_contact_set_free(&all);
  ipc_candidates_free(&cand);
}

/* Newton iterations with the current fixed set and penalties; returns 0 converged (or at
   the rounding floor), 1 failed (err set), 2 stuck: no decrease well above the floor */
static int newton_iterate(ipc_world *w, ipcc_step_stats *st, int *iters_left, ipcc_error *err) {
  const ipc_model *m = &w->m;
  ipc_newton_solver *s = w->solver;
  int n = m->nverts, stuck = 0;
  double tol = m->params.newton_tol * m->bbox_diag * w->h;
  /* per-body freezing (body_freezing.c) on a scene of several bodies, not on IPC's own
     scripts (their iterates stay IPC's) nor over MPI ranks; with islands, inside the islands
     still moving (ipc_newton_rehold) */
  int freezing = body_freezing_on(m) && !m->params.ipc_newton_path && !w->mbc.on &&
                 m->nbodies > 1 && !ipc_mpi_splitting();
  ipc_newton_update_mask(w);
  if (!s->static_fresh) static_candidates(w, st);
  s->static_fresh = 0;
  s->watch.n = 0;
  int iteration = 0;
  double e0_kept[2] = {0, 0},
         e0_kappa = -1.0; /* energies at x (global line search) and their kappa */
  s->next_valid = 0;
  for (;;) {
    double d2;
    if (s->next_valid) { /* the accepted line-search point: its contacts are known */
      ipc_contact_set t = w->contacts;
      w->contacts = s->next;
      s->next = t;
      d2 = s->next_min_d2;
      s->next_valid = 0;
      if (s->verify_next) verify_next_contacts(w);
    } else {
      d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
    }
    w->min_d2 = d2;
    /* IPCC_TRACE: the iteration's seconds, in all and by phase */
    double tr0[5] = {w->log_newton ? ipc_now() : 0.0, st->t_broad_phase, st->t_ccd, st->t_assembly,
                     st->t_factor};
    if ((int)w->contacts.n > st->contacts_max) st->contacts_max = (int)w->contacts.n;
    if (w->kappa == 0) w->kappa = w->kappa_min; /* not chosen (tests calling in directly) */
    if (*iters_left <= 0) {
      st->newton_capped = 1;
      return 0;
    }
    if (w->log_newton > 1)
      for (size_t k = 0; k < w->contacts.n; ++k) {
        const ipc_contact *c = &w->contacts.c[k];
        fprintf(stderr, "  contact kind %d type %d v %d %d %d %d d2 %.17g eps_x %g\n", c->kind,
                c->type, c->v[0], c->v[1], c->v[2], c->v[3], c->d2, c->eps_x);
      }
    double pmax;
    int dr = newton_direction(w, st, err, &pmax);
    if (dr == 2) return 0;
    if (dr == 1) return 1;
    st->residual = pmax / w->h;
    if (w->trace_n < w->trace_cap) {
      w->trace_energy[w->trace_n] = potential(w, w->s.x, w->s.q, NULL);
      w->trace_step[w->trace_n++] = pmax;
    }
    ++st->newton_iterations;
    st->frozen_iterations += s->nfrozen > 0;
    --*iters_left;
    /* converged once the direction is below the tolerance: the global line search takes this
       last direction and then stops, as IPC does (its solveSub_IP tests the direction of the
       previous iteration, after taking it), so the answer is the minimiser's to second order
       in the tolerance. Per island, an island within the tolerance takes its last step and
       then leaves the solve (line_search, settle_islands) */
    int last = pmax <= tol;

    /* the swept candidates of the whole step and the islands they couple */
    swept_candidates(w, st);
    islands_begin(w);
    ipc_islands *is = &s->isl;
    /* the energy at x: with one island (the global line search), the accepted value of the
       last line search while kappa holds, as IPC keeps it */
    double e0;
    if (!m->params.island_line_search && e0_kappa == w->kappa && is->n == 1) {
      s->e0[0] = e0_kept[0];
      s->e0[1] = e0_kept[1];
      e0 = s->e0[0] + s->e0[1];
    } else {
      e0 = potential_split(w, w->s.x, w->s.q, is, s->e0, NULL, NULL);
    }
    if (!isfinite(e0)) {
      ipc_error_set(err, IPCC_ERR_SIM,
                    "step %d: the incremental potential is not finite (%g) at an accepted "
                    "state: inertia, gravity or forces overflow double precision",
                    w->s.step + 1, e0);
      return 1;
    }
    /* a step the energy cannot resolve: a line search would accept it on equal energies or
       reject it on noise, and iterating further only walks x by rounding noise */
    if (at_rounding_floor(w, e0)) {
      if (s->nfrozen > 0 && !m->params.island_line_search) { /* judged again over all bodies */
        ipc_newton_unfreeze(w, st);
        e0_kappa = -1.0;
        continue;
      }
      if (freezing && m->params.island_line_search && ipc_newton_release_held(w, st)) {
        e0_kappa = -1.0;
        continue;
      }
      st->newton_floor = 1;
      return 0;
    }
    double min_d2 = INFINITY;
    /* the global line search starts where IPC's does (ipc_ipc_step_bound) */
    double alpha0 = 1.0;
    if (!m->params.island_line_search) {
      double psurf;
      double tc = ipc_now();
      alpha0 = ipc_ipc_step_bound(&w->cm, &w->contacts, &w->cand, &w->cand_wide, w->s.x, w->xe,
                                  iteration == 0, m->params.ipc_newton_path, &psurf);
      st->t_ccd += ipc_now() - tc;
    }
    ++iteration;
    int rc = line_search(w, st, tol, alpha0, &min_d2);
    /* the scripted move's state, after IPC's line search; the solve converges only once it
       is complete */
    int mbc_changed = 0;
    if (w->log_newton) {
      int over, worst;
      double second, agree = rc == 0 ? decrease_agreement(w) : 0.0;
      bodies_over(w, tol, &over, &worst, &second);
      fprintf(stderr,
              "ipcc trace: step %d it %d kappa %.6g dhat2 %.6g |p|inf %.6g tol %.6g alpha0 %.6g "
              "alpha %.6g E %.10g -> %.10g min_d2 %.6g contacts %zu friction %zu |g|2 %.6g "
              "bodies>tol %d worst %d next %.3g tol decrease/predicted %.3g frozen %d "
              "seconds %.4f broad_phase %.4f ccd %.4f assembly %.4f factorization %.4f\n",
              w->s.step + 1, st->newton_iterations, w->kappa, w->dhat * w->dhat, pmax, tol, alpha0,
              rc == 0 ? s->alpha[0] : 0.0, e0, rc == 0 ? s->e1[0] + s->e1[1] : e0, min_d2,
              w->contacts.n, w->fric.n, s->g2, over, worst, second / tol, agree, s->nfrozen,
              ipc_now() - tr0[0], st->t_broad_phase - tr0[1], st->t_ccd - tr0[2],
              st->t_assembly - tr0[3], st->t_factor - tr0[4]);
    }
    e0_kappa = -1.0;
    if (rc == 0) {
      if (is->n == 1) { /* the accepted energies are the next iteration's at x */
        e0_kept[0] = s->e1[0];
        e0_kept[1] = s->e1[1];
        e0_kappa = w->kappa;
      }
      memcpy(w->s.x, w->xe, 3 * (size_t)n * sizeof(double));
      if (w->rest.naff > 0) memcpy(w->s.q, w->aqe, 12 * (size_t)w->rest.naff * sizeof(double));
      s->next_valid = 1;
      s->next_min_d2 = min_d2;
      if (m->params.kappa <= 0) watch_kappa(w);
    }
    if (w->mbc.on) {
      mbc_changed = ipc_mbc_update(w, pmax);
      if (mbc_changed) e0_kappa = -1.0;
      if (!w->mbc.held || w->mbc.done <= 1 - 1e-3) last = 0;
    }
    if (!m->params.island_line_search) {
      /* the bodies left in the system have converged or found no decrease: the next
         iteration is over every body, and decides (body_freezing.c) */
      if (s->nfrozen > 0 && (last || (rc != 0 && !mbc_changed))) {
        ipc_newton_unfreeze(w, st);
        e0_kappa = -1.0;
        continue;
      }
      if (last) {
        if (s->next_valid) { /* the solve ends at the accepted point: its contacts */
          ipc_contact_set t = w->contacts;
          w->contacts = s->next;
          s->next = t;
          w->min_d2 = s->next_min_d2;
          s->next_valid = 0;
        }
        w->contacts_at_x = 1; /* an iteration over every body's contacts (none frozen) */
        return 0;
      }
      /* no decrease along a step above the tolerance although the model predicts one above
         the rounding floor: converged if within ten times the tolerance (the barrier's
         curvature changes faster than the quadratic model there), otherwise stuck */
      if (rc != 0 && !mbc_changed) return pmax <= 10 * tol ? 0 : 2;
      if (rc == 0 && freezing && ipc_newton_refreeze(w, tol, st)) e0_kappa = -1.0;
      continue;
    }
    /* islands: the settled ones leave the solve until an active body comes near; bodies held
       by per-body freezing are released before the solve may end, and the next iteration
       judges them */
    int failed = 0, holding = 0;
    for (int i = 0; i < is->n; ++i) failed |= s->state[i] == LS_FAILED;
    for (int b = 0; freezing && b < m->nbodies && !holding; ++b) holding = s->held[b];
    if (holding && failed) {
      /* no decrease found with bodies held: judged again over every body, as the global
         search does (the islands frozen on the way too) */
      ipc_newton_unfreeze(w, st);
      e0_kappa = -1.0;
      continue;
    }
    int active = settle_islands(w, tol, &stuck, st);
    if (!active) {
      if (freezing && !stuck && ipc_newton_release_held(w, st)) {
        e0_kappa = -1.0;
        continue;
      }
      return stuck ? 2 : 0;
    }
    if (rc == 0 && freezing && ipc_newton_rehold(w, tol, st)) e0_kappa = -1.0;
    if (rc != 0) s->next_valid = 0;
  }
}

int ipc_newton_direction_converged(ipc_world *w, ipcc_step_stats *st, ipcc_error *err) {
  const ipc_model *m = &w->m;
  ipc_newton_update_mask(w);
  static_candidates(w, st);
  w->min_d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
  double pmax;
  int dr = newton_direction(w, st, err, &pmax);
  if (dr == 1) return -1;
  return dr == 2 || pmax <= m->params.newton_tol * m->bbox_diag * w->h;
}

/* the status of a failed solve: bad input when the scene's linear solver could not be created
   (newton.linear_solver: a PETSc solver in a build without PETSc, options PETSc rejects),
   else a failed simulation */
static ipcc_status solve_failure(const ipcc_error *err) {
  return err && err->status == IPCC_ERR_INPUT ? IPCC_ERR_INPUT : IPCC_ERR_SIM;
}

/* newton_iterate with every body active at the start; when islands were frozen on the way,
   the contact set and closest distance at the end are taken again over all pairs (the
   swept candidates left out those between frozen bodies) */
static int newton_solve(ipc_world *w, ipcc_step_stats *st, int *iters_left, ipcc_error *err) {
  ipc_newton_solver *s = w->solver;
  s->nfrozen = 0;
  if (s->frozen) memset(s->frozen, 0, (size_t)w->m.nbodies);
  if (s->held) memset(s->held, 0, (size_t)w->m.nbodies);
  w->contacts_at_x = 0;
  int rc = newton_iterate(w, st, iters_left, err);
  if (s->nfrozen > 0) {
    s->nfrozen = 0;
    memset(s->frozen, 0, (size_t)w->m.nbodies);
    memset(s->held, 0, (size_t)w->m.nbodies);
    ipc_newton_update_mask(w);
    if (rc != 1) {
      static_candidates(w, st);
      w->min_d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
    }
  }
  return rc;
}

/* moves the free vertices from x towards x + h v (IPCC_WARM_VELOCITY) or the inertial
   prediction xt (IPCC_WARM_INERTIAL), as far as CCD allows (times ccd_scale) and only if
   the incremental potential decreases (halving once). returns 1 if moved */
static int warm_start(ipc_world *w, ipcc_step_stats *st) {
  const ipc_model *m = &w->m;
  int n = m->nverts, any = 0, inertial = m->params.warm_start == IPCC_WARM_INERTIAL;
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      double pi = 0.0;
      if (!w->fixed[i] && m->mass[i] > 0)
        pi = inertial ? w->xt[3 * i + d] - w->s.x[3 * i + d] : w->h * w->s.v[3 * i + d];
      w->p[3 * i + d] = pi;
      w->xe[3 * i + d] = w->s.x[3 * i + d] + pi;
      if (pi != 0.0) any = 1;
    }
  if (!any) return 0;
  /* affine bodies are not warm-started: they are fixed here and keep their q */
  if (w->rest.naff > 0) memcpy(w->aqe, w->s.q, 12 * (size_t)w->rest.naff * sizeof(double));
  double toi = ipc_newton_swept_max_step(w, st, w->dhat);
  double alpha = toi < 1.0 ? m->params.ccd_scale * toi : 1.0;
  if (!(alpha > 0)) return 0;
  /* before the first contact kappa is still 0 (set when contacts appear): judge the move
     with the smallest barrier stiffness, so it cannot run into a near-contact for free */
  double kappa = w->kappa;
  if (w->kappa == 0) w->kappa = w->kappa_min;
  double e0 = potential(w, w->s.x, w->s.q, NULL);
  int moved = 0;
  for (int k = 0; k < 2 && !moved; ++k, alpha *= 0.5) {
    for (int i = 0; i < 3 * n; ++i) w->xe[i] = w->s.x[i] + alpha * w->p[i];
    ++st->line_search_steps;
    if (potential(w, w->xe, w->aqe, NULL) < e0) {
      memcpy(w->s.x, w->xe, 3 * (size_t)n * sizeof(double));
      moved = 1;
    }
  }
  w->kappa = kappa;
  return moved;
}

/* moves the affine bodies to their inertial prediction with A projected onto the rotations
   (issue 13). The prediction q_n + h qdot_n is linear in A and leaves the rotations by
   O(h^2 omega^2); the stiff orthogonality potential makes that start (and q_n) a poor
   quadratic model, and Newton crept towards the manifold in small steps. Taken, whatever
   the warm-start setting of the vertices, only if the move is collision-free by CCD and
   lowers the incremental potential (judged as warm_start does). returns 1 if moved */
static int affine_start(ipc_world *w, ipcc_step_stats *st) {
  int n = w->m.nverts;
  memcpy(w->xe, w->s.x, 3 * (size_t)n * sizeof(double));
  ipc_affine_world_rotated_prediction(w, w->aqe);
  ipc_affine_world_positions(w, w->aqe, w->xe);
  /* in a pile every body rests on another, and the prediction runs one contact or other
     into its partner: refused by those pairs alone, without a broad phase (the same verdict
     as below; half of dhat leaves the broad phase's inflation a margin) */
  double t0 = ipc_now();
  int stop = ipc_ccd_contacts_stop(&w->cm, &w->contacts, w->s.x, w->xe, 0.5 * w->dhat);
  st->t_ccd += ipc_now() - t0;
  if (stop) return 0;
  /* the broad phase narrowed as the line search's (swept_candidates): the pairs that stay
     beyond dhat all along the move touch neither the CCD nor the potential */
  t0 = ipc_now();
  const ipc_surface *sf = &w->m.surface;
  ipc_broad_phase_narrowed(&w->cand, sf, w->s.x, w->xe, w->dhat, NULL, sf->vert_obstacle, w->dhat);
  st->t_broad_phase += ipc_now() - t0;
  t0 = ipc_now();
  double toi = ipc_ccd_max_step(&w->cm, &w->cand, w->s.x, w->xe);
  st->t_ccd += ipc_now() - t0;
  if (toi < 1.0) return 0;
  double kappa = w->kappa;
  if (w->kappa == 0) w->kappa = w->kappa_min;
  ++st->line_search_steps;
  int moved = potential(w, w->xe, w->aqe, NULL) < potential(w, w->s.x, w->s.q, NULL);
  w->kappa = kappa;
  if (moved) {
    memcpy(w->s.x, w->xe, 3 * (size_t)n * sizeof(double));
    memcpy(w->s.q, w->aqe, 12 * (size_t)w->rest.naff * sizeof(double));
  }
  return moved;
}

double ipc_newton_potential_gradient(ipc_world *w) {
  ipcc_step_stats st;
  memset(&st, 0, sizeof st);
  for (int i = 0; i < w->m.nverts; ++i)
    w->fixed[i] = (w->rest.naff > 0 && w->rest.vert_aff[i] >= 0) || w->m.mass[i] == 0;
  ipc_newton_update_mask(w);
  static_candidates(w, &st);
  ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
  w->solver->fresh = 1;
  ipc_newton_assemble(w, &st);
  ipc_csc A; /* closes the assembly cycle */
  ipc_sparse_finish(w->solver->asm_, &A);
  return potential(w, w->s.x, w->s.q, NULL);
}

ipcc_status ipc_newton_step(ipc_world *w, ipcc_step_stats *st, ipcc_error *err) {
  const ipc_model *m = &w->m;
  int n = m->nverts;
  int iters_left = m->params.newton_max_iterations;
  double tol = m->params.newton_tol * m->bbox_diag * w->h;
  w->solver->fresh = 1;
  w->solver->static_fresh = 0; /* scripts and the warm start below may move x */
  memset(w->fixed, 0, (size_t)n);
  memset(w->penalty, 0, (size_t)n * sizeof(double));
  /* the real vertices of affine bodies carry no unknowns: their pseudo-vertices do */
  for (int i = 0; i < n && w->rest.naff > 0; ++i) w->fixed[i] = w->rest.vert_aff[i] >= 0;
  /* scripted affine bodies are kinematic rigid movers: placed on their script's q directly
     when they can be, like obstacles */
  if (w->rest.naff > 0) {
    memset(w->aff_fixed, 0, (size_t)w->rest.naff);
    memset(w->aff_penalty, 0, (size_t)w->rest.naff * sizeof(double));
  }
  int pending = !ipc_place_affine_scripted(w, st);
  /* obstacle vertices without a script this step stay where they are, and so do scripted
     vertices already on their targets */
  for (int i = 0; i < n; ++i) {
    if (w->pre.scripted[i] && w->rest.naff > 0 && w->rest.vert_aff[i] >= 0)
      continue; /* placed above */
    if (w->pre.scripted[i]) {
      const double *x = w->s.x + 3 * i, *t = w->pre.target + 3 * i;
      if (x[0] == t[0] && x[1] == t[1] && x[2] == t[2])
        w->fixed[i] = 1;
      else
        pending = 1;
    } else if (m->mass[i] == 0) {
      w->fixed[i] = 1;
    }
  }
  /* kinematic obstacles are placed directly when they can be (nothing of theirs deforms);
     scripted vertices of deformable bodies go through the penalty first */
  if (w->step_begin) w->mbc.on = 0;
  if (pending) {
    /* IPC scripts: IPC's Dirichlet nodes first, held where its CCD lets them go at the step's
       first solve; a later solve of the step (friction re-lagged, dhat halved: IPC's next
       solveSub_IP) starts with them held where they are, rho 0, lambda kept. The obstacles
       left (a meshCO's) are placed whole */
    if (m->params.ipc_newton_path && w->step_begin) {
      ipc_mbc_begin(w, st);
    } else if (w->mbc.on) {
      w->mbc.rho = 0;
      w->mbc.start = w->mbc.done;
      ipc_mbc_hold(w, 1);
    }
    ipc_place_scripted(w, st, 1);
    pending = 0;
    for (int i = 0; i < n; ++i) pending |= ipc_script_unplaced(w, i);
  }
  if (w->rest.naff > 0) affine_start(w, st);
  if (m->params.warm_start != IPCC_WARM_PREVIOUS) warm_start(w, st);
  /* the first solve of a step: kappa chosen for the step and friction lagged at its start
     (after the obstacles and warm start moved), as IPC's fullyImplicit_IP does */
  if (w->step_begin) {
    w->step_begin = 0;
    if (m->params.kappa <= 0) {
      ipc_newton_choose_kappa(w, st);
      /* kappa's choice collected every contact within dhat at x: friction lags at them */
      ipc_friction_update_from(&w->fric, &w->cm, w->s.x, w->kappa, &w->contacts);
    } else {
      ipc_friction_update(&w->fric, &w->cm, w->s.x, w->kappa);
    }
  }
  double weight = 1e6;
  int rc = 0;
  for (int round = 0;; ++round) {
    if (pending) {
      for (int i = 0; i < n; ++i)
        if (w->pre.scripted[i] && !w->fixed[i])
          w->penalty[i] = weight * (m->mass[i] > 0 ? m->mass[i] : w->mean_mass);
      for (int a = 0; a < w->rest.naff; ++a)
        if (w->pre.aff_scripted[a] && !w->aff_fixed[a]) w->aff_penalty[a] = weight;
    }
    rc = newton_solve(w, st, &iters_left, err);
    if (rc == 1) return solve_failure(err);
    if (!pending) break;
    w->contacts_at_x = 0; /* the placement below may move x */
    double gap = 0;
    for (int i = 0; i < n; ++i)
      if (ipc_script_unplaced(w, i))
        for (int d = 0; d < 3; ++d)
          gap = fmax(gap, fabs(w->s.x[3 * i + d] - w->pre.target[3 * i + d]));
    /* affine bodies first: the deformable placement fixes its vertices even when a later
       placement fails */
    if (ipc_place_affine_scripted(w, st) && ipc_place_scripted(w, st, 0)) {
      pending = 0;
      memset(w->penalty, 0, (size_t)n * sizeof(double));
      if (rc == 0 && gap <= 1e-2 * tol) {
        /* the step ends at the placed state: its contact set and closest distance */
        static_candidates(w, st);
        w->min_d2 = ipc_contacts_collect(&w->contacts, &w->cm, &w->cand, w->s.x);
        break;
      }
      rc = newton_solve(w, st, &iters_left, err);
      if (rc == 1) return solve_failure(err);
      break;
    }
    weight *= 10;
    if (weight > 1e12 || iters_left <= 0) break;
  }
  if (pending)
    for (int i = 0; i < n; ++i) st->dirichlet_unmet += ipc_script_unplaced(w, i);
  if (w->mbc.on) { /* held where they are between the step's solves */
    if (w->mbc.done <= 1 - 1e-3)
      for (int i = 0; i < n; ++i) st->dirichlet_unmet += ipc_mbc_vertex(w, i);
    ipc_mbc_hold(w, 1);
  }
  if (rc == 2) st->newton_capped = 1;
  return IPCC_OK;
}
