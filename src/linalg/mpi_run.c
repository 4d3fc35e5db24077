/* mpi_run.h with MPI: started (MPI_Init_thread, only the main thread calls MPI: ipcc's OpenMP
 * loops do not) when a launcher started several processes, stopped at exit after PETSc,
 * which finds it running and leaves it to us (petsc_solver.c) */
#include "linalg/mpi_run.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/timer.h"

static int mpi_ours; /* MPI started here: finalized at exit */

static void mpi_stop(void) {
  int fin = 0;
  if (mpi_ours && MPI_Finalized(&fin) == MPI_SUCCESS && !fin) MPI_Finalize();
  mpi_ours = 0;
}

int ipc_mpi_start(ipcc_error *err) {
  int launched = ipc_launcher_rank_count();
  if (launched <= 1) return 0;
  int up = 0;
  MPI_Initialized(&up);
  if (!up) {
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      ipc_error_set(err, IPCC_ERR_INPUT,
                    "started as one of %d MPI processes, but MPI could not start (see its "
                    "messages above)",
                    launched);
      return 1;
    }
    mpi_ours = 1;
    atexit(mpi_stop);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ipc_set_rank(rank, size);
  return 0;
}

/* FNV-1a over x's bytes: any differing bit changes it (up to collisions, 2^-64) */
static uint64_t hash_doubles(const double *x, size_t n) {
  uint64_t h = 14695981039346656037ull;
  const unsigned char *p = (const unsigned char *)x;
  for (size_t i = 0; i < n * sizeof(double); ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

int ipc_mpi_agree(int rc, const double *x, size_t n, int *same) {
  if (same) *same = 1;
  if (ipc_rank_count() <= 1) return rc;
  /* one MPI_MAX reduction: the largest rc, the largest hash and the largest complement of a
     hash (the complement of the smallest): all ranks agree iff the two hashes match */
  uint64_t h = x ? hash_doubles(x, n) : 0;
  uint64_t mine[3] = {(uint64_t)(rc > 0 ? rc : 0), h, ~h}, all[3];
  if (MPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    return rc ? rc : 1;
  if (same) *same = all[1] == ~all[2];
  return all[0] > (uint64_t)rc ? (int)all[0] : rc;
}

/* ---- the collectives of the work split (mpi_split.c) ---- */

static double comm_seconds;
static unsigned long long comm_bytes;

double ipc_mpi_comm_seconds(void) {
  return comm_seconds;
}

unsigned long long ipc_mpi_comm_bytes(void) {
  return comm_bytes;
}

void ipc_mpi_reduce(double *v, size_t n, ipc_mpi_op op) {
  if (ipc_rank_count() <= 1 || n == 0) return;
  double t0 = ipc_now();
  MPI_Op o = op == IPC_MPI_SUM ? MPI_SUM : op == IPC_MPI_MIN ? MPI_MIN : MPI_MAX;
  MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, o, MPI_COMM_WORLD);
  comm_seconds += ipc_now() - t0;
  comm_bytes += n * sizeof(double);
}

void ipc_mpi_sum_same(double *v, size_t n) {
  if (ipc_rank_count() <= 1 || n == 0) return;
  double t0 = ipc_now();
  /* MPI_Allreduce may associate the terms differently on different ranks (with more than 2):
     one rank's sum, sent to all */
  if (ipc_rank() == 0)
    MPI_Reduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(v, NULL, (int)n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Bcast(v, (int)n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  comm_seconds += ipc_now() - t0;
  comm_bytes += n * sizeof(double);
}

size_t ipc_mpi_allgather(const void *mine, size_t mine_bytes, void **all, size_t *cap) {
  int nr = ipc_rank_count();
  if (nr <= 1) {
    ipc_reserve(all, cap, mine_bytes + 1, 1);
    if (mine_bytes) memcpy(*all, mine, mine_bytes);
    return mine_bytes;
  }
  double t0 = ipc_now();
  int *counts = IPC_NEW(int, 2 * (size_t)nr), *displs = counts + nr;
  int me = (int)mine_bytes;
  MPI_Allgather(&me, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  size_t total = 0;
  for (int r = 0; r < nr; ++r) {
    displs[r] = (int)total;
    total += (size_t)counts[r];
  }
  ipc_reserve(all, cap, total + 1, 1);
  MPI_Allgatherv(mine, me, MPI_BYTE, *all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  ipc_free(counts);
  comm_seconds += ipc_now() - t0;
  comm_bytes += total - mine_bytes + (size_t)nr * sizeof(int);
  return total;
}
