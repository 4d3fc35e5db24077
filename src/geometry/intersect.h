/* exact intersection tests between closed primitives (points, segments, triangles), and
   the per-pair surface tests with exact handling of shared vertices. no tolerance: every
   answer is decided by exact orientation signs and coordinate comparisons, so degenerate
   contact (touching at a vertex, along an edge, coplanar or collinear overlap) counts as
   intersecting. inputs must be finite. */
#ifndef IPCC_GEOMETRY_INTERSECT_H
#define IPCC_GEOMETRY_INTERSECT_H

/* which two primitives of the surface intersect */
typedef enum ipc_isect_kind {
  IPC_ISECT_EDGE_FACE,   /* a: edge id, b: face id */
  IPC_ISECT_EDGE_EDGE,   /* a, b: edge ids (codimensional segments) */
  IPC_ISECT_POINT_FACE,  /* a: vertex id, b: face id */
  IPC_ISECT_POINT_EDGE,  /* a: vertex id, b: edge id */
  IPC_ISECT_POINT_POINT, /* a, b: vertex ids */
} ipc_isect_kind;

/* one intersecting pair, named by primitive ids */
typedef struct ipc_intersection {
  ipc_isect_kind kind;
  int a, b;
} ipc_intersection;

/* --- closed sets, by position (1 when they share at least one point, else 0) --- */

/* segment [s0, s1] against triangle (t0, t1, t2); either may be degenerate */
int ipc_segment_triangle_intersect(const double s0[3], const double s1[3], const double t0[3],
                                   const double t1[3], const double t2[3]);

/* segment [a0, a1] against segment [b0, b1] in 3D; either may be degenerate */
int ipc_segment_segment_intersect(const double a0[3], const double a1[3], const double b0[3],
                                  const double b1[3]);

/* point p against triangle (t0, t1, t2); the triangle may be degenerate */
int ipc_point_triangle_intersect(const double p[3], const double t0[3], const double t1[3],
                                 const double t2[3]);

/* point p against segment [s0, s1]; the segment may be degenerate */
int ipc_point_segment_intersect(const double p[3], const double s0[3], const double s1[3]);

/* --- surface primitives by vertex id: x is (n x 3) global positions ---
   a pair that shares vertex ids is tested for intersection away from the shared
   vertices only. ids within one primitive must be distinct. */

/* edge e against face f. no shared vertex: any intersection. one shared vertex v (other
   edge end w): reported iff w is coplanar with f and w - v points into the closed angle of
   f at v (along its sides included); a degenerate (collinear) face counts as the union of
   its sides; w at the position of v is never reported. two shared vertices (e is a side
   of f): never reported. */
int ipc_edge_face_intersects(const int e[2], const int f[3], const double *x);

/* edge e0 against edge e1. no shared vertex: any intersection. one shared vertex v:
   reported iff both edges leave v in the same direction along one line. the same edge
   twice: never reported. meant for codimensional segments (a face edge meeting anything
   is already found by the edge-face tests of its faces). */
int ipc_edge_edge_intersects(const int e0[2], const int e1[2], const double *x);

/* vertex v (an isolated point) against face f; never reported when v is a corner of f */
int ipc_point_face_intersects(int v, const int f[3], const double *x);

/* vertex v against edge e; never reported when v is an end of e */
int ipc_point_edge_intersects(int v, const int e[2], const double *x);

/* vertices v0 and v1 at the same position; never reported when v0 == v1 */
int ipc_point_point_intersects(int v0, int v1, const double *x);

#endif
