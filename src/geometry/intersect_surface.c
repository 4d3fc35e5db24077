/* whole-surface exact intersection check: candidate pairs from the box-pair
   search (closed boxes of the exact coordinates, so touching pairs are kept),
   then the exact per-pair tests of intersect.c */
#include "geometry/intersect_surface.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "geometry/broad_phase.h"
#include "linalg/mpi_run.h"

static void prim_box(double *box, const double *x, const int *v, int nv) {
  for (int d = 0; d < 3; ++d) {
    box[d] = INFINITY;
    box[3 + d] = -INFINITY;
  }
  for (int k = 0; k < nv; ++k)
    for (int d = 0; d < 3; ++d) {
      double c = x[3 * (size_t)v[k] + d];
      box[d] = fmin(box[d], c);
      box[3 + d] = fmax(box[3 + d], c);
    }
}

typedef struct check_ctx {
  const ipc_surface *s;
  const double *x;
  int skip_obstacle;
  const int *pts; /* isolated point ids */
  const int *cod; /* codimensional edge ids */
  int kind;
  ipc_intersection *hits;
  size_t max, count;
} check_ctx;

/* 1 for a pair that is not checked: two primitives the scene's body_contact keeps apart
   (they may pass through each other), or, with skip_obstacle, two obstacle primitives */
static int skipped_pair(const check_ctx *c, const int *v, int nv, const int *w, int nw) {
  if (!ipc_surface_pair_touches(c->s, v[0], w[0])) return 1;
  if (!c->skip_obstacle) return 0;
  for (int k = 0; k < nv; ++k)
    if (!c->s->vert_obstacle[v[k]]) return 0;
  for (int k = 0; k < nw; ++k)
    if (!c->s->vert_obstacle[w[k]]) return 0;
  return 1;
}

static void record(check_ctx *c, ipc_isect_kind kind, int a, int b) {
  if (c->hits && c->count < c->max) {
    c->hits[c->count].kind = kind;
    c->hits[c->count].a = a;
    c->hits[c->count].b = b;
  }
  c->count++;
}

/* filters run the exact test and never keep the pair (the hits are recorded instead) */
static int edge_face_filter(int i, int j, void *vctx) {
  check_ctx *c = vctx;
  const int *e = c->s->edges + 2 * (size_t)i, *f = c->s->faces + 3 * (size_t)j;
  if (!skipped_pair(c, e, 2, f, 3) && ipc_edge_face_intersects(e, f, c->x))
    record(c, IPC_ISECT_EDGE_FACE, i, j);
  return 0;
}

static int edge_edge_filter(int i, int j, void *vctx) {
  check_ctx *c = vctx;
  int a = c->cod[i], b = c->cod[j];
  const int *e0 = c->s->edges + 2 * (size_t)a, *e1 = c->s->edges + 2 * (size_t)b;
  if (!skipped_pair(c, e0, 2, e1, 2) && ipc_edge_edge_intersects(e0, e1, c->x))
    record(c, IPC_ISECT_EDGE_EDGE, a, b);
  return 0;
}

static int point_face_filter(int i, int j, void *vctx) {
  check_ctx *c = vctx;
  int v = c->pts[i];
  const int *f = c->s->faces + 3 * (size_t)j;
  if (!skipped_pair(c, &v, 1, f, 3) && ipc_point_face_intersects(v, f, c->x))
    record(c, IPC_ISECT_POINT_FACE, v, j);
  return 0;
}

static int point_edge_filter(int i, int j, void *vctx) {
  check_ctx *c = vctx;
  int v = c->pts[i], e = c->cod[j];
  const int *ev = c->s->edges + 2 * (size_t)e;
  if (!skipped_pair(c, &v, 1, ev, 2) && ipc_point_edge_intersects(v, ev, c->x))
    record(c, IPC_ISECT_POINT_EDGE, v, e);
  return 0;
}

static int point_point_filter(int i, int j, void *vctx) {
  check_ctx *c = vctx;
  int a = c->pts[i], b = c->pts[j];
  if (!skipped_pair(c, &a, 1, &b, 1) && ipc_point_point_intersects(a, b, c->x))
    record(c, IPC_ISECT_POINT_POINT, a, b);
  return 0;
}

size_t ipc_surface_intersections(const ipc_surface *s, const double *x, int skip_obstacle_pairs,
                                 ipc_intersection *hits, size_t max) {
  int ne = s->nedges, nf = s->nfaces;
  double *eb = IPC_NEW(double, 6 * (size_t)ne + 6);
  double *fb = IPC_NEW(double, 6 * (size_t)nf + 6);
  for (int e = 0; e < ne; ++e) prim_box(eb + 6 * (size_t)e, x, s->edges + 2 * (size_t)e, 2);
  for (int f = 0; f < nf; ++f) prim_box(fb + 6 * (size_t)f, x, s->faces + 3 * (size_t)f, 3);
  /* isolated points and codimensional edges */
  int np = 0, nc = 0;
  int *pts = IPC_NEW(int, (size_t)s->nsv + 1), *cod = IPC_NEW(int, (size_t)ne + 1);
  for (int i = 0; i < s->nsv; ++i)
    if (s->vert_point[s->sv[i]]) pts[np++] = s->sv[i];
  for (int e = 0; e < ne; ++e)
    if (s->edge_codim[e]) cod[nc++] = e;
  double *pb = IPC_NEW(double, 6 * (size_t)np + 6), *cb = IPC_NEW(double, 6 * (size_t)nc + 6);
  for (int i = 0; i < np; ++i) prim_box(pb + 6 * (size_t)i, x, &pts[i], 1);
  for (int i = 0; i < nc; ++i)
    memcpy(cb + 6 * (size_t)i, eb + 6 * (size_t)cod[i], 6 * sizeof(double));

  check_ctx c = {s, x, skip_obstacle_pairs, pts, cod, 0, hits, max, 0};
  /* the filters record what they find: every pair is checked here, never split over MPI ranks
     (linalg/mpi_run.h) */
  int split = ipc_mpi_split_scope(0);
  int *pairs = NULL;
  size_t npairs = 0, cap = 0;
  if (ne && nf) ipc_box_pairs(&pairs, &npairs, &cap, eb, ne, fb, nf, edge_face_filter, &c);
  if (nc > 1) ipc_box_pairs(&pairs, &npairs, &cap, cb, nc, NULL, 0, edge_edge_filter, &c);
  if (np && nf) ipc_box_pairs(&pairs, &npairs, &cap, pb, np, fb, nf, point_face_filter, &c);
  if (np && nc) ipc_box_pairs(&pairs, &npairs, &cap, pb, np, cb, nc, point_edge_filter, &c);
  if (np > 1) ipc_box_pairs(&pairs, &npairs, &cap, pb, np, NULL, 0, point_point_filter, &c);
  ipc_mpi_split_scope(split);
  ipc_free(pairs);
  ipc_free(eb);
  ipc_free(fb);
  ipc_free(pb);
  ipc_free(cb);
  ipc_free(pts);
  ipc_free(cod);
  return c.count;
}

int ipc_surface_first_intersection(const ipc_surface *s, const double *x, ipc_intersection *hit) {
  return ipc_surface_intersections(s, x, 1, hit, 1) > 0;
}

void ipc_intersection_describe(char *out, size_t n, const ipc_surface *s,
                               const ipc_intersection *h) {
  const int *E = s->edges, *F = s->faces;
  switch (h->kind) {
    case IPC_ISECT_EDGE_FACE:
      snprintf(out, n, "edge %d (vertices %d, %d) crosses triangle %d (vertices %d, %d, %d)", h->a,
               E[2 * h->a], E[2 * h->a + 1], h->b, F[3 * h->b], F[3 * h->b + 1], F[3 * h->b + 2]);
      break;
    case IPC_ISECT_EDGE_EDGE:
      snprintf(out, n, "segment %d (vertices %d, %d) crosses segment %d (vertices %d, %d)", h->a,
               E[2 * h->a], E[2 * h->a + 1], h->b, E[2 * h->b], E[2 * h->b + 1]);
      break;
    case IPC_ISECT_POINT_FACE:
      snprintf(out, n, "point %d lies on triangle %d (vertices %d, %d, %d)", h->a, h->b,
               F[3 * h->b], F[3 * h->b + 1], F[3 * h->b + 2]);
      break;
    case IPC_ISECT_POINT_EDGE:
      snprintf(out, n, "point %d lies on segment %d (vertices %d, %d)", h->a, h->b, E[2 * h->b],
               E[2 * h->b + 1]);
      break;
    default:
      snprintf(out, n, "points %d and %d coincide", h->a, h->b);
      break;
  }
}
