/* nanoseconds per tet of the batched elastic evaluation (energy; energy + gradient;
   energy + gradient + Hessian: exact, analytically projected, LAPACKE-projected 12x12) for
   each material model, on a soup of random
   tets deformed near rest, stretched, compressed and (FCR, StVK) inverted.
   usage: bench_elastic [ntets] [passes] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_RNG_SEED 12345
#include "../random_matrices.h"
#include "core/alloc.h"
#include "elastic/elasticity.h"

enum { CHUNK = 1000 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 100000;
  const int reps = argc > 2 ? atoi(argv[2]) : 3;
  static const double reg[12] = {1, 1, 1, -1, 1, -1, 1, -1, -1, -1, -1, 1};
  int *tets = IPC_NEW(int, 4 * (size_t)n);
  double *X = IPC_NEW(double, 12 * (size_t)n), *x[3];
  double *DmInv = IPC_NEW(double, 9 * (size_t)n), *vol = IPC_NEW(double, n);
  double *e = IPC_NEW(double, n), *g = IPC_NEW(double, 12 * (size_t)n);
  double *H = IPC_NEW(double, 144 * (size_t)n);
  for (int t = 0; t < n; ++t) {
    for (int k = 0; k < 12; ++k) X[12 * t + k] = 0.01 * (reg[k] + 0.2 * urand());
    for (int a = 0; a < 4; ++a) tets[4 * t + a] = 4 * t + a;
  }
  if (ipc_tets_rest(n, tets, X, DmInv, vol) >= 0) {
    fprintf(stderr, "bench_elastic: degenerate rest tet\n");
    return 1;
  }
  /* positions per model: Neo-Hookean states keep J > 0 */
  for (int m = 0; m < 3; ++m) {
    x[m] = IPC_NEW(double, 12 * (size_t)n);
    for (int t = 0; t < n; ++t) {
      const int kind = t % 4;
      const double amp = kind == 0 ? 0.01 : kind == 1 ? 0.3 : 0.15;
      double A[9];
      for (int k = 0; k < 9; ++k) A[k] = (k % 4 == 0 ? 1.0 : 0.0) + amp * urand();
      if (kind == 3) A[8] = m == IPC_NEO_HOOKEAN ? 0.1 : -0.3;
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i)
          x[m][12 * t + 3 * a + i] = A[3 * i] * X[12 * t + 3 * a] +
                                     A[3 * i + 1] * X[12 * t + 3 * a + 1] +
                                     A[3 * i + 2] * X[12 * t + 3 * a + 2];
    }
  }
  double mu, lambda;
  ipc_lame_from_young(1e7, 0.45, &mu, &lambda);
  static const char *names[3] = {"neo_hookean", "fixed_corotated", "stvk"};
  static const char *modes[5] = {"energy", "+gradient", "+hessian", "+projected", "+lapacke-proj"};
  /* the machine may be shared: every pass is timed in chunks; the minimum over chunks and
     the median chunk are reported */
  const int chunk = n < CHUNK ? n : CHUNK, nchunks = n / chunk;
  double *times = IPC_NEW(double, (size_t)nchunks *reps);
  printf("ns per tet, %d tets in chunks of %d, %d passes: min chunk / median chunk\n", n, chunk,
         reps);
  printf("%-16s %18s %18s %18s %18s %18s\n", "model", modes[0], modes[1], modes[2], modes[3],
         modes[4]);
  double checksum = 0.0;
  for (int m = 0; m < 3; ++m) {
    const ipc_material_model model = (ipc_material_model)m;
    printf("%-16s", names[m]);
    for (int mode = 0; mode < 5; ++mode) {
      int nt = 0;
      for (int r = 0; r < reps; ++r)
        for (int c = 0; c < nchunks; ++c) {
          const size_t o = (size_t)c * chunk;
          const double t0 = now();
          if (mode == 0)
            checksum += ipc_tets_energy(model, mu, lambda, chunk, tets + 4 * o, DmInv + 9 * o,
                                        vol + o, x[m]);
          else
            checksum +=
                ipc_tets_derivatives(model, mu, lambda, chunk, tets + 4 * o, DmInv + 9 * o, vol + o,
                                     x[m], e + o, g + 12 * o, mode >= 2 ? H + 144 * o : NULL,
                                     mode == 2   ? IPC_PROJECT_NONE
                                     : mode == 3 ? IPC_PROJECT_ANALYTIC
                                                 : IPC_PROJECT_EIGEN);
          times[nt++] = (now() - t0) / chunk;
        }
      qsort(times, (size_t)nt, sizeof(double), cmp_double);
      printf("   %7.1f / %7.1f", 1e9 * times[0], 1e9 * times[nt / 2]);
      checksum += H[144 * (size_t)(mode % n)];
    }
    printf("\n");
  }
  printf("checksum %.6e\n", checksum);
  ipc_free(times);
  for (int m = 0; m < 3; ++m) ipc_free(x[m]);
  ipc_free(tets);
  ipc_free(X);
  ipc_free(DmInv);
  ipc_free(vol);
  ipc_free(e);
  ipc_free(g);
  ipc_free(H);
  return 0;
}
