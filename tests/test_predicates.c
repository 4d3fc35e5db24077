/* orientation predicates against an independent GMP rational reference (mpq), on random,
   wide-range, exactly degenerate, one-ulp-perturbed and classic near-degenerate inputs */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "geometry/predicates.h"
#include "test.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rng_unit(void) {
  return (double)(rng_next() >> 11) * 0x1p-53;
}

static int rng_int(int lo, int hi) {
  return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* reference: det = det[b-a; c-a; d-a] in rationals, straight from the definition */
static void ref_det3(mpq_t det, const double a[3], const double b[3], const double c[3],
                     const double d[3]) {
  const double *p[3] = {b, c, d};
  mpq_t m[3][3], t;
  mpq_init(t);
  mpq_set_ui(det, 0, 1);
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 3; ++j) {
      mpq_init(m[r][j]);
      mpq_set_d(m[r][j], p[r][j]);
      mpq_set_d(t, a[j]);
      mpq_sub(m[r][j], m[r][j], t);
    }
  /* rule of Sarrus */
  static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
  for (int k = 0; k < 6; ++k) {
    mpq_mul(t, m[0][perm[k][0]], m[1][perm[k][1]]);
    mpq_mul(t, t, m[2][perm[k][2]]);
    if (k < 3)
      mpq_add(det, det, t);
    else
      mpq_sub(det, det, t);
  }
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 3; ++j) mpq_clear(m[r][j]);
  mpq_clear(t);
}

static int ref_orient3d(const double a[3], const double b[3], const double c[3],
                        const double d[3]) {
  mpq_t det;
  mpq_init(det);
  ref_det3(det, a, b, c, d);
  int sign = mpq_sgn(det);
  mpq_clear(det);
  return sign;
}

/* the derived filter bound itself: |D' - D| <= 8 eps (1 + 32 eps) P' with D' and P'
   evaluated as in predicates.c; returns |D' - D| / (eps P') (0 when P' == 0) */
static double bound_ratio(const double a[3], const double b[3], const double c[3],
                          const double d[3], int *violated) {
  double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  double m1 = vy * wz, m2 = vz * wy, m3 = vz * wx, m4 = vx * wz, m5 = vx * wy, m6 = vy * wx;
  double det = ux * (m1 - m2) + uy * (m3 - m4) + uz * (m5 - m6);
  double perm = fabs(ux) * (fabs(m1) + fabs(m2)) + fabs(uy) * (fabs(m3) + fabs(m4)) +
                fabs(uz) * (fabs(m5) + fabs(m6));
  mpq_t exact, err, lim;
  mpq_inits(exact, err, lim, NULL);
  ref_det3(exact, a, b, c, d);
  mpq_set_d(err, det);
  mpq_sub(err, err, exact);
  mpq_abs(err, err);
  mpq_set_d(lim, (0x1p-50 + 0x1p-98));
  mpq_set_d(exact, perm);
  mpq_mul(lim, lim, exact);
  if (mpq_cmp(err, lim) > 0) *violated = 1;
  double ratio = perm > 0 ? mpq_get_d(err) / (0x1p-53 * perm) : 0.0;
  mpq_clears(exact, err, lim, NULL);
  return ratio;
}

static int ref_orient2d(const double a[2], const double b[2], const double c[2]) {
  mpq_t ax, ay, l, r, t;
  mpq_inits(ax, ay, l, r, t, NULL);
  mpq_set_d(ax, a[0]);
  mpq_set_d(ay, a[1]);
  mpq_set_d(l, b[0]);
  mpq_sub(l, l, ax);
  mpq_set_d(t, c[1]);
  mpq_sub(t, t, ay);
  mpq_mul(l, l, t);
  mpq_set_d(r, b[1]);
  mpq_sub(r, r, ay);
  mpq_set_d(t, c[0]);
  mpq_sub(t, t, ax);
  mpq_mul(r, r, t);
  int sign = mpq_cmp(l, r);
  mpq_clears(ax, ay, l, r, t, NULL);
  return (sign > 0) - (sign < 0);
}

static int sign_of(double v) {
  return (v > 0) - (v < 0);
}

static double naive_orient3d(const double a[3], const double b[3], const double c[3],
                             const double d[3]) {
  double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  return ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx);
}

static double naive_orient2d(const double a[2], const double b[2], const double c[2]) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

typedef struct counts {
  long calls, filtered, mismatches;
} counts;

/* checks every stage against the reference; returns the reference sign */
static int check3(const double a[3], const double b[3], const double c[3], const double d[3],
                  counts *n) {
  int ref = ref_orient3d(a, b, c, d);
  int got = ipc_orient3d(a, b, c, d);
  int filt = ipc_orient3d_filter(a, b, c, d);
  int ex = ipc_orient3d_exact(a, b, c, d);
  ++n->calls;
  if (filt != IPC_ORIENT_UNSURE) ++n->filtered;
  int bad = got != ref || ex != ref || (filt != IPC_ORIENT_UNSURE && filt != ref);
  if (bad) {
    ++n->mismatches;
    if (n->mismatches <= 5)
      fprintf(stderr,
              "orient3d mismatch: ref %d got %d filter %d exact %d\n a %a %a %a\n b %a %a %a\n"
              " c %a %a %a\n d %a %a %a\n",
              ref, got, filt, ex, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1],
              d[2]);
  }
  return ref;
}

static int check2(const double a[2], const double b[2], const double c[2], counts *n) {
  int ref = ref_orient2d(a, b, c);
  int got = ipc_orient2d(a, b, c);
  int filt = ipc_orient2d_filter(a, b, c);
  int ex = ipc_orient2d_exact(a, b, c);
  ++n->calls;
  if (filt != IPC_ORIENT_UNSURE) ++n->filtered;
  if (got != ref || ex != ref || (filt != IPC_ORIENT_UNSURE && filt != ref)) {
    ++n->mismatches;
    if (n->mismatches <= 5)
      fprintf(stderr,
              "orient2d mismatch: ref %d got %d filter %d exact %d\n a %a %a b %a %a c %a %a\n",
              ref, got, filt, ex, a[0], a[1], b[0], b[1], c[0], c[1]);
  }
  return ref;
}

static void test_conventions(void) {
  double o[3] = {0, 0, 0}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1};
  double w[3] = {0.5, 0.25, 0};
  CHECK(ipc_orient3d(o, x, y, z) == 1);
  CHECK(ipc_orient3d(x, o, y, z) == -1);
  CHECK(ipc_orient3d(o, x, y, w) == 0);
  double zm[3] = {0.1, 0.2, -3};
  CHECK(ipc_orient3d(o, x, y, zm) == -1);
  double p[2] = {0, 0}, q[2] = {1, 0}, r[2] = {0, 1}, s[2] = {2, 0};
  CHECK(ipc_orient2d(p, q, r) == 1);
  CHECK(ipc_orient2d(p, r, q) == -1);
  CHECK(ipc_orient2d(p, q, s) == 0);
  /* all equal and all zero */
  CHECK(ipc_orient3d(o, o, o, o) == 0);
  CHECK(ipc_orient3d_exact(o, o, o, o) == 0);
  CHECK(ipc_orient2d_exact(p, p, p) == 0);
}

/* uniform random inputs: the filter must decide nearly all of them */
static void test_random(void) {
  counts n3 = {0, 0, 0}, n2 = {0, 0, 0};
  for (int it = 0; it < 20000; ++it) {
    double p[4][3];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) p[i][j] = 2 * rng_unit() - 1;
    check3(p[0], p[1], p[2], p[3], &n3);
    check2(p[0], p[1], p[2], &n2);
  }
  CHECK_MSG(n3.mismatches == 0, "%ld orient3d mismatches", n3.mismatches);
  CHECK_MSG(n2.mismatches == 0, "%ld orient2d mismatches", n2.mismatches);
  CHECK_MSG(n3.filtered >= n3.calls - n3.calls / 1000, "filter decided %ld of %ld", n3.filtered,
            n3.calls);
  CHECK_MSG(n2.filtered >= n2.calls - n2.calls / 1000, "filter decided %ld of %ld", n2.filtered,
            n2.calls);
  fprintf(stderr, "random: orient3d filter decided %ld / %ld, orient2d %ld / %ld\n", n3.filtered,
          n3.calls, n2.filtered, n2.calls);
}

/* clusters at every scale, down to subnormal offsets and up to near-overflow centres */
static void test_wide_range(void) {
  counts n3 = {0, 0, 0}, n2 = {0, 0, 0};
  long unsure = 0;
  for (int it = 0; it < 10000; ++it) {
    int ec = rng_int(-1070, 1020), eo = rng_int(-1074, 1020);
    double centre[3], p[4][3];
    for (int j = 0; j < 3; ++j) centre[j] = ldexp(2 * rng_unit() - 1, ec);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) {
        int kind = rng_int(0, 9);
        double off = kind == 0 ? 0.0 : ldexp(2 * rng_unit() - 1, eo - rng_int(0, 3));
        /* keep the sum finite */
        double s = centre[j] + off;
        p[i][j] = isfinite(s) ? s : centre[j];
      }
    if (ipc_orient3d_filter(p[0], p[1], p[2], p[3]) == IPC_ORIENT_UNSURE) ++unsure;
    check3(p[0], p[1], p[2], p[3], &n3);
    check2(p[0], p[1], p[2], &n2);
  }
  /* exact extremes: overflowing differences and subnormal coordinates */
  double big = 0x1.fffffffffffffp1023, tiny = 0x1p-1074;
  double e0[3] = {big, -big, big}, e1[3] = {-big, big, big}, e2[3] = {big, big, -big},
         e3[3] = {-big, -big, -big};
  check3(e0, e1, e2, e3, &n3);
  check3(e1, e0, e2, e3, &n3);
  double s0[3] = {0, 0, 0}, s1[3] = {tiny, 0, 0}, s2[3] = {0, tiny, 0}, s3[3] = {0, 0, tiny};
  CHECK(ipc_orient3d(s0, s1, s2, s3) == 1);
  CHECK(ipc_orient3d(s0, s2, s1, s3) == -1);
  check3(s0, s1, s2, s3, &n3);
  double s4[3] = {tiny, tiny, 0};
  CHECK(ipc_orient3d(s0, s1, s2, s4) == 0);
  CHECK(ipc_orient2d(s0, s1, s4) == 1);
  check2(s0, s1, s4, &n2);
  CHECK_MSG(n3.mismatches == 0, "%ld orient3d mismatches", n3.mismatches);
  CHECK_MSG(n2.mismatches == 0, "%ld orient2d mismatches", n2.mismatches);
  CHECK(unsure > 0); /* the range check sends some of these to GMP */
  fprintf(stderr, "wide range: %ld of %ld orient3d calls needed GMP\n", unsure, n3.calls);
}

/* exactly coplanar points from small integers scaled by 2^k, then moved by one ulp */
static void test_coplanar_ulp(void) {
  counts n3 = {0, 0, 0}, n2 = {0, 0, 0};
  long zero = 0, nonzero = 0;
  for (int it = 0; it < 4000; ++it) {
    double p[4][3];
    int k = rng_int(-60, 60);
    int al = rng_int(-3, 3), be = rng_int(-3, 3);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) p[i][j] = rng_int(-16, 16);
    for (int j = 0; j < 3; ++j)
      p[3][j] = p[0][j] + al * (p[1][j] - p[0][j]) + be * (p[2][j] - p[0][j]);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) p[i][j] = ldexp(p[i][j], k);
    int perm = rng_int(0, 3); /* the dependent point in any slot */
    for (int j = 0; j < 3; ++j) {
      double t = p[perm][j];
      p[perm][j] = p[3][j];
      p[3][j] = t;
    }
    CHECK(ipc_orient3d(p[0], p[1], p[2], p[3]) == 0);
    check3(p[0], p[1], p[2], p[3], &n3);
    /* coplanar with a collinear triple on a 2D slice */
    double q0[2] = {p[0][0], p[0][1]}, q1[2] = {p[1][0], p[1][1]};
    double q2[2] = {q0[0] + al * (q1[0] - q0[0]), q0[1] + al * (q1[1] - q0[1])};
    CHECK(ipc_orient2d(q0, q1, q2) == 0);
    check2(q0, q1, q2, &n2);
    int i = rng_int(0, 3), j = rng_int(0, 2);
    p[i][j] = nextafter(p[i][j], rng_int(0, 1) ? INFINITY : -INFINITY);
    if (check3(p[0], p[1], p[2], p[3], &n3) == 0)
      ++zero;
    else
      ++nonzero;
    int m = rng_int(0, 1);
    q2[m] = nextafter(q2[m], rng_int(0, 1) ? INFINITY : -INFINITY);
    check2(q0, q1, q2, &n2);
  }
  CHECK_MSG(n3.mismatches == 0, "%ld orient3d mismatches", n3.mismatches);
  CHECK_MSG(n2.mismatches == 0, "%ld orient2d mismatches", n2.mismatches);
  CHECK(nonzero > 1000);
  fprintf(stderr, "coplanar+1ulp: %ld perturbed off the plane, %ld stayed on it\n", nonzero, zero);
}

/* near-degenerate inputs where the naive double determinant has the wrong sign */
static void test_naive_fails(void) {
  counts n3 = {0, 0, 0}, n2 = {0, 0, 0};
  long wrong2 = 0, wrong3 = 0, flips = 0;
  int violated = 0;
  double max_ratio = 0;
  /* Kettner et al., "Classroom examples of robustness problems in geometric computations" */
  double q[2] = {12, 12}, r[2] = {24, 24};
  double u = 0x1p-53;
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      double p[2] = {0.5 + i * u, 0.5 + j * u};
      int ref = check2(p, q, r, &n2);
      int naive = sign_of(naive_orient2d(p, q, r));
      if (naive != ref) ++wrong2;
      if (naive * ref < 0) ++flips;
    }
  /* the same in 3D: a point near the plane through the line (t, t, t) and (1, -2, 3) */
  double b[3] = {12, 12, 12}, c[3] = {24, 24, 24}, d[3] = {1, -2, 3};
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      double a[3] = {0.5 + i * u, 0.5 + j * u, 0.5};
      int ref = check3(a, b, c, d, &n3);
      int naive = sign_of(naive_orient3d(a, b, c, d));
      if (naive != ref) ++wrong3;
      if (naive * ref < 0) ++flips;
    }
  /* nearly coplanar points with non-representable coordinates, one-ulp moves */
  for (int it = 0; it < 10000; ++it) {
    double p[4][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) p[i][j] = 10 * rng_unit() - 5;
    double al = rng_unit(), be = rng_unit();
    for (int j = 0; j < 3; ++j)
      p[3][j] = p[0][j] + al * (p[1][j] - p[0][j]) + be * (p[2][j] - p[0][j]);
    int i = rng_int(0, 3), j = rng_int(0, 2), steps = rng_int(0, 2);
    for (int s = 0; s < steps; ++s) p[i][j] = nextafter(p[i][j], INFINITY);
    int ref = check3(p[3], p[1], p[2], p[0], &n3);
    double ratio = bound_ratio(p[3], p[1], p[2], p[0], &violated);
    if (ratio > max_ratio) max_ratio = ratio;
    int naive = sign_of(naive_orient3d(p[3], p[1], p[2], p[0]));
    if (naive != ref) ++wrong3;
    if (naive * ref < 0) ++flips;
  }
  CHECK_MSG(wrong2 > 0, "naive orient2d never wrong");
  CHECK_MSG(wrong3 > 0, "naive orient3d never wrong");
  CHECK_MSG(flips > 0, "naive sign never opposite to the exact one");
  CHECK_MSG(!violated, "the orient3d error bound was exceeded");
  fprintf(stderr, "largest observed |D' - D| / (eps P') = %.3f (bound 8)\n", max_ratio);
  CHECK_MSG(n3.mismatches == 0, "%ld orient3d mismatches", n3.mismatches);
  CHECK_MSG(n2.mismatches == 0, "%ld orient2d mismatches", n2.mismatches);
  fprintf(stderr,
          "near-degenerate: naive orient2d wrong %ld / 65536, naive orient3d wrong %ld "
          "(%ld of all with the opposite sign); ipc_orient* wrong %ld\n",
          wrong2, wrong3, flips, n2.mismatches + n3.mismatches);
}

/* antisymmetry under swapping, and one explicit case the naive formula gets wrong */
static void test_symmetry(void) {
  int bad = 0;
  for (int it = 0; it < 2000; ++it) {
    double p[4][3];
    int degenerate = rng_int(0, 1);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) p[i][j] = rng_int(-2, 2) + (degenerate ? 0 : 0.1 * rng_unit());
    int s = ipc_orient3d(p[0], p[1], p[2], p[3]);
    if (ipc_orient3d(p[1], p[0], p[2], p[3]) != -s) ++bad;
    if (ipc_orient3d(p[0], p[2], p[1], p[3]) != -s) ++bad;
    if (ipc_orient3d(p[0], p[1], p[3], p[2]) != -s) ++bad;
    if (ipc_orient3d(p[1], p[2], p[3], p[0]) != -s) ++bad; /* a 4-cycle is odd */
    if (ipc_orient2d(p[0], p[1], p[2]) != ipc_orient2d(p[1], p[2], p[0])) ++bad;
    if (ipc_orient2d(p[0], p[1], p[2]) != -ipc_orient2d(p[1], p[0], p[2])) ++bad;
  }
  CHECK_MSG(bad == 0, "%d symmetry violations", bad);
}

int main(void) {
  test_conventions();
  test_random();
  test_wide_range();
  test_coplanar_ulp();
  test_naive_fails();
  test_symmetry();
  TEST_MAIN_END();
}
