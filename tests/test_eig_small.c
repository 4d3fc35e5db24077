/* tests for src/linalg/eig_small.c: the small symmetric eigen-solver against its defining
   properties (A V = V diag(w), V^T V = I, w ascending) and against LAPACKE (ipc_sym_eig),
   on random matrices n = 1..12 and on hard cases (zero, identity, diagonal, repeated
   eigenvalues, rank one, barrier-like Hessians with entries from 1e-6 to 1e12, nearly
   singular, graded, extreme scales, non-finite input); the PSD projection against the
   LAPACK-based one; bitwise agreement of calls from several threads. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "linalg/dense.h"
#include "linalg/eig_small.h"
#include "random_matrices.h"
#include "test.h"

/* random orthogonal Q: the eigenvectors of a random symmetric matrix (LAPACK) */
static void random_orthogonal(int n, double *Q) {
  double A[144] = {0}, w[12];
  random_symmetric(n, A);
  CHECK(ipc_sym_eig(n, A, w, Q) == 0);
}

/* A = Q diag(lam) Q^T, exactly symmetric */
static void from_spectrum(int n, const double *lam, double *A) {
  double Q[144];
  random_orthogonal(n, Q);
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) s += Q[i * n + k] * lam[k] * Q[j * n + k];
      A[i * n + j] = A[j * n + i] = s;
    }
}

/* kappa (b2 g g^T + b1 J^T D J): a contact barrier Hessian's shape (rank one from the
   squared-distance gradient, a scaled low-rank indefinite part from its Hessian) */
static void barrier_like(int n, double b2, double b1, double *H) {
  double g[12], J[36], D[3];
  for (int i = 0; i < n; ++i) g[i] = urand();
  for (int k = 0; k < 3 * n; ++k) J[k] = urand();
  for (int k = 0; k < 3; ++k) D[k] = urand();
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += J[k * n + i] * D[k] * J[k * n + j];
      H[i * n + j] = H[j * n + i] = b2 * g[i] * g[j] + b1 * s;
    }
}

static double worst_residual = 0.0, worst_orth = 0.0, worst_lapack_residual = 0.0;

/* max |A V - V diag(w)| / max |A| and max |V^T V - I| */
static void quality(int n, const double *A, const double *w, const double *V, double *res,
                    double *orth) {
  const double scale = fmax(max_abs(n * n, A), DBL_MIN);
  *res = *orth = 0.0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      double av = 0.0, vv = 0.0;
      for (int j = 0; j < n; ++j) {
        av += A[i * n + j] * V[j * n + k];
        vv += V[j * n + i] * V[j * n + k];
      }
      *res = fmax(*res, fabs(av - w[k] * V[i * n + k]) / scale);
      *orth = fmax(*orth, fabs(vv - (i == k ? 1.0 : 0.0)));
    }
}

/* decomposes A, checks the eigensystem and compares with LAPACK; returns the eigenvalues */
static void check_eig(int n, const double *A, double *w, double *V) {
  CHECK(ipc_eig_sym_small(n, A, w, V) == 0);
  double res, orth;
  quality(n, A, w, V, &res, &orth);
  worst_residual = fmax(worst_residual, res);
  worst_orth = fmax(worst_orth, orth);
  CHECK_MSG(res <= 2e-14 * n, "n=%d residual %g", n, res);
  CHECK_MSG(orth <= 2e-14 * n, "n=%d orthogonality %g", n, orth);
  for (int k = 1; k < n; ++k) CHECK(w[k - 1] <= w[k]);
  double wl[12], Vl[144], res_l, orth_l;
  CHECK(ipc_sym_eig(n, A, wl, Vl) == 0);
  quality(n, A, wl, Vl, &res_l, &orth_l);
  worst_lapack_residual = fmax(worst_lapack_residual, res_l);
  const double scale = max_abs(n * n, A);
  for (int k = 0; k < n; ++k)
    CHECK_MSG(fabs(w[k] - wl[k]) <= 1e-14 * n * scale, "n=%d w[%d] %.17g lapack %.17g", n, k, w[k],
              wl[k]);
  /* eigenvalues only: the same values */
  double w2[12];
  CHECK(ipc_eig_sym_small(n, A, w2, NULL) == 0);
  CHECK(memcmp(w, w2, (size_t)n * sizeof(double)) == 0);
}

static void test_random(void) {
  for (int n = 1; n <= 12; ++n)
    for (int rep = 0; rep < 40; ++rep) {
      double A[144], w[12], V[144];
      random_symmetric(n, A);
      if (rep % 4 == 1)
        for (int k = 0; k < n * n; ++k) A[k] *= 1e-9;
      check_eig(n, A, w, V);
      double tr = 0.0, sum = 0.0;
      for (int k = 0; k < n; ++k) {
        tr += A[k * n + k];
        sum += w[k];
      }
      CHECK(fabs(tr - sum) <= 1e-13 * n * max_abs(n * n, A));
    }
}

static void test_special(void) {
  double A[144], w[12], V[144];
  for (int n = 1; n <= 12; ++n) {
    const int nn = n * n;
    /* zero: w = 0, V = I */
    memset(A, 0, sizeof A);
    CHECK(ipc_eig_sym_small(n, A, w, V) == 0);
    for (int k = 0; k < n; ++k) CHECK(w[k] == 0.0);
    for (int k = 0; k < nn; ++k) CHECK(V[k] == (k % (n + 1) == 0 ? 1.0 : 0.0));

    /* identity and diagonal: exact eigenvalues */
    for (int i = 0; i < n; ++i) A[i * n + i] = 1.0;
    CHECK(ipc_eig_sym_small(n, A, w, V) == 0);
    for (int k = 0; k < n; ++k) CHECK(w[k] == 1.0);
    check_eig(n, A, w, V);
    for (int i = 0; i < n; ++i) A[i * n + i] = (double)((13 * i + 5) % n) - 0.5 * n;
    check_eig(n, A, w, V);
    for (int k = 0; k < n; ++k) CHECK(w[k] == (double)k - 0.5 * n);

    /* repeated eigenvalues in a random basis */
    double lam[12];
    for (int k = 0; k < n; ++k) lam[k] = k < n / 2 ? 2.0 : -1.0;
    from_spectrum(n, lam, A);
    check_eig(n, A, w, V);
    for (int k = 0; k < n; ++k) CHECK(fabs(w[k] - (k < n - n / 2 ? -1.0 : 2.0)) <= 1e-14 * n);

    /* rank one b g g^T: eigenvalues 0 (n - 1 times) and b |g|^2 */
    double g[12], g2 = 0.0;
    for (int i = 0; i < n; ++i) {
      g[i] = urand();
      g2 += g[i] * g[i];
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A[i * n + j] = 3e11 * g[i] * g[j];
    check_eig(n, A, w, V);
    CHECK_NEAR(w[n - 1], 3e11 * g2, 1e-14 * n);
    for (int k = 0; k + 1 < n; ++k) CHECK(fabs(w[k]) <= 1e-14 * n * 3e11 * g2);

    /* barrier-like: rank one at 1e12 plus a low-rank indefinite part at 1e-6 .. 1e4 */
    for (int rep = 0; rep < 10; ++rep) {
      barrier_like(n, pow(10.0, 2.0 + rep), -pow(10.0, -6.0 + rep), A);
      check_eig(n, A, w, V);
    }

    /* nearly singular: eigenvalues 1 and 1e-15 .. 1e-10 of both signs */
    for (int k = 0; k < n; ++k) lam[k] = k % 2 ? 1.0 : (k % 4 ? -1.0 : 1.0) * pow(10.0, -15 + k);
    from_spectrum(n, lam, A);
    check_eig(n, A, w, V);

    /* graded: a_ij = r_i r_j c_ij with r from 1e6 down to 1e-3 */
    random_symmetric(n, A);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A[i * n + j] *= pow(10.0, 6.0 - 0.8 * (i + j));
    check_eig(n, A, w, V);

    /* extreme scales: 1e300 and 1e-300 (no overflow or underflow), same eigenvectors */
    double B[144], wb[12], Vb[144];
    random_symmetric(n, A);
    for (int s = 0; s < 2; ++s) {
      const double f = s ? 0x1p-1000 : 0x1p+1000;
      for (int k = 0; k < nn; ++k) B[k] = A[k] * f;
      CHECK(ipc_eig_sym_small(n, A, w, V) == 0);
      CHECK(ipc_eig_sym_small(n, B, wb, Vb) == 0);
      for (int k = 0; k < n; ++k) CHECK(wb[k] == w[k] * f);
      CHECK(memcmp(V, Vb, (size_t)nn * sizeof(double)) == 0);
    }

    /* already tridiagonal with tiny and zero off-diagonals */
    memset(A, 0, sizeof A);
    for (int i = 0; i < n; ++i) A[i * n + i] = urand();
    for (int i = 0; i + 1 < n; ++i)
      A[i * n + i + 1] = A[(i + 1) * n + i] = i % 3 == 0 ? 0.0 : (i % 3 == 1 ? 1e-170 : urand());
    check_eig(n, A, w, V);

    /* non-finite input is reported */
    random_symmetric(n, A);
    A[nn - 1] = NAN;
    CHECK(ipc_eig_sym_small(n, A, w, V) == 2);
    A[nn - 1] = INFINITY;
    CHECK(ipc_eig_sym_small(n, A, w, V) == 2);
  }
  /* Wilkinson's W11+: the two largest eigenvalues agree to 7.4e-5 */
  const int n = 11;
  memset(A, 0, sizeof A);
  for (int i = 0; i < n; ++i) {
    A[i * n + i] = fabs(5.0 - i);
    if (i + 1 < n) A[i * n + i + 1] = A[(i + 1) * n + i] = 1.0;
  }
  check_eig(n, A, w, V);
  CHECK(w[10] - w[9] > 7e-5 && w[10] - w[9] < 8e-5);
}

/* LAPACK-based reference: Q max(lam, 0) Q^T */
static void psd_reference(int n, const double *A, double *P) {
  double lam[12], Q[144];
  CHECK(ipc_sym_eig(n, A, lam, Q) == 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k)
        if (lam[k] > 0.0) s += Q[i * n + k] * lam[k] * Q[j * n + k];
      P[i * n + j] = s;
    }
}

/* P exactly symmetric, PSD and near Pref, to rounding relative to the input's max |A| */
static void check_psd(int n, double scale, const double *P, const double *Pref) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) CHECK(P[i * n + j] == P[j * n + i]);
  double lam[12];
  CHECK(ipc_eig_sym_small(n, P, lam, NULL) == 0);
  CHECK_MSG(lam[0] >= -1e-14 * n * scale, "n=%d min eigenvalue %g scale %g", n, lam[0], scale);
  double diff = 0.0;
  for (int k = 0; k < n * n; ++k) diff = fmax(diff, fabs(P[k] - Pref[k]));
  CHECK_MSG(diff <= 1e-14 * n * scale, "n=%d projection differs by %g scale %g", n, diff, scale);
}

static void test_psd_project(void) {
  for (int n = 1; n <= 12; ++n)
    for (int rep = 0; rep < 30; ++rep) {
      double A[144], P[144], P2[144], Pref[144];
      const int kind = rep % 3;
      if (kind == 0)
        random_symmetric(n, A);
      else
        barrier_like(n, pow(10.0, 2.0 + rep % 11), -pow(10.0, -6.0 + rep % 11), A);
      if (kind == 2)
        for (int k = 0; k < n * n; ++k) A[k] = -A[k];
      memcpy(P, A, sizeof A);
      CHECK(ipc_psd_project_small(n, P) == 0);
      psd_reference(n, A, Pref);
      const double scale = max_abs(n * n, A);
      check_psd(n, scale, P, Pref);
      /* dense.c's projection takes this path for n <= 12 */
      memcpy(P2, A, sizeof A);
      CHECK(ipc_psd_project(n, P2) == 0);
      CHECK(memcmp(P, P2, (size_t)n * n * sizeof(double)) == 0);
      /* projecting again changes nothing beyond rounding of the input's size */
      memcpy(P2, P, sizeof P);
      CHECK(ipc_psd_project_small(n, P2) == 0);
      check_psd(n, scale, P2, P);
    }
  for (int n = 1; n <= 12; ++n) {
    /* positive definite: bitwise unchanged; negative definite: zero */
    double lam[12], A[144], P[144];
    for (int k = 0; k < n; ++k) lam[k] = 0.5 + k;
    from_spectrum(n, lam, A);
    memcpy(P, A, sizeof A);
    CHECK(ipc_psd_project_small(n, P) == 0);
    CHECK(memcmp(P, A, (size_t)n * n * sizeof(double)) == 0);
    for (int k = 0; k < n * n; ++k) P[k] = -A[k];
    CHECK(ipc_psd_project_small(n, P) == 0);
    CHECK(max_abs(n * n, P) <= 1e-14 * n * max_abs(n * n, A));
    /* a non-symmetric input is symmetrized exactly */
    random_symmetric(n, A);
    A[n - 1] += 1e-3;
    memcpy(P, A, sizeof A);
    CHECK(ipc_psd_project_small(n, P) == 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j) CHECK(P[i * n + j] == P[j * n + i]);
  }
}

enum { THREAD_MATS = 200 };

static double thread_input[THREAD_MATS][144];

static void *thread_work(void *out) {
  double *res = out;
  for (int m = 0; m < THREAD_MATS; ++m) {
    const int n = 1 + m % 12;
    double *w = res + m * 300, *V = w + 12, *P = V + 144;
    ipc_eig_sym_small(n, thread_input[m], w, V);
    memcpy(P, thread_input[m], (size_t)n * n * sizeof(double));
    ipc_psd_project_small(n, P);
  }
  return NULL;
}

/* several threads at once produce the bits of a serial run */
static void test_threads(void) {
  static double serial[THREAD_MATS * 300], par[3][THREAD_MATS * 300];
  for (int m = 0; m < THREAD_MATS; ++m) {
    const int n = 1 + m % 12;
    if (m % 2)
      random_symmetric(n, thread_input[m]);
    else
      barrier_like(n, 1e10, -1e-3, thread_input[m]);
  }
  memset(serial, 0, sizeof serial);
  memset(par, 0, sizeof par);
  thread_work(serial);
  pthread_t th[3];
  for (int t = 0; t < 3; ++t) CHECK(pthread_create(&th[t], NULL, thread_work, par[t]) == 0);
  for (int t = 0; t < 3; ++t) CHECK(pthread_join(th[t], NULL) == 0);
  for (int t = 0; t < 3; ++t) CHECK(memcmp(serial, par[t], sizeof serial) == 0);
}

int main(void) {
  test_random();
  test_special();
  test_psd_project();
  test_threads();
  fprintf(stderr, "worst residual %.3g (LAPACK %.3g), worst orthogonality %.3g\n", worst_residual,
          worst_lapack_residual, worst_orth);
  TEST_MAIN_END();
}
