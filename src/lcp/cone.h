/* frictional contact with the exact Coulomb disk: per contact c the unknowns
   z = (n, t1, t2) at 3c, 3c+1, 3c+2, n >= 0 complementary to w_n, and the tangential
   impulse within the disk |t| <= mu_c n, opposing the tangential velocity w_t when on its
   boundary (Lazarevych et al. 2010, eq. 7). */
#ifndef IPCC_LCP_CONE_H
#define IPCC_LCP_CONE_H

#include "lcp/lcp.h"

/* the natural-map residual of the cone problem at z with w = W z + q:
   || (n - max(0, n - w_n), t - P_c(t - w_t)) ||_2, P_c the projection onto the disk of
   radius mu_c max(n, 0); zero exactly at solutions */
double ipc_lcp_cone_residual_zw(int ncontacts, const double *mu, const double *z, const double *w);

/* solves the cone problem p (n = 3 ncontacts; lo, hi, dep unused) with opt->solver:
   pgs: block projected Gauss-Seidel with over-relaxation omega: per contact the normal
   (clamped at 0), then both tangents, then the tangential impulse scaled back into the disk;
   pcg-pgs: the PCG+PGS solver on the boxed relaxation |t_i| <= mu n first (its CG phase and
   at most 10 sweeps), then the block PGS from there. Other solvers: IPCC_ERR_INPUT. Returns as
   the LCP solvers (res->residual is the cone residual above). */
ipcc_status ipc_lcp_cone_solve(const ipc_lcp_problem *p, const double *mu,
                               const ipc_lcp_options *opt, double *z, ipc_lcp_result *res,
                               ipcc_error *err);

#endif
