/* symmetric eigen-decomposition and PSD projection of small dense matrices (n <= 12) without
   LAPACK: allocation-free, no global state, safe to call from several threads at once. */
#ifndef IPCC_LINALG_EIG_SMALL_H
#define IPCC_LINALG_EIG_SMALL_H

/* largest n the small solver accepts */
#define IPC_EIG_SMALL_MAX 12

/* eigen-decomposition A = V diag(w) V^T of the symmetric n x n row-major A (read only; the
   two triangles are averaged), 1 <= n <= IPC_EIG_SMALL_MAX. w (n) ascending; V (n x n,
   row-major) may be NULL, else column k is the unit eigenvector of w[k]. Returns 0 on
   success, 1 when the QR iteration did not converge, 2 when A has a NaN or infinite entry
   (outputs then undefined). */
int ipc_eig_sym_small(int n, const double *A, double *w, double *V);

/* replaces the symmetric n x n row-major H (1 <= n <= IPC_EIG_SMALL_MAX) by V max(w, 0) V^T,
   its nearest positive semi-definite matrix in the Frobenius norm; the result is exactly
   symmetric. A symmetric H that passes a Cholesky test (numerically positive definite), or
   has no negative eigenvalue, is left bitwise unchanged. Returns 0 on success, nonzero (the
   status of ipc_eig_sym_small) with H unchanged on failure. */
int ipc_psd_project_small(int n, double *H);

#endif
