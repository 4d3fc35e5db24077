/* adaptive barrier stiffness, following the original IPC code (Optimizer.cpp: suggestKappa,
   upperBoundKappa, initKappa, postLineSearch) in our own words:
   - a lower bound from the scene scale: with d0 = (1e-8 diag)^2 (or dhat^2 / 2 when that is
     smaller), kappa_min = 1e11 * mean vertex mass / (4 d0 b''(d0)), kappa_max = 100 kappa_min,
     both for the current dhat;
   - at the start of every time step (and whenever dhat changes) kappa is chosen again: from its
     start value, replaced by -(gB . gE) / |gB|^2 when that is positive (the barrier gradient
     balancing the rest of the incremental potential at the step's first contacts), then
     clamped to [kappa_min, kappa_max];
   - after every line search, kappa doubles (up to kappa_max) when a pair that was closer than
     dmin = 1e-9 diag after the previous iteration has not moved apart. IPC compares squared
     distances with dTol = (1e-9)^2 diag^2 there, that is distances below 1e-9 diag. */
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

double ipc_kappa_initial(const double *gB, const double *gE, size_t n, double start, double kmin,
                         double kmax) {
  double dot = 0.0, nn = 0.0;
  for (size_t i = 0; i < n; ++i) {
    dot += gB[i] * gE[i];
    nn += gB[i] * gB[i];
  }
  double k = start;
  if (nn > 0 && -dot / nn > 0) k = -dot / nn;
  if (!(k >= kmin)) k = kmin;
  if (k > kmax) k = kmax;
  return k;
}

/* distances below this times diag are watched */
#define KAPPA_WATCH 1e-9

double ipc_kappa_watch_distance(double diag) {
  return KAPPA_WATCH * diag;
}

double ipc_kappa_doubled(double kappa, double kmax) {
  kappa *= 2.0;
  return kappa > kmax ? kmax : kappa;
}
