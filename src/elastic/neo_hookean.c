/* Neo-Hookean energy density as used by IPC (Li et al., "Incremental Potential Contact",
   SIGGRAPH 2020; Bonet & Wood, Nonlinear Continuum Mechanics for FEA, sec. 6.4.3):

     Psi(F) = mu/2 (tr(F^T F) - 3) - mu ln J + lambda/2 (ln J)^2,   J = det F > 0,
     P = dPsi/dF = mu F + (lambda ln J - mu) F^-T,   F^-T = cof(F) / J.

   In signed singular values sigma (J = s0 s1 s2, l = ln J):
     dPsi/ds_i     = mu s_i + (lambda l - mu) / s_i
     d2Psi/ds_i^2  = mu + (mu + lambda - lambda l) / s_i^2
     d2Psi/ds_i ds_j = lambda / (s_i s_j)
   and the flip / twist eigenvalues of the pair (i, j) (Smith, De Goes & Kim, "Analytic
   Eigensystems for Isotropic Distortion Energies", TOG 2019) in closed form, free of the
   (s_i - s_j) and (s_i + s_j) divisions:
     flip  = (dpsi_i - dpsi_j) / (s_i - s_j) = mu + (mu - lambda l) / (s_i s_j)
     twist = (dpsi_i + dpsi_j) / (s_i + s_j) = mu + (lambda l - mu) / (s_i s_j).
   The energy is +infinity for J <= 0. */
#include <math.h>

#include "elastic/elasticity.h"

double ipc_neo_hookean_psi(double mu, double lambda, const double F[9], double P[9]) {
  const double c[9] = {
      F[4] * F[8] - F[5] * F[7], F[5] * F[6] - F[3] * F[8], F[3] * F[7] - F[4] * F[6],
      F[2] * F[7] - F[1] * F[8], F[0] * F[8] - F[2] * F[6], F[1] * F[6] - F[0] * F[7],
      F[1] * F[5] - F[2] * F[4], F[2] * F[3] - F[0] * F[5], F[0] * F[4] - F[1] * F[3],
  };
  const double J = F[0] * c[0] + F[1] * c[1] + F[2] * c[2];
  if (!(J > 0.0)) return INFINITY;
  const double l = log(J);
  double I2 = 0.0;
  for (int k = 0; k < 9; ++k) I2 += F[k] * F[k];
  if (P) {
    const double a = (lambda * l - mu) / J;
    for (int k = 0; k < 9; ++k) P[k] = mu * F[k] + a * c[k];
  }
  return 0.5 * mu * (I2 - 3.0) - mu * l + 0.5 * lambda * l * l;
}

double ipc_neo_hookean_sigma(double mu, double lambda, const double s[3], ipc_sigma_derivs *d) {
  const double J = s[0] * s[1] * s[2];
  if (!(J > 0.0)) return INFINITY;
  const double l = log(J);
  const double a = lambda * l - mu;
  double I2m3 = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double inv = 1.0 / s[i];
    I2m3 += (s[i] - 1.0) * (s[i] + 1.0);
    d->dpsi[i] = mu * s[i] + a * inv;
    d->d2psi[4 * i] = mu + (lambda - a) * inv * inv;
  }
  d->d2psi[1] = d->d2psi[3] = lambda / (s[0] * s[1]);
  d->d2psi[2] = d->d2psi[6] = lambda / (s[0] * s[2]);
  d->d2psi[5] = d->d2psi[7] = lambda / (s[1] * s[2]);
  static const int I[3] = {0, 0, 1}, Jx[3] = {1, 2, 2};
  for (int p = 0; p < 3; ++p) {
    const double inv = 1.0 / (s[I[p]] * s[Jx[p]]);
    d->flip[p] = mu - a * inv;
    d->twist[p] = mu + a * inv;
  }
  d->psi = 0.5 * mu * I2m3 - mu * l + 0.5 * lambda * l * l;
  return d->psi;
}
