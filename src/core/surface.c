/* collision surface extraction: boundary faces of tet meshes and the unique edge list of a
   triangle/segment surface. both group keys by their smallest vertex (a counting sort over
   vertices) and sort each small group, so the work is O(n log n) at worst and the output
   order depends only on the input */
#include "core/surface.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* faces of a positively oriented tet (a,b,c,d), each listed counter-clockwise seen from
   outside; face k is opposite corner k */
static const int tet_face[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

typedef struct face_key {
  int mid, hi; /* the two larger vertices; the smallest is the bucket */
  int f;       /* 4 * tet + local face */
} face_key;

static int face_key_less(const face_key *x, const face_key *y) {
  if (x->mid != y->mid) return x->mid < y->mid;
  if (x->hi != y->hi) return x->hi < y->hi;
  return x->f < y->f;
}

static int cmp_face_key(const void *a, const void *b) {
  const face_key *x = a, *y = b;
  return face_key_less(x, y) ? -1 : face_key_less(y, x) ? 1 : 0;
}

static void sort_face_keys(face_key *k, int n) {
  if (n > 16) {
    qsort(k, (size_t)n, sizeof *k, cmp_face_key);
    return;
  }
  for (int i = 1; i < n; ++i) {
    face_key v = k[i];
    int j = i - 1;
    for (; j >= 0 && face_key_less(&v, &k[j]); --j) k[j + 1] = k[j];
    k[j + 1] = v;
  }
}

/* 1 when (a,b,c) is an even permutation of its sorted order */
static int even_order(int a, int b, int c) {
  if (a < b && a < c) return b < c;
  if (b < a && b < c) return c < a;
  return a < b;
}

static int min3(int a, int b, int c) {
  int m = a < b ? a : b;
  return m < c ? m : c;
}

int ipc_tets_boundary_checked(const int *tets, int ntets, int nverts, int **tris, int bad[2]) {
  assert(ntets >= 0 && nverts >= 0);
  *tris = NULL;
  size_t nf = 4 * (size_t)ntets;
  int *start = IPC_NEW0(int, (size_t)nverts + 1);
  for (size_t f = 0; f < nf; ++f) {
    const int *t = tets + 4 * (f / 4);
    const int *lf = tet_face[f % 4];
    int lo = min3(t[lf[0]], t[lf[1]], t[lf[2]]);
    assert(lo >= 0 && lo < nverts);
    start[lo + 1]++;
  }
  for (int v = 0; v < nverts; ++v) start[v + 1] += start[v];
  int *fill = IPC_NEW(int, (size_t)nverts);
  memcpy(fill, start, sizeof(int) * (size_t)nverts);
  face_key *keys = IPC_NEW(face_key, nf);
  for (size_t f = 0; f < nf; ++f) {
    const int *t = tets + 4 * (f / 4);
    const int *lf = tet_face[f % 4];
    int a = t[lf[0]], b = t[lf[1]], c = t[lf[2]];
    int lo = min3(a, b, c);
    int hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
    assert(hi < nverts);
    keys[fill[lo]++] = (face_key){a + b + c - lo - hi, hi, (int)f};
  }
  ipc_free(fill);

  unsigned char *boundary = IPC_NEW0(unsigned char, nf);
  int nb = 0, status = 0;
  for (int v = 0; v < nverts && !status; ++v) {
    face_key *k = keys + start[v];
    int n = start[v + 1] - start[v];
    sort_face_keys(k, n);
    for (int i = 0; i < n;) {
      int j = i + 1;
      while (j < n && k[j].mid == k[i].mid && k[j].hi == k[i].hi) ++j;
      if (j - i == 1) {
        boundary[k[i].f] = 1;
        ++nb;
      } else {
        const int *t0 = tets + 4 * (k[i].f / 4), *t1 = tets + 4 * (k[i + 1].f / 4);
        const int *l0 = tet_face[k[i].f % 4], *l1 = tet_face[k[i + 1].f % 4];
        int e0 = even_order(t0[l0[0]], t0[l0[1]], t0[l0[2]]);
        int e1 = even_order(t1[l1[0]], t1[l1[1]], t1[l1[2]]);
        if (j - i > 2 || e0 == e1) {
          status = j - i > 2 ? -1 : -2;
          if (bad) {
            bad[0] = k[i].f / 4;
            bad[1] = k[i + 1].f / 4;
          }
          break;
        }
      }
      i = j;
    }
  }
  ipc_free(keys);
  ipc_free(start);
  if (status) {
    ipc_free(boundary);
    return status;
  }
  int *out = IPC_NEW(int, 3 * (size_t)nb);
  int m = 0;
  for (size_t f = 0; f < nf; ++f) {
    if (!boundary[f]) continue;
    const int *t = tets + 4 * (f / 4);
    const int *lf = tet_face[f % 4];
    for (int c = 0; c < 3; ++c) out[3 * m + c] = t[lf[c]];
    ++m;
  }
  ipc_free(boundary);
  *tris = out;
  return nb;
}

int ipc_tets_boundary(const int *tets, int ntets, int nverts, int **tris) {
  return ipc_tets_boundary_checked(tets, ntets, nverts, tris, NULL);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void sort_ints(int *v, int n) {
  if (n > 16) {
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    return;
  }
  for (int i = 1; i < n; ++i) {
    int x = v[i], j = i - 1;
    for (; j >= 0 && x < v[j]; --j) v[j + 1] = v[j];
    v[j + 1] = x;
  }
}

/* index of edge (a,b), a < b, among edges[estart[a] .. estart[a+1]) sorted by b */
static int find_edge(const int *edges, const int *estart, int a, int b) {
  int lo = estart[a], hi = estart[a + 1];
  while (lo < hi) {
    int c = lo + (hi - lo) / 2;
    if (edges[2 * c + 1] < b)
      lo = c + 1;
    else
      hi = c;
  }
  assert(lo < estart[a + 1] && edges[2 * lo + 1] == b);
  return lo;
}

static ipcc_status check_range(const int *idx, int n, int per, int nverts, const char *what,
                               ipcc_error *err) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < per; ++k) {
      int v = idx[per * i + k];
      if (v < 0 || v >= nverts)
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "surface: %s %d has vertex %d, expected a vertex in [0, %d)", what, i,
                             v, nverts);
      for (int l = 0; l < k; ++l)
        if (idx[per * i + l] == v)
          return ipc_error_set(err, IPCC_ERR_INPUT,
                               "surface: %s %d repeats vertex %d, expected distinct vertices", what,
                               i, v);
    }
  }
  return IPCC_OK;
}

ipcc_status ipc_surface_build(ipc_surface *s, int nverts, const int *faces, int nfaces,
                              const int *segs, int nsegs, const int *points, int npoints,
                              const int *vert_body, const unsigned char *vert_obstacle,
                              ipcc_error *err) {
  assert(nverts >= 0 && nfaces >= 0 && nsegs >= 0 && npoints >= 0);
  memset(s, 0, sizeof *s);
  ipcc_status st = check_range(faces, nfaces, 3, nverts, "face", err);
  if (!st) st = check_range(segs, nsegs, 2, nverts, "segment", err);
  if (!st) st = check_range(points, npoints, 1, nverts, "point", err);
  if (st) return st;

  /* all edge keys (lo, hi), grouped by lo, sorted by hi within a group, then made unique */
  size_t nraw = 3 * (size_t)nfaces + (size_t)nsegs;
  int *start = IPC_NEW0(int, (size_t)nverts + 1);
  for (int f = 0; f < nfaces; ++f)
    for (int k = 0; k < 3; ++k) {
      int a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
      start[(a < b ? a : b) + 1]++;
    }
  for (int e = 0; e < nsegs; ++e) {
    int a = segs[2 * e], b = segs[2 * e + 1];
    start[(a < b ? a : b) + 1]++;
  }
  for (int v = 0; v < nverts; ++v) start[v + 1] += start[v];
  int *fill = IPC_NEW(int, (size_t)nverts + 1);
  memcpy(fill, start, sizeof(int) * ((size_t)nverts + 1));
  int *his = IPC_NEW(int, nraw);
  for (int f = 0; f < nfaces; ++f)
    for (int k = 0; k < 3; ++k) {
      int a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
      int lo = a < b ? a : b;
      his[fill[lo]++] = a < b ? b : a;
    }
  for (int e = 0; e < nsegs; ++e) {
    int a = segs[2 * e], b = segs[2 * e + 1];
    int lo = a < b ? a : b;
    his[fill[lo]++] = a < b ? b : a;
  }
  int ne = 0;
  int *estart = fill; /* reused: estart[v] = first unique edge with lo == v */
  for (int v = 0; v < nverts; ++v) {
    int *h = his + start[v];
    int n = start[v + 1] - start[v];
    sort_ints(h, n);
    estart[v] = ne;
    for (int i = 0; i < n; ++i)
      if (i == 0 || h[i] != h[i - 1]) ++ne;
  }
  estart[nverts] = ne;
  int *edges = IPC_NEW(int, 2 * (size_t)ne);
  for (int v = 0, m = 0; v < nverts; ++v) {
    const int *h = his + start[v];
    int n = start[v + 1] - start[v];
    for (int i = 0; i < n; ++i)
      if (i == 0 || h[i] != h[i - 1]) {
        edges[2 * m] = v;
        edges[2 * m + 1] = h[i];
        ++m;
      }
  }
  ipc_free(his);
  ipc_free(start);

  int *face_edges = IPC_NEW(int, 3 * (size_t)nfaces);
  unsigned char *codim = IPC_NEW(unsigned char, (size_t)ne);
  memset(codim, 1, (size_t)ne);
  for (int f = 0; f < nfaces; ++f)
    for (int k = 0; k < 3; ++k) {
      int a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
      int e = a < b ? find_edge(edges, estart, a, b) : find_edge(edges, estart, b, a);
      face_edges[3 * f + k] = e;
      codim[e] = 0;
    }
  ipc_free(estart);

  unsigned char *on_edge = IPC_NEW0(unsigned char, (size_t)nverts);
  for (int e = 0; e < ne; ++e) on_edge[edges[2 * e]] = on_edge[edges[2 * e + 1]] = 1;
  unsigned char *vert_point = IPC_NEW0(unsigned char, (size_t)nverts);
  for (int i = 0; i < npoints; ++i)
    if (!on_edge[points[i]]) vert_point[points[i]] = 1;
  int nsv = 0;
  for (int v = 0; v < nverts; ++v) nsv += on_edge[v] || vert_point[v];
  int *sv = IPC_NEW(int, (size_t)nsv);
  for (int v = 0, m = 0; v < nverts; ++v)
    if (on_edge[v] || vert_point[v]) sv[m++] = v;
  ipc_free(on_edge);

  s->nverts = nverts;
  s->nfaces = nfaces;
  s->faces = IPC_NEW(int, 3 * (size_t)nfaces);
  if (nfaces) memcpy(s->faces, faces, sizeof(int) * 3 * (size_t)nfaces);
  s->nedges = ne;
  s->edges = edges;
  s->nsv = nsv;
  s->sv = sv;
  s->face_edges = face_edges;
  s->edge_codim = codim;
  s->vert_point = vert_point;
  s->vert_body = IPC_NEW0(int, (size_t)nverts);
  if (vert_body && nverts) memcpy(s->vert_body, vert_body, sizeof(int) * (size_t)nverts);
  s->vert_obstacle = IPC_NEW0(unsigned char, (size_t)nverts);
  if (vert_obstacle && nverts) memcpy(s->vert_obstacle, vert_obstacle, (size_t)nverts);
  static atomic_ullong serials;
  s->serial = atomic_fetch_add(&serials, 1) + 1;
  return IPCC_OK;
}

void ipc_surface_free(ipc_surface *s) {
  if (!s) return;
  ipc_free(s->faces);
  ipc_free(s->edges);
  ipc_free(s->sv);
  ipc_free(s->face_edges);
  ipc_free(s->edge_codim);
  ipc_free(s->vert_point);
  ipc_free(s->vert_body);
  ipc_free(s->vert_obstacle);
  ipc_free(s->vert_rigid);
  memset(s, 0, sizeof *s);
}

double ipc_tet_volume(const double *x, const int t[4]) {
  const double *a = x + 3 * (size_t)t[0], *b = x + 3 * (size_t)t[1], *c = x + 3 * (size_t)t[2],
               *d = x + 3 * (size_t)t[3];
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k) {
    u[k] = b[k] - a[k];
    v[k] = c[k] - a[k];
    w[k] = d[k] - a[k];
  }
  double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
               u[2] * (v[0] * w[1] - v[1] * w[0]);
  return det / 6.0;
}
