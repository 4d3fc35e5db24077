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
#include <stdio.h>

#include "core/parallel.h"

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

/* ---- stage 2: work split over the ranks (mpi_split.c; docs/scaling.md) ----
   Inside a time step (ipc_mpi_split_scope, set around the step's solves on every rank) the
   loops over candidate pairs (CCD step bounds, the narrowing of the swept candidates, the
   barrier energy and contact sets) and over the tets (the elastic energy of line-search
   trials) are cut into chunks as ipc_parallel_sum cuts them, each rank runs its own block of
   chunks, and the per-chunk results are combined over MPI so every rank gets the same bits:
   minima by MPI_MIN, sums by summing the array of per-chunk results (MPI_SUM with every
   chunk's value from one rank alone, so exact) and then adding them in chunk order, lists by
   MPI_Allgatherv in rank order (which is chunk order). On one rank, or outside the scope,
   every function below is the serial one: the same chunks and bits as ipc_parallel_*.
   With several ranks the chunk count is raised (to 4 per rank, when the serial count is
   lower) so each rank gets a share: sums are then grouped differently from the serial run's,
   within round-off of it. IPCC_MPI_SPLIT=0 in the environment keeps every loop whole on every
   rank (stage 1), for comparisons. */

/* on (1) / off (0): collective calls inside may split their work; every rank must make the
   same calls in the same order while it is on. Returns the previous setting (code whose
   callbacks have side effects turns it off around a loop and back) */
int ipc_mpi_split_scope(int on);

/* 1 when the work is split: the scope is on and MPI runs several ranks */
int ipc_mpi_splitting(void);

/* the chunks a split loop over n items cuts (ipc_chunk_count's when not splitting, at most
   IPC_MAX_CHUNKS) and this rank's block of them, [*c0, *c1) */
size_t ipc_mpi_chunk_count(size_t n, size_t min_chunk);
void ipc_mpi_my_chunks(size_t nc, size_t *c0, size_t *c1);

/* work counted per rank (IPCC_WORK_STATS=1 prints them at the end of `ipcc run`, on every
   rank; their sum over the ranks is the serial run's count when the ranks took the same
   steps) */
typedef enum ipc_work_kind {
  IPC_WORK_CCD,        /* candidate pairs through a CCD step bound */
  IPC_WORK_NARROW,     /* swept candidate pairs narrowed */
  IPC_WORK_BARRIER,    /* pairs through the barrier energy / contact collection */
  IPC_WORK_ELASTIC,    /* tets through the elastic energy of a trial */
  IPC_WORK_BROAD,      /* broad-phase query nodes traversed (box_pairs.c) */
  IPC_WORK_BODY_PAIRS, /* body pairs whose primitives the body-by-body broad phase paired */
  /* the Newton systems' assembly (newton.c): tets, contacts and lagged friction pairs whose
     gradients and projected Hessians this rank computed; the matrix entries it sent to other
     ranks' rows (petsc_solver.c; its CPU: filling PETSc's matrix, the exchange included); the
     assemblies, with their CPU time (less that of their
     collectives, counted apart) */
  IPC_WORK_ASM_TETS,
  IPC_WORK_ASM_CONTACTS,
  IPC_WORK_ASM_FRICTION,
  IPC_WORK_ASM_AFFINE, /* affine bodies whose inertia and orthogonality Hessians it added */
  IPC_WORK_ASM_SENT,
  IPC_WORK_ASSEMBLY,
  IPC_WORK_ASM_COMM, /* the split assembly's collectives (the gradient's sum, the contacts' points)
                      */
  IPC_WORK_KINDS
} ipc_work_kind;

/* as ipc_parallel_sum / ipc_parallel_min, split over the ranks while splitting; the items
   this rank processed are added to the work count of kind */
double ipc_mpi_parallel_sum(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx,
                            ipc_work_kind kind);
double ipc_mpi_parallel_min(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx,
                            ipc_work_kind kind);
/* runs this rank's chunks of nc over n into part (the others' entries untouched), counts
   the items; the caller combines the results (ipc_mpi_reduce, ipc_mpi_allgather) */
void ipc_mpi_parallel_chunks(size_t n, size_t nc, ipc_range_fn fn, void *ctx, double *part,
                             ipc_work_kind kind);
void ipc_mpi_count(ipc_work_kind kind, size_t items);
/* this process's CPU seconds so far, and the CPU seconds of a loop of kind (counted as above) */
double ipc_mpi_cpu_now(void);
void ipc_mpi_count_cpu(ipc_work_kind kind, double seconds);

/* collective, in place over all ranks: v[i] = op over the ranks of v[i] (nothing on one
   rank) */
typedef enum ipc_mpi_op { IPC_MPI_SUM, IPC_MPI_MIN, IPC_MPI_MAX } ipc_mpi_op;
void ipc_mpi_reduce(double *v, size_t n, ipc_mpi_op op);

/* collective, in place: v[i] = the sum over the ranks of v[i], the same bits on every rank
   (summed on rank 0, then sent to the others; nothing on one rank) */
void ipc_mpi_sum_same(double *v, size_t n);

/* collective: every rank's `mine` (mine_bytes) concatenated in rank order into *all (grown
   with ipc_reserve, *cap its capacity in bytes); returns the total bytes. On one rank a copy */
size_t ipc_mpi_allgather(const void *mine, size_t mine_bytes, void **all, size_t *cap);

/* seconds spent in the calls above waiting for and moving data (this rank), and the bytes this
   rank received in them (an Allreduce counted as its vector's size) */
double ipc_mpi_comm_seconds(void);
unsigned long long ipc_mpi_comm_bytes(void);

/* one line per rank to f: its work counts, communication time (wall) and the CPU seconds of its
   share of the split loops (every rank prints its own) */
void ipc_mpi_work_report(FILE *f);

#endif
