/* random numbers, symmetric matrices and rotations, and small dense helpers for the tests of
   src/linalg and src/elastic (test_dense.c, test_eig_small.c, test_elastic.c, and the
   benchmarks bench_eig_small.c and bench_elastic.c). Define
   TEST_RNG_SEED before including to start the sequence elsewhere. */
#ifndef IPCC_TESTS_RANDOM_MATRICES_H
#define IPCC_TESTS_RANDOM_MATRICES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef TEST_RNG_SEED
#define TEST_RNG_SEED 0x2545F4914F6CDD1Dull
#endif

static uint64_t rng_state = TEST_RNG_SEED;

/* uniform in [-1, 1) (splitmix64) */
static inline double urand(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* uniform in [a, b) */
static inline double urange(double a, double b) {
  return a + 0.5 * (urand() + 1.0) * (b - a);
}

/* symmetric n x n, entries uniform in [-1, 1) */
static inline void random_symmetric(int n, double *A) {
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) A[i * n + j] = A[j * n + i] = urand();
}

/* largest |a_k| over n entries */
static inline double max_abs(int n, const double *a) {
  double m = 0.0;
  for (int k = 0; k < n; ++k) m = fmax(m, fabs(a[k]));
  return m;
}

/* C = A B, 3 x 3 row-major */
static inline void matmul3(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* random rotation from a random unit quaternion */
static inline void random_rotation(double R[9]) {
  double q[4], n = 0.0;
  for (int k = 0; k < 4; ++k) {
    q[k] = urand();
    n += q[k] * q[k];
  }
  n = sqrt(n);
  for (int k = 0; k < 4; ++k) q[k] /= n;
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                       2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                       2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
  memcpy(R, M, sizeof M);
}

#endif
