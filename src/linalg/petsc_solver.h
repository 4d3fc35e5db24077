/* the PETSc backend of linear_solver.h: a KSP over a PETSc matrix copied from the
 * assembler's upper triangle, configured by a preset and then by PETSc's options database
 * (PETSC_OPTIONS in the environment, then ipc_petsc_set_options), so -ksp_type, -pc_type,
 * -pc_factor_mat_solver_type ... override the preset. PETSc (and MPI, if no one started it)
 * starts when the first solver is created and stops at exit. The only file that includes
 * PETSc's headers is petsc_solver.c; petsc_stub.c stands in for it in builds without PETSc. */
#ifndef IPCC_LINALG_PETSC_SOLVER_H
#define IPCC_LINALG_PETSC_SOLVER_H

#include "linalg/linear_solver.h"

typedef struct ipc_petsc ipc_petsc;

/* 1 in builds with PETSc */
int ipc_petsc_available(void);

/* options for PETSc's database ("-ksp_type cg -pc_type hypre"), copied; inserted after
   PETSC_OPTIONS when PETSc starts, or at once if it has started (then they apply to solvers
   created afterwards). NULL clears those not yet inserted. Returns 0, or 1 (message in err,
   IPCC_ERR_INPUT) in a build without PETSc or when PETSc rejects the string. */
int ipc_petsc_set_options(const char *options, ipcc_error *err);

/* a solver with the preset of kind (a PETSc kind of ipcc_linear_solver_kind); NULL with err
   set (IPCC_ERR_INPUT) when PETSc is missing or cannot start. On several MPI ranks (mpi_run.h)
   every rank must make the same calls with the same arguments (they are collective) */
ipc_petsc *ipc_petsc_create(ipcc_linear_solver_kind kind, ipcc_error *err);

/* frees s; s may be NULL. PETSc itself stays up until exit. */
void ipc_petsc_destroy(ipc_petsc *s);

/* as ipc_linear_solver_factor / _solve / _iterative / _set_accuracy / _set_coordinates /
   _get_stats */
ipc_factor_status ipc_petsc_factor(ipc_petsc *s, const ipc_csc *A, bool pattern_changed,
                                   double shift);
ipc_factor_status ipc_petsc_solve(ipc_petsc *s, const double *b, double *x);
int ipc_petsc_iterative(const ipc_petsc *s);
void ipc_petsc_set_accuracy(ipc_petsc *s, const ipc_solve_accuracy *acc);
void ipc_petsc_set_coordinates(ipc_petsc *s, int nblocks, const double *xyz);
void ipc_petsc_set_layout_points(ipc_petsc *s, int nblocks, const double *xyz);
void ipc_petsc_get_stats(const ipc_petsc *s, ipc_linear_solver_stats *stats);
/* as ipc_linear_solver_set_partial / _unknown_rank */
void ipc_petsc_set_partial(ipc_petsc *s, int on, const unsigned char *touched);
int ipc_petsc_unknown_rank(const ipc_petsc *s, int n, int u);

#endif
