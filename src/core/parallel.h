/* ipcc's own loops over elements, contacts and candidate pairs run on OpenMP threads.
   Results never depend on the number of threads: work is cut into chunks whose size
   depends only on the problem size, each chunk is processed in a fixed order, and
   per-chunk results are combined in chunk order. */
#ifndef IPCC_CORE_PARALLEL_H
#define IPCC_CORE_PARALLEL_H

#include <stddef.h>

/* the number of threads is set by ipcc_set_threads (public: ipcc/world.h) */

/* the number of threads loops use */
int ipc_threads(void);

/* the number of the calling thread within a loop of ipc_parallel_* (0 outside one), below
   ipc_threads(): for per-thread scratch whose use leaves no trace in the results */
int ipc_thread_num(void);

/* work on items [begin, end) of a loop, chunk number `chunk` (for per-chunk outputs kept
   in ctx); returns the chunk's partial result */
typedef double (*ipc_range_fn)(void *ctx, size_t chunk, size_t begin, size_t end);

enum { IPC_MAX_CHUNKS = 256 };

/* the number of chunks ipc_parallel_* cut n items into when each chunk should hold at
   least min_chunk items (at most IPC_MAX_CHUNKS): depends on n and min_chunk only */
size_t ipc_chunk_count(size_t n, size_t min_chunk);

/* item range of chunk c of nchunks over n items */
void ipc_chunk_range(size_t n, size_t nchunks, size_t c, size_t *begin, size_t *end);

/* the part of the run [s0, s0 + n) that lies in [begin, end), as [*lo, *hi) relative to s0;
   returns 0 when they do not meet (for loops over several lists numbered one after another) */
int ipc_subrange(size_t s0, size_t n, size_t begin, size_t end, size_t *lo, size_t *hi);

/* runs fn on chunks [c0, c1) of nc chunks over n items (ipc_chunk_range), in parallel, each
   chunk's result into part[c] (the building block of ipc_parallel_sum / _min, and of their
   versions split over MPI ranks, linalg/mpi_run.h) */
void ipc_parallel_chunks(size_t n, size_t nc, size_t c0, size_t c1, ipc_range_fn fn, void *ctx,
                         double *part);

/* runs fn over [0, n) in chunks (ipc_chunk_count(n, min_chunk)), in parallel, and returns
   the sum of the chunk results added in chunk order */
double ipc_parallel_sum(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx);

/* as ipc_parallel_sum, but returns the smallest chunk result (+INFINITY when n == 0) */
double ipc_parallel_min(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx);

/* a run over MPI (`mpirun -np N ipcc run`, src/linalg/mpi_run.h): this process's rank and
   the number of ranks, 0 and 1 unless MPI started with several. Every rank runs the same
   steps; only rank 0 writes the run's files and messages (ipc_rank() == 0 at those points) */
int ipc_rank(void);
int ipc_rank_count(void);

/* the number of processes a launcher started this one among, as its environment announces
   (OMPI_COMM_WORLD_SIZE: Open MPI's mpirun; PMI_SIZE: MPICH's hydra, Intel MPI, Slurm's srun
   with PMI; MV2_COMM_WORLD_SIZE: MVAPICH; SLURM_STEP_NUM_TASKS: srun), 1 when none does */
int ipc_launcher_rank_count(void);

/* set by the MPI start (src/linalg/mpi_run.c) */
void ipc_set_rank(int rank, int count);

#endif
