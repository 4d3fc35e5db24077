/* small dense kernels. The only file of ipcc that includes lapacke.h / cblas.h.

   ipc_sym_eig wraps LAPACKE dsyevd (divide and conquer). Row-major symmetric input is
   handed to the column-major driver unchanged (a symmetric matrix is its own transpose),
   which avoids the transposing copies (and allocations) of the row-major LAPACKE path.

   ipc_sym_eig3 is the cyclic two-sided Jacobi method (Golub & Van Loan, Matrix
   Computations, 4th ed., sec. 8.5) with the rotation t = sgn(theta)/(|theta| +
   sqrt(theta^2 + 1)), theta = (a_qq - a_pp) / (2 a_pq).

   ipc_svd3 is the one-sided (Hestenes) Jacobi SVD (Demmel & Veselic, "Jacobi's method is
   more accurate than QR", SIMAX 1992): the columns b_p, b_q of B = F V are rotated until
   orthogonal, with zeta = (|b_q|^2 - |b_p|^2) / (2 b_p.b_q) and the same t as above. Then
   U = B diag(1/|b|), completed by u3 = u1 x u2 so that det U = +1; V is made proper by
   flipping its last column, and sigma_3 = u3 . b3 takes the sign of det F ("rotation
   variant" SVD, Irving, Teran & Fedkiw 2004). F is never squared, so small singular values
   keep their absolute accuracy eps * |F|. */
#include "linalg/dense.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "linalg/eig_small.h"

enum { SMALL_N = 16 };

int ipc_sym_eig(int n, const double *A, double *evals, double *evecs) {
  if (n <= 0) return 0;
  const int want = evecs != NULL;
  const size_t nn = (size_t)n * (size_t)n;
  const size_t lwork = want ? 1 + 6 * (size_t)n + 2 * nn : 2 * (size_t)n + 1;
  const size_t liwork = want ? 3 + 5 * (size_t)n : 1;
  double a_small[SMALL_N * SMALL_N];
  double work_small[1 + 6 * SMALL_N + 2 * SMALL_N * SMALL_N];
  lapack_int iwork_small[3 + 5 * SMALL_N];
  double *a = a_small, *work = work_small;
  lapack_int *iwork = iwork_small;
  if (n > SMALL_N) {
    a = IPC_NEW(double, nn);
    work = IPC_NEW(double, lwork);
    iwork = IPC_NEW(lapack_int, liwork);
  }
  memcpy(a, A, nn * sizeof(double));
  lapack_int info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, want ? 'V' : 'N', 'L', n, a, n, evals,
                                        work, (lapack_int)lwork, iwork, (lapack_int)liwork);
  if (info == 0 && want) {
    /* column-major column k (eigenvector k) -> row-major column k */
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) evecs[(size_t)i * n + k] = a[(size_t)k * n + i];
  }
  if (n > SMALL_N) {
    ipc_free(a);
    ipc_free(work);
    ipc_free(iwork);
  }
  return info != 0;
}

/* Cholesky without pivoting on a copy: 1 when A is numerically positive definite */
static int is_positive_definite(int n, const double *A, double *L) {
  memcpy(L, A, (size_t)n * (size_t)n * sizeof(double));
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, L, n) == 0;
}

void ipc_dense_threads(int serial) {
  static int saved = 0;
  if (serial) {
    if (!saved) saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
  } else if (saved) {
    openblas_set_num_threads(saved);
  }
}

int ipc_psd_project(int n, double *A) {
  if (n <= 0) return 0;
  /* no LAPACK (thread-safe, faster) up to 12 x 12; LAPACK if that does not converge */
  if (n <= IPC_EIG_SMALL_MAX && ipc_psd_project_small(n, A) == 0) return 0;
  const size_t nn = (size_t)n * (size_t)n;
  double buf_small[2 * SMALL_N * SMALL_N + SMALL_N];
  double *buf = n > SMALL_N ? IPC_NEW(double, 2 * nn + (size_t)n) : buf_small;
  double *Q = buf, *W = buf + nn, *lam = buf + 2 * nn;
  int status = 0;
  if (!is_positive_definite(n, A, Q)) {
    status = ipc_sym_eig(n, A, lam, Q);
    if (status == 0 && lam[0] < 0.0) {
      /* A+ = (Q L+^(1/2)) (Q L+^(1/2))^T over the nonnegative eigenvalues only */
      int first = 0;
      while (first < n && lam[first] < 0.0) ++first;
      const int m = n - first;
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < m; ++k)
          W[(size_t)i * m + k] = Q[(size_t)i * n + first + k] * sqrt(lam[first + k]);
      if (m == 0) {
        memset(A, 0, nn * sizeof(double));
      } else {
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, m, 1.0, W, m, 0.0, A, n);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < i; ++j) A[(size_t)i * n + j] = A[(size_t)j * n + i];
      }
    }
  }
  if (buf != buf_small) ipc_free(buf);
  return status;
}

double ipc_det3(const double A[9]) {
  return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
         A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/* t = tan of the Jacobi angle for the cotangent-like ratio theta, the smaller root of
   t^2 + 2 theta t - 1 = 0 */
static double jacobi_tangent(double theta) {
  if (fabs(theta) > 1e150) return 0.5 / theta;
  double t = 1.0 / (fabs(theta) + sqrt(theta * theta + 1.0));
  return theta < 0.0 ? -t : t;
}

void ipc_sym_eig3(const double A[9], double evals[3], double evecs[9]) {
  double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (A[3 * i + j] + A[3 * j + i]);
  double frob2 = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) frob2 += a[i][j] * a[i][j];
  static const int P[3] = {0, 0, 1}, Q[3] = {1, 2, 2};
  for (int sweep = 0; sweep < 32; ++sweep) {
    double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    if (off == 0.0 || off <= 1e-34 * frob2) break;
    for (int r = 0; r < 3; ++r) {
      const int p = P[r], q = Q[r], o = 3 - p - q;
      const double apq = a[p][q];
      if (apq == 0.0) continue;
      const double t = jacobi_tangent((a[q][q] - a[p][p]) / (2.0 * apq));
      const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
      a[p][p] -= t * apq;
      a[q][q] += t * apq;
      a[p][q] = a[q][p] = 0.0;
      const double aop = a[o][p], aoq = a[o][q];
      a[o][p] = a[p][o] = c * aop - s * aoq;
      a[o][q] = a[q][o] = s * aop + c * aoq;
      for (int k = 0; k < 3; ++k) {
        const double vp = v[k][p], vq = v[k][q];
        v[k][p] = c * vp - s * vq;
        v[k][q] = s * vp + c * vq;
      }
    }
  }
  int idx[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && a[idx[j]][idx[j]] < a[idx[j - 1]][idx[j - 1]]; --j) {
      int tmp = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = tmp;
    }
  for (int k = 0; k < 3; ++k) {
    evals[k] = a[idx[k]][idx[k]];
    if (evecs)
      for (int i = 0; i < 3; ++i) evecs[3 * i + k] = v[i][idx[k]];
  }
}

void ipc_psd_project3(double A[9]) {
  const double m2 = A[0] * A[4] - A[1] * A[3];
  if (A[0] > 0.0 && m2 > 0.0 && ipc_det3(A) > 0.0) return;
  double lam[3], Q[9];
  ipc_sym_eig3(A, lam, Q);
  for (int k = 0; k < 3; ++k) lam[k] = lam[k] > 0.0 ? lam[k] : 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += Q[3 * i + k] * lam[k] * Q[3 * j + k];
      A[3 * i + j] = A[3 * j + i] = s;
    }
}

static void cross3(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* a unit vector orthogonal to the unit vector u */
static void any_orthogonal(const double u[3], double w[3]) {
  int k = 0;
  if (fabs(u[1]) < fabs(u[k])) k = 1;
  if (fabs(u[2]) < fabs(u[k])) k = 2;
  double e[3] = {0, 0, 0};
  e[k] = 1.0;
  cross3(u, e, w);
  const double n = sqrt(dot3(w, w));
  for (int i = 0; i < 3; ++i) w[i] /= n;
}

void ipc_svd3(const double F[9], double U[9], double sigma[3], double V[9]) {
  /* b[j]: column j of B = F V (scaled); v[j]: column j of V */
  double b[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double fmax = 0.0;
  for (int i = 0; i < 9; ++i) fmax = fmax > fabs(F[i]) ? fmax : fabs(F[i]);
  const double scale = (fmax > 1e-60 && fmax < 1e60) || fmax == 0.0 ? 1.0 : fmax;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) b[j][i] = F[3 * i + j] / scale;

  static const int P[3] = {0, 0, 1}, Q[3] = {1, 2, 2};
  const double tol2 = 16.0 * DBL_EPSILON * DBL_EPSILON;
  /* columns below eps |F| are numerically zero: rotating them only stirs rounding noise */
  const double tiny2 =
      DBL_EPSILON * DBL_EPSILON * (dot3(b[0], b[0]) + dot3(b[1], b[1]) + dot3(b[2], b[2]));
  for (int sweep = 0; sweep < 24; ++sweep) {
    int rotated = 0;
    for (int r = 0; r < 3; ++r) {
      const int p = P[r], q = Q[r];
      const double alpha = dot3(b[p], b[p]), beta = dot3(b[q], b[q]);
      const double gamma = dot3(b[p], b[q]);
      if (gamma * gamma <= tol2 * alpha * beta || alpha <= tiny2 || beta <= tiny2) continue;
      rotated = 1;
      const double d = beta - alpha, ad = fabs(d);
      double c, s;
      if (fabs(gamma) < 1e-3 * ad) {
        /* small angle: t = g (1 - g^2 + 2 g^4) with g = gamma / d, c = (1 + t^2)^(-1/2) by
           its series; both to O(g^6), well below rounding */
        const double g = gamma / d, g2 = g * g;
        const double t = g * (1.0 - g2 * (1.0 - 2.0 * g2));
        const double t2 = t * t;
        c = 1.0 - t2 * (0.5 - 0.375 * t2);
        s = t * c;
      } else if (ad + fabs(gamma) > 1e-150) {
        /* c = sqrt((rho + |d|) / (2 rho)), s = sgn(d) 2 gamma / sqrt(2 rho (rho + |d|)),
           rho = sqrt(d^2 + 4 gamma^2): the rotation of t = jacobi_tangent(d / 2 gamma) */
        const double rho = sqrt(d * d + 4.0 * gamma * gamma);
        const double w = 1.0 / sqrt(2.0 * rho * (rho + ad));
        c = (rho + ad) * w;
        s = 2.0 * gamma * w;
        if (d < 0.0) s = -s;
      } else {
        const double t = jacobi_tangent(d / (2.0 * gamma));
        c = 1.0 / sqrt(t * t + 1.0);
        s = t * c;
      }
      for (int k = 0; k < 3; ++k) {
        const double bp = b[p][k], bq = b[q][k];
        b[p][k] = c * bp - s * bq;
        b[q][k] = s * bp + c * bq;
        const double vp = v[p][k], vq = v[q][k];
        v[p][k] = c * vp - s * vq;
        v[q][k] = s * vp + c * vq;
      }
    }
    if (!rotated) break;
  }

  double nrm[3];
  int idx[3] = {0, 1, 2};
  for (int j = 0; j < 3; ++j) nrm[j] = sqrt(dot3(b[j], b[j]));
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && nrm[idx[j]] > nrm[idx[j - 1]]; --j) {
      int tmp = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = tmp;
    }
  double bs[3][3], vs[3][3], u[3][3];
  for (int j = 0; j < 3; ++j) {
    memcpy(bs[j], b[idx[j]], sizeof bs[j]);
    memcpy(vs[j], v[idx[j]], sizeof vs[j]);
  }
  const double s0 = nrm[idx[0]], s1 = nrm[idx[1]];
  if (s0 == 0.0) {
    memset(u, 0, sizeof u);
    u[0][0] = u[1][1] = u[2][2] = 1.0;
  } else {
    for (int k = 0; k < 3; ++k) u[0][k] = bs[0][k] / s0;
    /* u1 by Gram-Schmidt (twice when cancellation is heavy); a column below eps s0 is
       numerically zero and any unit vector orthogonal to u0 serves */
    double w[3];
    memcpy(w, bs[1], sizeof w);
    double n = s1;
    for (int pass = 0; pass < 2 && n > DBL_EPSILON * s0; ++pass) {
      const double d = dot3(u[0], w);
      for (int k = 0; k < 3; ++k) w[k] -= d * u[0][k];
      const double n_old = n;
      n = sqrt(dot3(w, w));
      if (n > 0.5 * n_old) break;
    }
    if (n > DBL_EPSILON * s0) {
      for (int k = 0; k < 3; ++k) u[1][k] = w[k] / n;
    } else {
      any_orthogonal(u[0], u[1]);
    }
  }
  cross3(u[0], u[1], u[2]);
  double vdet[3];
  cross3(vs[0], vs[1], vdet);
  if (dot3(vdet, vs[2]) < 0.0)
    for (int k = 0; k < 3; ++k) {
      vs[2][k] = -vs[2][k];
      bs[2][k] = -bs[2][k];
    }
  sigma[0] = s0 * scale;
  sigma[1] = s1 * scale;
  sigma[2] = dot3(u[2], bs[2]) * scale;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      U[3 * i + j] = u[j][i];
      V[3 * i + j] = vs[j][i];
    }
}

/* U (k x (k - 1), row-major): orthonormal columns orthogonal to (1, .., 1). k = 4: three
   columns of the 4 x 4 Hadamard matrix / 2 (exact in binary); k = 3: Helmert's basis */
static const double *difference_basis(int k) {
  static const double u2[2] = {0.70710678118654752440, -0.70710678118654752440};
  static const double u3[6] = {0.70710678118654752440,
                               0.40824829046386301637,
                               -0.70710678118654752440,
                               0.40824829046386301637,
                               0.0,
                               -0.81649658092772603273};
  static const double u4[12] = {0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5};
  return k == 2 ? u2 : k == 3 ? u3 : u4;
}

/* R = Q^T H Q (r x r, r = 3(k - 1)) for the n x n H, n = 3k; inlined per k so that the loops
   over k unroll */
static inline void reduce(const int k, const double *U, const double *H, double *R) {
  const int n = 3 * k, r = n - 3, kr = k - 1;
  double T[12 * 9];
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < kr; ++a)
      for (int c = 0; c < 3; ++c) {
        double s = 0.0;
        for (int b = 0; b < k; ++b) s += H[i * n + 3 * b + c] * U[b * kr + a];
        T[i * r + 3 * a + c] = s;
      }
  for (int a = 0; a < kr; ++a)
    for (int c = 0; c < 3; ++c)
      for (int j = 0; j < r; ++j) {
        double s = 0.0;
        for (int b = 0; b < k; ++b) s += U[b * kr + a] * T[(3 * b + c) * r + j];
        R[(3 * a + c) * r + j] = s;
      }
}

/* H = Q R Q^T, exactly symmetric */
static inline void expand(const int k, const double *U, const double *R, double *H) {
  const int n = 3 * k, r = n - 3, kr = k - 1;
  double T[12 * 9];
  for (int b = 0; b < k; ++b)
    for (int c = 0; c < 3; ++c)
      for (int j = 0; j < r; ++j) {
        double s = 0.0;
        for (int a = 0; a < kr; ++a) s += U[b * kr + a] * R[(3 * a + c) * r + j];
        T[(3 * b + c) * r + j] = s;
      }
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < k; ++b)
      for (int c = 0; c < 3; ++c) {
        if (3 * b + c < i) continue;
        double s = 0.0;
        for (int a = 0; a < kr; ++a) s += T[i * r + 3 * a + c] * U[b * kr + a];
        H[i * n + 3 * b + c] = H[(3 * b + c) * n + i] = s;
      }
}

/* the largest |block row sum| and the largest |entry| of the n x n H, n = 3k */
static inline void row_sums(const int k, const double *H, double *smax, double *hmax) {
  const int n = 3 * k;
  double sm = 0.0, hm = 0.0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) {
      double s = 0.0;
      for (int b = 0; b < k; ++b) {
        const double h = H[i * n + 3 * b + c];
        s += h;
        const double ah = fabs(h);
        hm = ah > hm ? ah : hm;
      }
      const double as = fabs(s);
      sm = as > sm ? as : sm;
    }
  *smax = sm;
  *hmax = hm;
}

int ipc_psd_project_differences(int k, double *H) {
  if (k < 2 || k > 4) return ipc_psd_project(3 * k, H);
  const int r = 3 * k - 3;
  double smax, hmax;
  switch (k) {
    case 2:
      row_sums(2, H, &smax, &hmax);
      break;
    case 3:
      row_sums(3, H, &smax, &hmax);
      break;
    default:
      row_sums(4, H, &smax, &hmax);
      break;
  }
  /* not a function of differences (or not finite): the full projection */
  if (!(smax <= 1e-10 * hmax)) return ipc_psd_project(3 * k, H);
  const double *U = difference_basis(k);
  double R[9 * 9], R0[9 * 9];
  switch (k) {
    case 2:
      reduce(2, U, H, R);
      break;
    case 3:
      reduce(3, U, H, R);
      break;
    default:
      reduce(4, U, H, R);
      break;
  }
  for (int i = 0; i < r; ++i)
    for (int j = i + 1; j < r; ++j)
      R[i * r + j] = R[j * r + i] = 0.5 * (R[i * r + j] + R[j * r + i]);
  memcpy(R0, R, sizeof(double) * (size_t)(r * r));
  int status = ipc_psd_project(r, R);
  if (status) return status;
  if (memcmp(R, R0, sizeof(double) * (size_t)(r * r)) == 0) return 0; /* R was PD: H is PSD */
  switch (k) {
    case 2:
      expand(2, U, R, H);
      break;
    case 3:
      expand(3, U, R, H);
      break;
    default:
      expand(4, U, R, H);
      break;
  }
  return 0;
}
