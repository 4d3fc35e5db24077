/* PETSc backend (petsc_solver.h): the assembler's upper-triangle CSC is copied into a PETSc
 * matrix (MATSBAIJ, upper triangle, when the preconditioner is a Cholesky factorization;
 * MATAIJ, both triangles, otherwise) and solved with a KSP configured by a preset, then by
 * PETSc's options database:
 *   petsc-mumps    KSPPREONLY + PCCHOLESKY with MUMPS: LDL^T (MUMPS SYM=2) with the analysis
 *                  reused while the pattern holds; "not positive definite" is a negative pivot
 *                  count (MUMPS INFOG(12) through MatGetInertia) or a zero pivot, as CHOLMOD's
 *                  LL^T fails on a pivot <= 0.
 *   petsc-cg-gamg  KSPCG + PCGAMG (levels smoothed by symmetric SOR); "not positive definite"
 *                  when CG stops on an indefinite matrix or preconditioner, or its answer has
 *                  b.x = x.Ax <= 0.
 *   petsc          PETSc's defaults and the options alone (the b.x test when iterative).
 * Iterative solves stop on a test tied to the caller's accuracy (ipc_solve_accuracy) unless
 * -ksp_rtol or -ksp_atol is given: A = M + (PSD terms) for the Newton systems, so with lambda
 * a lower bound of its smallest eigenvalue the error e = x - A^-1 b of an iterate with
 * residual r obeys |e|_inf <= |e|_2 <= |r|_2 / lambda; CG stops once
 * |r|_2 <= lambda max(abs, rel |x|_inf), which bounds the error in the solution's own units.
 * With coordinates (ipc_petsc_set_coordinates) an iterative solver's matrix gets block size 3
 * and the rigid-body modes at them as its near-null space, which PCGAMG builds its coarse
 * spaces from (smoothed aggregation for elasticity, Vanek, Mandel, Brezina 1996): without
 * them GAMG aggregates scalar unknowns and cannot represent rotations on coarse levels.
 * Over MPI (`mpirun -np N ipcc run`, mpi_run.h) the objects live on PETSC_COMM_WORLD: every
 * rank holds the whole system (the model and state are replicated), inserts only its own
 * contiguous block of rows (whole vertices, 3 unknowns, when n is a multiple of 3) into the
 * distributed matrix, and gets the whole solution back (a scatter to all ranks), the same
 * bytes on every rank, so the ranks' Newton iterations stay identical. With
 * ipc_petsc_set_partial (stage 2: each rank assembled the terms of its rows) every rank's
 * matrix has the same pattern and holds its terms' values: each rank inserts its own rows, plus
 * the entries the other ranks' terms across the cut put there, which they send it with their
 * places in its rows (exchange_cut: every rank knows the layout of all rows, built once per
 * pattern). Layout points (ipc_petsc_set_layout_points) renumber the unknowns along a
 * space-filling curve so that cut is short. */
#include "linalg/petsc_solver.h"

#include <ctype.h>
#include <math.h>
#include <petscksp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/timer.h"
#include "linalg/mpi_run.h"

struct ipc_petsc {
  ipcc_linear_solver_kind kind;
  KSP ksp;
  Mat A; /* NULL before the first factor and after a failed set-up */
  Vec b, x;
  int sbaij;          /* A stores the upper triangle only */
  int iterative;      /* the KSP is not KSPPREONLY */
  void *default_test; /* PETSc's test, for accuracy_test without a bound */
  int n;
  PetscInt rstart, rend; /* the rows this rank owns */
  VecScatter gather;     /* more than one rank: x to xall on every rank */
  Vec xall;
  /* more than one rank and layout points (ipc_petsc_set_layout_points): the unknowns
     renumbered by vertices along a space-filling curve (renumber), so a rank's rows are a
     compact piece of the bodies, its matrix-vector products exchange only the values along the
     cut and the terms it assembles put few values in other ranks' rows. NULL: as given */
  int *order;   /* (n) the matrix's unknown i is the caller's order[i] */
  int layout_n; /* the n order is for (set_layout_points sets it before the first factor) */
  int *inv;     /* (n) the caller's unknown i is the matrix's inv[i] */
  double *pxyz; /* (n) the coordinates in the matrix's order */
  /* the rank's rows of A in CSR (local row i is row rstart + i; columns global, ascending):
     entry p is val[src[p]] of the caller's CSC */
  PetscInt *rowptr, *cols; /* (rend - rstart + 1), (m) */
  PetscScalar *vals;       /* (m) */
  int *src;                /* (m) */
  int *diag;               /* (rend - rstart) position of each row's diagonal entry */
  int valid;               /* a successful factor */
  /* ipc_petsc_set_partial: the caller's matrix is this rank's share. All rows of the matrix
     laid out as their owners lay out theirs (rowptr ... diag over rows [0, n): every rank's
     rows, in rank order): entry p is val[all_src[p]] of the caller's CSC */
  int partial;
  const unsigned char *touched; /* (n) unknowns whose rows this rank's share may hold */
  int all_built;                /* the arrays below belong to the current pattern */
  PetscInt *all_rowptr, *all_cols;
  PetscScalar *all_vals;
  int *all_src, *all_diag;
  int *send_idx; /* exchange_cut's entries to send: places in their owners' rows, values */
  double *send_val;
  int bs;       /* A's block size: 3 with the rigid-body near-null space, else 1 */
  double *xyz;  /* (nblocks x 3) ipc_petsc_set_coordinates */
  int nblocks;  /* 0: no coordinates */
  double *lxyz; /* (nlayout x 3) ipc_petsc_set_layout_points: renumber's points */
  int nlayout;  /* 0: none */
  size_t cap_lxyz;
  size_t cap_xyz;
  int scalar_only; /* block size 3 failed once: scalar from then on (scalar_fallback) */
  int new_matrix;  /* A was made since the last set-up */
  int reuse;       /* GAMG keeps its interpolation while A is the same matrix (renew_ksp) */
  ipc_solve_accuracy acc;
  ipc_linear_solver_stats st;
};

/* PETSc's state in this process: 0 not started, 1 running (ours to finalize at exit), 2 started
   by someone else (theirs to finalize), -1 failed to start */
static int petsc_state = 0;
static char *pending_options; /* ipc_petsc_set_options before the start */

int ipc_petsc_available(void) {
  return 1;
}

static int insert_options(const char *options, ipcc_error *err) {
  if (PetscOptionsInsertString(NULL, options) != 0) {
    ipc_error_set(err, IPCC_ERR_INPUT, "PETSc options '%s': PETSc cannot read them", options);
    return 1;
  }
  return 0;
}

int ipc_petsc_set_options(const char *options, ipcc_error *err) {
  if (petsc_state == 1) return options ? insert_options(options, err) : 0;
  ipc_free(pending_options);
  pending_options = NULL;
  if (options) {
    size_t len = strlen(options) + 1;
    pending_options = ipc_malloc(len);
    memcpy(pending_options, options, len);
  }
  return 0;
}

/* the command line PETSc starts with (its options come from there after PETSC_OPTIONS, so
   options read only at the start, -log_view, -malloc_debug ..., work from
   ipc_petsc_set_options too): "ipcc -no_signal_handler" and the pending options split at
   white space; kept until PETSc stops */
static char *start_text;
static char **start_argv;

static void petsc_stop(void) {
  PetscBool fin = PETSC_FALSE;
  if (petsc_state == 1 && PetscFinalized(&fin) == 0 && !fin) PetscFinalize();
  petsc_state = 0;
  ipc_free(start_text);
  ipc_free(start_argv);
  start_text = NULL;
  start_argv = NULL;
}

static int start_args(char ***argv) {
  const char *opts = pending_options ? pending_options : "";
  size_t len = strlen(opts);
  start_text = ipc_malloc(len + sizeof "ipcc -no_signal_handler ");
  snprintf(start_text, len + sizeof "ipcc -no_signal_handler ", "ipcc -no_signal_handler %s", opts);
  start_argv = IPC_NEW(char *, len / 2 + 4);
  int argc = 0;
  for (char *p = start_text; *p;) {
    while (*p && isspace((unsigned char)*p)) *p++ = '\0';
    if (!*p) break;
    start_argv[argc++] = p;
    while (*p && !isspace((unsigned char)*p)) ++p;
  }
  start_argv[argc] = NULL;
  *argv = start_argv;
  ipc_free(pending_options);
  pending_options = NULL;
  return argc;
}

/* PETSc (and MPI, unless someone started it) once per process, PetscFinalize at exit.
   PETSc's signal handler stays off: a crash should reach the sanitizers and the shell as
   itself */
static int petsc_start(ipcc_error *err) {
  if (petsc_state == 0) {
    PetscBool up = PETSC_FALSE;
    PetscInitialized(&up);
    if (up) { /* someone else's PETSc: use it, leave it to them */
      petsc_state = 2;
    } else {
      char **argv;
      int argc = start_args(&argv);
      if (PetscInitialize(&argc, &argv, NULL, NULL) == 0) {
        petsc_state = 1;
        atexit(petsc_stop);
      } else {
        petsc_state = -1;
      }
    }
  }
  if (petsc_state < 0) {
    ipc_error_set(err, IPCC_ERR_INPUT,
                  "newton.linear_solver: PETSc (or MPI under it) could not start; see its "
                  "messages above");
    return 1;
  }
  if (pending_options) { /* given after the start */
    int rc = insert_options(pending_options, err);
    ipc_free(pending_options);
    pending_options = NULL;
    if (rc) return 1;
  }
  return 0;
}

/* stops once |r|_2 <= lambda max(abs, rel |x|_inf) (see the top of the file); PETSc's default
   test while no bound is known */
static PetscErrorCode accuracy_test(KSP ksp, PetscInt it, PetscReal rnorm,
                                    KSPConvergedReason *reason, void *ctx) {
  ipc_petsc *s = ctx;
  if (!(s->acc.lambda_min > 0)) return KSPConvergedDefault(ksp, it, rnorm, reason, s->default_test);
  *reason = KSP_CONVERGED_ITERATING;
  if (!isfinite(rnorm)) {
    *reason = KSP_DIVERGED_NANORINF;
    return 0;
  }
  PetscReal xinf = 0;
  if (it > 0) {
    Vec x;
    PetscCall(KSPBuildSolution(ksp, NULL, &x));
    PetscCall(VecNorm(x, NORM_INFINITY, &xinf));
  }
  if (rnorm <= s->acc.lambda_min * fmax(s->acc.abs, s->acc.rel * xinf)) {
    *reason = KSP_CONVERGED_ATOL;
    return 0;
  }
  PetscInt maxit;
  PetscCall(KSPGetTolerances(ksp, NULL, NULL, NULL, &maxit));
  if (it >= maxit) *reason = KSP_DIVERGED_ITS;
  return 0;
}

/* GAMG's level smoothers, unless given in PETSc's options: its default, Chebyshev, has a
   polynomial positive only above the estimated spectrum; on Hessians with barrier terms the
   estimate fell short and CG stopped on an indefinite preconditioner (two cubes on a plane,
   step 26), so scalar systems are smoothed by symmetric SOR sweeps, which keep the V-cycle
   symmetric positive definite. With the rigid-body modes, SOR meets zero pivots on coarse
   levels (aggregates of a few collinear vertices give zero coarse rows: 45K unknowns of a
   tet slab, step 1), so those systems get Chebyshev with Jacobi (zero diagonals count as 1)
   over [0.1, 1.5] x the estimated largest eigenvalue (PETSc's default 1.1 cost the ball
   dropped on a box of test_petsc 8 more Newton iterations in a step, 1.5 none).
   GAMG reads its levels' options when it sets them up: they go into the database for the
   set-up only (set_up_smoothers, then clear_smoothers) */
enum { NSMOOTHER_KEYS = 3 };
static const char *const smoother_keys[NSMOOTHER_KEYS] = {
    "-mg_levels_ksp_type", "-mg_levels_pc_type", "-mg_levels_ksp_chebyshev_esteig"};

static PetscErrorCode set_up_smoothers(ipc_petsc *s, int *ours) {
  static const char *const scalar[NSMOOTHER_KEYS] = {"richardson", "sor", NULL};
  static const char *const blocks[NSMOOTHER_KEYS] = {"chebyshev", "jacobi", "0,0.1,0,1.5"};
  for (int k = 0; k < NSMOOTHER_KEYS; ++k) {
    PetscBool set;
    ours[k] = 0;
    const char *value = s->bs == 3 ? blocks[k] : scalar[k];
    if (s->kind != IPCC_LINEAR_SOLVER_PETSC_CG_GAMG || !value) continue;
    PetscCall(PetscOptionsHasName(NULL, NULL, smoother_keys[k], &set));
    if (set) continue;
    PetscCall(PetscOptionsSetValue(NULL, smoother_keys[k], value));
    ours[k] = 1;
  }
  return 0;
}

static PetscErrorCode clear_smoothers(const int *ours) {
  for (int k = 0; k < NSMOOTHER_KEYS; ++k)
    if (ours[k]) PetscCall(PetscOptionsClearValue(NULL, smoother_keys[k]));
  return 0;
}

static PetscErrorCode configure(ipc_petsc *s) {
  PC pc;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &s->ksp));
  PetscCall(KSPGetPC(s->ksp, &pc));
  if (s->kind == IPCC_LINEAR_SOLVER_PETSC_MUMPS) {
    PetscCall(KSPSetType(s->ksp, KSPPREONLY));
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  } else if (s->kind == IPCC_LINEAR_SOLVER_PETSC_CG_GAMG) {
    PetscCall(KSPSetType(s->ksp, KSPCG));
    PetscCall(PCSetType(pc, PCGAMG));
  }
  PetscCall(KSPSetFromOptions(s->ksp));
  PetscBool preonly, chol, rtol, atol;
  PetscCall(PetscObjectTypeCompare((PetscObject)s->ksp, KSPPREONLY, &preonly));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  s->iterative = !preonly;
  s->sbaij = chol;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ksp_rtol", &rtol));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ksp_atol", &atol));
  if (s->iterative && !rtol && !atol) {
    /* the bound needs the true residual's norm */
    PetscCall(KSPSetNormType(s->ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPConvergedDefaultCreate(&s->default_test));
    PetscCall(KSPSetConvergenceTest(s->ksp, accuracy_test, s, NULL));
  }
  return 0;
}

ipc_petsc *ipc_petsc_create(ipcc_linear_solver_kind kind, ipcc_error *err) {
  if (kind != IPCC_LINEAR_SOLVER_PETSC_MUMPS && kind != IPCC_LINEAR_SOLVER_PETSC_CG_GAMG &&
      kind != IPCC_LINEAR_SOLVER_PETSC) {
    ipc_error_set(err, IPCC_ERR_INPUT, "newton.linear_solver: \"%s\" is not a PETSc solver",
                  ipc_linear_solver_kind_name(kind));
    return NULL;
  }
  if (petsc_start(err)) return NULL;
  PetscMPIInt ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  /* on several ranks MUMPS counts the negative pivots of the whole matrix (MatGetInertia,
     the "not positive definite" test) only when it factors the root front itself rather than
     with ScaLAPACK (ICNTL(13) = 1) */
  PetscBool icntl13 = PETSC_TRUE;
  if (ranks > 1 && PetscOptionsHasName(NULL, NULL, "-mat_mumps_icntl_13", &icntl13) == 0 &&
      !icntl13)
    PetscOptionsSetValue(NULL, "-mat_mumps_icntl_13", "1");
  ipc_petsc *s = IPC_NEW0(ipc_petsc, 1);
  s->kind = kind;
  if (configure(s) != 0) {
    ipc_error_set(err, IPCC_ERR_INPUT,
                  "newton.linear_solver \"%s\": PETSc rejected the solver's options (see its "
                  "messages above)",
                  ipc_linear_solver_kind_name(kind));
    ipc_petsc_destroy(s);
    return NULL;
  }
  return s;
}

void ipc_petsc_destroy(ipc_petsc *s) {
  if (!s) return;
  if (petsc_state > 0) {
    KSPDestroy(&s->ksp);
    MatDestroy(&s->A);
    VecDestroy(&s->b);
    VecDestroy(&s->x);
    VecScatterDestroy(&s->gather);
    VecDestroy(&s->xall);
    if (s->default_test) KSPConvergedDefaultDestroy(s->default_test);
  }
  ipc_free(s->rowptr);
  ipc_free(s->order);
  ipc_free(s->inv);
  ipc_free(s->pxyz);
  ipc_free(s->cols);
  ipc_free(s->vals);
  ipc_free(s->src);
  ipc_free(s->diag);
  ipc_free(s->xyz);
  ipc_free(s->lxyz);
  ipc_free(s->all_rowptr);
  ipc_free(s->all_cols);
  ipc_free(s->all_vals);
  ipc_free(s->all_src);
  ipc_free(s->all_diag);
  ipc_free(s->send_idx);
  ipc_free(s->send_val);
  ipc_free(s);
}

/* the first row of rank q of size (q = size: n) in the layout of own_rows */
static PetscInt first_row(long long n, int q, int size) {
  long long unit = n % 3 == 0 ? 3 : 1, units = n / unit;
  return (PetscInt)(unit * (units * q / size));
}

/* the rows this rank owns: an even share of whole vertices (of single unknowns when n is not
   a multiple of 3), in rank order, the same split on every rank */
static void own_rows(ipc_petsc *s, int n) {
  PetscMPIInt rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  s->rstart = first_row(n, rank, size);
  s->rend = first_row(n, rank + 1, size);
  s->n = n;
}

/* the rank owning row r of a matrix of n rows laid out by own_rows over size ranks: rank q
   owns the units [floor(U q / N), floor(U (q + 1) / N)) (first_row), so the unit b is rank
   ceil(N (b + 1) / U) - 1's */
static int row_rank(long long n, long long r, int size) {
  long long unit = n % 3 == 0 ? 3 : 1, units = n / unit, b = r / unit;
  long long q = (size * (b + 1) + units - 1) / units - 1;
  return (int)(q < 0 ? 0 : q >= size ? size - 1 : q);
}

int ipc_petsc_unknown_rank(const ipc_petsc *s, int n, int u) {
  PetscMPIInt size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size == 1 || n <= 0) return 0;
  /* the renumbering for n unknowns when there is one, else the caller's order */
  int r = s->order && s->layout_n == n ? s->inv[u] : u;
  return row_rank(n, r, size);
}

/* room for the rows' offsets (counted into rowptr[1..nl] by the caller, summed here) and
   their entries; exact sizes: a new pattern is rare next to the factorizations it serves */
static void alloc_rows(ipc_petsc *s, PetscInt nl) {
  for (PetscInt i = 0; i < nl; ++i) s->rowptr[i + 1] += s->rowptr[i];
  size_t m = (size_t)s->rowptr[nl];
  s->cols = ipc_realloc(s->cols, sizeof(PetscInt) * (m + 1));
  s->vals = ipc_realloc(s->vals, sizeof(PetscScalar) * (m + 1));
  s->src = ipc_realloc(s->src, sizeof(int) * (m + 1));
  /* next free slot of each row, in diag (reused as the cursor, then set to the diagonal) */
  for (PetscInt i = 0; i < nl; ++i) s->diag[i] = (int)s->rowptr[i];
}

/* the rank's rows of A (local row i is A's row rstart + i; columns are global) from the CSC's
   pattern: the upper triangle's rows (its transpose), and with both triangles, row i = CSC
   column i (rows <= i) followed by the upper row's entries past i */
static void build_rows(ipc_petsc *s, const ipc_csc *A) {
  int n = A->n;
  PetscInt r0 = s->rstart, r1 = s->rend, nl = r1 - r0;
  s->rowptr = ipc_realloc(s->rowptr, sizeof(PetscInt) * ((size_t)nl + 1));
  s->diag = ipc_realloc(s->diag, sizeof(int) * ((size_t)nl + 1));
  /* row lengths: upper entries per row (+ the lower ones, CSC column i minus its diagonal) */
  memset(s->rowptr, 0, sizeof(PetscInt) * ((size_t)nl + 1));
  for (int k = 0; k < A->nnz; ++k)
    if (A->rowind[k] >= r0 && A->rowind[k] < r1) ++s->rowptr[A->rowind[k] - r0 + 1];
  if (!s->sbaij)
    for (PetscInt j = r0; j < r1; ++j) s->rowptr[j - r0 + 1] += A->colptr[j + 1] - A->colptr[j] - 1;
  alloc_rows(s, nl);
  if (!s->sbaij)
    for (PetscInt j = r0; j < r1; ++j)
      for (int k = A->colptr[j]; k < A->colptr[j + 1] - 1; ++k) {
        int p = s->diag[j - r0]++;
        s->cols[p] = A->rowind[k];
        s->src[p] = k;
      }
  for (int j = 0; j < n; ++j)
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k) {
      if (A->rowind[k] < r0 || A->rowind[k] >= r1) continue;
      int p = s->diag[A->rowind[k] - r0]++;
      s->cols[p] = j;
      s->src[p] = k;
    }
  /* the diagonal: first of the upper part of each row */
  for (PetscInt i = 0; i < nl; ++i) {
    int p = (int)s->rowptr[i];
    while (s->cols[p] != r0 + i) ++p;
    s->diag[i] = p;
  }
}

/* b with its 21 bits spread to every third bit (a Morton code's share of one axis) */
static uint64_t spread3(uint64_t b) {
  b &= 0x1fffff;
  b = (b | b << 32) & 0x1f00000000ffffull;
  b = (b | b << 16) & 0x1f0000ff0000ffull;
  b = (b | b << 8) & 0x100f00f00f00f00full;
  b = (b | b << 4) & 0x10c30c30c30c30c3ull;
  b = (b | b << 2) & 0x1249249249249249ull;
  return b;
}

typedef struct curve_key {
  uint64_t code;
  int block;
} curve_key;

static int curve_cmp(const void *a, const void *b) {
  const curve_key *x = a, *y = b;
  if (x->code != y->code) return x->code < y->code ? -1 : 1;
  return (x->block > y->block) - (x->block < y->block);
}

/* order and inv for the layout points (lxyz) sorted by their Morton code in the cube around
   their bounding box (ties by number: the same order on every rank). A cube, not the box
   itself: scaled to a unit box, the two layers of vertices of the mat twist's 8 mm thick mat
   took the code's first bit, and each of 2 ranks got one layer, all of its vertices on the cut */
static void renumber(ipc_petsc *s, int n) {
  int nb = n / 3;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int b = 0; b < nb; ++b)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], s->lxyz[3 * (size_t)b + d]);
      hi[d] = fmax(hi[d], s->lxyz[3 * (size_t)b + d]);
    }
  double size = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
  curve_key *keys = IPC_NEW(curve_key, (size_t)nb + 1);
  for (int b = 0; b < nb; ++b) {
    uint64_t code = 0;
    for (int d = 0; d < 3; ++d) {
      double t = size > 0 ? (s->lxyz[3 * (size_t)b + d] - lo[d]) / size : 0;
      t = isfinite(t) ? fmin(fmax(t, 0), 1) : 0;
      code |= spread3((uint64_t)(t * 2097151.0)) << d;
    }
    keys[b] = (curve_key){code, b};
  }
  qsort(keys, (size_t)nb, sizeof *keys, curve_cmp);
  s->order = ipc_realloc(s->order, sizeof(int) * ((size_t)n + 1));
  s->inv = ipc_realloc(s->inv, sizeof(int) * ((size_t)n + 1));
  s->pxyz = ipc_realloc(s->pxyz, sizeof(double) * ((size_t)n + 1));
  for (int i = 0; i < nb; ++i)
    for (int c = 0; c < 3; ++c) {
      s->order[3 * i + c] = 3 * keys[i].block + c;
      s->inv[3 * keys[i].block + c] = 3 * i + c;
    }
  ipc_free(keys);
}

/* build_rows in the renumbered order (order, inv): each upper entry (r, c) of the CSC goes to
   rows inv[r] and inv[c] (those the rank owns; MATSBAIJ: to the lower of the two only, its
   upper triangle), then every row is sorted by column */
static void build_rows_renumbered(ipc_petsc *s, const ipc_csc *A) {
  int n = A->n;
  PetscInt r0 = s->rstart, r1 = s->rend, nl = r1 - r0;
  s->rowptr = ipc_realloc(s->rowptr, sizeof(PetscInt) * ((size_t)nl + 1));
  s->diag = ipc_realloc(s->diag, sizeof(int) * ((size_t)nl + 1));
  memset(s->rowptr, 0, sizeof(PetscInt) * ((size_t)nl + 1));
  int upper = s->sbaij;
  for (int j = 0; j < n; ++j)
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k) {
      int a = s->inv[A->rowind[k]], b = s->inv[j];
      if (upper && a > b) {
        int t = a;
        a = b;
        b = t;
      }
      if (a >= r0 && a < r1) ++s->rowptr[a - r0 + 1];
      if (!upper && a != b && b >= r0 && b < r1) ++s->rowptr[b - r0 + 1];
    }
  alloc_rows(s, nl);
  for (int j = 0; j < n; ++j)
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k) {
      int a = s->inv[A->rowind[k]], b = s->inv[j];
      if (upper && a > b) {
        int t = a;
        a = b;
        b = t;
      }
      if (a >= r0 && a < r1) {
        int p = s->diag[a - r0]++;
        s->cols[p] = b;
        s->src[p] = k;
      }
      if (!upper && a != b && b >= r0 && b < r1) {
        int p = s->diag[b - r0]++;
        s->cols[p] = a;
        s->src[p] = k;
      }
    }
  /* rows of a few dozen entries: insertion sort, then the diagonal's place */
  for (PetscInt i = 0; i < nl; ++i) {
    for (PetscInt p = s->rowptr[i] + 1; p < s->rowptr[i + 1]; ++p) {
      PetscInt col = s->cols[p];
      int src = s->src[p];
      PetscInt q = p;
      for (; q > s->rowptr[i] && s->cols[q - 1] > col; --q) {
        s->cols[q] = s->cols[q - 1];
        s->src[q] = s->src[q - 1];
      }
      s->cols[q] = col;
      s->src[q] = src;
    }
    PetscInt p = s->rowptr[i];
    while (s->cols[p] != r0 + i) ++p;
    s->diag[i] = (int)p;
  }
}

/* partial: every row of A laid out as its owner lays out its rows (build_rows or
   build_rows_renumbered over rows [0, n), which order each row's entries as they do over
   the owner's rows alone) into the all_ arrays */
static void build_all(ipc_petsc *s, const ipc_csc *A) {
  PetscInt r0 = s->rstart, r1 = s->rend, *rowptr = s->rowptr, *cols = s->cols;
  PetscScalar *vals = s->vals;
  int *src = s->src, *diag = s->diag;
  s->rstart = 0;
  s->rend = A->n;
  s->rowptr = s->all_rowptr;
  s->cols = s->all_cols;
  s->vals = s->all_vals;
  s->src = s->all_src;
  s->diag = s->all_diag;
  if (s->order)
    build_rows_renumbered(s, A);
  else
    build_rows(s, A);
  s->all_rowptr = s->rowptr;
  s->all_cols = s->cols;
  s->all_vals = s->vals;
  s->all_src = s->src;
  s->all_diag = s->diag;
  /* the owners' columns and a values array serve no one here (exchange_cut reads places) */
  ipc_free(s->all_cols);
  ipc_free(s->all_vals);
  s->all_cols = NULL;
  s->all_vals = NULL;
  s->rstart = r0;
  s->rend = r1;
  s->rowptr = rowptr;
  s->cols = cols;
  s->vals = vals;
  s->src = src;
  s->diag = diag;
  s->all_built = 1;
}

/* a matrix, vectors and operators for the pattern of A (the rows built), this rank's rows
   only */
static PetscErrorCode new_pattern(ipc_petsc *s) {
  PetscInt n = s->n;
  PetscCall(MatDestroy(&s->A));
  PetscCall(VecDestroy(&s->b));
  PetscCall(VecDestroy(&s->x));
  PetscCall(VecScatterDestroy(&s->gather));
  PetscCall(VecDestroy(&s->xall));
  PetscInt nl = s->rend - s->rstart;
  PetscCall(MatCreate(PETSC_COMM_WORLD, &s->A));
  PetscCall(MatSetSizes(s->A, nl, nl, n, n));
  if (s->bs > 1) PetscCall(MatSetBlockSize(s->A, s->bs));
  if (s->sbaij) {
    PetscCall(MatSetType(s->A, MATSBAIJ));
    PetscCall(MatSeqSBAIJSetPreallocationCSR(s->A, 1, s->rowptr, s->cols, NULL));
    PetscCall(MatMPISBAIJSetPreallocationCSR(s->A, 1, s->rowptr, s->cols, NULL));
  } else {
    PetscCall(MatSetType(s->A, MATAIJ));
    PetscCall(MatSeqAIJSetPreallocationCSR(s->A, s->rowptr, s->cols, NULL));
    PetscCall(MatMPIAIJSetPreallocationCSR(s->A, s->rowptr, s->cols, NULL));
  }
  PetscCall(MatSetOption(s->A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(MatCreateVecs(s->A, &s->x, &s->b));
  PetscMPIInt size = 1;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) PetscCall(VecScatterCreateToAll(s->x, &s->gather, &s->xall));
  s->st.block_size = s->bs;
  s->new_matrix = 1;
  return 0;
}

/* the six rigid-body modes at the coordinates as A's near-null space */
static PetscErrorCode set_rigid_body_modes(ipc_petsc *s) {
  Vec coords;
  MatNullSpace nsp;
  const double *xyz = s->xyz;
  if (s->order) {
    for (int i = 0; i < s->n; ++i) s->pxyz[i] = s->xyz[s->order[i]];
    xyz = s->pxyz;
  }
  PetscCall(VecCreateMPIWithArray(PETSC_COMM_WORLD, 3, s->rend - s->rstart, s->n, xyz + s->rstart,
                                  &coords));
  PetscCall(MatNullSpaceCreateRigidBody(coords, &nsp));
  PetscCall(MatSetNearNullSpace(s->A, nsp));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscCall(VecDestroy(&coords));
  return 0;
}

/* a new KSP for the same preset and options */
static PetscErrorCode renew_ksp(ipc_petsc *s) {
  PetscCall(KSPDestroy(&s->ksp));
  if (s->default_test) PetscCall(KSPConvergedDefaultDestroy(s->default_test));
  s->default_test = NULL;
  PetscCall(configure(s));
  /* with block size 3 a stalled solve (Chebyshev smoothers on two cubes landing, step 26)
     falls back to scalar after 500 iterations instead of PETSc's 10,000 */
  PetscBool maxit;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ksp_max_it", &maxit));
  if (s->bs == 3 && !maxit)
    PetscCall(KSPSetTolerances(s->ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  /* GAMG's coarsening and prolongators (two thirds of a set-up on the 1M-tet slab, in the
     Galerkin products' symbolic phase and the prolongator smoothing) are kept while the
     matrix and its pattern are: the coarse operators are recomputed from the new values, so
     the V-cycle stays a symmetric positive definite approximation of the new matrix, only a
     less tuned one */
  PetscBool reuse_given, gamg;
  PC pc;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-pc_gamg_reuse_interpolation", &reuse_given));
  PetscCall(KSPGetPC(s->ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCGAMG, &gamg));
  s->reuse = s->bs == 3 && gamg && !reuse_given;
  if (s->reuse) PetscCall(PCGAMGSetReuseInterpolation(pc, PETSC_TRUE));
  /* plain aggregation (the prolongators not smoothed): on the 1M-tet slab CG takes 33-46
     iterations instead of 14-19, but its set-ups cost a sixth (the Galerkin products with
     smoothed prolongators took 58% of the run's time): 10.7 instead of 14.4 s of CPU per Newton
     iteration (README, the million-tet slab) */
  PetscBool nsmooths_given;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-pc_gamg_agg_nsmooths", &nsmooths_given));
  if (s->bs == 3 && gamg && !nsmooths_given) PetscCall(PCGAMGSetNSmooths(pc, 0));
  return 0;
}

/* A + shift I's values into the matrix, then the factorization (preconditioner set-up) */
static PetscErrorCode set_up(ipc_petsc *s);

/* partial: this rank's rows (its own share) plus what the other ranks' shares put in them.
   A rank's share is nonzero only in the rows of the unknowns it marked (touched: those of the
   terms it computed, which are mostly its own): for each such row another rank owns it sends
   the row's nonzero values with their places in the owner's layout of its rows (the all_
   arrays), 12 bytes an entry, and adds what it receives to its own rows in rank order. So the
   ranks exchange the entries of the terms across the cut, not the matrix */
static PetscErrorCode exchange_cut(ipc_petsc *s, const ipc_csc *A) {
  PetscMPIInt size = 1;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  int n = s->n;
  for (PetscInt p = 0; p < s->rowptr[s->rend - s->rstart]; ++p) s->vals[p] = A->val[s->src[p]];
  int *cnt = IPC_NEW0(int, 4 * (size_t)size), *rcnt = cnt + size, *sdsp = rcnt + size,
      *rdsp = sdsp + size;
  /* the rows to send, counted, then filled at each destination's cursor */
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (int q = 0, at = 0; q < size; ++q) {
        sdsp[q] = at;
        at += cnt[q];
      }
      size_t total = (size_t)sdsp[size - 1] + (size_t)cnt[size - 1];
      s->send_idx = ipc_realloc(s->send_idx, sizeof(int) * (total + 1));
      s->send_val = ipc_realloc(s->send_val, sizeof(double) * (total + 1));
      memcpy(rdsp, sdsp, sizeof(int) * (size_t)size); /* the cursors */
    }
    for (int u = 0; u < n; ++u) {
      if (!s->touched[u]) continue;
      int r = s->order ? s->inv[u] : u;
      if (r >= s->rstart && r < s->rend) continue;
      int q = row_rank(n, r, size);
      PetscInt first = s->all_rowptr[first_row(n, q, size)];
      for (PetscInt p = s->all_rowptr[r]; p < s->all_rowptr[r + 1]; ++p) {
        double v = A->val[s->all_src[p]];
        if (v == 0) continue;
        if (pass == 0) {
          ++cnt[q];
          continue;
        }
        s->send_idx[rdsp[q]] = (int)(p - first);
        s->send_val[rdsp[q]++] = v;
      }
    }
  }
  PetscErrorCode e = 0;
  if (MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, PETSC_COMM_WORLD) != MPI_SUCCESS)
    e = PETSC_ERR_LIB;
  size_t sent = 0, got = 0;
  for (int q = 0; q < size; ++q) {
    rdsp[q] = (int)got;
    got += (size_t)rcnt[q];
    sent += (size_t)cnt[q];
  }
  int *ridx = IPC_NEW(int, got + 1);
  double *rval = IPC_NEW(double, got + 1);
  if (!e && (MPI_Alltoallv(s->send_idx, cnt, sdsp, MPI_INT, ridx, rcnt, rdsp, MPI_INT,
                           PETSC_COMM_WORLD) != MPI_SUCCESS ||
             MPI_Alltoallv(s->send_val, cnt, sdsp, MPIU_SCALAR, rval, rcnt, rdsp, MPIU_SCALAR,
                           PETSC_COMM_WORLD) != MPI_SUCCESS))
    e = PETSC_ERR_LIB;
  if (!e)
    for (size_t k = 0; k < got; ++k) s->vals[ridx[k]] += rval[k];
  ipc_mpi_count(IPC_WORK_ASM_SENT, sent);
  ipc_free(ridx);
  ipc_free(rval);
  ipc_free(cnt);
  return e;
}

static PetscErrorCode fill_and_set_up(ipc_petsc *s, const ipc_csc *A, double shift) {
  if (s->partial) {
    double cpu0 = ipc_mpi_cpu_now();
    PetscCall(exchange_cut(s, A));
    ipc_mpi_count_cpu(IPC_WORK_ASM_SENT, ipc_mpi_cpu_now() - cpu0);
    for (PetscInt i = 0; i < s->rend - s->rstart; ++i) s->vals[s->diag[i]] += shift;
    return set_up(s);
  }
  for (PetscInt i = 0; i < s->rend - s->rstart; ++i) {
    for (PetscInt p = s->rowptr[i]; p < s->rowptr[i + 1]; ++p) s->vals[p] = A->val[s->src[p]];
    s->vals[s->diag[i]] += shift;
  }
  return set_up(s);
}

/* the values in vals into the matrix, then the preconditioner's set-up */
static PetscErrorCode set_up(ipc_petsc *s) {
  double cpu0 = ipc_mpi_cpu_now();
  for (PetscInt i = 0; i < s->rend - s->rstart; ++i) {
    PetscInt row = s->rstart + i;
    PetscCall(MatSetValues(s->A, 1, &row, s->rowptr[i + 1] - s->rowptr[i], s->cols + s->rowptr[i],
                           s->vals + s->rowptr[i], INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(s->A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(s->A, MAT_FINAL_ASSEMBLY));
  ipc_mpi_count_cpu(IPC_WORK_ASM_SENT, ipc_mpi_cpu_now() - cpu0);
  if (s->bs == 3) PetscCall(set_rigid_body_modes(s));
  /* KSPSetUp does nothing after a set-up unless the operators were set again; with the same
     matrix and pattern the preconditioner keeps its symbolic part (a numeric factorization).
     GAMG coarsens afresh at every set-up unless it reuses its interpolation, and its levels'
     Chebyshev smoothers refuse a coarse matrix whose size changed (the mat twist, step 3;
     KSPReset did not help), and a KSP refuses a new matrix of another size (the mat twist,
     step 22, when its free unknowns change): the solver is rebuilt from nothing (its options
     read again) for every new matrix, and with block size 3 for every set-up without the
     reuse */
  if (s->new_matrix || (s->bs == 3 && !s->reuse)) PetscCall(renew_ksp(s));
  s->new_matrix = 0;
  PetscCall(KSPSetOperators(s->ksp, s->A, s->A));
  int ours[NSMOOTHER_KEYS];
  PetscCall(set_up_smoothers(s, ours));
  PetscErrorCode e = KSPSetUp(s->ksp);
  PetscCall(clear_smoothers(ours));
  PetscCall(e);
  return 0;
}

/* after a set-up: OK, NOT_PD (a zero pivot, or negative ones where the factor can count
   them) or FAILED */
static ipc_factor_status set_up_status(ipc_petsc *s) {
  PC pc;
  PCFailedReason why = PC_NOERROR;
  if (KSPGetPC(s->ksp, &pc) != 0 || PCGetFailedReason(pc, &why) != 0) return IPC_FACTOR_FAILED;
  if (why == PC_FACTOR_NUMERIC_ZEROPIVOT || why == PC_FACTOR_STRUCT_ZEROPIVOT)
    return IPC_FACTOR_NOT_PD;
  if (why != PC_NOERROR) return IPC_FACTOR_FAILED;
  if (!s->sbaij) return IPC_FACTOR_OK;
  Mat F;
  PetscBool has = PETSC_FALSE;
  PetscInt neg = 0;
  if (PCFactorGetMatrix(pc, &F) != 0 || MatHasOperation(F, MATOP_GET_INERTIA, &has) != 0)
    return IPC_FACTOR_FAILED;
  if (has && MatGetInertia(F, &neg, NULL, NULL) != 0) return IPC_FACTOR_FAILED;
  return neg > 0 ? IPC_FACTOR_NOT_PD : IPC_FACTOR_OK;
}

/* MUMPS out of workspace (INFOG(1) = -8 or -9, PETSc's PC_FACTOR_OUTMEMORY): its numeric
   factorization needed more than the analysis's estimate plus ICNTL(14) percent, which
   delayed pivots of LDL^T can (the mat twist on 2 ranks, step 37, with the rows along the
   Morton curve: 3,988 delayed pivots). PETSc does not factor again after a failed numeric
   factorization until a new analysis, so the solver is renewed with ICNTL(14) doubled in
   PETSc's options (kept for the rest of the run), up to 4 times (MUMPS's 20% to 320%); other
   failures unchanged */
static ipc_factor_status more_workspace(ipc_petsc *s) {
  ipc_factor_status fs = IPC_FACTOR_FAILED;
  for (int k = 0; k < 4 && fs == IPC_FACTOR_FAILED; ++k) {
    PC pc;
    Mat F;
    PCFailedReason why = PC_NOERROR;
    PetscInt pct = 0;
    if (s->kind != IPCC_LINEAR_SOLVER_PETSC_MUMPS || KSPGetPC(s->ksp, &pc) != 0 ||
        PCGetFailedReason(pc, &why) != 0 || why != PC_FACTOR_OUTMEMORY ||
        PCFactorGetMatrix(pc, &F) != 0 || MatMumpsGetIcntl(F, 14, &pct) != 0)
      return fs;
    char value[32];
    snprintf(value, sizeof value, "%d", 2 * (pct > 0 ? (int)pct : 20));
    if (PetscOptionsSetValue(NULL, "-mat_mumps_icntl_14", value) != 0 || renew_ksp(s) != 0)
      return fs;
    ++s->st.workspace_retries;
    fs = set_up(s) != 0 ? IPC_FACTOR_FAILED : set_up_status(s);
  }
  return fs;
}

/* block size 3 with the rigid-body modes failed (a set-up error, an indefinite
   preconditioner, a stalled solve: the mat twist's Chebyshev smoothers): the solver goes
   scalar, as without coordinates, for good, and sets up again with the same values */
static ipc_factor_status scalar_fallback(ipc_petsc *s) {
  s->scalar_only = 1;
  s->bs = 1;
  ++s->st.scalar_fallbacks;
  if (renew_ksp(s) != 0 || new_pattern(s) != 0 || set_up(s) != 0) {
    MatDestroy(&s->A);
    return IPC_FACTOR_FAILED;
  }
  return set_up_status(s);
}

ipc_factor_status ipc_petsc_factor(ipc_petsc *s, const ipc_csc *A, bool pattern_changed,
                                   double shift) {
  s->valid = 0;
  ++s->st.factorizations;
  if (A->n == 0) {
    s->n = 0;
    s->valid = 1;
    return IPC_FACTOR_OK;
  }
  /* block size 3 for an iterative solver over vertex triples with known coordinates (a
     Cholesky factor's MATSBAIJ stays scalar); a change of it rebuilds the matrix */
  int bs = s->iterative && !s->sbaij && !s->scalar_only && s->nblocks > 0 && 3 * s->nblocks == A->n
               ? 3
               : 1;
  if (!s->A || pattern_changed || s->n != A->n || s->bs != bs) {
    double t0 = ipc_now();
    s->bs = bs;
    /* on several ranks, a matrix with layout points is renumbered along a space-filling
       curve (one rank: the caller's order, as before) */
    PetscMPIInt ranks = 1;
    MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
    ipc_free(s->order);
    s->order = NULL;
    s->layout_n = 0;
    own_rows(s, A->n);
    if (ranks > 1 && s->nlayout > 0 && 3 * s->nlayout == A->n) {
      renumber(s, A->n);
      s->layout_n = A->n;
      build_rows_renumbered(s, A);
    } else {
      build_rows(s, A);
    }
    s->all_built = 0;
    PetscErrorCode e = new_pattern(s);
    s->st.analyze_seconds += ipc_now() - t0;
    if (e != 0) {
      MatDestroy(&s->A);
      return IPC_FACTOR_FAILED;
    }
    ++s->st.analyses;
  }
  if (s->partial && !s->all_built) build_all(s, A);
  double t0 = ipc_now();
  PetscErrorCode e = fill_and_set_up(s, A, shift);
  ipc_factor_status fs = e != 0 ? IPC_FACTOR_FAILED : set_up_status(s);
  if (e == 0 && fs == IPC_FACTOR_FAILED) fs = more_workspace(s);
  if (fs != IPC_FACTOR_OK && s->bs == 3) fs = scalar_fallback(s);
  s->st.factor_seconds += ipc_now() - t0;
  if (fs == IPC_FACTOR_NOT_PD) ++s->st.not_pd;
  s->valid = fs == IPC_FACTOR_OK;
  return fs;
}

/* the solve; b.x and b.b into *bx, *bb (b and x may alias) */
static PetscErrorCode run_solve(ipc_petsc *s, const double *b, double *x,
                                KSPConvergedReason *reason, PetscInt *its, double *bx, double *bb) {
  PetscScalar *v;
  PetscCall(VecGetArrayWrite(s->b, &v));
  if (s->order)
    for (PetscInt i = s->rstart; i < s->rend; ++i) v[i - s->rstart] = b[s->order[i]];
  else
    memcpy(v, b + s->rstart, sizeof(double) * (size_t)(s->rend - s->rstart));
  PetscCall(VecRestoreArrayWrite(s->b, &v));
  PetscCall(KSPSolve(s->ksp, s->b, s->x));
  PetscCall(KSPGetConvergedReason(s->ksp, reason));
  PetscCall(KSPGetIterationNumber(s->ksp, its));
  PetscCall(VecDot(s->b, s->x, bx));
  PetscCall(VecDot(s->b, s->b, bb));
  /* every rank gets the whole solution, the same bytes */
  Vec all = s->x;
  if (s->gather) {
    PetscCall(VecScatterBegin(s->gather, s->x, s->xall, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(s->gather, s->x, s->xall, INSERT_VALUES, SCATTER_FORWARD));
    all = s->xall;
  }
  const PetscScalar *r;
  PetscCall(VecGetArrayRead(all, &r));
  if (s->order)
    for (int i = 0; i < s->n; ++i) x[s->order[i]] = r[i];
  else
    memcpy(x, r, sizeof(double) * (size_t)s->n);
  PetscCall(VecRestoreArrayRead(all, &r));
  return 0;
}

ipc_factor_status ipc_petsc_solve(ipc_petsc *s, const double *b, double *x) {
  if (!s->valid) return IPC_FACTOR_FAILED;
  if (s->n == 0) return IPC_FACTOR_OK;
  double t0 = ipc_now();
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscInt its = 0;
  double bx = 0, bb = 0;
  PetscErrorCode e = run_solve(s, b, x, &reason, &its, &bx, &bb);
  s->st.iterations += its;
  if (s->bs == 3 && (e != 0 || (reason <= 0 && reason != KSP_DIVERGED_INDEFINITE_MAT))) {
    if (scalar_fallback(s) != IPC_FACTOR_OK) {
      s->valid = 0;
      s->st.solve_seconds += ipc_now() - t0;
      return IPC_FACTOR_FAILED;
    }
    its = 0;
    e = run_solve(s, b, x, &reason, &its, &bx, &bb);
    s->st.iterations += its;
  }
  s->st.solve_seconds += ipc_now() - t0;
  ++s->st.solves;
  if (e != 0) return IPC_FACTOR_FAILED;
  /* CG stops on an indefinite matrix only when its curvature changes sign between two
     iterations (a preconditioner that inverts A keeps the signs consistent), so an answer
     with b.x = x.Ax <= 0 certifies too that A is not positive definite: for Newton, x would
     not be a descent direction */
  /* (a solve that stops before its first iteration answers x = 0, which the accuracy test
     certified: the exact answer is within the accuracy of 0, as after a Newton step that
     solved a quadratic model exactly; that is no evidence of indefiniteness) */
  if (reason == KSP_DIVERGED_INDEFINITE_MAT || reason == KSP_DIVERGED_INDEFINITE_PC ||
      (s->iterative && reason > 0 && its > 0 && bb > 0 && !(bx > 0))) {
    ++s->st.not_pd;
    s->valid = 0;
    return IPC_FACTOR_NOT_PD;
  }
  return reason > 0 ? IPC_FACTOR_OK : IPC_FACTOR_FAILED;
}

int ipc_petsc_iterative(const ipc_petsc *s) {
  return s->iterative;
}

void ipc_petsc_set_accuracy(ipc_petsc *s, const ipc_solve_accuracy *acc) {
  s->acc = *acc;
}

void ipc_petsc_set_coordinates(ipc_petsc *s, int nblocks, const double *xyz) {
  s->nblocks = xyz && nblocks > 0 ? nblocks : 0;
  if (!s->nblocks) return;
  ipc_reserve((void **)&s->xyz, &s->cap_xyz, 3 * (size_t)nblocks, sizeof(double));
  memcpy(s->xyz, xyz, 3 * (size_t)nblocks * sizeof(double));
}

void ipc_petsc_set_layout_points(ipc_petsc *s, int nblocks, const double *xyz) {
  s->nlayout = xyz && nblocks > 0 ? nblocks : 0;
  if (!s->nlayout) return;
  ipc_reserve((void **)&s->lxyz, &s->cap_lxyz, 3 * (size_t)nblocks, sizeof(double));
  memcpy(s->lxyz, xyz, 3 * (size_t)nblocks * sizeof(double));
  /* on several ranks, before the first factor of this size: the renumbering the factor will
     make (from the same points), so ipc_petsc_unknown_rank has the rows' layout for the
     assembly that comes first. Never while a matrix of this size is laid out otherwise (its
     solves map vectors through order) */
  PetscMPIInt ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  if (ranks > 1 && s->layout_n != 3 * nblocks && !(s->A && s->n == 3 * nblocks)) {
    renumber(s, 3 * nblocks); /* reallocates order, inv and pxyz to the new size */
    s->layout_n = 3 * nblocks;
  }
}

void ipc_petsc_get_stats(const ipc_petsc *s, ipc_linear_solver_stats *stats) {
  *stats = s->st;
}

void ipc_petsc_set_partial(ipc_petsc *s, int on, const unsigned char *touched) {
  s->partial = on != 0 && touched != NULL;
  s->touched = touched;
}
