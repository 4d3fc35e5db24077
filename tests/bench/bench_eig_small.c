/* microseconds per symmetric eigen-decomposition (eigenvalues and eigenvectors) and per PSD
   projection of n x n matrices, n = 12, 9, 6: the small solver (src/linalg/eig_small.c)
   against LAPACKE dsyevd (ipc_sym_eig, OpenBLAS single-threaded). The batch mimics contact
   barrier Hessians: kappa (b2 g g^T + b1 J^T D J) with b2 from 1e2 to 1e12, b1 < 0 from -1e-6
   to -1e4, J 3 x n and D diagonal in [-1, 1] (rows "barrier"); rows "dense" time random
   symmetric matrices with entries in [-1, 1] (full rank, the QR iteration's worst case).
   usage: bench_eig_small [nmat] [passes] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_RNG_SEED 2024
#include "../random_matrices.h"
#include "core/alloc.h"
#include "linalg/dense.h"
#include "linalg/eig_small.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void barrier_like(int n, int dense, double *H) {
  if (dense) {
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j) H[i * n + j] = H[j * n + i] = urand();
    return;
  }
  double g[12], J[36], D[3];
  for (int i = 0; i < n; ++i) g[i] = urand();
  for (int k = 0; k < 3 * n; ++k) J[k] = urand();
  for (int k = 0; k < 3; ++k) D[k] = urand();
  const double b2 = pow(10.0, 2.0 + 10.0 * (0.5 + 0.5 * urand()));
  const double b1 = -pow(10.0, -6.0 + 10.0 * (0.5 + 0.5 * urand()));
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += J[k * n + i] * D[k] * J[k * n + j];
      H[i * n + j] = H[j * n + i] = b2 * g[i] * g[j] + b1 * s;
    }
}

int main(int argc, char **argv) {
  const int nmat = argc > 1 ? atoi(argv[1]) : 2000;
  const int passes = argc > 2 ? atoi(argv[2]) : 5;
  static const int sizes[3] = {12, 9, 6};
  ipc_dense_threads(1);
  double *A = IPC_NEW(double, 144 * (size_t)nmat), *P = IPC_NEW(double, 144 * (size_t)nmat);
  printf("%4s %8s %10s %10s %8s %10s %10s\n", "n", "kind", "small_us", "lapack_us", "speedup",
         "psd_small", "psd_lapack");
  for (int s = 0; s < 6; ++s) {
    const int n = sizes[s / 2], nn = n * n, dense = s % 2;
    for (int m = 0; m < nmat; ++m) barrier_like(n, dense, A + (size_t)m * nn);
    double w[12], V[144], t_small = 1e30, t_lapack = 1e30, t_psd = 1e30, t_psd_lapack = 1e30;
    double sink = 0.0;
    int fails = 0;
    for (int p = 0; p < passes; ++p) {
      double t0 = now();
      for (int m = 0; m < nmat; ++m) {
        fails += ipc_eig_sym_small(n, A + (size_t)m * nn, w, V) != 0;
        sink += w[0] + V[0];
      }
      double t1 = now();
      for (int m = 0; m < nmat; ++m) {
        fails += ipc_sym_eig(n, A + (size_t)m * nn, w, V) != 0;
        sink += w[0] + V[0];
      }
      double t2 = now();
      memcpy(P, A, (size_t)nmat * nn * sizeof(double));
      double t3 = now();
      for (int m = 0; m < nmat; ++m) fails += ipc_psd_project_small(n, P + (size_t)m * nn) != 0;
      double t4 = now();
      /* the LAPACK projection: dsyevd, then the positive part (what ipc_psd_project did
         before it used the small solver) */
      memcpy(P, A, (size_t)nmat * nn * sizeof(double));
      double t5 = now();
      for (int m = 0; m < nmat; ++m) {
        double *H = P + (size_t)m * nn;
        fails += ipc_sym_eig(n, H, w, V) != 0;
        for (int i = 0; i < n; ++i)
          for (int j = i; j < n; ++j) {
            double acc = 0.0;
            for (int k = 0; k < n; ++k)
              if (w[k] > 0.0) acc += V[i * n + k] * w[k] * V[j * n + k];
            H[i * n + j] = H[j * n + i] = acc;
          }
      }
      double t6 = now();
      t_small = fmin(t_small, t1 - t0);
      t_lapack = fmin(t_lapack, t2 - t1);
      t_psd = fmin(t_psd, t4 - t3);
      t_psd_lapack = fmin(t_psd_lapack, t6 - t5);
    }
    const double us = 1e6 / nmat;
    printf("%4d %8s %10.3f %10.3f %8.2f %10.3f %10.3f%s\n", n, dense ? "dense" : "barrier",
           t_small * us, t_lapack * us, t_lapack / t_small, t_psd * us, t_psd_lapack * us,
           fails ? "  FAILURES" : "");
    if (sink == 12345.0) printf(" ");
  }
  ipc_dense_threads(0);
  ipc_free(A);
  ipc_free(P);
  return 0;
}
