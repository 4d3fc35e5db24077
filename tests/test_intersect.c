/* exact intersection tests against an independent brute-force GMP reference: the
   parameter polytope of the two closed primitives, searched vertex by vertex in
   rationals. hand-made degenerate cases, one-ulp misses, adjacency rules, and many random
   small-integer configurations full of exact degeneracies. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "geometry/intersect.h"
#include "test.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double rng_unit(void) {
  return (double)(rng_next() >> 11) * 0x1p-53;
}

static int rng_int(int lo, int hi) {
  return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* reference: do the closed hulls of the np points P and the nq points Q (1..3 each) share
   a point (other than *avoid when avoid is not NULL)?
   Points of the hulls are P0 + sum_i y_i (P_i - P0) with y >= 0, sum y <= 1, and the same
   for Q with z. The feasible (y, z) form a bounded polytope: three equality rows
   (P(y) = Q(z)) and the sign rows. A non-empty bounded polytope has a vertex, which solves
   some k linearly independent constraints taken as equalities (k = number of unknowns);
   we try every k-subset in rationals. The intersection is the image of the polytope, the
   hull of the images of its vertices, so it differs from {avoid} iff some vertex maps
   elsewhere. */
static int ref_meet(const double *const *P, int np, const double *const *Q, int nq,
                    const double *avoid) {
  int ny = np - 1, nz = nq - 1, k = ny + nz;
  int nrows = 3 + (ny ? np : 0) + (nz ? nq : 0);
  mpq_t A[8][4], M[3][4], y[3], t, u;
  int is_eq[8];
  mpq_inits(t, u, NULL);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c) mpq_init(A[r][c]);
  for (int r = 0; r < 3; ++r) {
    mpq_init(y[r]);
    for (int c = 0; c < 4; ++c) mpq_init(M[r][c]);
  }
  /* rows: coefficients in columns 0..k-1, right-hand side in column k */
  for (int j = 0; j < 3; ++j) {
    is_eq[j] = 1;
    mpq_set_d(t, P[0][j]);
    for (int i = 0; i < ny; ++i) {
      mpq_set_d(A[j][i], P[i + 1][j]);
      mpq_sub(A[j][i], A[j][i], t);
    }
    mpq_set_d(u, Q[0][j]);
    for (int i = 0; i < nz; ++i) {
      mpq_set_d(A[j][ny + i], Q[i + 1][j]);
      mpq_sub(A[j][ny + i], u, A[j][ny + i]);
    }
    mpq_sub(A[j][k], u, t);
  }
  int r = 3;
  int first[2] = {0, ny}, count[2] = {ny, nz};
  for (int g = 0; g < 2; ++g) {
    if (!count[g]) continue;
    for (int i = 0; i < count[g]; ++i, ++r) {
      is_eq[r] = 0;
      mpq_set_ui(A[r][first[g] + i], 1, 1); /* y_i >= 0 */
    }
    is_eq[r] = 0;
    for (int i = 0; i < count[g]; ++i) mpq_set_si(A[r][first[g] + i], -1, 1);
    mpq_set_si(A[r][k], -1, 1); /* -sum y >= -1 */
    ++r;
  }
  int found = 0;
  for (unsigned mask = 0; mask < (1u << nrows) && !found; ++mask) {
    if (__builtin_popcount(mask) != k) continue;
    int m = 0;
    for (int row = 0; row < nrows; ++row)
      if (mask & (1u << row)) {
        for (int c = 0; c <= k; ++c) mpq_set(M[m][c], A[row][c]);
        ++m;
      }
    /* Gauss-Jordan */
    int singular = 0;
    for (int c = 0; c < k && !singular; ++c) {
      int piv = -1;
      for (int i = c; i < k; ++i)
        if (mpq_sgn(M[i][c]) != 0) {
          piv = i;
          break;
        }
      if (piv < 0) {
        singular = 1;
        break;
      }
      if (piv != c)
        for (int cc = 0; cc <= k; ++cc) mpq_swap(M[piv][cc], M[c][cc]);
      for (int i = 0; i < k; ++i) {
        if (i == c || mpq_sgn(M[i][c]) == 0) continue;
        mpq_div(t, M[i][c], M[c][c]);
        for (int cc = c; cc <= k; ++cc) {
          mpq_mul(u, t, M[c][cc]);
          mpq_sub(M[i][cc], M[i][cc], u);
        }
      }
    }
    if (singular) continue;
    for (int i = 0; i < k; ++i) mpq_div(y[i], M[i][k], M[i][i]);
    int feasible = 1;
    for (int row = 0; row < nrows && feasible; ++row) {
      mpq_set_ui(t, 0, 1);
      for (int i = 0; i < k; ++i) {
        mpq_mul(u, A[row][i], y[i]);
        mpq_add(t, t, u);
      }
      int c = mpq_cmp(t, A[row][k]);
      feasible = is_eq[row] ? c == 0 : c >= 0;
    }
    if (!feasible) continue;
    if (!avoid) {
      found = 1;
      break;
    }
    for (int j = 0; j < 3 && !found; ++j) {
      mpq_set_d(t, P[0][j]);
      for (int i = 0; i < ny; ++i) {
        mpq_set_d(u, P[i + 1][j]);
        mpq_set_d(M[0][0], P[0][j]);
        mpq_sub(u, u, M[0][0]);
        mpq_mul(u, u, y[i]);
        mpq_add(t, t, u);
      }
      mpq_set_d(u, avoid[j]);
      if (!mpq_equal(t, u)) found = 1;
    }
  }
  if (k == 0) {
    found = P[0][0] == Q[0][0] && P[0][1] == Q[0][1] && P[0][2] == Q[0][2];
    if (found && avoid) found = P[0][0] != avoid[0] || P[0][1] != avoid[1] || P[0][2] != avoid[2];
  }
  for (int row = 0; row < 8; ++row)
    for (int c = 0; c < 4; ++c) mpq_clear(A[row][c]);
  for (int row = 0; row < 3; ++row) {
    mpq_clear(y[row]);
    for (int c = 0; c < 4; ++c) mpq_clear(M[row][c]);
  }
  mpq_clears(t, u, NULL);
  return found;
}

static long mismatches = 0;

static void report(const char *what, int got, int ref, const double *const *pts, int n) {
  if (got == ref) return;
  ++mismatches;
  if (mismatches > 10) return;
  fprintf(stderr, "%s: got %d, reference %d\n", what, got, ref);
  for (int i = 0; i < n; ++i)
    fprintf(stderr, "  %.17g %.17g %.17g\n", pts[i][0], pts[i][1], pts[i][2]);
}

/* each wrapper checks the function against the reference and returns the function */
static int seg_tri(const double *s0, const double *s1, const double *t0, const double *t1,
                   const double *t2) {
  const double *s[2] = {s0, s1}, *t[3] = {t0, t1, t2}, *all[5] = {s0, s1, t0, t1, t2};
  int got = ipc_segment_triangle_intersect(s0, s1, t0, t1, t2);
  report("segment-triangle", got, ref_meet(s, 2, t, 3, NULL), all, 5);
  return got;
}

static int seg_seg(const double *a0, const double *a1, const double *b0, const double *b1) {
  const double *a[2] = {a0, a1}, *b[2] = {b0, b1}, *all[4] = {a0, a1, b0, b1};
  int got = ipc_segment_segment_intersect(a0, a1, b0, b1);
  report("segment-segment", got, ref_meet(a, 2, b, 2, NULL), all, 4);
  return got;
}

static int pt_tri(const double *p, const double *t0, const double *t1, const double *t2) {
  const double *pp[1] = {p}, *t[3] = {t0, t1, t2}, *all[4] = {p, t0, t1, t2};
  int got = ipc_point_triangle_intersect(p, t0, t1, t2);
  report("point-triangle", got, ref_meet(pp, 1, t, 3, NULL), all, 4);
  return got;
}

static int pt_seg(const double *p, const double *s0, const double *s1) {
  const double *pp[1] = {p}, *s[2] = {s0, s1}, *all[3] = {p, s0, s1};
  int got = ipc_point_segment_intersect(p, s0, s1);
  report("point-segment", got, ref_meet(pp, 1, s, 2, NULL), all, 3);
  return got;
}

/* surface tests by id: the reference excludes the shared vertex when there is one */
static int edge_face(const int e[2], const int f[3], const double *x) {
  int got = ipc_edge_face_intersects(e, f, x);
  const double *s[2] = {x + 3 * e[0], x + 3 * e[1]};
  const double *t[3] = {x + 3 * f[0], x + 3 * f[1], x + 3 * f[2]};
  const double *all[5] = {s[0], s[1], t[0], t[1], t[2]};
  int shared = -1, nshared = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      if (e[i] == f[j]) shared = e[i], ++nshared;
  int ref = nshared >= 2 ? 0 : ref_meet(s, 2, t, 3, nshared ? x + 3 * shared : NULL);
  report("edge-face", got, ref, all, 5);
  return got;
}

static int edge_edge(const int e0[2], const int e1[2], const double *x) {
  int got = ipc_edge_edge_intersects(e0, e1, x);
  const double *a[2] = {x + 3 * e0[0], x + 3 * e0[1]}, *b[2] = {x + 3 * e1[0], x + 3 * e1[1]};
  const double *all[4] = {a[0], a[1], b[0], b[1]};
  int shared = -1, nshared = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      if (e0[i] == e1[j]) shared = e0[i], ++nshared;
  int ref = nshared >= 2 ? 0 : ref_meet(a, 2, b, 2, nshared ? x + 3 * shared : NULL);
  report("edge-edge", got, ref, all, 4);
  return got;
}

#define V(x, y, z) ((const double[3]){(x), (y), (z)})

static void test_segment_triangle_cases(void) {
  const double *a = V(0, 0, 0), *b = V(1, 0, 0), *c = V(0, 1, 0);
  double above = nextafter(0.0, 1.0), below = -above;
  /* crossing, and missing by one ulp (smallest positive double) */
  CHECK(seg_tri(V(0.25, 0.25, -1), V(0.25, 0.25, 1), a, b, c) == 1);
  CHECK(seg_tri(V(0.25, 0.25, above), V(0.25, 0.25, 1), a, b, c) == 0);
  CHECK(seg_tri(V(0.25, 0.25, -1), V(0.25, 0.25, below), a, b, c) == 0);
  CHECK(seg_tri(V(0.25, 0.25, 0), V(0.25, 0.25, 1), a, b, c) == 1); /* endpoint on face */
  /* through the hypotenuse x + y = 1 exactly, and one ulp outside it */
  CHECK(seg_tri(V(0.5, 0.5, -1), V(0.5, 0.5, 1), a, b, c) == 1);
  CHECK(seg_tri(V(0.5, nextafter(0.5, 1), -1), V(0.5, nextafter(0.5, 1), 1), a, b, c) == 0);
  CHECK(seg_tri(V(0.5, nextafter(0.5, 0), -1), V(0.5, nextafter(0.5, 0), 1), a, b, c) == 1);
  /* oblique through a vertex, and missing it by one ulp */
  CHECK(seg_tri(V(2, -1, -1), V(0, 1, 1), a, b, c) == 1);
  CHECK(seg_tri(V(2, -1, -1), V(0, 1, nextafter(1, 2)), a, b, c) == 0);
  CHECK(seg_tri(V(-1, -1, 1), V(0, 0, 0), a, b, c) == 1); /* ends at the vertex a */
  CHECK(seg_tri(V(-1, -1, 1), V(-0.5, -0.5, 0.5), a, b, c) == 0);
  /* touching an edge: endpoint at the mid-edge, crossing it transversally */
  CHECK(seg_tri(V(0.5, 0, 0), V(0.5, -1, 1), a, b, c) == 1);
  CHECK(seg_tri(V(0.5, 1, -1), V(0.5, -1, 1), a, b, c) == 1);
  CHECK(seg_tri(V(0.5, 1, -1), V(0.5, -1, nextafter(1, 0)), a, b, c) == 0);
  CHECK(seg_tri(V(0.5, 1, nextafter(-1, 0)), V(0.5, -1, 1), a, b, c) == 1); /* enters */
  /* lying in the plane: crossing the triangle, outside, inside, one ulp from the hypotenuse */
  CHECK(seg_tri(V(-1, 0.25, 0), V(2, 0.25, 0), a, b, c) == 1);
  CHECK(seg_tri(V(-1, 2, 0), V(2, 2, 0), a, b, c) == 0);
  CHECK(seg_tri(V(0.1, 0.1, 0), V(0.2, 0.3, 0), a, b, c) == 1);
  CHECK(seg_tri(V(0.6, 0.6, 0), V(2, 2, 0), a, b, c) == 0);
  CHECK(seg_tri(V(1, nextafter(0.0, 1.0), 0), V(nextafter(0.0, 1.0), 1, 0), a, b, c) == 0);
  CHECK(seg_tri(V(2, -1, 0), V(-1, 2, 0), a, b, c) == 1); /* along the hypotenuse line */
  /* collinear with a side: overlapping, touching at the end vertex, disjoint, one ulp gap */
  CHECK(seg_tri(V(0.5, 0, 0), V(2, 0, 0), a, b, c) == 1);
  CHECK(seg_tri(V(1, 0, 0), V(2, 0, 0), a, b, c) == 1);
  CHECK(seg_tri(V(1.5, 0, 0), V(2, 0, 0), a, b, c) == 0);
  CHECK(seg_tri(V(nextafter(1, 2), 0, 0), V(2, 0, 0), a, b, c) == 0);
  CHECK(seg_tri(V(-1, 0, 0), V(2, 0, 0), a, b, c) == 1); /* covers the side */
  /* a tilted triangle with non-representable corners: through a corner, nudged away */
  const double *p = V(0.1, 0.2, 0.3), *q = V(1.7, 0.4, 0.9), *r = V(0.3, 1.9, 0.2);
  CHECK(seg_tri(V(0.1, 0.2, -5), V(0.1, 0.2, 5), p, q, r) == 1);
  CHECK(seg_tri(V(0.1, nextafter(0.2, 0), -5), V(0.1, nextafter(0.2, 0), 5), p, q, r) == 0);
  CHECK(seg_tri(p, q, p, q, r) == 1);                   /* a side */
  seg_tri(V(0.9, 0.3, 0.6), V(1.7, 0.4, 0.9), p, q, r); /* near a side: reference decides */
  /* degenerate segment (a point) and degenerate triangle (collinear corners) */
  CHECK(seg_tri(V(0.25, 0.25, 0), V(0.25, 0.25, 0), a, b, c) == 1);
  CHECK(seg_tri(V(0.25, 0.25, above), V(0.25, 0.25, above), a, b, c) == 0);
  const double *d0 = V(0, 0, 0), *d1 = V(1, 1, 1), *d2 = V(2, 2, 2);
  CHECK(seg_tri(V(2, 0, 1), V(0, 2, 1), d0, d2, d1) == 1);
  CHECK(seg_tri(V(2, 0, 1), V(0, 2, nextafter(1, 2)), d0, d2, d1) == 0);
  CHECK(seg_tri(V(3, 3, 3), V(4, 4, 4), d0, d1, d2) == 0);
  CHECK(seg_tri(V(2, 2, 2), V(4, 4, 4), d0, d1, d2) == 1);
  CHECK(seg_tri(V(0.5, 0.5, 0.5), V(0.5, 0.5, 0.5), d1, d2, d0) == 1);
  CHECK(seg_tri(d1, d1, d1, d1, d1) == 1);
  CHECK(seg_tri(d0, d0, d1, d1, d1) == 0);
}

static void test_segment_segment_cases(void) {
  double tiny = nextafter(0.0, 1.0);
  /* coplanar crossing, skew by one ulp, touching T, parallel, collinear cases */
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 0), V(1, 0, 0), V(0, 1, 0)) == 1);
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 0), V(1, 0, tiny), V(0, 1, tiny)) == 0);
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 1), V(1, 0, 0), V(0, 1, 1)) == 1); /* tilted plane */
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 1), V(1, 0, 0), V(0, 1, nextafter(1, 2))) == 0);
  CHECK(seg_seg(V(0, 0, 0), V(2, 0, 0), V(1, 0, 0), V(1, 1, 0)) == 1);    /* T */
  CHECK(seg_seg(V(0, 0, 0), V(2, 0, 0), V(1, tiny, 0), V(1, 1, 0)) == 0); /* T, gap */
  CHECK(seg_seg(V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(1, 1, 0)) == 0);    /* parallel */
  CHECK(seg_seg(V(0, 0, 0), V(2, 2, 2), V(1, 1, 1), V(3, 3, 3)) == 1);    /* overlap */
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 1), V(1, 1, 1), V(3, 3, 3)) == 1);    /* end to end */
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 1), V(2, 2, 2), V(3, 3, 3)) == 0);    /* disjoint */
  CHECK(seg_seg(V(0, 0, 0), V(1, 1, 1), V(nextafter(1, 2), 1, 1), V(3, 3, 3)) == 0);
  CHECK(seg_seg(V(0, 0, 0), V(0, 0, 4), V(0, 0, 3), V(0, 0, 1)) == 1);     /* nested */
  CHECK(seg_seg(V(0, 0, 0), V(1, 0, 0), V(0, 0, 1), V(0, 1, 1)) == 0);     /* skew */
  CHECK(seg_seg(V(0.5, 0, 0), V(0.5, 0, 0), V(0, 0, 0), V(1, 0, 0)) == 1); /* point on */
  CHECK(seg_seg(V(0.5, 0, 0), V(0.5, 0, 0), V(0.5, 0, 0), V(0.5, 0, 0)) == 1);
  CHECK(seg_seg(V(0.5, 0, 0), V(0.5, 0, 0), V(0.5, tiny, 0), V(0.5, tiny, 0)) == 0);
  /* tilted with inexact coordinates: the reference decides */
  seg_seg(V(0.1, 0.2, 0.3), V(0.7, 1.1, 0.9), V(0.4, 0.65, 0.6), V(0.3, 0.1, 0.7));
}

static void test_point_cases(void) {
  const double *a = V(0, 0, 0), *b = V(1, 0, 0), *c = V(0, 1, 0);
  CHECK(pt_tri(V(0.25, 0.25, 0), a, b, c) == 1);
  CHECK(pt_tri(V(0.25, 0.25, nextafter(0.0, 1.0)), a, b, c) == 0);
  CHECK(pt_tri(V(0.5, 0.5, 0), a, b, c) == 1);
  CHECK(pt_tri(V(0.5, nextafter(0.5, 1), 0), a, b, c) == 0);
  CHECK(pt_tri(V(1, 0, 0), a, b, c) == 1);
  CHECK(pt_tri(V(-1, 0, 0), a, b, c) == 0);
  CHECK(pt_tri(V(1, 1, 1), V(0, 0, 0), V(2, 2, 2), V(3, 3, 3)) == 1); /* degenerate */
  CHECK(pt_tri(V(1, 1, 1), V(0, 0, 0), V(0, 0, 0), V(3, 3, 3)) == 1);
  CHECK(pt_tri(V(1, 1, nextafter(1, 2)), V(0, 0, 0), V(2, 2, 2), V(3, 3, 3)) == 0);
  CHECK(pt_seg(V(1, 2, 3), V(0, 0, 0), V(2, 4, 6)) == 1);
  CHECK(pt_seg(V(1, 2, nextafter(3, 4)), V(0, 0, 0), V(2, 4, 6)) == 0);
  CHECK(pt_seg(V(3, 6, 9), V(0, 0, 0), V(2, 4, 6)) == 0); /* on the line, beyond */
  CHECK(pt_seg(V(0, 0, 0), V(0, 0, 0), V(0, 0, 0)) == 1);
  pt_seg(V(0.4, 0.65, 0.6), V(0.1, 0.2, 0.3), V(0.7, 1.1, 0.9));
  double x[6] = {1, 2, 3, 1, 2, 3};
  CHECK(ipc_point_point_intersects(0, 1, x) == 1);
  CHECK(ipc_point_point_intersects(1, 1, x) == 0);
  x[5] = nextafter(3, 4);
  CHECK(ipc_point_point_intersects(0, 1, x) == 0);
  double y[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0, 0};
  const int f[3] = {0, 1, 2}, e[2] = {0, 1};
  CHECK(ipc_point_face_intersects(3, f, y) == 1);
  CHECK(ipc_point_face_intersects(1, f, y) == 0); /* a corner of the face */
  CHECK(ipc_point_edge_intersects(3, e, y) == 1);
  CHECK(ipc_point_edge_intersects(0, e, y) == 0);
  y[10] = -0x1p-60;
  CHECK(ipc_point_face_intersects(3, f, y) == 0);
  CHECK(ipc_point_edge_intersects(3, e, y) == 0);
}

static void set_vertex(double *x, int i, double a, double b, double c) {
  x[3 * i] = a;
  x[3 * i + 1] = b;
  x[3 * i + 2] = c;
}

static void test_adjacency_cases(void) {
  double x[3 * 6];
  memset(x, 0, sizeof x);
  set_vertex(x, 0, 0, 0, 0);
  set_vertex(x, 1, 1, 0, 0);
  set_vertex(x, 2, 0, 1, 0);
  const int f[3] = {0, 1, 2};
  const int e03[2] = {0, 3}, e30[2] = {3, 0}, e13[2] = {1, 3}, e23[2] = {3, 2};
  /* an edge leaving the shared vertex inside the angle, along a side, outside, off-plane */
  set_vertex(x, 3, 0.3, 0.3, 0);
  CHECK(edge_face(e03, f, x) == 1);
  CHECK(edge_face(e30, f, x) == 1);
  set_vertex(x, 3, 5, 5, 0); /* through and beyond the triangle */
  CHECK(edge_face(e03, f, x) == 1);
  set_vertex(x, 3, 2, 0, 0); /* along the side 0-1, beyond it */
  CHECK(edge_face(e03, f, x) == 1);
  set_vertex(x, 3, -1, 0, 0); /* along the side's line, backwards */
  CHECK(edge_face(e03, f, x) == 0);
  set_vertex(x, 3, -1, -1, 0); /* coplanar, outside the angle */
  CHECK(edge_face(e03, f, x) == 0);
  set_vertex(x, 3, 1, -0x1p-40, 0); /* coplanar, just outside the side */
  CHECK(edge_face(e03, f, x) == 0);
  set_vertex(x, 3, 0.3, 0.3, 1); /* not coplanar */
  CHECK(edge_face(e03, f, x) == 0);
  set_vertex(x, 3, 0.3, 0.3, nextafter(0.0, 1.0));
  CHECK(edge_face(e03, f, x) == 0);
  set_vertex(x, 3, 0, 0, 0); /* degenerate edge at the shared vertex */
  CHECK(edge_face(e03, f, x) == 0);
  /* sharing vertex 1 or 2 instead: the angle at that corner */
  set_vertex(x, 3, 0.5, 0.25, 0);
  CHECK(edge_face(e13, f, x) == 1);
  CHECK(edge_face(e23, f, x) == 1);
  set_vertex(x, 3, 2, 0.25, 0);
  CHECK(edge_face(e13, f, x) == 0);
  CHECK(edge_face(e23, f, x) == 0);
  set_vertex(x, 3, 2, -1, 0); /* on the line of the side 2-1, beyond corner 1 */
  CHECK(edge_face(e13, f, x) == 0);
  CHECK(edge_face(e23, f, x) == 1);
  /* a side of the face is never reported */
  const int e01[2] = {1, 0}, e12[2] = {1, 2};
  CHECK(edge_face(e01, f, x) == 0);
  CHECK(edge_face(e12, f, x) == 0);
  /* two faces on the edge 0-1, folded flat back onto each other vs opened flat */
  const int g[3] = {1, 0, 4};
  const int e04[2] = {0, 4}, e14[2] = {1, 4}, e02[2] = {0, 2}, e21[2] = {2, 1};
  set_vertex(x, 4, 0.5, 0.5, 0); /* folded onto f */
  CHECK(edge_face(e04, f, x) == 1);
  CHECK(edge_face(e14, f, x) == 1); /* along the side 1-2 */
  CHECK(edge_face(e21, g, x) == 1); /* along the side 1-4 */
  CHECK(edge_face(e02, g, x) == 0); /* 0->2 leaves g's angle at 0 */
  set_vertex(x, 4, 0.5, -0.5, 0);   /* opened flat: no overlap */
  CHECK(edge_face(e04, f, x) == 0);
  CHECK(edge_face(e14, f, x) == 0);
  CHECK(edge_face(e21, g, x) == 0);
  CHECK(edge_face(e02, g, x) == 0);
  set_vertex(x, 4, 0.5, 0.5, 0.25); /* folded, not flat */
  CHECK(edge_face(e04, f, x) == 0);
  CHECK(edge_face(e14, f, x) == 0);
  CHECK(edge_face(e21, g, x) == 0);
  /* a degenerate face (corner 2 on the side 0-1) sharing vertex 0 */
  set_vertex(x, 2, 2, 0, 0);
  set_vertex(x, 3, 0.5, 0, 0);
  CHECK(edge_face(e03, f, x) == 1);
  set_vertex(x, 3, -0.5, 0, 0);
  CHECK(edge_face(e03, f, x) == 0);
  set_vertex(x, 3, 0.5, 0.5, 0);
  CHECK(edge_face(e03, f, x) == 0);
  /* codimensional edges sharing a vertex: same direction overlaps, others do not */
  set_vertex(x, 1, 1, 1, 1);
  set_vertex(x, 2, 2, 2, 2);
  const int s01[2] = {0, 1}, s02[2] = {2, 0}, s12[2] = {1, 2};
  CHECK(edge_edge(s01, s02, x) == 1);
  CHECK(edge_edge(s01, s12, x) == 0); /* end to end at the shared vertex 1 */
  CHECK(edge_edge(s01, s01, x) == 0);
  set_vertex(x, 2, -1, -1, -1);
  CHECK(edge_edge(s01, s02, x) == 0);
  set_vertex(x, 2, 2, 2, nextafter(2, 3));
  CHECK(edge_edge(s01, s02, x) == 0);
  set_vertex(x, 2, 0.5, 0.5, 0.5);
  CHECK(edge_edge(s01, s02, x) == 1);
  CHECK(edge_edge(s12, s02, x) == 0); /* share 2: 2->1 and 2->0 point apart */
}

/* a random point with small integer coordinates times 2^scale, or a decimal-like value */
static void random_point(double *p, int range, int scale, int decimal) {
  for (int j = 0; j < 3; ++j) {
    int v = rng_int(0, range);
    p[j] = decimal ? v * 0.1 : ldexp(v, scale);
  }
}

typedef struct tally {
  long yes, no;
} tally;

static void count(tally *t, int r) {
  if (r)
    ++t->yes;
  else
    ++t->no;
}

static void test_random_small_integers(void) {
  tally st = {0, 0}, ss = {0, 0}, pt = {0, 0}, ps = {0, 0}, ef = {0, 0}, ee = {0, 0};
  tally ef1 = {0, 0}, ee1 = {0, 0};
  for (int it = 0; it < 4000; ++it) {
    int range = rng_int(1, 3);
    int mode = rng_int(0, 9);
    int scale = mode == 0   ? rng_int(-1074, -1070)
                : mode == 1 ? rng_int(1000, 1020)
                            : rng_int(-3, 3);
    int decimal = mode == 2;
    double x[3 * 6];
    for (int i = 0; i < 6; ++i) random_point(x + 3 * i, range, scale, decimal);
    if (mode == 3) { /* one coordinate moved by one ulp */
      int i = rng_int(0, 17);
      x[i] = nextafter(x[i], rng_int(0, 1) ? INFINITY : -INFINITY);
    }
    const double *p[6];
    for (int i = 0; i < 6; ++i) p[i] = x + 3 * i;
    count(&st, seg_tri(p[0], p[1], p[2], p[3], p[4]));
    count(&ss, seg_seg(p[0], p[1], p[2], p[3]));
    count(&pt, pt_tri(p[0], p[1], p[2], p[3]));
    count(&ps, pt_seg(p[0], p[1], p[2]));
    /* surface pairs: ids in random order, sharing 0, 1 or 2 vertices */
    int f[3] = {0, 1, 2};
    for (int i = 2; i > 0; --i) {
      int j = rng_int(0, i), t = f[i];
      f[i] = f[j];
      f[j] = t;
    }
    int nshared = rng_int(0, 2);
    int e[2] = {nshared >= 1 ? f[rng_int(0, 2)] : 3, 4};
    if (nshared == 2) e[1] = e[0] == f[0] ? f[1] : f[0];
    if (rng_int(0, 1)) {
      int t = e[0];
      e[0] = e[1];
      e[1] = t;
    }
    int r = edge_face(e, f, x);
    count(nshared == 1 ? &ef1 : &ef, r);
    if (nshared == 2) CHECK(r == 0);
    int e0[2] = {5, rng_int(0, 4)};
    int e1[2] = {rng_int(0, 1) ? 5 : 3, rng_int(0, 4)};
    if (e0[1] == e1[1]) e1[1] = (e1[1] + 1) % 5;
    if (e1[0] == e1[1]) continue;
    int one_shared = e1[0] == 5 || e0[1] == e1[0];
    count(one_shared ? &ee1 : &ee, edge_edge(e0, e1, x));
  }
  CHECK_MSG(mismatches == 0, "%ld mismatches with the reference", mismatches);
  tally *all[8] = {&st, &ss, &pt, &ps, &ef, &ee, &ef1, &ee1};
  for (int i = 0; i < 8; ++i) CHECK(all[i]->yes > 50 && all[i]->no > 50);
  fprintf(stderr,
          "random small-integer cases (intersecting / not): segment-triangle %ld/%ld, "
          "segment-segment %ld/%ld, point-triangle %ld/%ld, point-segment %ld/%ld, edge-face "
          "%ld/%ld (one shared vertex %ld/%ld), edge-edge %ld/%ld (one shared %ld/%ld)\n",
          st.yes, st.no, ss.yes, ss.no, pt.yes, pt.no, ps.yes, ps.no, ef.yes, ef.no, ef1.yes,
          ef1.no, ee.yes, ee.no, ee1.yes, ee1.no);
}

/* generic random positions (no exact degeneracy), near and far pairs */
static void test_random_generic(void) {
  long hits = 0;
  for (int it = 0; it < 3000; ++it) {
    double x[15];
    for (int i = 0; i < 15; ++i) x[i] = 2 * rng_unit() - 1;
    hits += seg_tri(x, x + 3, x + 6, x + 9, x + 12);
    seg_seg(x, x + 3, x + 6, x + 9);
  }
  CHECK_MSG(mismatches == 0, "%ld mismatches with the reference", mismatches);
  CHECK(hits > 100);
}

/* scale invariance by powers of two, down to subnormals and up to 2^1000 */
static void test_scaling(void) {
  int bad = 0;
  for (int it = 0; it < 1000; ++it) {
    double x[15], y[15], z[15];
    for (int i = 0; i < 15; ++i) x[i] = rng_int(-2, 2);
    for (int i = 0; i < 15; ++i) y[i] = ldexp(x[i], -1072), z[i] = ldexp(x[i], 1000);
    int r = ipc_segment_triangle_intersect(x, x + 3, x + 6, x + 9, x + 12);
    if (ipc_segment_triangle_intersect(y, y + 3, y + 6, y + 9, y + 12) != r) ++bad;
    if (ipc_segment_triangle_intersect(z, z + 3, z + 6, z + 9, z + 12) != r) ++bad;
    r = ipc_segment_segment_intersect(x, x + 3, x + 6, x + 9);
    if (ipc_segment_segment_intersect(y, y + 3, y + 6, y + 9) != r) ++bad;
    if (ipc_segment_segment_intersect(z, z + 3, z + 6, z + 9) != r) ++bad;
  }
  CHECK_MSG(bad == 0, "%d scale-dependent answers", bad);
}

int main(void) {
  test_segment_triangle_cases();
  test_segment_segment_cases();
  test_point_cases();
  test_adjacency_cases();
  CHECK_MSG(mismatches == 0, "%ld mismatches with the reference in the hand cases", mismatches);
  test_random_small_integers();
  test_random_generic();
  test_scaling();
  TEST_MAIN_END();
}
