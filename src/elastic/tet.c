/* linear tetrahedra: rest precompute, deformation gradient, the map dF/dx, and the
   assembly of gradients and (projected) Hessians from the analytic eigensystem of an
   isotropic energy.

   F = Ds Dm^-1 with Ds = [x1-x0, x2-x0, x3-x0], so dF_ij/dx_{a,m} = delta_im G_{a-1,j}
   (a = 1..3, G = Dm^-1) and vertex 0 gets minus the sum of the others (translation
   invariance). For a 3x3 matrix Q the pulled-back vector dFdx^T vec(Q) over vertices 1..3
   is vec(Q G^T), so with F = U diag(s) V^T and W = G V:

     gradient  volume * U diag(dpsi) W^T
     Hessian   volume * sum over the 9 eigenmodes lambda_k w_k w_k^T,

   where the mode U M V^T maps to U M W^T: scaling modes combine the 3x3 block d2psi over
   u_i w_i^T; flip / twist modes of the pair (i, j) are (u_i w_j^T +- u_j w_i^T) / sqrt 2
   (Smith, De Goes & Kim, "Analytic Eigensystems for Isotropic Distortion Energies", TOG
   2019). Projection clamps the flip / twist eigenvalues at 0 and projects the 3x3 block,
   which projects the 9x9 Hessian w.r.t. F exactly; dFdx^T [.]+ dFdx is then PSD. The 9x9
   block of vertices 1..3 is formed this way, the rows and columns of vertex 0 follow as
   negated sums. The same assembly with W = V gives the 9x9 Hessian w.r.t. F. */
#include <math.h>
#include <string.h>

#include "elastic/elasticity.h"
#include "linalg/dense.h"

void ipc_lame_from_young(double young, double poisson, double *mu, double *lambda) {
  *mu = young / (2.0 * (1.0 + poisson));
  *lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
}

static double model_psi(ipc_material_model model, double mu, double lambda, const double F[9],
                        double P[9]) {
  switch (model) {
    case IPC_NEO_HOOKEAN:
      return ipc_neo_hookean_psi(mu, lambda, F, P);
    case IPC_FIXED_COROTATED:
      return ipc_fixed_corotated_psi(mu, lambda, F, P);
    case IPC_STVK:
      return ipc_stvk_psi(mu, lambda, F, P);
  }
  return NAN;
}

static double model_sigma(ipc_material_model model, double mu, double lambda, const double s[3],
                          ipc_sigma_derivs *d) {
  switch (model) {
    case IPC_NEO_HOOKEAN:
      return ipc_neo_hookean_sigma(mu, lambda, s, d);
    case IPC_FIXED_COROTATED:
      return ipc_fixed_corotated_sigma(mu, lambda, s, d);
    case IPC_STVK:
      return ipc_stvk_sigma(mu, lambda, s, d);
  }
  return NAN;
}

/* O + 9 (3i + j): the vector u_i w_j^T (layout_uw: index 3m + n for u[m] w[n], else 3n + m) */
static void outer_modes(const double U[9], const double W[9], int layout_uw, double O[81]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int m = 0; m < 3; ++m)
        for (int n = 0; n < 3; ++n)
          O[9 * (3 * i + j) + (layout_uw ? 3 * m + n : 3 * n + m)] = U[3 * m + i] * W[3 * n + j];
}

/* g = scale * sum_i dpsi_i u_i w_i^T in the layout of O */
static void assemble_gradient(const double O[81], const ipc_sigma_derivs *d, double scale,
                              double g[9]) {
  const double c0 = scale * d->dpsi[0], c1 = scale * d->dpsi[1], c2 = scale * d->dpsi[2];
  for (int r = 0; r < 9; ++r) g[r] = c0 * O[r] + c1 * O[36 + r] + c2 * O[72 + r];
}

/* the original IPC's projection of one flip / twist pair (IglUtils::makePD2d on the 2x2
   block [[l + r, l - r], [l - r, l + r]] of the modes u_i w_j^T, u_j w_i^T, where 2l is the
   flip and 2r the twist eigenvalue). When the smaller eigenvalue, computed as
   T/2 - sqrt(T^2/4 - det) from the trace and determinant, is negative, IPC replaces the block
   by w w^T / L1 with w = (L1 - d, b) and L1 the larger eigenvalue: the right eigenvector, but
   the eigenvalue |w|^2 / L1 = (l - r)^2 / max(l, r) instead of 2 max(l, r) (half of it when
   the other eigenvalue is near 0), and zero when both are negative. Only for matching IPC's
   Newton iterations (scenes read from IPC scripts); a PSD matrix either way.
   Near the rest state (F = I up to rounding, r ~ 1e-16 l) IPC's test fires on rounding noise,
   at random; tools/ipc_self_spread.py shows IPC disagreeing with itself there once its input
   is merely renumbered. Within IPC_PAIR_NOISE of the larger eigenvalue the exact clamp is
   taken instead, so that the rest state is deterministic. */
#define IPC_PAIR_NOISE 1e-9
static void ipc_pair_project(double *lf, double *lt) {
  const double l = 0.5 * *lf, r = 0.5 * *lt;
  const double a = l + r, b = l - r, b2 = b * b;
  const double det = a * a - b2, half_tr = a;
  const double root = sqrt(half_tr * half_tr - det);
  if (!(half_tr - root < 0.0)) return;
  if (fmin(l, r) > -IPC_PAIR_NOISE * fmax(fabs(l), fabs(r))) {
    *lf = fmax(*lf, 0.0);
    *lt = fmax(*lt, 0.0);
    return;
  }
  const double L1 = half_tr + root;
  double B00, B01;
  if (L1 <= 0.0) {
    B00 = B01 = 0.0;
  } else if (b2 == 0.0) {
    B00 = 0.5 * L1; /* diag(L1, 0) averaged over the swap of the two modes */
    B01 = 0.0;
  } else {
    const double m = L1 - a, q = m / L1;
    B00 = 0.5 * (q * m + b2 / L1);
    B01 = b * q;
  }
  *lf = B00 + B01;
  *lt = B00 - B01;
}

/* K (9x9) = scale * sum over eigenmodes, eigenvalues clamped at 0 when project != 0 */
static void assemble_hessian(const double O[81], const ipc_sigma_derivs *d, int project,
                             double scale, double K[81]) {
  static const int PI[3] = {0, 0, 1}, PJ[3] = {1, 2, 2};
  double A[9];
  memcpy(A, d->d2psi, sizeof A);
  if (project) ipc_psd_project3(A);
  /* K = sum_q c_q z_q^T: rows of C are c (9 x 9 modes), rows of Z the z vectors */
  double C[9][9], Z[9][9];
  for (int r = 0; r < 9; ++r) {
    for (int k = 0; k < 3; ++k) {
      C[k][r] = O[36 * k + r];
      Z[k][r] = scale * (A[3 * k] * O[r] + A[3 * k + 1] * O[36 + r] + A[3 * k + 2] * O[72 + r]);
    }
  }
  for (int p = 0; p < 3; ++p) {
    double lf = d->flip[p], lt = d->twist[p];
    if (project == IPC_PROJECT_IPC)
      ipc_pair_project(&lf, &lt);
    else if (project) {
      lf = lf > 0.0 ? lf : 0.0;
      lt = lt > 0.0 ? lt : 0.0;
    }
    lf *= 0.5 * scale;
    lt *= 0.5 * scale;
    const double *a = O + 9 * (3 * PI[p] + PJ[p]), *b = O + 9 * (3 * PJ[p] + PI[p]);
    for (int r = 0; r < 9; ++r) {
      const double f = a[r] + b[r], t = a[r] - b[r];
      C[3 + p][r] = f;
      Z[3 + p][r] = lf * f;
      C[6 + p][r] = t;
      Z[6 + p][r] = lt * t;
    }
  }
  for (int r = 0; r < 9; ++r)
    for (int s = r; s < 9; ++s) {
      double v = 0.0;
      for (int q = 0; q < 9; ++q) v += C[q][r] * Z[q][s];
      K[9 * r + s] = K[9 * s + r] = v;
    }
}

double ipc_elastic_density(ipc_material_model model, double mu, double lambda, const double F[9],
                           double P[9], double dPdF[81], int project) {
  if (!dPdF) return model_psi(model, mu, lambda, F, P);
  /* fixed corotated: psi from this SVD, as model_psi computes it */
  const double psi = model == IPC_FIXED_COROTATED ? 0.0 : model_psi(model, mu, lambda, F, NULL);
  if (psi == INFINITY) return INFINITY;
  double U[9], s[3], V[9], O[81];
  ipc_sigma_derivs d;
  ipc_svd3(F, U, s, V);
  if (model_sigma(model, mu, lambda, s, &d) == INFINITY) return INFINITY;
  outer_modes(U, V, 1, O);
  if (P) assemble_gradient(O, &d, 1.0, P);
  assemble_hessian(O, &d, project == IPC_PROJECT_EIGEN ? 0 : project, 1.0, dPdF);
  if (project == IPC_PROJECT_EIGEN) ipc_psd_project(9, dPdF);
  return model == IPC_FIXED_COROTATED ? d.psi : psi;
}

int ipc_tet_rest(const double X[12], double DmInv[9], double *volume) {
  double Dm[9];
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 3; ++i) Dm[3 * i + a] = X[3 * (a + 1) + i] - X[i];
  double L2 = 0.0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      double e2 = 0.0;
      for (int i = 0; i < 3; ++i)
        e2 += (X[3 * a + i] - X[3 * b + i]) * (X[3 * a + i] - X[3 * b + i]);
      L2 = e2 > L2 ? e2 : L2;
    }
  const double det = ipc_det3(Dm);
  if (!(det > 1e-12 * L2 * sqrt(L2)) || !isfinite(det)) return 0;
  const double inv = 1.0 / det;
  DmInv[0] = (Dm[4] * Dm[8] - Dm[5] * Dm[7]) * inv;
  DmInv[1] = (Dm[2] * Dm[7] - Dm[1] * Dm[8]) * inv;
  DmInv[2] = (Dm[1] * Dm[5] - Dm[2] * Dm[4]) * inv;
  DmInv[3] = (Dm[5] * Dm[6] - Dm[3] * Dm[8]) * inv;
  DmInv[4] = (Dm[0] * Dm[8] - Dm[2] * Dm[6]) * inv;
  DmInv[5] = (Dm[2] * Dm[3] - Dm[0] * Dm[5]) * inv;
  DmInv[6] = (Dm[3] * Dm[7] - Dm[4] * Dm[6]) * inv;
  DmInv[7] = (Dm[1] * Dm[6] - Dm[0] * Dm[7]) * inv;
  DmInv[8] = (Dm[0] * Dm[4] - Dm[1] * Dm[3]) * inv;
  *volume = det / 6.0;
  return 1;
}

void ipc_tet_deformation(const double x[12], const double DmInv[9], double F[9]) {
  for (int i = 0; i < 3; ++i) {
    const double d1 = x[3 + i] - x[i], d2 = x[6 + i] - x[i], d3 = x[9 + i] - x[i];
    for (int j = 0; j < 3; ++j)
      F[3 * i + j] = d1 * DmInv[j] + d2 * DmInv[3 + j] + d3 * DmInv[6 + j];
  }
}

/* 12-vector from the 9-vector of vertices 1..3 */
static void expand_gradient(const double g9[9], double g[12]) {
  for (int m = 0; m < 3; ++m) g[m] = -(g9[m] + g9[3 + m] + g9[6 + m]);
  memcpy(g + 3, g9, 9 * sizeof(double));
}

/* 12x12 from the 9x9 block of vertices 1..3 (rows/columns of vertex 0 are negated sums) */
static void expand_hessian(const double K[81], double H[144]) {
  for (int r = 0; r < 9; ++r) {
    memcpy(H + 12 * (r + 3) + 3, K + 9 * r, 9 * sizeof(double));
    for (int n = 0; n < 3; ++n) {
      const double v = -(K[9 * r + n] + K[9 * r + 3 + n] + K[9 * r + 6 + n]);
      H[12 * (r + 3) + n] = v;
      H[12 * n + r + 3] = v;
    }
  }
  for (int m = 0; m < 3; ++m)
    for (int n = m; n < 3; ++n)
      H[12 * m + n] = H[12 * n + m] = -(H[12 * m + 3 + n] + H[12 * m + 6 + n] + H[12 * m + 9 + n]);
}

double ipc_tet_energy(ipc_material_model model, double mu, double lambda, const double x[12],
                      const double DmInv[9], double volume, double g[12], double H[144],
                      int project) {
  double F[9];
  ipc_tet_deformation(x, DmInv, F);
  if (!H) {
    double P[9];
    const double psi = model_psi(model, mu, lambda, F, g ? P : NULL);
    if (psi == INFINITY) return INFINITY;
    if (g) {
      double g9[9];
      for (int a = 0; a < 3; ++a)
        for (int m = 0; m < 3; ++m)
          g9[3 * a + m] = volume * (P[3 * m] * DmInv[3 * a] + P[3 * m + 1] * DmInv[3 * a + 1] +
                                    P[3 * m + 2] * DmInv[3 * a + 2]);
      expand_gradient(g9, g);
    }
    return volume * psi;
  }
  /* the energy value is computed as in model_psi, so it is bitwise the same with or
     without derivatives (line searches compare both) */
  const double psi = model == IPC_FIXED_COROTATED ? 0.0 : model_psi(model, mu, lambda, F, NULL);
  if (psi == INFINITY) return INFINITY;
  double U[9], s[3], V[9], W[9], O[81];
  ipc_sigma_derivs d;
  ipc_svd3(F, U, s, V);
  if (model_sigma(model, mu, lambda, s, &d) == INFINITY) return INFINITY;
  const double energy = volume * (model == IPC_FIXED_COROTATED ? d.psi : psi);
  for (int a = 0; a < 3; ++a)
    for (int k = 0; k < 3; ++k)
      W[3 * a + k] =
          DmInv[3 * a] * V[k] + DmInv[3 * a + 1] * V[3 + k] + DmInv[3 * a + 2] * V[6 + k];
  outer_modes(U, W, 0, O);
  if (g) {
    double g9[9];
    assemble_gradient(O, &d, volume, g9);
    expand_gradient(g9, g);
  }
  if (H) {
    double K[81];
    assemble_hessian(O, &d, project == IPC_PROJECT_EIGEN ? 0 : project, volume, K);
    expand_hessian(K, H);
    if (project == IPC_PROJECT_EIGEN) ipc_psd_project(12, H);
  }
  return energy;
}

int ipc_tets_rest(int ntets, const int *tets, const double *X, double *DmInv, double *volume) {
  int bad = -1;
  for (int t = 0; t < ntets; ++t) {
    double Xt[12];
    for (int a = 0; a < 4; ++a)
      memcpy(Xt + 3 * a, X + 3 * (size_t)tets[4 * t + a], 3 * sizeof(double));
    if (!ipc_tet_rest(Xt, DmInv + 9 * (size_t)t, volume + t)) {
      memset(DmInv + 9 * (size_t)t, 0, 9 * sizeof(double));
      volume[t] = 0.0;
      if (bad < 0) bad = t;
    }
  }
  return bad;
}

static void gather(const int *tet, const double *x, double xt[12]) {
  for (int a = 0; a < 4; ++a) memcpy(xt + 3 * a, x + 3 * (size_t)tet[a], 3 * sizeof(double));
}

double ipc_tets_energy(ipc_material_model model, double mu, double lambda, int ntets,
                       const int *tets, const double *DmInv, const double *volume,
                       const double *x) {
  double total = 0.0;
  for (int t = 0; t < ntets; ++t) {
    double xt[12];
    gather(tets + 4 * (size_t)t, x, xt);
    total += ipc_tet_energy(model, mu, lambda, xt, DmInv + 9 * (size_t)t, volume[t], NULL, NULL, 0);
  }
  return total;
}

double ipc_tets_derivatives(ipc_material_model model, double mu, double lambda, int ntets,
                            const int *tets, const double *DmInv, const double *volume,
                            const double *x, double *energy, double *grad, double *hess,
                            int project) {
  double total = 0.0;
  for (int t = 0; t < ntets; ++t) {
    double xt[12];
    double *g = grad ? grad + 12 * (size_t)t : NULL, *H = hess ? hess + 144 * (size_t)t : NULL;
    gather(tets + 4 * (size_t)t, x, xt);
    const double e =
        ipc_tet_energy(model, mu, lambda, xt, DmInv + 9 * (size_t)t, volume[t], g, H, project);
    if (e == INFINITY) {
      if (g) memset(g, 0, 12 * sizeof(double));
      if (H) memset(H, 0, 144 * sizeof(double));
    }
    if (energy) energy[t] = e;
    total += e;
  }
  return total;
}
