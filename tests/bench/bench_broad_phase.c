/* broad-phase benchmark: ms per call and candidates per second, static (dhat)
   and swept (x -> x + p), on synthetic surfaces until the mesh reader lands.
   usage: bench_broad_phase [reps [mesh]]   (the meshes come from bench_load_mesh);
   times are the fastest of reps warm calls, in process CPU time */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/surface.h"
#include "geometry/broad_phase.h"
#include "ipcc/mesh.h"

typedef struct bench_mesh {
  const char *name;
  int nverts, ntris;
  double *x;               /* (nverts x 3) */
  int *tris;               /* (ntris x 3) */
  unsigned char *obstacle; /* (nverts) */
  double diag;             /* bounding-box diagonal of the deforming part; dhat = 1e-3 diag */
} bench_mesh;

/* process CPU time: the machine is shared, so wall time is noisy */
static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void mesh_alloc(bench_mesh *m, const char *name, int nverts, int ntris) {
  m->name = name;
  m->nverts = nverts;
  m->ntris = ntris;
  m->x = malloc(sizeof(double) * 3 * (size_t)nverts);
  m->tris = malloc(sizeof(int) * 3 * (size_t)ntris);
  m->obstacle = calloc((size_t)nverts, 1);
}

/* grid of (nu x nv) vertices starting at vertex base; returns triangles written */
static int grid_tris(int *t, int base, int nu, int nv, int flip) {
  int n = 0;
  for (int i = 0; i < nu - 1; ++i)
    for (int j = 0; j < nv - 1; ++j) {
      int a = base + i * nv + j, b = a + nv, c = b + 1, d = a + 1;
      int q[6] = {a, b, c, a, c, d};
      if (flip) q[1] = c, q[2] = b, q[4] = d, q[5] = c;
      memcpy(t + 3 * n, q, sizeof q);
      n += 2;
    }
  return n;
}

/* k wavy cloth-like sheets of n x n vertices stacked 2 dhat apart over a ground
   plane of two huge obstacle triangles */
static void mesh_stack(bench_mesh *m, int k, int n) {
  int nv = k * n * n + 4, nt = k * 2 * (n - 1) * (n - 1) + 2;
  mesh_alloc(m, "stacked sheets + ground", nv, nt);
  double h = 1.0 / (n - 1), gap = 2e-3 * sqrt(3.0);
  for (int l = 0; l < k; ++l)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double *p = m->x + 3 * (l * n * n + i * n + j);
        p[0] = i * h;
        p[1] = j * h;
        p[2] = 0.02 * sin(7.0 * i * h) * sin(5.0 * j * h) + 0.02 + l * gap;
      }
  const double g[12] = {-100, -100, 0, 100, -100, 0, 100, 100, 0, -100, 100, 0};
  memcpy(m->x + 3 * (nv - 4), g, sizeof g);
  for (int i = 0; i < 4; ++i) m->obstacle[nv - 4 + i] = 1;
  int t = 0;
  for (int l = 0; l < k; ++l) t += grid_tris(m->tris + 3 * t, l * n * n, n, n, 0);
  int ground[6] = {nv - 4, nv - 3, nv - 2, nv - 4, nv - 2, nv - 1};
  memcpy(m->tris + 3 * t, ground, sizeof ground);
}

/* boundary of an (a x b x c)-cell box, a tet-mesh surface like a mat */
static void mesh_box(bench_mesh *m, const char *name, int a, int b, int c, double sx, double sy,
                     double sz) {
  int nv = (a + 1) * (b + 1) * (c + 1);
  int nt = 4 * (a * b + b * c + a * c);
  mesh_alloc(m, name, nv, nt);
  for (int i = 0; i <= a; ++i)
    for (int j = 0; j <= b; ++j)
      for (int k = 0; k <= c; ++k) {
        double *p = m->x + 3 * ((i * (b + 1) + j) * (c + 1) + k);
        p[0] = sx * i / a;
        p[1] = sy * j / b;
        p[2] = sz * k / c;
      }
#define V(i, j, k) (((i) * (b + 1) + (j)) * (c + 1) + (k))
  int t = 0;
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < a; ++i)
      for (int j = 0; j < b; ++j) { /* z faces */
        int k = side ? c : 0,
            q[4] = {V(i, j, k), V(i + 1, j, k), V(i + 1, j + 1, k), V(i, j + 1, k)};
        int tr[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        if (!side) tr[1] = q[2], tr[2] = q[1], tr[4] = q[3], tr[5] = q[2];
        memcpy(m->tris + 3 * t, tr, sizeof tr);
        t += 2;
      }
    for (int j = 0; j < b; ++j)
      for (int k = 0; k < c; ++k) { /* x faces */
        int i = side ? a : 0,
            q[4] = {V(i, j, k), V(i, j + 1, k), V(i, j + 1, k + 1), V(i, j, k + 1)};
        int tr[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        if (!side) tr[1] = q[2], tr[2] = q[1], tr[4] = q[3], tr[5] = q[2];
        memcpy(m->tris + 3 * t, tr, sizeof tr);
        t += 2;
      }
    for (int i = 0; i < a; ++i)
      for (int k = 0; k < c; ++k) { /* y faces */
        int j = side ? b : 0,
            q[4] = {V(i, j, k), V(i, j, k + 1), V(i + 1, j, k + 1), V(i + 1, j, k)};
        int tr[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        if (!side) tr[1] = q[2], tr[2] = q[1], tr[4] = q[3], tr[5] = q[2];
        memcpy(m->tris + 3 * t, tr, sizeof tr);
        t += 2;
      }
  }
#undef V
}

/* random triangle order and vertex numbering, as meshes from files may have */
static void mesh_shuffle(bench_mesh *m) {
  unsigned long long st = 12345;
  int nv = m->nverts;
  for (int i = m->ntris - 1; i > 0; --i) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    int j = (int)((st >> 33) % (unsigned)(i + 1));
    for (int k = 0; k < 3; ++k) {
      int t = m->tris[3 * i + k];
      m->tris[3 * i + k] = m->tris[3 * j + k];
      m->tris[3 * j + k] = t;
    }
  }
  int *perm = malloc(sizeof(int) * (size_t)nv);
  for (int i = 0; i < nv; ++i) perm[i] = i;
  for (int i = nv - 1; i > 0; --i) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    int j = (int)((st >> 33) % (unsigned)(i + 1));
    int t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  double *x = malloc(sizeof(double) * 3 * (size_t)nv);
  unsigned char *o = malloc((size_t)nv);
  for (int i = 0; i < nv; ++i) {
    memcpy(x + 3 * perm[i], m->x + 3 * i, 3 * sizeof(double));
    o[perm[i]] = m->obstacle[i];
  }
  for (int i = 0; i < 3 * m->ntris; ++i) m->tris[i] = perm[m->tris[i]];
  memcpy(m->x, x, sizeof(double) * 3 * (size_t)nv);
  memcpy(m->obstacle, o, (size_t)nv);
  free(perm);
  free(x);
  free(o);
}

/* bounding-box diagonal of the non-obstacle vertices */
static double mesh_diag(const bench_mesh *m) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int v = 0; v < m->nverts; ++v)
    for (int k = 0; k < 3; ++k)
      if (!m->obstacle[v])
        lo[k] = fmin(lo[k], m->x[3 * v + k]), hi[k] = fmax(hi[k], m->x[3 * v + k]);
  return sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
              (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

/* the one function to swap for real meshes (Armadillo13K.msh, mat100x100t40.msh)
   once the mesh reader lands; returns 0 past the last mesh */
/* one of IPC's tet meshes (from the shared data folder beside the checkout): its
   boundary triangles; 0 if the file cannot be read */
static int mesh_ipc(bench_mesh *m, const char *name, const char *path) {
  ipcc_mesh im;
  ipcc_error err;
  if (ipcc_mesh_read(path, &im, &err) != IPCC_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 0;
  }
  m->name = name;
  m->nverts = im.nverts;
  m->ntris = im.ntris;
  m->x = malloc(sizeof(double) * 3 * (size_t)im.nverts);
  memcpy(m->x, im.x, sizeof(double) * 3 * (size_t)im.nverts);
  m->tris = malloc(sizeof(int) * 3 * (size_t)im.ntris);
  memcpy(m->tris, im.tris, sizeof(int) * 3 * (size_t)im.ntris);
  m->obstacle = calloc((size_t)im.nverts, 1);
  ipcc_mesh_free(&im);
  return 1;
}

static int bench_load_mesh(int which, bench_mesh *m) {
  switch (which) {
    case 4:
      if (!mesh_ipc(m, "IPC Armadillo13K.msh (55K tets)",
                    "../shared/data/ipc-input/input/tetMeshes/Armadillo13K.msh"))
        return 0;
      break;
    case 5:
      if (!mesh_ipc(m, "IPC mat100x100t40.msh (59K tets)",
                    "../shared/data/ipc-input/input/tetMeshes/mat100x100t40.msh"))
        return 0;
      break;
    case 0:
      mesh_box(m, "box 100x100x4 cells (mat-like)", 100, 100, 4, 1.0, 1.0, 0.04);
      break;
    case 1:
      mesh_box(m, "box 40x40x40 cells", 40, 40, 40, 1.0, 1.0, 1.0);
      break;
    case 2:
      mesh_stack(m, 4, 112);
      break;
    case 3:
      mesh_stack(m, 4, 112);
      mesh_shuffle(m);
      m->diag = mesh_diag(m);
      memset(m->obstacle, 0, (size_t)m->nverts);
      m->name = "stacked sheets + ground, shuffled ids, ground not an obstacle";
      return 1;
    default:
      return 0;
  }
  m->diag = mesh_diag(m);
  return 1;
}

/* the collision surface of a mesh */
static void bench_surface(ipc_surface *s, const bench_mesh *m) {
  ipcc_error err;
  if (ipc_surface_build(s, m->nverts, m->tris, m->ntris, NULL, 0, NULL, 0, NULL, m->obstacle,
                        &err) != IPCC_OK) {
    fprintf(stderr, "%s\n", err.msg);
    exit(1);
  }
}

static void mesh_free(bench_mesh *m) {
  free(m->x);
  free(m->tris);
  free(m->obstacle);
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* fastest CPU seconds per call over reps warm calls */
static double time_calls(ipc_candidates *c, const ipc_surface *s, const double *x0,
                         const double *x1, double inflation, int reps) {
  double *t = malloc(sizeof(double) * (size_t)reps);
  ipc_broad_phase(c, s, x0, x1, inflation);
  for (int r = 0; r < reps; ++r) {
    double t0 = now_seconds();
    ipc_broad_phase(c, s, x0, x1, inflation);
    t[r] = now_seconds() - t0;
  }
  qsort(t, (size_t)reps, sizeof(double), cmp_double);
  double best = t[0];
  free(t);
  return best;
}

static void report(const char *what, const ipc_candidates *c, double sec) {
  size_t n = c->nvf + c->nee + c->nve + c->nvv;
  printf("  %-28s %8.2f ms  %9zu candidates (vf %zu, ee %zu, ve %zu, vv %zu)  %6.1f M/s\n", what,
         1e3 * sec, n, c->nvf, c->nee, c->nve, c->nvv, 1e-6 * (double)n / sec);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 11;
  if (reps < 1) reps = 1;
  int only = argc > 2 ? atoi(argv[2]) : -1;
  bench_mesh m;
  for (int which = 0; bench_load_mesh(which, &m); ++which) {
    if (only >= 0 && which != only) {
      mesh_free(&m);
      continue;
    }
    ipc_surface s;
    bench_surface(&s, &m);
    double diag = m.diag;
    double dhat = 1e-3 * diag;
    /* a Newton step: smooth displacement of about the mean edge length */
    double elen = 0.0;
    for (int t = 0; t < m.ntris; ++t) {
      const double *a = m.x + 3 * m.tris[3 * t], *b = m.x + 3 * m.tris[3 * t + 1];
      elen += sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
    }
    elen /= m.ntris > 0 ? m.ntris : 1;
    double *x1 = malloc(sizeof(double) * 3 * (size_t)m.nverts);
    for (int v = 0; v < m.nverts; ++v) {
      const double *p = m.x + 3 * v;
      double w = m.obstacle[v] ? 0.0 : elen;
      x1[3 * v] = p[0] + w * 0.5 * sin(3.0 * p[1] / diag + 1.0);
      x1[3 * v + 1] = p[1] + w * 0.5 * cos(4.0 * p[0] / diag);
      x1[3 * v + 2] = p[2] - w * (0.6 + 0.4 * sin(5.0 * (p[0] + p[1]) / diag));
    }
    printf("%s: %d vertices, %d triangles, %d edges, dhat %.3g, step %.3g\n", m.name, s.nsv,
           s.nfaces, s.nedges, dhat, elen);
    ipc_candidates c = {0};
    report("static, inflation dhat", &c, time_calls(&c, &s, m.x, NULL, dhat, reps));
    report("static, inflation 10 dhat", &c, time_calls(&c, &s, m.x, NULL, 10 * dhat, reps));
    report("swept, inflation 0", &c, time_calls(&c, &s, m.x, x1, 0.0, reps));
    report("swept, inflation dhat", &c, time_calls(&c, &s, m.x, x1, dhat, reps));
    ipc_candidates_free(&c);
    free(x1);
    ipc_surface_free(&s);
    mesh_free(&m);
  }
  return 0;
}
