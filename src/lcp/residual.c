/* the one residual of every LCP solver: the natural map of the box
 *
 *   F(z) = z - mid(lo, hi, z - w),  w = W z + q,
 *
 * zero exactly at BLCP solutions (Cottle, Pang, Stone, The LCP, Sec. 1.5). For the LCP
 * (lo = 0, hi = +inf) it is z - max(0, z - w) = min(z, w). Reported as ||F(z)||_2 and as
 * ||F(z)||_2 / ||q||_2, the relative error Siconos' LCP solvers report. The norms are scaled
 * (ipc_lcp_sumsq) so that they stay finite for entries near the overflow threshold. */
#include <float.h>
#include <math.h>

#include "core/alloc.h"
#include "lcp/lcp_internal.h"

void ipc_lcp_bounds(const ipc_lcp_problem *p, int i, const double *z, double *lo, double *hi) {
  double l = p->lo ? p->lo[i] : 0.0;
  double h = p->hi ? p->hi[i] : INFINITY;
  if (p->dep && p->dep[i] >= 0) {
    double s = fmax(z[p->dep[i]], 0.0);
    l *= s;
    h *= s;
  }
  *lo = l;
  *hi = h;
}

double ipc_lcp_norm2(int n, const double *x) {
  ipc_lcp_sumsq a = ipc_lcp_sumsq_start();
  for (int i = 0; i < n; ++i) ipc_lcp_sumsq_add(&a, x[i]);
  return ipc_lcp_sumsq_norm(&a);
}

double ipc_lcp_residual_zw(const ipc_lcp_problem *p, const double *z, const double *w) {
  ipc_lcp_sumsq a = ipc_lcp_sumsq_start();
  for (int i = 0; i < p->n; ++i) {
    double lo, hi;
    ipc_lcp_bounds(p, i, z, &lo, &hi);
    double y = z[i] - w[i];
    double m = y < lo ? lo : (y > hi ? hi : y);
    ipc_lcp_sumsq_add(&a, z[i] - m);
  }
  return ipc_lcp_sumsq_norm(&a);
}

double ipc_lcp_residual(const ipc_lcp_problem *p, const double *z) {
  double *w = IPC_NEW(double, p->n > 0 ? p->n : 1);
  ipc_lcp_w(p, z, w);
  double r = ipc_lcp_residual_zw(p, z, w);
  ipc_free(w);
  return r;
}

static double norm_q(const ipc_lcp_problem *p) {
  return ipc_lcp_norm2(p->n, p->q);
}

double ipc_lcp_relative(const ipc_lcp_problem *p, double residual) {
  double nq = norm_q(p);
  return nq > DBL_EPSILON ? residual / nq : residual;
}

double ipc_lcp_abs_tol(const ipc_lcp_problem *p, double tol) {
  double nq = norm_q(p);
  return nq > DBL_EPSILON ? tol * nq : tol;
}

void ipc_lcp_project(const ipc_lcp_problem *p, double *z) {
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < p->n; ++i) {
      int dependent = p->dep && p->dep[i] >= 0;
      if (dependent != pass) continue;
      double lo, hi;
      ipc_lcp_bounds(p, i, z, &lo, &hi);
      if (z[i] < lo) z[i] = lo;
      if (z[i] > hi) z[i] = hi;
    }
  }
}
