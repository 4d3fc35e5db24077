/* tests for src/elastic: per-tet Neo-Hookean, fixed corotated and StVK energies, their
   gradients and Hessians against central finite differences, the analytic PSD projection
   against the LAPACKE projection, the original IPC's projection (IPC_PROJECT_IPC) rebuilt
   mode by mode, rest state, invariances and the batched evaluation */
#include <math.h>
#include <string.h>

#include "elastic/elasticity.h"
#include "linalg/dense.h"
#include "random_matrices.h"
#include "test.h"

/* x_a = A X_a + t */
static void transform(const double A[9], const double t[3], const double X[12], double x[12]) {
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      x[3 * a + i] =
          A[3 * i] * X[3 * a] + A[3 * i + 1] * X[3 * a + 1] + A[3 * i + 2] * X[3 * a + 2] + t[i];
}

/* a random, positively oriented, reasonably shaped rest tet of size about L */
static void random_rest(double L, double X[12]) {
  static const double reg[12] = {1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1};
  double Y[12], R[9], t[3] = {urand(), urand(), urand()};
  for (;;) {
    for (int k = 0; k < 12; ++k) Y[k] = 0.5 * L * (reg[k] + 0.3 * urand());
    random_rotation(R);
    transform(R, t, Y, X);
    double DmInv[9], vol;
    if (ipc_tet_rest(X, DmInv, &vol)) return;
    /* regular tet listed with negative orientation: swap two vertices */
    for (int i = 0; i < 3; ++i) {
      const double tmp = X[3 + i];
      X[3 + i] = X[6 + i];
      X[6 + i] = tmp;
    }
    if (ipc_tet_rest(X, DmInv, &vol)) return;
  }
}

enum { NEAR_REST, STRETCH, COMPRESS, MIXED, REPEATED, INVERTED, MILD_STRETCH, FLAT, NKINDS };
static const char *kind_name[NKINDS] = {"near rest", "stretch",  "compress",     "mixed",
                                        "repeated",  "inverted", "mild stretch", "flat"};

/* singular values of a deformation of the given kind for model m */
static void random_singular_values(int kind, ipc_material_model m, double d[3]) {
  switch (kind) {
    case NEAR_REST:
      for (int k = 0; k < 3; ++k) d[k] = 1.0 + 1e-3 * urand();
      break;
    case STRETCH:
      for (int k = 0; k < 3; ++k) d[k] = urange(1.5, 3.0);
      break;
    case COMPRESS:
      d[0] = urange(0.5, 1.5);
      d[1] = urange(0.5, 1.5);
      d[2] = urange(0.02, 0.1);
      break;
    case MIXED:
      for (int k = 0; k < 3; ++k) d[k] = urange(0.3, 2.0);
      break;
    case REPEATED:
      d[0] = d[1] = urange(0.6, 1.6);
      d[2] = urand() > 0.0 ? d[0] : urange(0.6, 1.6);
      d[1] += 1e-9 * urand();
      break;
    case INVERTED:
      d[0] = urange(0.5, 1.5);
      d[1] = urange(0.5, 1.5);
      /* keep s1 + s2 >= 0.2: the fixed corotated rotation jumps where it vanishes */
      d[2] = -urange(0.05, fmin(d[0], d[1]) - 0.2);
      if (m == IPC_NEO_HOOKEAN) d[2] = -d[2];
      break;
    case MILD_STRETCH:
      for (int k = 0; k < 3; ++k) d[k] = urange(1.03, 1.2);
      break;
    case FLAT:
      /* rank-deficient F (Neo-Hookean: nearly so) */
      d[0] = urange(0.5, 1.5);
      d[1] = urange(0.5, 1.5);
      d[2] = m == IPC_NEO_HOOKEAN ? 0.01 : 0.0;
      break;
  }
}

static void random_deformation(int kind, ipc_material_model m, double F[9]) {
  double d[3] = {1, 1, 1}, R1[9], R2[9], D[9] = {0}, T[9];
  random_singular_values(kind, m, d);
  for (int k = 0; k < 3; ++k) D[4 * k] = d[k];
  random_rotation(R1);
  random_rotation(R2);
  matmul3(R1, D, T);
  matmul3(T, R2, F);
}

/* explicit dF/dx (9 x 12, F index 3i+j) built from the definition F = Ds DmInv */
static void dFdx_matrix(const double DmInv[9], double D[108]) {
  memset(D, 0, 108 * sizeof(double));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int a = 1; a < 4; ++a) {
        D[12 * (3 * i + j) + 3 * a + i] += DmInv[3 * (a - 1) + j];
        D[12 * (3 * i + j) + i] -= DmInv[3 * (a - 1) + j];
      }
}

/* H = vol D^T M D */
static void pull_back(const double D[108], const double M[81], double vol, double H[144]) {
  double MD[108];
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 12; ++c) {
      double s = 0.0;
      for (int k = 0; k < 9; ++k) s += M[9 * r + k] * D[12 * k + c];
      MD[12 * r + c] = s;
    }
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) {
      double s = 0.0;
      for (int k = 0; k < 9; ++k) s += D[12 * k + r] * MD[12 * k + c];
      H[12 * r + c] = vol * s;
    }
}

typedef struct material {
  ipc_material_model model;
  double mu, lambda;
} material;

static int psd_already = 0;

/* everything checked for one tet state */
static void check_state(const material *mat, int kind, const double x[12], const double DmInv[9],
                        double vol, double L) {
  const ipc_material_model m = mat->model;
  const double mu = mat->mu, la = mat->lambda;
  double g[12], H[144], Hp[144], gp[12], g0[12];
  double He[144];
  const double E = ipc_tet_energy(m, mu, la, x, DmInv, vol, g, H, IPC_PROJECT_NONE);
  const double Ep = ipc_tet_energy(m, mu, la, x, DmInv, vol, gp, Hp, IPC_PROJECT_ANALYTIC);
  const double E0 = ipc_tet_energy(m, mu, la, x, DmInv, vol, g0, NULL, IPC_PROJECT_NONE);
  const double Ee = ipc_tet_energy(m, mu, la, x, DmInv, vol, NULL, NULL, IPC_PROJECT_NONE);
  const double Eg = ipc_tet_energy(m, mu, la, x, DmInv, vol, NULL, He, IPC_PROJECT_EIGEN);
  CHECK_MSG(isfinite(E), "model %d kind %s", m, kind_name[kind]);
  if (!isfinite(E)) return;
  /* the energy value does not depend on which outputs are requested */
  CHECK(E == Ep && E == E0 && E == Ee && E == Eg);
  for (int k = 0; k < 12; ++k) CHECK(gp[k] == g[k]);
  const double gmax = max_abs(12, g), Hmax = max_abs(144, H);
  const double stiff = (mu + la) * vol / (L * L);
  for (int k = 0; k < 12; ++k)
    CHECK_MSG(fabs(g0[k] - g[k]) <= 1e-11 * gmax + 1e-13 * stiff * L, "closed-form gradient");

  /* central differences: energy -> gradient, gradient -> Hessian */
  const double h = 1e-6 * L;
  double errg = 0.0, errH = 0.0;
  for (int k = 0; k < 12; ++k) {
    double xp[12], xm[12], gpk[12], gmk[12];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[k] += h;
    xm[k] -= h;
    const double ep = ipc_tet_energy(m, mu, la, xp, DmInv, vol, gpk, NULL, IPC_PROJECT_NONE);
    const double em = ipc_tet_energy(m, mu, la, xm, DmInv, vol, gmk, NULL, IPC_PROJECT_NONE);
    errg = fmax(errg, fabs((ep - em) / (2 * h) - g[k]));
    for (int r = 0; r < 12; ++r)
      errH = fmax(errH, fabs((gpk[r] - gmk[r]) / (2 * h) - H[12 * r + k]));
  }
  CHECK_MSG(errg <= 1e-6 * gmax + 1e-9 * stiff * L, "model %d kind %s: gradient FD error %g of %g",
            m, kind_name[kind], errg, gmax);
  CHECK_MSG(errH <= 1e-6 * Hmax + 1e-9 * stiff, "model %d kind %s: Hessian FD error %g of %g", m,
            kind_name[kind], errH, Hmax);

  /* symmetry, PSD projection */
  double asym = 0.0;
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c)
      asym =
          fmax(asym, fabs(H[12 * r + c] - H[12 * c + r]) + fabs(Hp[12 * r + c] - Hp[12 * c + r]));
  CHECK(asym == 0.0);
  double lam[12];
  CHECK(ipc_sym_eig(12, Hp, lam, NULL) == 0);
  CHECK_MSG(lam[0] >= -1e-10 * fmax(fabs(lam[11]), fabs(lam[0])),
            "model %d kind %s: min eig %g max %g", m, kind_name[kind], lam[0], lam[11]);

  /* analytic projection of the 9x9 F-Hessian against LAPACKE, and the mapping by dF/dx */
  double F[9], P[9], A[81], Ap[81], Al[81], D[108], Href[144];
  ipc_tet_deformation(x, DmInv, F);
  const double psi = ipc_elastic_density(m, mu, la, F, P, A, IPC_PROJECT_NONE);
  CHECK_NEAR(vol * psi, E, 1e-13);
  ipc_elastic_density(m, mu, la, F, NULL, Ap, IPC_PROJECT_ANALYTIC);
  memcpy(Al, A, sizeof Al);
  CHECK(ipc_psd_project(9, Al) == 0);
  double Ae[81];
  CHECK(ipc_elastic_density(m, mu, la, F, NULL, Ae, IPC_PROJECT_EIGEN) == psi);
  CHECK(memcmp(Ae, Al, sizeof Ae) == 0);
  const double Amax = max_abs(81, A);
  double errp = 0.0;
  for (int k = 0; k < 81; ++k) errp = fmax(errp, fabs(Ap[k] - Al[k]));
  CHECK_MSG(errp <= 1e-11 * Amax, "model %d kind %s: analytic vs LAPACKE projection %g of %g", m,
            kind_name[kind], errp, Amax);
  dFdx_matrix(DmInv, D);
  pull_back(D, A, vol, Href);
  double errm = 0.0;
  for (int k = 0; k < 144; ++k) errm = fmax(errm, fabs(Href[k] - H[k]));
  CHECK_MSG(errm <= 1e-12 * Hmax, "unprojected mapping %g", errm);
  pull_back(D, Al, vol, Href);
  errm = 0.0;
  for (int k = 0; k < 144; ++k) errm = fmax(errm, fabs(Href[k] - Hp[k]));
  CHECK_MSG(errm <= 1e-11 * Hmax,
            "model %d kind %s: projected vs LAPACKE-projected mapping %g of %g", m, kind_name[kind],
            errm, Hmax);
  for (int c = 0; c < 12; ++c) {
    double s = 0.0;
    for (int k = 0; k < 9; ++k) s += D[12 * k + c] * P[k];
    CHECK(fabs(vol * s - g[c]) <= 1e-12 * gmax + 1e-14 * stiff * L);
  }

  /* projection leaves an already PSD Hessian unchanged */
  double lamA[9];
  CHECK(ipc_sym_eig(9, A, lamA, NULL) == 0);
  if (lamA[0] > 1e-8 * lamA[8]) {
    ++psd_already;
    for (int k = 0; k < 144; ++k) CHECK(fabs(Hp[k] - H[k]) <= 1e-12 * Hmax);
    for (int k = 0; k < 144; ++k) CHECK(fabs(He[k] - H[k]) <= 1e-12 * Hmax);
  }
}

/* IPC's makePD2d on the symmetric 2x2 [[a, b], [b, d]], as its source reads: when the smaller
   eigenvalue (trace / determinant form) is negative, w w^T / L1 with w = (L1 - d, b). lo, hi:
   the exact eigenvalues; a negative one within 1e-9 of the larger is rounding noise of the
   rest state, clamped exactly instead (IPC_PAIR_NOISE) */
static void ipc_makepd2d(double B[4], double lo, double hi) {
  const double a = B[0], b = 0.5 * (B[1] + B[2]), d = B[3], b2 = b * b;
  const double det = a * d - b2, half = 0.5 * (a + d), root = sqrt(half * half - det);
  if (!(half - root < 0.0)) return;
  if (lo > -1e-9 * fmax(fabs(lo), fabs(hi))) { /* B = lo e e^T + hi f f^T, lo -> 0 */
    const double l = 0.5 * (a + b), r = 0.5 * (a - b), lp = fmax(l, 0.0), rp = fmax(r, 0.0);
    B[0] = B[3] = lp + rp;
    B[1] = B[2] = lp - rp;
    return;
  }
  const double L1 = half + root;
  if (L1 <= 0.0) {
    B[0] = B[1] = B[2] = B[3] = 0.0;
  } else if (b2 == 0.0) {
    B[0] = L1;
    B[1] = B[2] = B[3] = 0.0;
  } else {
    const double m = L1 - d, q = m / L1;
    B[0] = q * m;
    B[1] = B[2] = b * q;
    B[3] = b2 / L1;
  }
}

/* IPC_PROJECT_IPC: the 9x9 F-Hessian rebuilt mode by mode from the SVD (scaling block
   projected, each pair's 2x2 block in the basis u_i v_j^T, u_j v_i^T through makePD2d) */
static void check_ipc_projection(const material *mat, const double F[9], int *halved) {
  const ipc_material_model m = mat->model;
  double Ai[81], Aa[81], U[9], s[3], V[9], ref[81];
  ipc_sigma_derivs d;
  const double psi = ipc_elastic_density(m, mat->mu, mat->lambda, F, NULL, Ai, IPC_PROJECT_IPC);
  if (!isfinite(psi)) return;
  ipc_elastic_density(m, mat->mu, mat->lambda, F, NULL, Aa, IPC_PROJECT_ANALYTIC);
  ipc_svd3(F, U, s, V);
  switch (m) {
    case IPC_NEO_HOOKEAN: ipc_neo_hookean_sigma(mat->mu, mat->lambda, s, &d); break;
    case IPC_FIXED_COROTATED: ipc_fixed_corotated_sigma(mat->mu, mat->lambda, s, &d); break;
    case IPC_STVK: ipc_stvk_sigma(mat->mu, mat->lambda, s, &d); break;
  }
  /* mode (i, j): the 3x3 matrix u_i v_j^T as a 9-vector (index 3r + c) */
  double M[3][3][9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) M[i][j][3 * r + c] = U[3 * r + i] * V[3 * c + j];
  double A3[9];
  memcpy(A3, d.d2psi, sizeof A3);
  ipc_psd_project3(A3);
  memset(ref, 0, sizeof ref);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 81; ++k) ref[k] += A3[3 * i + j] * M[i][i][k / 9] * M[j][j][k % 9];
  static const int PI[3] = {0, 0, 1}, PJ[3] = {1, 2, 2};
  for (int p = 0; p < 3; ++p) {
    const double l = 0.5 * d.flip[p], r = 0.5 * d.twist[p];
    double B[4] = {l + r, l - r, l - r, l + r};
    ipc_makepd2d(B, fmin(l, r), fmax(l, r));
    const double *e[2] = {M[PI[p]][PJ[p]], M[PJ[p]][PI[p]]};
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int k = 0; k < 81; ++k) ref[k] += B[2 * a + b] * e[a][k / 9] * e[b][k % 9];
    /* the documented effect: with one eigenvalue near 0 and the other positive, IPC's block
       carries half of the positive one */
    const double lo = fmin(l, r), hi = fmax(l, r);
    if (lo < 0.0 && lo > -1e-3 * hi) {
      CHECK_NEAR(B[0] + fabs(B[1]), hi, 2e-3 * hi);
      ++*halved;
    }
  }
  const double amax = max_abs(81, Aa);
  double err = 0.0;
  for (int k = 0; k < 81; ++k) err = fmax(err, fabs(ref[k] - Ai[k]));
  CHECK_MSG(err <= 1e-11 * amax, "model %d: IPC projection vs mode by mode %g of %g", m, err, amax);
  double lam[9];
  CHECK(ipc_sym_eig(9, Ai, lam, NULL) == 0);
  CHECK(lam[0] >= -1e-10 * amax);
  /* where no pair needs projecting, IPC's matrix is the analytic projection */
  int clean = 1;
  for (int p = 0; p < 3; ++p) clean &= d.flip[p] > 1e-6 * amax && d.twist[p] > 1e-6 * amax;
  if (clean)
    for (int k = 0; k < 81; ++k) CHECK(fabs(Ai[k] - Aa[k]) <= 1e-12 * amax);
}

static void test_ipc_projection(void) {
  int halved = 0;
  for (int mi = 0; mi < 3; ++mi) {
    material mat = {(ipc_material_model)mi, 0, 0};
    ipc_lame_from_young(1e5, 0.4, &mat.mu, &mat.lambda);
    for (int kind = 0; kind < NKINDS; ++kind)
      for (int rep = 0; rep < 40; ++rep) {
        double F[9];
        random_deformation(kind, mat.model, F);
        check_ipc_projection(&mat, F, &halved);
      }
    /* uniaxial compression by 1e-4: twist eigenvalues just below 0 on two pairs */
    const double Fc[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1 - 1e-4};
    check_ipc_projection(&mat, Fc, &halved);
  }
  CHECK_MSG(halved >= 3, "only %d pairs with a near-zero negative eigenvalue", halved);
}

static void test_states(void) {
  const material mats[] = {
      {IPC_NEO_HOOKEAN, 0, 0}, {IPC_FIXED_COROTATED, 0, 0}, {IPC_STVK, 0, 0},
      {IPC_NEO_HOOKEAN, 0, 0}, {IPC_FIXED_COROTATED, 0, 0}, {IPC_STVK, 0, 0},
  };
  int per_model_psd[3] = {0, 0, 0};
  for (int mi = 0; mi < 6; ++mi) {
    material mat = mats[mi];
    /* soft, nearly incompressible rubber and a stiff, compressible solid */
    if (mi < 3)
      ipc_lame_from_young(1e5, 0.45, &mat.mu, &mat.lambda);
    else
      ipc_lame_from_young(2e9, 0.3, &mat.mu, &mat.lambda);
    for (int kind = 0; kind < NKINDS; ++kind) {
      for (int rep = 0; rep < 40; ++rep) {
        const double L = urange(0.05, 2.0);
        double X[12], x[12], DmInv[9], vol, F[9];
        random_rest(L, X);
        CHECK(ipc_tet_rest(X, DmInv, &vol));
        random_deformation(kind, mat.model, F);
        const double t[3] = {urand(), urand(), urand()};
        transform(F, t, X, x);
        const int before = psd_already;
        check_state(&mat, kind, x, DmInv, vol, L);
        per_model_psd[mat.model] += psd_already - before;
      }
    }
  }
  for (int m = 0; m < 3; ++m)
    CHECK_MSG(per_model_psd[m] >= 20, "model %d: only %d states with a PSD Hessian", m,
              per_model_psd[m]);
}

/* Neo-Hookean is undefined for J <= 0: +INFINITY and untouched outputs */
static void test_neo_hookean_inverted(void) {
  double X[12], x[12], DmInv[9], vol;
  random_rest(1.0, X);
  CHECK(ipc_tet_rest(X, DmInv, &vol));
  const double refl[9] = {1, 0, 0, 0, 1, 0, 0, 0, -0.5};
  const double flat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
  const double zero[3] = {0, 0, 0};
  double mu, la;
  ipc_lame_from_young(1e6, 0.4, &mu, &la);
  for (int c = 0; c < 2; ++c) {
    transform(c ? flat : refl, zero, X, x);
    double g[12], H[144];
    for (int k = 0; k < 12; ++k) g[k] = 7.0;
    for (int k = 0; k < 144; ++k) H[k] = 7.0;
    CHECK(ipc_tet_energy(IPC_NEO_HOOKEAN, mu, la, x, DmInv, vol, g, H, IPC_PROJECT_ANALYTIC) ==
          INFINITY);
    CHECK(ipc_tet_energy(IPC_NEO_HOOKEAN, mu, la, x, DmInv, vol, g, NULL, IPC_PROJECT_NONE) ==
          INFINITY);
    CHECK(ipc_tet_energy(IPC_NEO_HOOKEAN, mu, la, x, DmInv, vol, NULL, NULL, IPC_PROJECT_NONE) ==
          INFINITY);
    for (int k = 0; k < 12; ++k) CHECK(g[k] == 7.0);
    for (int k = 0; k < 144; ++k) CHECK(H[k] == 7.0);
  }
}

/* zero energy and gradient at rest (also rigidly moved); rotation invariance */
static void test_rest_and_invariance(void) {
  for (int m = 0; m < 3; ++m)
    for (int rep = 0; rep < 50; ++rep) {
      double mu, la;
      ipc_lame_from_young(1e6, 0.4, &mu, &la);
      const double L = urange(0.1, 3.0);
      double X[12], x[12], DmInv[9], vol, g[12], H[144], R[9];
      random_rest(L, X);
      CHECK(ipc_tet_rest(X, DmInv, &vol));
      const double t[3] = {urand(), urand(), urand()};
      random_rotation(R);
      transform(R, t, X, x);
      const double scale = (mu + la) * vol;
      for (int c = 0; c < 2; ++c) {
        const double E = ipc_tet_energy((ipc_material_model)m, mu, la, c ? x : X, DmInv, vol, g, H,
                                        IPC_PROJECT_ANALYTIC);
        CHECK_MSG(fabs(E) <= 1e-13 * scale, "model %d rest energy %g", m, E);
        CHECK_MSG(max_abs(12, g) <= 1e-13 * scale / L, "model %d rest gradient %g", m,
                  max_abs(12, g));
      }
      /* E(R y + t) = E(y) and the gradient rotates with it */
      double F[9], y[12], ry[12], gy[12], gry[12];
      random_deformation(MIXED, (ipc_material_model)m, F);
      transform(F, t, X, y);
      transform(R, t, y, ry);
      const double Ey =
          ipc_tet_energy((ipc_material_model)m, mu, la, y, DmInv, vol, gy, NULL, IPC_PROJECT_NONE);
      const double Ery = ipc_tet_energy((ipc_material_model)m, mu, la, ry, DmInv, vol, gry, NULL,
                                        IPC_PROJECT_NONE);
      CHECK_NEAR(Ery / scale, Ey / scale, 1e-12);
      const double gmax = max_abs(12, gy);
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) {
          const double rg =
              R[3 * i] * gy[3 * a] + R[3 * i + 1] * gy[3 * a + 1] + R[3 * i + 2] * gy[3 * a + 2];
          CHECK(fabs(rg - gry[3 * a + i]) <= 1e-11 * gmax);
        }
    }
}

static void test_rest_precompute(void) {
  double X[12], DmInv[9], vol;
  random_rest(0.7, X);
  CHECK(ipc_tet_rest(X, DmInv, &vol));
  /* DmInv Dm = I, volume = det(Dm) / 6 by the triple product */
  double Dm[9], P[9];
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 3; ++i) Dm[3 * i + a] = X[3 * (a + 1) + i] - X[i];
  matmul3(DmInv, Dm, P);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK_NEAR(P[3 * i + j], i == j ? 1.0 : 0.0, 1e-13);
  const double *e1 = Dm, *e2 = Dm + 3, *e3 = Dm + 6; /* rows of Dm = columns of Dm^T */
  const double triple = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
                        e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                        e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  CHECK_NEAR(vol, triple / 6.0, 1e-14);
  CHECK(vol > 0.0);
  /* inverted (two vertices swapped) and flat tets are rejected */
  double Y[12];
  memcpy(Y, X, sizeof Y);
  memcpy(Y + 3, X + 6, 3 * sizeof(double));
  memcpy(Y + 6, X + 3, 3 * sizeof(double));
  CHECK(!ipc_tet_rest(Y, DmInv, &vol));
  const double flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1e-14};
  CHECK(!ipc_tet_rest(flat, DmInv, &vol));
  const double coincident[12] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1};
  CHECK(!ipc_tet_rest(coincident, DmInv, &vol));
  const double unit[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  CHECK(ipc_tet_rest(unit, DmInv, &vol));
  CHECK(vol == 1.0 / 6.0);
  double E, nu, mu, la;
  E = 1e6;
  nu = 0.25;
  ipc_lame_from_young(E, nu, &mu, &la);
  CHECK_NEAR(mu, 4e5, 1e-15);
  CHECK_NEAR(la, 4e5, 1e-15);
}

/* a cube of 5 tets: batched results equal the per-tet results */
static void test_batched(void) {
  const double X[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};
  int tets[20] = {0, 1, 2, 4, 1, 3, 2, 7, 1, 2, 4, 7, 4, 7, 5, 1, 2, 7, 6, 4};
  /* orient every tet positively */
  for (int t = 0; t < 5; ++t) {
    double Xt[12], DmInv[9], vol;
    for (int a = 0; a < 4; ++a) memcpy(Xt + 3 * a, X + 3 * tets[4 * t + a], 3 * sizeof(double));
    if (!ipc_tet_rest(Xt, DmInv, &vol)) {
      const int tmp = tets[4 * t + 1];
      tets[4 * t + 1] = tets[4 * t + 2];
      tets[4 * t + 2] = tmp;
    }
  }
  double DmInv[45], vol[5];
  CHECK(ipc_tets_rest(5, tets, X, DmInv, vol) == -1);
  double vsum = 0.0;
  for (int t = 0; t < 5; ++t) vsum += vol[t];
  CHECK_NEAR(vsum, 1.0, 1e-14);
  for (int m = 0; m < 3; ++m) {
    double mu, la, x[24];
    ipc_lame_from_young(1e6, 0.4, &mu, &la);
    for (int k = 0; k < 24; ++k) x[k] = X[k] * 1.1 + 0.05 * urand();
    double e[5], g[60], H[720];
    const double total = ipc_tets_derivatives((ipc_material_model)m, mu, la, 5, tets, DmInv, vol, x,
                                              e, g, H, IPC_PROJECT_ANALYTIC);
    const double te = ipc_tets_energy((ipc_material_model)m, mu, la, 5, tets, DmInv, vol, x);
    CHECK(total == te);
    double sum = 0.0;
    for (int t = 0; t < 5; ++t) {
      double xt[12], gt[12], Ht[144];
      for (int a = 0; a < 4; ++a) memcpy(xt + 3 * a, x + 3 * tets[4 * t + a], 3 * sizeof(double));
      const double et = ipc_tet_energy((ipc_material_model)m, mu, la, xt, DmInv + 9 * t, vol[t], gt,
                                       Ht, IPC_PROJECT_ANALYTIC);
      CHECK(et == e[t]);
      CHECK(memcmp(gt, g + 12 * t, sizeof gt) == 0);
      CHECK(memcmp(Ht, H + 144 * t, sizeof Ht) == 0);
      sum += et;
    }
    CHECK(sum == total);
    CHECK(total > 0.0);
  }
  /* an inverted tet: Neo-Hookean total is infinite, its outputs zeroed, others filled */
  double x[24];
  memcpy(x, X, sizeof x);
  x[3 * 0 + 2] = 2.0; /* vertex 0 pushed through the top */
  double mu, la, e[5], g[60], H[720];
  ipc_lame_from_young(1e6, 0.4, &mu, &la);
  const double total = ipc_tets_derivatives(IPC_NEO_HOOKEAN, mu, la, 5, tets, DmInv, vol, x, e, g,
                                            H, IPC_PROJECT_ANALYTIC);
  CHECK(total == INFINITY);
  CHECK(ipc_tets_energy(IPC_NEO_HOOKEAN, mu, la, 5, tets, DmInv, vol, x) == INFINITY);
  int ninf = 0;
  for (int t = 0; t < 5; ++t)
    if (e[t] == INFINITY) {
      ++ninf;
      CHECK(max_abs(12, g + 12 * t) == 0.0 && max_abs(144, H + 144 * t) == 0.0);
    } else {
      CHECK(isfinite(e[t]));
    }
  CHECK(ninf >= 1 && ninf < 5);
  /* a degenerate rest tet is reported by index */
  int tets_bad[20];
  memcpy(tets_bad, tets, sizeof tets_bad);
  for (int a = 0; a < 4; ++a) tets_bad[4 * 3 + a] = a; /* tet 3 on the flat bottom face */
  CHECK(ipc_tets_rest(5, tets_bad, X, DmInv, vol) == 3);
  CHECK(vol[3] == 0.0 && vol[4] > 0.0);
}

int main(void) {
  test_rest_precompute();
  test_rest_and_invariance();
  test_neo_hookean_inverted();
  test_states();
  test_ipc_projection();
  test_batched();
  fprintf(stderr, "states with an already PSD F-Hessian: %d\n", psd_already);
  TEST_MAIN_END();
}
