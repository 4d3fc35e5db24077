/* the solver of the Newton systems behind one interface: CHOLMOD (cholmod_solver.h, the
 * default) or PETSc (petsc_solver.h: MUMPS, CG with GAMG, or whatever PETSc's options
 * database asks for). Callers factor A + shift I (an upper-triangle ipc_csc, as the
 * assembler gives it), then solve; an iterative backend "factors" by setting up its
 * preconditioner and solves to the accuracy the caller asked for. */
#ifndef IPCC_LINALG_LINEAR_SOLVER_H
#define IPCC_LINALG_LINEAR_SOLVER_H

#include <stdbool.h>

#include "ipcc/error.h"
#include "ipcc/scene.h"
#include "linalg/sparse.h"

typedef enum ipc_factor_status {
  IPC_FACTOR_OK = 0,
  IPC_FACTOR_NOT_PD = 1, /* not (numerically) positive definite */
  IPC_FACTOR_FAILED = 2, /* anything else: out of memory, problem too large, no convergence */
} ipc_factor_status;

typedef struct ipc_linear_solver_stats {
  int analyses;       /* symbolic analyses (new sparsity pattern) */
  int factorizations; /* numeric factorizations (preconditioner set-ups) attempted */
  int not_pd;         /* of them, not positive definite */
  int solves;
  long iterations;        /* Krylov iterations over all solves (0 for direct solvers) */
  int block_size;         /* of the last matrix set up: 3 with rigid-body modes, else 1 */
  int scalar_fallbacks;   /* times block size 3 failed and the solver went scalar */
  int workspace_retries;  /* MUMPS factorizations redone with more workspace (ICNTL(14)) */
  double analyze_seconds; /* wall time, summed over calls; CHOLMOD: its symbolic analysis,
                             PETSc: building the matrix for a new pattern */
  double factor_seconds;
  double solve_seconds;
} ipc_linear_solver_stats;

/* how exact a solve must be, for iterative backends (direct ones solve to round-off):
   x may differ from A^-1 b by max(abs, rel |x|_inf) in the infinity norm. lambda_min > 0
   is a lower bound of the smallest eigenvalue of A (the error bound |e|_2 <= |r|_2 /
   lambda_min turns it into a residual test); 0: no bound known, the backend's defaults */
typedef struct ipc_solve_accuracy {
  double abs, rel, lambda_min;
} ipc_solve_accuracy;

typedef struct ipc_linear_solver ipc_linear_solver;

/* a solver of the given kind with no factor. NULL with err set (IPCC_ERR_INPUT, naming the
   scene key newton.linear_solver) when the kind is unknown or its backend cannot start
   (a PETSc kind in a build without PETSc, PETSc failing to initialize). Free with
   ipc_linear_solver_destroy. */
ipc_linear_solver *ipc_linear_solver_create(ipcc_linear_solver_kind kind, ipcc_error *err);

/* frees s and its factor; s may be NULL */
void ipc_linear_solver_destroy(ipc_linear_solver *s);

/* factors A + shift I (A: upper triangle, only read during the call; shift usually 0). The
   symbolic analysis is redone when pattern_changed (from ipc_sparse_finish), on the first
   call and when the size changes. On failure the factor is unusable until a successful
   factor call. */
ipc_factor_status ipc_linear_solver_factor(ipc_linear_solver *s, const ipc_csc *A,
                                           bool pattern_changed, double shift);

/* the next analysis of a changed pattern chooses its fill-reducing ordering afresh, and the
   analyses after it keep that ordering while it fills about as well (CHOLMOD; see
   ipc_cholmod_keep_ordering; PETSc's solvers order as they always do) */
void ipc_linear_solver_new_ordering(ipc_linear_solver *s);

/* x = (A + shift I)^-1 b with the last successful factor; b, x (n), may alias. Returns
   IPC_FACTOR_FAILED (x undefined) when there is no valid factor or an iterative solve did
   not converge, IPC_FACTOR_NOT_PD when it found A indefinite */
ipc_factor_status ipc_linear_solver_solve(ipc_linear_solver *s, const double *b, double *x);

/* 1 when solves are iterative (their accuracy is set with ipc_linear_solver_set_accuracy) */
int ipc_linear_solver_iterative(const ipc_linear_solver *s);

/* the accuracy of the next solves; ignored by direct backends */
void ipc_linear_solver_set_accuracy(ipc_linear_solver *s, const ipc_solve_accuracy *acc);

/* the unknowns' geometry, for solvers that use it (PETSc's algebraic multigrid takes a block
   size of 3 and the six rigid-body modes at these points as its near-null space): xyz
   (nblocks x 3, copied) is where the vertex of unknowns 3i, 3i + 1, 3i + 2 sits, when the
   system's n unknowns are the x, y, z of n / 3 vertices in that order; xyz NULL (or nblocks
   0): they are not, and solvers treat them as scalars. Applies from the next factor call;
   ignored by CHOLMOD and MUMPS */
void ipc_linear_solver_set_coordinates(ipc_linear_solver *s, int nblocks, const double *xyz);

/* over several MPI ranks: a point for each group of 3 unknowns (nblocks of them, 3 nblocks
   the system's size; a vertex's position, or a point of an affine body for its
   pseudo-vertices), along whose space-filling curve PETSc lays the rows out, so a rank's rows
   are a compact piece of the scene (ipc_linear_solver_unknown_rank reads the layout at
   once). NULL: the unknowns' own order. Ignored by CHOLMOD and on one process */
void ipc_linear_solver_set_layout_points(ipc_linear_solver *s, int nblocks, const double *xyz);

/* over MPI ranks (mpi_run.h), each rank may assemble only its share of the matrix: 1 when the
   solver can take such shares and add them up (PETSc), 0 when it needs the whole matrix on
   every rank (CHOLMOD) */
int ipc_linear_solver_sums_partial(const ipc_linear_solver *s);

/* on: the matrices of the next factor calls are this rank's shares, all with the same pattern
   on every rank, and the system is their sum over the ranks (the shift is added once); a
   share is nonzero only in the rows and columns of the unknowns marked in touched (n of the
   next matrix, nonzero = may hold this rank's values; read at the factor calls), and only
   those rows of other ranks are sent to them. Off (the default): every rank passes the whole
   matrix. Only for solvers that sum partial matrices */
void ipc_linear_solver_set_partial(ipc_linear_solver *s, int on, const unsigned char *touched);

/* the rank whose rows hold unknown u of a matrix of n unknowns: in the layout of the last
   factor call when it had n unknowns (PETSc renumbers them along a space-filling curve on
   several ranks), else an even split of [0, n) in rank order; 0 on one rank and for CHOLMOD.
   Terms assembled by the rank of their unknowns' rows (stage 2 of mpi_run.h) put few values
   in other ranks' rows */
int ipc_linear_solver_unknown_rank(const ipc_linear_solver *s, int n, int u);

/* counters and timings so far */
void ipc_linear_solver_get_stats(const ipc_linear_solver *s, ipc_linear_solver_stats *stats);

/* the kind's name in scenes and on the command line ("cholmod", "petsc-mumps",
   "petsc-cg-gamg", "petsc"); "unknown" for other values */
const char *ipc_linear_solver_kind_name(ipcc_linear_solver_kind kind);

/* the kind named name into *kind: 1, or 0 when name is none of them */
int ipc_linear_solver_kind_parse(const char *name, ipcc_linear_solver_kind *kind);

/* the accepted names, for messages: "\"cholmod\", \"petsc-mumps\", ..." */
const char *ipc_linear_solver_kind_list(void);

/* 1 when this build can create solvers of the kind (PETSc kinds need -Dpetsc) */
int ipc_linear_solver_kind_available(ipcc_linear_solver_kind kind);

/* process-wide choice that takes precedence over every scene's newton.linear_solver (the
   command line's --linear-solver); kind < 0 restores the scenes' choice */
void ipc_linear_solver_force(int kind);

/* the kind a scene asking for `scene` gets: the forced one if any, else scene */
ipcc_linear_solver_kind ipc_linear_solver_pick(ipcc_linear_solver_kind scene);

/* options for PETSc's database ("-ksp_type cg -pc_type hypre"), for the PETSc solvers created
   afterwards in this process (the command line's --petsc-options; PETSc reads PETSC_OPTIONS
   itself, before these). 0, or 1 with err set (IPCC_ERR_INPUT) in a build without PETSc or
   when PETSc cannot read them */
int ipc_linear_solver_set_petsc_options(const char *options, ipcc_error *err);

#endif
