/* LCP solvers: residual on hand-computed cases, Lemke on known LCPs (including secondary
 * rays), every iterative solver against Lemke on random SPD and contact problems (explicit
 * and Jacobian form), degenerate problems, friction BLCPs, AMGS sparse = explicit form */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "lcp/cone.h"
#include "lcp/lcp.h"
#include "lcp/lcp_internal.h"
#include "lcp_problems.h"
#include "test.h"

static double max_abs_diff(int n, const double *a, const double *b) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - b[i]));
  return m;
}

static double max_abs(int n, const double *a) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i]));
  return m;
}

static ipc_lcp_problem dense_problem(int n, ipc_lcp_csr *A, const double *M, const double *q) {
  ipc_lcp_csr_from_dense(A, n, n, M);
  ipc_lcp_problem p;
  memset(&p, 0, sizeof p);
  p.n = n;
  p.M = A;
  p.q = q;
  return p;
}

static ipc_lcp_options opts(ipc_lcp_solver s, double tol, int max_iter) {
  ipc_lcp_options o = ipc_lcp_default_options();
  o.solver = s;
  o.tol = tol;
  o.max_iter = max_iter;
  return o;
}

/* ---------------------------------------------------------------- residual */

static void test_residual(void) {
  double M[4] = {1, 0, 0, 1}, q[2] = {-1, 2};
  ipc_lcp_csr A;
  ipc_lcp_problem p = dense_problem(2, &A, M, q);
  /* z = (0.5, 0): w = (-0.5, 2), min(z, w) = (-0.5, 0) */
  double z1[2] = {0.5, 0.0};
  CHECK_NEAR(ipc_lcp_residual(&p, z1), 0.5, 1e-15);
  CHECK_NEAR(ipc_lcp_relative(&p, 0.5), 0.5 / sqrt(5.0), 1e-15);
  /* the solution z = (1, 0): w = (0, 2) */
  double z2[2] = {1.0, 0.0};
  CHECK(ipc_lcp_residual(&p, z2) == 0.0);
  /* z = (2, 1): w = (1, 3), min = (1, 1) */
  double z3[2] = {2.0, 1.0};
  CHECK_NEAR(ipc_lcp_residual(&p, z3), sqrt(2.0), 1e-15);
  /* negative z: min(z, w) = z */
  double z4[2] = {-3.0, 0.0};
  CHECK_NEAR(ipc_lcp_residual(&p, z4), 4.0, 1e-15); /* w = (-4, 2): min = (-4, 0) */
  ipc_lcp_csr_free(&A);

  /* box: W = 2, q = -4, [-1, 1] */
  double M1[1] = {2}, q1[1] = {-4}, lo1[1] = {-1}, hi1[1] = {1};
  p = dense_problem(1, &A, M1, q1);
  p.lo = lo1;
  p.hi = hi1;
  double zb[1] = {0.5}; /* w = -3, z - w = 3.5 -> 1, F = -0.5 */
  CHECK_NEAR(ipc_lcp_residual(&p, zb), 0.5, 1e-15);
  zb[0] = 1.0; /* w = -2 <= 0 at the upper bound: solution */
  CHECK(ipc_lcp_residual(&p, zb) == 0.0);
  zb[0] = -1.0; /* w = -6 at the lower bound: F = -1 - 1 = -2 */
  CHECK_NEAR(ipc_lcp_residual(&p, zb), 2.0, 1e-15);
  /* free variable: the residual is |w| */
  double lof[1] = {-INFINITY}, hif[1] = {INFINITY};
  p.lo = lof;
  p.hi = hif;
  zb[0] = 0.5;
  CHECK_NEAR(ipc_lcp_residual(&p, zb), 3.0, 1e-15);
  ipc_lcp_csr_free(&A);

  /* friction bounds: |z_t| <= 0.25 z_n, W = I, q = (-2, -3) */
  double M2[4] = {1, 0, 0, 1}, q2[2] = {-2, -3}, lo2[2] = {0, -0.25}, hi2[2] = {INFINITY, 0.25};
  int dep2[2] = {-1, 0};
  p = dense_problem(2, &A, M2, q2);
  p.lo = lo2;
  p.hi = hi2;
  p.dep = dep2;
  double zf[2] = {2.0, 1.0}; /* w = (0, -2); t-box [-0.5, 0.5]: F_t = 1 - 0.5 */
  CHECK_NEAR(ipc_lcp_residual(&p, zf), 0.5, 1e-15);
  zf[1] = 0.5; /* sliding at the cone edge with w_t < 0: solution */
  CHECK(ipc_lcp_residual(&p, zf) == 0.0);
  double lo_t, hi_t;
  ipc_lcp_bounds(&p, 1, zf, &lo_t, &hi_t);
  CHECK(lo_t == -0.5 && hi_t == 0.5);
  ipc_lcp_csr_free(&A);
}

/* ---------------------------------------------------------------- Lemke, small cases */

static void test_lemke_known(void) {
  ipc_lcp_csr A;
  ipc_lcp_result res;
  ipcc_error err;
  ipc_lcp_options o = opts(IPC_LCP_LEMKE, 1e-12, 0);
  {
    /* 2x2: z = (4/3, 7/3), w = 0 */
    double M[4] = {2, 1, 1, 2}, q[2] = {-5, -6}, z[2];
    ipc_lcp_problem p = dense_problem(2, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_OK);
    CHECK_NEAR(z[0], 4.0 / 3.0, 1e-14);
    CHECK_NEAR(z[1], 7.0 / 3.0, 1e-14);
    CHECK(res.stop == IPC_LCP_CONVERGED && res.residual < 1e-14);
    ipc_lcp_csr_free(&A);
  }
  {
    /* q >= 0: z = 0 without pivots */
    double M[4] = {2, 1, 1, 2}, q[2] = {1, 0}, z[2] = {7, 7};
    ipc_lcp_problem p = dense_problem(2, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_OK);
    CHECK(z[0] == 0.0 && z[1] == 0.0 && res.iterations == 0);
    ipc_lcp_csr_free(&A);
  }
  {
    /* Murty's cyclic P-matrix, all q tied: z = (1/3, 1/3, 1/3) */
    double M[9] = {1, 2, 0, 0, 1, 2, 2, 0, 1}, q[3] = {-1, -1, -1}, z[3];
    ipc_lcp_problem p = dense_problem(3, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_OK);
    for (int i = 0; i < 3; ++i) CHECK_NEAR(z[i], 1.0 / 3.0, 1e-14);
    ipc_lcp_csr_free(&A);
  }
  {
    /* identity with tied q, and zero entries of q (degenerate) */
    double M[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    double q[4] = {-1, 0, -1, 0}, z[4];
    ipc_lcp_problem p = dense_problem(4, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_OK);
    CHECK(z[0] == 1.0 && z[1] == 0.0 && z[2] == 1.0 && z[3] == 0.0);
    ipc_lcp_csr_free(&A);
  }
  {
    /* w = -z - 1 >= 0 has no solution: secondary ray, reported, no endless loop */
    double M[1] = {-1}, q[1] = {-1}, z[1];
    ipc_lcp_problem p = dense_problem(1, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_ERR_SIM);
    CHECK(res.stop == IPC_LCP_RAY);
    ipc_lcp_csr_free(&A);
  }
  {
    /* positive semidefinite but infeasible (w1 + w2 = -2): ray */
    double M[4] = {1, -1, -1, 1}, q[2] = {-1, -1}, z[2];
    ipc_lcp_problem p = dense_problem(2, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_ERR_SIM);
    CHECK(res.stop == IPC_LCP_RAY);
    CHECK(res.iterations <= 10);
    ipc_lcp_csr_free(&A);
  }
  {
    /* a singular PSD problem that is solvable: duplicated row/column */
    double M[9] = {1, 1, 0, 1, 1, 0, 0, 0, 2}, q[3] = {-1, -1, -2}, z[3], w[3];
    ipc_lcp_problem p = dense_problem(3, &A, M, q);
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_OK);
    ipc_lcp_w(&p, z, w);
    CHECK_NEAR(z[0] + z[1], 1.0, 1e-14);
    CHECK_NEAR(z[2], 1.0, 1e-14);
    CHECK(max_abs(3, w) < 1e-14);
    ipc_lcp_csr_free(&A);
  }
  {
    /* boxed problems are refused */
    double M[1] = {1}, q[1] = {-1}, lo[1] = {-1}, hi[1] = {1}, z[1];
    ipc_lcp_problem p = dense_problem(1, &A, M, q);
    p.lo = lo;
    p.hi = hi;
    CHECK(ipc_lcp_lemke(&p, &o, z, &res, &err) == IPCC_ERR_INPUT);
    CHECK(strstr(err.msg, "Lemke") != NULL);
    o.solver = IPC_LCP_AMGS;
    CHECK(ipc_lcp_solve(&p, &o, z, &res, &err) == IPCC_ERR_INPUT);
    o.solver = IPC_LCP_LEMKE;
    ipc_lcp_csr_free(&A);
  }
}

/* ---------------------------------------------------------------- random SPD vs Lemke */

static const ipc_lcp_solver iterative[] = {IPC_LCP_PGS, IPC_LCP_PCG_PGS, IPC_LCP_AMGS};

/* solves p with every iterative solver (and PR-CG, BPP) and compares z with Lemke's */
static void compare_with_lemke(const ipc_lcp_problem *p, const char *what, double ztol) {
  const int n = p->n;
  double *zl = IPC_NEW(double, n), *z = IPC_NEW(double, n);
  ipc_lcp_result res;
  ipcc_error err;
  ipc_lcp_options o = opts(IPC_LCP_LEMKE, 1e-12, 0);
  ipcc_status st = ipc_lcp_solve(p, &o, zl, &res, &err);
  CHECK_MSG(st == IPCC_OK, "%s: lemke stop %d rel %g", what, (int)res.stop, res.rel_residual);
  double scale = 1.0 + max_abs(n, zl);
  for (int s = 0; s < 5; ++s) {
    ipc_lcp_options oi = opts(IPC_LCP_PGS, 1e-11, 200000);
    const char *name;
    if (s < 3) {
      oi.solver = iterative[s];
      name = ipc_lcp_solver_name(oi.solver);
    } else if (s == 3) {
      oi.solver = IPC_LCP_PCG_PGS;
      oi.cg_beta = IPC_LCP_POLAK_RIBIERE;
      name = "pcg-pgs (PR)";
    } else {
      oi.solver = IPC_LCP_BPP;
      name = "bpp";
    }
    st = ipc_lcp_solve(p, &oi, z, &res, &err);
    CHECK_MSG(st == IPCC_OK, "%s: %s stop %d after %d, rel %g", what, name, (int)res.stop,
              res.iterations, res.rel_residual);
    double dz = max_abs_diff(n, z, zl);
    CHECK_MSG(dz <= ztol * scale, "%s: %s differs from Lemke by %g", what, name, dz);
    CHECK_NEAR(res.residual, ipc_lcp_residual(p, z), 1e-12);
  }
  ipc_free(zl);
  ipc_free(z);
}

static void test_random_dense(void) {
  gen_rng r = {11};
  const int sizes[] = {3, 5, 10, 30, 100, 300};
  const int reps[] = {6, 6, 4, 3, 1, 1};
  for (int s = 0; s < 6; ++s) {
    for (int k = 0; k < reps[s]; ++k) {
      int n = sizes[s];
      double *M = IPC_NEW(double, (size_t)n *n), *q = IPC_NEW(double, n);
      gen_dense_spd(n, 2 * n, 0.05, &r, M, q);
      ipc_lcp_csr A;
      ipc_lcp_problem p = dense_problem(n, &A, M, q);
      char what[64];
      snprintf(what, sizeof what, "dense n=%d #%d", n, k);
      compare_with_lemke(&p, what, 1e-7);
      ipc_lcp_csr_free(&A);
      ipc_free(M);
      ipc_free(q);
    }
  }
}

/* contact problems in Jacobian form, diagonal and 3x3-block A^-1 */
static void test_random_contact(void) {
  gen_rng r = {23};
  const int ncs[] = {3, 12, 40, 100};
  for (int s = 0; s < 4; ++s) {
    for (int block = 1; block <= 3; block += 2) {
      gen_contact g;
      gen_contact_make(&g, ncs[s], ncs[s] + 4, 1, block, 1e-6, 0.0, &r);
      ipc_lcp_problem p = gen_contact_problem(&g);
      char what[64];
      snprintf(what, sizeof what, "contact m=%d b=%d", ncs[s], block);
      compare_with_lemke(&p, what, 1e-6);
      gen_contact_free(&g);
    }
  }
}

/* ---------------------------------------------------------------- AMGS sparse = explicit */

static void test_amgs_forms(void) {
  gen_rng r = {5};
  for (int block = 1; block <= 3; block += 2) {
    gen_contact g;
    gen_contact_make(&g, 30, 25, 1, block, 1e-4, 0.0, &r);
    ipc_lcp_problem pj = gen_contact_problem(&g);
    ipc_lcp_csr W;
    ipc_lcp_csr_explicit(&W, &pj);
    ipc_lcp_problem pe = pj;
    pe.J = NULL;
    pe.M = &W;
    pe.reg = NULL;
    pe.ainv = NULL;
    /* the explicit matrix equals the dense product */
    double *D = IPC_NEW(double, (size_t)g.n *g.n), *E = IPC_NEW(double, (size_t)g.n *g.n);
    ipc_lcp_dense(&pj, D);
    ipc_lcp_dense(&pe, E);
    CHECK(max_abs_diff(g.n * g.n, D, E) <= 1e-14 * max_abs(g.n * g.n, D));
    /* same iterates up to round-off: same sweep count, same z */
    for (int a = 0; a < 3; ++a) {
      ipc_lcp_options o = opts(IPC_LCP_AMGS, 1e-10, 100000);
      o.amgs_alpha = a == 0 ? 1.0 : (a == 1 ? 0.5 : 0.2);
      o.amgs_omega_identity = a == 2;
      double *zj = IPC_NEW(double, g.n), *ze = IPC_NEW(double, g.n);
      ipc_lcp_result rj, re;
      CHECK(ipc_lcp_amgs(&pj, &o, zj, &rj, NULL) == IPCC_OK);
      CHECK(ipc_lcp_amgs(&pe, &o, ze, &re, NULL) == IPCC_OK);
      CHECK_MSG(abs(rj.iterations - re.iterations) <= 1, "sweeps %d vs %d", rj.iterations,
                re.iterations);
      CHECK(max_abs_diff(g.n, zj, ze) <= 1e-9 * (1.0 + max_abs(g.n, ze)));
      /* alpha = 1 with Omega = diag(W) is PGS exactly (same sweeps) */
      if (a == 0) {
        ipc_lcp_options op = opts(IPC_LCP_PGS, 1e-10, 100000);
        ipc_lcp_result rp;
        CHECK(ipc_lcp_pgs(&pj, &op, ze, &rp, NULL) == IPCC_OK);
        CHECK_MSG(rp.iterations == rj.iterations, "pgs %d amgs(1) %d", rp.iterations,
                  rj.iterations);
      }
      ipc_free(zj);
      ipc_free(ze);
    }
    /* matrix-vector products agree */
    double *x = IPC_NEW(double, g.n), *y1 = IPC_NEW(double, g.n), *y2 = IPC_NEW(double, g.n);
    for (int i = 0; i < g.n; ++i) x[i] = gen_sym(&r);
    ipc_lcp_mul(&pj, x, y1);
    ipc_lcp_mul(&pe, x, y2);
    CHECK(max_abs_diff(g.n, y1, y2) <= 1e-13 * (1.0 + max_abs(g.n, y1)));
    ipc_free(x);
    ipc_free(y1);
    ipc_free(y2);
    ipc_free(D);
    ipc_free(E);
    ipc_lcp_csr_free(&W);
    gen_contact_free(&g);
  }
}

/* ---------------------------------------------------------------- degenerate problems */

/* duplicated contacts (identical rows of J: W singular) and q = 0 entries: z is not unique
 * but w and the velocity change A^-1 J^T z are; compare those with Lemke */
static void test_degenerate(void) {
  gen_rng r = {99};
  for (int rep = 0; rep < 3; ++rep) {
    gen_contact g0;
    gen_contact_make(&g0, 15, 12, 1, 1, 0.0, 0.0, &r);
    /* duplicate rows 0..4 at the end, zero a few q entries */
    const int nd = 5, n = g0.n + nd;
    int nnz = g0.J.rowptr[g0.n] + g0.J.rowptr[nd];
    int *ri = IPC_NEW(int, nnz), *ci = IPC_NEW(int, nnz);
    double *v = IPC_NEW(double, nnz), *q = IPC_NEW(double, n);
    int m = 0;
    for (int i = 0; i < n; ++i) {
      int src = i < g0.n ? i : i - g0.n;
      for (int k = g0.J.rowptr[src]; k < g0.J.rowptr[src + 1]; ++k) {
        ri[m] = i;
        ci[m] = g0.J.col[k];
        v[m] = g0.J.val[k];
        ++m;
      }
      q[i] = g0.q[src];
    }
    q[2] = q[2 + g0.n] = 0.0;
    q[7] = 0.0;
    q[0] = q[g0.n] = -fabs(q[0]); /* an active duplicated pair */
    ipc_lcp_csr J;
    CHECK(ipc_lcp_csr_from_triplets(&J, n, g0.ndof, m, ri, ci, v, NULL) == IPCC_OK);
    for (int withreg = 0; withreg < 2; ++withreg) {
      double *reg = NULL;
      if (withreg) {
        reg = IPC_NEW(double, n);
        for (int i = 0; i < n; ++i) reg[i] = 1e-5;
      }
      ipc_lcp_problem p;
      memset(&p, 0, sizeof p);
      p.n = n;
      p.J = &J;
      p.ainv_block = 1;
      p.ainv = g0.ainv;
      p.reg = reg;
      p.q = q;
      double *zl = IPC_NEW(double, n), *wl = IPC_NEW(double, n), *z = IPC_NEW(double, n);
      double *w = IPC_NEW(double, n);
      ipc_lcp_result res;
      ipc_lcp_options o = opts(IPC_LCP_LEMKE, 1e-11, 0);
      CHECK_MSG(ipc_lcp_solve(&p, &o, zl, &res, NULL) == IPCC_OK, "lemke degenerate stop %d",
                (int)res.stop);
      ipc_lcp_w(&p, zl, wl);
      double wscale = 1.0 + max_abs(n, wl);
      for (int s = 0; s < 3; ++s) {
        /* with reg the split between duplicates is unique but Gauss-Seidel equalises it
         * at a rate 1 - reg / W_ii per sweep, so PGS and AMGS get a looser tolerance */
        int slow = withreg && iterative[s] != IPC_LCP_PCG_PGS;
        double tol = slow ? 1e-6 : 1e-10;
        ipc_lcp_options oi = opts(iterative[s], tol, 200000);
        ipcc_status st = ipc_lcp_solve(&p, &oi, z, &res, NULL);
        CHECK_MSG(st == IPCC_OK, "degenerate reg=%d %s: stop %d rel %g", withreg,
                  ipc_lcp_solver_name(oi.solver), (int)res.stop, res.rel_residual);
        ipc_lcp_w(&p, z, w);
        double dw = max_abs_diff(n, w, wl);
        CHECK_MSG(dw <= 1e4 * tol * wscale, "degenerate reg=%d %s: w differs by %g", withreg,
                  ipc_lcp_solver_name(oi.solver), dw);
        /* duplicated rows get the same w */
        for (int i = 0; i < nd; ++i) CHECK(fabs(w[i] - w[g0.n + i]) <= 1e2 * tol * wscale);
      }
      ipc_free(zl);
      ipc_free(wl);
      ipc_free(z);
      ipc_free(w);
      ipc_free(reg);
    }
    ipc_lcp_csr_free(&J);
    ipc_free(ri);
    ipc_free(ci);
    ipc_free(v);
    ipc_free(q);
    gen_contact_free(&g0);
  }
}

/* ---------------------------------------------------------------- BLCP */

/* reference for a BLCP with fixed finite lo and bounds hi (some +inf): the LCP in
 * (s, v) = (z - lo, w^- on rows with finite hi) with matrix [[W, E], [-E^T, 0]] and
 * q' = [W lo + q; hi - lo], solved by Lemke */
static int blcp_by_lemke(int n, const double *W, const double *q, const double *lo,
                         const double *hi, double *z) {
  int nh = 0;
  for (int i = 0; i < n; ++i) nh += isfinite(hi[i]);
  int N = n + nh;
  double *B = IPC_NEW0(double, (size_t)N *N), *qq = IPC_NEW(double, N);
  double *y = IPC_NEW(double, N);
  int h = n;
  for (int i = 0; i < n; ++i) {
    double s = q[i];
    for (int j = 0; j < n; ++j) {
      B[(long)i * N + j] = W[(long)i * n + j];
      s += W[(long)i * n + j] * lo[j];
    }
    qq[i] = s;
    if (isfinite(hi[i])) {
      B[(long)i * N + h] = 1.0;
      B[(long)h * N + i] = -1.0;
      qq[h] = hi[i] - lo[i];
      ++h;
    }
  }
  ipc_lcp_csr A;
  ipc_lcp_problem p = dense_problem(N, &A, B, qq);
  ipc_lcp_options o = opts(IPC_LCP_LEMKE, 1e-11, 0);
  ipc_lcp_result res;
  int ok = ipc_lcp_lemke(&p, &o, y, &res, NULL) == IPCC_OK;
  for (int i = 0; i < n; ++i) z[i] = lo[i] + y[i];
  ipc_lcp_csr_free(&A);
  ipc_free(B);
  ipc_free(qq);
  ipc_free(y);
  return ok;
}

static void test_blcp(void) {
  gen_rng r = {77};
  for (int rep = 0; rep < 3; ++rep) {
    gen_contact g;
    gen_contact_make(&g, 10 + 10 * rep, 12 + 8 * rep, 3, rep == 1 ? 3 : 1, 1e-4, 0.4, &r);
    ipc_lcp_problem p = gen_contact_problem(&g);
    const int n = g.n;
    double *W = IPC_NEW(double, (size_t)n *n);
    ipc_lcp_dense(&p, W);
    double *zs[2] = {IPC_NEW(double, n), IPC_NEW(double, n)};
    double *zr = IPC_NEW(double, n), *lo = IPC_NEW(double, n), *hi = IPC_NEW(double, n);
    for (int s = 0; s < 2; ++s) {
      ipc_lcp_options o = opts(s == 0 ? IPC_LCP_PGS : IPC_LCP_PCG_PGS, 1e-11, 200000);
      ipc_lcp_result res;
      ipcc_status st = ipc_lcp_solve(&p, &o, zs[s], &res, NULL);
      CHECK_MSG(st == IPCC_OK, "friction BLCP %s: stop %d rel %g", ipc_lcp_solver_name(o.solver),
                (int)res.stop, res.rel_residual);
      double *z = zs[s];
      /* inside the friction box; some contacts slide (|z_t| at the bound), some stick */
      int sliding = 0;
      for (int c = 0; c < n / 3; ++c) {
        CHECK(z[3 * c] >= 0.0);
        for (int k = 1; k < 3; ++k) {
          CHECK(fabs(z[3 * c + k]) <= 0.4 * z[3 * c] * (1 + 1e-15));
          sliding += z[3 * c] > 0.0 && fabs(z[3 * c + k]) == 0.4 * z[3 * c];
        }
      }
      if (s == 0 && rep == 0) CHECK(sliding > 0);
      /* the same z solves the BLCP with bounds frozen at its normals: compare with the
       * Lemke solution of that (convex, unique) BLCP */
      for (int i = 0; i < n; ++i) ipc_lcp_bounds(&p, i, z, &lo[i], &hi[i]);
      CHECK(blcp_by_lemke(n, W, g.q, lo, hi, zr));
      double dz = max_abs_diff(n, z, zr);
      CHECK_MSG(dz <= 1e-6 * (1.0 + max_abs(n, zr)), "friction BLCP %s vs Lemke: %g",
                ipc_lcp_solver_name(o.solver), dz);
    }
    /* fixed-bound BLCP (box |z| <= 0.3 on tangents, [0, 2] on normals): unique, so PGS,
     * PCG+PGS and Lemke agree */
    for (int i = 0; i < n; ++i) {
      lo[i] = i % 3 ? -0.3 : 0.0;
      hi[i] = i % 3 ? 0.3 : 2.0;
    }
    ipc_lcp_problem pb = p;
    pb.lo = lo;
    pb.hi = hi;
    pb.dep = NULL;
    CHECK(blcp_by_lemke(n, W, g.q, lo, hi, zr));
    for (int s = 0; s < 2; ++s) {
      ipc_lcp_options o = opts(s == 0 ? IPC_LCP_PGS : IPC_LCP_PCG_PGS, 1e-11, 200000);
      ipc_lcp_result res;
      CHECK(ipc_lcp_solve(&pb, &o, zs[s], &res, NULL) == IPCC_OK);
      CHECK(max_abs_diff(n, zs[s], zr) <= 1e-6 * (1.0 + max_abs(n, zr)));
    }
    ipc_free(zs[0]);
    ipc_free(zs[1]);
    ipc_free(zr);
    ipc_free(lo);
    ipc_free(hi);
    ipc_free(W);
    gen_contact_free(&g);
  }
}

/* ---------------------------------------------------------------- options and behaviour */

static void test_behaviour(void) {
  gen_rng r = {3};
  gen_contact g;
  gen_contact_make(&g, 60, 40, 1, 1, 1e-4, 0.0, &r);
  ipc_lcp_problem p = gen_contact_problem(&g);
  const int n = g.n;
  double *z = IPC_NEW(double, n), *z2 = IPC_NEW(double, n);
  ipc_lcp_result res, res2;

  /* warm start from the solution: converged before any sweep */
  ipc_lcp_options o = opts(IPC_LCP_PGS, 1e-9, 100000);
  CHECK(ipc_lcp_solve(&p, &o, z, &res, NULL) == IPCC_OK);
  int cold = res.iterations;
  CHECK(cold > 1);
  o.z0 = z;
  for (int s = 0; s < 3; ++s) {
    o.solver = iterative[s];
    CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_OK);
    CHECK(res2.iterations == 0);
  }
  /* in place: z may alias z0 */
  o.solver = IPC_LCP_PGS;
  memcpy(z2, z, sizeof(double) * (size_t)n);
  o.z0 = z2;
  CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_OK);
  o.z0 = NULL;

  /* over-relaxation converges too, here in fewer sweeps */
  o.omega = 1.4;
  CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_OK);
  CHECK_MSG(res2.iterations < cold, "SOR %d vs GS %d", res2.iterations, cold);
  CHECK(max_abs_diff(n, z, z2) <= 1e-6 * (1.0 + max_abs(n, z)));
  o.omega = 1.0;

  /* an iteration cap: not converged, best iterate returned with its true residual */
  o.max_iter = 3;
  CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_ERR_SIM);
  CHECK(res2.stop == IPC_LCP_MAX_ITER && res2.iterations == 3);
  CHECK_NEAR(res2.residual, ipc_lcp_residual(&p, z2), 1e-13);
  o.max_iter = 100000;

  /* step_tol stops a stagnating iteration */
  o.step_tol = 1e-3;
  CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_ERR_SIM);
  CHECK(res2.stop == IPC_LCP_STALLED);
  o.step_tol = 0.0;

  /* PCG+PGS: the CG phase is capped at 2n and counted */
  o.solver = IPC_LCP_PCG_PGS;
  CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_OK);
  CHECK(res2.cg_iterations > 0 && res2.cg_iterations <= 2 * n);
  CHECK(res2.iterations >= res2.cg_iterations);
  o.cg_max_iter = 2;
  CHECK(ipc_lcp_solve(&p, &o, z2, &res2, NULL) == IPCC_OK);
  CHECK(res2.cg_iterations <= 2);
  o.cg_max_iter = 0;

  /* determinism: same bits twice */
  for (int s = 0; s < 3; ++s) {
    o.solver = iterative[s];
    ipc_lcp_solve(&p, &o, z, &res, NULL);
    ipc_lcp_solve(&p, &o, z2, &res2, NULL);
    CHECK(memcmp(z, z2, sizeof(double) * (size_t)n) == 0 && res.iterations == res2.iterations);
  }

  /* bad input */
  ipcc_error err;
  ipc_lcp_options ob = ipc_lcp_default_options();
  ob.omega = 2.5;
  CHECK(ipc_lcp_pgs(&p, &ob, z, &res, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "omega") != NULL);
  ipc_lcp_problem pb = p;
  pb.n = n + 1;
  CHECK(ipc_lcp_pgs(&pb, NULL, z, &res, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "rows") != NULL);
  int dep_bad[2] = {1, 0};
  double Mi[4] = {1, 0, 0, 1}, qi[2] = {-1, -1}, lo[2] = {-1, -1}, hi[2] = {1, 1};
  ipc_lcp_csr A;
  pb = dense_problem(2, &A, Mi, qi);
  pb.lo = lo;
  pb.hi = hi;
  pb.dep = dep_bad; /* a chain of dependencies */
  CHECK(ipc_lcp_pgs(&pb, NULL, z, &res, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "dep") != NULL);
  ipc_lcp_csr_free(&A);

  /* n = 0 */
  ipc_lcp_csr E = {0, 0, (int[]){0}, NULL, NULL};
  ipc_lcp_problem p0;
  memset(&p0, 0, sizeof p0);
  p0.M = &E;
  for (int s = 0; s < 5; ++s) {
    ipc_lcp_options o0 = opts((ipc_lcp_solver)s, 1e-8, 10);
    CHECK(ipc_lcp_solve(&p0, &o0, NULL, &res, NULL) == IPCC_OK);
  }

  /* solver names round trip */
  for (int s = 0; s < 5; ++s) {
    ipc_lcp_solver t;
    CHECK(ipc_lcp_solver_parse(ipc_lcp_solver_name((ipc_lcp_solver)s), &t) == 0 && (int)t == s);
  }
  ipc_lcp_solver t;
  CHECK(ipc_lcp_solver_parse("gauss", &t) == -1);

  ipc_free(z);
  ipc_free(z2);
  gen_contact_free(&g);
}

/* entries near the overflow threshold: the norms are scaled, so M = I, q = -1e200 is solved
 * (its residual at z = 0 was inf, the tolerance tol ||q|| inf too, and every iterative
 * solver reported z = 0 as converged) */
static void test_huge_entries(void) {
  double M[4] = {1, 0, 0, 1}, q[2] = {-1e200, -1e200};
  ipc_lcp_csr A;
  ipc_lcp_problem p = dense_problem(2, &A, M, q);
  double z0[2] = {0, 0};
  CHECK_NEAR(ipc_lcp_residual(&p, z0) / 1e200, sqrt(2.0), 1e-15);
  CHECK_NEAR(ipc_lcp_relative(&p, ipc_lcp_residual(&p, z0)), 1.0, 1e-15);
  double big[2] = {3e200, 4e200}, small[2] = {3.0, 4.0};
  CHECK_NEAR(ipc_lcp_norm2(2, big) / 1e200, 5.0, 1e-15);
  CHECK(ipc_lcp_norm2(2, small) == 5.0);
  for (int s = 0; s < 5; ++s) {
    ipc_lcp_options o = opts((ipc_lcp_solver)s, 1e-9, 1000);
    double z[2] = {0, 0};
    ipc_lcp_result res;
    ipcc_status st = ipc_lcp_solve(&p, &o, z, &res, NULL);
    CHECK_MSG(st == IPCC_OK && isfinite(res.residual) && res.rel_residual <= 1e-9,
              "%s: status %d, residual %g (relative %g)", ipc_lcp_solver_name(o.solver), (int)st,
              res.residual, res.rel_residual);
    CHECK_MSG(fabs(z[0] / 1e200 - 1) <= 1e-8 && fabs(z[1] / 1e200 - 1) <= 1e-8, "%s: z = %g %g",
              ipc_lcp_solver_name(o.solver), z[0], z[1]);
  }
  ipc_lcp_csr_free(&A);
  /* the Coulomb-disk residual: w_n = -1e200 at z = 0 */
  double mu[1] = {0.5}, zc[3] = {0, 0, 0}, wc[3] = {-1e200, 1e200, 1e200};
  CHECK_NEAR(ipc_lcp_cone_residual_zw(1, mu, zc, wc) / 1e200, 1.0, 1e-15);
}

/* CSR from triplets sums duplicates and sorts columns; out-of-range indices are errors */
static void test_csr(void) {
  int ri[5] = {1, 0, 1, 0, 1}, ci[5] = {2, 1, 0, 1, 2};
  double v[5] = {1, 2, 3, 4, 5};
  ipc_lcp_csr A;
  CHECK(ipc_lcp_csr_from_triplets(&A, 2, 3, 5, ri, ci, v, NULL) == IPCC_OK);
  CHECK(A.rowptr[1] == 1 && A.rowptr[2] == 3);
  CHECK(A.col[0] == 1 && A.val[0] == 6.0);
  CHECK(A.col[1] == 0 && A.val[1] == 3.0 && A.col[2] == 2 && A.val[2] == 6.0);
  ipc_lcp_csr_free(&A);
  ipcc_error err;
  ci[2] = 3;
  CHECK(ipc_lcp_csr_from_triplets(&A, 2, 3, 5, ri, ci, v, &err) == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "entry 2") != NULL);
}

int main(void) {
  test_residual();
  test_csr();
  test_lemke_known();
  test_random_dense();
  test_random_contact();
  test_amgs_forms();
  test_degenerate();
  test_blcp();
  test_behaviour();
  test_huge_entries();
  TEST_MAIN_END();
}
