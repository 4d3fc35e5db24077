/* nanoseconds per tet of the batched elastic evaluation (energy; energy + gradient;
   energy + gradient + PSD-projected Hessian) for each material model, on a soup of random
   tets deformed near rest, stretched, compressed and (FCR, StVK) inverted.
   usage: bench_elastic [ntets] [repeats] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "elastic/elasticity.h"

static uint64_t rng_state = 12345;

static double urand(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 100000;
  const int reps = argc > 2 ? atoi(argv[2]) : 5;
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
  printf("%-16s %10s %10s %12s %12s   (ns per tet, best of %d, %d tets)\n", "model", "energy",
         "+gradient", "+hessian", "+projected", reps, n);
  double checksum = 0.0;
  for (int m = 0; m < 3; ++m) {
    const ipc_material_model model = (ipc_material_model)m;
    double best[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    for (int r = 0; r < reps; ++r) {
      double t0 = now();
      checksum += ipc_tets_energy(model, mu, lambda, n, tets, DmInv, vol, x[m]);
      double t1 = now();
      checksum += ipc_tets_derivatives(model, mu, lambda, n, tets, DmInv, vol, x[m], e, g, NULL, 1);
      double t2 = now();
      checksum += ipc_tets_derivatives(model, mu, lambda, n, tets, DmInv, vol, x[m], e, g, H, 0);
      double t3 = now();
      checksum += ipc_tets_derivatives(model, mu, lambda, n, tets, DmInv, vol, x[m], e, g, H, 1);
      double t4 = now();
      const double dt[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
      for (int k = 0; k < 4; ++k) best[k] = fmin(best[k], dt[k]);
      checksum += H[144 * (size_t)(r % n)];
    }
    printf("%-16s %10.1f %10.1f %12.1f %12.1f\n", names[m], 1e9 * best[0] / n, 1e9 * best[1] / n,
           1e9 * best[2] / n, 1e9 * best[3] / n);
  }
  printf("checksum %.6e\n", checksum);
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
