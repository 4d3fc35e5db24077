/* surface extraction: tet boundaries (outward, manifold checks, order independence, speed)
   and the edge/vertex lists of ipc_surface_build against brute force; real meshes: IPC's bunny
   (in scenes/meshes), and with a data folder argument (tools/validate.sh) also its armadillo */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/surface.h"
#include "ipcc/mesh.h"
#include "test.h"

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static int rng_below(int n) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  rng_state = x;
  return (int)(x % (uint64_t)n);
}

static double tri_volume(const double *x, const int *t) {
  const double *a = x + 3 * t[0], *b = x + 3 * t[1], *c = x + 3 * t[2];
  return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
          a[2] * (b[0] * c[1] - b[1] * c[0])) /
         6.0;
}

/* an n x n x n grid of unit cubes, each split into 6 positive tets around its main diagonal
   (the Kuhn triangulation, conforming across cells) */
static int grid_tets(int n, double **x, int **tets) {
  int nv = (n + 1) * (n + 1) * (n + 1);
  *x = IPC_NEW(double, 3 * (size_t)nv);
  for (int k = 0, v = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i, ++v) {
        (*x)[3 * v] = i;
        (*x)[3 * v + 1] = j;
        (*x)[3 * v + 2] = k;
      }
  *tets = IPC_NEW(int, 4 * 6 * (size_t)n * n * n);
  /* paths from corner 0 to corner 7 through the cube's vertices, bit 0 = x, 1 = y, 2 = z */
  static const int paths[6][2] = {{1, 3}, {1, 5}, {2, 3}, {2, 6}, {4, 5}, {4, 6}};
  int t = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (int p = 0; p < 6; ++p) {
          int c[4] = {0, paths[p][0], paths[p][1], 7}, id[4];
          for (int q = 0; q < 4; ++q)
            id[q] = (i + (c[q] & 1)) +
                    (n + 1) * ((j + ((c[q] >> 1) & 1)) + (n + 1) * (k + ((c[q] >> 2) & 1)));
          const double *a = *x + 3 * id[0], *b = *x + 3 * id[1], *cc = *x + 3 * id[2],
                       *d = *x + 3 * id[3];
          double u[3], v[3], w[3];
          for (int q = 0; q < 3; ++q) {
            u[q] = b[q] - a[q];
            v[q] = cc[q] - a[q];
            w[q] = d[q] - a[q];
          }
          double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                       u[2] * (v[0] * w[1] - v[1] * w[0]);
          if (det < 0) {
            int s = id[2];
            id[2] = id[3];
            id[3] = s;
          }
          memcpy(*tets + 4 * t++, id, sizeof id);
        }
  return nv;
}

static int cmp_tri(const void *a, const void *b) {
  const int *x = a, *y = b;
  for (int k = 0; k < 3; ++k)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* triangles rotated to start at their smallest vertex, sorted */
static int *canonical(const int *tris, int n) {
  int *c = IPC_NEW(int, 3 * (size_t)n);
  for (int f = 0; f < n; ++f) {
    const int *t = tris + 3 * f;
    int m = t[0] < t[1] ? (t[0] < t[2] ? 0 : 2) : (t[1] < t[2] ? 1 : 2);
    for (int k = 0; k < 3; ++k) c[3 * f + k] = t[(m + k) % 3];
  }
  qsort(c, (size_t)n, 3 * sizeof(int), cmp_tri);
  return c;
}

static void test_single_and_pair(void) {
  static const double x[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1};
  static const int one[4] = {0, 1, 2, 3};
  int *tris = NULL;
  int n = ipc_tets_boundary(one, 1, 4, &tris);
  CHECK(n == 4);
  double vol = 0;
  for (int f = 0; f < n; ++f) vol += tri_volume(x, tris + 3 * f);
  CHECK_NEAR(vol, 1.0 / 6.0, 1e-15);
  /* each face points away from the opposite corner */
  for (int f = 0; f < n; ++f) {
    const double *a = x + 3 * tris[3 * f], *b = x + 3 * tris[3 * f + 1],
                 *c = x + 3 * tris[3 * f + 2];
    int opp = 0 + 1 + 2 + 3 - tris[3 * f] - tris[3 * f + 1] - tris[3 * f + 2];
    double u[3], v[3], nrm[3], d = 0;
    for (int k = 0; k < 3; ++k) u[k] = b[k] - a[k], v[k] = c[k] - a[k];
    nrm[0] = u[1] * v[2] - u[2] * v[1];
    nrm[1] = u[2] * v[0] - u[0] * v[2];
    nrm[2] = u[0] * v[1] - u[1] * v[0];
    for (int k = 0; k < 3; ++k) d += nrm[k] * (x[3 * opp + k] - a[k]);
    CHECK(d < 0);
  }
  ipc_free(tris);

  /* two tets sharing face 0 1 2: that face disappears */
  static const int two[8] = {0, 1, 2, 3, 0, 2, 1, 4};
  n = ipc_tets_boundary(two, 2, 5, &tris);
  CHECK(n == 6);
  vol = 0;
  for (int f = 0; f < n; ++f) {
    const int *t = tris + 3 * f;
    CHECK(t[0] == 3 || t[1] == 3 || t[2] == 3 || t[0] == 4 || t[1] == 4 || t[2] == 4);
    vol += tri_volume(x, t);
  }
  CHECK_NEAR(vol, 1.0 / 3.0, 1e-15);
  ipc_free(tris);

  /* a third tet on the same face: non-manifold; a second tet on the same side: overlap */
  static const int three[12] = {0, 1, 2, 3, 0, 2, 1, 4, 3, 0, 1, 2};
  int bad[2] = {-1, -1};
  n = ipc_tets_boundary_checked(three, 3, 5, &tris, bad);
  CHECK(n == -1 && tris == NULL && bad[0] == 0 && bad[1] == 1);
  static const int same[8] = {0, 1, 2, 3, 1, 2, 0, 4};
  n = ipc_tets_boundary_checked(same, 2, 5, &tris, bad);
  CHECK(n == -2 && tris == NULL && bad[0] == 0 && bad[1] == 1);
  CHECK(ipc_tets_boundary(same, 2, 5, &tris) == -2);

  n = ipc_tets_boundary(one, 0, 4, &tris);
  CHECK(n == 0);
  ipc_free(tris);
}

static void test_grid_boundary(void) {
  double *x;
  int *tets;
  const int g = 4;
  int nv = grid_tets(g, &x, &tets);
  int nt = 6 * g * g * g;
  int *tris = NULL;
  int n = ipc_tets_boundary(tets, nt, nv, &tris);
  CHECK(n == 12 * g * g);
  double vol = 0;
  for (int f = 0; f < n; ++f) vol += tri_volume(x, tris + 3 * f);
  CHECK_NEAR(vol, (double)(g * g * g), 1e-12);
  /* every boundary triangle lies in one face of the box */
  int off = 0;
  for (int f = 0; f < n; ++f) {
    const double *a = x + 3 * tris[3 * f], *b = x + 3 * tris[3 * f + 1],
                 *c = x + 3 * tris[3 * f + 2];
    int on = 0;
    for (int k = 0; k < 3; ++k) on |= a[k] == b[k] && a[k] == c[k] && (a[k] == 0.0 || a[k] == g);
    off += !on;
  }
  CHECK(off == 0);

  /* the same boundary, as a set, after shuffling the tets and rotating each tet's corners
     by an even permutation; the output is identical bit for bit on a repeat */
  int *shuf = IPC_NEW(int, 4 * (size_t)nt);
  memcpy(shuf, tets, sizeof(int) * 4 * (size_t)nt);
  for (int t = nt - 1; t > 0; --t) {
    int s = rng_below(t + 1), tmp[4];
    memcpy(tmp, shuf + 4 * t, sizeof tmp);
    memcpy(shuf + 4 * t, shuf + 4 * s, sizeof tmp);
    memcpy(shuf + 4 * s, tmp, sizeof tmp);
  }
  for (int t = 0; t < nt; ++t) {
    int *q = shuf + 4 * t, r = rng_below(3);
    for (int k = 0; k < r; ++k) { /* (a b c d) -> (a c d b): even */
      int b = q[1];
      q[1] = q[2];
      q[2] = q[3];
      q[3] = b;
    }
  }
  int *tris2 = NULL, *tris3 = NULL;
  int n2 = ipc_tets_boundary(shuf, nt, nv, &tris2);
  int n3 = ipc_tets_boundary(shuf, nt, nv, &tris3);
  CHECK(n2 == n && n3 == n);
  if (n2 == n) {
    int *a = canonical(tris, n), *b = canonical(tris2, n);
    CHECK(!memcmp(a, b, sizeof(int) * 3 * (size_t)n));
    ipc_free(a);
    ipc_free(b);
    CHECK(!memcmp(tris2, tris3, sizeof(int) * 3 * (size_t)n));
  }
  ipc_free(tris);
  ipc_free(tris2);
  ipc_free(tris3);
  ipc_free(shuf);
  ipc_free(x);
  ipc_free(tets);

  /* a large grid: 40^3 cells = 384,000 tets (time printed; speed is benchmarked, not tested) */
  const int big = 40;
  nv = grid_tets(big, &x, &tets);
  double t0 = now_seconds();
  n = ipc_tets_boundary(tets, 6 * big * big * big, nv, &tris);
  double dt = now_seconds() - t0;
  fprintf(stderr, "boundary of %d tets: %.1f ms\n", 6 * big * big * big, 1e3 * dt);
  CHECK(n == 12 * big * big);
  ipc_free(tris);
  ipc_free(x);
  ipc_free(tets);
}

static void test_build_small(void) {
  /* a quad of two faces (0 1 2, 0 2 3), a free segment 4-5, a segment on a face edge 2-0,
     a point 6, a point 1 that lies on a face, and an unused vertex 7 */
  static const int faces[6] = {0, 1, 2, 0, 2, 3};
  static const int segs[4] = {5, 4, 2, 0};
  static const int points[2] = {6, 1};
  static const int body[8] = {0, 0, 0, 0, 1, 1, 2, 3};
  static const unsigned char obst[8] = {0, 0, 0, 0, 1, 1, 0, 1};
  ipc_surface s;
  ipcc_error err;
  ipcc_status st = ipc_surface_build(&s, 8, faces, 2, segs, 2, points, 2, body, obst, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (st) return;
  static const int edges[12] = {0, 1, 0, 2, 0, 3, 1, 2, 2, 3, 4, 5};
  CHECK(s.nedges == 6 && !memcmp(s.edges, edges, sizeof edges));
  static const int fe[6] = {0, 3, 1, 1, 4, 2};
  CHECK(!memcmp(s.face_edges, fe, sizeof fe));
  static const unsigned char codim[6] = {0, 0, 0, 0, 0, 1};
  CHECK(!memcmp(s.edge_codim, codim, sizeof codim));
  static const int sv[7] = {0, 1, 2, 3, 4, 5, 6};
  CHECK(s.nsv == 7 && !memcmp(s.sv, sv, sizeof sv));
  static const unsigned char vp[8] = {0, 0, 0, 0, 0, 0, 1, 0};
  CHECK(!memcmp(s.vert_point, vp, sizeof vp));
  CHECK(!memcmp(s.vert_body, body, sizeof body) && !memcmp(s.vert_obstacle, obst, sizeof obst));
  CHECK(s.nfaces == 2 && !memcmp(s.faces, faces, sizeof faces) && s.nverts == 8);
  ipc_surface_free(&s);
  CHECK(s.edges == NULL && s.nedges == 0);
  ipc_surface_free(NULL);

  /* NULL owners: all zero */
  st = ipc_surface_build(&s, 4, faces, 2, NULL, 0, NULL, 0, NULL, NULL, &err);
  CHECK(st == IPCC_OK && s.nedges == 5);
  int zero = 1;
  for (int v = 0; v < 4; ++v) zero &= s.vert_body[v] == 0 && s.vert_obstacle[v] == 0;
  CHECK(zero);
  ipc_surface_free(&s);

  /* bad indices */
  static const int bad_face[3] = {0, 1, 9};
  st = ipc_surface_build(&s, 8, bad_face, 1, NULL, 0, NULL, 0, NULL, NULL, &err);
  CHECK(st == IPCC_ERR_INPUT && strstr(err.msg, "face 0") && strstr(err.msg, "vertex 9"));
  static const int rep_face[3] = {0, 1, 1};
  st = ipc_surface_build(&s, 8, rep_face, 1, NULL, 0, NULL, 0, NULL, NULL, &err);
  CHECK(st == IPCC_ERR_INPUT && strstr(err.msg, "repeats"));
  static const int bad_seg[2] = {-1, 2};
  st = ipc_surface_build(&s, 8, NULL, 0, bad_seg, 1, NULL, 0, NULL, NULL, &err);
  CHECK(st == IPCC_ERR_INPUT && strstr(err.msg, "segment 0"));
  static const int bad_pt[1] = {8};
  st = ipc_surface_build(&s, 8, NULL, 0, NULL, 0, bad_pt, 1, NULL, NULL, &err);
  CHECK(st == IPCC_ERR_INPUT && strstr(err.msg, "point 0"));
  CHECK(s.edges == NULL);
}

static int cmp_pair(const void *a, const void *b) {
  const int *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* random soups of faces, segments and points against a brute-force reference */
static void test_build_random(void) {
  for (int round = 0; round < 50; ++round) {
    int nv = 3 + rng_below(30), nf = rng_below(40), ns = rng_below(10), np = rng_below(6);
    int *f = IPC_NEW(int, 3 * (size_t)nf + 1), *sg = IPC_NEW(int, 2 * (size_t)ns + 1),
        *pt = IPC_NEW(int, (size_t)np + 1);
    for (int i = 0; i < nf; ++i) {
      int a = rng_below(nv), b, c;
      do b = rng_below(nv);
      while (b == a);
      do c = rng_below(nv);
      while (c == a || c == b);
      f[3 * i] = a, f[3 * i + 1] = b, f[3 * i + 2] = c;
    }
    for (int i = 0; i < ns; ++i) {
      int a = rng_below(nv), b;
      do b = rng_below(nv);
      while (b == a);
      sg[2 * i] = a, sg[2 * i + 1] = b;
    }
    for (int i = 0; i < np; ++i) pt[i] = rng_below(nv);
    ipc_surface s;
    ipcc_error err;
    ipcc_status st = ipc_surface_build(&s, nv, f, nf, sg, ns, pt, np, NULL, NULL, &err);
    CHECK(st == IPCC_OK);
    if (st) continue;

    /* reference: all pairs, sorted, unique */
    int nraw = 3 * nf + ns;
    int *ref = IPC_NEW(int, 2 * (size_t)nraw + 2);
    for (int i = 0; i < nf; ++i)
      for (int k = 0; k < 3; ++k) {
        int a = f[3 * i + k], b = f[3 * i + (k + 1) % 3];
        ref[2 * (3 * i + k)] = a < b ? a : b;
        ref[2 * (3 * i + k) + 1] = a < b ? b : a;
      }
    for (int i = 0; i < ns; ++i) {
      int a = sg[2 * i], b = sg[2 * i + 1];
      ref[2 * (3 * nf + i)] = a < b ? a : b;
      ref[2 * (3 * nf + i) + 1] = a < b ? b : a;
    }
    qsort(ref, (size_t)nraw, 2 * sizeof(int), cmp_pair);
    int nu = 0;
    for (int i = 0; i < nraw; ++i)
      if (i == 0 || cmp_pair(ref + 2 * i, ref + 2 * (i - 1)) != 0) {
        ref[2 * nu] = ref[2 * i];
        ref[2 * nu + 1] = ref[2 * i + 1];
        ++nu;
      }
    CHECK(s.nedges == nu && !memcmp(s.edges, ref, sizeof(int) * 2 * (size_t)nu));
    int good = 1;
    for (int i = 0; i < nf; ++i)
      for (int k = 0; k < 3; ++k) {
        const int *e = s.edges + 2 * s.face_edges[3 * i + k];
        int a = f[3 * i + k], b = f[3 * i + (k + 1) % 3];
        good &= (e[0] == a && e[1] == b) || (e[0] == b && e[1] == a);
      }
    for (int e = 0; e < s.nedges; ++e) {
      int on_face = 0;
      for (int i = 0; i < 3 * nf; ++i) on_face |= s.face_edges[i] == e;
      good &= s.edge_codim[e] == !on_face;
    }
    int nsv = 0;
    for (int v = 0; v < nv; ++v) {
      int on_edge = 0, listed = 0;
      for (int e = 0; e < 2 * s.nedges; ++e) on_edge |= s.edges[e] == v;
      for (int i = 0; i < np; ++i) listed |= pt[i] == v;
      good &= s.vert_point[v] == (listed && !on_edge);
      if (on_edge || listed) good &= nsv < s.nsv && s.sv[nsv++] == v;
    }
    good &= nsv == s.nsv;
    CHECK(good);
    ipc_free(ref);
    ipc_surface_free(&s);
    ipc_free(f);
    ipc_free(sg);
    ipc_free(pt);
  }
}

/* a real genus-0 mesh: every boundary edge in exactly two faces */
static void test_build_real(const char *path) {
  ipcc_mesh m;
  ipcc_error err;
  ipcc_status st = ipcc_mesh_read(path, &m, &err);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (st) return;
  ipc_surface s;
  double t0 = now_seconds();
  st = ipc_surface_build(&s, m.nverts, m.tris, m.ntris, NULL, 0, NULL, 0, NULL, NULL, &err);
  fprintf(stderr, "%s: surface build (%d faces): %.1f ms\n", path, m.ntris,
          1e3 * (now_seconds() - t0));
  CHECK(st == IPCC_OK);
  if (!st) {
    CHECK(2 * s.nedges == 3 * s.nfaces);
    int *uses = IPC_NEW0(int, (size_t)s.nedges);
    for (int i = 0; i < 3 * s.nfaces; ++i) uses[s.face_edges[i]]++;
    int two = 1, sorted = 1;
    for (int e = 0; e < s.nedges; ++e) {
      two &= uses[e] == 2 && s.edge_codim[e] == 0;
      if (e > 0)
        sorted &= s.edges[2 * e - 2] < s.edges[2 * e] ||
                  (s.edges[2 * e - 2] == s.edges[2 * e] && s.edges[2 * e - 1] < s.edges[2 * e + 1]);
      sorted &= s.edges[2 * e] < s.edges[2 * e + 1];
    }
    CHECK(two && sorted);
    CHECK(s.nsv - s.nedges + s.nfaces == 2);
    ipc_free(uses);
    ipc_surface_free(&s);
  }
  ipcc_mesh_free(&m);
}

/* usage: test_surface [DATA_DIR]: DATA_DIR/ipc-input holds IPC's examples (tools/validate.sh) */
int main(int argc, char **argv) {
  test_single_and_pair();
  test_grid_boundary();
  test_build_small();
  test_build_random();
  test_build_real("scenes/meshes/bunny.msh");
  if (argc > 1) {
    char path[1024];
    snprintf(path, sizeof path, "%s/ipc-input/input/tetMeshes/Armadillo13K.msh", argv[1]);
    test_build_real(path);
  }
  TEST_MAIN_END();
}
