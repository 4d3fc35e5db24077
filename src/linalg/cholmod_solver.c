/* CHOLMOD wrapper (Chen, Davis, Hager, Rajamanickam 2008, "Algorithm 887: CHOLMOD").
 * The assembler's upper-triangular CSC is handed to CHOLMOD without a copy (stype = +1 is
 * CHOLMOD's cheapest input for a permuted supernodal factorization: one transpose).
 * Solves use cholmod_solve2 with persistent workspace, so nothing is allocated per solve
 * once warm. */
#include "linalg/cholmod_solver.h"

#include <cblas.h>
#include <cholmod.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"

struct ipc_cholmod {
  cholmod_common c;
  cholmod_factor *L;        /* NULL before the first analysis */
  bool valid;               /* L holds a successful numeric factorization */
  int n;                    /* size of the analysed system */
  cholmod_dense *X, *Y, *E; /* solve2 output and workspace */
  bool keep;                /* analyses of a new pattern reuse the kept ordering */
  int *perm;                /* (n) the kept fill-reducing ordering, NULL when none */
  double perm_fl;           /* flops of a factorization when that ordering was chosen */
  bool L_kept;              /* L's analysis used the kept ordering */
  bool reanalyze;           /* the next factorization analyses even an unchanged pattern */
  ipc_cholmod_stats st;
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* a CHOLMOD header over A's arrays; CHOLMOD only reads them */
static cholmod_sparse wrap(const ipc_csc *A) {
  cholmod_sparse M;
  memset(&M, 0, sizeof M);
  M.nrow = M.ncol = (size_t)A->n;
  M.nzmax = (size_t)A->nnz;
  M.p = (void *)A->colptr;
  M.i = (void *)A->rowind;
  M.x = (void *)A->val;
  M.stype = 1;
  M.itype = CHOLMOD_INT;
  M.xtype = CHOLMOD_REAL;
  M.dtype = CHOLMOD_DOUBLE;
  M.sorted = 1;
  M.packed = 1;
  return M;
}

static const char *ordering_name(int ord) {
  switch (ord) {
    case CHOLMOD_NATURAL:
      return "natural";
    case CHOLMOD_GIVEN:
      return "given";
    case CHOLMOD_AMD:
      return "amd";
    case CHOLMOD_METIS:
      return "metis";
    case CHOLMOD_NESDIS:
      return "nesdis";
    case CHOLMOD_COLAMD:
      return "colamd";
    case CHOLMOD_POSTORDERED:
      return "postordered";
    default:
      return "unknown";
  }
}

ipc_cholmod *ipc_cholmod_create(void) {
  ipc_cholmod *s = IPC_NEW0(ipc_cholmod, 1);
  if (!cholmod_start(&s->c)) {
    ipc_free(s);
    return NULL;
  }
  s->c.print = 0; /* no messages, errors come back as status */
  s->c.error_handler = NULL;
  s->c.supernodal = CHOLMOD_SUPERNODAL;
  /* coarser supernodes than CHOLMOD's default (4, 16, 48): a few more explicit zeros in L,
     but longer dense kernels; on the mat40x40 Hessian (nnz(L) 0.91M) one factorization
     drops from 46 to 31 ms, on mat100x100 (nnz(L) 9.0M) from 427 to 322 ms; 64 and up is
     slower again (tests/bench and scratch measurements in the README) */
  s->c.nrelax[0] = 32;
  s->c.nrelax[1] = 128;
  s->c.nrelax[2] = 256;
  s->c.final_asis = 1;
  s->c.quick_return_if_not_posdef = 1;
  s->st.ordering = "none";
  return s;
}

void ipc_cholmod_destroy(ipc_cholmod *s) {
  if (!s) return;
  cholmod_free_factor(&s->L, &s->c);
  ipc_free(s->perm);
  cholmod_free_dense(&s->X, &s->c);
  cholmod_free_dense(&s->Y, &s->c);
  cholmod_free_dense(&s->E, &s->c);
  cholmod_finish(&s->c);
  ipc_free(s);
}

/* a kept ordering is given up for a fresh one when its factorization of a new pattern would
   take this many times the flops it took on the pattern it was chosen for */
#define KEPT_ORDERING_FILL 1.1

void ipc_cholmod_keep_ordering(ipc_cholmod *s, bool keep) {
  s->keep = keep;
  ipc_free(s->perm);
  s->perm = NULL;
  /* an analysis with an ordering kept from before must not outlive this call: the next
     analysis is to depend on what comes after it only */
  s->reanalyze = s->L_kept;
}

ipc_factor_status ipc_cholmod_factor(ipc_cholmod *s, const ipc_csc *A, bool pattern_changed,
                                     double shift) {
  s->valid = false;
  ++s->st.factorizations;
  if (A->n == 0) { /* nothing free: the empty factor */
    cholmod_free_factor(&s->L, &s->c);
    s->n = 0;
    s->valid = true;
    return IPC_FACTOR_OK;
  }
  cholmod_sparse M = wrap(A);
  if (!s->L || pattern_changed || s->n != A->n || s->reanalyze) {
    double t0 = now();
    cholmod_free_factor(&s->L, &s->c);
    s->reanalyze = s->L_kept = false;
    if (s->keep && s->perm && s->n == A->n) {
      /* the ordering of the step's first analysis, unless the new pattern fills more */
      int nmethods = s->c.nmethods, ordering = s->c.method[0].ordering;
      s->c.nmethods = 1;
      s->c.method[0].ordering = CHOLMOD_GIVEN;
      s->L = cholmod_analyze_p(&M, s->perm, NULL, 0, &s->c);
      s->c.nmethods = nmethods;
      s->c.method[0].ordering = ordering;
      if (s->L && s->c.fl > KEPT_ORDERING_FILL * s->perm_fl) cholmod_free_factor(&s->L, &s->c);
      if (s->L) ++s->st.kept_orderings, s->L_kept = true;
    }
    if (!s->L) {
      s->L = cholmod_analyze(&M, &s->c);
      if (s->L && s->keep) {
        s->perm = ipc_realloc(s->perm, sizeof(int) * (size_t)A->n);
        memcpy(s->perm, s->L->Perm, sizeof(int) * (size_t)A->n);
        s->perm_fl = s->c.fl;
      }
    }
    s->st.analyze_seconds += now() - t0;
    if (!s->L) return IPC_FACTOR_FAILED;
    s->n = A->n;
    ++s->st.analyses;
    s->st.factor_nnz = s->c.lnz;
    s->st.factor_flops = s->c.fl;
    s->st.ordering = ordering_name(s->L->ordering);
  }
  /* the dense kernels run on one OpenBLAS thread unless OPENBLAS_NUM_THREADS says
     otherwise: threaded kernels round differently (frames would depend on the thread
     count), and a second thread woken for every small supernode costs more in futex and
     sched_yield calls than it saves on the mat40x40 Hessian (10 twist steps: 0.6 s system
     time with one thread, 2.8 s with two, on a loaded machine) */
  if (!getenv("OPENBLAS_NUM_THREADS") && openblas_get_num_threads() != 1)
    openblas_set_num_threads(1);
  double beta[2] = {shift, 0.0};
  double t0 = now();
  /* CHOLMOD 3's supernodal numeric factorization opens OpenMP regions with a fixed
     num_threads(4) that omp_set_num_threads cannot lower: on 2 cores that is 3 extra threads
     woken by futex for every large supernode (150,000 futex calls in 10 mat-twist steps).
     With no active level allowed, those regions run on the calling thread. */
  int levels = omp_get_max_active_levels();
  omp_set_max_active_levels(0);
  int ok = cholmod_factorize_p(&M, beta, NULL, 0, s->L, &s->c);
  omp_set_max_active_levels(levels);
  s->st.factor_seconds += now() - t0;
  if (s->c.status == CHOLMOD_NOT_POSDEF || (ok && s->L->minor < s->L->n)) {
    ++s->st.not_pd;
    return IPC_FACTOR_NOT_PD;
  }
  if (!ok || s->c.status < CHOLMOD_OK) return IPC_FACTOR_FAILED;
  s->valid = true;
  return IPC_FACTOR_OK;
}

ipc_factor_status ipc_cholmod_solve(ipc_cholmod *s, const double *b, double *x) {
  if (!s->valid) return IPC_FACTOR_FAILED;
  if (s->n == 0) return IPC_FACTOR_OK;
  double t0 = now();
  cholmod_dense B;
  memset(&B, 0, sizeof B);
  B.nrow = B.d = B.nzmax = (size_t)s->n;
  B.ncol = 1;
  B.x = (void *)b;
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  if (!cholmod_solve2(CHOLMOD_A, s->L, &B, NULL, &s->X, NULL, &s->Y, &s->E, &s->c))
    return IPC_FACTOR_FAILED;
  memcpy(x, s->X->x, sizeof(double) * (size_t)s->n);
  ++s->st.solves;
  s->st.solve_seconds += now() - t0;
  return IPC_FACTOR_OK;
}

void ipc_cholmod_get_stats(const ipc_cholmod *s, ipc_cholmod_stats *stats) {
  *stats = s->st;
}
