/* Lemke's complementary pivoting method, dense, for small LCPs (the exact reference)
 *
 * Cottle, Pang, Stone, The Linear Complementarity Problem, Sec. 4.4; Murty, Linear
 * Complementarity, Ch. 2. With a covering vector e = (1, ..., 1) and an artificial z0 the
 * system w - W z - e z0 = q starts from the basis {w}; z0 enters at the most negative q_i,
 * then each step brings in the complement of the variable that just left, chosen by the
 * minimum ratio test, until z0 leaves (a solution) or the entering column has no positive
 * entry (a secondary ray: for copositive-plus W, e.g. positive semidefinite, the LCP then
 * has no solution). Ties in the ratio test are broken lexicographically on the rows of
 * [B^-1 q, B^-1] (the w columns of the tableau hold B^-1), preferring z0 when it ties, so
 * degenerate problems cannot cycle; the first pivot takes the last of the tied most
 * negative q_i, which keeps the tableau lexicographically positive. A cap of 50 n + 100
 * pivots guards against round-off. The final complementary basis is re-solved with an LU
 * of W_BB (B the basic z's), which removes the round-off the pivots accumulated. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/lcp_internal.h"

typedef struct tableau {
  int n, cols; /* cols = 2n + 1: w_0..w_n-1, z_0..z_n-1, z0 */
  double *T;   /* (n x cols) */
  double *b;   /* (n) */
  int *basis;  /* (n) column basic in each row */
} tableau;

static void pivot(tableau *t, int r, int c) {
  const int cols = t->cols;
  double *Tr = t->T + (long)r * cols;
  const double inv = 1.0 / Tr[c];
  for (int j = 0; j < cols; ++j) Tr[j] *= inv;
  t->b[r] *= inv;
  Tr[c] = 1.0;
  for (int i = 0; i < t->n; ++i) {
    if (i == r) continue;
    double *Ti = t->T + (long)i * cols;
    double f = Ti[c];
    if (f == 0.0) continue;
    for (int j = 0; j < cols; ++j) Ti[j] -= f * Tr[j];
    t->b[i] -= f * t->b[r];
    Ti[c] = 0.0;
  }
  t->basis[r] = c;
}

static int near(double a, double b) {
  return fabs(a - b) <= 1e-11 * (1.0 + fmax(fabs(a), fabs(b)));
}

/* row leaving when column c enters; -1 for a ray. cand is scratch (n). */
static int ratio_test(const tableau *t, int c, double mscale, int *cand) {
  const int n = t->n, cols = t->cols;
  double colmax = 0.0;
  for (int i = 0; i < n; ++i) colmax = fmax(colmax, fabs(t->T[(long)i * cols + c]));
  const double ptol = fmax(1e-10 * colmax, 1e-14 * mscale);
  double theta = INFINITY;
  for (int i = 0; i < n; ++i) {
    double d = t->T[(long)i * cols + c];
    if (d > ptol) theta = fmin(theta, fmax(t->b[i], 0.0) / d);
  }
  if (theta == INFINITY) return -1;
  int m = 0;
  for (int i = 0; i < n; ++i) {
    double d = t->T[(long)i * cols + c];
    if (d > ptol && near(fmax(t->b[i], 0.0) / d, theta)) cand[m++] = i;
  }
  for (int k = 0; k < m; ++k)
    if (t->basis[cand[k]] == 2 * n) return cand[k];
  /* lexicographic minimum of B^-1 rows / d over the tied rows */
  for (int j = 0; j < n && m > 1; ++j) {
    double vmin = INFINITY;
    for (int k = 0; k < m; ++k) {
      const double *Ti = t->T + (long)cand[k] * cols;
      vmin = fmin(vmin, Ti[j] / Ti[c]);
    }
    int m2 = 0;
    for (int k = 0; k < m; ++k) {
      const double *Ti = t->T + (long)cand[k] * cols;
      if (near(Ti[j] / Ti[c], vmin)) cand[m2++] = cand[k];
    }
    m = m2;
  }
  return cand[0];
}

/* solves W_BB z_B = -q_B for the basic z's; 0 on success with z >= 0 (tiny negatives
 * clipped), -1 if singular or clearly infeasible */
static int resolve_basis(const double *W, const double *q, int n, const int *inb, double *z) {
  int k = 0;
  for (int j = 0; j < n; ++j) k += inb[j];
  int *idx = IPC_NEW(int, k > 0 ? k : 1), *piv = IPC_NEW(int, k > 0 ? k : 1);
  double *A = IPC_NEW(double, (size_t)k *(size_t)k + 1), *x = IPC_NEW(double, k > 0 ? k : 1);
  int m = 0;
  for (int j = 0; j < n; ++j)
    if (inb[j]) idx[m++] = j;
  double qmax = 0.0;
  for (int a = 0; a < k; ++a) {
    for (int c = 0; c < k; ++c) A[(long)a * k + c] = W[(long)idx[a] * n + idx[c]];
    x[a] = -q[idx[a]];
    qmax = fmax(qmax, fabs(q[idx[a]]));
  }
  int ok = ipc_lcp_lu(A, k, piv) == 0;
  if (ok) {
    ipc_lcp_lu_solve(A, k, piv, x);
    double xmax = 0.0;
    for (int a = 0; a < k; ++a) xmax = fmax(xmax, fabs(x[a]));
    for (int a = 0; a < k; ++a) {
      if (!isfinite(x[a]) || x[a] < -1e-9 * (1.0 + xmax)) ok = 0;
    }
  }
  if (ok) {
    memset(z, 0, sizeof(double) * (size_t)n);
    for (int a = 0; a < k; ++a) z[idx[a]] = fmax(x[a], 0.0);
  }
  ipc_free(idx);
  ipc_free(piv);
  ipc_free(A);
  ipc_free(x);
  return ok ? 0 : -1;
}

ipcc_status ipc_lcp_lemke(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                          ipc_lcp_result *res, ipcc_error *err) {
  ipc_lcp_options o;
  if (ipc_lcp_start(p, opt, &o, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (ipc_lcp_is_boxed(p))
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: Lemke solves the LCP only (no bounds)");
  const int n = p->n;
  if (n == 0) return ipc_lcp_finish(p, res, 0, 0.0, IPC_LCP_CONVERGED);
  const double tol = ipc_lcp_abs_tol(p, o.tol);
  double *W = IPC_NEW(double, (size_t)n *(size_t)n);
  ipc_lcp_dense(p, W);
  double mscale = 1.0;
  for (long k = 0; k < (long)n * n; ++k) mscale = fmax(mscale, fabs(W[k]));

  memset(z, 0, sizeof(double) * (size_t)n);
  int r = 0;
  for (int i = 1; i < n; ++i)
    if (p->q[i] <= p->q[r]) r = i; /* last of the tied minima */
  if (p->q[r] >= 0.0) {
    ipc_free(W);
    return ipc_lcp_finish(p, res, 0, ipc_lcp_residual(p, z), IPC_LCP_CONVERGED);
  }

  tableau t;
  t.n = n;
  t.cols = 2 * n + 1;
  t.T = IPC_NEW0(double, (size_t)n *(size_t)t.cols);
  t.b = IPC_NEW(double, n);
  t.basis = IPC_NEW(int, n);
  int *cand = IPC_NEW(int, n);
  for (int i = 0; i < n; ++i) {
    double *Ti = t.T + (long)i * t.cols;
    Ti[i] = 1.0;
    for (int j = 0; j < n; ++j) Ti[n + j] = -W[(long)i * n + j];
    Ti[2 * n] = -1.0;
    t.b[i] = p->q[i];
    t.basis[i] = i;
  }
  const int cap = 50 * n + 100;
  ipc_lcp_stop stop = IPC_LCP_MAX_ITER;
  pivot(&t, r, 2 * n);
  int pivots = 1;
  int entering = n + r; /* w_r left: z_r enters */
  while (pivots < cap) {
    int row = ratio_test(&t, entering, mscale, cand);
    if (row < 0) {
      stop = IPC_LCP_RAY;
      break;
    }
    int leaving = t.basis[row];
    pivot(&t, row, entering);
    ++pivots;
    if (leaving == 2 * n) {
      stop = IPC_LCP_CONVERGED;
      break;
    }
    entering = leaving < n ? leaving + n : leaving - n;
  }

  int *inb = IPC_NEW0(int, n);
  for (int i = 0; i < n; ++i) {
    int c = t.basis[i];
    if (c >= n && c < 2 * n) {
      z[c - n] = fmax(t.b[i], 0.0);
      inb[c - n] = 1;
    }
  }
  double residual = ipc_lcp_residual(p, z);
  if (stop == IPC_LCP_CONVERGED) {
    double *z2 = IPC_NEW(double, n);
    if (resolve_basis(W, p->q, n, inb, z2) == 0) {
      double r2 = ipc_lcp_residual(p, z2);
      if (r2 <= residual) {
        memcpy(z, z2, sizeof(double) * (size_t)n);
        residual = r2;
      }
    }
    ipc_free(z2);
    /* a complementary basis whose solution misses tol: W too ill-conditioned */
    if (!(residual <= tol)) stop = IPC_LCP_SINGULAR;
  }
  ipc_free(inb);
  ipc_free(cand);
  ipc_free(t.T);
  ipc_free(t.b);
  ipc_free(t.basis);
  ipc_free(W);
  return ipc_lcp_finish(p, res, pivots, residual, stop);
}
