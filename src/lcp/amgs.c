/* accelerated modulus-based Gauss-Seidel (AMGS) for the LCP
 *
 * Bai's modulus substitution z = (|x| + x) / gamma, w = Omega (|x| - x) / gamma (Omega
 * positive diagonal, gamma > 0) turns LCP(W, q) into the fixed point
 *   (Omega + W) x = (Omega - W) |x| - gamma q.
 * Zheng and Yin's accelerated splitting with W = D - L - U, M1 = D - L, N1 = U,
 * M2 = D - U, N2 = L iterates
 *   (D - L + Omega) x' = U x + (Omega - D + U) |x| + L |x'| - gamma q,
 * which, row by row with z' = (|x'| + x') / gamma for the rows already visited, is
 *   x'_i = ((Omega_ii - W_ii) |x_i| - gamma (q_i + sum_{j != i} W_ij z_j)) / (W_ii + Omega_ii)
 * (Miyamoto, Yamashita et al., "Sparsity exploitation of accelerated modulus-based
 * Gauss-Seidel method for interactive rigid body simulations", Method 2.2 and eq. 22).
 * Only the i-th entry of |x| and the current z are needed, so in the Jacobian form the
 * off-diagonal sum is J_i u - W_ii z_i + reg_i z_i with u = A^-1 J^T z updated after each
 * row (their Method 3.1): W is never formed. Omega = alpha diag(W) (their better choice,
 * Remarks 4.4-4.5) or alpha I (Zheng-Yin). With Omega = diag(W) the iteration is PGS; for
 * alpha < 1 a row that stays active moves like SOR with omega = 2 / (1 + alpha), and the
 * paper reports smaller alpha converging faster. The iterates z do not depend on gamma.
 * Convergence is proven for W positive definite (their Theorem 4.2). A warm start z0
 * enters as x = gamma z0 / 2 (a nonnegative x, as the method asks). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/lcp_internal.h"

ipcc_status ipc_lcp_amgs(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                         ipc_lcp_result *res, ipcc_error *err) {
  ipc_lcp_options o;
  if (ipc_lcp_start(p, opt, &o, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (ipc_lcp_is_boxed(p))
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: AMGS solves the LCP only (no bounds)");
  const int n = p->n;
  const size_t bytes = sizeof(double) * (size_t)(n > 0 ? n : 1);
  const double gamma = o.amgs_gamma, alpha = o.amgs_alpha;
  const double tol = ipc_lcp_abs_tol(p, o.tol);
  ipc_lcp_initial(p, &o, z);
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  for (int i = 0; i < n; ++i) {
    if (!(op.diag[i] > 0.0)) {
      ipc_lcp_op_free(&op);
      double r0 = ipc_lcp_residual(p, z);
      return ipc_lcp_finish(p, res, 0, r0, IPC_LCP_SINGULAR);
    }
  }
  double *x = ipc_malloc(bytes), *w = ipc_malloc(bytes), *best = ipc_malloc(bytes);
  double *om = ipc_malloc(bytes);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5 * gamma * z[i];
    om[i] = o.amgs_omega_identity ? alpha : alpha * op.diag[i];
  }
  double best_res = ipc_lcp_op_eval(&op, z, w);
  if (n > 0) memcpy(best, z, bytes);
  ipc_lcp_stop stop = best_res <= tol ? IPC_LCP_CONVERGED : IPC_LCP_MAX_ITER;
  int it = 0;
  while (stop != IPC_LCP_CONVERGED && it < o.max_iter) {
    ++it;
    ipc_lcp_sumsq step = ipc_lcp_sumsq_start();
    for (int i = 0; i < n; ++i) {
      double d = op.diag[i];
      double off = ipc_lcp_op_row(&op, i, z) - d * z[i] + p->q[i];
      double xi = ((om[i] - d) * fabs(x[i]) - gamma * off) / (d + om[i]);
      x[i] = xi;
      double zi = xi > 0.0 ? 2.0 * xi / gamma : 0.0;
      double dz = zi - z[i];
      if (dz != 0.0) {
        z[i] = zi;
        ipc_lcp_op_changed(&op, i, dz);
        ipc_lcp_sumsq_add(&step, dz);
      }
    }
    double r = ipc_lcp_op_eval(&op, z, w);
    if (!isfinite(r)) {
      stop = IPC_LCP_SINGULAR;
      break;
    }
    if (r < best_res) {
      best_res = r;
      memcpy(best, z, bytes);
    }
    if (r <= tol) {
      stop = IPC_LCP_CONVERGED;
      break;
    }
    if (o.step_tol > 0.0 && ipc_lcp_sumsq_norm(&step) <= o.step_tol) {
      stop = IPC_LCP_STALLED;
      break;
    }
  }
  if (n > 0) memcpy(z, best, bytes);
  ipc_free(x);
  ipc_free(w);
  ipc_free(best);
  ipc_free(om);
  ipc_lcp_op_free(&op);
  return ipc_lcp_finish(p, res, it, best_res, stop);
}
