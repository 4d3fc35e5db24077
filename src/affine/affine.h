/* numerical kernels of affine bodies (Affine Body Dynamics, Lan et al. 2022; the first-order
   global deformations of Baraff and Witkin 1992): a body's state is q = (p, A), 12 DOFs, and
   each of its vertices moves as x = A xbar + p = J(xbar) q with xbar its rest position.

   used by the IPC world (src/ipc/affine_world.c) and the LCP world (src/lcp/lcp_affine.c)
   for bodies with `affine: true` (docs/affine-integration.md).

   ordering of q (12 doubles): q = (p, A e1, A e2, A e3), the translation then the COLUMNS of
   A, so q[3 + 3 j + i] = A[i][j] and
     J(xbar) = [ I3 | xbar1 I3 | xbar2 I3 | xbar3 I3 ]   (3 x 12),
   and with w = (1, xbar1, xbar2, xbar3) every 12-vector splits into four 3-blocks weighted by
   w: (J^T g)[3a + i] = w_a g_i. The mass matrix is then M = M4 (x) I3, with the 4x4
     M4 = rho * integral over the rest body of w w^T = [ m  c^T ; c  S ],
   m = rho V, c = rho integral xbar, S = rho integral xbar xbar^T (the volume moments below).
   Matrices are row-major. */
#ifndef IPCC_AFFINE_AFFINE_H
#define IPCC_AFFINE_AFFINE_H

#include "ipcc/error.h"

/* volume moments of a rest body of uniform density rho */
typedef struct ipc_affine_moments {
  double volume;    /* V (length^3) */
  double mass;      /* m = rho V */
  double first[3];  /* c = rho integral xbar dV */
  double second[9]; /* S = rho integral xbar xbar^T dV (3 x 3, symmetric) */
} ipc_affine_moments;

/* --- rest-shape moments and the mass matrix --- */

/* exact moments of the linear tet mesh x (nverts x 3), tets (ntets x 4, positive orientation)
   with density rho > 0. IPCC_ERR_INPUT (message names the tet or the value) when rho is not
   positive and finite, an index is out of range, a tet has volume <= 0 or ntets = 0. */
ipcc_status ipc_affine_moments_tets(int nverts, const double *x, int ntets, const int *tets,
                                    double rho, ipc_affine_moments *out, ipcc_error *err);

/* the same moments from a closed, outward-oriented triangle surface x (nverts x 3), tris
   (ntris x 3), by the divergence theorem. IPCC_ERR_INPUT when rho is not positive and finite,
   an index is out of range, the surface is not closed and consistently oriented (a directed
   edge without exactly one opposite, named in the message), or the enclosed volume is <= 0
   (inward orientation). */
ipcc_status ipc_affine_moments_surface(int nverts, const double *x, int ntris, const int *tris,
                                       double rho, ipc_affine_moments *out, ipcc_error *err);

/* moments of the body mapped by x' = A x + p (same density; det A > 0, asserted) */
void ipc_affine_moments_transform(const ipc_affine_moments *in, const double A[9],
                                  const double p[3], ipc_affine_moments *out);

/* the 4x4 M4 = [m c^T; c S] of the header comment */
void ipc_affine_mass4(const ipc_affine_moments *mom, double M4[16]);

/* the 12x12 mass matrix M = M4 (x) I3 (symmetric positive definite when V > 0) */
void ipc_affine_mass_matrix(const ipc_affine_moments *mom, double M[144]);

/* out = M v (12); out may alias v */
void ipc_affine_mass_mul(const ipc_affine_moments *mom, const double v[12], double out[12]);

/* out = M^-1 f (12) by a Cholesky factorisation of M4; out may alias f. Returns 0, or 1 when
   M4 is not numerically positive definite (out then undefined). */
int ipc_affine_mass_solve(const ipc_affine_moments *mom, const double f[12], double out[12]);

/* qdot (12) fitted to the velocities v (nv x 3) of nv vertices with rest positions xbar
   (nv x 3) and lumped masses mass (nv) in the mass-weighted least-squares sense:
   (sum m_i w_i w_i^T) (x) I3 qdot = sum m_i J_i^T v_i, exact when v is an affine field (a
   translation plus a rotation is); qdot = 0 when the lumped M4 is singular */
void ipc_affine_fit_velocity(int nv, const double *xbar, const double *mass, const double *v,
                             double qdot[12]);

/* --- kinematics --- */

/* x = A xbar + p (3) for the state q */
void ipc_affine_position(const double q[12], const double xbar[3], double x[3]);

/* the dense 3x12 J(xbar) of the header comment (for tests and assembly by hand) */
void ipc_affine_jacobian(const double xbar[3], double J[36]);

/* the rotation R nearest to A in the Frobenius norm (the orthogonal polar factor, A = R S
   with S symmetric positive definite), by Newton's iteration; row- or column-major alike
   (the factor of A^T is R^T). Returns 0, or 1 when det A <= 0 or is not finite (R then
   undefined). */
int ipc_affine_polar(const double A[9], double R[9]);

/* the line search's trial state along the Newton direction dq: p + alpha dp, and
   A(alpha) = exp(alpha W) (I + alpha E) A with W and E the skew and symmetric parts of
   dA A^-1. Equal to q + alpha dq to first order in alpha, but a rotation part moves A as an
   exact rotation, so the stiff orthogonality potential does not cut the step short (the
   straight step leaves the rotations by O(alpha^2 |W|^2)). The straight step when det A <= 0.
   out must not alias q or dq. */
void ipc_affine_curved_step(const double q[12], const double dq[12], double alpha, double out[12]);

/* a bound on how far the trial points of the n points x (n x 3, positions of the body at q)
   stray from the straight segments between their positions at 0 and at alpha, over every
   trial alpha' in [0, alpha]: every such segment lies within the box of the points at 0 and
   alpha grown by this much (so one broad phase serves all trials up to alpha). 0 for the
   straight step (det A <= 0). */
double ipc_affine_curved_sag(const double q[12], const double dq[12], double alpha, int n,
                             const double *x);

/* --- orthogonality potential (Lan et al. 2022, eq. 5): E = kappa V ||A A^T - I||_F^2 ---
   kappa (stiffness, energy / length^3) > 0, V the rest volume; only the A part of q enters,
   the p parts of the gradient and Hessian are zero. */
double ipc_affine_orth_energy(const double q[12], double kappa, double volume);

/* gradient (12) */
void ipc_affine_orth_gradient(const double q[12], double kappa, double volume, double g[12]);

/* Hessian (12 x 12, symmetric) */
void ipc_affine_orth_hessian(const double q[12], double kappa, double volume, double H[144]);

/* Hessian projected onto the positive semi-definite cone (its 9x9 A block by
   ipc_psd_project_small). Returns 0, or the eigen-solver's nonzero status with H the
   unprojected Hessian. */
int ipc_affine_orth_hessian_psd(const double q[12], double kappa, double volume, double H[144]);

/* --- strain damping (the Rayleigh damping of an affine body, ipc/damping.h) ---
   D(q) = c ||A^T A - G0||_F^2 with G0 = A_n^T A_n the Gram matrix at the start of the step
   (row-major 3 x 3) and c > 0: zero for every rigid motion from the start (A = R A_n, any p
   and any rotation R), so it damps only the body's strain rate, to second order the Rayleigh
   form 1/2 dq^T (beta h K_orth) dq at a rotation when c = beta h kappa V (K_orth the Hessian of
   the orthogonality energy). Only the A part of q enters. */
double ipc_affine_strain_energy(const double q[12], const double G0[9], double c);

/* gradient (12) */
void ipc_affine_strain_gradient(const double q[12], const double G0[9], double c, double g[12]);

/* Hessian (12 x 12, symmetric) */
void ipc_affine_strain_hessian(const double q[12], const double G0[9], double c, double H[144]);

/* Hessian with its 9 x 9 A block projected onto the PSD cone; returns 0, or the
   eigen-solver's status with H unprojected */
int ipc_affine_strain_hessian_psd(const double q[12], const double G0[9], double c,
                                  double H[144]);

/* the Gram matrix A^T A of q (row-major 3 x 3) */
void ipc_affine_gram(const double q[12], double G[9]);

/* --- contact derivatives pulled back to q ---
   k vertices with rest positions xbar (k x 3) carry a local gradient g (3k) and Hessian H
   (3k x 3k); x_v = J(xbar_v) q_{body(v)}. One body: out = J^T g (12), J^T H J (12 x 12).
   Two bodies (a contact between body a and body b): body[v] is 0 for a vertex of a, 1 for
   one of b, and the outputs cover the 24 DOFs (q_a, q_b): J^T g (24), J^T H J (24 x 24).
   J^T H J is PSD when H is, so project H before pulling it back. No allocation. */
void ipc_affine_pull_gradient(int k, const double *xbar, const double *g, double out[12]);
void ipc_affine_pull_hessian(int k, const double *xbar, const double *H, double out[144]);
void ipc_affine_pull_gradient2(int k, const double *xbar, const int *body, const double *g,
                               double out[24]);
void ipc_affine_pull_hessian2(int k, const double *xbar, const int *body, const double *H,
                              double out[576]);

/* --- inertia (implicit Euler, as IPC's incremental potential) --- */

/* predicted state qtilde = q_n + h qdot_n + h^2 M^-1 f_ext (12); f_ext (generalized, 12) may
   be NULL for none. Returns ipc_affine_mass_solve's status. */
int ipc_affine_predict(const ipc_affine_moments *mom, const double qn[12], const double qdotn[12],
                       double h, const double *f_ext, double qtilde[12]);

/* inertial energy 1/2 (q - qtilde)^T M (q - qtilde); its gradient M (q - qtilde) into g (12,
   may be NULL); its Hessian is the constant ipc_affine_mass_matrix */
double ipc_affine_inertia(const ipc_affine_moments *mom, const double q[12],
                          const double qtilde[12], double *g);

/* a body's mechanical energy 1/2 qdot^T M qdot - f_g . q + kappa V ||A A^T - I||^2 (kinetic,
   the potential of the uniform field gvec, orthogonality), as the worlds report it */
double ipc_affine_body_energy(const ipc_affine_moments *mom, const double q[12],
                              const double qdot[12], const double gvec[3], double kappa);

/* generalized force of the uniform acceleration field gvec (e.g. gravity): the integral over
   the body of rho J^T gvec = (m gvec, c1 gvec, c2 gvec, c3 gvec) = M (gvec, 0, 0, 0) */
void ipc_affine_uniform_force(const ipc_affine_moments *mom, const double gvec[3], double f[12]);

#endif
