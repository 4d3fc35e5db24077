/* Saint Venant-Kirchhoff energy density (Bonet & Wood, Nonlinear Continuum Mechanics for
   FEA, sec. 6.4.2; as in IPC):

     Psi(F) = mu |E|^2 + lambda/2 tr(E)^2,   E = (F^T F - I) / 2,
     P = F (2 mu E + lambda tr(E) I).

   In signed singular values s (E has eigenvalues (s_i^2 - 1) / 2, I2 = sum s_i^2):
     Psi             = mu/4 sum_i (s_i^2 - 1)^2 + lambda/8 (I2 - 3)^2
     dPsi/ds_i       = mu (s_i^2 - 1) s_i + lambda/2 (I2 - 3) s_i
     d2Psi/ds_i^2    = mu (3 s_i^2 - 1) + lambda/2 (I2 - 3) + lambda s_i^2
     d2Psi/ds_i ds_j = lambda s_i s_j
     flip  = (dpsi_i - dpsi_j) / (s_i - s_j) = mu (s_i^2 + s_i s_j + s_j^2 - 1) + lambda/2 (I2 - 3)
     twist = (dpsi_i + dpsi_j) / (s_i + s_j) = mu (s_i^2 - s_i s_j + s_j^2 - 1) + lambda/2 (I2 - 3)
   (Smith, De Goes & Kim, "Analytic Eigensystems for Isotropic Distortion Energies", TOG
   2019, sec. 7). Defined for every F, inverted included. */
#include "elastic/elasticity.h"

double ipc_stvk_psi(double mu, double lambda, const double F[9], double P[9]) {
  double E[9];
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      double c = F[i] * F[j] + F[3 + i] * F[3 + j] + F[6 + i] * F[6 + j];
      if (i == j) c -= 1.0;
      E[3 * i + j] = E[3 * j + i] = 0.5 * c;
    }
  const double tr = E[0] + E[4] + E[8];
  double e2 = 0.0;
  for (int k = 0; k < 9; ++k) e2 += E[k] * E[k];
  if (P) {
    double S[9];
    for (int k = 0; k < 9; ++k) S[k] = 2.0 * mu * E[k];
    S[0] += lambda * tr;
    S[4] += lambda * tr;
    S[8] += lambda * tr;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        P[3 * i + j] = F[3 * i] * S[j] + F[3 * i + 1] * S[3 + j] + F[3 * i + 2] * S[6 + j];
  }
  return mu * e2 + 0.5 * lambda * tr * tr;
}

double ipc_stvk_sigma(double mu, double lambda, const double s[3], ipc_sigma_derivs *d) {
  double e[3], psi = 0.0;
  for (int i = 0; i < 3; ++i) {
    e[i] = (s[i] - 1.0) * (s[i] + 1.0);
    psi += e[i] * e[i];
  }
  const double I2m3 = e[0] + e[1] + e[2];
  const double h = 0.5 * lambda * I2m3;
  for (int i = 0; i < 3; ++i) {
    d->dpsi[i] = mu * e[i] * s[i] + h * s[i];
    d->d2psi[4 * i] = mu * (3.0 * s[i] * s[i] - 1.0) + h + lambda * s[i] * s[i];
  }
  d->d2psi[1] = d->d2psi[3] = lambda * s[0] * s[1];
  d->d2psi[2] = d->d2psi[6] = lambda * s[0] * s[2];
  d->d2psi[5] = d->d2psi[7] = lambda * s[1] * s[2];
  static const int I[3] = {0, 0, 1}, Jx[3] = {1, 2, 2};
  for (int p = 0; p < 3; ++p) {
    const double a = s[I[p]], b = s[Jx[p]];
    d->flip[p] = mu * (a * a + a * b + b * b - 1.0) + h;
    d->twist[p] = mu * (a * a - a * b + b * b - 1.0) + h;
  }
  d->psi = 0.25 * mu * psi + 0.125 * lambda * I2m3 * I2m3;
  return d->psi;
}
