/* ipcc fclib FILE [--tol T] [--max-iter N] [--solver pgs|pcg-pgs]: reads an FCLIB
   frictional-contact problem (local, or global reduced to local), solves it with the cone
   solver from r = 0 and prints kind, contacts, size, iterations and the cone residual with two
   normalizations. exit 0 converged, 1 not converged, 2 bad input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "core/alloc.h"
#include "io/fclib_read.h"
#include "lcp/cone.h"

static void fclib_usage(FILE *f) {
  fputs(
      "usage: ipcc fclib FILE.hdf5 [--tol T] [--max-iter N] [--solver pgs|pcg-pgs]\n"
      "  solves an FCLIB frictional-contact problem (local, or global reduced to\n"
      "  W = H'M^-1 H, q = H'M^-1 f + w) with the Coulomb cone solver from r = 0.\n"
      "  --tol: cone residual / ||q|| (default 1e-8); --max-iter: sweeps (default 10000).\n"
      "  exit 0 converged, 1 not converged, 2 bad input\n",
      f);
}

static int fclib_parse_double(const char *opt, const char *s, double *v) {
  char *e;
  errno = 0;
  double x = strtod(s, &e);
  if (*s == '\0' || *e != '\0' || errno || !isfinite(x) || x < 0) {
    fprintf(stderr, "ipcc fclib: %s: expected a number >= 0, got '%s'\n", opt, s);
    return -1;
  }
  *v = x;
  return 0;
}

static int fclib_parse_int(const char *opt, const char *s, int *v) {
  char *e;
  errno = 0;
  long x = strtol(s, &e, 10);
  if (*s == '\0' || *e != '\0' || errno || x < 1 || x > 1000000000L) {
    fprintf(stderr, "ipcc fclib: %s: expected a positive integer, got '%s'\n", opt, s);
    return -1;
  }
  *v = (int)x;
  return 0;
}

int ipc_cmd_fclib(int argc, char **argv) {
  const char *path = NULL;
  ipc_lcp_options opt = ipc_lcp_default_options();
  opt.max_iter = 10000;
  for (int a = 0; a < argc; ++a) {
    const char *s = argv[a];
    int has_value = a + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      fclib_usage(stdout);
      return 0;
    } else if (!strcmp(s, "--tol") && has_value) {
      if (fclib_parse_double(s, argv[++a], &opt.tol) != 0) return 2;
    } else if (!strcmp(s, "--max-iter") && has_value) {
      if (fclib_parse_int(s, argv[++a], &opt.max_iter) != 0) return 2;
    } else if (!strcmp(s, "--solver") && has_value) {
      ++a;
      if (ipc_lcp_solver_parse(argv[a], &opt.solver) != 0 ||
          (opt.solver != IPC_LCP_PGS && opt.solver != IPC_LCP_PCG_PGS)) {
        fprintf(stderr, "ipcc fclib: --solver: expected pgs or pcg-pgs, got '%s'\n", argv[a]);
        return 2;
      }
    } else if ((s[0] == '-' && s[1] != '\0') || path) {
      fprintf(stderr, "ipcc fclib: unknown, incomplete or extra argument '%s'\n", s);
      fclib_usage(stderr);
      return 2;
    } else {
      path = s;
    }
  }
  if (!path) {
    fclib_usage(stderr);
    return 2;
  }
  ipcc_error err;
  ipcc_error_clear(&err);
  ipc_fclib_problem p;
  if (ipc_fclib_read(path, &p, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc fclib: %s\n", err.msg);
    ipc_fclib_problem_free(&p);
    return 2;
  }
  ipc_lcp_problem lp = {0};
  lp.n = p.n;
  lp.M = &p.W;
  lp.q = p.q;
  double *r = IPC_NEW0(double, p.n > 0 ? p.n : 1);
  ipc_lcp_result res;
  memset(&res, 0, sizeof res);
  int rc = 2;
  ipcc_status st = ipc_lcp_cone_solve(&lp, p.mu, &opt, r, &res, &err);
  if (st == IPCC_ERR_INPUT) {
    fprintf(stderr, "ipcc fclib: %s: %s\n", path, err.msg);
  } else {
    ipc_fclib_residual fr = ipc_fclib_residuals(&p, r, NULL);
    printf("problem     %s\n", ipc_fclib_kind_name(p.kind));
    printf("contacts    %d\n", p.ncontacts);
    printf("size        %d (W nnz %d", p.n, p.W.rowptr[p.n]);
    if (p.kind == IPC_FCLIB_GLOBAL) printf(", %d DOFs", p.ndof);
    printf(")\nsolver      %s\n", ipc_lcp_solver_name(opt.solver));
    printf("iterations  %d\n", res.iterations);
    printf("residual    %.6e\n", fr.abs);
    printf("relative    %.6e  (/ ||q||)\n", fr.rel_q);
    printf("siconos     %.6e  (/ max(||q||, ||r||, ||u||))\n", fr.rel_max);
    printf("status      %s\n", st == IPCC_OK ? "converged" : "not converged");
    rc = st == IPCC_OK ? 0 : 1;
  }
  ipc_free(r);
  ipc_fclib_problem_free(&p);
  return rc;
}
