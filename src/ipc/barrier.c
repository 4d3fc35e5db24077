/* Clamped log barrier of IPC (Li et al. 2020, eq. 6) on squared distances d, dh = dhat^2:
 *   b(d)   = -(d - dh)^2 ln(d/dh)
 *   b'(d)  = -2 (d - dh) ln(d/dh) - (d - dh)^2 / d
 *   b''(d) = -2 ln(d/dh) - 4 (d - dh) / d + (d - dh)^2 / d^2
 * All three vanish at d = dh, so extending by 0 for d >= dh gives a C2 function.
 * Near d = dh, ln(d/dh) is evaluated as log1p((d - dh)/dh): d - dh is then exact, which
 * keeps the relative accuracy of b and b' as d -> dh. */
#include "ipc/barrier.h"

#include <math.h>

/* ln(d/dh) for 0 < d < dh, accurate both near 0 and near dh */
static double log_ratio(double d, double dh) {
  return d > 0.5 * dh ? log1p((d - dh) / dh) : log(d / dh);
}

double ipc_barrier(double d, double dhat2) {
  if (d <= 0.0) return INFINITY;
  if (d >= dhat2) return 0.0;
  double t = d - dhat2;
  return -t * t * log_ratio(d, dhat2);
}

double ipc_barrier_d1(double d, double dhat2) {
  if (d <= 0.0) return -INFINITY;
  if (d >= dhat2) return 0.0;
  double t = d - dhat2;
  return -t * (2.0 * log_ratio(d, dhat2) + t / d);
}

double ipc_barrier_d2(double d, double dhat2) {
  if (d <= 0.0) return INFINITY;
  if (d >= dhat2) return 0.0;
  double q = (d - dhat2) / d;
  return -2.0 * log_ratio(d, dhat2) - 4.0 * q + q * q;
}
