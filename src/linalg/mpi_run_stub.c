/* mpi_run.h in a build without MPI: a run under a launcher with several processes is refused
 * (they would be independent copies of one serial run writing over each other's files) */
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/parallel.h"
#include "linalg/mpi_run.h"

int ipc_mpi_start(ipcc_error *err) {
  int n = ipc_launcher_rank_count();
  if (n <= 1) return 0;
  ipc_error_set(err, IPCC_ERR_INPUT,
                "started as one of %d MPI processes, but this build of ipcc has no MPI (install "
                "petsc-dev and libopenmpi-dev, e.g. with tools/install-deps.sh, then meson setup "
                "--reconfigure -Dpetsc=enabled)",
                n);
  return 1;
}

int ipc_mpi_agree(int rc, const double *x, size_t n, int *same) {
  (void)x, (void)n;
  if (same) *same = 1;
  return rc;
}

/* one process: the collectives of the work split have nothing to combine */
double ipc_mpi_comm_seconds(void) {
  return 0.0;
}

unsigned long long ipc_mpi_comm_bytes(void) {
  return 0;
}

void ipc_mpi_reduce(double *v, size_t n, ipc_mpi_op op) {
  (void)v, (void)n, (void)op;
}

void ipc_mpi_sum_same(double *v, size_t n) {
  (void)v, (void)n;
}

size_t ipc_mpi_allgather(const void *mine, size_t mine_bytes, void **all, size_t *cap) {
  ipc_reserve(all, cap, mine_bytes + 1, 1);
  if (mine_bytes) memcpy(*all, mine, mine_bytes);
  return mine_bytes;
}
