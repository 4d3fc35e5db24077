/* Conservative continuous collision detection by inclusion-based root finding.

   Method: in the spirit of Tight Inclusion CCD (Wang, Ferguson, Schneider, Jiang, Attene,
   Panozzo, "A Large Scale Benchmark and an Inclusion-Based Algorithm for Continuous Collision
   Detection", ACM TOG 2021), with our own error bound, exclusion directions, narrowing and
   search order. Every vertex moves linearly, x(t) = x0 + t (x1 - x0). The difference vector
     vertex-face  F(t,u,v) = p(t) - a(t) - u (b(t) - a(t)) - v (c(t) - a(t)),  u,v >= 0, u+v <= 1
     edge-edge    F(t,u,v) = a0(t) + u (a1(t) - a0(t)) - b0(t) - v (b1(t) - b0(t)), u,v in [0,1]
   (vertex-edge and vertex-vertex are vertex-face with c = a, resp. b = c = a, and the unused
   parameters fixed at 0) vanishes exactly at contacts; the primitives are within distance ms
   at time t iff |F(t,u,v)|_2 <= ms for some admissible (u,v). F is multilinear (degree <= 1
   in each of t, u, v), so on a box B = [t0,t1] x [u0,u1] x [v0,v1] every fixed linear
   combination n . F (a coordinate, or any direction) lies between its smallest and largest
   value at the 8 corners of B.

   Tests. A box holds no point with |F|_2 <= ms when, for some n, all corner values of n . F
   are > |n|_2 ms or all are < -|n|_2 ms. We try the 3 coordinate axes, then (for a box the
   axes keep) the normal n = A x B of the pair at the box's mid time (A, B: the two parameter
   directions of F) and the in-plane normals n x A, n x B (for parallel A, B: the part of F's
   offset normal to A). The directions beyond the axes are ours: they drop near-parallel
   sliding and nearly coincident edges, where axis-aligned boxes would have to be refined down
   to the gap.

   Turning directions (nearly parallel vertex-face and edge-edge pairs). A fixed n normal to A at
   mid time is not normal to A(t) at the box's ends, so n . F picks up u (A(t) - A(mid)) . n, and
   for nearly parallel edges the near-contacts form a long thin sliver along u ~ v: boxes would have
   to shrink to (gap / rotation of A) in t times (gap / (|A| sin angle)) across the sliver, all
   along it. A quad's diagonal lined up over a cube's top diagonal (4e-9 rad, 6e-9 apart, rotating
   by 1e-3 per step) ran into max_iter (1e6 boxes) and returned toi = 0. So for pairs within about
   0.01 rad of parallel (|A x B|^2 < 1e-4 |A|^2 |B|^2 at mid time) we also try W(t) = c x A(t) and
   W(t) = c x B(t), with c the plane normal at mid time (A x B, or A x base when parallel), and then
   the same with c = A x f, resp. B x f, where f is the mean corner offset (along a sliver of skew
   edges the offset turns, so no single plane normal follows it, which matters with ms > 0). W is
   linear in t between its computed values W0, W1 at t0 and t1; it need not be exact, any linear W
   gives a valid test. For fixed (u,v), F is linear in t, so F . W is a quadratic with Bernstein
   coefficients F0 . W0, (F0 . W1 + F1 . W0) / 2, F1 . W1, and on the box F . W is a convex blend of
   the 4 (u,v) corners' quadratics: all 12 coefficients > ms max(|W0|_2, |W1|_2) + E (or all <
   -that) drop the box. c x A(t) is normal to A(t) at every t, so u drops out of F . W up to
   rounding (v for c x B), and the collinear pair above is dropped with its root box. E is as below
   with |n_k| replaced by max(|W0_k|, |W1_k|) (W scaled so that this is at most 1): each coefficient
   is a computed dot product of a computed corner with a double vector, the middle one the exact
   half of the sum of two, and 1.4 sum max|W_k| eps_k bounds their errors.

   Error bound. Let u = 2^-53 (unit roundoff) and M_k the largest |k-coordinate| of the 8
   input points. Corner values are computed as
     d = fl(x1 - x0) (once per query), x(t) = fl(x0 + fl(t d)),
     base, A, B = differences of two positions, F = fl(fl(base + fl(u A)) - fl(v B)),
   with t, u, v exact doubles in [0,1]. With |fl(a op b) - a op b| <= u |a op b| and the
   magnitudes |x(t)| <= M, |base|,|A|,|B| <= 2M, |F| <= 6M the first-order absolute errors are
     d: 2Mu;  t d: 4Mu;  x(t): 5Mu;  base, A, B: 12Mu;  u A, v B: 14Mu;
     base + u A: 30Mu;  F: 50Mu,
   and all second-order terms are below 1000 M u^2. So eps_k = 64 M_k u bounds the error;
   products that underflow add at most 2^-1075 each, covered by the floor eps_k >= 2^-1000.
   An axis drops a box when every computed corner value is > thr_k = (ms + eps_k)(1 + 16u)
   (the factor rounds the computed sum upwards), or every one is < -thr_k.
   A direction n is scaled so that max |n_k| is 1 up to rounding (n need not be exact: it is
   just some fixed vector). The computed dot product s_i = fl(n . c_i) of a computed corner
   c_i differs from the exact n . F_i by at most
     sum |n_k| eps_k + gamma_3 sum |n_k| |c_ik| <= sum |n_k| (eps_k + 3.01u (6 M_k + eps_k))
     <= 1.3 sum |n_k| eps_k  (as eps_k >= 64 M_k u),
   plus underflow in 3 products, far below the 0.7 * 2^-1000 slack of the bound used,
   E = 2 sum |n_k| eps_k, rounded upwards; thr = (ms |n|_2 + E) rounded upwards. Comparisons
   of computed values are exact. Inputs must be finite with |x| <= 2^1000 (no overflow);
   others give a conservative 1.

   Narrowing. Along parameter k, each failed test gives 4 segments (its corner values at the
   two ends of the box, the other parameters fixed at a corner). Where all 4 lie above thr
   (or all below -thr) the slice of the box is empty, so the box is cut down to the part
   between the first and last possible crossings of thr (computed crossings are widened by
   (1 -/+ 16u) and one ulp, which covers their 4 roundings). Near a transversal contact this
   converges like Newton's method; a box that shrinks by half is evaluated again, otherwise
   it is bisected.

   Search. Bisection is along the parameter along which the test closest to dropping the box
   changes most (or, when that test cannot shrink much, the one along which F changes most),
   among parameters wider than the tolerance; a turning direction that came closest counts too
   (it changes along t and one of u, v). A box is accepted when it is not dropped and all its
   widths are within the tolerance (tolerance * 2^-20 for boxes starting at t = 0, so toi = 0
   means the start is within ms up to round-off), or when all its corner values lie within ms
   (within the error bound when ms = 0). Phase 1 is depth first (a stack, earlier halves in t
   first; for nearly parallel pairs, of two halves in u or v the one whose corners are nearer to
   contact first) until a box is accepted at time best = its t0. Phase 2 takes the remaining
   boxes by increasing t0 from a heap, clips their t1 to best (for nearly parallel pairs it
   splits t first while it is wider than the tolerance: only t0 matters there, and splitting u
   or v would refine a whole sliver of parallel edges touching along a segment), and ends when the
   smallest t0 is >= best (result best) or within the tolerance of it (result that t0), or when a
   box is accepted (result its t0, or the heap's smallest t0 if earlier). Invariant: every point
   with |F|_2 <= ms, t <= tmax, lies in a queued box, the box in hand, or at a time >= best. So the
   result is never later than the first such time, and the same holds for the smallest t0 of all
   unresolved boxes returned when max_iter is reached.

   Work budget. After 2048 boxes (the benchmark queries need at most 71) the tolerance for
   boxes with t0 > 0 doubles every 256 boxes, up to 1, so that degenerate queries (near-misses
   far below tolerance times the size, long slivers of near-contacts) end after about
   2048 + 256 log2(1 / tolerance) boxes (7,200 for 1e-6), plus those at t = 0, with a time
   that is still conservative, at worst earlier. Boxes at t = 0 keep tolerance * 2^-20, so the
   relaxation never returns 0 for primitives apart at t = 0.

   For vertex-face, boxes with u0 + v0 > 1 (computed; rounding cannot push a sum <= 1 above 1)
   are dropped. A swept-AABB test inflated by ms is an exact early out (a computed difference
   of doubles exceeds the double ms only if the exact one does). */
#include "geometry/ccd.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/alloc.h"
#include "geometry/distance.h"

#define CCD_UP (1.0 + 0x1p-49) /* (1 + 16u): rounds a computed positive bound upwards */
#define CCD_EPS_REL 0x1p-47    /* 64u */
#define CCD_EPS_FLOOR 0x1p-1000
#define CCD_COORD_MAX 0x1p1000
#define CCD_ZERO_TOL 0x1p-20
#define CCD_STACK_BOXES 256
#define CCD_BUDGET 2048     /* boxes before the tolerance is relaxed ... */
#define CCD_BUDGET_STEP 256 /* ... doubling every this many boxes */
#define CCD_TURN_SIN2 1e-4  /* turning directions for pairs within about 0.01 rad of parallel */
#define CCD_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CCD_MAX(a, b) ((a) > (b) ? (a) : (b))

enum { CCD_VF = 0, CCD_EE = 1 };
enum { CCD_DROP = 0, CCD_KEEP = 1, CCD_INSIDE = 2 };

typedef struct ccd_query {
  int kind;
  double x0[4][3]; /* vertex positions at t = 0 */
  double d[4][3];  /* fl(x1 - x0) */
  double eps2[3];  /* 2 eps_k, for the direction test */
  double thr[3];   /* axis k drops a box when all corners are > thr or all < -thr */
  double inner[3]; /* a box with all corners in [-inner, inner] is accepted */
  double ms;
  int turn; /* both parameters in use (vertex-face, edge-edge): turning directions allowed */
} ccd_query;

typedef struct ccd_box {
  double t0, t1, u0, u1, v0, v1;
  int depth;
} ccd_box;

ipc_ccd_params ipc_ccd_default_params(void) {
  ipc_ccd_params p;
  p.min_sep = 0.0;
  p.tmax = 1.0;
  p.tolerance = 1e-6;
  p.max_iter = 1000000;
  return p;
}

/* base, A, B at time t (see the top comment) */
static void ccd_terms(const ccd_query *q, double t, double base[3], double A[3], double B[3]) {
  double x[4][3];
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < 3; ++a) x[k][a] = q->x0[k][a] + t * q->d[k][a];
  if (q->kind == CCD_VF) {
    for (int a = 0; a < 3; ++a) {
      base[a] = x[0][a] - x[1][a];
      A[a] = x[1][a] - x[2][a];
      B[a] = x[3][a] - x[1][a];
    }
  } else {
    for (int a = 0; a < 3; ++a) {
      base[a] = x[0][a] - x[2][a];
      A[a] = x[1][a] - x[0][a];
      B[a] = x[3][a] - x[2][a];
    }
  }
}

static void ccd_cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double ccd_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* scales n so that max |n_k| = 1; returns 0 when n is zero or not finite */
static int ccd_normalise(double n[3]) {
  double n0 = fabs(n[0]), n1 = fabs(n[1]), n2 = fabs(n[2]);
  double nmax = CCD_MAX(n0, CCD_MAX(n1, n2));
  if (!(nmax > 0.0) || !(nmax < INFINITY)) return 0;
  double r = 1.0 / nmax;
  for (int a = 0; a < 3; ++a) n[a] *= r;
  return 1;
}

/* candidate separating directions at mid time: the normal A x B and the in-plane normals
   to A and B; for parallel A, B the part of base normal to A, else base. Returns how many
   were written to n (<= 3). c gets the normal of the plane of the pair for the turning
   directions (A x B, or for parallel A, B: A x base), zero when the pair is not within
   CCD_TURN_SIN2 of parallel or there is none. */
static int ccd_directions(const double base[3], const double A[3], const double B[3],
                          double n[3][3], double c[3]) {
  int m = 0;
  ccd_cross(A, B, n[0]);
  double aa = ccd_dot(A, A), bb = ccd_dot(B, B);
  double nn = ccd_dot(n[0], n[0]);
  if (nn > 1e-12 * aa * bb && ccd_normalise(n[0])) {
    if (nn < CCD_TURN_SIN2 * aa * bb) {
      memcpy(c, n[0], sizeof(double) * 3);
    } else {
      c[0] = c[1] = c[2] = 0.0;
    }
    m = 1;
    ccd_cross(n[0], A, n[m]);
    m += ccd_normalise(n[m]);
    ccd_cross(n[0], B, n[m]);
    m += ccd_normalise(n[m]);
    return m;
  }
  double w[3];
  ccd_cross(A, base, w);
  ccd_cross(w, A, n[0]);
  if (ccd_normalise(w)) {
    memcpy(c, w, sizeof(double) * 3);
  } else {
    c[0] = c[1] = c[2] = 0.0;
  }
  if (!(ccd_dot(n[0], n[0]) > 1e-12 * aa * aa * ccd_dot(base, base)))
    memcpy(n[0], base, sizeof(double) * 3);
  return ccd_normalise(n[0]);
}

/* the exclusion tests of a kept box: their corner values and thresholds */
typedef struct ccd_tests {
  int n;        /* tests stored (3 axes + up to 3 directions) */
  int best;     /* the one that came closest to separating */
  int hint;     /* when a turning direction came closer: the parameter to split, else -1 */
  int parallel; /* the pair is nearly parallel (turning directions were tried) */
  double score; /* its (|mid| - threshold) / half-spread */
  double g[6][8];
  double thr[6];
} ccd_tests;

/* 1 when the corner values g separate from [-thr, thr]; otherwise stores the test */
static int ccd_try(const double g[8], double thr, ccd_tests *T) {
  double lo = g[0], hi = g[0];
  for (int i = 1; i < 8; ++i) {
    lo = CCD_MIN(lo, g[i]);
    hi = CCD_MAX(hi, g[i]);
  }
  if (lo > thr || hi < -thr) return 1;
  double score = (fabs(0.5 * (lo + hi)) - thr) / (0.5 * (hi - lo) + 1e-300);
  if (score > T->score) {
    T->score = score;
    T->best = T->n;
    T->hint = -1;
  }
  memcpy(T->g[T->n], g, sizeof T->g[0]);
  T->thr[T->n++] = thr;
  return 0;
}

/* 1 when the direction n (max |n_k| = 1) separates: all n . F_i > T or all < -T, with T
   bounding ms |n| plus the evaluation error (see the top comment) */
static int ccd_separates(const ccd_query *q, const double n[3], double F[8][3], ccd_tests *T) {
  double e = (fabs(n[0]) * q->eps2[0] + fabs(n[1]) * q->eps2[1] + fabs(n[2]) * q->eps2[2]) * CCD_UP;
  double nrm = sqrt(ccd_dot(n, n)) * CCD_UP;
  double thr = (q->ms * nrm + e) * CCD_UP;
  double g[8];
  for (int i = 0; i < 8; ++i) g[i] = ccd_dot(n, F[i]);
  return ccd_try(g, thr, T);
}

/* 1 when the direction that turns with time, W(t) = c x D(t) with D = A or B (parameter k =
   1 or 2 of the box), linear in t between W0 = c x D(t0) and W1 = c x D(t1) as computed,
   separates: on the box, F . W is a bilinear blend of the 4 (u, v) corners' quadratics in t
   with Bernstein coefficients F0 . W0, (F0 . W1 + F1 . W0) / 2, F1 . W1; all 12 must be > T
   or all < -T (see the top comment). D's parameter drops out of F . W (up to rounding),
   which is what drops the thin slivers of nearly parallel pairs. When the test fails and
   came closer to separating than the stored ones, T->hint gets the parameter (t or the
   other of u, v) along which its values change most. */
static int ccd_separates_turning(const ccd_query *q, const double c[3], const double D0[3],
                                 const double D1[3], int k, double F[8][3], ccd_tests *T) {
  double W0[3], W1[3];
  ccd_cross(c, D0, W0);
  ccd_cross(c, D1, W1);
  double mx = 0.0;
  for (int a = 0; a < 3; ++a) mx = CCD_MAX(mx, CCD_MAX(fabs(W0[a]), fabs(W1[a])));
  if (!(mx >= 0x1p-1020) || !(mx < INFINITY)) return 0;
  double r = 1.0 / mx, lo = INFINITY, hi = -INFINITY;
  for (int a = 0; a < 3; ++a) {
    W0[a] *= r;
    W1[a] *= r;
  }
  double g[4][3];
  for (int i = 0; i < 4; ++i) {
    g[i][0] = ccd_dot(F[i], W0);
    g[i][2] = ccd_dot(F[4 + i], W1);
    g[i][1] = 0.5 * (ccd_dot(F[i], W1) + ccd_dot(F[4 + i], W0));
    for (int j = 0; j < 3; ++j) {
      lo = CCD_MIN(lo, g[i][j]);
      hi = CCD_MAX(hi, g[i][j]);
    }
  }
  double e = 0.0;
  for (int a = 0; a < 3; ++a) e += CCD_MAX(fabs(W0[a]), fabs(W1[a])) * q->eps2[a];
  double nrm = sqrt(CCD_MAX(ccd_dot(W0, W0), ccd_dot(W1, W1))) * CCD_UP;
  double thr = (q->ms * nrm + e * CCD_UP) * CCD_UP;
  if (lo > thr || hi < -thr) return 1;
  double score = (fabs(0.5 * (lo + hi)) - thr) / (0.5 * (hi - lo) + 1e-300);
  if (score > T->score) {
    /* corners 2 apart differ in u, 1 apart in v (index 2 ui + vi) */
    int other = k == 1 ? 2 : 1, st = other == 1 ? 2 : 1;
    double dt = 0.0, dp = 0.0;
    for (int i = 0; i < 4; ++i) {
      dt = CCD_MAX(dt, fabs(g[i][2] - g[i][0]));
      if (!(i & st))
        for (int j = 0; j < 3; ++j) dp = CCD_MAX(dp, fabs(g[i + st][j] - g[i][j]));
    }
    T->score = score;
    T->hint = dt >= dp ? 0 : other;
  }
  return 0;
}

/* evaluates F at the 8 corners of b (index 4 ti + 2 ui + vi) and tests exclusion; for a
   kept box, T holds the tests that failed */
static int ccd_box_test(const ccd_query *q, const ccd_box *b, double F[8][3], ccd_tests *T) {
  double base[2][3], A[2][3], B[2][3];
  for (int ti = 0; ti < 2; ++ti) {
    ccd_terms(q, ti ? b->t1 : b->t0, base[ti], A[ti], B[ti]);
    for (int a = 0; a < 3; ++a) {
      double ua0 = b->u0 * A[ti][a], ua1 = b->u1 * A[ti][a];
      double vb0 = b->v0 * B[ti][a], vb1 = b->v1 * B[ti][a];
      double s0 = base[ti][a] + ua0, s1 = base[ti][a] + ua1;
      F[4 * ti + 0][a] = s0 - vb0;
      F[4 * ti + 1][a] = s0 - vb1;
      F[4 * ti + 2][a] = s1 - vb0;
      F[4 * ti + 3][a] = s1 - vb1;
    }
  }
  T->n = 0;
  T->best = -1;
  T->hint = -1;
  T->parallel = 0;
  T->score = -INFINITY;
  int inside = 1;
  for (int a = 0; a < 3; ++a) {
    double g[8];
    for (int i = 0; i < 8; ++i) g[i] = F[i][a];
    if (ccd_try(g, q->thr[a], T)) return CCD_DROP;
    for (int i = 0; i < 8; ++i) {
      if (g[i] < -q->inner[a] || g[i] > q->inner[a]) inside = 0;
    }
  }
  if (inside) return CCD_INSIDE;

  double bm[3], am[3], cm[3], n[3][3];
  for (int a = 0; a < 3; ++a) {
    bm[a] = 0.5 * (base[0][a] + base[1][a]);
    am[a] = 0.5 * (A[0][a] + A[1][a]);
    cm[a] = 0.5 * (B[0][a] + B[1][a]);
  }
  double c[3];
  int m = ccd_directions(bm, am, cm, n, c);
  for (int k = 0; k < m; ++k)
    if (ccd_separates(q, n[k], F, T)) return CCD_DROP;
  if (!q->turn || (c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0)) return CCD_KEEP;
  T->parallel = 1;
  if (ccd_separates_turning(q, c, A[0], A[1], 1, F, T) ||
      ccd_separates_turning(q, c, B[0], B[1], 2, F, T))
    return CCD_DROP;
  /* the offset at the box's centre, made normal to A (resp. B) at every t: along a sliver
     of nearly parallel edges the offset turns, and no fixed plane normal follows it */
  double f[3] = {0.0, 0.0, 0.0}, ca[3], cb[3];
  for (int i = 0; i < 8; ++i)
    for (int a = 0; a < 3; ++a) f[a] += F[i][a];
  ccd_cross(am, f, ca);
  ccd_cross(cm, f, cb);
  if ((ccd_normalise(ca) && ccd_separates_turning(q, ca, A[0], A[1], 1, F, T)) ||
      (ccd_normalise(cb) && ccd_separates_turning(q, cb, B[0], B[1], 2, F, T)))
    return CCD_DROP;
  return CCD_KEEP;
}

/* The queue of boxes: a stack (depth first) until the first box is accepted, then a binary
   heap ordered by t0 (deepest first among equal t0). */
static int ccd_before(const ccd_box *a, const ccd_box *b) {
  return a->t0 < b->t0 || (a->t0 == b->t0 && a->depth > b->depth);
}

typedef struct ccd_queue {
  ccd_box *box;
  size_t n, cap;
  ccd_box *stack; /* caller's buffer; box == stack until it overflows */
  int by_time;
} ccd_queue;

static void ccd_sift_down(ccd_queue *h, size_t i, ccd_box x) {
  size_t n = h->n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && ccd_before(&h->box[c + 1], &h->box[c])) ++c;
    if (!ccd_before(&h->box[c], &x)) break;
    h->box[i] = h->box[c];
    i = c;
  }
  h->box[i] = x;
}

static void ccd_push(ccd_queue *h, const ccd_box *b) {
  if (h->n == h->cap) {
    size_t cap = 2 * h->cap;
    if (h->box == h->stack) {
      ccd_box *nb = IPC_NEW(ccd_box, cap);
      memcpy(nb, h->box, sizeof(ccd_box) * h->n);
      h->box = nb;
    } else {
      h->box = (ccd_box *)ipc_realloc(h->box, sizeof(ccd_box) * cap);
    }
    h->cap = cap;
  }
  size_t i = h->n++;
  if (h->by_time) {
    while (i > 0) {
      size_t p = (i - 1) / 2;
      if (!ccd_before(b, &h->box[p])) break;
      h->box[i] = h->box[p];
      i = p;
    }
  }
  h->box[i] = *b;
}

static ccd_box ccd_pop(ccd_queue *h) {
  if (!h->by_time) return h->box[--h->n];
  ccd_box top = h->box[0];
  --h->n;
  if (h->n > 0) ccd_sift_down(h, 0, h->box[h->n]);
  return top;
}

/* switches from the stack to the time-ordered heap */
static void ccd_queue_by_time(ccd_queue *h) {
  h->by_time = 1;
  for (size_t i = h->n / 2; i-- > 0;) ccd_sift_down(h, i, h->box[i]);
}

/* largest change of the values g along parameter k (corner stride) over the box */
static double ccd_change(const double *g, int gstride, int stride) {
  double change = 0.0;
  for (int i = 0; i < 8; ++i) {
    if (i & stride) continue;
    double c = fabs(g[(i + stride) * gstride] - g[i * gstride]);
    change = CCD_MAX(change, c);
  }
  return change;
}

/* lowest fraction of the box along stride st where the segments of g may reach thr from
   above (see the top comment, "Narrowing"), never above the exact one */
static double ccd_cross_low(const double *g, int st, double sign, double thr) {
  double s = 1.0;
  for (int i = 0; i < 8; ++i) {
    if (i & st) continue;
    double a = sign * g[i], b = sign * g[i + st];
    if (b <= thr) s = CCD_MIN(s, (a - thr) / (a - b));
  }
  return s * (1.0 - 0x1p-49);
}

/* highest such fraction, never below the exact one */
static double ccd_cross_high(const double *g, int st, double sign, double thr) {
  double s = 0.0;
  for (int i = 0; i < 8; ++i) {
    if (i & st) continue;
    double a = sign * g[i], b = sign * g[i + st];
    if (a <= thr) s = CCD_MAX(s, (thr - a) / (b - a));
  }
  return s * (1.0 + 0x1p-49);
}

/* the fractions [flo, fhi] of the box along stride st that may hold contacts */
static void ccd_narrow_fraction(const ccd_tests *T, int st, double *flo, double *fhi) {
  for (int k = 0; k < T->n; ++k) {
    const double *g = T->g[k];
    const double thr = T->thr[k];
    double lmin = INFINITY, lmax = -INFINITY, hmin = INFINITY, hmax = -INFINITY;
    for (int i = 0; i < 8; ++i) {
      if (i & st) continue;
      lmin = CCD_MIN(lmin, g[i]);
      lmax = CCD_MAX(lmax, g[i]);
      hmin = CCD_MIN(hmin, g[i + st]);
      hmax = CCD_MAX(hmax, g[i + st]);
    }
    if (lmin > thr) {
      double c = ccd_cross_low(g, st, 1.0, thr);
      *flo = CCD_MAX(*flo, c);
    } else if (lmax < -thr) {
      double c = ccd_cross_low(g, st, -1.0, thr);
      *flo = CCD_MAX(*flo, c);
    }
    if (hmin > thr) {
      double c = ccd_cross_high(g, st, 1.0, thr);
      *fhi = CCD_MIN(*fhi, c);
    } else if (hmax < -thr) {
      double c = ccd_cross_high(g, st, -1.0, thr);
      *fhi = CCD_MIN(*fhi, c);
    }
  }
}

/* narrows the box with the failed tests; returns 0 when nothing is left */
static int ccd_narrow(ccd_box *b, const ccd_tests *T) {
  double *lo[3] = {&b->t0, &b->u0, &b->v0}, *hi[3] = {&b->t1, &b->u1, &b->v1};
  static const int stride[3] = {4, 2, 1};
  for (int k = 0; k < 3; ++k) {
    if (!(*hi[k] > *lo[k])) continue;
    double flo = 0.0, fhi = 1.0;
    ccd_narrow_fraction(T, stride[k], &flo, &fhi);
    if (flo > fhi) return 0;
    double w = *hi[k] - *lo[k], l = *lo[k], h = *hi[k];
    if (flo > 0.0) l = CCD_MAX(*lo[k], nextafter(*lo[k] + flo * w, -INFINITY));
    if (fhi < 1.0) h = CCD_MIN(*hi[k], nextafter(*lo[k] + fhi * w, INFINITY));
    if (l > h) return 0;
    *lo[k] = l;
    *hi[k] = h;
  }
  return 1;
}

/* splits b at the midpoint of one parameter; returns 0 when b is small enough to be accepted.
   The parameter is the one along which the test that came closest to dropping the box
   changes most; when splitting cannot shrink that test's spread much (its change
   comes from parameters already within tolerance), the one along which any coordinate of F
   changes most. Boxes starting at t = 0 use the finer tolerance tol * CCD_ZERO_TOL in all
   parameters. */
static int ccd_split(const ccd_box *b, double F[8][3], const ccd_tests *T, double tol, double tol0,
                     int time_first, ccd_box *c0, ccd_box *c1) {
  double lo[3] = {b->t0, b->u0, b->v0}, hi[3] = {b->t1, b->u1, b->v1};
  static const int stride[3] = {4, 2, 1};
  if (b->t0 == 0.0) tol = tol0;
  int ok[3];
  double mid[3], change[3];
  for (int k = 0; k < 3; ++k) {
    mid[k] = 0.5 * (lo[k] + hi[k]);
    ok[k] = hi[k] - lo[k] > tol && mid[k] > lo[k] && mid[k] < hi[k];
  }
  int best = -1;
  if (time_first && ok[0]) {
    best = 0;
  } else if (T->hint >= 0 && ok[T->hint]) {
    best = T->hint;
  } else if (T->best >= 0) {
    const double *g = T->g[T->best];
    double glo = g[0], ghi = g[0], best_change = 0.0;
    for (int i = 1; i < 8; ++i) {
      glo = CCD_MIN(glo, g[i]);
      ghi = CCD_MAX(ghi, g[i]);
    }
    for (int k = 0; k < 3; ++k) {
      if (!ok[k]) continue;
      change[k] = ccd_change(g, 1, stride[k]);
      if (change[k] > best_change) {
        best_change = change[k];
        best = k;
      }
    }
    if (best_change < 0.25 * (ghi - glo)) best = -1;
  }
  if (best < 0) {
    double best_change = -1.0;
    for (int k = 0; k < 3; ++k) {
      if (!ok[k]) continue;
      double c = 0.0;
      for (int a = 0; a < 3; ++a) c = CCD_MAX(c, ccd_change(&F[0][a], 3, stride[k]));
      if (c > best_change) {
        best_change = c;
        best = k;
      }
    }
  }
  if (best < 0) return 0;
  *c0 = *b;
  *c1 = *b;
  c0->depth = c1->depth = b->depth + 1;
  if (best == 0) {
    c0->t1 = mid[0];
    c1->t0 = mid[0];
  } else if (best == 1) {
    c0->u1 = mid[1];
    c1->u0 = mid[1];
  } else {
    c0->v1 = mid[2];
    c1->v0 = mid[2];
  }
  return 1;
}

/* s[k], e[k]: vertex k at t = 0 and t = 1; vertices [0, na) form the first primitive */
static int ccd_run(int kind, const double *const s[4], const double *const e[4], int na, int use_u,
                   int use_v, const ipc_ccd_params *prm, double *toi) {
  ipc_ccd_params def = ipc_ccd_default_params();
  if (!prm) prm = &def;
  assert(prm->min_sep >= 0.0 && prm->tmax >= 0.0 && prm->tmax <= 1.0 && prm->tolerance >= 0.0);
  const double tmax = prm->tmax, ms = prm->min_sep;
  double result = tmax;
  int hit = 0;

  ccd_query q;
  q.kind = kind;
  q.ms = ms;
  q.turn = use_u && use_v;
  double coord_max = 0.0;
  for (int a = 0; a < 3; ++a) {
    double m = 0.0;
    double loa = INFINITY, hia = -INFINITY, lob = INFINITY, hib = -INFINITY;
    for (int k = 0; k < 4; ++k) {
      double xs = s[k][a], xe = e[k][a];
      if (!(fabs(xs) <= CCD_COORD_MAX) || !(fabs(xe) <= CCD_COORD_MAX)) {
        result = 0.0;
        hit = 1;
        goto done;
      }
      double lo = CCD_MIN(xs, xe), hi = CCD_MAX(xs, xe);
      m = CCD_MAX(m, CCD_MAX(-lo, hi));
      if (k < na) {
        loa = CCD_MIN(loa, lo);
        hia = CCD_MAX(hia, hi);
      } else {
        lob = CCD_MIN(lob, lo);
        hib = CCD_MAX(hib, hi);
      }
      q.x0[k][a] = xs;
      q.d[k][a] = xe - xs;
    }
    if (lob - hia > ms || loa - hib > ms) goto done;
    coord_max = CCD_MAX(coord_max, m);
    double eps = CCD_MAX(m * CCD_EPS_REL, CCD_EPS_FLOOR);
    q.eps2[a] = 2.0 * eps;
    q.thr[a] = (ms + eps) * CCD_UP;
    q.inner[a] = CCD_MAX(ms - eps, eps);
  }

  /* the early out by distance, for every kind of query (distance.h) */
  static const double no_sag[2] = {0.0, 0.0};
  ipc_pair_kind pk = kind == CCD_EE ? IPC_PAIR_EE
                     : use_v        ? IPC_PAIR_PT
                     : use_u        ? IPC_PAIR_PE
                                    : IPC_PAIR_PP;
  if (ipc_pair_stays_apart(pk, (const double(*)[3])q.x0, (const double(*)[3])q.d, tmax, ms, no_sag,
                           coord_max))
    goto done;

  ccd_box stack[CCD_STACK_BOXES];
  ccd_queue h = {stack, 0, CCD_STACK_BOXES, stack, 0};
  ccd_box root = {0.0, tmax, 0.0, use_u ? 1.0 : 0.0, 0.0, use_v ? 1.0 : 0.0, 0};
  ccd_push(&h, &root);
  double tol = prm->tolerance;
  const double tol0 = prm->tolerance * CCD_ZERO_TOL; /* for boxes at t = 0, never relaxed */
  double best = tmax;                                /* t0 of the earliest accepted box (phase 2) */
  long iter = 0;
  while (h.n > 0) {
    ccd_box b = ccd_pop(&h);
    if (h.by_time) {
      /* b has the smallest t0 of all unresolved boxes */
      if (b.t0 >= best) break;
      if (best - b.t0 <= (b.t0 == 0.0 ? tol0 : tol)) {
        best = b.t0;
        break;
      }
      if (b.t1 > best) b.t1 = best;
    }
    if (prm->max_iter > 0 && iter >= prm->max_iter) {
      for (size_t i = 0; i < h.n; ++i) b.t0 = fmin(b.t0, h.box[i].t0);
      best = fmin(best, b.t0);
      hit = 1;
      break;
    }
    ++iter;
    if (iter > CCD_BUDGET && (iter - CCD_BUDGET) % CCD_BUDGET_STEP == 0 && tol < 1.0)
      tol = CCD_MIN(2.0 * tol, 1.0); /* work budget spent: coarser acceptance for t0 > 0 */
    if (kind == CCD_VF && b.u0 + b.v0 > 1.0) continue;
    double F[8][3];
    ccd_tests T;
    int r = ccd_box_test(&q, &b, F, &T);
    if (r == CCD_DROP) continue;
    ccd_box c0, c1;
    int split = 0;
    if (r == CCD_KEEP && ccd_split(&b, F, &T, tol, tol0, h.by_time && T.parallel, &c0, &c1)) {
      ccd_box nb = b;
      if (!ccd_narrow(&nb, &T)) continue;
      if (nb.t1 - nb.t0 < 0.5 * (b.t1 - b.t0) || nb.u1 - nb.u0 < 0.5 * (b.u1 - b.u0) ||
          nb.v1 - nb.v0 < 0.5 * (b.v1 - b.v0)) {
        nb.depth = b.depth + 1;
        ccd_push(&h, &nb); /* evaluated again on the smaller box */
        continue;
      }
      b = nb;
      split = ccd_split(&b, F, &T, tol, tol0, h.by_time && T.parallel, &c0, &c1);
    }
    if (!split) {
      hit = 1;
      best = b.t0;
      if (h.by_time) {
        if (h.n > 0) best = CCD_MIN(best, h.box[0].t0);
        break;
      }
      ccd_queue_by_time(&h);
      continue;
    }
    if (!h.by_time && T.parallel && c0.t1 == b.t1) {
      /* split in u or v: the stack pops first the half whose corners are nearer to contact */
      int st = c0.u1 != b.u1 ? 2 : 1;
      double s0 = 0.0, s1 = 0.0;
      for (int i = 0; i < 8; ++i) {
        double f2 = ccd_dot(F[i], F[i]);
        if (i & st)
          s1 += f2;
        else
          s0 += f2;
      }
      if (s1 < s0) {
        ccd_box tmp = c0;
        c0 = c1;
        c1 = tmp;
      }
    }
    ccd_push(&h, &c1); /* the stack pops c0 (the earlier half in t) first */
    ccd_push(&h, &c0);
  }
  if (hit) result = best;
  if (h.box != stack) ipc_free(h.box);
done:
  if (toi) *toi = result;
  return hit;
}

int ipc_ccd_vf(const double p0[3], const double a0[3], const double b0[3], const double c0[3],
               const double p1[3], const double a1[3], const double b1[3], const double c1[3],
               const ipc_ccd_params *prm, double *toi) {
  const double *s[4] = {p0, a0, b0, c0}, *e[4] = {p1, a1, b1, c1};
  return ccd_run(CCD_VF, s, e, 1, 1, 1, prm, toi);
}

int ipc_ccd_ee(const double a00[3], const double a10[3], const double b00[3], const double b10[3],
               const double a01[3], const double a11[3], const double b01[3], const double b11[3],
               const ipc_ccd_params *prm, double *toi) {
  const double *s[4] = {a00, a10, b00, b10}, *e[4] = {a01, a11, b01, b11};
  return ccd_run(CCD_EE, s, e, 2, 1, 1, prm, toi);
}

int ipc_ccd_ve(const double p0[3], const double e00[3], const double e10[3], const double p1[3],
               const double e01[3], const double e11[3], const ipc_ccd_params *prm, double *toi) {
  const double *s[4] = {p0, e00, e10, e00}, *e[4] = {p1, e01, e11, e01};
  return ccd_run(CCD_VF, s, e, 1, 1, 0, prm, toi);
}

int ipc_ccd_vv(const double p0[3], const double q0[3], const double p1[3], const double q1[3],
               const ipc_ccd_params *prm, double *toi) {
  const double *s[4] = {p0, q0, q0, q0}, *e[4] = {p1, q1, q1, q1};
  return ccd_run(CCD_VF, s, e, 1, 0, 0, prm, toi);
}
