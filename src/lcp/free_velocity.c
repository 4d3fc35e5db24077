/* the unconstrained velocity of an LCP step: one Newton step of the incremental potential
   without contact (linearly implicit Euler),
     A v* = M v + h (M a - grad Psi(x0)),   A = M + h^2 K(x0),
   K the PSD-projected elastic Hessian, over the free DOFs.

   A changes every step (K follows the deformation and the rotation of each body), but
   slowly: with a factor L L^T of an earlier A_old, A_old^-1 A_new = I + A_old^-1 (A_new -
   A_old) has its eigenvalues within a few h^2 |dK| / |A| of 1, so conjugate gradients
   preconditioned by that factor reach machine-level residuals in a handful of iterations,
   each one a pair of triangular solves and a product with A (Golub & Van Loan, Matrix
   Computations, sec. 11.5; the same reuse as a modified Newton method with an iterative
   correction). A factorization costs far more than those iterations for 3D meshes (fill
   grows as n^(4/3)), so the factor is refreshed only when the pattern changes, when the
   coupled contact mode needs A^-1 itself, or when the iterations grow past
   half the iteration budget (the bodies have turned or deformed too far since). The
   decision depends only on iteration counts, so runs stay bit-reproducible. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "elastic/elasticity.h"
#include "lcp/lcp_internal.h"
#include "lcp/lcp_world_internal.h"

/* relative residual ||b - A v*||_2 / ||b||_2 the iterations stop at */
#define PCG_TOL 1e-10

/* bounds of the iteration budget (pcg_budget below) */
#define PCG_MIN_BUDGET 2
#define PCG_MAX_BUDGET 12

/* longest run of steps that factor without trying the old factor first, after failures */
#define MAX_BACKOFF 31

static double dot(int n, const double *a, const double *b) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

static void grow(double **p, size_t *cap, size_t n) {
  if (n <= *cap) return;
  ipc_free(*p);
  *p = IPC_NEW(double, n);
  *cap = n;
}

/* CG on A y = b preconditioned by the (stale) factor; y starts at the preconditioned
   right-hand side. Returns the iterations taken, or -1 when it did not reach PCG_TOL
   (or a solve failed) within max_iter solves. */
static int pcg(ipc_lcp_world *w, const ipc_csc *A, const double *b, double *y, int max_iter) {
  int n = A->n;
  size_t need = 4 * (size_t)n + 4;
  grow(&w->pcg_buf, &w->pcg_cap, need);
  double *r = w->pcg_buf, *z = r + n, *p = z + n, *Ap = p + n;
  double bnorm = ipc_lcp_norm2(n, b);
  if (bnorm == 0) {
    memset(y, 0, (size_t)n * sizeof(double));
    return 0;
  }
  if (ipc_cholmod_solve(w->chol, b, y) != IPC_FACTOR_OK) return -1;
  ipc_csc_mul(A, y, Ap);
  for (int i = 0; i < n; ++i) r[i] = b[i] - Ap[i];
  double rnorm = ipc_lcp_norm2(n, r);
  if (rnorm <= PCG_TOL * bnorm) return 1;
  if (ipc_cholmod_solve(w->chol, r, z) != IPC_FACTOR_OK) return -1;
  memcpy(p, z, (size_t)n * sizeof(double));
  double rz = dot(n, r, z);
  for (int it = 2; it <= max_iter; ++it) {
    ipc_csc_mul(A, p, Ap);
    double pAp = dot(n, p, Ap);
    if (!(pAp > 0) || !(rz > 0)) return -1;
    double alpha = rz / pAp;
    for (int i = 0; i < n; ++i) {
      y[i] += alpha * p[i];
      r[i] -= alpha * Ap[i];
    }
    rnorm = ipc_lcp_norm2(n, r);
    if (!isfinite(rnorm)) return -1;
    if (rnorm <= PCG_TOL * bnorm) return it;
    if (ipc_cholmod_solve(w->chol, r, z) != IPC_FACTOR_OK) return -1;
    double rz_new = dot(n, r, z);
    double beta = rz_new / rz;
    rz = rz_new;
    for (int i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
  return -1;
}

/* elastic gradient into w->grad and h^2 x the projected tet Hessians into the assembler,
   IPC_LCP_TET_CHUNK tets at a time; 0 when a tet is inverted (its body named in err) */
static int add_elasticity(ipc_lcp_world *w, ipcc_error *err) {
  const ipc_model *m = &w->m;
  double h2 = w->h * w->h;
  double *g = w->tet_g, *H = w->tet_H;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->affine) continue; /* rigid-like: its DOFs are q (lcp_affine.c) */
    for (int t0 = bd->t0; t0 < bd->t0 + bd->nt; t0 += IPC_LCP_TET_CHUNK) {
      int nt = bd->t0 + bd->nt - t0 < IPC_LCP_TET_CHUNK ? bd->t0 + bd->nt - t0 : IPC_LCP_TET_CHUNK;
      const int *tets = m->tets + 4 * (size_t)t0;
      double e = ipc_tets_derivatives((ipc_material_model)w->rest.tet_model[t0], bd->mu, bd->lambda,
                                      nt, tets, w->rest.DmInv + 9 * (size_t)t0, w->rest.vol + t0,
                                      w->x0, NULL, g, H, IPC_PROJECT_ANALYTIC);
      if (!isfinite(e)) {
        ipc_error_set(err, IPCC_ERR_SIM, "step %d: body '%s' has an inverted tet", w->s.step + 1,
                      bd->name);
        return 0;
      }
      for (int t = 0; t < nt; ++t) {
        const int *tt = tets + 4 * (size_t)t;
        const double *gt = g + 12 * (size_t)t;
        double *Ht = H + 144 * (size_t)t;
        for (int k = 0; k < 4; ++k)
          for (int d = 0; d < 3; ++d) w->grad[3 * tt[k] + d] += gt[3 * k + d];
        for (int k = 0; k < 144; ++k) Ht[k] *= h2;
        ipc_sparse_add_element(w->asm_, w->tet_set, t0 + t, Ht);
      }
    }
  }
  return 1;
}

/* iterations that cost about one factorization: a factorization takes fl flops, an
   iteration two triangular solves (4 lnz flops) and a product with A, but runs at memory
   speed where the factorization runs at dense-kernel speed (measured ~8x apart on the
   30-sphere column: 7.2 GFLOP factor, 1.1-1.5 s; one iteration 0.1-0.15 s) */
static int pcg_budget(const ipc_lcp_world *w) {
  if (w->pcg_budget > 0) return w->pcg_budget;
  ipc_cholmod_stats cs;
  ipc_cholmod_get_stats(w->chol, &cs);
  double ratio = cs.factor_nnz > 0 ? cs.factor_flops / (4 * cs.factor_nnz) / 8 : 0;
  if (!(ratio >= PCG_MIN_BUDGET)) return PCG_MIN_BUDGET;
  return ratio > PCG_MAX_BUDGET ? PCG_MAX_BUDGET : (int)ratio;
}

/* A = M + h^2 K(w->x0) over the DOFs of the vertices not in w->fixed, and the elastic
   gradient at w->x0 into w->grad; *changed when the pattern changed since the last
   assembly. 0 when a tet is inverted (err set) */
static int assemble(ipc_lcp_world *w, ipc_csc *A, bool *changed, ipcc_error *err) {
  const ipc_model *m = &w->m;
  int n = m->nverts;
  for (int i = 0; i < n; ++i) /* an affine body's vertices follow q (lcp_affine.c) */
    for (int d = 0; d < 3; ++d)
      w->dof_fixed[3 * i + d] = w->fixed[i] || (w->rest.vert_aff && w->rest.vert_aff[i] >= 0);
  if (!w->have_mask || memcmp(w->dof_fixed, w->dof_fixed_prev, 3 * (size_t)n)) {
    ipc_sparse_set_mask(w->asm_, w->dof_fixed);
    memcpy(w->dof_fixed_prev, w->dof_fixed, 3 * (size_t)n);
    w->have_mask = 1;
  }
  if (w->tet_set < 0 && m->ntets > 0)
    w->tet_set = ipc_sparse_add_element_set(w->asm_, m->ntets, 4, m->tets);
  memset(w->grad, 0, 3 * (size_t)n * sizeof(double));
  ipc_sparse_begin(w->asm_);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) w->diag[3 * i + d] = w->fixed[i] ? 0 : m->mass[i];
  ipc_sparse_add_diagonal(w->asm_, w->diag);
  int ok = add_elasticity(w, err);
  *changed = ipc_sparse_finish(w->asm_, A);
  return ok;
}

/* factors A into w->chol and keeps the positions it was assembled at (w->x_factor), so that a
   checkpoint can rebuild the same factor; 0 when it failed */
static int factor(ipc_lcp_world *w, const ipc_csc *A, bool analyze) {
  if (ipc_cholmod_factor(w->chol, A, analyze, 0.0) != IPC_FACTOR_OK) return 0;
  memcpy(w->x_factor, w->x0, 3 * (size_t)w->m.nverts * sizeof(double));
  return 1;
}

ipcc_status ipc_lcp_world_rebuild_factor(ipc_lcp_world *w, ipcc_error *err) {
  const ipc_model *m = &w->m;
  for (int i = 0; i < m->nverts; ++i) w->fixed[i] = w->dof_fixed_prev[3 * i];
  memcpy(w->x0, w->x_factor, 3 * (size_t)m->nverts * sizeof(double));
  w->have_mask = 0;
  ipc_csc A;
  bool changed;
  if (!assemble(w, &A, &changed, err)) return IPCC_ERR_INPUT;
  if (ipc_sparse_num_free(w->asm_) != w->factor_n || !factor(w, &A, true))
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "the saved factor state does not fit the scene (%d free DOFs, saved %d)",
                         ipc_sparse_num_free(w->asm_), w->factor_n);
  return IPCC_OK;
}

ipcc_status ipc_lcp_world_free_velocity(ipc_lcp_world *w, ipcc_lcp_step_stats *st,
                                        ipcc_error *err) {
  const ipc_model *m = &w->m;
  int n = m->nverts;
  double h = w->h;
  ipc_csc A;
  bool changed;
  if (!assemble(w, &A, &changed, err)) return IPCC_ERR_SIM;
  /* right-hand side in the full layout, then gathered */
  const double *g = m->params.gravity;
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      w->vstar[3 * i + d] =
          m->mass[i] * w->s.v[3 * i + d] + h * (m->mass[i] * g[d] - w->grad[3 * i + d]);
  for (int k = 0; k < m->nneumann; ++k) {
    const ipc_neumann *nb = &m->neumann[k];
    if (!(w->s.time >= nb->t_begin && w->s.time < nb->t_end)) continue;
    for (int i = 0; i < nb->nverts; ++i)
      for (int d = 0; d < 3; ++d)
        w->vstar[3 * nb->verts[i] + d] += h * m->mass[nb->verts[i]] * nb->acceleration[d];
  }
  /* external forces set from outside: the impulse h f */
  const double *fe = w->world.force;
  if (fe)
    for (int i = 0; i < n; ++i)
      if (m->mass[i] > 0)
        for (int d = 0; d < 3; ++d) w->vstar[3 * i + d] += h * fe[3 * i + d];
  int nf = ipc_sparse_num_free(w->asm_);
  if (nf > 0) {
    ipc_sparse_gather(w->asm_, w->vstar, w->rhs);
    int it = -1;
    int budget = pcg_budget(w);
    int reuse = w->factor_n == nf && !changed && !w->refactor_next && w->reuse_skip == 0 &&
                !w->always_factor && w->def.coupling != IPCC_LCP_COUPLED;
    if (w->reuse_skip > 0) --w->reuse_skip;
    if (reuse) {
      it = pcg(w, &A, w->rhs, w->sol, budget);
      if (it < 0) { /* too far from the old factor: wait longer before the next try */
        w->backoff = 2 * w->backoff + 1 > MAX_BACKOFF ? MAX_BACKOFF : 2 * w->backoff + 1;
        w->reuse_skip = w->backoff;
      } else {
        w->backoff = 0;
      }
    }
    w->use_bf = 0;
    if (it < 0 && w->def.coupling == IPCC_LCP_COUPLED && !w->whole_factor &&
        ipc_lcp_body_factors_update(&w->bf, m, w->asm_, &A, changed) == IPC_FACTOR_OK) {
      memcpy(w->sol, w->rhs, (size_t)nf * sizeof(double));
      if (ipc_lcp_body_factors_solve(&w->bf, w->sol) == IPC_FACTOR_OK) {
        w->use_bf = 1;
        w->factor_n = 0; /* the whole factor, if any, is of an older A */
        st->refactored = 1;
        it = 0;
      }
    }
    if (it < 0) {
      if (!factor(w, &A, changed || w->factor_n != nf) ||
          ipc_cholmod_solve(w->chol, w->rhs, w->sol) != IPC_FACTOR_OK) {
        w->factor_n = 0;
        return ipc_error_set(err, IPCC_ERR_SIM, "step %d: M + h^2 K could not be factored",
                             w->s.step + 1);
      }
      w->factor_n = nf;
      st->refactored = 1;
      it = 0;
    }
    w->refactor_next = 2 * it > budget;
    st->velocity_iterations = it;
    ipc_sparse_scatter(w->asm_, w->sol, w->vstar);
  }
  for (int i = 0; i < n; ++i)
    if (w->fixed[i]) memcpy(w->vstar + 3 * i, w->s.v + 3 * i, 3 * sizeof(double));
  return IPCC_OK;
}
