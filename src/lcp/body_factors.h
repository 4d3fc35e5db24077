/* per-body factors of A = M + h^2 K for the coupled contact mode (body_factors.c) */
#ifndef IPCC_LCP_BODY_FACTORS_H
#define IPCC_LCP_BODY_FACTORS_H

#include <stdbool.h>

#include "core/model.h"
#include "linalg/cholmod_solver.h"
#include "linalg/sparse.h"

typedef struct ipc_lcp_body_factors {
  int nb;           /* blocks (bodies with free DOFs) */
  int *r0;          /* (nb + 1) block k holds the reduced DOFs r0[k] .. r0[k+1]-1 */
  int *block;       /* (model nbodies) block of a body, -1 when it has no free DOF */
  int *colptr;      /* (reduced n + nb) the blocks' column pointers, shifted */
  int *rowind;      /* (nnz of A) the blocks' row indices, shifted */
  ipc_cholmod **f;  /* (nb) */
  int nf, nnz, cap; /* sizes the arrays were built for; cap: blocks allocated */
} ipc_lcp_body_factors;

/* factors every body's diagonal block of A (upper-triangle CSC over the free DOFs of the
   assembler s, which must have no entry between two bodies). Returns IPC_FACTOR_OK, or
   IPC_FACTOR_FAILED when the free DOFs of a body are not one contiguous range or A couples
   two bodies (then the caller factors A whole), or the status of a failed block. */
ipc_factor_status ipc_lcp_body_factors_update(ipc_lcp_body_factors *bf, const ipc_model *m,
                                              const ipc_sparse *s, const ipc_csc *A,
                                              bool pattern_changed);

/* x = A^-1 x (reduced, in place) with the block factors */
ipc_factor_status ipc_lcp_body_factors_solve(const ipc_lcp_body_factors *bf, double *x);

/* x = A_k^-1 x for block k alone; x holds the block's r0[k+1] - r0[k] entries */
ipc_factor_status ipc_lcp_body_factors_solve_block(const ipc_lcp_body_factors *bf, int k,
                                                   double *x);

void ipc_lcp_body_factors_free(ipc_lcp_body_factors *bf);

#endif
