/* LCP solver comparison: sweeps/iterations and time of PGS, AMGS (several alpha), PCG+PGS
 * (Fletcher-Reeves, Polak-Ribiere) to the same relative residual on random problems
 * (dense SPD, contact-like Jacobian form), Lemke as the reference where small enough.
 * usage: bench_lcp [tol]   (default 1e-8) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../lcp_problems.h"
#include "core/alloc.h"
#include "lcp/lcp.h"

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct variant {
  const char *name;
  ipc_lcp_solver solver;
  double alpha;
  int identity;
  ipc_lcp_cg_beta beta;
  double omega;
} variant;

static const variant variants[] = {
    {"pgs", IPC_LCP_PGS, 0, 0, 0, 1.0},
    {"psor w=1.5", IPC_LCP_PGS, 0, 0, 0, 1.5},
    {"amgs a=1 (=pgs)", IPC_LCP_AMGS, 1.0, 0, 0, 1.0},
    {"amgs a=0.5", IPC_LCP_AMGS, 0.5, 0, 0, 1.0},
    {"amgs a=0.3", IPC_LCP_AMGS, 0.3, 0, 0, 1.0},
    {"amgs a=0.1", IPC_LCP_AMGS, 0.1, 0, 0, 1.0},
    {"amgs Omega=mean(d)I", IPC_LCP_AMGS, -1.0, 1, 0, 1.0},
    {"pcg-pgs FR", IPC_LCP_PCG_PGS, 0, 0, IPC_LCP_FLETCHER_REEVES, 1.0},
    {"pcg-pgs PR", IPC_LCP_PCG_PGS, 0, 0, IPC_LCP_POLAK_RIBIERE, 1.0},
    {"lemke", IPC_LCP_LEMKE, 0, 0, 0, 1.0},
    {"bpp", IPC_LCP_BPP, 0, 0, 0, 1.0},
};

static void run(const char *title, const ipc_lcp_problem *p, double tol) {
  const int n = p->n;
  printf("\n%s (n = %d, tol %.0e relative)\n", title, n, tol);
  printf("  %-22s %8s %6s %12s %10s\n", "solver", "iters", "(cg)", "rel.resid", "ms");
  double *z = IPC_NEW(double, n);
  double *W = NULL;
  double dmean = 0.0;
  {
    W = IPC_NEW(double, n);
    double *e = IPC_NEW0(double, n);
    for (int i = 0; i < n; ++i) {
      e[i] = 1.0;
      ipc_lcp_mul(p, e, W);
      dmean += W[i] / n;
      e[i] = 0.0;
    }
    ipc_free(e);
    ipc_free(W);
  }
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
    const variant *va = &variants[v];
    if ((va->solver == IPC_LCP_LEMKE || va->solver == IPC_LCP_BPP) && n > 600) continue;
    if ((va->solver == IPC_LCP_AMGS || va->solver == IPC_LCP_LEMKE || va->solver == IPC_LCP_BPP) &&
        ipc_lcp_is_boxed(p))
      continue;
    ipc_lcp_options o = ipc_lcp_default_options();
    o.solver = va->solver;
    o.tol = tol;
    o.max_iter = 20000;
    o.omega = va->omega;
    o.cg_beta = va->beta;
    o.amgs_alpha = va->alpha > 0 ? va->alpha : 0.5 * dmean;
    o.amgs_omega_identity = va->identity;
    ipc_lcp_result res;
    double t0 = now_seconds();
    ipcc_status st = ipc_lcp_solve(p, &o, z, &res, NULL);
    double ms = 1e3 * (now_seconds() - t0);
    printf("  %-22s %8d %6d %12.3e %10.2f%s\n", va->name, res.iterations, res.cg_iterations,
           res.rel_residual, ms, st == IPCC_OK ? "" : "  (not converged)");
  }
  ipc_free(z);
}

int main(int argc, char **argv) {
  double tol = argc > 1 ? atof(argv[1]) : 1e-8;
  gen_rng r = {2024};
  for (int k = 0; k < 2; ++k) {
    int n = k ? 300 : 100;
    double *M = IPC_NEW(double, (size_t)n *n), *q = IPC_NEW(double, n);
    gen_dense_spd(n, 2 * n, 0.05, &r, M, q);
    ipc_lcp_csr A;
    ipc_lcp_csr_from_dense(&A, n, n, M);
    ipc_lcp_problem p = {0};
    p.n = n;
    p.M = &A;
    p.q = q;
    char title[96];
    snprintf(title, sizeof title, "dense SPD B B^T/2n + 0.05 I");
    run(title, &p, tol);
    ipc_lcp_csr_free(&A);
    ipc_free(M);
    ipc_free(q);
  }
  /* contact problems: rows per contact 1 (LCP) or 3 (friction BLCP); the third set is
   * more coupled (400 contacts on 120 vertices), its friction version is left out: PGS
   * does not converge on it within 1e5 sweeps */
  const int nc[] = {300, 1500, 400};
  const int nv[] = {200, 1000, 120};
  for (int k = 0; k < 3; ++k) {
    for (int fr = 0; fr < (k < 2 ? 2 : 1); ++fr) {
      gen_contact g;
      gen_contact_make(&g, nc[k], nv[k], fr ? 3 : 1, 1, 1e-6, 0.5, &r);
      ipc_lcp_problem p = gen_contact_problem(&g);
      char title[128];
      snprintf(title, sizeof title, "contacts %d over %d vertices, %s, W = J M^-1 J^T + 1e-6 I",
               nc[k], nv[k], fr ? "friction box mu = 0.5 (BLCP)" : "frictionless");
      run(title, &p, tol);
      if (fr) {
        /* the same with the friction box frozen at +-0.1 (fixed-bound BLCP) */
        for (int i = 0; i < g.n; ++i) {
          g.lo[i] = i % 3 ? -0.1 : 0.0;
          g.hi[i] = i % 3 ? 0.1 : INFINITY;
        }
        p.dep = NULL;
        run("  ... with fixed bounds |z_t| <= 0.1", &p, tol);
      }
      gen_contact_free(&g);
    }
  }
  return 0;
}
