/* projected Gauss-Seidel / successive over-relaxation for the LCP and the BLCP
 *
 * Splitting W = L + D + U (Cottle, Pang, Stone, Sec. 5.2; Lazarevych et al. eq. 14-15):
 * one sweep visits i = 1..n and sets
 *   z_i <- mid(lo_i, hi_i, z_i - omega (W z + q)_i / W_ii)
 * with the entries before i already updated. Bounds that scale with another entry (friction
 * |z_t| <= mu z_n) use that entry's current value. For symmetric positive definite W and
 * omega in (0, 2) the sweeps converge for the LCP and the fixed-bound BLCP. In the Jacobian
 * form (W z)_i = J_i u + reg_i z_i with u = A^-1 J^T z updated after each change, so a sweep
 * costs O(nnz(J) b) and W is never formed. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "lcp/lcp_internal.h"

int ipc_lcp_pgs_run(ipc_lcp_op *op, const ipc_lcp_options *o, int max_iter, double *z, double *w,
                    double *best, double *best_res, ipc_lcp_stop *stop) {
  const ipc_lcp_problem *p = op->p;
  const int n = p->n;
  const double tol = ipc_lcp_abs_tol(p, o->tol);
  const double omega = o->omega;
  if (*best_res <= tol) {
    *stop = IPC_LCP_CONVERGED;
    return 0;
  }
  for (int it = 1; it <= max_iter; ++it) {
    ipc_lcp_sumsq step = ipc_lcp_sumsq_start();
    for (int i = 0; i < n; ++i) {
      double lo, hi;
      ipc_lcp_bounds(p, i, z, &lo, &hi);
      double d = op->diag[i];
      double zi = z[i];
      if (d > 0.0) zi -= omega * (ipc_lcp_op_row(op, i, z) + p->q[i]) / d;
      zi = zi < lo ? lo : (zi > hi ? hi : zi);
      double dz = zi - z[i];
      if (dz != 0.0) {
        z[i] = zi;
        ipc_lcp_op_changed(op, i, dz);
        ipc_lcp_sumsq_add(&step, dz);
      }
    }
    if (o->check_every > 1 && it % o->check_every != 0 && it < max_iter) continue;
    double r = ipc_lcp_op_eval(op, z, w);
    if (!isfinite(r)) {
      *stop = IPC_LCP_SINGULAR;
      return it;
    }
    if (r < *best_res) {
      *best_res = r;
      memcpy(best, z, sizeof(double) * (size_t)n);
    }
    if (r <= tol) {
      *stop = IPC_LCP_CONVERGED;
      return it;
    }
    if (o->step_tol > 0.0 && ipc_lcp_sumsq_norm(&step) <= o->step_tol) {
      *stop = IPC_LCP_STALLED;
      return it;
    }
  }
  *stop = IPC_LCP_MAX_ITER;
  return max_iter;
}

ipcc_status ipc_lcp_pgs(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                        ipc_lcp_result *res, ipcc_error *err) {
  ipc_lcp_options o;
  if (ipc_lcp_start(p, opt, &o, err) != IPCC_OK) return IPCC_ERR_INPUT;
  const int n = p->n;
  ipc_lcp_initial(p, &o, z);
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  double *w = IPC_NEW(double, n > 0 ? n : 1);
  double *best = IPC_NEW(double, n > 0 ? n : 1);
  double best_res = ipc_lcp_op_eval(&op, z, w);
  if (n > 0) memcpy(best, z, sizeof(double) * (size_t)n);
  ipc_lcp_stop stop;
  int it = ipc_lcp_pgs_run(&op, &o, o.max_iter, z, w, best, &best_res, &stop);
  if (n > 0) memcpy(z, best, sizeof(double) * (size_t)n);
  ipc_free(w);
  ipc_free(best);
  ipc_lcp_op_free(&op);
  return ipc_lcp_finish(p, res, it, best_res, stop);
}
