/* tests for src/geometry/ccd_ctcd.c: straight approaches (0.8 of the time of impact), oblique
   and rotating approaches checked against a reference that samples the same conditions
   directly from the positions at time t and bisects the first switch, misses, parallel,
   stationary and degenerate cases, and IPC's per-pair step rules (retry, zero-retry rule) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/model.h"
#include "core/vec3.h"
#include "geometry/broad_phase.h"
#include "geometry/ccd_ctcd.h"
#include "ipc/contacts.h"
#include "ipc/line_search.h"
#include "surface_by_hand.h"
#include "test.h"

/* double[4][3] as const double (*)[3] (implicit in C2x only) */
#define C43(a) ((const double(*)[3])(a))

static const double tol = 1e-9;

static void lerp3(double r[3], const double a[3], const double b[3], double t) {
  for (int j = 0; j < 3; ++j) r[j] = a[j] + t * (b[j] - a[j]);
}

/* ---------------------------------------------------------------- reference conditions */

/* when set, the holds functions skip the near-plane condition */
static int skip_plane = 0;

/* a query as 4 points moving from x0 to x1 */
typedef struct query {
  double x0[4][3], x1[4][3];
  double eta;
} query;

/* vertex-face at time t, evaluated from the positions at t; the in-edge normal is the
   linear-in-t blend CTCD uses: (c - a)(0) x (b - a)(0) + t (rate of c - a) x (rate of b - a) */
static int vf_holds(const query *q, double t) {
  double x[4][3], v[4][3];
  for (int k = 0; k < 4; ++k) {
    lerp3(x[k], q->x0[k], q->x1[k], t);
    sub3(v[k], q->x1[k], q->x0[k]);
  }
  static const int nx[3] = {3, 1, 2}, pv[3] = {2, 3, 1};
  for (int k = 1; k <= 3; ++k) {
    double e0[3], f0[3], ev[3], fv[3], n0[3], nv[3], n[3], e[3], r[3], w[3];
    sub3(e0, q->x0[nx[k - 1]], q->x0[k]);
    sub3(f0, q->x0[pv[k - 1]], q->x0[k]);
    sub3(ev, v[nx[k - 1]], v[k]);
    sub3(fv, v[pv[k - 1]], v[k]);
    cross3(n0, e0, f0);
    cross3(nv, ev, fv);
    for (int j = 0; j < 3; ++j) n[j] = n0[j] + t * nv[j];
    sub3(e, x[nx[k - 1]], x[k]);
    sub3(r, x[0], x[k]);
    cross3(w, n, e);
    if (dot3(r, w) < 0.0) return 0;
  }
  if (skip_plane) return 1;
  double ab[3], ac[3], ap[3], m[3];
  sub3(ab, x[2], x[1]);
  sub3(ac, x[3], x[1]);
  sub3(ap, x[0], x[1]);
  cross3(m, ab, ac);
  double h = dot3(ap, m);
  return h * h - q->eta * q->eta * dot3(m, m) <= 0.0;
}

/* (r . s)... in-segment condition of edge-edge for edge vector e, other vector o, offset w */
static int inside(const double e[3], const double o[3], const double w[3]) {
  return dot3(o, e) * dot3(w, e) - dot3(e, e) * dot3(w, o) >= 0.0;
}

/* edge-edge at time t; points a0 a1 b0 b1 */
static int ee_holds(const query *q, double t) {
  double x[4][3];
  for (int k = 0; k < 4; ++k) lerp3(x[k], q->x0[k], q->x1[k], t);
  double ea[3], eb[3], m[3], r[3];
  sub3(ea, x[1], x[0]);
  sub3(eb, x[3], x[2]);
  cross3(m, ea, eb);
  if (sqrt(dot3(m, m)) < 1e-8) return 0;
  sub3(r, x[1], x[3]);
  double h = dot3(r, m);
  if (!skip_plane && h * h - q->eta * q->eta * dot3(m, m) > 0.0) return 0;
  double nea[3] = {-ea[0], -ea[1], -ea[2]}, neb[3] = {-eb[0], -eb[1], -eb[2]}, w[3];
  sub3(w, x[0], x[2]);
  if (!inside(eb, ea, w)) return 0;
  sub3(w, x[1], x[2]);
  if (!inside(eb, nea, w)) return 0;
  sub3(w, x[2], x[0]);
  if (!inside(ea, eb, w)) return 0;
  sub3(w, x[3], x[0]);
  return inside(ea, neb, w);
}

/* earliest t in [0, 1] where holds(t), by sampling and bisection; -1 when none is sampled */
static double first_time(int (*holds)(const query *, double), const query *q) {
  const int n = 20000;
  if (holds(q, 0.0)) return 0.0;
  for (int i = 1; i <= n; ++i) {
    double t = (double)i / n;
    if (holds(q, t)) {
      double lo = (double)(i - 1) / n, hi = t;
      for (int it = 0; it < 80 && hi - lo > 1e-15; ++it) {
        double mid = 0.5 * (lo + hi);
        if (holds(q, mid)) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
      return hi;
    }
  }
  return -1.0;
}

/* the near-plane function without the square: (p - a) . ((b - a) x (c - a)) for vertex-face,
   (a1 - b1) . ((a1 - a0) x (b1 - b0)) for edge-edge, at time t */
static double plane_fn(const query *q, int vf, double t) {
  double x[4][3], u[3], w[3], m[3], r[3];
  for (int k = 0; k < 4; ++k) lerp3(x[k], q->x0[k], q->x1[k], t);
  if (vf) {
    sub3(u, x[2], x[1]);
    sub3(w, x[3], x[1]);
    sub3(r, x[0], x[1]);
  } else {
    sub3(u, x[1], x[0]);
    sub3(w, x[3], x[2]);
    sub3(r, x[1], x[3]);
  }
  cross3(m, u, w);
  return dot3(r, m);
}

/* eta = 0 reference: the earliest sign change of plane_fn (sampled, bisected) at which the
   other conditions hold; -1 when none */
static double first_zero(const query *q, int vf) {
  const int n = 20000;
  skip_plane = 1;
  double res = -1.0, fa = plane_fn(q, vf, 0.0);
  for (int i = 1; i <= n && res < 0.0; ++i) {
    double lo = (double)(i - 1) / n, hi = (double)i / n, fb = plane_fn(q, vf, hi);
    if ((fa < 0.0) != (fb < 0.0) || fa == 0.0) {
      double flo = fa;
      for (int it = 0; it < 80 && hi - lo > 1e-16 && flo != 0.0; ++it) {
        double mid = 0.5 * (lo + hi), fm = plane_fn(q, vf, mid);
        if ((fm < 0.0) == (flo < 0.0) && fm != 0.0) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      double r = flo == 0.0 ? lo : 0.5 * (lo + hi);
      if (vf ? vf_holds(q, r) : ee_holds(q, r)) res = r;
    }
    fa = fb;
  }
  skip_plane = 0;
  return res;
}

static int run_vf(const query *q, double *t) {
  return ipc_ctcd_vf(q->x0[0], q->x0[1], q->x0[2], q->x0[3], q->x1[0], q->x1[1], q->x1[2], q->x1[3],
                     q->eta, t);
}

static int run_ee(const query *q, double *t) {
  return ipc_ctcd_ee(q->x0[0], q->x0[1], q->x0[2], q->x0[3], q->x1[0], q->x1[1], q->x1[2], q->x1[3],
                     q->eta, t);
}

static void set_query(query *q, const double x0[4][3], const double x1[4][3], double eta) {
  memcpy(q->x0, x0, sizeof q->x0);
  memcpy(q->x1, x1, sizeof q->x1);
  q->eta = eta;
}

/* steps d = x1 - x0 */
static void disp(double d[4][3], const query *q) {
  for (int k = 0; k < 4; ++k) sub3(d[k], q->x1[k], q->x0[k]);
}

/* ---------------------------------------------------------------- straight approaches */

static void test_straight(void) {
  /* vertex-face: p falls through the interior of a resting triangle, d(t) = 1 - 2 t */
  double x[4][3] = {{0.2, 0.2, 1.0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  double d[4][3] = {{0, 0, -2.0}, {0}, {0}, {0}};
  double d0 = ipc_ctcd_pair_distance(IPC_PAIR_PT, C43(x));
  CHECK_NEAR(d0, 1.0, 1e-15);
  double t = -1.0;
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(d), 0.0, &t) == 1);
  CHECK_NEAR(t, 0.5, tol);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(d), 0.2 * d0, &t) == 1);
  CHECK_NEAR(t, 0.4, tol);
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_PT, C43(x), C43(d), d0, 0.8, 0), 0.8 * 0.5, tol);
  /* the triangle moving up to meet it: relative motion is the same */
  double d2[4][3] = {{0, 0, -1.0}, {0, 0, 1.0}, {0, 0, 1.0}, {0, 0, 1.0}};
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_PT, C43(x), C43(d2), d0, 0.8, 0), 0.4, tol);

  /* edge-edge: crossing edges 1 apart, a moving down by 4: toi 0.25 */
  double xe[4][3] = {{-1, 0.3, 1}, {1, 0.3, 1}, {0.1, -1, 0}, {0.1, 1, 0}};
  double de[4][3] = {{0, 0, -4}, {0, 0, -4}, {0}, {0}};
  d0 = ipc_ctcd_pair_distance(IPC_PAIR_EE, C43(xe));
  CHECK_NEAR(d0, 1.0, 1e-15);
  CHECK(ipc_ctcd_pair(IPC_PAIR_EE, C43(xe), C43(de), 0.0, &t) == 1);
  CHECK_NEAR(t, 0.25, tol);
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_EE, C43(xe), C43(de), d0, 0.8, 1), 0.2, tol);

  /* vertex-edge: p moves straight onto the interior of an edge, d(t) = 0.5 - t */
  double xp[4][3] = {{0.3, 0.5, 0}, {0, 0, 0}, {1, 0, 0}};
  double dp[4][3] = {{0, -1, 0}, {0}, {0}};
  d0 = ipc_ctcd_pair_distance(IPC_PAIR_PE, C43(xp));
  CHECK_NEAR(d0, 0.5, 1e-15);
  /* with eta = 0 the condition is a sum of squares with a double root at the contact: it is
     found to about sqrt(eps) only (as by the reference CTCD) */
  CHECK(ipc_ctcd_pair(IPC_PAIR_PE, C43(xp), C43(dp), 0.0, &t) == 1);
  CHECK_NEAR(t, 0.5, 1e-7);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PE, C43(xp), C43(dp), 0.1, &t) == 1);
  CHECK_NEAR(t, 0.4, tol);
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_PE, C43(xp), C43(dp), d0, 0.8, 0), 0.4, tol);

  /* vertex-vertex head-on, both moving: d(t) = 2 - 3 t */
  double xv[4][3] = {{0, 0, 0}, {2, 0, 0}};
  double dv[4][3] = {{1.5, 0, 0}, {-1.5, 0, 0}};
  d0 = ipc_ctcd_pair_distance(IPC_PAIR_PP, C43(xv));
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(xv), C43(dv), 0.0, &t) == 1);
  CHECK_NEAR(t, 2.0 / 3.0, tol);
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_PP, C43(xv), C43(dv), d0, 0.8, 0), 0.8 * 2.0 / 3.0, tol);
}

/* ---------------------------------------------------------------- oblique and rotating */

static void test_rotating_vf(void) {
  /* the triangle tilts (c rises) while p descends obliquely: the distance to the plane is not
     linear in t, so the eta = 0.2 d0 time is not 0.8 of the time of impact */
  const double x0[4][3] = {{0.25, 0.25, 0.5}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const double x1[4][3] = {{0.35, 0.15, -0.5}, {0, 0, 0}, {1, 0, 0.3}, {0, 1, 1.2}};
  query q;
  set_query(&q, x0, x1, 0.0);
  double toi = -1.0, t = -1.0;
  CHECK(run_vf(&q, &toi) == 1);
  double ref0 = first_zero(&q, 1);
  CHECK(ref0 > 0.0);
  CHECK_NEAR(toi, ref0, tol);
  double d0 = ipc_ctcd_pair_distance(IPC_PAIR_PT, C43(q.x0));
  CHECK_NEAR(d0, 0.5, 1e-15);
  q.eta = 0.2 * d0;
  CHECK(run_vf(&q, &t) == 1);
  double ref = first_time(vf_holds, &q);
  CHECK_NEAR(t, ref, tol);
  CHECK_MSG(fabs(t - 0.8 * toi) > 1e-3, "t %.12g 0.8 toi %.12g", t, 0.8 * toi);
  double d[4][3];
  disp(d, &q);
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_PT, C43(q.x0), C43(d), d0, 0.8, 0), ref, tol);
  CHECK(t >= 0.0 && t <= 1.0);
}

static void test_rotating_ee(void) {
  /* edge a spins about its midpoint and sinks while b translates sideways */
  const double x0[4][3] = {{-1, 0, 0.6}, {1, 0, 0.6}, {0.2, -1, 0}, {0.2, 1, 0}};
  const double x1[4][3] = {{0, -1, -0.4}, {0, 1, 0.2}, {-0.3, -1, 0.1}, {-0.3, 1, 0.1}};
  query q;
  set_query(&q, x0, x1, 0.0);
  double toi = -1.0, t = -1.0;
  CHECK(run_ee(&q, &toi) == 1);
  double ref0 = first_zero(&q, 0);
  CHECK(ref0 > 0.0);
  CHECK_NEAR(toi, ref0, tol);
  double d0 = ipc_ctcd_pair_distance(IPC_PAIR_EE, C43(q.x0));
  CHECK_NEAR(d0, 0.6, 1e-15);
  q.eta = 0.2 * d0;
  CHECK(run_ee(&q, &t) == 1);
  double ref = first_time(ee_holds, &q);
  CHECK_NEAR(t, ref, tol);
  CHECK_MSG(fabs(t - 0.8 * toi) > 1e-3, "t %.12g 0.8 toi %.12g", t, 0.8 * toi);
  CHECK(t >= 0.0 && t <= 1.0);
}

/* randomized queries against the sampled reference (eta = 0: the sign changes of the
   near-plane function) */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double urand(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void random_query(query *q) {
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j) {
      q->x0[k][j] = 2.0 * urand() - 1.0;
      q->x1[k][j] = q->x0[k][j] + 1.2 * (2.0 * urand() - 1.0);
    }
}

static void test_random(int vf) {
  int hits = 0, checked = 0, bad = 0;
  for (int n = 0; n < 300; ++n) {
    query q;
    random_query(&q);
    q.eta = (n % 3 == 0) ? 0.0 : 0.05 + 0.2 * urand();
    double t = -1.0;
    int hit = vf ? run_vf(&q, &t) : run_ee(&q, &t);
    double ref = q.eta == 0.0 ? first_zero(&q, vf) : first_time(vf ? vf_holds : ee_holds, &q);
    if ((ref >= 0.0) != (hit == 1)) {
      ++bad;
      fprintf(stderr, "random %s %d: hit %d t %.17g ref %.17g\n", vf ? "vf" : "ee", n, hit, t, ref);
      continue;
    }
    ++checked;
    if (hit) {
      ++hits;
      CHECK(t >= 0.0 && t <= 1.0);
      if (fabs(t - ref) > tol) {
        ++bad;
        fprintf(stderr, "random %s %d: t %.17g ref %.17g\n", vf ? "vf" : "ee", n, t, ref);
      }
    }
  }
  CHECK(bad == 0);
  CHECK(hits > 20);
  fprintf(stderr, "random %s: %d checked, %d hits\n", vf ? "vf" : "ee", checked, hits);
}

/* ---------------------------------------------------------------- misses and degenerate cases */

static void test_misses(void) {
  double t = -1.0;
  /* p falls beside the triangle (projection outside): no hit at any eta below the gap */
  double x[4][3] = {{1.5, 1.5, 1.0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  double d[4][3] = {{0, 0, -2.0}, {0}, {0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(d), 0.0, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(d), 0.2, &t) == 0);
  CHECK(t == -1.0);
  double d0 = ipc_ctcd_pair_distance(IPC_PAIR_PT, C43(x));
  CHECK(ipc_ctcd_pair_step(IPC_PAIR_PT, C43(x), C43(d), d0, 0.8, 0) == 1.0);
  /* moving away */
  double da[4][3] = {{0, 0, 1.0}, {0}, {0}, {0}};
  x[0][0] = x[0][1] = 0.2;
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(da), 0.2, &t) == 0);
  /* stopping short: 1 -> 0.3 with eta 0.2 */
  double ds[4][3] = {{0, 0, -0.7}, {0}, {0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(ds), 0.2, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(ds), 0.35, &t) == 1);
  CHECK_NEAR(t, 0.65 / 0.7, tol);
  /* edges passing beside each other (b's segment ends short of a's line) */
  double xe[4][3] = {{-1, 0, 1}, {1, 0, 1}, {0, 0.5, 0}, {0, 2, 0}};
  double de[4][3] = {{0, 0, -2}, {0, 0, -2}, {0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_EE, C43(xe), C43(de), 0.0, &t) == 0);
  /* vertex beside an edge's end */
  double xp[4][3] = {{1.5, 0.5, 0}, {0, 0, 0}, {1, 0, 0}};
  double dp[4][3] = {{0, -1, 0}, {0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PE, C43(xp), C43(dp), 0.0, &t) == 0);
  /* vertices passing at distance 1 */
  double xv[4][3] = {{-1, 0, 0}, {0, 1, 0}};
  double dv[4][3] = {{2, 0, 0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(xv), C43(dv), 0.9, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(xv), C43(dv), 1.0, &t) == 1);
  CHECK_NEAR(t, 0.5, tol);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(xv), C43(dv), 1.25, &t) == 1);
  CHECK_NEAR(t, 0.5 - 0.75 / 2.0, tol);
}

static void test_degenerate(void) {
  double t = -1.0;
  /* stationary: constant conditions; within eta holds from t = 0 */
  double x[4][3] = {{0.2, 0.2, 0.1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  double z[4][3] = {{0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(z), 0.05, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(z), 0.2, &t) == 1);
  CHECK(t == 0.0);
  /* common translation: the same as stationary */
  double tr[4][3] = {{3, -1, 2}, {3, -1, 2}, {3, -1, 2}, {3, -1, 2}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(tr), 0.05, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(tr), 0.2, &t) == 1);
  CHECK(t == 0.0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(x), C43(tr), 0.2, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(x), C43(tr), 0.4, &t) == 1);
  CHECK(t == 0.0);
  /* parallel edges closing in: CTCD sets parallel intervals aside, so no hit (vertex-edge
     pairs cover this case in IPC's full CCD) */
  double xe[4][3] = {{0, 0, 1}, {1, 0, 1}, {0.5, 0, 0}, {1.5, 0, 0}};
  double de[4][3] = {{0, 0, -2}, {0, 0, -2}, {0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_EE, C43(xe), C43(de), 0.0, &t) == 0);
  CHECK(ipc_ctcd_pair(IPC_PAIR_EE, C43(xe), C43(de), 0.2, &t) == 0);
  double d0 = ipc_ctcd_pair_distance(IPC_PAIR_EE, C43(xe));
  CHECK_NEAR(d0, 1.0, 1e-15);
  CHECK(ipc_ctcd_pair_step(IPC_PAIR_EE, C43(xe), C43(de), d0, 0.8, 1) == 1.0);
  /* ... while the vertex-edge query sees b0 landing on a */
  double xp[4][3] = {{0.5, 0, 0}, {0, 0, 1}, {1, 0, 1}};
  double dp[4][3] = {{0}, {0, 0, -2}, {0, 0, -2}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PE, C43(xp), C43(dp), 0.0, &t) == 1);
  CHECK_NEAR(t, 0.5, tol);
  /* edge-edge in a plane: a slides across b; hits when it reaches b (line distance 0 all
     along, so the in-segment conditions decide) */
  double xc[4][3] = {{-1, 1, 0}, {1, 1, 0}, {0, -1, 0}, {0, 0.5, 0}};
  double dc[4][3] = {{0, -2, 0}, {0, -2, 0}, {0}, {0}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_EE, C43(xc), C43(dc), 0.0, &t) == 1);
  CHECK_NEAR(t, 0.25, tol);
  /* zero-length motion of the vertex pair with eta = 0: touching only if coincident */
  double xv[4][3] = {{1, 2, 3}, {1, 2, 3}};
  CHECK(ipc_ctcd_pair(IPC_PAIR_PP, C43(xv), C43(z), 0.0, &t) == 1);
  CHECK(t == 0.0);
}

/* ---------------------------------------------------------------- IPC's step rules */

static void test_step_rules(void) {
  /* a fast approach whose eta time is below 1e-6: retried with eta = 0, scaled by 0.8 */
  double x[4][3] = {{0.2, 0.2, 1e-7}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  double d[4][3] = {{0, 0, -1.0}, {0}, {0}, {0}};
  double d0 = ipc_ctcd_pair_distance(IPC_PAIR_PT, C43(x)), t = -1.0;
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(x), C43(d), 0.2 * d0, &t) == 1 && t < IPC_CTCD_TINY_STEP);
  CHECK_NEAR(ipc_ctcd_pair_step(IPC_PAIR_PT, C43(x), C43(d), d0, 0.8, 0), 0.8 * 1e-7, 1e-15);

  /* gliding into a triangle's prism just above its plane: the eta query hits at once, the
     retry never reaches the plane, and IPC then lets the pair take the full step */
  double xg[4][3] = {{-1e-8, 0.3, 1e-9}, {0, 0, 0}, {0, 1, 0}, {1, 0.5, 0}};
  double dg[4][3] = {{1.0, 0, 0}, {0}, {0}, {0}};
  d0 = ipc_ctcd_pair_distance(IPC_PAIR_PT, C43(xg));
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(xg), C43(dg), 0.2 * d0, &t) == 1 && t < IPC_CTCD_TINY_STEP);
  CHECK(ipc_ctcd_pair(IPC_PAIR_PT, C43(xg), C43(dg), 0.0, &t) == 0);
  CHECK(ipc_ctcd_pair_step(IPC_PAIR_PT, C43(xg), C43(dg), d0, 0.8, 0) == 1.0);

  /* edges already crossing: the retry reports t = 0; where IPC's zero-retry rule applies that
     counts as t = 1. Crossing edges are coplanar, and IPC measures coplanar edges by an end
     point against the other edge (its dType_EE): d0 is 1 here, not 0 */
  double xe[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
  double de[4][3] = {{0, 0, -1}, {0, 0, -1}, {0}, {0}};
  d0 = ipc_ctcd_pair_distance(IPC_PAIR_EE, C43(xe));
  CHECK(d0 == 1.0);
  CHECK(ipc_ctcd_pair_step(IPC_PAIR_EE, C43(xe), C43(de), d0, 0.8, 1) == 0.8);
  CHECK(ipc_ctcd_pair_step(IPC_PAIR_EE, C43(xe), C43(de), d0, 0.8, 0) == 0.0);

  /* the rule table */
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_SELF_PARTIAL, IPC_PAIR_EE, 0) == 1);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_SELF_PARTIAL, IPC_PAIR_PT, 0) == 0);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_SELF_FULL, IPC_PAIR_EE, 0) == 0);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_OBSTACLE_PARTIAL, IPC_PAIR_EE, 0) == 1);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_OBSTACLE_FULL, IPC_PAIR_EE, 0) == 1);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_OBSTACLE_FULL, IPC_PAIR_PE, 1) == 1);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_OBSTACLE_FULL, IPC_PAIR_PE, 0) == 0);
  CHECK(ipc_ctcd_zero_retry_is_one(IPC_CTCD_OBSTACLE_FULL, IPC_PAIR_PT, 0) == 0);
}

/* IPC's full CCD on its scripts (ipc_ipc_step_bound with ctcd): the point pairs first, then
   only the edge pairs whose boxes swept up to that bound meet (IPC's
   SpatialHash::queryEdgeForEdgesWithBBoxCheck); and the step cut so the mean surface vertex
   moves at most one voxel of IPC's spatial hash. Edge (0 1) lies on y = ya; edge (3 4) crosses
   above it at y = 1 and falls by 1; vertex 5 falls by 0.9 towards vertex 2, 1 below it. With
   eta = 0.2 d0 the point pair stops at t = 8/9, the edges at about 0.8 (ya = 0), whose boxes
   meet only at t = 1: IPC never queries them and takes 8/9 */
static double full_ccd_bound(double ya, double voxel) {
  const double x[6][3] = {{0, ya, 0},     {1, ya, 0},    {10, 0, 5},
                          {0.5, 1, -0.5}, {0.5, 1, 0.5}, {10, 1, 5}};
  const double d[6][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, -1, 0}, {0, -1, 0}, {0, -0.9, 0}};
  const int faces[6] = {0, 1, 2, 3, 4, 5};
  ipc_model m;
  memset(&m, 0, sizeof m);
  hand_surface(&m.surface, 6, faces, 2, NULL, 0, NULL, 0, NULL);
  double xe[18];
  for (int v = 0; v < 6; ++v)
    for (int k = 0; k < 3; ++k) xe[3 * v + k] = x[v][k] + d[v][k];
  m.nverts = 6;
  m.x0 = (double *)x;
  ipc_contact_model cm;
  ipc_contact_model_init(&cm, &m, 1e-6);
  cm.hash_voxel = voxel;
  int ee[2] = {hand_find_edge(m.surface.edges, m.surface.nedges, 0, 1),
               hand_find_edge(m.surface.edges, m.surface.nedges, 3, 4)};
  int vv[2] = {2, 5};
  ipc_candidates cand;
  memset(&cand, 0, sizeof cand);
  cand.ee = ee;
  cand.nee = 1;
  cand.vv = vv;
  cand.nvv = 1;
  ipc_contact_set none;
  memset(&none, 0, sizeof none);
  double pm;
  double t = ipc_ipc_step_bound(&cm, &none, &cand, NULL, (const double *)x, xe, 1, 1, &pm);
  CHECK(fabs(pm - 1.0) < 1e-15);
  ipc_contact_model_free(&cm);
  hand_surface_free(&m.surface);
  return t;
}

static void test_ipc_full_ccd_order(void) {
  /* the edges' boxes never meet before the point pair's bound: 8/9, not the edges' ~0.8 */
  double t = full_ccd_bound(0.0, 0.0);
  CHECK_MSG(fabs(t - 8.0 / 9.0) < 1e-6, "full CCD %.9g, expected 8/9", t);
  /* edge (0 1) raised to y = 0.15: the boxes meet from t = 0.85 < 8/9, so the edge pair
     counts: distance 0.85, stops at 0.2 of it, 0.17, at t = 0.68 */
  t = full_ccd_bound(0.15, 0.0);
  CHECK_MSG(fabs(t - 0.68) < 1e-3, "full CCD %.9g, expected about 0.68", t);
  /* a voxel of 0.05 m: the mean |p| over the surface coordinates is 2.9 / 18, so the step is
     cut to 0.05 / (2.9 / 18) before any pair */
  t = full_ccd_bound(0.0, 0.05);
  CHECK_MSG(fabs(t - 0.05 / (2.9 / 18.0)) < 1e-12, "full CCD %.9g, expected the voxel cut", t);
}

/* ipc_ccd_contacts_stop (the cheap refusal of an affine body's predicted start): whenever it
   refuses a move, the full CCD over a broad phase inflated by dhat finds a step below 1.
   Random soups of triangles (some pairs within dhat, moves towards and away from each
   other, a ground plane in half of the trials); the refusals must be frequent and must
   include moves that only a contact pair refuses, and some moves it lets through must
   still be cut by the full CCD (pairs that are not contacts yet) */
static void test_contacts_stop(void) {
  enum { NT = 6, NV = 3 * NT };
  int faces[3 * NT];
  for (int k = 0; k < 3 * NT; ++k) faces[k] = k;
  int refused = 0, passed_cut = 0, pairs_only = 0, bad = 0;
  for (int trial = 0; trial < 400; ++trial) {
    double x[NV][3], xe[NV][3];
    const double dhat = 0.05;
    for (int t = 0; t < NT; ++t) {
      /* a triangle of size ~0.3 near a random centre of a box of side 0.6 */
      double c[3] = {0.6 * urand(), 0.6 * urand(), 0.6 * urand()};
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) x[3 * t + k][j] = c[j] + 0.3 * (urand() - 0.5);
      double mv[3] = {0.3 * (urand() - 0.5), 0.3 * (urand() - 0.5), 0.3 * (urand() - 0.5)};
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) xe[3 * t + k][j] = x[3 * t + k][j] + mv[j];
    }
    ipc_model m;
    memset(&m, 0, sizeof m);
    hand_surface(&m.surface, NV, faces, NT, NULL, 0, NULL, 0, NULL);
    m.nverts = NV;
    m.x0 = (double *)x;
    ipc_plane ground = {{0.0, -0.02, 0.0}, {0.0, 1.0, 0.0}, 0.0, 0.0};
    if (trial % 2) {
      m.planes = &ground;
      m.nplanes = 1;
    }
    ipc_contact_model cm;
    ipc_contact_model_init(&cm, &m, dhat);
    ipc_candidates cand;
    memset(&cand, 0, sizeof cand);
    ipc_broad_phase(&cand, &m.surface, (const double *)x, NULL, dhat);
    ipc_contact_set cs;
    memset(&cs, 0, sizeof cs);
    double d2 = ipc_contacts_collect(&cs, &cm, &cand, (const double *)x);
    if (d2 < 0) { /* touching or below the plane at the start: not a state of a run */
      ipc_contact_set_free(&cs);
      ipc_candidates_free(&cand);
      ipc_contact_model_free(&cm);
      hand_surface_free(&m.surface);
      continue;
    }
    int stop = ipc_ccd_contacts_stop(&cm, &cs, (const double *)x, (const double *)xe, 0.5 * dhat);
    ipc_broad_phase(&cand, &m.surface, (const double *)x, (const double *)xe, dhat);
    double t = ipc_ccd_max_step(&cm, &cand, (const double *)x, (const double *)xe);
    if (stop && !(t < 1.0)) {
      ++bad;
      fprintf(stderr, "contacts stop, trial %d: refused, but the full CCD allows %.17g\n", trial,
              t);
    }
    refused += stop;
    passed_cut += !stop && t < 1.0;
    if (stop && m.nplanes == 0) ++pairs_only;
    ipc_contact_set_free(&cs);
    ipc_candidates_free(&cand);
    ipc_contact_model_free(&cm);
    hand_surface_free(&m.surface);
  }
  CHECK(bad == 0);
  CHECK(pairs_only >= 10);
  CHECK(refused >= 40);
  CHECK(passed_cut >= 10);
  fprintf(stderr, "contacts stop: %d refused (%d by pairs alone), %d passed but cut\n", refused,
          pairs_only, passed_cut);
}

int main(void) {
  test_straight();
  test_ipc_full_ccd_order();
  test_rotating_vf();
  test_rotating_ee();
  test_random(1);
  test_random(0);
  test_misses();
  test_degenerate();
  test_step_rules();
  test_contacts_stop();
  TEST_MAIN_END();
}
