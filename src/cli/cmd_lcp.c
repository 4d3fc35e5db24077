/* ipcc lcp M.mtx q.mtx [--solver S] [-o z.mtx] [--tol T] [--max-iter N] [--omega W]
   [--alpha A] [--z0 z0.mtx]: solves one LCP (w = M z + q, 0 <= z, 0 <= w, z'w = 0) read
   from Matrix Market files. Prints the solver, n, iterations and the residuals; writes z
   (atomically) with -o. exit 0 converged, 1 not converged (or no solution), 2 bad input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/alloc.h"
#include "core/error.h"
#include "io/matrix_market.h"
#include "io/path.h"
#include "lcp/lcp.h"

static void lcp_usage(FILE *f) {
  fputs(
      "usage: ipcc lcp M.mtx q.mtx [--solver pgs|pcg-pgs|amgs|lemke|bpp] [-o z.mtx]\n"
      "                [--tol T] [--max-iter N] [--omega W] [--alpha A] [--z0 z0.mtx]\n"
      "  solves w = M z + q, z >= 0, w >= 0, z'w = 0 (Matrix Market files; q and z are\n"
      "  n x 1 arrays). --tol: relative residual ||min(z, w)|| / ||q|| (default 1e-8);\n"
      "  --max-iter: sweeps (default 1000); --omega: PGS relaxation; --alpha: AMGS.\n"
      "  exit 0 converged, 1 not converged or no solution, 2 bad input\n",
      f);
}

static int parse_double_arg(const char *opt, const char *s, double *v) {
  char *e;
  errno = 0;
  double x = strtod(s, &e);
  if (*s == '\0' || *e != '\0' || errno || !isfinite(x)) {
    fprintf(stderr, "ipcc lcp: %s: expected a number, got '%s'\n", opt, s);
    return -1;
  }
  *v = x;
  return 0;
}

static int parse_int_arg(const char *opt, const char *s, int *v) {
  char *e;
  errno = 0;
  long x = strtol(s, &e, 10);
  if (*s == '\0' || *e != '\0' || errno || x < 1 || x > 1000000000L) {
    fprintf(stderr, "ipcc lcp: %s: expected a positive integer, got '%s'\n", opt, s);
    return -1;
  }
  *v = (int)x;
  return 0;
}

/* reads an n-vector (n x 1 or 1 x n) from path into a new array */
static double *read_vector(const char *path, int *n, ipcc_error *err) {
  ipc_mm_matrix m;
  if (ipc_mm_read(path, &m, err) != IPCC_OK) return NULL;
  if (m.cols != 1 && m.rows != 1) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected a vector (n x 1), found %d x %d", path, m.rows,
                  m.cols);
    ipc_mm_free(&m);
    return NULL;
  }
  *n = m.cols == 1 ? m.rows : m.cols;
  double *v = IPC_NEW(double, *n > 0 ? *n : 1);
  ipc_mm_to_dense(&m, v);
  ipc_mm_free(&m);
  return v;
}

int ipc_cmd_lcp(int argc, char **argv) {
  const char *files[2] = {NULL, NULL}, *out = NULL, *z0_path = NULL;
  int nfiles = 0;
  ipc_lcp_options opt = ipc_lcp_default_options();
  for (int a = 0; a < argc; ++a) {
    const char *s = argv[a];
    int has_value = a + 1 < argc;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      lcp_usage(stdout);
      return 0;
    } else if (!strcmp(s, "--solver") && has_value) {
      if (ipc_lcp_solver_parse(argv[++a], &opt.solver) != 0) {
        fprintf(stderr, "ipcc lcp: --solver: unknown solver '%s'\n", argv[a]);
        return 2;
      }
    } else if (!strcmp(s, "-o") && has_value) {
      out = argv[++a];
    } else if (!strcmp(s, "--z0") && has_value) {
      z0_path = argv[++a];
    } else if (!strcmp(s, "--tol") && has_value) {
      if (parse_double_arg(s, argv[++a], &opt.tol) != 0) return 2;
      if (opt.tol < 0.0) {
        fprintf(stderr, "ipcc lcp: --tol: expected a relative residual >= 0, got '%s'\n", argv[a]);
        return 2;
      }
    } else if (!strcmp(s, "--max-iter") && has_value) {
      if (parse_int_arg(s, argv[++a], &opt.max_iter) != 0) return 2;
    } else if (!strcmp(s, "--omega") && has_value) {
      if (parse_double_arg(s, argv[++a], &opt.omega) != 0) return 2;
    } else if (!strcmp(s, "--alpha") && has_value) {
      if (parse_double_arg(s, argv[++a], &opt.amgs_alpha) != 0) return 2;
    } else if (s[0] == '-' && s[1] != '\0') {
      fprintf(stderr, "ipcc lcp: unknown or incomplete option '%s'\n", s);
      lcp_usage(stderr);
      return 2;
    } else if (nfiles < 2) {
      files[nfiles++] = s;
    } else {
      fprintf(stderr, "ipcc lcp: unexpected argument '%s'\n", s);
      lcp_usage(stderr);
      return 2;
    }
  }
  if (nfiles != 2) {
    lcp_usage(stderr);
    return 2;
  }
  /* the output's folder before the solve, not after it */
  if (out) {
    char *dir = ipc_path_dirname(out);
    const char *d = dir[0] ? dir : ".";
    struct stat sb;
    int ok = stat(d, &sb) == 0 && S_ISDIR(sb.st_mode) && access(d, W_OK) == 0;
    if (!ok)
      fprintf(stderr, "ipcc lcp: -o %s: the folder %s does not exist or is not writable\n", out, d);
    ipc_free(dir);
    if (!ok) return 2;
  }

  ipcc_error err;
  ipcc_error_clear(&err);
  ipc_mm_matrix mm;
  if (ipc_mm_read(files[0], &mm, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc lcp: %s\n", err.msg);
    return 2;
  }
  if (mm.rows != mm.cols) {
    fprintf(stderr, "ipcc lcp: %s: expected a square matrix, found %d x %d\n", files[0], mm.rows,
            mm.cols);
    ipc_mm_free(&mm);
    return 2;
  }
  int n = 0;
  double *q = read_vector(files[1], &n, &err);
  if (!q) {
    fprintf(stderr, "ipcc lcp: %s\n", err.msg);
    ipc_mm_free(&mm);
    return 2;
  }
  double *z0 = NULL;
  int rc = 2;
  ipc_lcp_csr M = {0, 0, NULL, NULL, NULL};
  if (n != mm.rows) {
    fprintf(stderr, "ipcc lcp: %s has %d entries, %s is %d x %d\n", files[1], n, files[0], mm.rows,
            mm.cols);
    goto done;
  }
  if (z0_path) {
    int n0 = 0;
    z0 = read_vector(z0_path, &n0, &err);
    if (!z0) {
      fprintf(stderr, "ipcc lcp: %s\n", err.msg);
      goto done;
    }
    if (n0 != n) {
      fprintf(stderr, "ipcc lcp: %s has %d entries, expected %d\n", z0_path, n0, n);
      goto done;
    }
    opt.z0 = z0;
  }
  if (ipc_lcp_csr_from_triplets(&M, n, n, mm.nnz, mm.ri, mm.ci, mm.val, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc lcp: %s: %s\n", files[0], err.msg);
    goto done;
  }
  ipc_lcp_problem p = {0};
  p.n = n;
  p.M = &M;
  p.q = q;
  double *z = IPC_NEW(double, n > 0 ? n : 1);
  ipc_lcp_result res;
  ipcc_status st = ipc_lcp_solve(&p, &opt, z, &res, &err);
  if (st == IPCC_ERR_INPUT) {
    fprintf(stderr, "ipcc lcp: %s\n", err.msg);
    ipc_free(z);
    goto done;
  }
  static const char *const why[] = {"converged", "iteration cap reached", "stalled",
                                    "secondary ray: no solution found",
                                    "singular pivot or diagonal"};
  printf("solver      %s\n", ipc_lcp_solver_name(opt.solver));
  printf("n           %d\n", n);
  printf("iterations  %d", res.iterations);
  if (opt.solver == IPC_LCP_PCG_PGS) printf(" (%d CG)", res.cg_iterations);
  printf("\nresidual    %.6e\n", res.residual);
  printf("relative    %.6e\n", res.rel_residual);
  printf("status      %s\n", why[res.stop]);
  rc = st == IPCC_OK ? 0 : 1;
  if (out && ipc_mm_write_array(out, n, 1, z, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc lcp: %s\n", err.msg);
    rc = 2;
  }
  ipc_free(z);
done:
  ipc_lcp_csr_free(&M);
  ipc_free(z0);
  ipc_free(q);
  ipc_mm_free(&mm);
  return rc;
}
