/* FCLIB problems (tests/data/fclib, or all of DATA_DIR/fclib when given a data folder, see
   tools/validate.sh): reading (local and global, sizes from the data README), the global
   reduction W = H'M^-1 H, q = H'M^-1 f + w against an independent CG solve on the raw file
   data, cone solves of the small problems with the Coulomb conditions checked on the result,
   and broken files giving IPCC_ERR_INPUT */
#include <fclib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "io/fclib_read.h"
#include "lcp/cone.h"
#include "test.h"

typedef struct sample {
  const char *file;
  ipc_fclib_kind kind;
  int ncontacts, ndof;
  int vendored; /* also in tests/data/fclib */
} sample;

static const sample samples[] = {
    {"Capsules-i125-1213.hdf5", IPC_FCLIB_LOCAL, 286, 0, 0},
    {"LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", IPC_FCLIB_LOCAL, 60, 0, 1},
    {"Box_Stacks-i0122-82-5.hdf5", IPC_FCLIB_GLOBAL, 82, 450, 1},
    {"spheres-in-a-box-98-i10000-256-10.hdf5", IPC_FCLIB_GLOBAL, 256, 588, 0},
    {"CubeH8.hdf5", IPC_FCLIB_GLOBAL, 1, 162, 1},
};

static double max_asym(const ipc_lcp_csr *W) {
  int n = W->nrows;
  double *d = IPC_NEW0(double, (size_t)n *(size_t)n);
  for (int a = 0; a < n; ++a)
    for (int e = W->rowptr[a]; e < W->rowptr[a + 1]; ++e) d[(size_t)a * n + W->col[e]] = W->val[e];
  double m = 0, big = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      m = fmax(m, fabs(d[(size_t)a * n + b] - d[(size_t)b * n + a]));
      big = fmax(big, fabs(d[(size_t)a * n + b]));
    }
  ipc_free(d);
  return m / big;
}

/* y = A x for the raw triplets of a global M (mirrored when one triangle is stored) */
static void m_apply(const struct fclib_matrix *M, const double *x, double *y) {
  int lower = 0, upper = 0;
  for (int k = 0; k < M->nz; ++k) {
    lower += M->i[k] > M->p[k];
    upper += M->i[k] < M->p[k];
  }
  int mirror = lower == 0 || upper == 0;
  memset(y, 0, sizeof(double) * (size_t)M->m);
  for (int k = 0; k < M->nz; ++k) {
    int r = M->i[k], c = M->p[k];
    y[r] += M->x[k] * x[c];
    if (mirror && r != c) y[c] += M->x[k] * x[r];
  }
}

/* checks u = W r + q against H'v + w with M v = H r + f solved by CG on the raw file data */
static void check_reduction(const char *path, const ipc_fclib_problem *p) {
  struct fclib_global *g = fclib_read_global(path);
  CHECK(g != NULL);
  if (!g) return;
  int nd = g->M->m, m = p->n;
  CHECK(g->M->nz >= 0 && g->H->nz >= 0);
  double *r = IPC_NEW(double, m), *u = IPC_NEW(double, m), *b = IPC_NEW0(double, nd);
  for (int a = 0; a < m; ++a) r[a] = sin(1.0 + 0.37 * a);
  ipc_fclib_residuals(p, r, u);
  for (int k = 0; k < g->H->nz; ++k) b[g->H->i[k]] += g->H->x[k] * r[g->H->p[k]];
  for (int k = 0; k < nd; ++k) b[k] += g->f[k];
  double *v = IPC_NEW0(double, nd), *res = IPC_NEW(double, nd), *d = IPC_NEW(double, nd),
         *Ad = IPC_NEW(double, nd);
  memcpy(res, b, sizeof(double) * (size_t)nd);
  memcpy(d, b, sizeof(double) * (size_t)nd);
  double rr = 0, bb = 0;
  for (int k = 0; k < nd; ++k) rr += res[k] * res[k];
  bb = rr;
  for (int it = 0; it < 20 * nd && rr > 1e-30 * bb; ++it) {
    m_apply(g->M, d, Ad);
    double dAd = 0;
    for (int k = 0; k < nd; ++k) dAd += d[k] * Ad[k];
    double al = rr / dAd, rr2 = 0;
    for (int k = 0; k < nd; ++k) {
      v[k] += al * d[k];
      res[k] -= al * Ad[k];
      rr2 += res[k] * res[k];
    }
    for (int k = 0; k < nd; ++k) d[k] = res[k] + rr2 / rr * d[k];
    rr = rr2;
  }
  double *u2 = IPC_NEW(double, m);
  memcpy(u2, g->w, sizeof(double) * (size_t)m);
  for (int k = 0; k < g->H->nz; ++k) u2[g->H->p[k]] += g->H->x[k] * v[g->H->i[k]];
  double err = 0, scale = 0;
  for (int a = 0; a < m; ++a) {
    err = fmax(err, fabs(u[a] - u2[a]));
    scale = fmax(scale, fabs(u2[a]));
  }
  CHECK_MSG(err <= 1e-8 * scale, "%s: |W r + q - (H'v + w)| = %g, scale %g", path, err, scale);
  fclib_delete_global(g);
  free(g); /* libfclib 3.1.0 does not free the struct itself */
  ipc_free(r);
  ipc_free(u);
  ipc_free(b);
  ipc_free(v);
  ipc_free(res);
  ipc_free(d);
  ipc_free(Ad);
  ipc_free(u2);
}

/* solves p and checks the residual and the Coulomb conditions: r in K_mu, u-hat in the dual
   cone, r . u-hat = 0, all relative to the solution's scale */
static void check_solve(const char *name, const ipc_fclib_problem *p, double tol, int max_iter,
                        double expect_rel, double cone_tol) {
  ipc_lcp_problem lp = {0};
  lp.n = p->n;
  lp.M = &p->W;
  lp.q = p->q;
  ipc_lcp_options opt = ipc_lcp_default_options();
  opt.tol = tol;
  opt.max_iter = max_iter;
  double *r = IPC_NEW0(double, p->n), *u = IPC_NEW(double, p->n);
  ipc_lcp_result res;
  ipcc_error err;
  ipcc_status st = ipc_lcp_cone_solve(&lp, p->mu, &opt, r, &res, &err);
  ipc_fclib_residual fr = ipc_fclib_residuals(p, r, u);
  fprintf(stderr, "%s: %d iterations, residual %.3e, / ||q|| %.3e, siconos %.3e\n", name,
          res.iterations, fr.abs, fr.rel_q, fr.rel_max);
  CHECK(st != IPCC_ERR_INPUT);
  CHECK_MSG(fr.rel_q <= expect_rel, "%s: relative residual %g > %g", name, fr.rel_q, expect_rel);
  CHECK_NEAR(fr.rel_q, res.rel_residual, 1e-9);
  /* scales: max |r|, and for u the size of the terms of W r + q (u itself may be ~0) */
  double rs = 1e-300, us = 1e-300;
  for (int a = 0; a < p->n; ++a) {
    rs = fmax(rs, fabs(r[a]));
    double t = fabs(p->q[a]);
    for (int e = p->W.rowptr[a]; e < p->W.rowptr[a + 1]; ++e)
      t += fabs(p->W.val[e] * r[p->W.col[e]]);
    us = fmax(us, t);
  }
  double worst_k = 0, worst_dual = 0, worst_comp = 0;
  for (int c = 0; c < p->ncontacts; ++c) {
    const double *rc = r + 3 * c, *uc = u + 3 * c;
    double rt = hypot(rc[1], rc[2]), ut = hypot(uc[1], uc[2]);
    double uhat_n = uc[0] + p->mu[c] * ut;
    worst_k = fmax(worst_k, fmax(-rc[0], rt - p->mu[c] * rc[0]) / rs);
    /* dual cone K*_mu = {v : mu |v_T| <= v_N} */
    worst_dual = fmax(worst_dual, (p->mu[c] * ut - uhat_n) / us);
    worst_comp = fmax(worst_comp, fabs(rc[0] * uhat_n + rc[1] * uc[1] + rc[2] * uc[2]) / (rs * us));
  }
  CHECK_MSG(worst_k <= 1e-12, "%s: r outside K_mu by %g", name, worst_k);
  CHECK_MSG(worst_dual <= cone_tol, "%s: u-hat outside the dual cone by %g", name, worst_dual);
  CHECK_MSG(worst_comp <= cone_tol, "%s: r . u-hat = %g", name, worst_comp);
  ipc_free(r);
  ipc_free(u);
}

static void copy_truncated(const char *src, const char *dst, long keep) {
  FILE *f = fopen(src, "rb");
  FILE *g = fopen(dst, "wb");
  CHECK(f && g);
  if (!f || !g) {
    if (f) fclose(f);
    if (g) fclose(g);
    return;
  }
  char buf[4096];
  long done = 0;
  while (done < keep) {
    size_t want = (size_t)(keep - done < 4096 ? keep - done : 4096);
    size_t got = fread(buf, 1, want, f);
    if (got == 0) break;
    fwrite(buf, 1, got, g);
    done += (long)got;
  }
  fclose(f);
  fclose(g);
}

static void expect_input_error(const char *path, const char *what) {
  ipc_fclib_problem p;
  ipcc_error err;
  ipcc_error_clear(&err);
  ipcc_status st = ipc_fclib_read(path, &p, &err);
  CHECK_MSG(st == IPCC_ERR_INPUT, "%s: status %d", what, (int)st);
  CHECK_MSG(strstr(err.msg, path) != NULL, "%s: message '%s' does not name the file", what,
            err.msg);
  CHECK(p.q == NULL && p.W.rowptr == NULL);
  ipc_fclib_problem_free(&p);
}

/* a 2-contact local problem with W 6 x 6 CSR; bad selects a defect */
static void write_local(const char *path, int bad) {
  int p[7] = {0, 1, 2, 3, 4, 5, 6}, i[6] = {0, 1, 2, 3, 4, 5};
  double x[6] = {2, 1, 1, 2, 1, 1}, q[6] = {-1, 0.1, 0, 1, 0, 0}, mu[2] = {0.5, 0.3};
  if (bad == 1) i[4] = 9;     /* column out of range */
  if (bad == 2) p[3] = 1;     /* row pointers decrease */
  if (bad == 3) mu[1] = -0.2; /* negative friction */
  if (bad == 4) q[2] = NAN;
  struct fclib_matrix W = {6, 6, 6, p, i, x, -2, NULL};
  if (bad == 5) { /* triplets (row i, column p) with nz 6 > nzmax 3: libfclib's reader
                     allocated x for nzmax and read 6 values into it */
    W.nz = 6;
    W.nzmax = 3;
  }
  struct fclib_local lp = {&W, NULL, NULL, mu, q, NULL, 3, NULL};
  remove(path);
  CHECK(fclib_write_local(&lp, path) == 1);
}

/* the truncated and broken files: each must give IPCC_ERR_INPUT naming the file */
static void test_broken_files(const char *dir) {
  char tmp[256], src[512];
  snprintf(tmp, sizeof tmp, "/tmp/ipcc_test_fclib_%ld.hdf5", (long)getpid());
  snprintf(src, sizeof src, "%s/CubeH8.hdf5", dir);
  copy_truncated(src, tmp, 30000);
  expect_input_error(tmp, "truncated CubeH8");
  snprintf(src, sizeof src, "%s/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", dir);
  copy_truncated(src, tmp, 100000);
  expect_input_error(tmp, "truncated PerioBox");
  copy_truncated(src, tmp, 0);
  expect_input_error(tmp, "empty file");
  expect_input_error("/tmp/ipcc_test_fclib_does_not_exist.hdf5", "missing file");
  for (int bad = 1; bad <= 5; ++bad) {
    write_local(tmp, bad);
    expect_input_error(tmp, "broken local problem");
  }
  write_local(tmp, 0);
  ipc_fclib_problem p;
  ipcc_error err;
  CHECK(ipc_fclib_read(tmp, &p, &err) == IPCC_OK);
  CHECK(p.ncontacts == 2 && p.W.rowptr[p.n] == 6);
  if (p.q) check_solve("small local", &p, 1e-10, 1000, 1e-10, 1e-9);
  ipc_fclib_problem_free(&p);
  remove(tmp);
}

/* usage: test_fclib [DATA_DIR]: every sample in DATA_DIR/fclib (tools/validate.sh); without
   it the vendored ones in tests/data/fclib */
int main(int argc, char **argv) {
  int full = argc > 1;
  char dir[512];
  snprintf(dir, sizeof dir, "%s/fclib", full ? argv[1] : "tests/data");
  for (size_t s = 0; s < sizeof samples / sizeof samples[0]; ++s) {
    if (!full && !samples[s].vendored) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, samples[s].file);
    ipc_fclib_problem p;
    ipcc_error err;
    ipcc_error_clear(&err);
    ipcc_status st = ipc_fclib_read(path, &p, &err);
    CHECK_MSG(st == IPCC_OK, "%s: %s", path, err.msg);
    if (st != IPCC_OK) continue;
    CHECK(p.kind == samples[s].kind);
    CHECK(p.ncontacts == samples[s].ncontacts);
    CHECK(p.n == 3 * samples[s].ncontacts);
    CHECK(p.ndof == samples[s].ndof);
    CHECK(p.W.nrows == p.n && p.W.ncols == p.n);
    if (p.kind == IPC_FCLIB_GLOBAL) {
      /* H'M^-1 H is symmetric only with M mirrored (CubeH8 stores one triangle) */
      CHECK_MSG(max_asym(&p.W) <= 1e-12, "%s: W asymmetric by %g", path, max_asym(&p.W));
      check_reduction(path, &p);
    }
    if (strstr(path, "PerioBox")) check_solve(path, &p, 1e-8, 10000, 1e-8, 1e-8);
    if (strstr(path, "CubeH8")) check_solve(path, &p, 1e-8, 10000, 1e-8, 1e-8);
    /* sliding contacts: the cone PGS used to stall here near 4e-3 (each tangent scaled by
       its own diagonal); with one step length for both it converges (docs/lcp-mode.md) */
    if (strstr(path, "Box_Stacks")) check_solve(path, &p, 1e-8, 2000, 1e-8, 1e-8);
    if (strstr(path, "Capsules")) check_solve(path, &p, 1e-8, 10000, 1e-8, 1e-8);
    ipc_fclib_problem_free(&p);
  }

  test_broken_files(dir);
  TEST_MAIN_END();
}
