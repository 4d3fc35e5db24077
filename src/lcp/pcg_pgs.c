/* projected conjugate gradient followed by projected Gauss-Seidel (PCG+PGS)
 *
 * Lazarevych, Szekely, Harders, "Decomposing the contact LCP into separate contact
 * regions", Sec. 4 and Algorithm 2. For symmetric positive (semi)definite W the LCP/BLCP
 * is the bound-constrained quadratic program min 1/2 z'Wz + q'z over the box, and
 * r = -(W z + q) is the descent direction. Each CG step:
 *   alpha = r'd / d'Wd,  z <- Proj_box(z + alpha d),  r <- Proj(-(W z + q), W(z)),
 *   beta = r'r / r_old'r_old (Fletcher-Reeves) or max(0, r'(r - r_old) / r_old'r_old)
 *   (Polak-Ribiere, clamped at 0), d <- r + beta d,
 * where Proj(., W(z)) is the projected residual (paper eq. 19): components at a bound that
 * point out of the box are zeroed, so r = 0 exactly at a solution. Departures from the
 * paper, for robustness: alpha uses r'd (equal to r'r in unprojected CG); r is recomputed
 * from z rather than by the recurrence r - alpha W d, which projection invalidates; d is
 * also cleared where it points out of the box at an active bound, and reset to r when it
 * is not a descent direction. The CG phase stops after 2n steps (paper), when the relative
 * residual reaches cg_tol (delta_cg >= delta_gs), when ||z_k+1 - z_k|| <= step_tol, when
 * d'Wd <= 0, or (ours) when cg_stall steps in a row fail to lower the best residual; then
 * PGS runs from the best CG iterate for at most N_max = max_iter sweeps.
 *
 * On LCPs the CG phase lowers the residual at every step and usually converges alone. With
 * bounds that move with other entries (friction |z_t| <= mu z_n) the projected steps lose
 * descent: on our friction tests the residual stagnates from the first steps, and the stall
 * rule hands over to PGS after cg_stall wasted steps (without it, 2n wasted steps). With
 * fixed bounds the CG phase works (about half the PGS sweeps on our tests).
 * The iterate of smallest residual over both phases is returned (paper Sec. 4, end). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "lcp/lcp_internal.h"

/* a'b t^2: the CG scalars are ratios of such products, so a power of two t that brings the
   entries below 1 keeps them finite without changing them (ipc_lcp_sumsq) */
static double dot(int n, const double *a, const double *b, double t) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (a[i] * t) * (b[i] * t);
  return s;
}

/* 2^-e with 2^e above every |x_i|, or 1 when they are all below 1 */
static double unit_scale(int n, const double *x) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = fmax(m, fabs(x[i]));
  if (!(m >= 1.0) || isinf(m)) return 1.0;
  int e;
  frexp(m, &e);
  return ldexp(1.0, -e);
}

/* r = projected -(w) at z: zero where z sits at a bound and -w points outward */
static void projected_residual(const ipc_lcp_problem *p, const double *z, const double *w,
                               double *r) {
  for (int i = 0; i < p->n; ++i) {
    double lo, hi;
    ipc_lcp_bounds(p, i, z, &lo, &hi);
    double g = -w[i];
    if (z[i] <= lo && g < 0.0) g = 0.0;
    if (z[i] >= hi && g > 0.0) g = 0.0;
    r[i] = g;
  }
}

/* clears the components of d that point out of the box at an active bound */
static void feasible_direction(const ipc_lcp_problem *p, const double *z, double *d) {
  for (int i = 0; i < p->n; ++i) {
    double lo, hi;
    ipc_lcp_bounds(p, i, z, &lo, &hi);
    if ((z[i] <= lo && d[i] < 0.0) || (z[i] >= hi && d[i] > 0.0)) d[i] = 0.0;
  }
}

ipcc_status ipc_lcp_pcg_pgs(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                            ipc_lcp_result *res, ipcc_error *err) {
  ipc_lcp_options o;
  if (ipc_lcp_start(p, opt, &o, err) != IPCC_OK) return IPCC_ERR_INPUT;
  const int n = p->n;
  const size_t bytes = sizeof(double) * (size_t)(n > 0 ? n : 1);
  ipc_lcp_initial(p, &o, z);
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  double *w = ipc_malloc(bytes), *r = ipc_malloc(bytes), *r_old = ipc_malloc(bytes);
  double *d = ipc_malloc(bytes), *Wd = ipc_malloc(bytes), *zold = ipc_malloc(bytes);
  double *best = ipc_malloc(bytes);
  const double tol = ipc_lcp_abs_tol(p, o.tol);
  const double cg_tol = ipc_lcp_abs_tol(p, o.cg_tol);

  double best_res = ipc_lcp_op_eval(&op, z, w);
  if (n > 0) memcpy(best, z, bytes);
  ipc_lcp_stop stop = IPC_LCP_MAX_ITER;
  int cg_it = 0;
  bool done = best_res <= tol;
  if (done) stop = IPC_LCP_CONVERGED;

  /* CG phase */
  if (!done && best_res > cg_tol) {
    projected_residual(p, z, w, r);
    if (n > 0) memcpy(d, r, bytes);
    const double t = unit_scale(n, r); /* r shrinks as CG proceeds: one t serves throughout */
    double rr = dot(n, r, r, t);
    int stall = 0;
    while (cg_it < o.cg_max_iter && rr > 0.0) {
      feasible_direction(p, z, d);
      double rd = dot(n, r, d, t);
      if (!(rd > 0.0)) {
        memcpy(d, r, bytes);
        feasible_direction(p, z, d);
        rd = dot(n, r, d, t);
        if (!(rd > 0.0)) break;
      }
      ipc_lcp_op_mul(&op, d, Wd);
      double dWd = dot(n, d, Wd, t);
      if (!(dWd > 0.0)) break; /* no curvature along d (singular W): leave it to PGS */
      double alpha = rd / dWd;
      memcpy(zold, z, bytes);
      for (int i = 0; i < n; ++i) z[i] += alpha * d[i];
      ipc_lcp_project(p, z);
      ++cg_it;
      double res_now = ipc_lcp_op_eval(&op, z, w);
      if (!isfinite(res_now)) break;
      if (res_now < best_res) {
        best_res = res_now;
        memcpy(best, z, bytes);
        stall = 0;
      } else if (++stall >= o.cg_stall) {
        break;
      }
      if (res_now <= tol) {
        done = true;
        stop = IPC_LCP_CONVERGED;
        break;
      }
      ipc_lcp_sumsq step = ipc_lcp_sumsq_start();
      for (int i = 0; i < n; ++i) ipc_lcp_sumsq_add(&step, z[i] - zold[i]);
      if (res_now <= cg_tol || (o.step_tol > 0.0 && ipc_lcp_sumsq_norm(&step) <= o.step_tol)) break;
      memcpy(r_old, r, bytes);
      projected_residual(p, z, w, r);
      double rr_new = dot(n, r, r, t);
      double beta;
      if (o.cg_beta == IPC_LCP_POLAK_RIBIERE) {
        beta = (rr_new - dot(n, r, r_old, t)) / rr;
        if (beta < 0.0) beta = 0.0;
      } else {
        beta = rr_new / rr;
      }
      for (int i = 0; i < n; ++i) d[i] = r[i] + beta * d[i];
      rr = rr_new;
    }
  }

  /* PGS phase from the best iterate */
  int gs_it = 0;
  if (!done) {
    if (n > 0) memcpy(z, best, bytes);
    ipc_lcp_op_eval(&op, z, w);
    gs_it = ipc_lcp_pgs_run(&op, &o, o.max_iter, z, w, best, &best_res, &stop);
  }
  if (n > 0) memcpy(z, best, bytes);
  ipc_free(w);
  ipc_free(r);
  ipc_free(r_old);
  ipc_free(d);
  ipc_free(Wd);
  ipc_free(zold);
  ipc_free(best);
  ipc_lcp_op_free(&op);
  ipcc_status st = ipc_lcp_finish(p, res, cg_it + gs_it, best_res, stop);
  if (res) res->cg_iterations = cg_it;
  return st;
}
