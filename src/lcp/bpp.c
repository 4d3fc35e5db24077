/* block principal pivoting for the LCP with a P-matrix (e.g. symmetric positive definite)
 *
 * Judice and Pires, "A block principal pivoting algorithm for large-scale strictly
 * monotone linear complementarity problems" (1994); the index-set view of the SIGGRAPH'22
 * contact course, Sec. 3.1.3. A guess F of the free set (z_F solves W_FF z_F = -q_F,
 * z_G = 0, w_F = 0, w_G = W_GF z_F + q_G) is corrected by exchanging every infeasible
 * index (z_i < 0 in F, w_i < 0 in G) at once. When the number of infeasibilities fails
 * to drop for pbar = 3 consecutive exchanges, a single exchange of the largest infeasible
 * index (Murty's finite rule) is done until it drops again; this makes the method finite
 * for P-matrices. Dense: each step factors W_FF (O(|F|^3)). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/lcp_internal.h"

ipcc_status ipc_lcp_bpp(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                        ipc_lcp_result *res, ipcc_error *err) {
  ipc_lcp_options o;
  if (ipc_lcp_start(p, opt, &o, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (ipc_lcp_is_boxed(p))
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "LCP: block principal pivoting solves the LCP only (no bounds)");
  const int n = p->n;
  if (n == 0) return ipc_lcp_finish(p, res, 0, 0.0, IPC_LCP_CONVERGED);
  const double tol = ipc_lcp_abs_tol(p, o.tol);
  ipc_lcp_initial(p, &o, z);
  double *W = IPC_NEW(double, (size_t)n *(size_t)n);
  ipc_lcp_dense(p, W);
  double mscale = 0.0, qscale = 0.0;
  for (long k = 0; k < (long)n * n; ++k) mscale = fmax(mscale, fabs(W[k]));
  for (int i = 0; i < n; ++i) qscale = fmax(qscale, fabs(p->q[i]));

  unsigned char *free_set = IPC_NEW0(unsigned char, n);
  for (int i = 0; i < n; ++i) free_set[i] = z[i] > 0.0;
  int *idx = IPC_NEW(int, n), *piv = IPC_NEW(int, n), *bad = IPC_NEW(int, n);
  double *A = IPC_NEW(double, (size_t)n *(size_t)n), *x = IPC_NEW(double, n);
  double *w = IPC_NEW(double, n);
  const int pbar = 3, cap = 50 * n + 100;
  int ninf = n + 1, pcount = pbar, it = 0;
  ipc_lcp_stop stop = IPC_LCP_MAX_ITER;
  while (it < cap) {
    ++it;
    int k = 0;
    for (int i = 0; i < n; ++i)
      if (free_set[i]) idx[k++] = i;
    for (int a = 0; a < k; ++a) {
      for (int c = 0; c < k; ++c) A[(long)a * k + c] = W[(long)idx[a] * n + idx[c]];
      x[a] = -p->q[idx[a]];
    }
    if (ipc_lcp_lu(A, k, piv) != 0) {
      stop = IPC_LCP_SINGULAR;
      break;
    }
    ipc_lcp_lu_solve(A, k, piv, x);
    memset(z, 0, sizeof(double) * (size_t)n);
    for (int a = 0; a < k; ++a) z[idx[a]] = x[a];
    double zmax = 0.0;
    for (int i = 0; i < n; ++i) zmax = fmax(zmax, fabs(z[i]));
    for (int i = 0; i < n; ++i) {
      double s = p->q[i];
      for (int j = 0; j < n; ++j) s += W[(long)i * n + j] * z[j];
      w[i] = s;
    }
    const double eps_z = 1e-12 * (1.0 + zmax);
    const double eps_w = 1e-12 * (1.0 + qscale + mscale * zmax);
    int nbad = 0;
    for (int i = 0; i < n; ++i)
      if (free_set[i] ? z[i] < -eps_z : w[i] < -eps_w) bad[nbad++] = i;
    if (nbad == 0) {
      stop = IPC_LCP_CONVERGED;
      break;
    }
    if (nbad < ninf) {
      ninf = nbad;
      pcount = pbar;
    } else if (pcount > 0) {
      --pcount;
    } else {
      bad[0] = bad[nbad - 1];
      nbad = 1;
    }
    for (int t = 0; t < nbad; ++t) free_set[bad[t]] ^= 1;
  }
  for (int i = 0; i < n; ++i) z[i] = fmax(z[i], 0.0);
  double residual = ipc_lcp_residual(p, z);
  if (stop == IPC_LCP_CONVERGED && !(residual <= tol)) stop = IPC_LCP_SINGULAR;
  ipc_free(free_set);
  ipc_free(idx);
  ipc_free(piv);
  ipc_free(bad);
  ipc_free(A);
  ipc_free(x);
  ipc_free(w);
  ipc_free(W);
  return ipc_lcp_finish(p, res, it, residual, stop);
}
