/* PGS against AMGS (Miyamoto et al., Table 1) on one LCP read from Matrix Market files (as
 * `ipcc lcp` reads them, e.g. dumped by `ipcc run --dump-lcp` or bench_lcp_dump): sweeps and
 * solve seconds (reading excluded) from z = 0 to each relative residual ||min(z, Mz+q)|| /
 * ||q||, with the default options of `ipcc lcp` (PGS omega 1, AMGS alpha 0.5).
 * usage: bench_lcp_mtx M.mtx q.mtx [MAX_ITER] [TOL ...]   (defaults: 1000000, 1e-4 1e-6)
 * One line per solver and tolerance: solver tol n nnz sweeps rel_residual seconds status. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/alloc.h"
#include "io/matrix_market.h"
#include "lcp/lcp.h"

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_lcp_mtx M.mtx q.mtx [MAX_ITER] [TOL ...]\n");
    return 2;
  }
  int max_iter = argc > 3 ? atoi(argv[3]) : 1000000;
  double tols_default[2] = {1e-4, 1e-6};
  int ntol = argc > 4 ? argc - 4 : 2;
  ipcc_error err;
  ipcc_error_clear(&err);
  ipc_mm_matrix mm, mq;
  if (ipc_mm_read(argv[1], &mm, &err) != IPCC_OK) {
    fprintf(stderr, "bench_lcp_mtx: %s\n", err.msg);
    return 2;
  }
  if (ipc_mm_read(argv[2], &mq, &err) != IPCC_OK) {
    fprintf(stderr, "bench_lcp_mtx: %s\n", err.msg);
    ipc_mm_free(&mm);
    return 2;
  }
  int n = mm.rows, rc = 0;
  if (mm.cols != n || mq.rows != n || mq.cols != 1) {
    fprintf(stderr, "bench_lcp_mtx: expected M n x n and q n x 1, found %d x %d and %d x %d\n",
            mm.rows, mm.cols, mq.rows, mq.cols);
    ipc_mm_free(&mm);
    ipc_mm_free(&mq);
    return 2;
  }
  double *q = IPC_NEW0(double, n > 0 ? n : 1);
  for (int k = 0; k < mq.nnz; ++k) q[mq.ri[k]] += mq.val[k];
  /* the stored zeros of a dense file are not entries of the operator */
  int nt = 0;
  for (int k = 0; k < mm.nnz; ++k)
    if (mm.val[k] != 0.0) {
      mm.ri[nt] = mm.ri[k];
      mm.ci[nt] = mm.ci[k];
      mm.val[nt++] = mm.val[k];
    }
  ipc_lcp_csr M = {0, 0, NULL, NULL, NULL};
  if (ipc_lcp_csr_from_triplets(&M, n, n, nt, mm.ri, mm.ci, mm.val, &err) != IPCC_OK) {
    fprintf(stderr, "bench_lcp_mtx: %s\n", err.msg);
    rc = 2;
  }
  ipc_lcp_problem p = {0};
  p.n = n;
  p.M = &M;
  p.q = q;
  double *z = IPC_NEW(double, n > 0 ? n : 1);
  static const char *const why[] = {"converged", "cap", "stalled", "ray", "singular"};
  const ipc_lcp_solver solvers[2] = {IPC_LCP_PGS, IPC_LCP_AMGS};
  if (!rc) printf("solver tol n nnz sweeps rel_residual seconds status\n");
  for (int s = 0; s < 2 && !rc; ++s)
    for (int t = 0; t < ntol && !rc; ++t) {
      ipc_lcp_options opt = ipc_lcp_default_options();
      opt.solver = solvers[s];
      opt.tol = argc > 4 ? atof(argv[4 + t]) : tols_default[t];
      opt.max_iter = max_iter;
      ipc_lcp_result res;
      double t0 = now_seconds();
      ipcc_status st = ipc_lcp_solve(&p, &opt, z, &res, &err);
      double sec = now_seconds() - t0;
      if (st == IPCC_ERR_INPUT) {
        fprintf(stderr, "bench_lcp_mtx: %s\n", err.msg);
        rc = 2;
        break;
      }
      printf("%s %g %d %d %d %.3e %.3f %s\n", ipc_lcp_solver_name(opt.solver), opt.tol, n, nt,
             res.iterations, res.rel_residual, sec, why[res.stop]);
      fflush(stdout);
    }
  ipc_free(z);
  ipc_free(q);
  ipc_lcp_csr_free(&M);
  ipc_mm_free(&mm);
  ipc_mm_free(&mq);
  return rc;
}
