/* small dense LU with partial pivoting for the pivoting LCP methods (Lemke's final solve,
 * block principal pivoting); Golub and Van Loan, Alg. 3.4.1. Kept here rather than in
 * linalg because the problems are tiny and the row order must stay deterministic. */
#include <float.h>
#include <math.h>

#include "lcp/lcp_internal.h"

int ipc_lcp_lu(double *A, int k, int *piv) {
  double amax = 0.0;
  for (long t = 0; t < (long)k * k; ++t) amax = fmax(amax, fabs(A[t]));
  const double tiny = 1e3 * DBL_EPSILON * (amax > 0.0 ? amax : 1.0) * (k > 0 ? k : 1);
  for (int c = 0; c < k; ++c) {
    int pr = c;
    double best = fabs(A[(long)c * k + c]);
    for (int r = c + 1; r < k; ++r) {
      double a = fabs(A[(long)r * k + c]);
      if (a > best) {
        best = a;
        pr = r;
      }
    }
    piv[c] = pr;
    if (!(best > tiny)) return -1;
    if (pr != c) {
      for (int j = 0; j < k; ++j) {
        double t = A[(long)c * k + j];
        A[(long)c * k + j] = A[(long)pr * k + j];
        A[(long)pr * k + j] = t;
      }
    }
    const double inv = 1.0 / A[(long)c * k + c];
    for (int r = c + 1; r < k; ++r) {
      double f = A[(long)r * k + c] * inv;
      A[(long)r * k + c] = f;
      if (f == 0.0) continue;
      for (int j = c + 1; j < k; ++j) A[(long)r * k + j] -= f * A[(long)c * k + j];
    }
  }
  return 0;
}

void ipc_lcp_lu_solve(const double *LU, int k, const int *piv, double *b) {
  for (int c = 0; c < k; ++c) {
    if (piv[c] != c) {
      double t = b[c];
      b[c] = b[piv[c]];
      b[piv[c]] = t;
    }
  }
  for (int r = 0; r < k; ++r) {
    double s = b[r];
    for (int j = 0; j < r; ++j) s -= LU[(long)r * k + j] * b[j];
    b[r] = s;
  }
  for (int r = k - 1; r >= 0; --r) {
    double s = b[r];
    for (int j = r + 1; j < k; ++j) s -= LU[(long)r * k + j] * b[j];
    b[r] = s / LU[(long)r * k + r];
  }
}
