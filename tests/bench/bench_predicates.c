/* timing (process CPU time) of the exact predicates and intersection tests: generic inputs (filter
   path), exactly coplanar inputs with tilted planes (GMP path), and segment-triangle pairs. usage:
   bench_predicates [N] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "geometry/intersect.h"
#include "geometry/predicates.h"

static uint64_t rng_state = 12345;

static double rng_unit(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4000000;
  if (n < 1) n = 1;
  enum { M = 4096 }; /* cases, cycled through so they stay in cache */
  double *generic = malloc(sizeof(double) * 15 * M);
  double *coplanar = malloc(sizeof(double) * 15 * M);
  for (int i = 0; i < M; ++i) {
    double *g = generic + 15 * i, *c = coplanar + 15 * i;
    for (int j = 0; j < 15; ++j) g[j] = 2 * rng_unit() - 1;
    /* points on the plane z = x + 2 y with dyadic coordinates: exactly coplanar */
    for (int k = 0; k < 5; ++k) {
      double x = (double)(int)(64 * rng_unit()) / 16, y = (double)(int)(64 * rng_unit()) / 16;
      c[3 * k] = x;
      c[3 * k + 1] = y;
      c[3 * k + 2] = x + 2 * y;
    }
  }
  long sink = 0, filtered = 0;
  double t0 = now();
  for (int i = 0; i < n; ++i) {
    const double *g = generic + 15 * (i % M);
    sink += ipc_orient3d(g, g + 3, g + 6, g + 9);
  }
  double t1 = now();
  for (int i = 0; i < n; ++i) {
    const double *g = generic + 15 * (i % M);
    filtered += ipc_orient3d_filter(g, g + 3, g + 6, g + 9) != IPC_ORIENT_UNSURE;
  }
  int ne = n / 10 > 0 ? n / 10 : 1;
  double t2 = now();
  for (int i = 0; i < ne; ++i) {
    const double *c = coplanar + 15 * (i % M);
    sink += ipc_orient3d(c, c + 3, c + 6, c + 9);
  }
  double t3 = now();
  for (int i = 0; i < n; ++i) {
    const double *g = generic + 15 * (i % M);
    sink += ipc_segment_triangle_intersect(g, g + 3, g + 6, g + 9, g + 12);
  }
  double t4 = now();
  for (int i = 0; i < ne; ++i) {
    const double *c = coplanar + 15 * (i % M);
    sink += ipc_segment_triangle_intersect(c, c + 3, c + 6, c + 9, c + 12);
  }
  double t5 = now();
  printf("orient3d generic:            %.1f ns/call (filter decided %ld of %d)\n",
         1e9 * (t1 - t0) / n, filtered, n);
  printf("orient3d exactly coplanar:   %.1f ns/call (GMP)\n", 1e9 * (t3 - t2) / ne);
  printf("segment-triangle generic:    %.1f ns/call\n", 1e9 * (t4 - t3) / n);
  printf("segment-triangle coplanar:   %.1f ns/call\n", 1e9 * (t5 - t4) / ne);
  printf("(checksum %ld)\n", sink);
  free(generic);
  free(coplanar);
  return 0;
}
