/* adaptive barrier stiffness (kappa) of IPC; see kappa.c */
#ifndef IPCC_IPC_KAPPA_H
#define IPCC_IPC_KAPPA_H

#include <stddef.h>

/* range of kappa from the scene diagonal, dhat (absolute) and the mean vertex mass */
void ipc_kappa_bounds(double *kmin, double *kmax, double diag, double dhat, double mean_mass);

/* initial kappa balancing the barrier gradient gB against the gradient gE of the rest of
   the incremental potential (both length n), clamped to [kmin, kmax] */
double ipc_kappa_initial(const double *gB, const double *gE, size_t n, double kmin, double kmax);

/* the distance below which ipc_kappa_update watches the closest pair: sqrt(1e-9) diag */
double ipc_kappa_watch_distance(double diag);

/* kappa after a Newton iteration: doubled (up to kmax) when the closest distance
   (unsquared arguments) shrinks while it stays below ipc_kappa_watch_distance(diag) */
double ipc_kappa_update(double kappa, double kmax, double prev_min_dist, double min_dist,
                        double diag);

#endif
