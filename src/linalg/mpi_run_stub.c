/* mpi_run.h in a build without MPI: a run under a launcher with several processes is refused
 * (they would be independent copies of one serial run writing over each other's files) */
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
