/* `mpirun -np N ipcc run SCENE` (issue 22, stage 1; docs/scaling.md): every rank loads the
 * whole scene and runs the same deterministic steps; the Newton systems are solved over all
 * ranks by the PETSc backend (petsc_solver.c: each rank owns a contiguous block of rows, the
 * solution is gathered to every rank, so all ranks keep the same state bit for bit); rank 0
 * alone writes the run's files. MPI starts only when a launcher started this process among
 * several (its environment says so: Open MPI's mpirun, MPICH's hydra, Slurm's srun), so a
 * run without a launcher is the serial run as before. The only file that includes MPI's
 * header is mpi_run.c; mpi_run_stub.c stands in for it in builds without PETSc and MPI. */
#ifndef IPCC_LINALG_MPI_RUN_H
#define IPCC_LINALG_MPI_RUN_H

#include <stddef.h>

#include "ipcc/error.h"

/* starts MPI when ipc_launcher_rank_count() > 1 (core/parallel.h) and sets ipc_rank /
   ipc_rank_count (core/parallel.h); MPI stops at exit. 0, or 1 with err set (IPCC_ERR_INPUT): a
   build without MPI launched on several processes, or MPI failing to start */
int ipc_mpi_start(ipcc_error *err);

/* collective over the ranks (every rank calls it at the same point; without MPI it returns
   rc at once): the largest rc of all ranks, so a failure on one rank (rank 0 writing a
   frame) stops them all at the same step. When x (n doubles, the state every rank should
   hold identically) is given, *same is set to 0 if the ranks' copies differ in any bit (a
   64-bit hash of x compared by one MPI_Allreduce), else 1 */
int ipc_mpi_agree(int rc, const double *x, size_t n, int *same);

#endif
