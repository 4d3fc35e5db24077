/* symmetric eigen-decomposition of small matrices (n <= 12): Householder tridiagonalization,
   then the implicit symmetric QR algorithm with Wilkinson shifts (Golub & Van Loan, Matrix
   Computations, 4th ed., algorithms 8.3.1 and 8.3.3).

   Scaling. A is multiplied by a power of two 2^-p with max |a_ij| in [1/2, 1) (exact), so the
   iteration never over- or underflows for entries from 1e-300 to 1e300; w is scaled back.

   Tridiagonalization. For k = 0 .. n-3 the reflector P_k = I - tau v v^T (v_0 = 1) maps the
   part x = A(k+1:n, k) below the diagonal to |x| e_1: v_0 = x_0 - |x| is formed as
   -sigma / (x_0 + |x|) when x_0 > 0 (sigma = |x(1:)|^2) to avoid cancellation, and
   tau = 2 v_0^2 / (sigma + v_0^2). The trailing block B = A(k+1:n, k+1:n) becomes P B P =
   B - v q^T - q v^T with p = tau B v, q = p - (tau/2)(p^T v) v. Then A = Q T Q^T with
   Q = P_0 P_1 ... P_{n-3}; Z = Q^T = P_{n-3} ... P_0 is accumulated backwards (Z <- Z P_k
   for k = n-3 .. 0), which touches only rows and columns k+1 .. n-1 of Z.

   QR iteration. The eigenvectors are kept as the rows of Z (A = Z^T T Z), so a rotation
   R acting on rows k, k+1 (T <- R T R^T) updates Z <- R Z: two contiguous rows. On the
   bottom unreduced block [l, m] of T a step uses the Wilkinson shift mu, the eigenvalue of
   the trailing 2 x 2 block nearer to d_m:
     mu = d_m - e^2 / (delta + sgn(delta) sqrt(delta^2 + e^2)),  delta = (d_{m-1} - d_m) / 2,
   written as d_m - e / (rho + sgn(rho) sqrt(rho^2 + 1)), rho = delta / e. The first rotation
   maps (d_l - mu, e_l) to (r, 0); each next one removes the bulge T(k+1, k-1) (Francis'
   implicit step; the 2 x 2 block of rows k, k+1 transforms as R [a f; f g] R^T). An
   off-diagonal e_i counts as zero when |e_i| <= eps (|d_i| + |d_{i+1}|) or |e_i| <= eps |T|
   (infinity norm). The second test keeps the result normwise backward stable, as the
   Householder stage is anyway, and ends the iteration on the blocks of rounding noise that a
   rank-deficient matrix (a barrier Hessian: rank one plus rank three) leaves: without it a
   12 x 12 of rank 4 takes 20 QR steps instead of 5. A 2 x 2 block is diagonalized directly by one
   Jacobi rotation (tangent t = sgn(theta) / (|theta| + sqrt(theta^2 + 1)), theta = (g - a) / 2f).
   The iteration stops with an error after 30 n steps (LAPACK's dsteqr uses the same budget); with
   Wilkinson shifts convergence is globally guaranteed and locally cubic, so in practice 1-3 steps
   per eigenvalue.

   PSD projection. A matrix that passes a Cholesky test (all pivots > 0) is left as it is.
   Otherwise H+ = H - sum_{w_k < 0} w_k z_k z_k^T when at most half the eigenvalues are
   negative (fewer terms, each of the size of a negative eigenvalue),
   else H+ = sum_{w_k > 0} w_k z_k z_k^T; only the upper triangle is formed and mirrored. */
#include "linalg/eig_small.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* internal arrays have rows of S = NMAX (even) doubles; columns n .. S-1 of a and z are zero,
   so row kernels run over whole pairs [j0, jend) (j0 even, jend = n rounded up to even) and
   the compiler turns each pair into one SSE2 operation */
enum { NMAX = IPC_EIG_SMALL_MAX, S = IPC_EIG_SMALL_MAX };

/* a = A / 2^p (both triangles averaged, stride S) with max |a_ij| in [1/2, 1); *scale = 2^p,
   0 for a zero matrix. Returns nonzero when A has a NaN or infinite entry. */
static int copy_scaled(int n, const double *A, double *a, double *scale) {
  double amax = 0.0;
  int bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const double v = 0.5 * A[i * n + j] + 0.5 * A[j * n + i];
      bad |= !isfinite(v);
      a[i * S + j] = v;
      amax = fmax(amax, fabs(v));
    }
  if (bad) return 1;
  *scale = 0.0;
  if (amax == 0.0) return 0;
  int p;
  frexp(amax, &p);
  *scale = ldexp(1.0, p);
  /* 2^-p as two normal factors: exact products, also for p near the exponent limits */
  const double f0 = ldexp(1.0, -p / 2), f1 = ldexp(1.0, -p - (-p / 2));
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j) a[i * S + j] = a[j * S + i] = a[i * S + j] * f0 * f1;
    for (int j = n; j < S; ++j) a[i * S + j] = 0.0;
  }
  return 0;
}

/* a (n x n, full symmetric, destroyed) = Z^T T Z with T = tridiag(e, d, e), e[n-1] = 0 */
static void tridiagonalize(int n, double *a, double *d, double *e, double *z) {
  double hv[NMAX * S], tau[NMAX], p[S]; /* row k of hv: reflector k, zero off k+1 .. n-1 */
  const int jend = (n + 1) & ~1;
  memset(hv, 0, sizeof hv);
  for (int k = 0; k + 2 < n; ++k) {
    const int j0 = (k + 1) & ~1;
    const double *x = a + k * S; /* row k = column k */
    double *v = hv + k * S;
    d[k] = x[k];
    double sigma = 0.0;
    for (int j = k + 2; j < n; ++j) sigma += x[j] * x[j];
    tau[k] = 0.0;
    if (sigma == 0.0) {
      e[k] = x[k + 1];
      continue;
    }
    const double x0 = x[k + 1], alpha = sqrt(x0 * x0 + sigma);
    const double v0 = x0 <= 0.0 ? x0 - alpha : -sigma / (x0 + alpha);
    const double t = 2.0 * v0 * v0 / (sigma + v0 * v0);
    e[k] = alpha;
    tau[k] = t;
    v[k + 1] = 1.0;
    for (int j = k + 2; j < n; ++j) v[j] = x[j] / v0;
    memset(p, 0, sizeof p);
    double pv = 0.0;
    for (int i = k + 1; i < n; ++i) {
      const double *bi = a + i * S;
      double s0 = 0.0, s1 = 0.0;
      for (int j = j0; j < jend; j += 2) {
        s0 += bi[j] * v[j];
        s1 += bi[j + 1] * v[j + 1];
      }
      p[i] = t * (s0 + s1);
      pv += p[i] * v[i];
    }
    const double half = 0.5 * t * pv;
    for (int i = k + 1; i < n; ++i) p[i] -= half * v[i];
    for (int i = k + 1; i < n; ++i) {
      double *bi = a + i * S;
      const double vi = v[i], pi = p[i];
      for (int j = j0; j < jend; j += 2) {
        bi[j] -= vi * p[j] + pi * v[j];
        bi[j + 1] -= vi * p[j + 1] + pi * v[j + 1];
      }
    }
  }
  if (n >= 2) {
    d[n - 2] = a[(n - 2) * S + n - 2];
    e[n - 2] = a[(n - 2) * S + n - 1];
  }
  d[n - 1] = a[(n - 1) * S + n - 1];
  e[n - 1] = 0.0;

  memset(z, 0, (size_t)n * S * sizeof(double));
  for (int i = 0; i < n; ++i) z[i * S + i] = 1.0;
  for (int k = n - 3; k >= 0; --k) {
    if (tau[k] == 0.0) continue;
    const int j0 = (k + 1) & ~1;
    const double *v = hv + k * S;
    for (int i = k + 1; i < n; ++i) {
      double *zi = z + i * S;
      double s0 = 0.0, s1 = 0.0;
      for (int j = j0; j < jend; j += 2) {
        s0 += zi[j] * v[j];
        s1 += zi[j + 1] * v[j + 1];
      }
      const double s = tau[k] * (s0 + s1);
      for (int j = j0; j < jend; j += 2) {
        zi[j] -= s * v[j];
        zi[j + 1] -= s * v[j + 1];
      }
    }
  }
}

/* rows k, k+1 of z <- [c s; -s c] times them */
static void rotate_rows(int n, double *z, int k, double c, double s) {
  double *zk = z + k * S, *zl = zk + S;
  const int jend = (n + 1) & ~1;
  for (int j = 0; j < jend; j += 2) {
    const double x0 = zk[j], y0 = zl[j], x1 = zk[j + 1], y1 = zl[j + 1];
    zk[j] = c * x0 + s * y0;
    zk[j + 1] = c * x1 + s * y1;
    zl[j] = c * y0 - s * x0;
    zl[j + 1] = c * y1 - s * x1;
  }
}

/* (c, s) with c x + s z = r, c z - s x = 0, c^2 + s^2 = 1 */
static void givens(double x, double z, double *c, double *s) {
  const double r2 = x * x + z * z;
  if (r2 > 1e-280 && r2 < 1e280) {
    const double r = sqrt(r2);
    *c = x / r;
    *s = z / r;
  } else if (z == 0.0) {
    *c = 1.0;
    *s = 0.0;
  } else if (fabs(z) > fabs(x)) {
    const double t = x / z;
    *s = 1.0 / sqrt(1.0 + t * t);
    *c = t * *s;
  } else {
    const double t = z / x;
    *c = 1.0 / sqrt(1.0 + t * t);
    *s = t * *c;
  }
}

/* |e| below eps times its diagonal neighbours, or below tiny = eps |T| */
static int negligible(double e, double d0, double d1, double tiny) {
  const double ae = fabs(e);
  return ae <= tiny || ae <= DBL_EPSILON * (fabs(d0) + fabs(d1));
}

/* diagonalizes the 2 x 2 block of rows l, l+1 by one Jacobi rotation */
static void solve_2x2(int n, double *d, double *e, double *z, int l) {
  const double a = d[l], f = e[l], g = d[l + 1];
  const double theta = (g - a) / (2.0 * f);
  double t;
  if (fabs(theta) > 1e150) {
    t = 0.5 / theta;
  } else {
    t = 1.0 / (fabs(theta) + sqrt(theta * theta + 1.0));
    if (theta < 0.0) t = -t;
  }
  const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
  d[l] = a - t * f;
  d[l + 1] = g + t * f;
  e[l] = 0.0;
  rotate_rows(n, z, l, c, -s);
}

/* one implicit Wilkinson-shifted QR step on the unreduced block [l, m] */
static void qr_step(int n, double *d, double *e, double *z, int l, int m) {
  const double em = e[m - 1];
  const double rho = (d[m - 1] - d[m]) / (2.0 * em);
  const double root = fabs(rho) > 1e150 ? fabs(rho) : sqrt(rho * rho + 1.0);
  const double mu = d[m] - em / (rho + (rho < 0.0 ? -root : root));
  double x = d[l] - mu, y = e[l];
  for (int k = l; k < m; ++k) {
    double c, s;
    givens(x, y, &c, &s);
    if (k > l) e[k - 1] = c * x + s * y;
    const double a = d[k], f = e[k], g = d[k + 1];
    const double cc = c * c, ss = s * s, cs2 = 2.0 * c * s;
    d[k] = cc * a + cs2 * f + ss * g;
    d[k + 1] = ss * a - cs2 * f + cc * g;
    e[k] = c * s * (g - a) + (cc - ss) * f;
    if (k + 1 < m) {
      x = e[k];
      y = s * e[k + 1];
      e[k + 1] *= c;
    }
    rotate_rows(n, z, k, c, s);
  }
}

/* diagonalizes T = tridiag(e, d, e) in place, rotating the rows of z along.
   Returns nonzero when the iteration budget ran out. */
static int tridiagonal_qr(int n, double *d, double *e, double *z) {
  int budget = 30 * n;
  double tnorm = 0.0;
  for (int i = 0; i < n; ++i)
    tnorm = fmax(tnorm, fabs(d[i]) + fabs(e[i]) + (i > 0 ? fabs(e[i - 1]) : 0.0));
  const double tiny = DBL_EPSILON * tnorm;
  int m = n - 1;
  while (m > 0) {
    if (negligible(e[m - 1], d[m - 1], d[m], tiny)) {
      e[m - 1] = 0.0;
      --m;
      continue;
    }
    int l = m - 1;
    while (l > 0 && !negligible(e[l - 1], d[l - 1], d[l], tiny)) --l;
    if (l > 0) e[l - 1] = 0.0;
    if (--budget < 0) return 1;
    if (m - l == 1) {
      solve_2x2(n, d, e, z, l);
      m = l - 1;
    } else {
      qr_step(n, d, e, z, l, m);
    }
  }
  return 0;
}

/* eigenvalues d (of A / scale, unordered) and eigenvectors as rows of z (stride S);
   scale = 0 for A = 0 */
static int eig_scaled(int n, const double *A, double *d, double *z, double *scale) {
  double a[NMAX * S], e[NMAX];
  if (copy_scaled(n, A, a, scale)) return 2;
  if (*scale == 0.0) {
    memset(d, 0, (size_t)n * sizeof(double));
    memset(z, 0, (size_t)n * S * sizeof(double));
    for (int i = 0; i < n; ++i) z[i * S + i] = 1.0;
    return 0;
  }
  tridiagonalize(n, a, d, e, z);
  return tridiagonal_qr(n, d, e, z);
}

int ipc_eig_sym_small(int n, const double *A, double *w, double *V) {
  assert(n >= 1 && n <= NMAX);
  double d[NMAX], z[NMAX * S], scale;
  const int status = eig_scaled(n, A, d, z, &scale);
  if (status) return status;
  /* stable insertion sort of the indices by eigenvalue */
  int idx[NMAX];
  for (int k = 0; k < n; ++k) {
    int j = k;
    for (; j > 0 && d[idx[j - 1]] > d[k]; --j) idx[j] = idx[j - 1];
    idx[j] = k;
  }
  for (int k = 0; k < n; ++k) w[k] = d[idx[k]] * scale;
  if (V)
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) V[i * n + k] = z[idx[k] * S + i];
  return 0;
}

/* Cholesky without pivoting on the lower triangle: 1 when every pivot is positive */
static int cholesky_ok(int n, const double *H) {
  double L[NMAX * NMAX];
  for (int j = 0; j < n; ++j) {
    double djj = H[j * n + j];
    for (int k = 0; k < j; ++k) djj -= L[j * n + k] * L[j * n + k];
    if (!(djj > 0.0)) return 0;
    const double ljj = sqrt(djj), inv = 1.0 / ljj;
    L[j * n + j] = ljj;
    for (int i = j + 1; i < n; ++i) {
      double s = H[i * n + j];
      for (int k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s * inv;
    }
  }
  return 1;
}

int ipc_psd_project_small(int n, double *H) {
  assert(n >= 1 && n <= NMAX);
  int symmetric = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) symmetric &= H[i * n + j] == H[j * n + i];
  if (symmetric && cholesky_ok(n, H)) return 0;
  double d[NMAX], z[NMAX * S], scale;
  const int status = eig_scaled(n, H, d, z, &scale);
  if (status) return status;
  int neg = 0;
  for (int k = 0; k < n; ++k) neg += d[k] < 0.0;
  const int subtract = 2 * neg <= n;
  if (subtract && neg == 0 && symmetric) return 0;
  double w[NMAX];
  int list[NMAX], nl = 0;
  for (int k = 0; k < n; ++k)
    if (subtract ? d[k] < 0.0 : d[k] > 0.0) {
      w[nl] = d[k] * scale;
      list[nl++] = k;
    }
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      double s = subtract ? 0.5 * H[i * n + j] + 0.5 * H[j * n + i] : 0.0;
      for (int q = 0; q < nl; ++q) {
        const double *zk = z + list[q] * S;
        const double t = w[q] * zk[i] * zk[j];
        s = subtract ? s - t : s + t;
      }
      H[i * n + j] = s;
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) H[i * n + j] = H[j * n + i];
  return 0;
}
