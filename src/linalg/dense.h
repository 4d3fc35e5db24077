/* small dense kernels: symmetric eigen-decomposition (LAPACKE), PSD projection,
   3x3 symmetric eigen and 3x3 SVD. All matrices are row-major. */
#ifndef IPCC_LINALG_DENSE_H
#define IPCC_LINALG_DENSE_H

/* eigen-decomposition of the symmetric n x n matrix A (read only, both triangles used as
   given; it must be symmetric) with LAPACKE dsyevd. evals (n) ascending; evecs (n x n) may
   be NULL, else column k is the unit eigenvector of evals[k]. Allocation-free for n <= 16.
   Returns 0 on success, nonzero when LAPACK did not converge (outputs then undefined). */
int ipc_sym_eig(int n, const double *A, double *evals, double *evecs);

/* replaces the symmetric n x n matrix A by its nearest positive semi-definite matrix in the
   Frobenius norm (negative eigenvalues clamped to 0; n <= 12 by ipc_psd_project_small, without
   LAPACK unless that fails, larger n via ipc_sym_eig). A already positive definite is left
   bitwise unchanged. Returns 0 on success, nonzero if LAPACK failed (A is then unchanged). */
/* serial != 0: BLAS/LAPACK run single-threaded (OpenBLAS's thread start-up costs 3-4x
   the work of a 12x12 eigen-decomposition); 0: back to the default thread count, which
   the sparse factorization wants */
void ipc_dense_threads(int serial);

int ipc_psd_project(int n, double *A);

/* ipc_psd_project of a symmetric 3k x 3k matrix H (2 <= k <= 4 points of 3 coordinates) that
   depends on the points' differences only, as a contact's Hessian does: its 3 x 3 block rows
   sum to zero, so the translations are in its null space and H = Q R Q^T with R = Q^T H Q of
   size 3(k-1) and Q an orthonormal basis of the rest (Q = U (x) I3, U's columns orthonormal and
   orthogonal to (1, .., 1)); the projection of H is Q proj(R) Q^T, the same matrix as the full
   eigen-decomposition gives, at a third (k = 4) of its cost. When a block row sum exceeds
   1e-10 of H's largest entry (not such a matrix) the full ipc_psd_project runs instead. H left
   bitwise unchanged when R is positive definite. Returns as ipc_psd_project. */
int ipc_psd_project_differences(int k, double *H);

/* eigen-decomposition of a symmetric 3x3 A by cyclic Jacobi rotations: evals ascending,
   evecs (may be NULL) with column k the unit eigenvector of evals[k]. */
void ipc_sym_eig3(const double A[9], double evals[3], double evecs[9]);

/* in place PSD projection of a symmetric 3x3 A (clamps negative eigenvalues to 0);
   a positive definite A is left unchanged. */
void ipc_psd_project3(double A[9]);

/* rotation-variant SVD F = U diag(sigma) V^T: U, V proper rotations (det +1),
   sigma[0] >= sigma[1] >= |sigma[2]|, sigma[2] carries the sign of det F.
   Rank-deficient F gets completed orthonormal U. One-sided Jacobi on F (no squaring). */
void ipc_svd3(const double F[9], double U[9], double sigma[3], double V[9]);

/* determinant of a 3x3 matrix */
double ipc_det3(const double A[9]);

#endif
