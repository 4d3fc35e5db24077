/* fixed corotated energy density (Stomakhin, Howes, Schroeder & Teran, "Energetically
   consistent invertible elasticity", SCA 2012), as in IPC:

     Psi(F) = mu |F - R|^2 + lambda/2 (J - 1)^2,   F = R S polar, J = det F,
     P = 2 mu (F - R) + lambda (J - 1) cof(F).

   With the rotation-variant SVD F = U diag(s) V^T (R = U V^T, s_2 carries the sign of J),
   Psi = mu sum_i (s_i - 1)^2 + lambda/2 (J - 1)^2, defined and smooth for inverted F except
   where s_i + s_j = 0 (R jumps there). With P_i = J / s_i (product of the other two) and k
   the third index of the pair (i, j):
     dPsi/ds_i       = 2 mu (s_i - 1) + lambda (J - 1) P_i
     d2Psi/ds_i^2    = 2 mu + lambda P_i^2
     d2Psi/ds_i ds_j = lambda (P_i P_j + (J - 1) s_k)
     flip  = (dpsi_i - dpsi_j) / (s_i - s_j) = 2 mu - lambda (J - 1) s_k
     twist = (dpsi_i + dpsi_j) / (s_i + s_j) = 2 mu - 4 mu / (s_i + s_j) + lambda (J - 1) s_k
   (Smith, De Goes & Kim, "Analytic Eigensystems for Isotropic Distortion Energies", TOG
   2019, sec. 7.2). s_i + s_j >= 0 for the rotation-variant ordering; it is clamped to
   1e-12 where R is undefined, as IPC clamps it. */
#include <math.h>

#include "elastic/elasticity.h"
#include "linalg/dense.h"

double ipc_fixed_corotated_psi(double mu, double lambda, const double F[9], double P[9]) {
  double U[9], s[3], V[9];
  ipc_sigma_derivs d;
  ipc_svd3(F, U, s, V);
  const double psi = ipc_fixed_corotated_sigma(mu, lambda, s, &d);
  if (P)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        P[3 * i + j] = U[3 * i] * d.dpsi[0] * V[3 * j] + U[3 * i + 1] * d.dpsi[1] * V[3 * j + 1] +
                       U[3 * i + 2] * d.dpsi[2] * V[3 * j + 2];
  return psi;
}

double ipc_fixed_corotated_sigma(double mu, double lambda, const double s[3], ipc_sigma_derivs *d) {
  const double J = s[0] * s[1] * s[2], Jm1 = J - 1.0;
  const double Pi[3] = {s[1] * s[2], s[0] * s[2], s[0] * s[1]};
  double psi = 0.0;
  for (int i = 0; i < 3; ++i) {
    psi += (s[i] - 1.0) * (s[i] - 1.0);
    d->dpsi[i] = 2.0 * mu * (s[i] - 1.0) + lambda * Jm1 * Pi[i];
    d->d2psi[4 * i] = 2.0 * mu + lambda * Pi[i] * Pi[i];
  }
  d->d2psi[1] = d->d2psi[3] = lambda * (Pi[0] * Pi[1] + Jm1 * s[2]);
  d->d2psi[2] = d->d2psi[6] = lambda * (Pi[0] * Pi[2] + Jm1 * s[1]);
  d->d2psi[5] = d->d2psi[7] = lambda * (Pi[1] * Pi[2] + Jm1 * s[0]);
  static const int I[3] = {0, 0, 1}, Jx[3] = {1, 2, 2}, K[3] = {2, 1, 0};
  for (int p = 0; p < 3; ++p) {
    double sum = s[I[p]] + s[Jx[p]];
    if (sum < 1e-12) sum = 1e-12;
    const double c = lambda * Jm1 * s[K[p]];
    d->flip[p] = 2.0 * mu - c;
    d->twist[p] = 2.0 * mu - 4.0 * mu / sum + c;
  }
  d->psi = mu * psi + 0.5 * lambda * Jm1 * Jm1;
  return d->psi;
}
