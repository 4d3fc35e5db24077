/* an ipc_surface assembled directly (no surface.c) for the broad-phase test and
   benchmark: unique sorted edges, face edges, codim flags, points, sv */
#ifndef IPCC_TESTS_SURFACE_BY_HAND_H
#define IPCC_TESTS_SURFACE_BY_HAND_H

#include <stdlib.h>
#include <string.h>

#include "core/surface.h"

static int hand_cmp_edge(const void *x, const void *y) {
  const int *a = x, *b = y;
  if (a[0] != b[0]) return (a[0] > b[0]) - (a[0] < b[0]);
  return (a[1] > b[1]) - (a[1] < b[1]);
}

static int hand_find_edge(const int *edges, int nedges, int a, int b) {
  int key[2] = {a < b ? a : b, a < b ? b : a};
  const int *e = bsearch(key, edges, (size_t)nedges, 2 * sizeof(int), hand_cmp_edge);
  return e ? (int)((e - edges) / 2) : -1;
}

/* points must lie on no face or segment; obstacle may be NULL */
static void hand_surface(ipc_surface *s, int nverts, const int *faces, int nfaces, const int *segs,
                         int nsegs, const int *points, int npoints, const unsigned char *obstacle) {
  memset(s, 0, sizeof *s);
  s->nverts = nverts;
  s->nfaces = nfaces;
  s->faces = malloc(sizeof(int) * (3 * (size_t)nfaces + 1));
  if (nfaces > 0) memcpy(s->faces, faces, sizeof(int) * 3 * (size_t)nfaces);
  int *all = malloc(sizeof(int) * (2 * (3 * (size_t)nfaces + (size_t)nsegs) + 1));
  int n = 0;
  for (int f = 0; f < nfaces; ++f)
    for (int k = 0; k < 3; ++k) {
      int a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
      all[2 * n] = a < b ? a : b;
      all[2 * n + 1] = a < b ? b : a;
      ++n;
    }
  for (int e = 0; e < nsegs; ++e) {
    int a = segs[2 * e], b = segs[2 * e + 1];
    all[2 * n] = a < b ? a : b;
    all[2 * n + 1] = a < b ? b : a;
    ++n;
  }
  qsort(all, (size_t)n, 2 * sizeof(int), hand_cmp_edge);
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (m == 0 || hand_cmp_edge(all + 2 * i, all + 2 * (m - 1)) != 0) {
      all[2 * m] = all[2 * i];
      all[2 * m + 1] = all[2 * i + 1];
      ++m;
    }
  s->nedges = m;
  s->edges = all;
  s->face_edges = malloc(sizeof(int) * (3 * (size_t)nfaces + 1));
  s->edge_codim = malloc((size_t)m + 1);
  memset(s->edge_codim, 1, (size_t)m + 1);
  for (int f = 0; f < nfaces; ++f)
    for (int k = 0; k < 3; ++k) {
      int e = hand_find_edge(all, m, faces[3 * f + k], faces[3 * f + (k + 1) % 3]);
      s->face_edges[3 * f + k] = e;
      s->edge_codim[e] = 0;
    }
  s->vert_point = calloc((size_t)nverts + 1, 1);
  for (int i = 0; i < npoints; ++i) s->vert_point[points[i]] = 1;
  unsigned char *on = calloc((size_t)nverts + 1, 1);
  for (int i = 0; i < 2 * m; ++i) on[all[i]] = 1;
  for (int i = 0; i < npoints; ++i) on[points[i]] = 1;
  s->sv = malloc(sizeof(int) * ((size_t)nverts + 1));
  s->nsv = 0;
  for (int v = 0; v < nverts; ++v)
    if (on[v]) s->sv[s->nsv++] = v;
  free(on);
  s->vert_body = calloc((size_t)nverts + 1, sizeof(int));
  s->vert_obstacle = calloc((size_t)nverts + 1, 1);
  if (obstacle) memcpy(s->vert_obstacle, obstacle, (size_t)nverts);
}

static void hand_surface_free(ipc_surface *s) {
  free(s->faces);
  free(s->edges);
  free(s->sv);
  free(s->face_edges);
  free(s->edge_codim);
  free(s->vert_point);
  free(s->vert_body);
  free(s->vert_obstacle);
  memset(s, 0, sizeof *s);
}

#endif
