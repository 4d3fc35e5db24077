/* tests for src/linalg/dense.c: symmetric eigen (LAPACKE and 3x3 Jacobi), PSD projection,
   rotation-variant 3x3 SVD */
#include <float.h>
#include <math.h>
#include <string.h>

#include "linalg/dense.h"
#define TEST_RNG_SEED 0x9E3779B97F4A7C15ull
#include "random_matrices.h"
#include "test.h"

/* checks A Q = Q diag(lam), Q orthonormal, lam ascending */
static void check_eigensystem(int n, const double *A, const double *lam, const double *Q,
                              double tol) {
  const double scale = fmax(max_abs(n * n, A), DBL_MIN);
  double res = 0.0, orth = 0.0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      double aq = 0.0, qq = 0.0;
      for (int j = 0; j < n; ++j) {
        aq += A[i * n + j] * Q[j * n + k];
        qq += Q[j * n + i] * Q[j * n + k];
      }
      res = fmax(res, fabs(aq - lam[k] * Q[i * n + k]));
      orth = fmax(orth, fabs(qq - (i == k ? 1.0 : 0.0)));
    }
  CHECK_MSG(res <= tol * scale, "n=%d residual %g scale %g", n, res, scale);
  CHECK_MSG(orth <= tol * n, "n=%d orthogonality %g", n, orth);
  for (int k = 1; k < n; ++k) CHECK(lam[k - 1] <= lam[k]);
}

static void test_sym_eig(void) {
  static const int sizes[] = {1, 2, 3, 5, 9, 12, 16, 17, 24};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const int n = sizes[s];
    double A[24 * 24], lam[24], Q[24 * 24], lam2[24];
    for (int rep = 0; rep < 5; ++rep) {
      random_symmetric(n, A);
      CHECK(ipc_sym_eig(n, A, lam, Q) == 0);
      check_eigensystem(n, A, lam, Q, 1e-12);
      CHECK(ipc_sym_eig(n, A, lam2, NULL) == 0);
      for (int k = 0; k < n; ++k) CHECK_NEAR(lam2[k], lam[k], 1e-12);
      double tr = 0.0, sum = 0.0;
      for (int k = 0; k < n; ++k) {
        tr += A[k * n + k];
        sum += lam[k];
      }
      CHECK_NEAR(tr, sum, 1e-12);
    }
  }
}

static void test_sym_eig3(void) {
  for (int rep = 0; rep < 2000; ++rep) {
    double A[9], lam[3], Q[9], lref[3];
    const int kind = rep % 5;
    if (kind < 2) {
      random_symmetric(3, A);
      if (kind == 1)
        for (int k = 0; k < 9; ++k) A[k] *= 1e-7;
    } else {
      /* repeated or widely spread eigenvalues in a random basis */
      double R[9], D[9] = {0}, T[9], Rt[9];
      random_rotation(R);
      const double d3[5][3] = {{0}, {0}, {1, 1, 2}, {-3, 1e-9, 1e8}, {0, 0, 0}};
      for (int k = 0; k < 3; ++k) D[4 * k] = d3[kind][k];
      if (kind == 4) D[0] = D[4] = D[8] = urand();
      matmul3(R, D, T);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) Rt[3 * i + j] = R[3 * j + i];
      matmul3(T, Rt, A);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < i; ++j) A[3 * i + j] = A[3 * j + i];
    }
    ipc_sym_eig3(A, lam, Q);
    check_eigensystem(3, A, lam, Q, 1e-13);
    CHECK(ipc_sym_eig(3, A, lref, NULL) == 0);
    const double scale = fmax(max_abs(9, A), DBL_MIN);
    for (int k = 0; k < 3; ++k)
      CHECK_MSG(fabs(lam[k] - lref[k]) <= 1e-13 * scale, "%g vs %g", lam[k], lref[k]);
  }
  double Z[9] = {0}, lam[3], Q[9];
  ipc_sym_eig3(Z, lam, Q);
  CHECK(lam[0] == 0.0 && lam[1] == 0.0 && lam[2] == 0.0);
  check_eigensystem(3, Z, lam, Q, 1e-15);
}

/* projection checks: P PSD, P = A where A is PSD, A - P negative semidefinite and
   orthogonal to P, |A - P|_F^2 = sum of squared negative eigenvalues, idempotent */
static void check_projection(int n, const double *A, const double *P, double tol) {
  double lamA[24], lamP[24], D[24 * 24], DP[24 * 24];
  CHECK(ipc_sym_eig(n, A, lamA, NULL) == 0);
  CHECK(ipc_sym_eig(n, P, lamP, NULL) == 0);
  const double scale = fmax(fabs(lamA[0]), fabs(lamA[n - 1]));
  CHECK_MSG(lamP[0] >= -tol * scale, "min eigenvalue %g", lamP[0]);
  double neg2 = 0.0, dist2 = 0.0, sym = 0.0;
  for (int k = 0; k < n; ++k)
    if (lamA[k] < 0.0) neg2 += lamA[k] * lamA[k];
  for (int k = 0; k < n * n; ++k) {
    D[k] = A[k] - P[k];
    dist2 += D[k] * D[k];
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sym = fmax(sym, fabs(P[i * n + j] - P[j * n + i]));
  CHECK(sym <= tol * scale);
  CHECK_MSG(fabs(sqrt(dist2) - sqrt(neg2)) <= tol * scale, "%g vs %g", sqrt(dist2), sqrt(neg2));
  double lamD[24];
  CHECK(ipc_sym_eig(n, D, lamD, NULL) == 0);
  CHECK(lamD[n - 1] <= tol * scale);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) s += P[i * n + k] * D[k * n + j];
      DP[i * n + j] = s;
    }
  CHECK(max_abs(n * n, DP) <= tol * scale * scale);
  double P2[24 * 24];
  memcpy(P2, P, (size_t)n * n * sizeof(double));
  CHECK(ipc_psd_project(n, P2) == 0);
  for (int k = 0; k < n * n; ++k) CHECK(fabs(P2[k] - P[k]) <= tol * scale);
}

static void test_psd_project(void) {
  static const int sizes[] = {1, 2, 3, 4, 9, 12, 16, 17, 24};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const int n = sizes[s];
    for (int rep = 0; rep < 20; ++rep) {
      double A[24 * 24], P[24 * 24], B[24 * 24];
      random_symmetric(n, A);
      memcpy(P, A, (size_t)n * n * sizeof(double));
      CHECK(ipc_psd_project(n, P) == 0);
      check_projection(n, A, P, 1e-12);

      /* PSD input of rank r stays unchanged; full rank is left bitwise unchanged */
      const int r = rep % 2 ? n : (n + 1) / 2;
      for (int k = 0; k < n * r; ++k) B[k] = urand();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double v = 0.0;
          for (int k = 0; k < r; ++k) v += B[i * r + k] * B[j * r + k];
          A[i * n + j] = v;
        }
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) A[i * n + j] = A[j * n + i];
      memcpy(P, A, (size_t)n * n * sizeof(double));
      CHECK(ipc_psd_project(n, P) == 0);
      const double scale = max_abs(n * n, A);
      for (int k = 0; k < n * n; ++k) CHECK(fabs(P[k] - A[k]) <= 1e-12 * scale);
      if (r == n && n <= 4) CHECK(memcmp(P, A, (size_t)n * n * sizeof(double)) == 0);

      /* negative definite input projects to zero */
      for (int k = 0; k < n * n; ++k) A[k] = -A[k] - (k % (n + 1) == 0 ? 1.0 : 0.0);
      memcpy(P, A, (size_t)n * n * sizeof(double));
      CHECK(ipc_psd_project(n, P) == 0);
      CHECK(max_abs(n * n, P) <= 1e-12 * max_abs(n * n, A));
    }
  }
  /* 3x3 analytic-free Jacobi projection agrees with the LAPACKE one */
  for (int rep = 0; rep < 500; ++rep) {
    double A[9], P[9], P3[9];
    random_symmetric(3, A);
    memcpy(P, A, sizeof A);
    memcpy(P3, A, sizeof A);
    CHECK(ipc_psd_project(3, P) == 0);
    ipc_psd_project3(P3);
    for (int k = 0; k < 9; ++k) CHECK_NEAR(P3[k], P[k], 1e-13);
    check_projection(3, A, P3, 1e-13);
  }
}

/* F = U diag(s) V^T with proper U, V, ordering and the sign convention */
static void check_svd(const double F[9]) {
  double U[9], s[3], V[9], US[9], R[9];
  ipc_svd3(F, U, s, V);
  double fn = 0.0;
  for (int k = 0; k < 9; ++k) fn = fmax(fn, fabs(F[k]));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) US[3 * i + j] = U[3 * i + j] * s[j];
  double Vt[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Vt[3 * i + j] = V[3 * j + i];
  matmul3(US, Vt, R);
  double err = 0.0;
  for (int k = 0; k < 9; ++k) err = fmax(err, fabs(R[k] - F[k]));
  CHECK_MSG(err <= 1e-14 * fn || (fn == 0.0 && err == 0.0), "reconstruction %g of %g", err, fn);
  double orthU = 0.0, orthV = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double u = 0.0, v = 0.0;
      for (int k = 0; k < 3; ++k) {
        u += U[3 * k + i] * U[3 * k + j];
        v += V[3 * k + i] * V[3 * k + j];
      }
      orthU = fmax(orthU, fabs(u - (i == j)));
      orthV = fmax(orthV, fabs(v - (i == j)));
    }
  CHECK_MSG(orthU <= 1e-14 && orthV <= 1e-14, "orthogonality %g %g", orthU, orthV);
  CHECK_NEAR(ipc_det3(U), 1.0, 1e-14);
  CHECK_NEAR(ipc_det3(V), 1.0, 1e-14);
  CHECK(s[0] >= s[1] && s[1] >= fabs(s[2]) - 1e-15 * fn);
  const double detF = ipc_det3(F);
  if (fabs(detF) > 1e-12 * fn * fn * fn) CHECK_MSG(s[2] * detF > 0.0, "sign %g %g", s[2], detF);
  /* singular values squared are the eigenvalues of F^T F (reference: LAPACKE) */
  if (fn < 1e-100 || fn > 1e100) return;
  double C[9], lam[3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = F[i] * F[j] + F[3 + i] * F[3 + j] + F[6 + i] * F[6 + j];
  CHECK(ipc_sym_eig(3, C, lam, NULL) == 0);
  for (int k = 0; k < 3; ++k)
    CHECK_MSG(fabs(s[k] * s[k] - fmax(lam[2 - k], 0.0)) <= 1e-13 * fn * fn, "%g vs %g", s[k] * s[k],
              lam[2 - k]);
}

static void test_svd3(void) {
  for (int rep = 0; rep < 20000; ++rep) {
    double F[9], R1[9], R2[9], D[9] = {0}, T[9];
    const int kind = rep % 10;
    if (kind == 0) {
      for (int k = 0; k < 9; ++k) F[k] = urand();
    } else {
      random_rotation(R1);
      random_rotation(R2);
      double d[3] = {2 * urand(), 2 * urand(), 2 * urand()};
      switch (kind) {
        case 1:
          d[2] = 0.0;
          break; /* rank 2 */
        case 2:
          d[1] = d[2] = 0.0;
          break; /* rank 1 */
        case 3:
          d[0] = d[1] = d[2] = 0.0;
          break; /* zero */
        case 4:
          d[2] = -fabs(d[2]);
          d[0] = d[1] = 1;
          break; /* reflection */
        case 5:
          d[0] = d[1] = d[2] = 1.3;
          break; /* repeated */
        case 6:
          d[1] = d[0];
          break; /* two repeated */
        case 7:
          d[2] = 1e-9 * d[0];
          break; /* nearly singular */
        case 8:
          for (int k = 0; k < 3; ++k) d[k] *= 1e-160;
          break;
        case 9:
          for (int k = 0; k < 3; ++k) d[k] *= 1e160;
          break;
      }
      for (int k = 0; k < 3; ++k) D[4 * k] = d[k];
      matmul3(R1, D, T);
      matmul3(T, R2, F);
    }
    check_svd(F);
  }
  /* exact special matrices */
  const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double refl[9] = {1, 0, 0, 0, 1, 0, 0, 0, -1};
  const double perm[9] = {0, 1, 0, 1, 0, 0, 0, 0, 1}; /* det -1 */
  const double flat[9] = {1, 2, 3, 2, 4, 6, 0, 0, 0}; /* rank 1 */
  check_svd(I);
  check_svd(refl);
  check_svd(perm);
  check_svd(flat);
  double U[9], s[3], V[9];
  ipc_svd3(refl, U, s, V);
  CHECK(s[0] == 1.0 && s[1] == 1.0 && s[2] == -1.0);
  ipc_svd3(perm, U, s, V);
  CHECK_NEAR(s[2], -1.0, 1e-15);
}

/* contact Hessians depend on point differences: the projection in the complement of the
   translations (ipc_psd_project_differences) equals the full one; other matrices take the full
   one bitwise */
static void test_psd_project_differences(void) {
  for (int k = 2; k <= 4; ++k) {
    const int n = 3 * k;
    for (int rep = 0; rep < 200; ++rep) {
      /* sum of +-w v v^T over vectors v with zero block sums: translation invariant */
      double A[144] = {0}, P[144], F[144];
      const int terms = 1 + rep % (n - 2);
      for (int t = 0; t < terms; ++t) {
        double v[12], w = (t + rep) % 3 == 0 ? -urand() - 0.5 : urand() + 0.5;
        for (int i = 0; i < n - 3; ++i) v[i] = urand();
        for (int c = 0; c < 3; ++c) {
          v[n - 3 + c] = 0.0;
          for (int b = 0; b < k - 1; ++b) v[n - 3 + c] -= v[3 * b + c];
        }
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) A[i * n + j] += w * v[i] * v[j];
      }
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) A[i * n + j] = A[j * n + i];
      memcpy(P, A, sizeof A);
      memcpy(F, A, sizeof A);
      CHECK(ipc_psd_project_differences(k, P) == 0);
      CHECK(ipc_psd_project(n, F) == 0);
      const double scale = max_abs(n * n, A);
      for (int i = 0; i < n * n; ++i)
        CHECK_MSG(fabs(P[i] - F[i]) <= 1e-12 * scale, "k=%d entry %d: %g vs %g", k, i, P[i], F[i]);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) CHECK(P[i * n + j] == P[j * n + i]);
      check_projection(n, A, P, 1e-12);
    }
    /* not translation invariant: exactly the full projection */
    for (int rep = 0; rep < 20; ++rep) {
      double A[144], P[144], F[144];
      random_symmetric(n, A);
      memcpy(P, A, sizeof A);
      memcpy(F, A, sizeof A);
      CHECK(ipc_psd_project_differences(k, P) == 0);
      CHECK(ipc_psd_project(n, F) == 0);
      CHECK(memcmp(P, F, (size_t)n * n * sizeof(double)) == 0);
    }
    /* PSD (positive definite on the differences): unchanged bitwise */
    double A[144] = {0}, P[144];
    for (int t = 0; t < n - 3; ++t) {
      double v[12];
      for (int i = 0; i < n - 3; ++i) v[i] = (i == t ? 2.0 : 0.0) + 0.1 * urand();
      for (int c = 0; c < 3; ++c) {
        v[n - 3 + c] = 0.0;
        for (int b = 0; b < k - 1; ++b) v[n - 3 + c] -= v[3 * b + c];
      }
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) A[i * n + j] += v[i] * v[j];
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j) A[i * n + j] = A[j * n + i];
    memcpy(P, A, sizeof A);
    CHECK(ipc_psd_project_differences(k, P) == 0);
    CHECK(memcmp(P, A, (size_t)n * n * sizeof(double)) == 0);
  }
}

int main(void) {
  test_psd_project_differences();
  test_sym_eig();
  test_sym_eig3();
  test_psd_project();
  test_svd3();
  TEST_MAIN_END();
}
