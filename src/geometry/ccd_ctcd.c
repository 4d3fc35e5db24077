/* Distance-threshold CCD by sign intervals of polynomials in time, with the conditions of
   E. Vouga's CTCD (the default "floating point root finder" CCD of the original IPC code).

   Every point moves linearly, x(t) = x0 + t (x1 - x0), t in [0, 1]. Each query is a
   conjunction of polynomial sign conditions; for each condition we compute the closed
   sub-intervals of [0, 1] on which it holds, and the query reports the earliest t at which one
   interval of every condition overlaps (the largest lower end among the chosen intervals,
   minimised over all overlapping choices). With x_ij = x_i - x_j at t = 0 and v_ij its rate:
     vertex-face (p; a, b, c), eta:
       three in-edge conditions  (p - a) . (n_a x (c - a)) >= 0 and the same around b, c, where
                                 n_a = (c - a)(0) x (b - a)(0) + t (rate of c - a) x (rate of b - a)
                                 is a linear-in-t stand-in for the (quadratic) normal: cubic
       near-plane condition      ((p - a) . m)^2 - eta^2 |m|^2 <= 0, m = (b - a) x (c - a): degree 6
     edge-edge (a0 a1; b0 b1), eta:
       near-plane condition      the same with (a1 - b1) and m = (a1 - a0) x (b1 - b0): degree 6;
                                 its intervals whose edges are parallel at their midpoint
                                 (|m| < 1e-8, absolute) are set aside, and an overlap that touches
                                 one of them is discarded
       four in-segment conditions (r . x)(s . x) - |x|^2 (r . s) >= 0, with x an edge vector and
                                 r, s the other edge vector and an endpoint offset: quartic
     vertex-edge (p; e0 e1): (e1 - e0) . (p - e0) >= 0, (e1 - e0) . (e1 - p) >= 0 (quadratics) and
                             |e1 - e0|^2 |p - e0|^2 - ((p - e0) . (e1 - e0))^2 - eta^2 |e1 - e0|^2
   <= 0 vertex-vertex (p; q):   |p - q|^2 - eta^2 <= 0, earliest time directly from its roots. Sign
   intervals of a polynomial: divide by its largest |coefficient|, drop exactly-zero leading
   coefficients (a constant: all of [0, 1] or nothing), for degree > 2 drop it when a bound on
   [0, 1] (sum of the same-signed non-constant coefficients plus the constant) rules the sign
   out, split [0, 1] at the real roots in [0, 1], and keep the pieces whose midpoint value has
   the wanted sign (zero counts for both signs).

   Real roots in [0, 1] (degree <= 6): degree 1 and 2 in closed form (the quadratic by the
   cancellation-free formula); higher degree by isolation: the roots of the derivative split
   [0, 1] into monotone pieces; a piece whose end values differ in sign holds one root, found by
   Newton steps kept inside a shrinking bracket (bisection when a step leaves it or converges
   too slowly), to the last bit of the bracket. An exactly-zero value at a piece end is a root
   (double roots are found only then, as in any floating-point sign test). */
#include "geometry/ccd_ctcd.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/vec3.h"

typedef struct ctcd_iv {
  double l, u;
} ctcd_iv;

/* at most (roots + 1) pieces and one touch per critical point */
#define CTCD_MAX_IV 16

typedef struct ctcd_list {
  ctcd_iv iv[CTCD_MAX_IV];
  int n;
} ctcd_list;

static double v_triple(const double a[3], const double b[3], const double c[3]) {
  double bc[3];
  cross3(bc, b, c);
  return dot3(a, bc);
}

/* ---------------------------------------------------------------- polynomials */

/* c[0] t^m + ... + c[m] */
static double poly_eval(const double *c, int m, double t) {
  double f = c[0];
  for (int i = 1; i <= m; ++i) f = f * t + c[i];
  return f;
}

static void poly_eval_d(const double *c, int m, double t, double *f, double *df) {
  double p = c[0], q = 0.0;
  for (int i = 1; i <= m; ++i) {
    q = q * t + p;
    p = p * t + c[i];
  }
  *f = p;
  *df = q;
}

/* real roots of a t^2 + b t + c (a != 0), ascending; 0 or 2 (a double root counts twice) */
static int quad_roots(double a, double b, double c, double r[2]) {
  double disc = b * b - 4.0 * a * c;
  if (disc < 0.0) return 0;
  double q = -0.5 * (b + copysign(sqrt(disc), b));
  if (q == 0.0) {
    /* b = c = 0: double root at 0 */
    r[0] = r[1] = 0.0;
    return 2;
  }
  double x0 = q / a, x1 = c / q;
  r[0] = fmin(x0, x1);
  r[1] = fmax(x0, x1);
  return 2;
}

/* the root of c in [a, b], given p(a) = fa and p(b) of opposite signs, neither zero */
static double refine_root(const double *c, int m, double a, double b, double fa) {
  double x = a + 0.5 * (b - a);
  double step_old = b - a, step = step_old;
  for (int it = 0; it < 200; ++it) {
    double f, df;
    poly_eval_d(c, m, x, &f, &df);
    if (f == 0.0) return x;
    if ((f < 0.0) == (fa < 0.0)) {
      a = x;
    } else {
      b = x;
    }
    double mid = a + 0.5 * (b - a);
    if (!(mid > a && mid < b)) return x; /* the bracket is two adjacent doubles */
    double xn = x - f / df;
    if (!(xn > a && xn < b) || fabs(2.0 * (xn - x)) > fabs(step_old)) {
      step_old = step;
      step = mid - x;
      x = mid;
    } else {
      step_old = step;
      step = xn - x;
      if (xn == x) return x;
      x = xn;
    }
  }
  return x;
}

/* the conditions a polynomial can be asked for */
enum { CTCD_NONPOS, CTCD_NONNEG, CTCD_ZERO };

static int roots01(const double *c, int m, double *r);

/* real roots in [0, 1] of the derivative of c (degree m >= 2, c[0] != 0), ascending */
static int crit01(const double *c, int m, double *crit) {
  double dc[6] = {0.0};
  for (int i = 0; i < m; ++i) dc[i] = c[i] * (double)(m - i);
  return roots01(dc, m - 1, crit);
}

/* the real roots in [0, 1] of c (degree m >= 3) given those of its derivative */
static int roots01_isolated(const double *c, int m, const double *crit, int nc, double *r) {
  double pts[10];
  int np = 0;
  pts[np++] = 0.0;
  for (int i = 0; i < nc; ++i) pts[np++] = crit[i];
  pts[np++] = 1.0;
  int n = 0;
  double fa = poly_eval(c, m, 0.0);
  if (fa == 0.0) r[n++] = 0.0;
  for (int k = 0; k + 1 < np; ++k) {
    double a = pts[k], b = pts[k + 1];
    double fb = poly_eval(c, m, b);
    if (b > a && fa != 0.0 && fb != 0.0 && (fa < 0.0) != (fb < 0.0))
      r[n++] = refine_root(c, m, a, b, fa);
    if (fb == 0.0 && (n == 0 || r[n - 1] != b)) r[n++] = b;
    fa = fb;
  }
  return n;
}

/* real roots in [0, 1] of c (degree m >= 1, c[0] != 0), ascending; returns their count */
static int roots01(const double *c, int m, double *r) {
  if (m == 1) {
    double x = -c[1] / c[0];
    if (x >= 0.0 && x <= 1.0) {
      r[0] = x;
      return 1;
    }
    return 0;
  }
  if (m == 2) {
    double q[2];
    int k = quad_roots(c[0], c[1], c[2], q), n = 0;
    for (int i = 0; i < k; ++i)
      if (q[i] >= 0.0 && q[i] <= 1.0) r[n++] = q[i];
    return n;
  }
  double crit[8];
  int nc = crit01(c, m, crit);
  return roots01_isolated(c, m, crit, nc, r);
}

static int sign_ok(double f, int want) {
  return want == CTCD_NONNEG ? f >= 0.0 : want == CTCD_NONPOS ? f <= 0.0 : f == 0.0;
}

/* the closed pieces of [0, 1] where op (degree n <= 6, descending; normalised in place) is
   <= 0, >= 0 or == 0 (want). Beyond the reference's sign test: a critical point where |op| is
   within rounding of 0 (16 m eps sum |c_i|) is a touch, added as a single-instant piece; it
   stands for the double root that a sign test sees only by chance (the distance conditions
   with eta = 0 are squares). For CTCD_ZERO the pieces are the roots and touches only. */
static void sign_intervals(double *op, int n, int want, ctcd_list *out) {
  out->n = 0;
  double maxv = 0.0;
  for (int i = 0; i <= n; ++i) maxv = fmax(maxv, fabs(op[i]));
  if (maxv != 0.0)
    for (int i = 0; i <= n; ++i) op[i] /= maxv;
  int m = n;
  while (m > 0 && op[n - m] == 0.0) --m;
  const double *c = op + (n - m);
  if (m == 0) {
    if (sign_ok(c[0], want)) out->iv[out->n++] = (ctcd_iv){0.0, 1.0};
    return;
  }
  if (m > 2 && want != CTCD_ZERO) {
    /* the largest (>= 0 wanted) or smallest (<= 0 wanted) value c can take on [0, 1] */
    int pos = want == CTCD_NONNEG;
    double bound = 0.0;
    for (int i = 0; i < m; ++i)
      if (pos ? c[i] > 0.0 : c[i] < 0.0) bound += c[i];
    bound += c[m];
    if (pos ? bound < 0.0 : bound > 0.0) return;
  }
  double crit[8], r[8], pts[10];
  int nc = 0, nr;
  if (m >= 2) nc = crit01(c, m, crit);
  nr = m >= 3 ? roots01_isolated(c, m, crit, nc, r) : roots01(c, m, r);
  if (want == CTCD_ZERO) {
    for (int i = 0; i < nr; ++i) out->iv[out->n++] = (ctcd_iv){r[i], r[i]};
  } else {
    int np = 0;
    pts[np++] = 0.0;
    for (int i = 0; i < nr; ++i) pts[np++] = r[i];
    pts[np++] = 1.0;
    for (int k = 0; k + 1 < np; ++k) {
      double mid = 0.5 * (pts[k] + pts[k + 1]);
      if (sign_ok(poly_eval(c, m, mid), want)) out->iv[out->n++] = (ctcd_iv){pts[k], pts[k + 1]};
    }
  }
  double abs_sum = 0.0;
  for (int i = 0; i <= m; ++i) abs_sum += fabs(c[i]);
  double tol = 16.0 * m * DBL_EPSILON * abs_sum;
  for (int i = 0; i < nc; ++i)
    if (fabs(poly_eval(c, m, crit[i])) <= tol) out->iv[out->n++] = (ctcd_iv){crit[i], crit[i]};
}

/* coefficients (descending) of (x + t v) . (y + t w) */
static void dot_poly(double r[3], const double x[3], const double v[3], const double y[3],
                     const double w[3]) {
  r[0] = dot3(v, w);
  r[1] = dot3(x, w) + dot3(v, y);
  r[2] = dot3(x, y);
}

/* r = a b for quadratics (descending) */
static void quad_mul(double r[5], const double a[3], const double b[3]) {
  r[0] = a[0] * b[0];
  r[1] = a[0] * b[1] + a[1] * b[0];
  r[2] = a[0] * b[2] + a[1] * b[1] + a[2] * b[0];
  r[3] = a[1] * b[2] + a[2] * b[1];
  r[4] = a[2] * b[2];
}

/* (x1 + t v1) . ((x2 + t v2) x (x3 + t v3)) >= 0 */
static void plane_intervals(const double x1[3], const double x2[3], const double x3[3],
                            const double v1[3], const double v2[3], const double v3[3],
                            ctcd_list *out) {
  double op[4];
  op[0] = v_triple(v1, v2, v3);
  op[1] = v_triple(x1, v2, v3) + v_triple(v1, x2, v3) + v_triple(v1, v2, x3);
  op[2] = v_triple(x1, x2, v3) + v_triple(x1, v2, x3) + v_triple(v1, x2, x3);
  op[3] = v_triple(x1, x2, x3);
  sign_intervals(op, 3, CTCD_NONNEG, out);
}

/* (x1(t) . m(t))^2 - eta2 |m(t)|^2 <= 0, m(t) = x2(t) x x3(t), x_i(t) = x_i + t v_i */
static void near_plane_intervals(const double x1[3], const double x2[3], const double x3[3],
                                 const double v1[3], const double v2[3], const double v3[3],
                                 double eta2, ctcd_list *out) {
  double a = v_triple(v1, v2, v3);
  double b = v_triple(x1, v2, v3) + v_triple(v1, x2, v3) + v_triple(v1, v2, x3);
  double c = v_triple(x1, x2, v3) + v_triple(x1, v2, x3) + v_triple(v1, x2, x3);
  double d = v_triple(x1, x2, x3);
  /* m(t) = e + t f + t^2 g */
  double e[3], f[3], g[3], f1[3], f2[3];
  cross3(e, x2, x3);
  cross3(f1, x2, v3);
  cross3(f2, v2, x3);
  for (int j = 0; j < 3; ++j) f[j] = f1[j] + f2[j];
  cross3(g, v2, v3);
  if (eta2 == 0.0) {
    /* (x1 . m)^2 <= 0: the zeros of the cubic x1 . m, found directly (simple roots) */
    double tr[4] = {a, b, c, d};
    sign_intervals(tr, 3, CTCD_ZERO, out);
    return;
  }
  double op[7];
  op[0] = a * a;
  op[1] = 2.0 * a * b;
  op[2] = b * b + 2.0 * a * c - dot3(g, g) * eta2;
  op[3] = 2.0 * a * d + 2.0 * b * c - 2.0 * dot3(g, f) * eta2;
  op[4] = 2.0 * b * d + c * c - (2.0 * dot3(g, e) + dot3(f, f)) * eta2;
  op[5] = 2.0 * c * d - 2.0 * dot3(f, e) * eta2;
  op[6] = d * d - dot3(e, e) * eta2;
  sign_intervals(op, 6, CTCD_NONPOS, out);
}

/* (x2 . x1)(x3 . x1) - |x1|^2 (x3 . x2) >= 0, all at time t */
static void inside_intervals(const double x1[3], const double x2[3], const double x3[3],
                             const double v1[3], const double v2[3], const double v3[3],
                             ctcd_list *out) {
  double d21[3], d31[3], d11[3], d32[3], p[5], q[5], op[5];
  dot_poly(d21, x2, v2, x1, v1);
  dot_poly(d31, x3, v3, x1, v1);
  dot_poly(d11, x1, v1, x1, v1);
  dot_poly(d32, x3, v3, x2, v2);
  quad_mul(p, d21, d31);
  quad_mul(q, d11, d32);
  for (int i = 0; i < 5; ++i) op[i] = p[i] - q[i];
  sign_intervals(op, 4, CTCD_NONNEG, out);
}

/* the earliest lower end of an overlap of one interval from each list; the overlap must not
   touch any interval of `avoid` (may be NULL) */
static void earliest_overlap(const ctcd_list *lists, int nl, int k, double lo, double hi,
                             const ctcd_list *avoid, double *best, int *hit) {
  if (k == nl) {
    if (avoid)
      for (int i = 0; i < avoid->n; ++i)
        if (!(lo > avoid->iv[i].u || avoid->iv[i].l > hi)) return;
    if (!*hit || lo < *best) *best = lo;
    *hit = 1;
    return;
  }
  for (int i = 0; i < lists[k].n; ++i) {
    double l = fmax(lo, lists[k].iv[i].l), u = fmin(hi, lists[k].iv[i].u);
    if (l <= u) earliest_overlap(lists, nl, k + 1, l, u, avoid, best, hit);
  }
}

/* ---------------------------------------------------------------- queries */

int ipc_ctcd_vf(const double p0[3], const double a0[3], const double b0[3], const double c0[3],
                const double p1[3], const double a1[3], const double b1[3], const double c1[3],
                double eta, double *t) {
  double vp[3], va[3], vb[3], vc[3];
  sub3(vp, p1, p0);
  sub3(va, a1, a0);
  sub3(vb, b1, b0);
  sub3(vc, c1, c0);
  ctcd_list lists[4];
  /* in-edge conditions around a, b, c */
  const double *x[3] = {a0, b0, c0}, *v[3] = {va, vb, vc};
  for (int k = 0; k < 3; ++k) {
    /* corner k, then the corners nx and pv: (a; c, b), (b; a, c), (c; b, a) */
    int nx = (k + 2) % 3, pv = (k + 1) % 3;
    double x1[3], v1[3], x3[3], v3[3], xo[3], vo[3], x2[3], v2[3];
    sub3(x1, p0, x[k]);
    sub3(v1, vp, v[k]);
    sub3(x3, x[nx], x[k]);
    sub3(v3, v[nx], v[k]);
    sub3(xo, x[pv], x[k]);
    sub3(vo, v[pv], v[k]);
    cross3(x2, x3, xo);
    cross3(v2, v3, vo);
    plane_intervals(x1, x2, x3, v1, v2, v3, &lists[k]);
    if (lists[k].n == 0) return 0;
  }
  double x1[3], v1[3], x2[3], v2[3], x3[3], v3[3];
  sub3(x1, p0, a0);
  sub3(v1, vp, va);
  sub3(x2, b0, a0);
  sub3(v2, vb, va);
  sub3(x3, c0, a0);
  sub3(v3, vc, va);
  near_plane_intervals(x1, x2, x3, v1, v2, v3, eta * eta, &lists[3]);
  if (lists[3].n == 0) return 0;
  double best = 1.0;
  int hit = 0;
  earliest_overlap(lists, 4, 0, 0.0, 1.0, NULL, &best, &hit);
  if (hit) *t = best;
  return hit;
}

int ipc_ctcd_ee(const double a00[3], const double a10[3], const double b00[3], const double b10[3],
                const double a01[3], const double a11[3], const double b01[3], const double b11[3],
                double eta, double *t) {
  double va0[3], va1[3], vb0[3], vb1[3];
  sub3(va0, a01, a00);
  sub3(va1, a11, a10);
  sub3(vb0, b01, b00);
  sub3(vb1, b11, b10);
  /* edge vectors ea = a1 - a0, eb = b1 - b0 and their rates */
  double ea[3], eb[3], wa[3], wb[3];
  sub3(ea, a10, a00);
  sub3(eb, b10, b00);
  sub3(wa, va1, va0);
  sub3(wb, vb1, vb0);
  double x1[3], v1[3];
  sub3(x1, a10, b10);
  sub3(v1, va1, vb1);
  ctcd_list raw, lists[5], parallel;
  near_plane_intervals(x1, ea, eb, v1, wa, wb, eta * eta, &raw);
  lists[0].n = parallel.n = 0;
  for (int i = 0; i < raw.n; ++i) {
    double mid = 0.5 * (raw.iv[i].l + raw.iv[i].u), ua[3], ub[3], m[3];
    for (int j = 0; j < 3; ++j) {
      ua[j] = ea[j] + mid * wa[j];
      ub[j] = eb[j] + mid * wb[j];
    }
    cross3(m, ua, ub);
    if (sqrt(dot3(m, m)) < 1e-8) {
      parallel.iv[parallel.n++] = raw.iv[i];
    } else {
      lists[0].iv[lists[0].n++] = raw.iv[i];
    }
  }
  if (lists[0].n == 0) return 0;
  /* in-segment conditions: (edge vector, other edge vector or its reverse, endpoint offset) */
  double nea[3], neb[3], nwa[3], nwb[3];
  for (int j = 0; j < 3; ++j) {
    nea[j] = -ea[j];
    neb[j] = -eb[j];
    nwa[j] = -wa[j];
    nwb[j] = -wb[j];
  }
  double o[4][3], ov[4][3];
  sub3(o[0], a00, b00); /* a0 - b0 */
  sub3(ov[0], va0, vb0);
  sub3(o[1], a10, b00); /* a1 - b0 */
  sub3(ov[1], va1, vb0);
  sub3(o[2], b00, a00); /* b0 - a0 */
  sub3(ov[2], vb0, va0);
  sub3(o[3], b10, a00); /* b1 - a0 */
  sub3(ov[3], vb1, va0);
  inside_intervals(eb, ea, o[0], wb, wa, ov[0], &lists[1]);
  if (lists[1].n == 0) return 0;
  inside_intervals(eb, nea, o[1], wb, nwa, ov[1], &lists[2]);
  if (lists[2].n == 0) return 0;
  inside_intervals(ea, eb, o[2], wa, wb, ov[2], &lists[3]);
  if (lists[3].n == 0) return 0;
  inside_intervals(ea, neb, o[3], wa, nwb, ov[3], &lists[4]);
  if (lists[4].n == 0) return 0;
  double best = 1.0;
  int hit = 0;
  earliest_overlap(lists, 5, 0, 0.0, 1.0, &parallel, &best, &hit);
  if (hit) *t = best;
  return hit;
}

int ipc_ctcd_ve(const double p0[3], const double e00[3], const double e10[3], const double p1[3],
                const double e01[3], const double e11[3], double eta, double *t) {
  double vp[3], v0[3], v1[3];
  sub3(vp, p1, p0);
  sub3(v0, e01, e00);
  sub3(v1, e11, e10);
  double ab[3], ac[3], cb[3], vab[3], vac[3], vcb[3];
  sub3(ab, e10, e00);
  sub3(ac, p0, e00);
  sub3(cb, e10, p0);
  sub3(vab, v1, v0);
  sub3(vac, vp, v0);
  sub3(vcb, v1, vp);
  ctcd_list lists[3];
  double op[5];
  dot_poly(op, ab, vab, ac, vac);
  sign_intervals(op, 2, CTCD_NONNEG, &lists[0]);
  if (lists[0].n == 0) return 0;
  dot_poly(op, ab, vab, cb, vcb);
  sign_intervals(op, 2, CTCD_NONNEG, &lists[1]);
  if (lists[1].n == 0) return 0;
  double aa[3], cc[3], ca[3], p[5], q[5];
  dot_poly(aa, ab, vab, ab, vab);
  dot_poly(cc, ac, vac, ac, vac);
  dot_poly(ca, ac, vac, ab, vab);
  quad_mul(p, aa, cc);
  quad_mul(q, ca, ca);
  double eta2 = eta * eta;
  for (int i = 0; i < 5; ++i) op[i] = p[i] - q[i] - (i >= 2 ? eta2 * aa[i - 2] : 0.0);
  sign_intervals(op, 4, CTCD_NONPOS, &lists[2]);
  if (lists[2].n == 0) return 0;
  double best = 1.0;
  int hit = 0;
  earliest_overlap(lists, 3, 0, 0.0, 1.0, NULL, &best, &hit);
  if (hit) *t = best;
  return hit;
}

/* does a t^2 + b t + c <= 0 at the midpoint of [t1, t2] clamped to [0, 1]? */
static int vv_piece(double a, double b, double c, double t1, double t2) {
  t1 = fmin(1.0, fmax(0.0, t1));
  t2 = fmin(1.0, fmax(0.0, t2));
  double m = 0.5 * (t1 + t2);
  return (a * m + b) * m + c <= 0.0;
}

int ipc_ctcd_vv(const double p0[3], const double q0[3], const double p1[3], const double q1[3],
                double eta, double *t) {
  double x[3], v[3], vp[3], vq[3];
  sub3(x, p0, q0);
  sub3(vp, p1, p0);
  sub3(vq, q1, q0);
  sub3(v, vp, vq);
  /* |x + t v|^2 - eta^2 */
  double a = dot3(v, v), b = 2.0 * dot3(v, x), c = dot3(x, x) - eta * eta;
  double r[2];
  int nr;
  if (a != 0.0) {
    nr = quad_roots(a, b, c, r);
  } else if (b != 0.0) {
    r[0] = -c / b;
    nr = 1;
  } else {
    if (c <= 0.0) {
      *t = 0.0;
      return 1;
    }
    return 0;
  }
  /* the pieces before, between and after the roots; a hit reports the piece's start */
  if (nr == 2) {
    if (vv_piece(a, b, c, 0.0, r[0])) {
      *t = 0.0;
      return 1;
    }
    if (vv_piece(a, b, c, r[0], r[1])) {
      *t = fmax(0.0, r[0]);
      return 1;
    }
    if (vv_piece(a, b, c, r[1], 1.0)) {
      *t = fmax(0.0, r[1]);
      return 1;
    }
    return 0;
  }
  if (nr == 1) {
    if (vv_piece(a, b, c, 0.0, r[0])) {
      *t = 0.0;
      return 1;
    }
    if (vv_piece(a, b, c, r[0], 1.0)) {
      *t = fmax(0.0, r[0]);
      return 1;
    }
    return 0;
  }
  if (vv_piece(a, b, c, 0.0, 1.0)) {
    *t = 0.0;
    return 1;
  }
  /* no real roots: a closest approach within rounding of eta is a touch (see sign_intervals) */
  double tc = -b / (2.0 * a);
  if (tc >= 0.0 && tc <= 1.0 &&
      fabs((a * tc + b) * tc + c) <= 32.0 * DBL_EPSILON * (fabs(a) + fabs(b) + fabs(c))) {
    *t = tc;
    return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- IPC's step bound */

int ipc_ctcd_pair(ipc_pair_kind kind, const double x[4][3], const double d[4][3], double eta,
                  double *t) {
  double e[4][3];
  int np = kind == IPC_PAIR_PP ? 2 : kind == IPC_PAIR_PE ? 3 : 4;
  for (int k = 0; k < np; ++k)
    for (int j = 0; j < 3; ++j) e[k][j] = x[k][j] + d[k][j];
  switch (kind) {
    case IPC_PAIR_PT:
      return ipc_ctcd_vf(x[0], x[1], x[2], x[3], e[0], e[1], e[2], e[3], eta, t);
    case IPC_PAIR_EE:
      return ipc_ctcd_ee(x[0], x[1], x[2], x[3], e[0], e[1], e[2], e[3], eta, t);
    case IPC_PAIR_PE:
      return ipc_ctcd_ve(x[0], x[1], x[2], e[0], e[1], e[2], eta, t);
    case IPC_PAIR_PP:
      return ipc_ctcd_vv(x[0], x[1], e[0], e[1], eta, t);
  }
  return 0;
}

double ipc_ctcd_pair_distance(ipc_pair_kind kind, const double x[4][3]) {
  switch (kind) {
    case IPC_PAIR_PT: {
      ipc_pt_type ty = ipc_pt_classify_ipc(x[0], x[1], x[2], x[3]);
      return sqrt(ipc_pt_distance2(x[0], x[1], x[2], x[3], ty, NULL, NULL));
    }
    case IPC_PAIR_EE: {
      ipc_ee_type ty = ipc_ee_classify_ipc(x[0], x[1], x[2], x[3]);
      return sqrt(ipc_ee_distance2(x[0], x[1], x[2], x[3], ty, NULL, NULL));
    }
    case IPC_PAIR_PE: {
      ipc_pe_type ty = ipc_pe_classify(x[0], x[1], x[2]);
      return sqrt(ipc_pe_distance2(x[0], x[1], x[2], ty, NULL, NULL));
    }
    case IPC_PAIR_PP:
      return sqrt(ipc_pp_dist2(x[0], x[1], NULL, NULL));
  }
  return 0.0;
}

int ipc_ctcd_zero_retry_is_one(ipc_ctcd_site site, ipc_pair_kind kind, int edge_on_obstacle) {
  switch (site) {
    case IPC_CTCD_SELF_PARTIAL:
    case IPC_CTCD_OBSTACLE_PARTIAL:
      return kind == IPC_PAIR_EE;
    case IPC_CTCD_SELF_FULL:
      return 0;
    case IPC_CTCD_OBSTACLE_FULL:
      return kind == IPC_PAIR_EE || (kind == IPC_PAIR_PE && edge_on_obstacle);
  }
  return 0;
}

double ipc_ctcd_pair_step(ipc_pair_kind kind, const double x[4][3], const double d[4][3], double d0,
                          double slackness, int zero_retry_is_one) {
  double t = 1.0;
  if (!ipc_ctcd_pair(kind, x, d, (1.0 - slackness) * d0, &t)) return 1.0;
  if (t >= IPC_CTCD_TINY_STEP) return t;
  if (!ipc_ctcd_pair(kind, x, d, 0.0, &t)) return 1.0;
  if (zero_retry_is_one && t == 0.0) t = 1.0;
  return slackness * t;
}
