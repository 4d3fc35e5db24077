/* LCP front: defaults, problem checks, solver dispatch */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "lcp/lcp_internal.h"

ipc_lcp_options ipc_lcp_default_options(void) {
  ipc_lcp_options o;
  memset(&o, 0, sizeof o);
  o.solver = IPC_LCP_PGS;
  o.max_iter = 1000;
  o.tol = 1e-8;
  o.step_tol = 0.0;
  o.z0 = NULL;
  o.omega = 1.0;
  o.cg_max_iter = 0;
  o.cg_tol = 0.0;
  o.cg_beta = IPC_LCP_FLETCHER_REEVES;
  o.cg_stall = 10;
  o.amgs_alpha = 0.5;
  o.amgs_omega_identity = false;
  o.amgs_gamma = 1.0;
  o.check_every = 1;
  return o;
}

ipc_lcp_options ipc_lcp_options_or_default(const ipc_lcp_options *opt) {
  return opt ? *opt : ipc_lcp_default_options();
}

static const char *const solver_names[] = {"pgs", "pcg-pgs", "amgs", "lemke", "bpp"};

const char *ipc_lcp_solver_name(ipc_lcp_solver s) {
  if ((int)s < 0 || (int)s >= (int)(sizeof solver_names / sizeof solver_names[0])) return "?";
  return solver_names[s];
}

int ipc_lcp_solver_parse(const char *name, ipc_lcp_solver *s) {
  for (int k = 0; k < (int)(sizeof solver_names / sizeof solver_names[0]); ++k) {
    if (!strcmp(name, solver_names[k])) {
      *s = (ipc_lcp_solver)k;
      return 0;
    }
  }
  return -1;
}

bool ipc_lcp_is_boxed(const ipc_lcp_problem *p) {
  return p->lo || p->hi || p->dep;
}

static ipcc_status check_csr(const ipc_lcp_csr *A, const char *name, ipcc_error *err) {
  if (!A->rowptr || A->rowptr[0] != 0)
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: %s: row pointers must start at 0", name);
  for (int i = 0; i < A->nrows; ++i) {
    if (A->rowptr[i + 1] < A->rowptr[i])
      return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: %s: row %d has a negative length", name, i);
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      if (A->col[k] < 0 || A->col[k] >= A->ncols)
        return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: %s: row %d: column %d outside 0..%d", name,
                             i, A->col[k], A->ncols - 1);
      if (k > A->rowptr[i] && A->col[k] <= A->col[k - 1])
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "LCP: %s: row %d: columns must be strictly increasing", name, i);
      if (!isfinite(A->val[k]))
        return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: %s: row %d: entry is not finite", name, i);
    }
  }
  return IPCC_OK;
}

ipcc_status ipc_lcp_problem_check(const ipc_lcp_problem *p, ipcc_error *err) {
  if (p->n < 0) return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: negative size %d", p->n);
  if (!p->q && p->n > 0) return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: q is missing");
  if (!!p->M == !!p->J)
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: give exactly one of M and J");
  if (p->M) {
    if (p->M->nrows != p->n || p->M->ncols != p->n)
      return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: M is %d x %d, expected %d x %d", p->M->nrows,
                           p->M->ncols, p->n, p->n);
    if (check_csr(p->M, "M", err) != IPCC_OK) return IPCC_ERR_INPUT;
  } else {
    if (p->J->nrows != p->n)
      return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: J has %d rows, expected %d", p->J->nrows,
                           p->n);
    if (p->ainv_block < 1 || p->J->ncols % p->ainv_block != 0)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "LCP: J has %d columns, not a multiple of the A^-1 block size %d",
                           p->J->ncols, p->ainv_block);
    if (!p->ainv && p->J->ncols > 0)
      return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: A^-1 is missing");
    if (check_csr(p->J, "J", err) != IPCC_OK) return IPCC_ERR_INPUT;
  }
  for (int i = 0; i < p->n; ++i) {
    if (!isfinite(p->q[i]))
      return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: q[%d] is not finite", i);
    double lo = p->lo ? p->lo[i] : 0.0, hi = p->hi ? p->hi[i] : INFINITY;
    if (isnan(lo) || isnan(hi) || lo > hi)
      return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: entry %d: bounds [%g, %g] are empty", i, lo,
                           hi);
    if (p->dep && p->dep[i] >= 0) {
      int k = p->dep[i];
      if (k >= p->n || k == i || p->dep[k] >= 0)
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "LCP: entry %d: dep %d must name another entry without dep", i, k);
      if (!isfinite(lo) || !isfinite(hi))
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "LCP: entry %d: bound factors of a dependent entry must be finite", i);
    }
  }
  return IPCC_OK;
}

ipcc_status ipc_lcp_start(const ipc_lcp_problem *p, const ipc_lcp_options *opt, ipc_lcp_options *o,
                          ipcc_error *err) {
  *o = ipc_lcp_options_or_default(opt);
  if (ipc_lcp_problem_check(p, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (!(o->tol >= 0.0) || !(o->step_tol >= 0.0) || isnan(o->cg_tol))
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: tolerances must be >= 0");
  if (!(o->omega > 0.0 && o->omega < 2.0))
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: omega %g outside (0, 2)", o->omega);
  if (!(o->amgs_alpha > 0.0) || !(o->amgs_gamma > 0.0))
    return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: AMGS alpha and gamma must be > 0");
  if (o->max_iter <= 0) o->max_iter = 1000;
  if (o->cg_max_iter <= 0) o->cg_max_iter = 2 * p->n;
  if (o->cg_stall <= 0) o->cg_stall = 10;
  if (!(o->cg_tol > o->tol)) o->cg_tol = o->tol;
  return IPCC_OK;
}

void ipc_lcp_initial(const ipc_lcp_problem *p, const ipc_lcp_options *o, double *z) {
  if (p->n == 0) return;
  if (o->z0) {
    if (o->z0 != z) memmove(z, o->z0, sizeof(double) * (size_t)p->n);
  } else {
    memset(z, 0, sizeof(double) * (size_t)p->n);
  }
  ipc_lcp_project(p, z);
}

ipcc_status ipc_lcp_finish(const ipc_lcp_problem *p, ipc_lcp_result *res, int iterations,
                           double residual, ipc_lcp_stop stop) {
  if (res) {
    res->iterations = iterations;
    res->residual = residual;
    res->rel_residual = ipc_lcp_relative(p, residual);
    res->stop = stop;
    res->cg_iterations = 0;
  }
  return stop == IPC_LCP_CONVERGED ? IPCC_OK : IPCC_ERR_SIM;
}

ipcc_status ipc_lcp_solve(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                          ipc_lcp_result *res, ipcc_error *err) {
  ipc_lcp_options o = ipc_lcp_options_or_default(opt);
  switch (o.solver) {
    case IPC_LCP_PGS:
      return ipc_lcp_pgs(p, &o, z, res, err);
    case IPC_LCP_PCG_PGS:
      return ipc_lcp_pcg_pgs(p, &o, z, res, err);
    case IPC_LCP_AMGS:
      return ipc_lcp_amgs(p, &o, z, res, err);
    case IPC_LCP_LEMKE:
      return ipc_lcp_lemke(p, &o, z, res, err);
    case IPC_LCP_BPP:
      return ipc_lcp_bpp(p, &o, z, res, err);
  }
  return ipc_error_set(err, IPCC_ERR_INPUT, "LCP: unknown solver %d", (int)o.solver);
}
