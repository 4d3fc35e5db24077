/* the ranks' agreement of an MPI run (src/linalg/mpi_run.c), run by tests/test_mpi.sh under
   mpirun -np 2: rank 0 learns another rank's failure, identical states pass the hash test,
   a state that differs in one bit on one rank fails it on every rank */
#include <string.h>

#include "core/parallel.h"
#include "linalg/mpi_run.h"
#include "test.h"

int main(void) {
  ipcc_error err;
  ipcc_error_clear(&err);
  CHECK(ipc_mpi_start(&err) == 0);
  CHECK_MSG(ipc_rank_count() == 2, "%d ranks: run under mpirun -np 2", ipc_rank_count());
  int rank = ipc_rank(), same = -1;
  double x[7] = {1.5, -2.25, 3.0, 1e-300, 0.0, 7.0, 1.0 / 3.0};
  /* the largest exit code, on every rank */
  CHECK(ipc_mpi_agree(rank == 1 ? 2 : 0, x, 7, &same) == 2);
  CHECK(same == 1);
  CHECK(ipc_mpi_agree(0, NULL, 0, &same) == 0);
  CHECK(same == 1);
  /* one bit of one coordinate on rank 1 */
  double y[7];
  memcpy(y, x, sizeof x);
  if (rank == 1) {
    unsigned long long bits;
    memcpy(&bits, &y[6], sizeof bits);
    bits ^= 1;
    memcpy(&y[6], &bits, sizeof bits);
  }
  CHECK(ipc_mpi_agree(0, y, 7, &same) == 0);
  CHECK_MSG(same == 0, "rank %d: a one-bit difference passed", rank);
  /* -0.0 and 0.0: different bits, the ranks disagree */
  y[6] = x[6];
  y[4] = rank == 1 ? -0.0 : 0.0;
  CHECK(ipc_mpi_agree(1, y, 7, &same) == 1);
  CHECK(same == 0);
  printf("rank %d: %d checks, %d failed\n", rank, test_checks, test_failures);
  return test_failures ? 1 : 0;
}
