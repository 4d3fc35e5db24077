/* adaptive barrier stiffness, following IPC (Li et al. 2020, supplement on the
   barrier stiffness) in our own words:
   - a lower bound from the scene scale: with d0 = (1e-8 diag)^2 (or dhat^2 / 2
     when that is smaller), kappa_min = 1e11 * mean vertex mass / (4 d0 b''(d0)),
     and kappa_max = 100 kappa_min;
   - the initial value balances the barrier gradient against the rest of the
     incremental potential: kappa = -(gB . gE) / |gB|^2, clamped to the range;
   - during a solve, kappa doubles (up to kappa_max) while the closest pair is
     getting closer and its squared distance is below 1e-9 diag^2 (IPC compares
     squared distances here, so the threshold is d < 3.2e-5 diag, not 1e-9 diag:
     with the unsquared reading kappa never grows in practice, pairs settle at
     1e-8 diag and every Newton iteration is cut short by CCD). */
#include "ipc/kappa.h"

#include <math.h>

#include "ipc/barrier.h"

void ipc_kappa_bounds(double *kmin, double *kmax, double diag, double dhat, double mean_mass) {
  double dhat2 = dhat * dhat;
  double d0 = 1e-8 * diag;
  d0 *= d0;
  if (d0 >= dhat2) d0 = 0.5 * dhat2;
  double denom = 4.0 * d0 * ipc_barrier_d2(d0, dhat2);
  *kmin = 1e11 * mean_mass / denom;
  *kmax = 100.0 * *kmin;
}

double ipc_kappa_initial(const double *gB, const double *gE, size_t n, double kmin, double kmax) {
  double dot = 0.0, nn = 0.0;
  for (size_t i = 0; i < n; ++i) {
    dot += gB[i] * gE[i];
    nn += gB[i] * gB[i];
  }
  double k = nn > 0 ? -dot / nn : kmin;
  if (!(k >= kmin)) k = kmin;
  if (k > kmax) k = kmax;
  return k;
}

/* the closest pair is watched while its squared distance is below this times diag^2 */
#define KAPPA_WATCH2 1e-9

double ipc_kappa_watch_distance(double diag) {
  return sqrt(KAPPA_WATCH2) * diag;
}

double ipc_kappa_update(double kappa, double kmax, double prev_min_dist, double min_dist,
                        double diag) {
  double eps2 = KAPPA_WATCH2 * diag * diag;
  double p2 = prev_min_dist * prev_min_dist, d2 = min_dist * min_dist;
  if (p2 < eps2 && d2 < eps2 && min_dist < prev_min_dist) {
    kappa *= 2.0;
    if (kappa > kmax) kappa = kmax;
  }
  return kappa;
}
