/* internals shared by the LCP solvers: the operator W (explicit or Jacobian form) with
 * row access for Gauss-Seidel sweeps, projection onto the bounds, best-iterate tracking */
#ifndef IPCC_LCP_LCP_INTERNAL_H
#define IPCC_LCP_LCP_INTERNAL_H

#include <math.h>

#include "lcp/lcp.h"

/* W behind one interface. For the Jacobian form, G holds the rows J_i A^-1 (the columns
 * of A^-1 J^T, i.e. the velocity change per unit impulse of entry i) and u = G^T z is the
 * velocity change of all impulses, kept current through the sweeps (AMGS Method 3.1). */
typedef struct ipc_lcp_op {
  const ipc_lcp_problem *p;
  int n;
  int ndof;      /* columns of J; 0 for the explicit form */
  ipc_lcp_csr G; /* (n x ndof) Jacobian form only */
  double *diag;  /* (n) diagonal of W */
  double *u;     /* (ndof) G^T z */
  double *t;     /* (ndof) scratch */
} ipc_lcp_op;

/* builds op for p (which must pass ipc_lcp_problem_check); O(nnz(J) b) or O(nnz(M)) */
void ipc_lcp_op_init(ipc_lcp_op *op, const ipc_lcp_problem *p);

/* frees what op owns */
void ipc_lcp_op_free(ipc_lcp_op *op);

/* y = W x (n each, not aliased); uses op->t */
void ipc_lcp_op_mul(ipc_lcp_op *op, const double *x, double *y);

/* w = W z + q, resynchronising op->u = G^T z; returns the natural-map residual of z */
double ipc_lcp_op_eval(ipc_lcp_op *op, const double *z, double *w);

/* (W z)_i with the current z; for the Jacobian form op->u must equal G^T z */
static inline double ipc_lcp_op_row(const ipc_lcp_op *op, int i, const double *z) {
  const ipc_lcp_csr *A = op->p->M ? op->p->M : op->p->J;
  const double *x = op->p->M ? z : op->u;
  double s = 0.0;
  for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) s += A->val[k] * x[A->col[k]];
  if (!op->p->M && op->p->reg) s += op->p->reg[i] * z[i];
  return s;
}

/* tells op that z_i changed by dz (keeps u = G^T z) */
static inline void ipc_lcp_op_changed(ipc_lcp_op *op, int i, double dz) {
  if (op->p->M) return;
  const ipc_lcp_csr *G = &op->G;
  for (int k = G->rowptr[i]; k < G->rowptr[i + 1]; ++k) op->u[G->col[k]] += G->val[k] * dz;
}

/* a 2-norm that does not overflow: the sum of squares is kept as ssq * scale^2 with scale a
 * power of two above every entry so far (LAPACK dnrm2's idea; a power of two makes the
 * scaling exact, so below 1 in magnitude, and in general up to rounding in the last place of
 * sums that near the underflow threshold, the result is that of sqrt(sum x_i^2)). Without it
 * entries near 1e155 make the residual inf, and inf <= tol * ||q|| = inf "converged". */
typedef struct ipc_lcp_sumsq {
  double ssq, scale, inv; /* inv = 1 / scale */
} ipc_lcp_sumsq;

static inline ipc_lcp_sumsq ipc_lcp_sumsq_start(void) {
  ipc_lcp_sumsq a = {0.0, 1.0, 1.0};
  return a;
}

static inline void ipc_lcp_sumsq_add(ipc_lcp_sumsq *a, double x) {
  double m = fabs(x);
  if (m >= a->scale) {
    if (isinf(m)) {
      a->ssq = INFINITY;
      return;
    }
    int e;
    frexp(m, &e); /* m < 2^e */
    double scale = ldexp(1.0, e), r = a->scale / scale;
    a->ssq *= r * r;
    a->scale = scale;
    a->inv = ldexp(1.0, -e);
  }
  double y = x * a->inv;
  a->ssq += y * y;
}

static inline double ipc_lcp_sumsq_norm(const ipc_lcp_sumsq *a) {
  return sqrt(a->ssq) * a->scale;
}

/* ||x||_2 of n entries without overflow */
double ipc_lcp_norm2(int n, const double *x);

/* clamps z into the box, entries without dep first, then the dependent ones */
void ipc_lcp_project(const ipc_lcp_problem *p, double *z);

/* absolute residual that counts as converged: tol ||q||_2 (tol when ||q||_2 <= DBL_EPSILON) */
double ipc_lcp_abs_tol(const ipc_lcp_problem *p, double tol);

/* opt, or the defaults when opt is NULL */
ipc_lcp_options ipc_lcp_options_or_default(const ipc_lcp_options *opt);

/* common solver entry: *o = opt or the defaults, checks p and *o (IPCC_ERR_INPUT with err) */
ipcc_status ipc_lcp_start(const ipc_lcp_problem *p, const ipc_lcp_options *opt, ipc_lcp_options *o,
                          ipcc_error *err);

/* z = o->z0 projected onto the bounds, or 0 (z may alias o->z0) */
void ipc_lcp_initial(const ipc_lcp_problem *p, const ipc_lcp_options *o, double *z);

/* fills res from the final residual and stop reason (cg_iterations 0); returns IPCC_OK
 * when converged, IPCC_ERR_SIM otherwise */
ipcc_status ipc_lcp_finish(const ipc_lcp_problem *p, ipc_lcp_result *res, int iterations,
                           double residual, ipc_lcp_stop stop);

/* PGS sweeps from z (in place) with w = W z + q current on entry, for at most max_iter
 * sweeps; keeps the iterate of smallest residual in best/best_res (best_res holds the
 * residual of best on entry). Returns the sweeps done; *stop says why it ended. */
int ipc_lcp_pgs_run(ipc_lcp_op *op, const ipc_lcp_options *o, int max_iter, double *z, double *w,
                    double *best, double *best_res, ipc_lcp_stop *stop);

/* Dense helpers for the pivoting methods (dense.c). */

/* LU factorisation with partial pivoting of the k x k row-major matrix A (in place), pivots
 * in piv (k); returns 0, or -1 when a pivot is below tiny times the largest entry */
int ipc_lcp_lu(double *A, int k, int *piv);

/* solves (LU) x = b in place after ipc_lcp_lu */
void ipc_lcp_lu_solve(const double *LU, int k, const int *piv, double *b);

#endif
