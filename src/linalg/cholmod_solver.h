/* sparse Cholesky for the Newton systems: CHOLMOD supernodal LL^T with the symbolic
 * analysis (fill-reducing ordering chosen by CHOLMOD: AMD, METIS when AMD fills badly)
 * reused until the sparsity pattern changes. The only file that includes cholmod.h is
 * cholmod_solver.c; CHOLMOD prints nothing. */
#ifndef IPCC_LINALG_CHOLMOD_SOLVER_H
#define IPCC_LINALG_CHOLMOD_SOLVER_H

#include <stdbool.h>

#include "linalg/linear_solver.h" /* ipc_factor_status */
#include "linalg/sparse.h"

typedef struct ipc_cholmod_stats {
  int analyses;       /* symbolic analyses */
  int kept_orderings; /* of them, with the kept ordering (ipc_cholmod_keep_ordering) */
  int factorizations; /* numeric factorizations attempted */
  int not_pd;         /* of them, not positive definite */
  int solves;
  double factor_nnz;      /* nonzeros of L from the last analysis */
  double factor_flops;    /* flops of one factorization with the last analysis */
  const char *ordering;   /* ordering of the last analysis: "amd", "metis", "nesdis", ... */
  double analyze_seconds; /* wall time, summed over calls */
  double factor_seconds;
  double solve_seconds;
} ipc_cholmod_stats;

typedef struct ipc_cholmod ipc_cholmod;

/* a solver with no factor; NULL if CHOLMOD cannot start. Free with ipc_cholmod_destroy. */
ipc_cholmod *ipc_cholmod_create(void);

/* frees s and its factor; s may be NULL */
void ipc_cholmod_destroy(ipc_cholmod *s);

/* factors A + shift I (A: upper triangle, see ipc_csc; shift usually 0). The symbolic
 * analysis is redone when pattern_changed (from ipc_sparse_finish), on the first call and
 * when the size changes; otherwise the previous one is reused. A is only read during the
 * call. On failure the factor is unusable until a successful factor call. */
ipc_factor_status ipc_cholmod_factor(ipc_cholmod *s, const ipc_csc *A, bool pattern_changed,
                                     double shift);

/* x = (A + shift I)^-1 b with the last successful factorization; b, x (n), may alias.
 * Returns IPC_FACTOR_FAILED (x untouched) when there is no valid factor. */
ipc_factor_status ipc_cholmod_solve(ipc_cholmod *s, const double *b, double *x);

/* With keep, the analysis of a changed pattern of the same size reuses the fill-reducing
 * ordering of the last analysis that chose one (CHOLMOD_GIVEN: the elimination tree, counts
 * and supernodes are still computed for the new pattern) unless that ordering's flops exceed
 * 1.1 times those it had when chosen; then a new one is chosen and kept. The first analysis
 * after every call chooses afresh, so a caller that calls this at the start of each time
 * step gets orderings that depend on that step alone (resumed runs repeat exactly). AMD is
 * about a third of an analysis on the mat40x40 twist, where contacts change the pattern at
 * nearly every Newton iteration. Off by default. */
void ipc_cholmod_keep_ordering(ipc_cholmod *s, bool keep);

/* counters and timings so far */
void ipc_cholmod_get_stats(const ipc_cholmod *s, ipc_cholmod_stats *stats);

#endif
