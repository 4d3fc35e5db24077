/* petsc_solver.h in a build without PETSc (meson option petsc disabled or PETSc not found):
 * no solver can be created, and the message says how to get one */
#include <stddef.h>

#include "core/error.h"
#include "linalg/petsc_solver.h"

static const char *const no_petsc =
    "this build of ipcc has no PETSc (install petsc-dev and libopenmpi-dev, e.g. with "
    "tools/install-deps.sh, then meson setup --reconfigure -Dpetsc=enabled)";

int ipc_petsc_available(void) {
  return 0;
}

int ipc_petsc_set_options(const char *options, ipcc_error *err) {
  if (!options) return 0;
  ipc_error_set(err, IPCC_ERR_INPUT, "PETSc options given, but %s", no_petsc);
  return 1;
}

ipc_petsc *ipc_petsc_create(ipcc_linear_solver_kind kind, ipcc_error *err) {
  ipc_error_set(err, IPCC_ERR_INPUT, "newton.linear_solver \"%s\": %s",
                ipc_linear_solver_kind_name(kind), no_petsc);
  return NULL;
}

void ipc_petsc_destroy(ipc_petsc *s) {
  (void)s;
}

ipc_factor_status ipc_petsc_factor(ipc_petsc *s, const ipc_csc *A, bool pattern_changed,
                                   double shift) {
  (void)s, (void)A, (void)pattern_changed, (void)shift;
  return IPC_FACTOR_FAILED;
}

ipc_factor_status ipc_petsc_solve(ipc_petsc *s, const double *b, double *x) {
  (void)s, (void)b, (void)x;
  return IPC_FACTOR_FAILED;
}

int ipc_petsc_iterative(const ipc_petsc *s) {
  (void)s;
  return 0;
}

void ipc_petsc_set_accuracy(ipc_petsc *s, const ipc_solve_accuracy *acc) {
  (void)s, (void)acc;
}

void ipc_petsc_set_coordinates(ipc_petsc *s, int nblocks, const double *xyz) {
  (void)s, (void)nblocks, (void)xyz;
}

void ipc_petsc_set_layout_points(ipc_petsc *s, int nblocks, const double *xyz) {
  (void)s, (void)nblocks, (void)xyz;
}

void ipc_petsc_get_stats(const ipc_petsc *s, ipc_linear_solver_stats *stats) {
  (void)s;
  *stats = (ipc_linear_solver_stats){0};
}

void ipc_petsc_set_partial(ipc_petsc *s, int on, const unsigned char *touched) {
  (void)s, (void)on, (void)touched;
}

int ipc_petsc_unknown_rank(const ipc_petsc *s, int n, int u) {
  (void)s, (void)n, (void)u;
  return 0;
}
