/* tests for src/geometry/distance.c and edge_mollifier.c: elementary squared distances against
 * closed-form least-squares references, classified distances against a brute-force minimiser
 * over the closed simplices (face enumeration plus dense sampling), every gradient and Hessian
 * against central finite differences, on random and degenerate configurations */
#include "geometry/distance.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

/* ---------------------------------------------------------------- helpers */

static uint64_t rng_state = 0x243f6a8885a308d3ULL;

static double rnd(void) { /* uniform in [-1, 1) (splitmix64) */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

static void rnd3(double r[3], double scale) {
  for (int a = 0; a < 3; ++a) r[a] = scale * rnd();
}

static double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void sub(double r[3], const double a[3], const double b[3]) {
  for (int a_ = 0; a_ < 3; ++a_) r[a_] = a[a_] - b[a_];
}

static void cross(double r[3], const double a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

static double dist(const double a[3], const double b[3]) {
  double d[3];
  sub(d, a, b);
  return sqrt(dot(d, d));
}

/* the references below run in long double so that they stay more accurate than the code under
 * test on ill-conditioned (nearly parallel, nearly degenerate) configurations */
typedef long double ld;

static ld ldot(const ld a[3], const ld b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void lsub(ld r[3], const double a[3], const double b[3]) {
  for (int a_ = 0; a_ < 3; ++a_) r[a_] = (ld)a[a_] - (ld)b[a_];
}

/* |r0 + s m1 + t m2|^2 */
static ld lsq_eval(const ld r0[3], const ld m1[3], const ld m2[3], ld s, ld t) {
  ld r[3];
  for (int a = 0; a < 3; ++a) r[a] = r0[a] + s * m1[a] + t * m2[a];
  return ldot(r, r);
}

/* unconstrained min over (s, t) of |r0 + s m1 + t m2|^2 by a QR factorisation of [m1 m2]
 * (modified Gram-Schmidt, stable for nearly dependent columns); the minimiser goes to *s, *t */
static ld lsq_qr(const ld r0[3], const ld m1[3], const ld m2[3], ld *s, ld *t) {
  ld q1[3], q2[3], r[3];
  const ld r11 = sqrtl(ldot(m1, m1));
  for (int a = 0; a < 3; ++a) q1[a] = m1[a] / r11;
  const ld r12 = ldot(q1, m2);
  for (int a = 0; a < 3; ++a) q2[a] = m2[a] - r12 * q1[a];
  const ld r22 = sqrtl(ldot(q2, q2));
  for (int a = 0; a < 3; ++a) q2[a] /= r22;
  const ld c1 = ldot(q1, r0);
  for (int a = 0; a < 3; ++a) r[a] = r0[a] - c1 * q1[a];
  const ld c2 = ldot(q2, r);
  for (int a = 0; a < 3; ++a) r[a] -= c2 * q2[a];
  *t = -c2 / r22;
  *s = (-c1 - r12 * *t) / r11;
  return ldot(r, r);
}

static double lsq_min2(const ld r0[3], const ld m1[3], const ld m2[3]) {
  ld s, t;
  return (double)lsq_qr(r0, m1, m2, &s, &t);
}

/* min over the segment (s, t) = A + tau (B - A), tau in [0, 1] */
static ld lsq_min_segment(const ld r0[3], const ld m1[3], const ld m2[3], const double A[2],
                          const double B[2]) {
  ld base[3], k[3];
  for (int a = 0; a < 3; ++a) {
    base[a] = r0[a] + A[0] * m1[a] + A[1] * m2[a];
    k[a] = (B[0] - A[0]) * m1[a] + (B[1] - A[1]) * m2[a];
  }
  const ld kk = ldot(k, k);
  ld tau = kk > 0.0L ? -ldot(k, base) / kk : 0.0L;
  tau = tau < 0.0L ? 0.0L : (tau > 1.0L ? 1.0L : tau);
  return lsq_eval(r0, m1, m2, A[0] + tau * (B[0] - A[0]), A[1] + tau * (B[1] - A[1]));
}

/* brute-force min of |r0 + s m1 + t m2|^2 over a convex polygon in (s, t): the minimiser is the
 * stationary point of the face containing it, so enumerate the interior and every edge (whose
 * clamped 1D minimum includes the vertices); every candidate is a feasible value */
static double lsq_min_polygon(const ld r0[3], const ld m1[3], const ld m2[3],
                              const double (*poly)[2], int nv, int (*inside)(ld s, ld t)) {
  ld best = INFINITY, s, t;
  lsq_qr(r0, m1, m2, &s, &t);
  if (isfinite(s) && isfinite(t) && inside(s, t)) best = lsq_eval(r0, m1, m2, s, t);
  for (int k = 0; k < nv; ++k) {
    const ld d = lsq_min_segment(r0, m1, m2, poly[k], poly[(k + 1) % nv]);
    if (d < best) best = d;
  }
  return (double)best;
}

static int inside_triangle(ld s, ld t) {
  return s >= 0.0L && t >= 0.0L && s + t <= 1.0L;
}

static int inside_square(ld s, ld t) {
  return s >= 0.0L && t >= 0.0L && s <= 1.0L && t <= 1.0L;
}

static const double tri_poly[3][2] = {{0, 0}, {1, 0}, {0, 1}};
static const double square_poly[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};

/* true min distance^2 between p and the closed triangle */
static double ref_pt_closed(const double p[3], const double t0[3], const double t1[3],
                            const double t2[3]) {
  ld r0[3], m1[3], m2[3];
  lsub(r0, t0, p);
  lsub(m1, t1, t0);
  lsub(m2, t2, t0);
  return lsq_min_polygon(r0, m1, m2, tri_poly, 3, inside_triangle);
}

/* true min distance^2 between the closed segments */
static double ref_ee_closed(const double a0[3], const double a1[3], const double b0[3],
                            const double b1[3]) {
  ld r0[3], m1[3], m2[3];
  lsub(r0, a0, b0);
  lsub(m1, a1, a0);
  lsub(m2, b0, b1);
  return lsq_min_polygon(r0, m1, m2, square_poly, 4, inside_square);
}

static double ref_pe_closed(const double p[3], const double e0[3], const double e1[3]) {
  ld r0[3], m1[3];
  const ld zero[3] = {0, 0, 0};
  const double A[2] = {0, 0}, B[2] = {1, 0};
  lsub(r0, e0, p);
  lsub(m1, e1, e0);
  return (double)lsq_min_segment(r0, m1, zero, A, B);
}

/* unconstrained (line / plane) references */
static double ref_pe_line(const double p[3], const double e0[3], const double e1[3]) {
  ld w[3], e[3], r[3];
  lsub(w, p, e0);
  lsub(e, e1, e0);
  const ld t = ldot(w, e) / ldot(e, e);
  for (int a = 0; a < 3; ++a) r[a] = w[a] - t * e[a];
  return (double)ldot(r, r);
}

static double ref_pt_plane(const double p[3], const double t0[3], const double t1[3],
                           const double t2[3]) {
  ld r0[3], m1[3], m2[3];
  lsub(r0, t0, p);
  lsub(m1, t1, t0);
  lsub(m2, t2, t0);
  return lsq_min2(r0, m1, m2);
}

static double ref_ee_line(const double a0[3], const double a1[3], const double b0[3],
                          const double b1[3]) {
  ld r0[3], m1[3], m2[3];
  lsub(r0, a0, b0);
  lsub(m1, a1, a0);
  lsub(m2, b0, b1);
  return lsq_min2(r0, m1, m2);
}

/* dense sampling of the closed simplices: an upper bound of the true minimum */
static double sample_pt(const double p[3], const double t0[3], const double t1[3],
                        const double t2[3], int n) {
  ld r0[3], m1[3], m2[3];
  double best = INFINITY;
  lsub(r0, t0, p);
  lsub(m1, t1, t0);
  lsub(m2, t2, t0);
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j) {
      const double d = (double)lsq_eval(r0, m1, m2, (ld)i / n, (ld)j / n);
      if (d < best) best = d;
    }
  return best;
}

static double sample_ee(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3], int n) {
  ld r0[3], m1[3], m2[3];
  double best = INFINITY;
  lsub(r0, a0, b0);
  lsub(m1, a1, a0);
  lsub(m2, b0, b1);
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const double d = (double)lsq_eval(r0, m1, m2, (ld)i / n, (ld)j / n);
      if (d < best) best = d;
    }
  return best;
}

/* ------------------------------------------------------ function wrappers */

typedef struct fn_ctx {
  int type;
  double eps_x;
} fn_ctx;

typedef double (*dist_fn)(const double *x, const fn_ctx *ctx, double *g, double *H);

static double w_pp(const double *x, const fn_ctx *c, double *g, double *H) {
  (void)c;
  return ipc_pp_dist2(x, x + 3, g, H);
}
static double w_pe(const double *x, const fn_ctx *c, double *g, double *H) {
  (void)c;
  return ipc_pe_dist2(x, x + 3, x + 6, g, H);
}
static double w_pt(const double *x, const fn_ctx *c, double *g, double *H) {
  (void)c;
  return ipc_pt_dist2(x, x + 3, x + 6, x + 9, g, H);
}
static double w_ee(const double *x, const fn_ctx *c, double *g, double *H) {
  (void)c;
  return ipc_ee_dist2(x, x + 3, x + 6, x + 9, g, H);
}
static double w_pt_full(const double *x, const fn_ctx *c, double *g, double *H) {
  return ipc_pt_distance2(x, x + 3, x + 6, x + 9, (ipc_pt_type)c->type, g, H);
}
static double w_ee_full(const double *x, const fn_ctx *c, double *g, double *H) {
  return ipc_ee_distance2(x, x + 3, x + 6, x + 9, (ipc_ee_type)c->type, g, H);
}
static double w_pe_full(const double *x, const fn_ctx *c, double *g, double *H) {
  return ipc_pe_distance2(x, x + 3, x + 6, (ipc_pe_type)c->type, g, H);
}
static double w_cross2(const double *x, const fn_ctx *c, double *g, double *H) {
  (void)c;
  return ipc_ee_cross2(x, x + 3, x + 6, x + 9, g, H);
}
static double w_moll(const double *x, const fn_ctx *c, double *g, double *H) {
  return ipc_ee_mollifier(x, x + 3, x + 6, x + 9, c->eps_x, g, H);
}

/* ----------------------------------------------- finite-difference check */

#define TOL_G 1e-6
#define TOL_H 1e-4

static double worst_g = 0.0, worst_h = 0.0;
static int fd_runs = 0;

static double inf_norm(const double *a, int n) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i]));
  return m;
}

/* checks g and H of f at x (n dofs) against fourth-order central differences (stencil
 * x +- h, x +- 2h; g from values, H from analytic gradients) with h ~ fd_step * L rounded to a
 * power of two (so x + k h is exact even at large offsets), where L is the smallest length on
 * which f varies nonlinearly (shortest edge, triangle height, edge length times sin(angle) for
 * line-line). The higher order lets the step stay large enough that round-off of
 * ill-conditioned configurations (nearly parallel lines) does not swamp the difference. Errors
 * are measured in the max norm relative to max(|g|, 1e-3 L |H|) (the floor covers
 * configurations where g vanishes, e.g. zero distance) and |H|. check_grad = 0 skips the
 * gradient-from-values comparison (used where the value's own round-off, not the gradient, is
 * what a difference of values would measure). Also checks that the value does not depend on
 * which derivatives are requested and that H is exactly symmetric. */
static const double fd_step = 3e-3;

static void check_fd_opt(const char *what, dist_fn f, const fn_ctx *ctx, const double *x, int n,
                         double L, int check_grad) {
  double g[12], H[144], g2[12], H2[144];
  const double f0 = f(x, ctx, NULL, NULL);
  const double f1 = f(x, ctx, g2, NULL);
  const double f2 = f(x, ctx, g, H);
  f(x, ctx, NULL, H2);
  CHECK_MSG(f0 == f1 && f1 == f2, "%s: value depends on the requested derivatives", what);
  CHECK_MSG(memcmp(g, g2, sizeof(double) * (size_t)n) == 0, "%s: gradient depends on H", what);
  CHECK_MSG(memcmp(H, H2, sizeof(double) * (size_t)(n * n)) == 0, "%s: H depends on g", what);
  int sym = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) sym &= H[i * n + j] == H[j * n + i];
  CHECK_MSG(sym, "%s: Hessian not exactly symmetric", what);

  int ex;
  frexp(fd_step * L, &ex);
  const double h = ldexp(1.0, ex - 1); /* a power of two, so x + k h is exact */
  static const double off[4] = {-2.0, -1.0, 1.0, 2.0}, wt[4] = {1.0, -8.0, 8.0, -1.0};
  double eg = 0.0, eh = 0.0;
  for (int i = 0; i < n; ++i) {
    double fs = 0.0, gs[12] = {0}, xs[12], gk[12];
    for (int k = 0; k < 4; ++k) {
      memcpy(xs, x, sizeof(double) * (size_t)n);
      xs[i] += off[k] * h;
      fs += wt[k] * f(xs, ctx, gk, NULL);
      for (int j = 0; j < n; ++j) gs[j] += wt[k] * gk[j];
    }
    eg = fmax(eg, fabs(fs / (12.0 * h) - g[i]));
    for (int j = 0; j < n; ++j) eh = fmax(eh, fabs(gs[j] / (12.0 * h) - H[j * n + i]));
  }
  const double nh = inf_norm(H, n * n);
  const double sg = fmax(fmax(inf_norm(g, n), 1e-3 * L * nh), 1e-300);
  const double sh = fmax(nh, 1e-300);
  eg = check_grad ? eg / sg : 0.0;
  eh /= sh;
  worst_g = fmax(worst_g, eg);
  worst_h = fmax(worst_h, eh);
  ++fd_runs;
  CHECK_MSG(eg <= TOL_G, "%s: gradient FD error %.3g (|g| %.3g, L %.3g)", what, eg, sg, L);
  CHECK_MSG(eh <= TOL_H, "%s: Hessian FD error %.3g (|H| %.3g, L %.3g)", what, eh, sh, L);
}

static void check_fd(const char *what, dist_fn f, const fn_ctx *ctx, const double *x, int n,
                     double L) {
  check_fd_opt(what, f, ctx, x, n, L, 1);
}

/* ----------------------------------------------------- configuration scales */

static double tri_feature(const double t0[3], const double t1[3], const double t2[3]) {
  double u[3], v[3], n[3];
  sub(u, t1, t0);
  sub(v, t2, t0);
  cross(n, u, v);
  const double l0 = dist(t0, t1), l1 = dist(t1, t2), l2 = dist(t2, t0);
  const double lmax = fmax(l0, fmax(l1, l2)), lmin = fmin(l0, fmin(l1, l2));
  return fmin(lmin, sqrt(dot(n, n)) / lmax); /* shortest edge or height */
}

static double sin_angle(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3]) {
  double u[3], v[3], n[3];
  sub(u, a1, a0);
  sub(v, b1, b0);
  cross(n, u, v);
  return sqrt(dot(n, n) / (dot(u, u) * dot(v, v)));
}

static double edge_feature(const double a0[3], const double a1[3], const double b0[3],
                           const double b1[3], int line_line) {
  const double l = fmin(dist(a0, a1), dist(b0, b1));
  return line_line ? l * sin_angle(a0, a1, b0, b1) : l;
}

static double bbox_scale(const double *x, int npts) {
  double s = 0.0;
  for (int i = 0; i < npts; ++i)
    for (int j = 0; j < i; ++j) s = fmax(s, dist(x + 3 * i, x + 3 * j));
  return s;
}

/* |sqrt(a) - sqrt(b)| <= tol (distances, not squared distances) */
static int dist_close(double a, double b, double tol) {
  return fabs(sqrt(fmax(a, 0.0)) - sqrt(fmax(b, 0.0))) <= tol;
}

/* -------------------------------------------------------------- PT tests */

static const char *pt_names[7] = {"P_T0", "P_T1", "P_T2", "P_E0", "P_E1", "P_E2", "P_T"};
static int pt_count[7];

/* value of each type against its own least-squares reference */
static double ref_pt_type(const double *x, int type) {
  const double *p = x, *t[3] = {x + 3, x + 6, x + 9};
  if (type <= IPC_PT_P_T2) {
    double d[3];
    sub(d, p, t[type]);
    return dot(d, d);
  }
  if (type <= IPC_PT_P_E2) {
    const int k = type - IPC_PT_P_E0;
    return ref_pe_line(p, t[k], t[(k + 1) % 3]);
  }
  return ref_pt_plane(p, t[0], t[1], t[2]);
}

/* classification, values of every type, and derivatives of every type at one configuration */
static void pt_config(const char *what, const double *x, int fd_all_types) {
  const double *p = x, *t0 = x + 3, *t1 = x + 6, *t2 = x + 9;
  const double S = bbox_scale(x, 4), L = tri_feature(t0, t1, t2);
  const ipc_pt_type ty = ipc_pt_classify(p, t0, t1, t2);
  ++pt_count[ty];
  const double d = ipc_pt_distance2(p, t0, t1, t2, ty, NULL, NULL);
  const double ref = ref_pt_closed(p, t0, t1, t2);
  CHECK_MSG(dist_close(d, ref, 1e-10 * S), "%s: type %s d %.17g, true min %.17g", what,
            pt_names[ty], d, ref);
  for (int k = 0; k < 7; ++k) {
    const double dk = ipc_pt_distance2(p, t0, t1, t2, (ipc_pt_type)k, NULL, NULL);
    CHECK_MSG(dist_close(dk, ref_pt_type(x, k), 1e-10 * S), "%s: type %s value %.17g vs %.17g",
              what, pt_names[k], dk, ref_pt_type(x, k));
    if (k <= IPC_PT_P_T2) /* a vertex is part of the triangle */
      CHECK_MSG(dk >= ref * (1.0 - 1e-12), "%s: vertex %s below the true minimum", what,
                pt_names[k]);
  }
  char name[128];
  for (int k = 0; k < 7; ++k) {
    if (!fd_all_types && k != (int)ty) continue;
    fn_ctx c = {k, 0.0};
    snprintf(name, sizeof name, "%s pt %s", what, pt_names[k]);
    check_fd(name, w_pt_full, &c, x, 12, L);
  }
}

static void test_pt_random(void) {
  double x[12];
  for (int it = 0; it < 3000; ++it) {
    for (int i = 0; i < 4; ++i) rnd3(x + 3 * i, 1.0);
    const double *p = x, *t0 = x + 3, *t1 = x + 6, *t2 = x + 9;
    if (tri_feature(t0, t1, t2) < 1e-3) continue;
    const double S = bbox_scale(x, 4);
    CHECK_MSG(
        dist_close(ipc_pt_dist2(p, t0, t1, t2, NULL, NULL), ref_pt_plane(p, t0, t1, t2), 1e-10 * S),
        "random pt_dist2 %d", it);
    pt_config("random", x, it < 300);
    if (it < 200) { /* the reference minimum is below every sample and close to the best one */
      const double smp = sample_pt(p, t0, t1, t2, 80);
      const double ref = ref_pt_closed(p, t0, t1, t2);
      CHECK(ref <= smp * (1.0 + 1e-12));
      CHECK(dist_close(ref, smp, 0.02 * S));
    }
  }
  for (int k = 0; k < 7; ++k) CHECK_MSG(pt_count[k] > 0, "type %s never sampled", pt_names[k]);
  for (int it = 0; it < 300; ++it) {
    for (int i = 0; i < 4; ++i) rnd3(x + 3 * i, 1.0);
    if (tri_feature(x + 3, x + 6, x + 9) < 1e-2) continue;
    check_fd("random pt_dist2", w_pt, NULL, x, 12, tri_feature(x + 3, x + 6, x + 9));
  }
}

/* x = scale * pts + off for npts stacked points */
static void set_pts(double *x, int npts, const double *pts, double scale, const double off[3]) {
  for (int i = 0; i < npts; ++i)
    for (int a = 0; a < 3; ++a) x[3 * i + a] = scale * pts[3 * i + a] + off[a];
}

static void test_pt_special(void) {
  const double o0[3] = {0, 0, 0}, obig[3] = {1e3, -1e3, 1e3};
  double x[12];
  /* point above the vertex regions of a right triangle */
  {
    const double c[4][3] = {{-0.1, -0.2, 0.5}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    set_pts(x, 4, c[0], 1.0, o0);
    CHECK(ipc_pt_classify(x, x + 3, x + 6, x + 9) == IPC_PT_P_T0);
    pt_config("above t0 region", x, 1);
    const double c1[4][3] = {{1.3, -0.1, -0.4}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    set_pts(x, 4, c1[0], 1.0, o0);
    CHECK(ipc_pt_classify(x, x + 3, x + 6, x + 9) == IPC_PT_P_T1);
    const double c2[4][3] = {{0.2, 0.5, 0.1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    set_pts(x, 4, c2[0], 1.0, o0);
    CHECK(ipc_pt_classify(x, x + 3, x + 6, x + 9) == IPC_PT_P_T);
  }
  /* obtuse triangle (angle near 169 deg at t2): points whose projections leave through
   * different edges/vertices */
  {
    const double tri[3][3] = {{0, 0, 0}, {2, 0, 0}, {1, 0.1, 0}};
    const double cases[5][3] = {
        {0.5, 0.3, 0.2}, {1.0, 0.5, -0.3}, {1.0, -0.3, 0.1}, {2.5, 0.2, 0.0}, {1.5, 0.4, 0.0}};
    const ipc_pt_type want[5] = {IPC_PT_P_E2, IPC_PT_P_T2, IPC_PT_P_E0, IPC_PT_P_T1, IPC_PT_P_E1};
    for (int k = 0; k < 5; ++k) {
      const double c[4][3] = {{cases[k][0], cases[k][1], cases[k][2]},
                              {tri[0][0], tri[0][1], tri[0][2]},
                              {tri[1][0], tri[1][1], tri[1][2]},
                              {tri[2][0], tri[2][1], tri[2][2]}};
      set_pts(x, 4, c[0], 1.0, o0);
      CHECK_MSG(ipc_pt_classify(x, x + 3, x + 6, x + 9) == want[k], "obtuse case %d: got %s", k,
                pt_names[ipc_pt_classify(x, x + 3, x + 6, x + 9)]);
      pt_config("obtuse", x, 1);
    }
  }
  /* random degenerate families, each also tiny (1e-6) and offset (1e3) */
  for (int it = 0; it < 150; ++it) {
    double t[3][3], n[3], u[3], v[3], c[4][3];
    for (int k = 0; k < 3; ++k) rnd3(t[k], 1.0);
    sub(u, t[1], t[0]);
    sub(v, t[2], t[0]);
    cross(n, u, v);
    const double nl = sqrt(dot(n, n));
    if (tri_feature(t[0], t[1], t[2]) < 0.05) continue;
    for (int a = 0; a < 3; ++a) n[a] /= nl;
    const int kind = it % 5, vk = it % 3;
    const double h = 0.5 * (rnd() + 1.5);
    double p[3];
    if (kind == 0) { /* exactly above a vertex */
      for (int a = 0; a < 3; ++a) p[a] = t[vk][a] + h * n[a];
    } else if (kind == 1) { /* in the triangle plane, inside or outside */
      const double s = 1.5 * rnd() + 0.3, r = 1.5 * rnd() + 0.3;
      for (int a = 0; a < 3; ++a) p[a] = t[0][a] + s * u[a] + r * v[a];
    } else if (kind == 2) { /* on an edge line, beyond or within the edge */
      const double s = 2.0 * rnd() + 0.5;
      for (int a = 0; a < 3; ++a) p[a] = t[vk][a] + s * (t[(vk + 1) % 3][a] - t[vk][a]);
    } else if (kind == 3) { /* above an edge line, just off the triangle */
      const double s = 0.3 + 0.4 * (rnd() + 1.0) / 2.0;
      for (int a = 0; a < 3; ++a) p[a] = t[vk][a] + s * (t[(vk + 1) % 3][a] - t[vk][a]) + h * n[a];
    } else { /* far above the interior */
      for (int a = 0; a < 3; ++a) p[a] = (t[0][a] + t[1][a] + t[2][a]) / 3.0 + 5.0 * h * n[a];
    }
    for (int a = 0; a < 3; ++a) {
      c[0][a] = p[a];
      for (int k = 0; k < 3; ++k) c[1 + k][a] = t[k][a];
    }
    static const char *kinds[5] = {"above vertex", "in plane", "on edge line", "above edge",
                                   "far above"};
    char name[64];
    set_pts(x, 4, c[0], 1.0, o0);
    snprintf(name, sizeof name, "%s", kinds[kind]);
    pt_config(name, x, 1);
    set_pts(x, 4, c[0], 1e-6, o0);
    snprintf(name, sizeof name, "%s tiny", kinds[kind]);
    pt_config(name, x, 1);
    set_pts(x, 4, c[0], 1.0, obig);
    snprintf(name, sizeof name, "%s offset", kinds[kind]);
    pt_config(name, x, 1);
  }
  /* a degenerate (collinear) triangle never classifies as P_T */
  {
    const double c[4][3] = {{0.5, 0.0, 0.2}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    set_pts(x, 4, c[0], 1.0, o0);
    const ipc_pt_type ty = ipc_pt_classify(x, x + 3, x + 6, x + 9);
    CHECK(ty == IPC_PT_P_E0);
    CHECK_NEAR(ipc_pt_distance2(x, x + 3, x + 6, x + 9, ty, NULL, NULL), 0.04, 1e-15);
  }
}

/* -------------------------------------------------------------- EE tests */

static const char *ee_names[9] = {"A0_B0", "A0_B1", "A1_B0", "A1_B1", "A_B0",
                                  "A_B1",  "A0_B",  "A1_B",  "A_B"};
static int ee_count[9];

static double ref_ee_type(const double *x, int type) {
  const double *a[2] = {x, x + 3}, *b[2] = {x + 6, x + 9};
  double d[3];
  switch (type) {
    case IPC_EE_A0_B0:
      sub(d, a[0], b[0]);
      return dot(d, d);
    case IPC_EE_A0_B1:
      sub(d, a[0], b[1]);
      return dot(d, d);
    case IPC_EE_A1_B0:
      sub(d, a[1], b[0]);
      return dot(d, d);
    case IPC_EE_A1_B1:
      sub(d, a[1], b[1]);
      return dot(d, d);
    case IPC_EE_A_B0:
      return ref_pe_line(b[0], a[0], a[1]);
    case IPC_EE_A_B1:
      return ref_pe_line(b[1], a[0], a[1]);
    case IPC_EE_A0_B:
      return ref_pe_line(a[0], b[0], b[1]);
    case IPC_EE_A1_B:
      return ref_pe_line(a[1], b[0], b[1]);
    default:
      return ref_ee_line(a[0], a[1], b[0], b[1]);
  }
}

/* sin_tol: the classification may stand in a parallel pair for a line-line pair up to this
 * angle, which moves the distance by at most sin_tol * S */
static void ee_config(const char *what, const double *x, int fd_all_types, double sin_tol) {
  const double *a0 = x, *a1 = x + 3, *b0 = x + 6, *b1 = x + 9;
  const double S = bbox_scale(x, 4), sn = sin_angle(a0, a1, b0, b1);
  const ipc_ee_type ty = ipc_ee_classify(a0, a1, b0, b1);
  ++ee_count[ty];
  if (sn * sn < IPC_EE_PARALLEL_SIN2)
    CHECK_MSG(ty != IPC_EE_A_B, "%s: parallel edges classified A_B", what);
  const double d = ipc_ee_distance2(a0, a1, b0, b1, ty, NULL, NULL);
  const double ref = ref_ee_closed(a0, a1, b0, b1);
  CHECK_MSG(dist_close(d, ref, 1e-10 * S + 2.0 * sin_tol * S),
            "%s: type %s d %.17g, true min %.17g", what, ee_names[ty], d, ref);
  /* line-line values are accurate to ~eps S / sin(angle) */
  const double ll_tol = 1e-10 * S + 1e-15 * S / sn;
  char name[128];
  for (int k = 0; k < 9; ++k) {
    if (k == IPC_EE_A_B && sn < 1e-9) continue; /* exactly parallel: undefined */
    const double dk = ipc_ee_distance2(a0, a1, b0, b1, (ipc_ee_type)k, NULL, NULL);
    CHECK_MSG(dist_close(dk, ref_ee_type(x, k), k == IPC_EE_A_B ? ll_tol : 1e-10 * S),
              "%s: type %s value %.17g vs %.17g", what, ee_names[k], dk, ref_ee_type(x, k));
    if (!fd_all_types && k != (int)ty) continue;
    fn_ctx c = {k, 0.0};
    snprintf(name, sizeof name, "%s ee %s", what, ee_names[k]);
    /* line-line below sin 1e-4: the value carries round-off ~ eps S / sin, so its differences
     * cannot resolve g to 1e-6; H (differences of the analytic g) is still checked */
    check_fd_opt(name, w_ee_full, &c, x, 12, edge_feature(a0, a1, b0, b1, k == IPC_EE_A_B),
                 k != IPC_EE_A_B || sn >= 1e-4);
  }
}

static void test_ee_random(void) {
  double x[12];
  for (int it = 0; it < 3000; ++it) {
    for (int i = 0; i < 4; ++i) rnd3(x + 3 * i, 1.0);
    const double *a0 = x, *a1 = x + 3, *b0 = x + 6, *b1 = x + 9;
    if (edge_feature(a0, a1, b0, b1, 1) < 1e-3) continue;
    const double S = bbox_scale(x, 4);
    CHECK_MSG(dist_close(ipc_ee_dist2(a0, a1, b0, b1, NULL, NULL), ref_ee_line(a0, a1, b0, b1),
                         1e-10 * S),
              "random ee_dist2 %d", it);
    ee_config("random", x, it < 300, 0.0);
    if (it < 200) {
      const double smp = sample_ee(a0, a1, b0, b1, 80);
      const double ref = ref_ee_closed(a0, a1, b0, b1);
      CHECK(ref <= smp * (1.0 + 1e-12));
      CHECK(dist_close(ref, smp, 0.02 * S));
    }
  }
  for (int k = 0; k < 9; ++k) CHECK_MSG(ee_count[k] > 0, "type %s never sampled", ee_names[k]);
  for (int it = 0; it < 300; ++it) {
    for (int i = 0; i < 4; ++i) rnd3(x + 3 * i, 1.0);
    if (edge_feature(x, x + 3, x + 6, x + 9, 1) < 1e-2) continue;
    check_fd("random ee_dist2", w_ee, NULL, x, 12, edge_feature(x, x + 3, x + 6, x + 9, 1));
  }
}

/* a = (a0, a1); b runs along a rotated by angle (in a random plane containing u = a1 - a0, with
 * in-plane normal r, |r| = |u|, and unit plane normal ax): b0 = a0 + o + bs ur, b1 = b0 + bl ur,
 * ur = cos(angle) u + sin(angle) r, o = sh[0] u + sh[1] ax + sh[2] r */
static void make_tilted(double *x, const double a0[3], const double a1[3], double angle,
                        const double sh[3], double bs, double bl) {
  double u[3], ax[3], r[3], ur[3], o[3];
  sub(u, a1, a0);
  rnd3(r, 1.0);
  cross(ax, u, r);
  const double axl = sqrt(dot(ax, ax));
  for (int a = 0; a < 3; ++a) ax[a] /= axl;
  cross(r, ax, u);
  for (int a = 0; a < 3; ++a) {
    ur[a] = cos(angle) * u[a] + sin(angle) * r[a];
    o[a] = sh[0] * u[a] + sh[1] * ax[a] + sh[2] * r[a];
  }
  for (int a = 0; a < 3; ++a) {
    x[a] = a0[a];
    x[3 + a] = a1[a];
    x[6 + a] = a0[a] + o[a] + bs * ur[a];
    x[9 + a] = a0[a] + o[a] + (bs + bl) * ur[a];
  }
}

static void test_ee_special(void) {
  const double obig[3] = {1e3, 1e3, -1e3};
  double x[12];
  /* crossing edges: line-line */
  {
    const double c[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0.3}, {0, 1, 0.3}};
    const double o0[3] = {0, 0, 0};
    set_pts(x, 4, c[0], 1.0, o0);
    CHECK(ipc_ee_classify(x, x + 3, x + 6, x + 9) == IPC_EE_A_B);
    CHECK_NEAR(ipc_ee_distance2(x, x + 3, x + 6, x + 9, IPC_EE_A_B, NULL, NULL), 0.09, 1e-15);
    ee_config("crossing", x, 1, 0.0);
    set_pts(x, 4, c[0], 1.0, obig);
    ee_config("crossing offset", x, 1, 0.0);
    set_pts(x, 4, c[0], 1e-6, o0);
    ee_config("crossing tiny", x, 1, 0.0);
  }
  /* collinear overlapping edges: zero distance, never A_B */
  {
    const double c[4][3] = {{0, 0, 0}, {1, 0, 0}, {0.5, 0, 0}, {2, 0, 0}};
    const double o0[3] = {0, 0, 0};
    set_pts(x, 4, c[0], 1.0, o0);
    const ipc_ee_type ty = ipc_ee_classify(x, x + 3, x + 6, x + 9);
    CHECK(ty != IPC_EE_A_B);
    CHECK(ipc_ee_distance2(x, x + 3, x + 6, x + 9, ty, NULL, NULL) == 0.0);
    ee_config("collinear", x, 0, 0.0);
  }
  /* random parallel and nearly parallel pairs, overlapping or not, also tiny and offset */
  static const double angles[5] = {0.0, 1e-8, 1e-6, 1e-5, 1e-3};
  for (int it = 0; it < 200; ++it) {
    double a0[3], a1[3], shift[3], y[12];
    rnd3(a0, 1.0);
    rnd3(a1, 1.0);
    if (dist(a0, a1) < 0.2) continue;
    const double angle = angles[it % 5] * (it % 10 < 5 ? 1.0 : -1.0);
    const int crossing = (it / 10) % 2;
    double bs, bl;
    if (crossing) { /* the lines' closest points are inside both edges */
      shift[0] = 0.1 + 0.4 * (rnd() + 1.0);
      shift[1] = 0.3 * rnd();
      shift[2] = 0.0;
      bs = -0.2 - 0.3 * (rnd() + 1.0);
      bl = 1.0;
    } else {
      rnd3(shift, 0.3);
      bs = 1.2 * rnd();
      bl = (it % 3 == 0 ? -1.0 : 1.0) * (0.3 + 0.7 * rnd() * rnd());
    }
    make_tilted(y, a0, a1, angle, shift, bs, bl);
    if (crossing && fabs(angle) >= 1e-6)
      CHECK(ipc_ee_classify(y, y + 3, y + 6, y + 9) == IPC_EE_A_B);
    char name[64];
    const double sin_tol = fabs(sin(angle)) * 2.0;
    const double o0[3] = {0, 0, 0};
    snprintf(name, sizeof name, "parallel %.0e", fabs(angle));
    set_pts(x, 4, y, 1.0, o0);
    ee_config(name, x, 1, sin_tol);
    snprintf(name, sizeof name, "parallel %.0e tiny", fabs(angle));
    set_pts(x, 4, y, 1e-6, o0);
    ee_config(name, x, 1, sin_tol);
    snprintf(name, sizeof name, "parallel %.0e offset", fabs(angle));
    set_pts(x, 4, y, 1.0, obig);
    ee_config(name, x, 1, sin_tol);
  }
  /* end point exactly on the other edge's line */
  for (int it = 0; it < 100; ++it) {
    double c[4][3];
    for (int k = 0; k < 4; ++k) rnd3(c[k], 1.0);
    const double s = 2.0 * rnd() + 0.5;
    for (int a = 0; a < 3; ++a) c[2][a] = c[0][a] + s * (c[1][a] - c[0][a]);
    const double o0[3] = {0, 0, 0};
    set_pts(x, 4, c[0], 1.0, o0);
    if (edge_feature(x, x + 3, x + 6, x + 9, 1) < 1e-2) continue;
    ee_config("b0 on line a", x, 1, 0.0);
  }
}

/* -------------------------------------------------------------- PE tests */

static const char *pe_names[3] = {"P_E0", "P_E1", "P_E"};

static void pe_config(const char *what, const double *x) {
  const double *p = x, *e0 = x + 3, *e1 = x + 6;
  const double S = bbox_scale(x, 3), L = dist(e0, e1);
  const ipc_pe_type ty = ipc_pe_classify(p, e0, e1);
  CHECK_MSG(
      dist_close(ipc_pe_distance2(p, e0, e1, ty, NULL, NULL), ref_pe_closed(p, e0, e1), 1e-10 * S),
      "%s: pe type %s", what, pe_names[ty]);
  CHECK_MSG(dist_close(ipc_pe_dist2(p, e0, e1, NULL, NULL), ref_pe_line(p, e0, e1), 1e-10 * S),
            "%s: pe_dist2", what);
  char name[128];
  for (int k = 0; k < 3; ++k) {
    fn_ctx c = {k, 0.0};
    snprintf(name, sizeof name, "%s pe %s", what, pe_names[k]);
    check_fd(name, w_pe_full, &c, x, 9, L);
  }
  check_fd("pe_dist2", w_pe, NULL, x, 9, L);
}

static void test_pe(void) {
  double x[9];
  int count[3] = {0, 0, 0};
  const double obig[3] = {-1e3, 1e3, 1e3}, o0[3] = {0, 0, 0};
  for (int it = 0; it < 600; ++it) {
    for (int i = 0; i < 3; ++i) rnd3(x + 3 * i, 1.0);
    if (dist(x + 3, x + 6) < 1e-2) continue;
    if (it % 4 == 1) { /* exactly on the line, within or beyond the edge */
      const double s = 2.0 * rnd() + 0.5;
      for (int a = 0; a < 3; ++a) x[a] = x[3 + a] + s * (x[6 + a] - x[3 + a]);
    }
    ++count[ipc_pe_classify(x, x + 3, x + 6)];
    double y[9];
    pe_config("random", x);
    set_pts(y, 3, x, 1e-6, o0);
    pe_config("random tiny", y);
    set_pts(y, 3, x, 1.0, obig);
    pe_config("random offset", y);
  }
  for (int k = 0; k < 3; ++k) CHECK_MSG(count[k] > 0, "pe type %s never sampled", pe_names[k]);
  /* point-point */
  for (int it = 0; it < 100; ++it) {
    double y[6];
    rnd3(y, 1.0);
    rnd3(y + 3, 1.0);
    CHECK_NEAR(ipc_pp_dist2(y, y + 3, NULL, NULL), dist(y, y + 3) * dist(y, y + 3), 1e-14);
    check_fd("pp_dist2", w_pp, NULL, y, 6, 1.0);
    if (it == 0) { /* coincident points */
      memcpy(y + 3, y, sizeof(double) * 3);
      CHECK(ipc_pp_dist2(y, y + 3, NULL, NULL) == 0.0);
      check_fd("pp coincident", w_pp, NULL, y, 6, 1.0);
    }
  }
  /* explicit types */
  const double c[3][3] = {{2, 1, 0}, {0, 0, 0}, {1, 0, 0}};
  set_pts(x, 3, c[0], 1.0, o0);
  CHECK(ipc_pe_classify(x, x + 3, x + 6) == IPC_PE_P_E1);
  CHECK_NEAR(ipc_pe_distance2(x, x + 3, x + 6, IPC_PE_P_E1, NULL, NULL), 2.0, 1e-15);
  x[0] = 0.5;
  CHECK(ipc_pe_classify(x, x + 3, x + 6) == IPC_PE_P_E);
  CHECK_NEAR(ipc_pe_distance2(x, x + 3, x + 6, IPC_PE_P_E, NULL, NULL), 1.0, 1e-15);
  x[0] = -0.5;
  CHECK(ipc_pe_classify(x, x + 3, x + 6) == IPC_PE_P_E0);
  memcpy(x + 6, x + 3, sizeof(double) * 3); /* zero-length edge */
  CHECK(ipc_pe_classify(x, x + 3, x + 6) == IPC_PE_P_E0);
}

/* -------------------------------------------------------- mollifier tests */

static void test_mollifier(void) {
  double x[12], rest[12];
  int below = 0, above = 0;
  for (int it = 0; it < 300; ++it) { /* |u x v|^2 on generic configurations */
    double u[3], v[3], n[3];
    for (int i = 0; i < 4; ++i) rnd3(x + 3 * i, 1.0);
    sub(u, x + 3, x);
    sub(v, x + 9, x + 6);
    cross(n, u, v);
    CHECK_NEAR(ipc_ee_cross2(x, x + 3, x + 6, x + 9, NULL, NULL), dot(n, n), 1e-14);
    check_fd("cross2 random", w_cross2, NULL, x, 12, fmin(dist(x, x + 3), dist(x + 6, x + 9)));
  }
  for (int it = 0; it < 400; ++it) {
    double a0[3], a1[3], shift[3];
    rnd3(a0, 1.0);
    rnd3(a1, 1.0);
    if (dist(a0, a1) < 0.2) continue;
    rnd3(shift, 0.5);
    /* sin^2 of the angle spread around the threshold 1e-3 */
    const double s2 = 1e-3 * pow(10.0, 1.5 * rnd());
    const double angle = asin(sqrt(s2));
    make_tilted(rest, a0, a1, angle, shift, 0.5 * rnd(), 0.5 + 0.5 * rnd());
    memcpy(x, rest, sizeof x);
    for (int i = 0; i < 12; ++i) x[i] += 1e-3 * rnd();
    double u[3], v[3];
    sub(u, rest + 3, rest);
    sub(v, rest + 9, rest + 6);
    const double eps_x = ipc_ee_mollifier_threshold(rest, rest + 3, rest + 6, rest + 9);
    CHECK_NEAR(eps_x, 1e-3 * dot(u, u) * dot(v, v), 1e-15);
    const double c = ipc_ee_cross2(x, x + 3, x + 6, x + 9, NULL, NULL);
    double n[3];
    sub(u, x + 3, x);
    sub(v, x + 9, x + 6);
    cross(n, u, v);
    CHECK_NEAR(c, dot(n, n), 1e-14);
    const double L = fmin(dist(x, x + 3), dist(x + 6, x + 9));
    check_fd("cross2", w_cross2, NULL, x, 12, L);
    /* m varies on the length eps_x / |grad c|; the stencil must not cross c = eps_x */
    double gc[12];
    ipc_ee_cross2(x, x + 3, x + 6, x + 9, gc, NULL);
    const double lm = fmin(L, fmin(eps_x, fabs(c - eps_x)) / inf_norm(gc, 12));
    const fn_ctx ctx = {0, eps_x};
    const double m = ipc_ee_mollifier(x, x + 3, x + 6, x + 9, eps_x, NULL, NULL);
    if (c < eps_x) {
      ++below;
      CHECK_NEAR(m, (2.0 - c / eps_x) * c / eps_x, 1e-14);
      CHECK(m >= 0.0 && m < 1.0);
      check_fd("mollifier below", w_moll, &ctx, x, 12, lm);
    } else {
      ++above;
      CHECK(m == 1.0);
      check_fd("mollifier above", w_moll, &ctx, x, 12, lm);
    }
  }
  CHECK(below > 50 && above > 50);

  /* continuity at c = eps_x: a1-a0 = e_x, b1-b0 = (cos phi, sin phi, 0), c = sin^2 phi */
  const double eps_x = 1e-3, phis = asin(sqrt(eps_x));
  double prev_gap = INFINITY;
  for (int k = 2; k <= 8; k += 2) {
    const double dl = pow(10.0, -k);
    double m[2], gn[2], hn[2];
    for (int side = 0; side < 2; ++side) {
      const double phi = phis * (side ? 1.0 + dl : 1.0 - dl);
      const double c[4][3] = {
          {0, 0, 0}, {1, 0, 0}, {0.2, -0.1, 0.3}, {0.2 + cos(phi), -0.1 + sin(phi), 0.3}};
      const double o0[3] = {0, 0, 0};
      double g[12], H[144];
      set_pts(x, 4, c[0], 1.0, o0);
      m[side] = ipc_ee_mollifier(x, x + 3, x + 6, x + 9, eps_x, g, H);
      gn[side] = inf_norm(g, 12);
      hn[side] = inf_norm(H, 144);
    }
    /* m = 1 - (1 - c/eps)^2 below, 1 above; c/eps - 1 ~ 2 dl */
    CHECK_MSG(m[1] == 1.0 && gn[1] == 0.0 && hn[1] == 0.0, "above eps_x at %g", dl);
    CHECK_MSG(1.0 - m[0] <= 5.0 * dl * dl && m[0] < 1.0, "value gap %g at %g", 1.0 - m[0], dl);
    CHECK_MSG(gn[0] <= 1e4 * dl, "gradient %g at %g", gn[0], dl); /* |m'| |grad c| ~ 2/eps 2dl */
    CHECK(1.0 - m[0] < prev_gap);
    prev_gap = 1.0 - m[0];
    /* the second derivative jumps (m is only C1): bounded, not vanishing */
    CHECK(hn[0] > 0.0 && hn[0] < 1e8);
  }
  /* parallel current edges: m = 0 with zero gradient */
  {
    const double c[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    const double o0[3] = {0, 0, 0};
    double g[12];
    set_pts(x, 4, c[0], 1.0, o0);
    CHECK(ipc_ee_mollifier(x, x + 3, x + 6, x + 9, 1e-3, g, NULL) == 0.0);
    CHECK(inf_norm(g, 12) == 0.0);
  }
}

/* the point masks of every type match what the per-type distance depends on: generic
   configurations give a nonzero gradient exactly on the masked points */
static void test_type_points(void) {
  for (int it = 0; it < 50; ++it) {
    double x[12], g[12];
    for (int i = 0; i < 12; ++i) x[i] = rnd();
    for (int t = IPC_PT_P_T0; t <= IPC_PT_P_T; ++t) {
      ipc_pt_distance2(x, x + 3, x + 6, x + 9, (ipc_pt_type)t, g, NULL);
      int used = 0;
      for (int k = 0; k < 4; ++k)
        if (g[3 * k] != 0 || g[3 * k + 1] != 0 || g[3 * k + 2] != 0) used |= 1 << k;
      CHECK_MSG(used == ipc_pt_type_points((ipc_pt_type)t), "pt type %d: %x", t, used);
    }
    for (int t = IPC_EE_A0_B0; t <= IPC_EE_A_B; ++t) {
      ipc_ee_distance2(x, x + 3, x + 6, x + 9, (ipc_ee_type)t, g, NULL);
      int used = 0;
      for (int k = 0; k < 4; ++k)
        if (g[3 * k] != 0 || g[3 * k + 1] != 0 || g[3 * k + 2] != 0) used |= 1 << k;
      CHECK_MSG(used == ipc_ee_type_points((ipc_ee_type)t), "ee type %d: %x", t, used);
    }
    for (int t = IPC_PE_P_E0; t <= IPC_PE_P_E; ++t) {
      ipc_pe_distance2(x, x + 3, x + 6, (ipc_pe_type)t, g, NULL);
      int used = 0;
      for (int k = 0; k < 3; ++k)
        if (g[3 * k] != 0 || g[3 * k + 1] != 0 || g[3 * k + 2] != 0) used |= 1 << k;
      CHECK_MSG(used == ipc_pe_type_points((ipc_pe_type)t), "pe type %d: %x", t, used);
    }
  }
}

/* IPC's classification (ipc_pt_classify_ipc, ipc_ee_classify_ipc): the same type as ipcc's
   wherever the closest pair is unique (random configurations), and IPC's choice on exact ties,
   the lower-dimensional feature, where ipcc's own takes the closed triangle or the interior */
static void test_ipc_classify(void) {
  double x[12];
  int same_pt = 0, same_ee = 0, n = 0;
  for (int it = 0; it < 20000; ++it) {
    for (int i = 0; i < 4; ++i) rnd3(x + 3 * i, 1.0);
    ++n;
    same_pt +=
        ipc_pt_classify_ipc(x, x + 3, x + 6, x + 9) == ipc_pt_classify(x, x + 3, x + 6, x + 9);
    same_ee +=
        ipc_ee_classify_ipc(x, x + 3, x + 6, x + 9) == ipc_ee_classify(x, x + 3, x + 6, x + 9);
  }
  CHECK_MSG(same_pt == n, "point-triangle types differ on %d of %d random cases", n - same_pt, n);
  CHECK_MSG(same_ee == n, "edge-edge types differ on %d of %d random cases", n - same_ee, n);
  /* a point exactly over the diagonal t0-t1 of a triangle in the plane y = 0 (coordinates chosen
     so that every product is exact): IPC takes the edge, ipcc the (closed) triangle */
  const double t0[3] = {0, 0, 0}, t1[3] = {2, 0, 2}, t2[3] = {2, 0, 0};
  const double over_edge[3] = {1, 0.5, 1}, over_corner[3] = {0, 0.5, 0}, inside[3] = {1.5, 0.5, 1};
  CHECK(ipc_pt_classify_ipc(over_edge, t0, t1, t2) == IPC_PT_P_E0);
  CHECK(ipc_pt_classify(over_edge, t0, t1, t2) == IPC_PT_P_T);
  CHECK(ipc_pt_classify_ipc(over_corner, t0, t1, t2) == IPC_PT_P_T0);
  CHECK(ipc_pt_classify_ipc(inside, t0, t1, t2) == IPC_PT_P_T);
  CHECK(ipc_pt_classify_ipc(inside, t0, t1, t2) == ipc_pt_classify(inside, t0, t1, t2));
  /* the same distance either way: the tie changes the Hessian, not the value */
  CHECK(ipc_pt_distance2(over_edge, t0, t1, t2, IPC_PT_P_E0, NULL, NULL) ==
        ipc_pt_distance2(over_edge, t0, t1, t2, IPC_PT_P_T, NULL, NULL));
  /* an edge whose end point a0 lies exactly over edge b's line: IPC takes a0 against b */
  const double a0[3] = {1, 0.5, 1}, a1[3] = {1, 1.5, 3}, b0[3] = {0, 0, 0}, b1[3] = {2, 0, 2};
  CHECK(ipc_ee_classify_ipc(a0, a1, b0, b1) == IPC_EE_A0_B);
  /* parallel edges one over the other, overlapping: an end point against the other edge */
  const double p0[3] = {0.5, 1, 0}, p1[3] = {1.5, 1, 0}, q0[3] = {0, 0, 0}, q1[3] = {2, 0, 0};
  const ipc_ee_type tp = ipc_ee_classify_ipc(p0, p1, q0, q1);
  CHECK(tp == IPC_EE_A0_B || tp == IPC_EE_A1_B);
}

/* ipc_pair_stays_beyond against its definition (distance at x0 through the closest-feature
   classification, beyond dist + reach_scale D + the sags with its margins): the separating-axis
   shortcut must give the same verdict on every pair, near the threshold too. Pairs of every
   kind at random positions and scales, with dist set around the pair's own threshold */
static void test_stays_beyond(void) {
  int far = 0, near_kept = 0, disagree = 0;
  for (int it = 0; it < 200000; ++it) {
    ipc_pair_kind kind = (ipc_pair_kind)(it % 4);
    int nv = kind == IPC_PAIR_PT || kind == IPC_PAIR_EE ? 4 : kind == IPC_PAIR_PE ? 3 : 2;
    int na = kind == IPC_PAIR_EE ? 2 : 1;
    double scale = pow(10.0, 3.0 * rnd()), x[4][3] = {{0}}, d[4][3] = {{0}};
    double off[3] = {rnd(), rnd(), rnd()}, spread = 0.5 + 2.0 * (rnd() + 1.0);
    for (int k = 0; k < nv; ++k)
      for (int a = 0; a < 3; ++a) {
        x[k][a] = scale * (rnd() + (k >= na ? spread * off[a] : 0.0));
        d[k][a] = 0.1 * scale * rnd();
      }
    double sag[2] = {it % 3 ? 0.0 : 0.01 * scale * (rnd() + 1.0), 0.0};
    double M = 0.0, c[3] = {0.0, 0.0, 0.0}, reach[2] = {0.0, 0.0}, d2;
    for (int k = 0; k < nv; ++k)
      for (int a = 0; a < 3; ++a) {
        M = fmax(M, fmax(fabs(x[k][a]), fabs(x[k][a] + d[k][a])));
        c[a] += d[k][a] / nv;
      }
    for (int k = 0; k < nv; ++k) {
      double r[3] = {d[k][0] - c[0], d[k][1] - c[1], d[k][2] - c[2]};
      reach[k >= na] = fmax(reach[k >= na], sqrt(dot(r, r)));
    }
    d2 = ipc_pair_distance2(kind, (const double(*)[3])x);
    const double reach_scale = it % 2 ? 1.0 : 1.67, moved = reach_scale * (reach[0] + reach[1]);
    /* dist: far below the threshold, or within a few margins of it */
    double gap = sqrt(d2) - moved - sag[0] - sag[1];
    double dist = it % 5 == 0 ? fmax(0.0, 0.1 * gap) : fmax(0.0, gap + 2e-7 * M * rnd());
    int got = ipc_pair_stays_beyond(kind, (const double(*)[3])x, (const double(*)[3])d, 1.0, dist,
                                    reach_scale, sag, M);
    int want = sqrt(d2) * (1.0 - 1e-9) > (dist + moved + sag[0] + sag[1]) * (1.0 + 1e-9) + 1e-7 * M;
    disagree += got != want;
    far += want;
    near_kept += !want;
  }
  CHECK_MSG(disagree == 0, "ipc_pair_stays_beyond: %d verdicts differ from its definition",
            disagree);
  CHECK_MSG(far > 10000 && near_kept > 10000, "stays_beyond: %d apart, %d kept: vacuous", far,
            near_kept);
}

int main(void) {
  test_type_points();
  test_pt_random();
  test_pt_special();
  test_ee_random();
  test_ee_special();
  test_pe();
  test_mollifier();
  test_ipc_classify();
  test_stays_beyond();
  fprintf(stderr,
          "finite-difference checks: %d, worst relative error: gradient %.3g, Hessian %.3g\n",
          fd_runs, worst_g, worst_h);
  TEST_MAIN_END();
}
