/* the linear-solver interface (linear_solver.h): a dispatch to the CHOLMOD or PETSc backend.
 * The CHOLMOD path calls ipc_cholmod_* with the caller's arguments unchanged, so its results
 * are those of calling CHOLMOD directly, bit for bit. */
#include "linalg/linear_solver.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "linalg/cholmod_solver.h"
#include "linalg/petsc_solver.h"

struct ipc_linear_solver {
  ipcc_linear_solver_kind kind;
  ipc_cholmod *chol; /* CHOLMOD kind */
  ipc_petsc *petsc;  /* PETSc kinds */
};

static const char *const kind_names[] = {"cholmod", "petsc-mumps", "petsc-cg-gamg", "petsc"};
#define NKINDS ((int)(sizeof kind_names / sizeof kind_names[0]))

/* the kind --linear-solver forces, -1: none */
static int forced_kind = -1;

const char *ipc_linear_solver_kind_name(ipcc_linear_solver_kind kind) {
  return (int)kind >= 0 && (int)kind < NKINDS ? kind_names[kind] : "unknown";
}

int ipc_linear_solver_kind_parse(const char *name, ipcc_linear_solver_kind *kind) {
  for (int k = 0; k < NKINDS; ++k)
    if (!strcmp(name, kind_names[k])) {
      *kind = (ipcc_linear_solver_kind)k;
      return 1;
    }
  return 0;
}

const char *ipc_linear_solver_kind_list(void) {
  return "\"cholmod\", \"petsc-mumps\", \"petsc-cg-gamg\" or \"petsc\"";
}

int ipc_linear_solver_kind_available(ipcc_linear_solver_kind kind) {
  if (kind == IPCC_LINEAR_SOLVER_CHOLMOD) return 1;
  return (int)kind > 0 && (int)kind < NKINDS && ipc_petsc_available();
}

void ipc_linear_solver_force(int kind) {
  forced_kind = kind >= 0 && kind < NKINDS ? kind : -1;
}

ipcc_linear_solver_kind ipc_linear_solver_pick(ipcc_linear_solver_kind scene) {
  return forced_kind >= 0 ? (ipcc_linear_solver_kind)forced_kind : scene;
}

int ipc_linear_solver_set_petsc_options(const char *options, ipcc_error *err) {
  return ipc_petsc_set_options(options, err);
}

ipc_linear_solver *ipc_linear_solver_create(ipcc_linear_solver_kind kind, ipcc_error *err) {
  if ((int)kind < 0 || (int)kind >= NKINDS) {
    ipc_error_set(err, IPCC_ERR_INPUT, "newton.linear_solver: expected %s, got kind %d",
                  ipc_linear_solver_kind_list(), (int)kind);
    return NULL;
  }
  ipc_linear_solver *s = IPC_NEW0(ipc_linear_solver, 1);
  s->kind = kind;
  if (kind == IPCC_LINEAR_SOLVER_CHOLMOD) {
    s->chol = ipc_cholmod_create();
    if (!s->chol) ipc_error_set(err, IPCC_ERR_SIM, "CHOLMOD could not start");
  } else {
    s->petsc = ipc_petsc_create(kind, err);
  }
  if (!s->chol && !s->petsc) {
    ipc_free(s);
    return NULL;
  }
  return s;
}

void ipc_linear_solver_destroy(ipc_linear_solver *s) {
  if (!s) return;
  ipc_cholmod_destroy(s->chol);
  ipc_petsc_destroy(s->petsc);
  ipc_free(s);
}

ipc_factor_status ipc_linear_solver_factor(ipc_linear_solver *s, const ipc_csc *A,
                                           bool pattern_changed, double shift) {
  if (s->chol) return ipc_cholmod_factor(s->chol, A, pattern_changed, shift);
  return ipc_petsc_factor(s->petsc, A, pattern_changed, shift);
}

void ipc_linear_solver_new_ordering(ipc_linear_solver *s) {
  if (s->chol) ipc_cholmod_keep_ordering(s->chol, true);
}

ipc_factor_status ipc_linear_solver_solve(ipc_linear_solver *s, const double *b, double *x) {
  if (s->chol) return ipc_cholmod_solve(s->chol, b, x);
  return ipc_petsc_solve(s->petsc, b, x);
}

int ipc_linear_solver_iterative(const ipc_linear_solver *s) {
  return s->petsc ? ipc_petsc_iterative(s->petsc) : 0;
}

void ipc_linear_solver_set_accuracy(ipc_linear_solver *s, const ipc_solve_accuracy *acc) {
  if (s->petsc) ipc_petsc_set_accuracy(s->petsc, acc);
}

void ipc_linear_solver_set_coordinates(ipc_linear_solver *s, int nblocks, const double *xyz) {
  if (s->petsc) ipc_petsc_set_coordinates(s->petsc, nblocks, xyz);
}

void ipc_linear_solver_set_layout_points(ipc_linear_solver *s, int nblocks, const double *xyz) {
  if (s->petsc) ipc_petsc_set_layout_points(s->petsc, nblocks, xyz);
}

int ipc_linear_solver_sums_partial(const ipc_linear_solver *s) {
  return s->petsc != NULL;
}

void ipc_linear_solver_set_partial(ipc_linear_solver *s, int on, const unsigned char *touched) {
  if (s->petsc) ipc_petsc_set_partial(s->petsc, on, touched);
}

int ipc_linear_solver_unknown_rank(const ipc_linear_solver *s, int n, int u) {
  return s->petsc ? ipc_petsc_unknown_rank(s->petsc, n, u) : 0;
}

void ipc_linear_solver_get_stats(const ipc_linear_solver *s, ipc_linear_solver_stats *stats) {
  if (s->petsc) {
    ipc_petsc_get_stats(s->petsc, stats);
    return;
  }
  ipc_cholmod_stats cs;
  ipc_cholmod_get_stats(s->chol, &cs);
  memset(stats, 0, sizeof *stats);
  stats->analyses = cs.analyses;
  stats->factorizations = cs.factorizations;
  stats->not_pd = cs.not_pd;
  stats->solves = cs.solves;
  stats->block_size = 1;
  stats->analyze_seconds = cs.analyze_seconds;
  stats->factor_seconds = cs.factor_seconds;
  stats->solve_seconds = cs.solve_seconds;
}
