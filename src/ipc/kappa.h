/* adaptive barrier stiffness (kappa) of IPC; see kappa.c */
#ifndef IPCC_IPC_KAPPA_H
#define IPCC_IPC_KAPPA_H

#include <stddef.h>

/* range of kappa from the scene diagonal, dhat (absolute) and the mean vertex mass */
void ipc_kappa_bounds(double *kmin, double *kmax, double diag, double dhat, double mean_mass);

/* kappa at a step's start: start, replaced by the value balancing the barrier gradient gB
   against the gradient gE of the rest of the incremental potential (both length n) when
   that is positive, then clamped to [kmin, kmax] */
double ipc_kappa_initial(const double *gB, const double *gE, size_t n, double start, double kmin,
                         double kmax);

/* pairs closer than this (1e-9 diag) after an iteration are watched: if one of them is no
   farther apart after the next line search, kappa doubles */
double ipc_kappa_watch_distance(double diag);

/* 2 kappa, at most kmax */
double ipc_kappa_doubled(double kappa, double kmax);

#endif
