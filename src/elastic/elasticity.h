/* per-tetrahedron isotropic elastic energies (Neo-Hookean, fixed corotated, StVK) for the
   IPC integrator: energy, gradient and PSD-projected Hessian of volume * Psi(F).

   Conventions: F = Ds DmInv with Ds = [x1-x0, x2-x0, x3-x0] (columns), all 3x3 matrices
   row-major; a 9x9 Hessian with respect to F uses the index 3*i + j for F_ij; vertex
   Hessians are 12x12 row-major over (vertex, coordinate). Units: mu, lambda in Pa, volume
   in m^3, energies in J. */
#ifndef IPCC_ELASTIC_ELASTICITY_H
#define IPCC_ELASTIC_ELASTICITY_H

typedef enum ipc_material_model {
  IPC_NEO_HOOKEAN,
  IPC_FIXED_COROTATED,
  IPC_STVK,
} ipc_material_model;

/* an isotropic energy density as a function of the signed singular values sigma of F
   (rotation-variant SVD) with the analytic eigensystem of its Hessian with respect to F
   (Smith, De Goes & Kim 2019): the 3x3 "scaling" block d2psi and, for each pair
   (i, j) in {(0,1), (0,2), (1,2)} (index p = 0, 1, 2), the eigenvalues of the symmetric
   ("flip", U (e_i e_j^T + e_j e_i^T) V^T / sqrt 2) and antisymmetric ("twist",
   U (e_i e_j^T - e_j e_i^T) V^T / sqrt 2) modes. */
/* Hessian projection to positive semi-definite, the project argument below:
   NONE the exact Hessian; ANALYTIC clamps the analytic eigenvalues of the 9x9 Hessian
   w.r.t. F and maps it by dF/dx (fast, the default for Newton); EIGEN projects the final
   matrix numerically (ipc_psd_project: the nearest PSD matrix in the
   Frobenius norm; slower, a fallback and a reference); IPC as ANALYTIC, but each flip / twist
   pair with a negative eigenvalue projected as the original IPC code does it (a smaller
   eigenvalue kept on the right eigenvector; tet.c, ipc_pair_project), for following IPC's
   Newton iterations on its own scripts. */
enum { IPC_PROJECT_NONE = 0, IPC_PROJECT_ANALYTIC = 1, IPC_PROJECT_EIGEN = 2, IPC_PROJECT_IPC = 3 };

typedef struct ipc_sigma_derivs {
  double psi;      /* energy density, J/m^3 */
  double dpsi[3];  /* dPsi / dsigma_i */
  double d2psi[9]; /* d2Psi / dsigma_i dsigma_j, row-major, symmetric */
  double flip[3];  /* (dpsi_i - dpsi_j) / (sigma_i - sigma_j), in closed form */
  double twist[3]; /* (dpsi_i + dpsi_j) / (sigma_i + sigma_j), in closed form */
} ipc_sigma_derivs;

/* Lame parameters (Pa) from Young's modulus (Pa) and Poisson's ratio (< 0.5) */
void ipc_lame_from_young(double young, double poisson, double *mu, double *lambda);

/* per-model densities. *_psi: Psi(F) and, if P != NULL, the first Piola-Kirchhoff stress
   dPsi/dF (9, row-major). *_sigma: Psi at signed singular values and the eigensystem data d
   (must not be NULL). Both return +INFINITY where the energy is undefined (Neo-Hookean with
   J <= 0), leaving the outputs unset. */
double ipc_neo_hookean_psi(double mu, double lambda, const double F[9], double P[9]);
double ipc_neo_hookean_sigma(double mu, double lambda, const double sigma[3], ipc_sigma_derivs *d);
double ipc_fixed_corotated_psi(double mu, double lambda, const double F[9], double P[9]);
double ipc_fixed_corotated_sigma(double mu, double lambda, const double sigma[3],
                                 ipc_sigma_derivs *d);
double ipc_stvk_psi(double mu, double lambda, const double F[9], double P[9]);
double ipc_stvk_sigma(double mu, double lambda, const double sigma[3], ipc_sigma_derivs *d);

/* energy density Psi(F) of model; P (9) and dPdF (81, Hessian w.r.t. F, index 3i+j) may be
   NULL. dPdF is projected to PSD as project (IPC_PROJECT_*) says.
   Returns +INFINITY (outputs unset) where the energy is undefined. */
double ipc_elastic_density(ipc_material_model model, double mu, double lambda, const double F[9],
                           double P[9], double dPdF[81], int project);

/* rest precompute of one tet with rest vertex positions X (4 x 3): DmInv (9) the inverse of
   the rest edge matrix Dm = [X1-X0, X2-X0, X3-X0], *volume = det(Dm) / 6. Returns 0 (outputs
   unspecified) if the tet is inverted or degenerate: det(Dm) <= 1e-12 * (longest edge)^3. */
int ipc_tet_rest(const double X[12], double DmInv[9], double *volume);

/* deformation gradient F (9) of a tet with vertex positions x (4 x 3) */
void ipc_tet_deformation(const double x[12], const double DmInv[9], double F[9]);

/* volume * Psi(F(x)) for one tet with vertex positions x (4 x 3). g (12) and H (144, 12x12
   row-major) may be NULL; H is projected to PSD as project (IPC_PROJECT_*) says; with
   IPC_PROJECT_ANALYTIC, H = volume * dFdx^T [dPdF]+ dFdx.
   Returns +INFINITY (g and H unset) where the energy is undefined. */
double ipc_tet_energy(ipc_material_model model, double mu, double lambda, const double x[12],
                      const double DmInv[9], double volume, double g[12], double H[144],
                      int project);

/* rest precompute of ntets tets (ntets x 4 indices into X, nverts x 3) into DmInv
   (ntets x 9) and volume (ntets). Returns -1 if all are valid, else the index of the
   first inverted or degenerate tet (later tets are still filled). */
int ipc_tets_rest(int ntets, const int *tets, const double *X, double *DmInv, double *volume);

/* total elastic energy of ntets tets at positions x (nverts x 3); tets (ntets x 4),
   DmInv (ntets x 9), volume (ntets) from ipc_tets_rest. +INFINITY if any tet is undefined.
   Allocation-free. */
double ipc_tets_energy(ipc_material_model model, double mu, double lambda, int ntets,
                       const int *tets, const double *DmInv, const double *volume, const double *x);

/* per-tet energies, gradients and Hessians of ntets tets: energy (ntets), grad (ntets x 12)
   and hess (ntets x 144, projected as project (IPC_PROJECT_*) says) may each be NULL. Returns the
   total energy, +INFINITY if any tet is undefined (that tet's outputs are then zeroed, the
   others still filled). Allocation-free; tets may be split into ranges across threads. */
double ipc_tets_derivatives(ipc_material_model model, double mu, double lambda, int ntets,
                            const int *tets, const double *DmInv, const double *volume,
                            const double *x, double *energy, double *grad, double *hess,
                            int project);

#endif
