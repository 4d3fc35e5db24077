/* CCD timing: the benchmark query files (all, by kind, by ground truth) and synthetic
   line-search-like queries (close, mostly non-colliding pairs).
   usage: bench_ccd [QUERY_DIR] [REPS]   (default ../shared/data/ccd-queries 5) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "geometry/ccd.h"
#include "io/ccd_queries.h"

#include "../ccd_query_files.h"

typedef struct bench_set {
  double *x;           /* (8n x 3) */
  unsigned char *kind; /* (n) 1 VF, 2 EE */
  unsigned char *truth;
  size_t n, cap;
} bench_set;

static void set_add(bench_set *s, const double *x, int kind, int truth) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 1024;
    s->x = (double *)ipc_realloc(s->x, sizeof(double) * 24 * s->cap);
    s->kind = (unsigned char *)ipc_realloc(s->kind, s->cap);
    s->truth = (unsigned char *)ipc_realloc(s->truth, s->cap);
  }
  memcpy(s->x + 24 * s->n, x, sizeof(double) * 24);
  s->kind[s->n] = (unsigned char)kind;
  s->truth[s->n] = (unsigned char)truth;
  ++s->n;
}

/* adds the queries of one file to the set (a bench_set *) */
static void load_file(const char *path, void *all) {
  ipc_ccd_queries q;
  ipcc_error err;
  if (ipc_ccd_queries_read(path, IPC_CCD_KIND_FROM_PATH, &q, &err) == IPCC_OK) {
    for (int k = 0; k < q.n; ++k)
      set_add(all, q.x + 24 * (size_t)k, q.kind, q.has_truth ? q.truth[k] : 0);
    ipc_ccd_queries_free(&q);
  } else {
    fprintf(stderr, "%s\n", err.msg);
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink;

/* best of reps: ns per query over the queries selected by (kind, truth); -1 = any */
static double time_set(const bench_set *s, int kind, int truth, int reps, size_t *count,
                       size_t *hits) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  double best = INFINITY;
  for (int r = 0; r < reps; ++r) {
    size_t c = 0, h = 0;
    double acc = 0.0;
    double t0 = now();
    for (size_t i = 0; i < s->n; ++i) {
      if ((kind >= 0 && s->kind[i] != kind) || (truth >= 0 && s->truth[i] != truth)) continue;
      const double *v = s->x + 24 * i;
      double toi;
      int hit =
          s->kind[i] == IPC_CCD_KIND_VF
              ? ipc_ccd_vf(v, v + 3, v + 6, v + 9, v + 12, v + 15, v + 18, v + 21, &prm, &toi)
              : ipc_ccd_ee(v, v + 3, v + 6, v + 9, v + 12, v + 15, v + 18, v + 21, &prm, &toi);
      h += (size_t)hit;
      acc += toi;
      ++c;
    }
    double dt = now() - t0;
    sink = acc;
    if (c > 0 && 1e9 * dt / (double)c < best) best = 1e9 * dt / (double)c;
    *count = c;
    *hits = h;
  }
  return best;
}

static uint64_t rng = 0x243f6a8885a308d3ull;
static double rnd(double lo, double hi) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return lo + (hi - lo) * (double)((rng * 0x2545f4914f6cdd1dull) >> 11) * 0x1p-53;
}

/* line-search-like pairs in a random orientation (so that bounding boxes overlap): a
   unit-size primitive and a second one at distance d in [1e-4, 1e-2] along its normal, every
   vertex moving by up to 0.3 d along the normal and 1e-2 sideways; none collide */
static void synth(bench_set *s, int kind, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    double e[3][3]; /* random orthonormal frame: e[2] is the normal */
    for (;;) {
      double r[3] = {rnd(-1, 1), rnd(-1, 1), rnd(-1, 1)};
      double l = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
      if (l < 0.1 || l > 1) continue;
      for (int a = 0; a < 3; ++a) e[2][a] = r[a] / l;
      break;
    }
    double h[3] = {fabs(e[2][0]) < 0.9 ? 1.0 : 0.0, fabs(e[2][0]) < 0.9 ? 0.0 : 1.0, 0.0};
    e[0][0] = h[1] * e[2][2] - h[2] * e[2][1];
    e[0][1] = h[2] * e[2][0] - h[0] * e[2][2];
    e[0][2] = h[0] * e[2][1] - h[1] * e[2][0];
    double l0 = sqrt(e[0][0] * e[0][0] + e[0][1] * e[0][1] + e[0][2] * e[0][2]);
    for (int a = 0; a < 3; ++a) e[0][a] /= l0;
    e[1][0] = e[2][1] * e[0][2] - e[2][2] * e[0][1];
    e[1][1] = e[2][2] * e[0][0] - e[2][0] * e[0][2];
    e[1][2] = e[2][0] * e[0][1] - e[2][1] * e[0][0];
    double d = 1e-4 * pow(100.0, rnd(0, 1));
    double local[8][3];
    if (kind == IPC_CCD_KIND_VF) {
      double loc[4][3] = {{rnd(-0.2, 1.0), rnd(-0.2, 1.0), d}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
      memcpy(local, loc, sizeof loc);
    } else {
      double loc[4][3] = {{rnd(-1, 0), rnd(-0.2, 0.2), d},
                          {rnd(0, 1), rnd(-0.2, 0.2), d},
                          {rnd(-0.2, 0.2), -1, 0},
                          {rnd(-0.2, 0.2), 1, 0}};
      memcpy(local, loc, sizeof loc);
    }
    for (int k = 0; k < 4; ++k)
      for (int a = 0; a < 3; ++a)
        local[k + 4][a] = local[k][a] + (a == 2 ? rnd(-0.3, 0.3) * d : rnd(-1e-2, 1e-2));
    double x[8][3];
    for (int k = 0; k < 8; ++k)
      for (int a = 0; a < 3; ++a)
        x[k][a] = local[k][0] * e[0][a] + local[k][1] * e[1][a] + local[k][2] * e[2][a];
    set_add(s, &x[0][0], kind, 0);
  }
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/data/ccd-queries";
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  bench_set all = {NULL, NULL, NULL, 0, 0};
  if (ccd_query_files_walk(dir, load_file, &all))
    fprintf(stderr, "bench_ccd: cannot open %s or a folder in it\n", dir);
  printf("set,kind,truth,queries,hits,ns_per_query\n");
  static const char *kname[3] = {"all", "vf", "ee"};
  for (int kind = -1; kind <= 2; ++kind) {
    if (kind == 0) continue;
    for (int truth = -1; truth <= 1; ++truth) {
      size_t c = 0, h = 0;
      double ns = time_set(&all, kind, truth, reps, &c, &h);
      printf("benchmark,%s,%s,%zu,%zu,%.1f\n", kname[kind < 0 ? 0 : kind],
             truth < 0 ? "any"
             : truth   ? "1"
                       : "0",
             c, h, ns);
    }
  }
  bench_set syn = {NULL, NULL, NULL, 0, 0};
  synth(&syn, IPC_CCD_KIND_VF, 20000);
  synth(&syn, IPC_CCD_KIND_EE, 20000);
  for (int kind = 1; kind <= 2; ++kind) {
    size_t c = 0, h = 0;
    double ns = time_set(&syn, kind, -1, reps, &c, &h);
    printf("close_pairs,%s,any,%zu,%zu,%.1f\n", kname[kind], c, h, ns);
  }
  ipc_free(all.x);
  ipc_free(all.kind);
  ipc_free(all.truth);
  ipc_free(syn.x);
  ipc_free(syn.kind);
  ipc_free(syn.truth);
  return 0;
}
