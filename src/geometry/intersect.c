/* exact intersection tests between closed points, segments and triangles.

   Every decision is a sign of ipc_orient3d / ipc_orient2d (exact, see predicates.c) or a
   comparison of input coordinates, so there is no tolerance. The case analysis:
   - a segment meets the plane of a triangle at one point: the segment straddles the plane
     (orient3d of its ends against the triangle not both of one strict sign), and the line
     through it passes the closed triangle iff the three Pluecker-type signs
     orient3d(p, q, a, b), orient3d(p, q, b, c), orient3d(p, q, c, a) are not of mixed
     strict sign (each equals sign(d . n) times the in-plane orientation of the crossing
     point against one side; cf. Segura and Feito 2001, Guigue and Devillers 2003).
   - coplanar configurations are projected onto the coordinate plane in which the
     projected triangle has non-zero exact orientation; such a projection is an affine
     bijection of the common plane, so it preserves incidence exactly.
   - degenerate (collinear) triangles are the union of their three sides.
   - two 2D segments not all collinear meet iff each closed-straddles the other's line;
     collinear point sets meet iff their bounding boxes overlap, since along a line each
     coordinate is either constant or strictly monotone.
   - a segment and a triangle sharing the vertex v meet elsewhere iff the segment's
     direction lies in the tangent cone of the triangle at v, which is the closed angle at
     v for a proper triangle and the union of the rays along its sides for a degenerate
     one. */
#include "geometry/intersect.h"

#include <assert.h>
#include <math.h>

#include "geometry/predicates.h"

static int same_point(const double *p, const double *q) {
  return p[0] == q[0] && p[1] == q[1] && p[2] == q[2];
}

/* closed axis-aligned boxes of the na points a and nb points b (dim coordinates) meet */
static int boxes_overlap(const double *const *a, int na, const double *const *b, int nb, int dim) {
  for (int k = 0; k < dim; ++k) {
    double alo = a[0][k], ahi = a[0][k], blo = b[0][k], bhi = b[0][k];
    for (int i = 1; i < na; ++i) {
      alo = fmin(alo, a[i][k]);
      ahi = fmax(ahi, a[i][k]);
    }
    for (int i = 1; i < nb; ++i) {
      blo = fmin(blo, b[i][k]);
      bhi = fmax(bhi, b[i][k]);
    }
    if (ahi < blo || bhi < alo) return 0;
  }
  return 1;
}

/* p dropped along axis k: (p[k+1], p[k+2]) cyclically, so the 2D orientation equals the
   k-th component of the 3D cross product */
static void project(const double p[3], int k, double out[2]) {
  out[0] = p[(k + 1) % 3];
  out[1] = p[(k + 2) % 3];
}

/* axis k along which the projection of triangle abc keeps a non-zero orientation (the
   largest approximate normal component is tried first), *sign that orientation; -1 when
   a, b, c are collinear */
static int triangle_projection(const double a[3], const double b[3], const double c[3], int *sign) {
  double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  double n[3] = {fabs(u[1] * v[2] - u[2] * v[1]), fabs(u[2] * v[0] - u[0] * v[2]),
                 fabs(u[0] * v[1] - u[1] * v[0])};
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && n[order[j]] > n[order[j - 1]]; --j) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int i = 0; i < 3; ++i) {
    int k = order[i];
    double pa[2], pb[2], pc[2];
    project(a, k, pa);
    project(b, k, pb);
    project(c, k, pc);
    int s = ipc_orient2d(pa, pb, pc);
    if (s != 0) {
      *sign = s;
      return k;
    }
  }
  return -1;
}

/* a, b, c on one line (cross product of b-a and c-a exactly zero) */
static int collinear3(const double a[3], const double b[3], const double c[3]) {
  for (int k = 0; k < 3; ++k) {
    double pa[2], pb[2], pc[2];
    project(a, k, pa);
    project(b, k, pb);
    project(c, k, pc);
    if (ipc_orient2d(pa, pb, pc) != 0) return 0;
  }
  return 1;
}

static int cmp(double s, double t) {
  return (s > t) - (s < t);
}

/* w != v: the ray from v through w contains points of the ray from v through b other
   than v (b - v and w - v are non-zero, parallel and of one direction) */
static int same_ray(const double v[3], const double b[3], const double w[3]) {
  for (int k = 0; k < 3; ++k)
    if (cmp(b[k], v[k]) != cmp(w[k], v[k])) return 0;
  return collinear3(v, b, w);
}

/* 2D: closed triangle abc with orientation s != 0 contains p */
static int point_in_triangle_2d(const double p[2], const double a[2], const double b[2],
                                const double c[2], int s) {
  return s * ipc_orient2d(a, b, p) >= 0 && s * ipc_orient2d(b, c, p) >= 0 &&
         s * ipc_orient2d(c, a, p) >= 0;
}

/* 2D: closed segments [p, q] and [r, s] meet */
static int segments_2d(const double p[2], const double q[2], const double r[2], const double s[2]) {
  const double *pq[2] = {p, q}, *rs[2] = {r, s};
  if (!boxes_overlap(pq, 2, rs, 2, 2)) return 0;
  if (ipc_orient2d(p, q, r) * ipc_orient2d(p, q, s) > 0) return 0;
  if (ipc_orient2d(r, s, p) * ipc_orient2d(r, s, q) > 0) return 0;
  /* not all collinear: each straddles the other's line; all collinear: boxes overlap */
  return 1;
}

/* 2D: closed segment [p, q] meets the closed triangle abc of orientation s != 0 */
static int segment_triangle_2d(const double p[2], const double q[2], const double a[2],
                               const double b[2], const double c[2], int s) {
  return point_in_triangle_2d(p, a, b, c, s) || point_in_triangle_2d(q, a, b, c, s) ||
         segments_2d(p, q, a, b) || segments_2d(p, q, b, c) || segments_2d(p, q, c, a);
}

int ipc_point_segment_intersect(const double p[3], const double s0[3], const double s1[3]) {
  const double *pp[1] = {p}, *ss[2] = {s0, s1};
  if (!boxes_overlap(pp, 1, ss, 2, 3)) return 0;
  return collinear3(s0, s1, p);
}

int ipc_point_triangle_intersect(const double p[3], const double t0[3], const double t1[3],
                                 const double t2[3]) {
  const double *pp[1] = {p}, *tt[3] = {t0, t1, t2};
  if (!boxes_overlap(pp, 1, tt, 3, 3)) return 0;
  if (ipc_orient3d(t0, t1, t2, p) != 0) return 0;
  int s;
  int k = triangle_projection(t0, t1, t2, &s);
  if (k < 0)
    return ipc_point_segment_intersect(p, t0, t1) || ipc_point_segment_intersect(p, t1, t2) ||
           ipc_point_segment_intersect(p, t2, t0);
  double q[2], a[2], b[2], c[2];
  project(p, k, q);
  project(t0, k, a);
  project(t1, k, b);
  project(t2, k, c);
  return point_in_triangle_2d(q, a, b, c, s);
}

int ipc_segment_segment_intersect(const double a0[3], const double a1[3], const double b0[3],
                                  const double b1[3]) {
  const double *aa[2] = {a0, a1}, *bb[2] = {b0, b1};
  if (!boxes_overlap(aa, 2, bb, 2, 3)) return 0;
  if (ipc_orient3d(a0, a1, b0, b1) != 0) return 0;
  /* the four points are coplanar; find a non-collinear triple to fix the projection */
  const double *tri[4][3] = {{a0, a1, b0}, {a0, a1, b1}, {b0, b1, a0}, {b0, b1, a1}};
  for (int i = 0; i < 4; ++i) {
    int s;
    int k = triangle_projection(tri[i][0], tri[i][1], tri[i][2], &s);
    if (k >= 0) {
      double p[2], q[2], r[2], t[2];
      project(a0, k, p);
      project(a1, k, q);
      project(b0, k, r);
      project(b1, k, t);
      return segments_2d(p, q, r, t);
    }
  }
  return 1; /* all four collinear and the boxes overlap */
}

int ipc_segment_triangle_intersect(const double s0[3], const double s1[3], const double t0[3],
                                   const double t1[3], const double t2[3]) {
  const double *ss[2] = {s0, s1}, *tt[3] = {t0, t1, t2};
  if (!boxes_overlap(ss, 2, tt, 3, 3)) return 0;
  int o0 = ipc_orient3d(t0, t1, t2, s0), o1 = ipc_orient3d(t0, t1, t2, s1);
  if (o0 * o1 > 0) return 0;
  if (o0 != 0 || o1 != 0) {
    /* one crossing point (the triangle is proper, the segment not in its plane) */
    int e0 = ipc_orient3d(s0, s1, t0, t1), e1 = ipc_orient3d(s0, s1, t1, t2);
    if (e0 * e1 < 0) return 0;
    int e2 = ipc_orient3d(s0, s1, t2, t0);
    return e0 * e2 >= 0 && e1 * e2 >= 0;
  }
  int s;
  int k = triangle_projection(t0, t1, t2, &s);
  if (k < 0)
    return ipc_segment_segment_intersect(s0, s1, t0, t1) ||
           ipc_segment_segment_intersect(s0, s1, t1, t2) ||
           ipc_segment_segment_intersect(s0, s1, t2, t0);
  double p[2], q[2], a[2], b[2], c[2];
  project(s0, k, p);
  project(s1, k, q);
  project(t0, k, a);
  project(t1, k, b);
  project(t2, k, c);
  return segment_triangle_2d(p, q, a, b, c, s);
}

/* the segment [v, w] meets the closed triangle (v, b, c) at a point other than v */
static int wedge_contains(const double v[3], const double b[3], const double c[3],
                          const double w[3]) {
  if (same_point(v, w)) return 0;
  if (ipc_orient3d(v, b, c, w) != 0) return 0;
  int s;
  int k = triangle_projection(v, b, c, &s);
  if (k < 0) return same_ray(v, b, w) || same_ray(v, c, w);
  double pv[2], pb[2], pc[2], pw[2];
  project(v, k, pv);
  project(b, k, pb);
  project(c, k, pc);
  project(w, k, pw);
  return s * ipc_orient2d(pv, pb, pw) >= 0 && s * ipc_orient2d(pv, pw, pc) >= 0;
}

int ipc_edge_face_intersects(const int e[2], const int f[3], const double *x) {
  assert(e[0] != e[1] && f[0] != f[1] && f[1] != f[2] && f[2] != f[0]);
  int nshared = 0, ie = -1, jf = -1;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      if (e[i] == f[j]) {
        ++nshared;
        ie = i;
        jf = j;
      }
  if (nshared == 0)
    return ipc_segment_triangle_intersect(x + 3 * e[0], x + 3 * e[1], x + 3 * f[0], x + 3 * f[1],
                                          x + 3 * f[2]);
  if (nshared >= 2) return 0;
  return wedge_contains(x + 3 * e[ie], x + 3 * f[(jf + 1) % 3], x + 3 * f[(jf + 2) % 3],
                        x + 3 * e[1 - ie]);
}

int ipc_edge_edge_intersects(const int e0[2], const int e1[2], const double *x) {
  assert(e0[0] != e0[1] && e1[0] != e1[1]);
  int nshared = 0, i0 = -1, i1 = -1;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      if (e0[i] == e1[j]) {
        ++nshared;
        i0 = i;
        i1 = j;
      }
  if (nshared == 0)
    return ipc_segment_segment_intersect(x + 3 * e0[0], x + 3 * e0[1], x + 3 * e1[0],
                                         x + 3 * e1[1]);
  if (nshared >= 2) return 0;
  const double *v = x + 3 * e0[i0], *w0 = x + 3 * e0[1 - i0], *w1 = x + 3 * e1[1 - i1];
  if (same_point(v, w0) || same_point(v, w1)) return 0;
  return same_ray(v, w0, w1);
}

int ipc_point_face_intersects(int v, const int f[3], const double *x) {
  if (v == f[0] || v == f[1] || v == f[2]) return 0;
  return ipc_point_triangle_intersect(x + 3 * v, x + 3 * f[0], x + 3 * f[1], x + 3 * f[2]);
}

int ipc_point_edge_intersects(int v, const int e[2], const double *x) {
  if (v == e[0] || v == e[1]) return 0;
  return ipc_point_segment_intersect(x + 3 * v, x + 3 * e[0], x + 3 * e[1]);
}

int ipc_point_point_intersects(int v0, int v1, const double *x) {
  if (v0 == v1) return 0;
  return same_point(x + 3 * v0, x + 3 * v1);
}
