/* Rayleigh stiffness damping in the incremental potential, as IPC adds it (IPC's
   Optimizer: computeDampingMtr, and the damping terms of computeEnergyVal / computeGradient):
     D(x) = 1/2 (x - xn)^T C (x - xn),   C = beta h K(xn)
   with K(xn) the elasticity Hessian at the start of the step, each tet's block projected
   to PSD, and beta = scene damping_stiffness (s). Its gradient C (x - xn) is h^2 times the
   damping force beta K v with v = (x - xn) / h, so the step is implicit in the damping
   force; C is frozen over the step, so D is an exact quadratic. K annihilates translations
   (and, at a rest state, infinitesimal rotations), so rigid motion is not damped. vertices
   removed from the solve (w->fixed) count with zero displacement, as IPC zeroes its
   Dirichlet vertices. An affine body's stiffness is its orthogonality potential, and its
   damping the strain damping beta h kappa_A V ||A^T A - A_n^T A_n||^2 (affine.h): to second
   order the Rayleigh form with K the orthogonality Hessian at a rotation, but zero for every
   rigid motion, where the frozen-K form damps a spin at second order in omega h (a stiff
   cube spinning at 2.2 rad/s, h = 0.01, beta = 1e-5 s: 20% of its angular momentum lost in
   1 s against 4.6% undamped). */
#ifndef IPCC_IPC_DAMPING_H
#define IPCC_IPC_DAMPING_H

#include "ipc/world_internal.h"

/* C at the current positions (the start of a step) into w->damp_H; nothing when the
   scene has no damping */
void ipc_damping_update(ipc_world *w);

/* D(x) (0 without damping) */
double ipc_damping_energy(const ipc_world *w, const double *x);

/* the same over tets t0 .. t0 + nt - 1 */
double ipc_damping_energy_tets(const ipc_world *w, const double *x, int t0, int nt);

/* adds C (x - xn) to g (full layout, nverts x 3) */
void ipc_damping_gradient(const ipc_world *w, const double *x, double *g);
/* the same over tets [t0, t1) only */
void ipc_damping_gradient_tets(const ipc_world *w, const double *x, int t0, int t1, double *g);

#endif
