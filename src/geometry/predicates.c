/* exact orientation predicates.

   Filter (semi-static, after Shewchuk 1997, "Adaptive precision floating-point arithmetic
   and fast robust geometric predicates"; bound derived here in the style of Higham,
   "Accuracy and stability of numerical algorithms", ch. 3). Let eps = 2^-53 and
   gamma_n = n eps / (1 - n eps).

   orient3d: u = fl(b-a), v = fl(c-a), w = fl(d-a), then
     D' = u_x (v_y w_z - v_z w_y) + u_y (v_z w_x - v_x w_z) + u_z (v_x w_y - v_y w_x)
   evaluated left to right. Every operation obeys fl(x op y) = (x op y)(1 + delta),
   |delta| <= eps, provided no product underflows or overflows (see the range check
   below; additions are exact when their result is subnormal). Expanding, D' is the sum of
   the six exact monomials X_i Y_j Z_k (X = b-a etc.) each multiplied by at most 8 factors
   (1 + delta): one per input difference (3), the inner product (1), the inner
   subtraction (1), the outer product (1), the outer sum (<= 2). Hence
     |D' - D| <= gamma_8 P,  P = sum |X_i Y_j Z_k|.
   The same expression with absolute values, P', computed in floating point, has only
   non-negative terms and at most 5 roundings per monomial, so P' >= perm(|u|,|v|,|w|)
   (1 - eps)^5, and |X_i| <= |u_i| / (1 - eps). So P <= P' (1 - eps)^-8 and
     |D' - D| <= gamma_8 (1 - eps)^-8 P' <= 8 eps (1 + 16.01 eps) P'.
   The bound itself is rounded once more: fl(C P') >= C P' (1 - eps). With
   C = 8 eps (1 + 32 eps), C (1 - eps) >= 8 eps (1 + 16.01 eps), so |D'| > fl(C P')
   certifies sign(D) = sign(D'). If P' = 0 every monomial has a zero factor, so D = 0.

   orient2d: D' = u_x v_y - u_y v_x has at most 4 roundings per monomial and P' at most 2,
   so |D' - D| <= gamma_4 (1 - eps)^-4 P' <= 4 eps (1 + 8.01 eps) P'; C = 4 eps (1 + 16 eps).

   Range check: the filter is used only when every difference is 0 or has magnitude in
   [2^-300, 2^300]. Then every non-zero product of two differences lies in
   [2^-600, 2^600], a non-zero difference of two such products lies in
   [ulp(2^-600), 2^601] = [2^-652, 2^601], and every non-zero product with a third
   difference lies in [2^-952, 2^901]: no underflow, no overflow, so the model above
   holds exactly.
   Inputs outside that range (huge, tiny or infinite differences) go to the exact stage.

   Exact stage: every finite double is M 2^e with an integer |M| < 2^53. Multiplying all
   inputs by 2^-emin (emin the smallest such e) makes them integers without changing the
   sign of the determinant, which is then evaluated in GMP integers (mpz). */
#include "geometry/predicates.h"

#include <assert.h>
#include <float.h>
#include <gmp.h>
#include <limits.h>
#include <math.h>

/* the filter's error bound assumes each operation is one IEEE double rounding */
#if FLT_EVAL_METHOD != 0 || defined(__FAST_MATH__)
#error "predicates.c needs plain IEEE double evaluation (FLT_EVAL_METHOD 0, no fast-math)"
#endif

static const double k_o3_bound = 0x1p-50 + 0x1p-98;  /* 8 eps (1 + 32 eps) */
static const double k_o2_bound = 0x1p-51 + 0x1p-100; /* 4 eps (1 + 16 eps) */

static inline int filter_in_range(double t) {
  double at = fabs(t);
  return (at >= 0x1p-300 && at <= 0x1p300) || at == 0.0;
}

int ipc_orient3d_filter(const double a[3], const double b[3], const double c[3],
                        const double d[3]) {
  double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  if (!(filter_in_range(ux) && filter_in_range(uy) && filter_in_range(uz) && filter_in_range(vx) &&
        filter_in_range(vy) && filter_in_range(vz) && filter_in_range(wx) && filter_in_range(wy) &&
        filter_in_range(wz)))
    return IPC_ORIENT_UNSURE;
  double m1 = vy * wz, m2 = vz * wy;
  double m3 = vz * wx, m4 = vx * wz;
  double m5 = vx * wy, m6 = vy * wx;
  double det = ux * (m1 - m2) + uy * (m3 - m4) + uz * (m5 - m6);
  double perm = fabs(ux) * (fabs(m1) + fabs(m2)) + fabs(uy) * (fabs(m3) + fabs(m4)) +
                fabs(uz) * (fabs(m5) + fabs(m6));
  double bound = k_o3_bound * perm;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  if (perm == 0.0) return 0;
  return IPC_ORIENT_UNSURE;
}

int ipc_orient2d_filter(const double a[2], const double b[2], const double c[2]) {
  double ux = b[0] - a[0], uy = b[1] - a[1];
  double vx = c[0] - a[0], vy = c[1] - a[1];
  if (!(filter_in_range(ux) && filter_in_range(uy) && filter_in_range(vx) && filter_in_range(vy)))
    return IPC_ORIENT_UNSURE;
  double l = ux * vy, r = uy * vx;
  double det = l - r;
  double bound = k_o2_bound * (fabs(l) + fabs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  if (l == 0.0 && r == 0.0) return 0;
  return IPC_ORIENT_UNSURE;
}

/* exponent of the last mantissa bit: x = M 2^e with integer |M| < 2^53; x != 0 */
static int lowest_exponent(double x) {
  int e;
  (void)frexp(x, &e);
  return e - 53;
}

/* smallest lowest_exponent over the non-zero entries of n values; INT_MAX if all zero */
static int common_exponent(const double *const *pts, int npts, int dim) {
  int emin = INT_MAX;
  for (int i = 0; i < npts; ++i)
    for (int j = 0; j < dim; ++j) {
      double t = pts[i][j];
      assert(isfinite(t));
      if (t != 0.0) {
        int e = lowest_exponent(t);
        if (e < emin) emin = e;
      }
    }
  return emin;
}

/* z = x 2^-emin, an integer since emin <= lowest_exponent(x) */
static void mpz_set_scaled(mpz_t z, double x, int emin) {
  if (x == 0.0) {
    mpz_set_ui(z, 0);
    return;
  }
  int e;
  double m = frexp(x, &e);
  mpz_set_d(z, ldexp(m, 53));
  mpz_mul_2exp(z, z, (mp_bitcnt_t)(e - 53 - emin));
}

int ipc_orient3d_exact(const double a[3], const double b[3], const double c[3], const double d[3]) {
  const double *pts[4] = {a, b, c, d};
  int emin = common_exponent(pts, 4, 3);
  if (emin == INT_MAX) return 0;
  mpz_t base[3], u[3][3], s, t, det;
  for (int j = 0; j < 3; ++j) {
    mpz_init(base[j]);
    mpz_set_scaled(base[j], a[j], emin);
  }
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 3; ++j) {
      mpz_init(u[r][j]);
      mpz_set_scaled(u[r][j], pts[r + 1][j], emin);
      mpz_sub(u[r][j], u[r][j], base[j]);
    }
  mpz_inits(s, t, det, NULL);
  /* det = sum_i u0_i (u1 x u2)_i */
  for (int i = 0; i < 3; ++i) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    mpz_mul(s, u[1][j], u[2][k]);
    mpz_mul(t, u[1][k], u[2][j]);
    mpz_sub(s, s, t);
    mpz_addmul(det, u[0][i], s);
  }
  int sign = mpz_sgn(det);
  mpz_clears(s, t, det, NULL);
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 3; ++j) mpz_clear(u[r][j]);
  for (int j = 0; j < 3; ++j) mpz_clear(base[j]);
  return sign;
}

int ipc_orient2d_exact(const double a[2], const double b[2], const double c[2]) {
  const double *pts[3] = {a, b, c};
  int emin = common_exponent(pts, 3, 2);
  if (emin == INT_MAX) return 0;
  mpz_t base[2], u[2][2], s, t;
  for (int j = 0; j < 2; ++j) {
    mpz_init(base[j]);
    mpz_set_scaled(base[j], a[j], emin);
  }
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 2; ++j) {
      mpz_init(u[r][j]);
      mpz_set_scaled(u[r][j], pts[r + 1][j], emin);
      mpz_sub(u[r][j], u[r][j], base[j]);
    }
  mpz_inits(s, t, NULL);
  mpz_mul(s, u[0][0], u[1][1]);
  mpz_mul(t, u[0][1], u[1][0]);
  int sign = mpz_cmp(s, t);
  sign = (sign > 0) - (sign < 0);
  mpz_clears(s, t, NULL);
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 2; ++j) mpz_clear(u[r][j]);
  for (int j = 0; j < 2; ++j) mpz_clear(base[j]);
  return sign;
}

int ipc_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]) {
  int s = ipc_orient3d_filter(a, b, c, d);
  return s != IPC_ORIENT_UNSURE ? s : ipc_orient3d_exact(a, b, c, d);
}

int ipc_orient2d(const double a[2], const double b[2], const double c[2]) {
  int s = ipc_orient2d_filter(a, b, c);
  return s != IPC_ORIENT_UNSURE ? s : ipc_orient2d_exact(a, b, c);
}
