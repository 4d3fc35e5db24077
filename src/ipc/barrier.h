/* IPC's clamped log barrier on squared distances (Li et al. 2020, "Incremental Potential
 * Contact", eq. 6):  b(d) = -(d - dh)^2 ln(d / dh) for 0 < d < dh, 0 for d >= dh,
 * with d the squared distance and dh = dhat^2. The barrier is C2 at d = dh. */
#ifndef IPCC_IPC_BARRIER_H
#define IPCC_IPC_BARRIER_H

/* barrier value for squared distance d (length^2) and squared activation distance dhat2 > 0
 * (length^2); units length^4. Returns +inf for d <= 0, 0 for d >= dhat2. */
double ipc_barrier(double d, double dhat2);

/* db/dd (length^2); -inf for d <= 0, 0 for d >= dhat2. Negative on (0, dhat2). */
double ipc_barrier_d1(double d, double dhat2);

/* d2b/dd2 (dimensionless); +inf for d <= 0, 0 for d >= dhat2. Positive on (0, dhat2). */
double ipc_barrier_d2(double d, double dhat2);

#endif
