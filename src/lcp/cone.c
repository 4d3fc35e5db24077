/* block projected Gauss-Seidel for the Coulomb disk (Lazarevych et al. 2010, eq. 7): per
   contact the normal is relaxed and clamped at 0, then both tangential components take one
   gradient step of a common length 1 / max(W_t1t1, W_t2t2) from the same z and are projected
   onto the disk |t| <= mu n. At a fixed point of the sweep, n and w_n are complementary and
   t = P(t - g w_t): either |t| < mu n and w_t = 0 (stick) or |t| = mu n and w_t = -c t,
   c >= 0 (slip against the impulse), which is Coulomb's law with maximal dissipation. (Each
   tangent scaled by its own diagonal would project in a skewed metric, whose fixed points
   are not Coulomb's law for sliding contacts.) The residual is the natural map of that fixed
   point (cone.h). */
#include "lcp/cone.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/lcp_internal.h"

/* scales (t1, t2) into the disk of radius r >= 0 */
static void disk(double r, double *t1, double *t2) {
  ipc_lcp_sumsq a = ipc_lcp_sumsq_start();
  ipc_lcp_sumsq_add(&a, *t1);
  ipc_lcp_sumsq_add(&a, *t2);
  double l = ipc_lcp_sumsq_norm(&a);
  if (l > r) {
    double s = l > 0 ? r / l : 0;
    *t1 *= s;
    *t2 *= s;
  }
}

double ipc_lcp_cone_residual_zw(int ncontacts, const double *mu, const double *z, const double *w) {
  ipc_lcp_sumsq s = ipc_lcp_sumsq_start();
  for (int c = 0; c < ncontacts; ++c) {
    const double *zc = z + 3 * c, *wc = w + 3 * c;
    double fn = zc[0] - fmax(0.0, zc[0] - wc[0]);
    double a = zc[1] - wc[1], b = zc[2] - wc[2];
    disk(mu[c] * fmax(zc[0], 0.0), &a, &b);
    double f1 = zc[1] - a, f2 = zc[2] - b;
    ipc_lcp_sumsq_add(&s, fn);
    ipc_lcp_sumsq_add(&s, f1);
    ipc_lcp_sumsq_add(&s, f2);
  }
  return ipc_lcp_sumsq_norm(&s);
}

static void cone_project(int m, const double *mu, double *z) {
  for (int c = 0; c < m; ++c) {
    if (z[3 * c] < 0) z[3 * c] = 0;
    disk(mu[c] * z[3 * c], &z[3 * c + 1], &z[3 * c + 2]);
  }
}

static int cone_pgs(ipc_lcp_op *op, const double *mu, const ipc_lcp_options *o, double *z,
                    double *w, double *best, double *best_res, ipc_lcp_stop *stop) {
  const ipc_lcp_problem *p = op->p;
  const int m = p->n / 3;
  const double tol = ipc_lcp_abs_tol(p, o->tol);
  if (*best_res <= tol) {
    *stop = IPC_LCP_CONVERGED;
    return 0;
  }
  for (int it = 1; it <= o->max_iter; ++it) {
    ipc_lcp_sumsq step = ipc_lcp_sumsq_start();
    for (int c = 0; c < m; ++c) {
      double *zc = z + 3 * c;
      /* normal */
      double d = op->diag[3 * c];
      if (d > 0) {
        double zn = zc[0] - o->omega * (ipc_lcp_op_row(op, 3 * c, z) + p->q[3 * c]) / d;
        if (zn < 0) zn = 0;
        double dz = zn - zc[0];
        if (dz != 0) {
          zc[0] = zn;
          ipc_lcp_op_changed(op, 3 * c, dz);
          ipc_lcp_sumsq_add(&step, dz);
        }
      }
      /* tangents: one step of the same length along both (the larger diagonal), from the
         same z, then the Euclidean projection onto the disk. A fixed point is then
         t = P(t - g w_t) with one scalar g, i.e. w_t = 0 inside the disk or w_t = -c t on
         its rim: Coulomb's law. Scaling each tangent by its own diagonal would make the
         fixed point a projection in a skewed metric, which is not (a sliding contact can
         stall with its impulse on the rim but not against the slip). */
      double old1 = zc[1], old2 = zc[2];
      double dt = fmax(op->diag[3 * c + 1], op->diag[3 * c + 2]);
      double a = old1, b = old2;
      if (dt > 0) {
        double r1 = ipc_lcp_op_row(op, 3 * c + 1, z) + p->q[3 * c + 1];
        double r2 = ipc_lcp_op_row(op, 3 * c + 2, z) + p->q[3 * c + 2];
        a -= o->omega * r1 / dt;
        b -= o->omega * r2 / dt;
      }
      disk(mu[c] * zc[0], &a, &b);
      if (a != old1) ipc_lcp_op_changed(op, 3 * c + 1, a - old1);
      if (b != old2) ipc_lcp_op_changed(op, 3 * c + 2, b - old2);
      zc[1] = a;
      zc[2] = b;
      ipc_lcp_sumsq_add(&step, a - old1);
      ipc_lcp_sumsq_add(&step, b - old2);
    }
    if (o->check_every > 1 && it % o->check_every != 0 && it < o->max_iter) continue;
    ipc_lcp_op_eval(op, z, w);
    double r = ipc_lcp_cone_residual_zw(m, mu, z, w);
    if (!isfinite(r)) {
      *stop = IPC_LCP_SINGULAR;
      return it;
    }
    if (r < *best_res) {
      *best_res = r;
      memcpy(best, z, sizeof(double) * (size_t)p->n);
    }
    if (r <= tol) {
      *stop = IPC_LCP_CONVERGED;
      return it;
    }
    if (o->step_tol > 0 && ipc_lcp_sumsq_norm(&step) <= o->step_tol) {
      *stop = IPC_LCP_STALLED;
      return it;
    }
  }
  *stop = IPC_LCP_MAX_ITER;
  return o->max_iter;
}

ipcc_status ipc_lcp_cone_solve(const ipc_lcp_problem *p, const double *mu,
                               const ipc_lcp_options *opt, double *z, ipc_lcp_result *res,
                               ipcc_error *err) {
  ipc_lcp_options o;
  if (ipc_lcp_start(p, opt, &o, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (p->n % 3 != 0 || p->lo || p->hi || p->dep)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "LCP cone: expected 3 unknowns per contact and no box bounds");
  if (o.solver != IPC_LCP_PGS && o.solver != IPC_LCP_PCG_PGS)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "LCP cone: solver %s does not handle the friction cone (pgs, pcg-pgs)",
                         ipc_lcp_solver_name(o.solver));
  const int n = p->n, m = n / 3;
  const size_t bytes = sizeof(double) * (size_t)(n > 0 ? n : 1);
  ipc_lcp_initial(p, &o, z);
  int extra = 0;
  if (o.solver == IPC_LCP_PCG_PGS && n > 0) {
    /* boxed relaxation for the CG phase */
    double *lo = ipc_malloc(bytes), *hi = ipc_malloc(bytes);
    int *dep = IPC_NEW(int, n);
    for (int c = 0; c < m; ++c) {
      lo[3 * c] = 0, hi[3 * c] = INFINITY, dep[3 * c] = -1;
      for (int k = 1; k < 3; ++k)
        lo[3 * c + k] = -mu[c], hi[3 * c + k] = mu[c], dep[3 * c + k] = 3 * c;
    }
    ipc_lcp_problem box = *p;
    box.lo = lo, box.hi = hi, box.dep = dep;
    ipc_lcp_options ob = o;
    ob.z0 = z;
    ob.max_iter = 10;
    ipc_lcp_result rb;
    ipc_lcp_pcg_pgs(&box, &ob, z, &rb, NULL);
    extra = rb.iterations;
    ipc_free(lo);
    ipc_free(hi);
    ipc_free(dep);
  }
  cone_project(m, mu, z);
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  double *w = ipc_malloc(bytes), *best = ipc_malloc(bytes);
  ipc_lcp_op_eval(&op, z, w);
  double best_res = ipc_lcp_cone_residual_zw(m, mu, z, w);
  if (n > 0) memcpy(best, z, bytes);
  ipc_lcp_stop stop = IPC_LCP_MAX_ITER;
  int it = cone_pgs(&op, mu, &o, z, w, best, &best_res, &stop);
  if (n > 0) memcpy(z, best, bytes);
  ipc_free(w);
  ipc_free(best);
  ipc_lcp_op_free(&op);
  ipcc_status st = ipc_lcp_finish(p, res, it + extra, best_res, stop);
  if (res) res->cg_iterations = extra;
  return st;
}
