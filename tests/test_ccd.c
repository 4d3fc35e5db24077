/* tests for src/geometry/ccd.c and src/io/ccd_queries.c: the benchmark queries (no false
   negative, known counts; a vendored slice by default, the whole shared set with a data folder
   argument, see tools/validate.sh), hand-made cases with exact times of impact, randomized cases
   checked against an exact reference (cubic coplanarity polynomial in GMP rationals, dense
   sampling and exact bisection), minimum separation, and the query-file reader */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccd_query_files.h"
#include "core/alloc.h"
#include "geometry/ccd.h"
#include "io/ccd_queries.h"
#include "test.h"

/* ---------------------------------------------------------------- benchmark queries */

typedef struct set_counts {
  long vf, vf_pos, ee, ee_pos, fn, fp, files;
} set_counts;

static void run_file(const char *path, void *ctx) {
  set_counts *c = ctx;
  ipc_ccd_queries q;
  ipcc_error err;
  ipcc_status st = ipc_ccd_queries_read(path, IPC_CCD_KIND_FROM_PATH, &q, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (st != IPCC_OK) return;
  CHECK_MSG(q.has_truth, "%s has no ground truth", path);
  ++c->files;
  for (int i = 0; i < q.n && q.has_truth; ++i) {
    const double *v = q.x + 24 * (size_t)i;
    double toi = -1.0;
    int hit;
    if (q.kind == IPC_CCD_KIND_VF) {
      hit = ipc_ccd_vf(v, v + 3, v + 6, v + 9, v + 12, v + 15, v + 18, v + 21, NULL, &toi);
      ++c->vf;
      c->vf_pos += q.truth[i];
    } else {
      hit = ipc_ccd_ee(v, v + 3, v + 6, v + 9, v + 12, v + 15, v + 18, v + 21, NULL, &toi);
      ++c->ee;
      c->ee_pos += q.truth[i];
    }
    if (!hit && q.truth[i]) {
      ++c->fn;
      fprintf(stderr, "false negative: %s query %d\n", path, i);
    }
    if (hit && !q.truth[i]) ++c->fp;
    CHECK(toi >= 0.0 && toi <= 1.0);
    if (!hit) CHECK(toi == 1.0);
  }
  ipc_ccd_queries_free(&q);
}

/* what a query set holds (recounted from the files) and how many false positives it may give */
typedef struct set_expect {
  const char *name;
  long files, vf, vf_pos, ee, ee_pos, max_fp;
} set_expect;

/* tests/data/ccd-queries: 4 handcrafted files (unit tests, cube cliff edges) and the cloth-funnel
   simulation pair; the full shared set has 27 files */
static const set_expect vendored_set = {"vendored", 6, 342, 77, 442, 146, 100};
static const set_expect full_set = {"full", 27, 2853, 911, 3437, 257, 200};

static void test_query_set(const char *root, const set_expect *e) {
  set_counts c;
  memset(&c, 0, sizeof c);
  char dir[512];
  snprintf(dir, sizeof dir, "%s/ccd-queries", root);
  CHECK_MSG(ccd_query_files_walk(dir, run_file, &c) == 0, "cannot open %s or a folder in it", dir);
  CHECK_MSG(c.files == e->files, "%s: %ld files, expected %ld", dir, c.files, e->files);
  CHECK(c.vf == e->vf);
  CHECK(c.vf_pos == e->vf_pos);
  CHECK(c.ee == e->ee);
  CHECK(c.ee_pos == e->ee_pos);
  CHECK(c.fn == 0);
  /* conservative, but not wildly so: the false positives are the handcrafted near misses
     below the double-precision error bound */
  CHECK_MSG(c.fp <= e->max_fp, "%ld false positives", c.fp);
  fprintf(stderr, "%s set: %ld VF (%ld pos), %ld EE (%ld pos), %ld FN, %ld FP\n", e->name, c.vf,
          c.vf_pos, c.ee, c.ee_pos, c.fn, c.fp);
}

/* ---------------------------------------------------------------- hand-made cases */

static const double tri0[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

static int vf_static_tri(const double p0[3], const double p1[3], const ipc_ccd_params *prm,
                         double *toi) {
  return ipc_ccd_vf(p0, tri0[0], tri0[1], tri0[2], p1, tri0[0], tri0[1], tri0[2], prm, toi);
}

static void test_vf_cases(void) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  double toi = -1.0;

  /* point falling onto the triangle: z(t) = 1 - 2t, contact at t = 0.5 */
  double p0[3] = {0.2, 0.2, 1.0}, p1[3] = {0.2, 0.2, -1.0};
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);

  /* the triangle moving up into a resting point: contact at t = 0.25 */
  double a0[3] = {0, 0, -1}, b0[3] = {1, 0, -1}, c0[3] = {0, 1, -1};
  double a1[3] = {0, 0, 3}, b1[3] = {1, 0, 3}, c1[3] = {0, 1, 3};
  double q[3] = {0.3, 0.3, 0.0};
  CHECK(ipc_ccd_vf(q, a0, b0, c0, q, a1, b1, c1, &prm, &toi) == 1);
  CHECK(toi <= 0.25 && toi >= 0.25 - 1e-5);

  /* touching exactly at t = 1 */
  double p2[3] = {0.25, 0.25, 1.0}, p3[3] = {0.25, 0.25, 0.0};
  CHECK(vf_static_tri(p2, p3, &prm, &toi) == 1);
  CHECK(toi <= 1.0 && toi >= 1.0 - 1e-5);

  /* touching at a vertex at t = 0.5 (boundary of the parameter domain) */
  double p4[3] = {1.0, 0.0, 1.0}, p5[3] = {1.0, 0.0, -1.0};
  CHECK(vf_static_tri(p4, p5, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);

  /* on the hypotenuse u + v = 1 at t = 0.75 */
  double p6[3] = {0.5, 0.5, 3.0}, p7[3] = {0.5, 0.5, -1.0};
  CHECK(vf_static_tri(p6, p7, &prm, &toi) == 1);
  CHECK(toi <= 0.75 && toi >= 0.75 - 1e-5);

  /* passing just outside the hypotenuse: no contact, down to misses by 1e-7 */
  double p8[3] = {0.5 + 1e-5, 0.5, 1.0}, p9[3] = {0.5 + 1e-5, 0.5, -1.0};
  CHECK(vf_static_tri(p8, p9, &prm, &toi) == 0);
  CHECK(toi == 1.0);
  p8[0] = p9[0] = 0.5 + 1e-7;
  CHECK(vf_static_tri(p8, p9, &prm, &toi) == 0);

  /* sliding parallel to the face 1e-9 above it: no contact (direction test) */
  double s0[3] = {-0.5, 0.3, 1e-9}, s1[3] = {1.5, 0.3, 1e-9};
  CHECK(vf_static_tri(s0, s1, &prm, &toi) == 0);

  /* stops short of the face */
  double r0[3] = {0.2, 0.2, 1.0}, r1[3] = {0.2, 0.2, 1e-8};
  CHECK(vf_static_tri(r0, r1, &prm, &toi) == 0);

  /* starting in contact: toi = 0 */
  double z0[3] = {0.2, 0.2, 0.0}, z1[3] = {0.2, 0.2, -1.0};
  CHECK(vf_static_tri(z0, z1, &prm, &toi) == 1);
  CHECK(toi == 0.0);

  /* starting 1e-9 away at unit speed: a positive toi, not 0 */
  double w0[3] = {0.2, 0.2, 1e-9}, w1[3] = {0.2, 0.2, -1.0 + 1e-9};
  CHECK(vf_static_tri(w0, w1, &prm, &toi) == 1);
  CHECK_MSG(toi > 0.0 && toi <= 1e-9, "toi %g", toi);

  /* the search interval: contact at 0.5 is outside [0, 0.4] */
  prm.tmax = 0.4;
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 0);
  CHECK(toi == 0.4);
  prm.tmax = 0.6;
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);
  prm.tmax = 1.0;

  /* the iteration cap returns the earliest unresolved time, still conservative */
  prm.max_iter = 1;
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 1);
  CHECK(toi >= 0.0 && toi <= 0.5);
  prm.max_iter = 30;
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 1);
  CHECK(toi <= 0.5);
  prm.max_iter = 0; /* no cap */
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);
  prm = ipc_ccd_default_params();

  /* non-finite input: conservative answer */
  double nan0[3] = {0.2, 0.2, NAN};
  CHECK(vf_static_tri(nan0, p1, &prm, &toi) == 1);
  CHECK(toi == 0.0);

  /* default parameters when prm is NULL, toi may be NULL */
  CHECK(vf_static_tri(p0, p1, NULL, NULL) == 1);
}

static void test_min_sep(void) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  double p0[3] = {0.2, 0.2, 1.0}, p1[3] = {0.2, 0.2, -1.0};
  double toi0 = -1.0, toi = -1.0;
  CHECK(vf_static_tri(p0, p1, &prm, &toi0) == 1);
  /* distance 1 - 2t reaches 0.1 at t = 0.45 */
  prm.min_sep = 0.1;
  CHECK(vf_static_tri(p0, p1, &prm, &toi) == 1);
  CHECK(toi < toi0);
  CHECK(toi <= 0.45 && toi >= 0.45 - 1e-5);
  CHECK(1.0 - 2.0 * toi >= 0.1);

  /* a miss at distance 0.05 is a hit with min_sep 0.1, and not with 0.04 */
  double m0[3] = {-0.5, 0.3, 0.05}, m1[3] = {1.5, 0.3, 0.05};
  CHECK(vf_static_tri(m0, m1, &prm, &toi) == 1);
  CHECK(toi <= 0.25); /* the point is above the triangle from t = 0.25 on */
  prm.min_sep = 0.04;
  CHECK(vf_static_tri(m0, m1, &prm, &toi) == 0);

  /* starting closer than min_sep: toi = 0 */
  prm.min_sep = 0.2;
  double c0[3] = {0.2, 0.2, 0.1}, c1[3] = {0.2, 0.2, 1.0};
  CHECK(vf_static_tri(c0, c1, &prm, &toi) == 1);
  CHECK(toi == 0.0);

  /* edge-edge, perpendicular edges approaching along a diagonal: edge a along x at height
     h(t) = 1 - t, edge b along y at height 0 moving in x; the distance is h(t) while they
     cross in projection, so with min_sep 0.3 the exact toi is 0.7 */
  double a00[3] = {-1, 0.1, 1}, a10[3] = {1, 0.1, 1}, a01[3] = {-1, 0.1, 0}, a11[3] = {1, 0.1, 0};
  double b00[3] = {0.2, -1, 0}, b10[3] = {0.2, 1, 0}, b01[3] = {-0.2, -1, 0}, b11[3] = {-0.2, 1, 0};
  prm.min_sep = 0.3;
  CHECK(ipc_ccd_ee(a00, a10, b00, b10, a01, a11, b01, b11, &prm, &toi) == 1);
  CHECK(toi <= 0.7 && toi >= 0.7 - 1e-5);
  prm.min_sep = 0.0;
  CHECK(ipc_ccd_ee(a00, a10, b00, b10, a01, a11, b01, b11, &prm, &toi) == 1);
  CHECK(toi <= 1.0 && toi >= 1.0 - 1e-5);
}

static void test_ee_cases(void) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  double toi = -1.0;

  /* crossing edges: a along x at z = 1 - 2t, b along y at z = 0: contact at t = 0.5 */
  double a00[3] = {-1, 0, 1}, a10[3] = {1, 0, 1}, a01[3] = {-1, 0, -1}, a11[3] = {1, 0, -1};
  double b0[3] = {0, -1, 0}, b1[3] = {0, 1, 0};
  CHECK(ipc_ccd_ee(a00, a10, b0, b1, a01, a11, b0, b1, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);

  /* the same, but b shifted beyond the end of a: no contact */
  double c0[3] = {1.001, -1, 0}, c1[3] = {1.001, 1, 0};
  CHECK(ipc_ccd_ee(a00, a10, c0, c1, a01, a11, c0, c1, &prm, &toi) == 0);

  /* parallel edges: a along x at z = 1 - 4t (overlapping b in x on [0, 1]), b along x at
     z = 0 sliding in x: they meet at t = 0.25 along a whole segment */
  double p00[3] = {-1, 0, 1}, p10[3] = {1, 0, 1}, p01[3] = {-1, 0, -3}, p11[3] = {1, 0, -3};
  double q00[3] = {0, 0, 0}, q10[3] = {2, 0, 0}, q01[3] = {-0.5, 0, 0}, q11[3] = {1.5, 0, 0};
  CHECK(ipc_ccd_ee(p00, p10, q00, q10, p01, p11, q01, q11, &prm, &toi) == 1);
  CHECK(toi <= 0.25 && toi >= 0.25 - 1e-5);

  /* parallel edges sliding past each other 1e-9 apart: no contact */
  double r00[3] = {-1, 0, 1e-9}, r10[3] = {1, 0, 1e-9}, r01[3] = {1, 0, 1e-9},
         r11[3] = {3, 0, 1e-9};
  CHECK(ipc_ccd_ee(r00, r10, q00, q10, r01, r11, q00, q10, &prm, &toi) == 0);

  /* collinear edges closing a gap: touching end to end at t = 0.5 */
  double s00[3] = {-3, 0, 0}, s10[3] = {-1, 0, 0}, s01[3] = {-2, 0, 0}, s11[3] = {0, 0, 0};
  double e0[3] = {0, 0, 0}, e1[3] = {1, 0, 0}, e01[3] = {-1, 0, 0}, e11[3] = {0, 0, 0};
  CHECK(ipc_ccd_ee(s00, s10, e0, e1, s01, s11, e01, e11, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);
}

static void test_ve_vv_cases(void) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  double toi = -1.0;
  /* point falling onto the middle of an edge at t = 0.25 */
  double p0[3] = {0.5, 0.0, 1.0}, p1[3] = {0.5, 0.0, -3.0};
  double e0[3] = {0, 0, 0}, e1[3] = {1, 0, 0};
  CHECK(ipc_ccd_ve(p0, e0, e1, p1, e0, e1, &prm, &toi) == 1);
  CHECK(toi <= 0.25 && toi >= 0.25 - 1e-5);
  /* passing beside the edge */
  double q0[3] = {0.5, 1e-6, 1.0}, q1[3] = {0.5, 1e-6, -3.0};
  CHECK(ipc_ccd_ve(q0, e0, e1, q1, e0, e1, &prm, &toi) == 0);
  /* with min_sep 1e-5 it counts, and toi <= time of distance 1e-5 */
  prm.min_sep = 1e-5;
  CHECK(ipc_ccd_ve(q0, e0, e1, q1, e0, e1, &prm, &toi) == 1);
  CHECK(toi <= 0.25 && toi >= 0.25 - 1e-5);
  prm.min_sep = 0.0;

  /* head-on points meeting at t = 0.5, and missing by 1e-3 */
  double a0[3] = {-1, 0, 0}, a1[3] = {1, 0, 0}, b0[3] = {1, 0, 0}, b1[3] = {-1, 0, 0};
  CHECK(ipc_ccd_vv(a0, b0, a1, b1, &prm, &toi) == 1);
  CHECK(toi <= 0.5 && toi >= 0.5 - 1e-5);
  double c0[3] = {1, 1e-3, 0}, c1[3] = {-1, 1e-3, 0};
  CHECK(ipc_ccd_vv(a0, c0, a1, c1, &prm, &toi) == 0);
  prm.min_sep = 2e-3;
  CHECK(ipc_ccd_vv(a0, c0, a1, c1, &prm, &toi) == 1);
  CHECK(toi <= 0.5);
  CHECK(toi >= 0.5 - 0.5 * sqrt(4e-6 - 1e-6) - 1e-5);
}

/* ---------------------------------------------------------------- randomized, exact reference */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double rnd(double lo, double hi) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  uint64_t r = rng_state * 0x2545f4914f6cdd1dull;
  return lo + (hi - lo) * (double)(r >> 11) * 0x1p-53;
}

/* exact cubic c[0] + c[1] t + c[2] t^2 + c[3] t^3 = det[x1 - x0, x2 - x0, x3 - x0], where
   xk(t) = s[k] + t (e[k] - s[k]) */
static void orient_cubic(double s[4][3], double e[4][3], mpq_t c[4]) {
  mpq_t v[3][3][2], w[3][3], tmp; /* v[j][a] = (x_{j+1} - x_0)_a as c0 + c1 t */
  mpq_init(tmp);
  for (int j = 0; j < 3; ++j)
    for (int a = 0; a < 3; ++a) {
      mpq_t s0, s1;
      mpq_inits(v[j][a][0], v[j][a][1], s0, s1, NULL);
      mpq_set_d(s0, s[j + 1][a]);
      mpq_set_d(s1, s[0][a]);
      mpq_sub(v[j][a][0], s0, s1); /* constant part */
      mpq_set_d(s0, e[j + 1][a]);
      mpq_set_d(s1, s[j + 1][a]);
      mpq_sub(s0, s0, s1); /* displacement of x_{j+1} */
      mpq_set_d(s1, e[0][a]);
      mpq_sub(v[j][a][1], s0, s1);
      mpq_set_d(s1, s[0][a]);
      mpq_add(v[j][a][1], v[j][a][1], s1);
      mpq_clears(s0, s1, NULL);
    }
  for (int k = 0; k < 4; ++k) mpq_set_ui(c[k], 0, 1);
  /* det = sum over permutations sign * v0[i] v1[j] v2[k] */
  static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  for (int p = 0; p < 6; ++p) {
    int sign = p < 3 ? 1 : -1;
    for (int d0 = 0; d0 < 2; ++d0)
      for (int d1 = 0; d1 < 2; ++d1)
        for (int d2 = 0; d2 < 2; ++d2) {
          mpq_mul(tmp, v[0][perm[p][0]][d0], v[1][perm[p][1]][d1]);
          mpq_mul(tmp, tmp, v[2][perm[p][2]][d2]);
          if (sign > 0)
            mpq_add(c[d0 + d1 + d2], c[d0 + d1 + d2], tmp);
          else
            mpq_sub(c[d0 + d1 + d2], c[d0 + d1 + d2], tmp);
        }
  }
  (void)w;
  for (int j = 0; j < 3; ++j)
    for (int a = 0; a < 3; ++a) mpq_clears(v[j][a][0], v[j][a][1], NULL);
  mpq_clear(tmp);
}

static int cubic_sign(mpq_t c[4], const mpq_t t, mpq_t acc) {
  mpq_set(acc, c[3]);
  for (int k = 2; k >= 0; --k) {
    mpq_mul(acc, acc, t);
    mpq_add(acc, acc, c[k]);
  }
  return mpq_sgn(acc);
}

static void lerp3(const double s[3], const double e[3], double t, double x[3]) {
  for (int a = 0; a < 3; ++a) x[a] = s[a] + t * (e[a] - s[a]);
}

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* at a coplanar time t: is the contact point inside both primitives by margin m? */
static int contact_inside(int vf, double s[4][3], double e[4][3], double t, double m) {
  double x[4][3];
  for (int k = 0; k < 4; ++k) lerp3(s[k], e[k], t, x[k]);
  double d1[3], d2[3], r[3];
  if (vf) { /* x0 = p, triangle x1 x2 x3 */
    for (int a = 0; a < 3; ++a) {
      d1[a] = x[2][a] - x[1][a];
      d2[a] = x[3][a] - x[1][a];
      r[a] = x[0][a] - x[1][a];
    }
    double a11 = dot3(d1, d1), a12 = dot3(d1, d2), a22 = dot3(d2, d2);
    double det = a11 * a22 - a12 * a12;
    if (!(det > 1e-6 * a11 * a22)) return 0;
    double b1 = dot3(d1, r), b2 = dot3(d2, r);
    double u = (a22 * b1 - a12 * b2) / det, v = (a11 * b2 - a12 * b1) / det;
    return u >= m && v >= m && u + v <= 1.0 - m;
  }
  for (int a = 0; a < 3; ++a) { /* edge x0 x1 against edge x2 x3 */
    d1[a] = x[1][a] - x[0][a];
    d2[a] = x[3][a] - x[2][a];
    r[a] = x[2][a] - x[0][a];
  }
  double a11 = dot3(d1, d1), a12 = dot3(d1, d2), a22 = dot3(d2, d2);
  double det = a11 * a22 - a12 * a12;
  if (!(det > 1e-6 * a11 * a22)) return 0;
  double b1 = dot3(d1, r), b2 = dot3(d2, r);
  double u = (a22 * b1 - a12 * b2) / det, v = (a12 * b1 - a11 * b2) / det;
  return u >= m && u <= 1.0 - m && v >= m && v <= 1.0 - m;
}

/* upper bound of the first certified transversal contact time, or -1 if none is found:
   exact signs of the coplanarity cubic at 513 dyadic samples, exact bisection of the first
   sign changes down to 2^-50, contact checked inside the primitives with margin 1e-6 */
static double reference_toi(int vf, double s[4][3], double e[4][3]) {
  mpq_t c[4], t, lo, hi, mid, acc;
  for (int k = 0; k < 4; ++k) mpq_init(c[k]);
  mpq_inits(t, lo, hi, mid, acc, NULL);
  orient_cubic(s, e, c);
  double result = -1.0;
  const int n = 512;
  mpq_set_ui(t, 0, 1);
  int prev = cubic_sign(c, t, acc);
  for (int i = 1; i <= n && result < 0.0; ++i) {
    mpq_set_ui(t, (unsigned long)i, (unsigned long)n);
    int sg = cubic_sign(c, t, acc);
    if (sg == prev || sg == 0 || prev == 0) {
      prev = sg;
      continue;
    }
    mpq_set_ui(lo, (unsigned long)(i - 1), (unsigned long)n);
    mpq_set(hi, t);
    int slo = prev;
    for (int it = 0; it < 41; ++it) { /* 2^-9 -> 2^-50 */
      mpq_add(mid, lo, hi);
      mpq_div_2exp(mid, mid, 1);
      int sm = cubic_sign(c, mid, acc);
      if (sm == 0) {
        mpq_set(lo, mid);
        mpq_set(hi, mid);
        break;
      }
      if (sm == slo)
        mpq_set(lo, mid);
      else
        mpq_set(hi, mid);
    }
    double tl = mpq_get_d(lo), th = mpq_get_d(hi); /* dyadic with <= 60 bits: exact */
    if (contact_inside(vf, s, e, tl, 1e-6) && contact_inside(vf, s, e, th, 1e-6)) result = th;
    prev = sg;
  }
  for (int k = 0; k < 4; ++k) mpq_clear(c[k]);
  mpq_clears(t, lo, hi, mid, acc, NULL);
  return result;
}

static void random_query(int vf, int forced, double s[4][3], double e[4][3]) {
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < 3; ++a) {
      s[k][a] = rnd(-1, 1);
      e[k][a] = s[k][a] + rnd(-0.7, 0.7);
    }
  if (!forced) return;
  double tc = rnd(0.05, 0.95), u = rnd(0.05, 0.9), v = rnd(0.05, 0.9);
  double x[4][3];
  for (int k = 0; k < 4; ++k) lerp3(s[k], e[k], tc, x[k]);
  if (vf) { /* the point passes through the triangle point (u, v) at tc */
    if (u + v > 0.95) v = 0.95 - u;
    for (int a = 0; a < 3; ++a) {
      double target = (1 - u - v) * x[1][a] + u * x[2][a] + v * x[3][a];
      e[0][a] = s[0][a] + (target - s[0][a]) / tc;
    }
  } else { /* edge b's first vertex is placed so that b(tc, v) = a(tc, u) */
    for (int a = 0; a < 3; ++a) {
      double target = (1 - u) * x[0][a] + u * x[1][a];
      double b0 = (target - v * x[3][a]) / (1 - v);
      e[2][a] = s[2][a] + (b0 - s[2][a]) / tc;
    }
  }
}

static int run_query(int vf, double s[4][3], double e[4][3], const ipc_ccd_params *prm,
                     double *toi) {
  if (vf) return ipc_ccd_vf(s[0], s[1], s[2], s[3], e[0], e[1], e[2], e[3], prm, toi);
  return ipc_ccd_ee(s[0], s[1], s[2], s[3], e[0], e[1], e[2], e[3], prm, toi);
}

static void test_random_exact(void) {
  int certified = 0, violations = 0;
  double slack_max = 0.0, slack_sum = 0.0;
  for (int i = 0; i < 600; ++i) {
    int vf = i % 2 == 0, forced = i % 3 != 0;
    double s[4][3], e[4][3];
    random_query(vf, forced, s, e);
    double ref = reference_toi(vf, s, e);
    double toi = -1.0;
    int hit = run_query(vf, s, e, NULL, &toi);
    if (ref < 0.0) continue;
    ++certified;
    if (!hit || toi > ref) {
      ++violations;
      fprintf(stderr, "random %s query %d: hit %d toi %.17g, reference contact by %.17g\n",
              vf ? "VF" : "EE", i, hit, toi, ref);
    }
    slack_max = fmax(slack_max, ref - toi);
    slack_sum += ref - toi;
  }
  CHECK(violations == 0);
  CHECK(certified >= 300);
  /* small conservatism: the reported time is close to the exact first contact */
  CHECK(slack_sum / (certified > 0 ? certified : 1) < 1e-8);
  CHECK(slack_max < 1e-6);
  fprintf(stderr, "random: %d certified contacts, toi earlier by %.3g on average, %.3g at most\n",
          certified, slack_sum / (certified > 0 ? certified : 1), slack_max);
}

/* point-triangle distance: closest point by the Voronoi regions of the triangle */
static double point_triangle_distance(const double p[3], const double a[3], const double b[3],
                                      const double c[3]) {
  double ab[3], ac[3], ap[3], q[3];
  for (int k = 0; k < 3; ++k) {
    ab[k] = b[k] - a[k];
    ac[k] = c[k] - a[k];
    ap[k] = p[k] - a[k];
  }
  double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
  double bp[3], cp[3];
  for (int k = 0; k < 3; ++k) {
    bp[k] = p[k] - b[k];
    cp[k] = p[k] - c[k];
  }
  double d3 = dot3(ab, bp), d4 = dot3(ac, bp), d5 = dot3(ab, cp), d6 = dot3(ac, cp);
  double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
  if (d1 <= 0 && d2 <= 0) {
    memcpy(q, a, sizeof q);
  } else if (d3 >= 0 && d4 <= d3) {
    memcpy(q, b, sizeof q);
  } else if (d6 >= 0 && d5 <= d6) {
    memcpy(q, c, sizeof q);
  } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double w = d1 / (d1 - d3);
    for (int k = 0; k < 3; ++k) q[k] = a[k] + w * ab[k];
  } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double w = d2 / (d2 - d6);
    for (int k = 0; k < 3; ++k) q[k] = a[k] + w * ac[k];
  } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int k = 0; k < 3; ++k) q[k] = b[k] + w * (c[k] - b[k]);
  } else {
    double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
    for (int k = 0; k < 3; ++k) q[k] = a[k] + v * ab[k] + w * ac[k];
  }
  double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
  return sqrt(dot3(d, d));
}

static double vf_distance(double s[4][3], double e[4][3], double t) {
  double x[4][3];
  for (int k = 0; k < 4; ++k) lerp3(s[k], e[k], t, x[k]);
  return point_triangle_distance(x[0], x[1], x[2], x[3]);
}

/* with min_sep > 0 the distance stays >= min_sep on [0, toi] (dense sampling) */
static void test_random_min_sep(void) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  prm.min_sep = 0.05;
  int hits = 0, bad = 0, checked = 0;
  for (int i = 0; i < 300; ++i) {
    double s[4][3], e[4][3];
    random_query(1, i % 2 == 0, s, e);
    if (vf_distance(s, e, 0.0) <= prm.min_sep * 1.01) continue;
    ++checked;
    double toi = -1.0;
    int hit = ipc_ccd_vf(s[0], s[1], s[2], s[3], e[0], e[1], e[2], e[3], &prm, &toi);
    hits += hit;
    double dmin = INFINITY;
    for (int k = 0; k <= 2000; ++k) {
      double t = toi * k / 2000.0;
      dmin = fmin(dmin, vf_distance(s, e, t));
    }
    if (dmin < prm.min_sep * (1.0 - 1e-9)) {
      ++bad;
      fprintf(stderr, "min_sep query %d: distance %.17g < min_sep before toi %.17g\n", i, dmin,
              toi);
    }
    if (!hit) {
      /* no hit: the distance never gets below min_sep on [0, 1] */
      for (int k = 0; k <= 2000; ++k) dmin = fmin(dmin, vf_distance(s, e, k / 2000.0));
      if (dmin < prm.min_sep * (1.0 - 1e-9)) ++bad;
    }
  }
  CHECK(bad == 0);
  CHECK(checked > 100 && hits > 20);
  fprintf(stderr, "random min_sep: %d queries, %d hits\n", checked, hits);
}

/* small pairs (1 cm) carried along by a common motion, as in a packed pile moving as one: the
   early out by distance (ccd.c) bounds the motion relative to the pair's mean displacement, so
   these are the queries it decides. Shrunk copies of the random queries (contacts forced at an
   exact time stay contacts: every vertex gets the same affine map at every t), their relative
   motion scaled by 1, 0.1 or 0.01, plus a common translation up to 5 cm: every certified
   contact is found by its exact time (min_sep 0); with min_sep 0.1 mm the point-triangle
   distance never drops below min_sep before the reported time, nor at all without a hit */
static void test_random_carried(void) {
  int certified = 0, violations = 0, checked = 0, hits = 0;
  ipc_ccd_params sep = ipc_ccd_default_params();
  sep.min_sep = 1e-4;
  for (int i = 0; i < 1200; ++i) {
    int vf = i % 2 == 0, forced = i % 3 != 0;
    double s[4][3], e[4][3];
    random_query(vf, forced, s, e);
    double rel = i % 3 == 0 ? 0.01 : i % 3 == 1 ? 0.1 : 1.0;
    double P[3], T[3];
    for (int a = 0; a < 3; ++a) {
      P[a] = rnd(-1, 1);
      T[a] = rnd(-0.05, 0.05);
    }
    for (int k = 0; k < 4; ++k)
      for (int a = 0; a < 3; ++a) {
        double x0 = s[k][a], x1 = forced ? e[k][a] : x0 + rel * (e[k][a] - x0);
        s[k][a] = P[a] + 0.01 * x0;
        e[k][a] = P[a] + 0.01 * x1 + T[a];
      }
    double ref = reference_toi(vf, s, e), toi = -1.0;
    int hit = run_query(vf, s, e, NULL, &toi);
    if (ref >= 0.0) {
      ++certified;
      if (!hit || toi > ref) {
        ++violations;
        fprintf(stderr, "carried %s query %d: hit %d toi %.17g, reference contact by %.17g\n",
                vf ? "VF" : "EE", i, hit, toi, ref);
      }
    }
    if (!vf || vf_distance(s, e, 0.0) <= sep.min_sep * 1.01) continue;
    ++checked;
    hit = ipc_ccd_vf(s[0], s[1], s[2], s[3], e[0], e[1], e[2], e[3], &sep, &toi);
    hits += hit;
    double dmin = INFINITY, tend = hit ? toi : 1.0;
    for (int k = 0; k <= 2000; ++k) dmin = fmin(dmin, vf_distance(s, e, tend * k / 2000.0));
    if (dmin < sep.min_sep * (1.0 - 1e-9)) {
      ++violations;
      fprintf(stderr, "carried min_sep query %d: distance %.17g < min_sep before %.17g (hit %d)\n",
              i, dmin, tend, hit);
    }
  }
  CHECK(violations == 0);
  CHECK(certified >= 400);
  CHECK(checked > 200 && hits > 50 && hits < checked);
  fprintf(stderr, "random carried: %d certified contacts, %d min_sep queries, %d hits\n", certified,
          checked, hits);
}

/* ---------------------------------------------------------------- nearly parallel edges */

/* q(t) = q[0] + q[1] t + q[2] t^2 in exact rationals: +1 / -1 when q keeps that sign (never
   0) on [0, tmax], 0 otherwise */
static int quad_sign_on(mpq_t q[3], const mpq_t tmax) {
  mpq_t v, t;
  mpq_inits(v, t, NULL);
  int sg = 0, ok = 1;
  for (int k = 0; k < 3 && ok; ++k) { /* t = 0, tmax and the vertex when it lies inside */
    if (k == 0) {
      mpq_set_ui(t, 0, 1);
    } else if (k == 1) {
      mpq_set(t, tmax);
    } else {
      if (mpq_sgn(q[2]) == 0) break;
      mpq_div(t, q[1], q[2]); /* vertex at -q1 / (2 q2) */
      mpq_neg(t, t);
      mpq_div_2exp(t, t, 1);
      if (mpq_sgn(t) <= 0 || mpq_cmp(t, tmax) >= 0) break;
    }
    mpq_mul(v, q[2], t);
    mpq_add(v, v, q[1]);
    mpq_mul(v, v, t);
    mpq_add(v, v, q[0]);
    int s1 = mpq_sgn(v);
    if (s1 == 0 || (sg != 0 && s1 != sg)) ok = 0;
    sg = s1;
  }
  mpq_clears(v, t, NULL);
  return ok ? sg : 0;
}

/* exact certificate that the edges (x[0], x[1]) and (x[2], x[3]) never touch for t in [0, tmax]:
   with W(t) = c x D(t) (D = B, the direction of the second edge, or A), F . W does not depend
   on the parameter of D, is linear in the other one and quadratic in t; if it keeps one sign
   at both ends of that parameter for all t, F never vanishes. c is any double vector. */
static int ee_never_touch(double s[4][3], double e[4][3], double tmax, const double c[3],
                          int use_b) {
  /* linear-in-t parts: x_k(t) = s_k + t d_k, d_k = e_k - s_k (exact) */
  mpq_t base[3][2], D[3][2], O[3][2], W[3][2], q0[3], q1[3], tm, tmp, x;
  mpq_inits(tm, tmp, x, NULL);
  for (int k = 0; k < 3; ++k) mpq_inits(q0[k], q1[k], NULL);
  for (int a = 0; a < 3; ++a)
    for (int j = 0; j < 2; ++j) mpq_inits(base[a][j], D[a][j], O[a][j], W[a][j], NULL);
  for (int a = 0; a < 3; ++a)
    for (int j = 0; j < 2; ++j) { /* j = 0: value at t = 0; j = 1: slope */
      mpq_t p[4];
      for (int k = 0; k < 4; ++k) {
        mpq_init(p[k]);
        mpq_set_d(p[k], s[k][a]);
        if (j == 1) {
          mpq_set_d(x, e[k][a]);
          mpq_sub(p[k], x, p[k]);
        }
      }
      mpq_sub(base[a][j], p[0], p[2]); /* F = base + u A - v B */
      if (use_b) {
        mpq_sub(D[a][j], p[3], p[2]); /* D = B; the other term is u A */
        mpq_sub(O[a][j], p[1], p[0]);
      } else {
        mpq_sub(D[a][j], p[1], p[0]); /* D = A; the other term is -v B */
        mpq_sub(O[a][j], p[2], p[3]);
      }
      for (int k = 0; k < 4; ++k) mpq_clear(p[k]);
    }
  /* W = c x D, linear in t */
  for (int j = 0; j < 2; ++j)
    for (int a = 0; a < 3; ++a) {
      int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
      mpq_set_d(x, c[a1]);
      mpq_mul(W[a][j], x, D[a2][j]);
      mpq_set_d(x, c[a2]);
      mpq_mul(tmp, x, D[a1][j]);
      mpq_sub(W[a][j], W[a][j], tmp);
    }
  /* q0(t) = base(t) . W(t), q1(t) = (base(t) + O(t)) . W(t) as t^0, t^1, t^2 coefficients */
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        mpq_mul(tmp, base[a][i], W[a][j]);
        mpq_add(q0[i + j], q0[i + j], tmp);
        mpq_add(x, base[a][i], O[a][i]);
        mpq_mul(tmp, x, W[a][j]);
        mpq_add(q1[i + j], q1[i + j], tmp);
      }
  mpq_set_d(tm, tmax);
  int s0 = quad_sign_on(q0, tm), s1 = quad_sign_on(q1, tm);
  for (int k = 0; k < 3; ++k) mpq_clears(q0[k], q1[k], NULL);
  for (int a = 0; a < 3; ++a)
    for (int j = 0; j < 2; ++j) mpq_clears(base[a][j], D[a][j], O[a][j], W[a][j], NULL);
  mpq_clears(tm, tmp, x, NULL);
  return s0 != 0 && s0 == s1;
}

/* tries a few directions c for the certificate above */
static int ee_certified_apart(double s[4][3], double e[4][3], double tmax) {
  double x[4][3], A[3], B[3], base[3], c[4][3];
  for (int k = 0; k < 4; ++k) lerp3(s[k], e[k], 0.5 * tmax, x[k]);
  for (int a = 0; a < 3; ++a) {
    A[a] = x[1][a] - x[0][a];
    B[a] = x[3][a] - x[2][a];
    base[a] = x[0][a] - x[2][a];
  }
  const double *pairs[4][2] = {{A, B}, {A, base}, {B, base}, {base, B}};
  for (int i = 0; i < 4; ++i) {
    const double *p = pairs[i][0], *q = pairs[i][1];
    c[i][0] = p[1] * q[2] - p[2] * q[1];
    c[i][1] = p[2] * q[0] - p[0] * q[2];
    c[i][2] = p[0] * q[1] - p[1] * q[0];
    if (ee_never_touch(s, e, tmax, c[i], 1) || ee_never_touch(s, e, tmax, c[i], 0)) return 1;
  }
  return 0;
}

/* exact test whether two segments in the plane z = 0 (x, y of points p0 p1 and q0 q1 at time
   t, all vertices moving linearly) touch; t is a double */
static int segments_touch_2d(double s[4][3], double e[4][3], double t) {
  mpq_t x[4][2], tq, d, o[4], m1, m2;
  mpq_inits(tq, d, m1, m2, NULL);
  mpq_set_d(tq, t);
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < 2; ++a) {
      mpq_init(x[k][a]);
      mpq_set_d(x[k][a], e[k][a]);
      mpq_set_d(d, s[k][a]);
      mpq_sub(x[k][a], x[k][a], d);
      mpq_mul(x[k][a], x[k][a], tq);
      mpq_add(x[k][a], x[k][a], d);
    }
  /* o[0], o[1]: sides of q0, q1 w.r.t. p0 p1; o[2], o[3]: of p0, p1 w.r.t. q0 q1 */
  static const int tri[4][3] = {{0, 1, 2}, {0, 1, 3}, {2, 3, 0}, {2, 3, 1}};
  int sg[4];
  for (int i = 0; i < 4; ++i) {
    const int *r = tri[i];
    mpq_init(o[i]);
    mpq_sub(m1, x[r[1]][0], x[r[0]][0]);
    mpq_sub(m2, x[r[2]][1], x[r[0]][1]);
    mpq_mul(o[i], m1, m2);
    mpq_sub(m1, x[r[1]][1], x[r[0]][1]);
    mpq_sub(m2, x[r[2]][0], x[r[0]][0]);
    mpq_mul(m1, m1, m2);
    mpq_sub(o[i], o[i], m1);
    sg[i] = mpq_sgn(o[i]);
  }
  int touch = sg[0] * sg[1] <= 0 && sg[2] * sg[3] <= 0;
  if (touch && sg[0] == 0 && sg[1] == 0) { /* collinear: the projections on x (or y) overlap */
    int a = mpq_cmp(x[0][0], x[1][0]) != 0 ? 0 : 1;
    int i0 = mpq_cmp(x[0][a], x[1][a]) < 0 ? 0 : 1, j0 = mpq_cmp(x[2][a], x[3][a]) < 0 ? 2 : 3;
    touch = mpq_cmp(x[i0][a], x[5 - j0][a]) <= 0 && mpq_cmp(x[j0][a], x[1 - i0][a]) <= 0;
  }
  for (int i = 0; i < 4; ++i) mpq_clear(o[i]);
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < 2; ++a) mpq_clear(x[k][a]);
  mpq_clears(tq, d, m1, m2, NULL);
  return touch;
}

/* smallest |F| over the closest points of the 4 endpoints on the other edge (an upper bound of
   the edge-edge distance, up to round-off) */
static double ee_distance_upper(double s[4][3], double e[4][3], double t) {
  double x[4][3], best = INFINITY;
  for (int k = 0; k < 4; ++k) lerp3(s[k], e[k], t, x[k]);
  for (int k = 0; k < 4; ++k) {
    const double *p = x[k], *q0 = x[k < 2 ? 2 : 0], *q1 = x[k < 2 ? 3 : 1];
    double d[3], r[3];
    for (int a = 0; a < 3; ++a) {
      d[a] = q1[a] - q0[a];
      r[a] = p[a] - q0[a];
    }
    double dd = dot3(d, d), v = dd > 0.0 ? dot3(r, d) / dd : 0.0, f2 = 0.0;
    v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
    for (int a = 0; a < 3; ++a) f2 += (r[a] - v * d[a]) * (r[a] - v * d[a]);
    best = fmin(best, sqrt(f2));
  }
  return best;
}

/* nearly parallel edges (angle 0 or 1e-12 .. 1e-2, 1e-9 .. 1e-2 apart, turning by up to 1e-2,
   approaching, sliding): never later than a certified contact (with min_sep > 0 an endpoint
   comes within min_sep; with min_sep = 0 in the plane z = 0, exact segment intersection), no
   toi = 0 for edges apart at t = 0, and every query ends well before max_iter */
static void test_random_parallel(void) {
  int bad = 0, zero = 0, slow = 0, hits = 0, certified = 0;
  for (int i = 0; i < 900; ++i) {
    int group = i % 3; /* 0: z = 0, min_sep 0; 1: random frame, min_sep > 0; 2: z = 0, > 0 */
    double fr[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (group == 1) {
      double ax[3] = {rnd(-1, 1), rnd(-1, 1), rnd(-1, 1)}, h[3] = {1, 0, 0};
      double l = sqrt(dot3(ax, ax));
      for (int a = 0; a < 3; ++a) fr[0][a] = ax[a] / l;
      if (fabs(fr[0][0]) > 0.9) h[0] = 0, h[1] = 1;
      fr[1][0] = h[1] * fr[0][2] - h[2] * fr[0][1];
      fr[1][1] = h[2] * fr[0][0] - h[0] * fr[0][2];
      fr[1][2] = h[0] * fr[0][1] - h[1] * fr[0][0];
      l = sqrt(dot3(fr[1], fr[1]));
      for (int a = 0; a < 3; ++a) fr[1][a] /= l;
      fr[2][0] = fr[0][1] * fr[1][2] - fr[0][2] * fr[1][1];
      fr[2][1] = fr[0][2] * fr[1][0] - fr[0][0] * fr[1][2];
      fr[2][2] = fr[0][0] * fr[1][1] - fr[0][1] * fr[1][0];
    }
    double d0 = pow(10.0, rnd(-9, -2));
    double th = rnd(0, 1) < 0.2 ? 0.0 : pow(10.0, rnd(-12, -2)) * (rnd(0, 1) < 0.5 ? -1 : 1);
    double hz = group == 1 && rnd(0, 1) < 0.7 ? pow(10.0, rnd(-12, -3)) : 0.0;
    double L[4][3] = {{rnd(-1, -0.2), 0, 0}, {rnd(0.2, 1), 0, 0}, {rnd(-1.5, 0), d0, hz}, {0}};
    L[3][0] = rnd(0, 1.5);
    L[3][1] = d0 + th * (L[3][0] - L[2][0]);
    L[3][2] = hz;
    double vy = rnd(-2, 2) * d0, sl = rnd(-0.3, 0.3);
    double om = rnd(0, 1) < 0.3 ? 0.0 : pow(10.0, rnd(-6, -2)) * (rnd(0, 1) < 0.5 ? -1 : 1);
    double omz = group == 1 && rnd(0, 1) < 0.5 ? pow(10.0, rnd(-9, -4)) : 0.0;
    double tr[3] = {rnd(-0.1, 0.1), rnd(-0.1, 0.1), group == 1 ? rnd(-0.1, 0.1) : 0.0};
    double E[4][3], s[4][3], e[4][3];
    memcpy(E, L, sizeof E);
    for (int k = 2; k < 4; ++k) {
      E[k][0] += sl;
      E[k][1] += vy + om * L[k][0];
      E[k][2] += omz * L[k][0];
    }
    for (int k = 0; k < 4; ++k)
      for (int a = 0; a < 3; ++a) {
        s[k][a] = L[k][0] * fr[0][a] + L[k][1] * fr[1][a] + L[k][2] * fr[2][a] + 0.5;
        e[k][a] = E[k][0] * fr[0][a] + E[k][1] * fr[1][a] + E[k][2] * fr[2][a] + tr[a] + 0.5;
      }
    ipc_ccd_params prm = ipc_ccd_default_params();
    prm.min_sep = group == 0 ? 0.0 : d0 * rnd(0.1, 0.9);
    double toi = -1.0, toi_cap = -1.0;
    int hit = run_query(0, s, e, &prm, &toi);
    hits += hit;
    prm.max_iter = 20000;
    int hit_cap = run_query(0, s, e, &prm, &toi_cap);
    if (hit_cap != hit || toi_cap != toi) ++slow;
    double tc = -1.0; /* a certified contact time */
    for (int k = 0; k <= 512 && tc < 0.0; ++k) {
      double t = k / 512.0;
      if (group == 0 ? segments_touch_2d(s, e, t)
                     : ee_distance_upper(s, e, t) < prm.min_sep * (1.0 - 1e-6) - 1e-13)
        tc = t;
    }
    if (tc >= 0.0) {
      ++certified;
      if (!hit || toi > tc) {
        ++bad;
        fprintf(stderr, "parallel query %d: hit %d toi %.17g, contact by %.17g\n", i, hit, toi, tc);
      }
    }
    /* apart at t = 0: b above the line of a by more than min_sep */
    if (fmin(L[2][1], L[3][1]) > prm.min_sep + 1e-12 && hit && toi == 0.0) {
      ++zero;
      fprintf(stderr, "parallel query %d: toi 0 while %g apart\n", i, fmin(L[2][1], L[3][1]));
    }
  }
  CHECK(bad == 0);
  CHECK(zero == 0);
  CHECK(slow == 0);
  CHECK(certified > 100);
  fprintf(stderr, "random parallel: 900 queries, %d hits, %d certified contacts\n", hits,
          certified);
}

/* the edge-edge queries of the lined-up quad and cube diagonals (tests/data), which ran into
   max_iter (toi = 0, stalling the line search) or took up to 0.5 s: they are certified apart
   in exact arithmetic, and the CCD now says so within 50 boxes */
static void test_collinear_regression(void) {
  const char *path = "tests/data/ccd_collinear_ee.txt";
  FILE *f = fopen(path, "r");
  CHECK_MSG(f != NULL, "cannot open %s", path);
  if (!f) return;
  char line[2048];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    double v[26];
    char *p = line, *end;
    int k = 0;
    for (; k < 26; ++k, p = end) {
      v[k] = strtod(p, &end);
      if (end == p) break;
    }
    CHECK_MSG(k == 26, "%s: query %d has %d numbers", path, n, k);
    if (k < 26) continue;
    double s[4][3], e[4][3];
    memcpy(s, v + 2, sizeof s);
    memcpy(e, v + 14, sizeof e);
    CHECK_MSG(ee_certified_apart(s, e, v[1]), "query %d: no exact certificate", n);
    ipc_ccd_params prm = ipc_ccd_default_params();
    prm.min_sep = v[0];
    prm.tmax = v[1];
    double toi = -1.0;
    CHECK_MSG(run_query(0, s, e, &prm, &toi) == 0 && toi == prm.tmax, "query %d: toi %g", n, toi);
    prm.max_iter = 50; /* a hit of the cap would report a contact */
    CHECK_MSG(run_query(0, s, e, &prm, &toi) == 0, "query %d needs more than 50 boxes", n);
    ++n;
  }
  fclose(f);
  CHECK(n == 10);
  /* the certificate is not vacuous: crossing edges, parallel edges meeting at t = 0.25 */
  double s[4][3] = {{-1, 0, 1}, {1, 0, 1}, {0, -1, 0}, {0, 1, 0}};
  double e[4][3] = {{-1, 0, -1}, {1, 0, -1}, {0, -1, 0}, {0, 1, 0}};
  CHECK(!ee_certified_apart(s, e, 1.0));
  double ps[4][3] = {{-1, 0, 1}, {1, 0, 1}, {0, 0, 0}, {2, 0, 0}};
  double pe[4][3] = {{-1, 0, -3}, {1, 0, -3}, {-0.5, 0, 0}, {1.5, 0, 0}};
  CHECK(!ee_certified_apart(ps, pe, 1.0));
  CHECK(ee_certified_apart(ps, pe, 0.24));
  /* and it holds for parallel edges sliding past each other 1e-9 apart */
  double rs[4][3] = {{-1, 0, 1e-9}, {1, 0, 1e-9}, {0, 0, 0}, {2, 0, 0}};
  double re[4][3] = {{1, 0, 1e-9}, {3, 0, 1e-9}, {0, 0, 0}, {2, 0, 0}};
  CHECK(ee_certified_apart(rs, re, 1.0));
}

/* ---------------------------------------------------------------- the query-file reader */

static void test_reader(void) {
  CHECK(ipc_ccd_kind_from_path("a/b/227vf.csv") == IPC_CCD_KIND_VF);
  CHECK(ipc_ccd_kind_from_path("227ee.csv") == IPC_CCD_KIND_EE);
  CHECK(ipc_ccd_kind_from_path("x/vertex-face/data_0_0.csv") == IPC_CCD_KIND_VF);
  CHECK(ipc_ccd_kind_from_path("x/edge-edge/sub/data_0_0.csv") == IPC_CCD_KIND_EE);
  CHECK(ipc_ccd_kind_from_path("x/edge-edges/data.csv") == IPC_CCD_KIND_FROM_PATH);

  ipc_ccd_queries q;
  ipcc_error err;
  ipcc_status st = ipc_ccd_queries_read("tests/data/ccd_bad.csv", IPC_CCD_KIND_VF, &q, &err);
  CHECK(st == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "tests/data/ccd_bad.csv:3") != NULL, "%s", err.msg);
  CHECK_MSG(strstr(err.msg, "expected") != NULL, "%s", err.msg);
  CHECK(q.x == NULL && q.n == 0);

  /* kind cannot be told from this name */
  st = ipc_ccd_queries_read("tests/data/ccd_bad.csv", IPC_CCD_KIND_FROM_PATH, &q, &err);
  CHECK(st == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, "vertex-face") != NULL, "%s", err.msg);

  st = ipc_ccd_queries_read("tests/data/no_such_file_vf.csv", IPC_CCD_KIND_FROM_PATH, &q, &err);
  CHECK(st == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "no_such_file_vf.csv") != NULL);

  /* a small valid file: huge denominators parse exactly; an incomplete query is an error */
  char path[] = "/tmp/ipcc_test_ccd_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  FILE *f = fdopen(fd, "w");
  fputs("# comment\n", f);
  fputs("1,649037107316853453566312041152512,-3,4,0,1,1\r\n", f);
  for (int i = 1; i < 8; ++i) fprintf(f, "%d,1,0,1,-9007199254740991,9007199254740992,1\n", i);
  fclose(f);
  st = ipc_ccd_queries_read(path, IPC_CCD_KIND_EE, &q, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (st == IPCC_OK) {
    CHECK(q.n == 1 && q.kind == IPC_CCD_KIND_EE && q.has_truth && q.truth[0] == 1);
    CHECK(q.x[0] == 0x1p-109 && q.x[1] == -0.75 && q.x[2] == 0.0);
    CHECK(q.x[3 * 7] == 7.0 && q.x[3 * 7 + 2] == -(1.0 - 0x1p-53));
    ipc_ccd_queries_free(&q);
  }
  f = fopen(path, "a");
  fputs("1,1,1,1,1,1,1\n", f);
  fclose(f);
  st = ipc_ccd_queries_read(path, IPC_CCD_KIND_EE, &q, &err);
  CHECK(st == IPCC_ERR_INPUT);
  CHECK_MSG(strstr(err.msg, ":10:") != NULL && strstr(err.msg, "8 vertex lines") != NULL, "%s",
            err.msg);
  remove(path);
}

/* usage: test_ccd [DATA_DIR]: DATA_DIR/ccd-queries holds the full shared query set
   (tools/validate.sh); without it the vendored slice in tests/data */
int main(int argc, char **argv) {
  test_reader();
  test_vf_cases();
  test_ee_cases();
  test_ve_vv_cases();
  test_min_sep();
  test_random_exact();
  test_random_min_sep();
  test_random_carried();
  test_collinear_regression();
  test_random_parallel();
  if (argc > 1)
    test_query_set(argv[1], &full_set);
  else
    test_query_set("tests/data", &vendored_set);
  TEST_MAIN_END();
}
