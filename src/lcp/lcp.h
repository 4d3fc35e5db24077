/* linear complementarity problems of the LCP contact mode, and their solvers
 *
 * LCP(M, q): find z with z >= 0, w = M z + q >= 0, z^T w = 0.
 * BLCP: bounds lo <= z <= hi, and per entry w_i >= 0 where z_i = lo_i, w_i <= 0 where
 * z_i = hi_i, w_i = 0 strictly between; equivalently z = mid(lo, hi, z - w). A bound may
 * scale with another entry, as the friction box |z_t| <= mu z_n does: with dep[i] = k >= 0
 * the bounds of entry i are lo[i] * z_k and hi[i] * z_k (z_k is read as max(z_k, 0)).
 * The LCP is the BLCP with lo = 0, hi = +inf.
 *
 * The matrix is given either explicitly (a sparse M in compressed sparse rows) or
 * implicitly as the Delassus operator W = J A^-1 J^T + diag(reg) of a contact problem:
 * J sparse (n x ndof), A^-1 block-diagonal (an inverse lumped mass; blocks of b DOFs,
 * e.g. 1 or 3), reg an optional diagonal regularisation. The iterative solvers never form W; they
 * keep u = A^-1 J^T z and update it row by row (Miyamoto et al., AMGS Method 3.1). Lemke and block
 * principal pivoting form W densely (small problems only).
 *
 * Residual (one definition, residual.c): the natural map of the box,
 *   r(z) = || z - mid(lo, hi, z - (M z + q)) ||_2,  = || min(z, M z + q) ||_2 for the LCP,
 * and the relative residual r(z) / ||q||_2 (r(z) itself when ||q||_2 <= DBL_EPSILON), as
 * Siconos reports it. Every iterative solver stops when the relative residual is <= tol
 * and returns the iterate with the smallest residual it saw; Lemke and BPP return the
 * point of their final basis, converged when its relative residual is <= tol.
 */
#ifndef IPCC_LCP_LCP_H
#define IPCC_LCP_LCP_H

#include <stdbool.h>

#include "ipcc/error.h"

/* sparse matrix in compressed sparse rows: row i holds the entries rowptr[i] ..
 * rowptr[i+1]-1, column indices strictly increasing within a row. Matrices made by the
 * ipc_lcp_csr_* functions own their arrays (free with ipc_lcp_csr_free); a caller may also
 * point the fields at its own arrays and never call free. */
typedef struct ipc_lcp_csr {
  int nrows;
  int ncols;
  int *rowptr; /* (nrows + 1) */
  int *col;    /* (nnz) */
  double *val; /* (nnz) */
} ipc_lcp_csr;

/* one LCP/BLCP; views of caller-owned arrays. Exactly one of M and J is set. */
typedef struct ipc_lcp_problem {
  int n;                /* unknowns */
  const ipc_lcp_csr *M; /* explicit matrix (n x n), or NULL */
  const ipc_lcp_csr *J; /* implicit W = J A^-1 J^T + diag(reg): J (n x ndof), or NULL */
  int ainv_block;       /* block size b of A^-1 (1 = diagonal); J->ncols % b == 0 */
  const double *ainv;   /* (ndof / b blocks, each b x b row-major symmetric) */
  const double *reg;    /* (n) added to the diagonal of W; NULL = none */
  const double *q;      /* (n) */
  const double *lo;     /* (n) lower bounds (-INFINITY allowed), NULL = 0 */
  const double *hi;     /* (n) upper bounds (INFINITY allowed), NULL = +inf */
  const int *dep;       /* (n) NULL, or per entry -1 / the entry k its bounds scale with */
} ipc_lcp_problem;

typedef enum ipc_lcp_solver {
  IPC_LCP_PGS = 0,     /* projected Gauss-Seidel / SOR */
  IPC_LCP_PCG_PGS = 1, /* projected conjugate gradient, then PGS (Lazarevych et al.) */
  IPC_LCP_AMGS = 2,    /* accelerated modulus-based Gauss-Seidel (Miyamoto et al.) */
  IPC_LCP_LEMKE = 3,   /* Lemke's complementary pivoting, dense, LCP only */
  IPC_LCP_BPP = 4,     /* block principal pivoting (Judice-Pires), dense, LCP only */
} ipc_lcp_solver;

/* conjugate direction update of the PCG phase */
typedef enum ipc_lcp_cg_beta {
  IPC_LCP_FLETCHER_REEVES = 0,
  IPC_LCP_POLAK_RIBIERE = 1, /* PR+: beta clamped at 0 */
} ipc_lcp_cg_beta;

typedef struct ipc_lcp_options {
  ipc_lcp_solver solver; /* used by ipc_lcp_solve */
  int max_iter;          /* sweeps of PGS/AMGS, PGS phase N_max of PCG+PGS (<= 0: 1000);
                            Lemke and BPP stop after 50 n + 100 pivots instead */
  double tol;            /* stop when the relative residual is <= tol */
  double step_tol;       /* stop (PGS, AMGS) or switch to PGS (PCG) when
                            ||z_k+1 - z_k||_2 <= step_tol; 0 = off */
  const double *z0;      /* (n) warm start, NULL = 0; projected onto the bounds */
  double omega;          /* PGS relaxation, in (0, 2); 1 = Gauss-Seidel */
  int cg_max_iter;       /* PCG phase cap; <= 0: 2 n */
  double cg_tol;         /* PCG phase switches to PGS once the relative residual is <=
                            cg_tol (>= tol; <= 0: tol) */
  ipc_lcp_cg_beta cg_beta;
  int cg_stall;             /* PCG phase ends after cg_stall steps without a new best
                               residual (<= 0: 10) */
  double amgs_alpha;        /* AMGS Omega = alpha diag(W), or alpha I (then alpha is in the
                               units of W; about half the mean diagonal works); alpha > 0 */
  bool amgs_omega_identity; /* Omega = alpha I (Zheng-Yin) instead of alpha diag(W) */
  double amgs_gamma;        /* AMGS modulus scale gamma > 0 (iterates are invariant to it) */
  int check_every;          /* PGS (and the cone's): the residual (a product with W, as
                               costly as a sweep) is evaluated after every check_every-th
                               sweep and the last (<= 1: every sweep) */
} ipc_lcp_options;

/* why a solver stopped */
typedef enum ipc_lcp_stop {
  IPC_LCP_CONVERGED = 0, /* relative residual <= tol */
  IPC_LCP_MAX_ITER = 1,  /* iteration or pivot cap reached */
  IPC_LCP_STALLED = 2,   /* step below step_tol, or no progress possible */
  IPC_LCP_RAY = 3,       /* Lemke: secondary ray, no solution found (none exists for a
                            copositive-plus M) */
  IPC_LCP_SINGULAR = 4,  /* a zero or negative pivot/diagonal the method cannot handle */
} ipc_lcp_stop;

typedef struct ipc_lcp_result {
  int iterations;      /* sweeps / CG steps + sweeps / pivots */
  int cg_iterations;   /* PCG+PGS: the part of iterations spent in the CG phase */
  double residual;     /* natural-map residual of the returned z */
  double rel_residual; /* residual / ||q||_2 (residual when ||q||_2 <= DBL_EPSILON) */
  ipc_lcp_stop stop;
} ipc_lcp_result;

/* defaults: PGS, max_iter 1000, tol 1e-8, omega 1, PCG caps 2n, cg_tol = tol, Fletcher-
 * Reeves, cg_stall 10, AMGS alpha 0.5 with Omega = alpha diag(W), gamma 1 */
ipc_lcp_options ipc_lcp_default_options(void);

/* solver names as the CLI spells them: "pgs", "pcg-pgs", "amgs", "lemke", "bpp" */
const char *ipc_lcp_solver_name(ipc_lcp_solver s);

/* parses a solver name; returns 0 on success, -1 if unknown */
int ipc_lcp_solver_parse(const char *name, ipc_lcp_solver *s);

/* checks the problem's shapes and fields; IPCC_ERR_INPUT names what is wrong */
ipcc_status ipc_lcp_problem_check(const ipc_lcp_problem *p, ipcc_error *err);

/* true when the problem has bounds (lo, hi or dep set) */
bool ipc_lcp_is_boxed(const ipc_lcp_problem *p);

/* Solvers. Each writes z (n, caller-owned; may alias opt->z0) and res (may be NULL) and
 * returns IPCC_OK when converged, IPCC_ERR_SIM when not (res->stop says why; z is then the
 * best iterate), IPCC_ERR_INPUT for a malformed problem or one the solver does not handle
 * (err, may be NULL, says which). Workspace is allocated once per call, not in the loops. */

/* dispatches on opt->solver (opt NULL = defaults) */
ipcc_status ipc_lcp_solve(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                          ipc_lcp_result *res, ipcc_error *err);

/* projected Gauss-Seidel / SOR with omega; LCP and BLCP (pgs.c) */
ipcc_status ipc_lcp_pgs(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                        ipc_lcp_result *res, ipcc_error *err);

/* projected conjugate gradient then PGS from the best CG iterate; LCP and BLCP;
 * W must be symmetric positive (semi)definite (pcg_pgs.c) */
ipcc_status ipc_lcp_pcg_pgs(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                            ipc_lcp_result *res, ipcc_error *err);

/* accelerated modulus-based Gauss-Seidel, explicit (Method 2.2) or Jacobian form
 * (Method 3.1); LCP only (amgs.c) */
ipcc_status ipc_lcp_amgs(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                         ipc_lcp_result *res, ipcc_error *err);

/* Lemke's method with covering vector e and lexicographic ratio test; dense; LCP only
 * (lemke.c) */
ipcc_status ipc_lcp_lemke(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                          ipc_lcp_result *res, ipcc_error *err);

/* block principal pivoting with Murty's single-pivot backup; dense; LCP only; for
 * P-matrices (e.g. symmetric positive definite) (bpp.c) */
ipcc_status ipc_lcp_bpp(const ipc_lcp_problem *p, const ipc_lcp_options *opt, double *z,
                        ipc_lcp_result *res, ipcc_error *err);

/* Residual (residual.c) */

/* the natural-map residual of z given w = W z + q (both n) */
double ipc_lcp_residual_zw(const ipc_lcp_problem *p, const double *z, const double *w);

/* the natural-map residual of z (allocates w) */
double ipc_lcp_residual(const ipc_lcp_problem *p, const double *z);

/* residual / ||q||_2, or residual when ||q||_2 <= DBL_EPSILON */
double ipc_lcp_relative(const ipc_lcp_problem *p, double residual);

/* the bounds of entry i at z (0 / +inf for the LCP) */
void ipc_lcp_bounds(const ipc_lcp_problem *p, int i, const double *z, double *lo, double *hi);

/* Operators and matrices (matrix.c) */

/* y = W x (n each, not aliased); allocates scratch for the Jacobian form */
void ipc_lcp_mul(const ipc_lcp_problem *p, const double *x, double *y);

/* w = W z + q */
void ipc_lcp_w(const ipc_lcp_problem *p, const double *z, double *w);

/* W densely (n x n row-major, caller-owned); O(n nnz(J)) for the Jacobian form */
void ipc_lcp_dense(const ipc_lcp_problem *p, double *W);

/* A from triplets (0-based row ri, column ci, value v; nnz of them, any order); duplicates
 * are summed, stored zeros kept. IPCC_ERR_INPUT names an index out of range. */
ipcc_status ipc_lcp_csr_from_triplets(ipc_lcp_csr *A, int nrows, int ncols, int nnz, const int *ri,
                                      const int *ci, const double *v, ipcc_error *err);

/* A from a dense row-major matrix, dropping exact zeros */
void ipc_lcp_csr_from_dense(ipc_lcp_csr *A, int nrows, int ncols, const double *dense);

/* the explicit W = J A^-1 J^T + diag(reg) of a Jacobian-form problem (or a copy of M) */
void ipc_lcp_csr_explicit(ipc_lcp_csr *W, const ipc_lcp_problem *p);

/* frees the arrays of A (made by an ipc_lcp_csr_* function) and zeroes it; A may be NULL */
void ipc_lcp_csr_free(ipc_lcp_csr *A);

#endif
