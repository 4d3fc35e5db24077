/* tests for src/linalg/cholmod_solver.c: SPD systems from the assembler against a dense
 * Cholesky, reuse of the symbolic analysis, shifts, non-PD input reported quietly */
#include "linalg/cholmod_solver.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linalg/sparse.h"
#include "test.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static double rnd_unit(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static int rnd_int(int n) {
  return (int)((rnd_unit() + 1.0) * 0.5 * n) % n;
}

/* H = B B^T with B random n x n: symmetric positive semi-definite */
static void rnd_psd(int n, double *H) {
  double B[144];
  for (int i = 0; i < n * n; ++i) B[i] = rnd_unit();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) s += B[i * n + k] * B[j * n + k];
      H[i * n + j] = s;
    }
}

/* in-place dense Cholesky of the n x n SPD matrix a (lower factor); false if not PD */
static bool dense_chol(int n, double *a) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0.0)) return false;
    d = sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return true;
}

/* x = (L L^T)^-1 b */
static void dense_solve(int n, const double *l, const double *b, double *x) {
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= l[i * n + k] * x[k];
    x[i] = s / l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (int k = i + 1; k < n; ++k) s -= l[k * n + i] * x[k];
    x[i] = s / l[i * n + i];
  }
}

/* dense copy of the symmetric matrix whose upper triangle A holds, plus shift I */
static double *to_dense(const ipc_csc *A, double shift) {
  int n = A->n;
  double *d = calloc((size_t)n * (size_t)n + 1, sizeof(double));
  for (int j = 0; j < n; ++j)
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k)
      d[A->rowind[k] * n + j] = d[j * n + A->rowind[k]] = A->val[k];
  for (int i = 0; i < n; ++i) d[i * n + i] += shift;
  return d;
}

enum { NV = 60, NTET = 90, NCON = 40 };
static int tets[NTET * 4], cons[NCON * 4];

static void make_mesh(void) {
  for (int e = 0; e < NTET * 4; e += 4)
    for (int a = 0; a < 4; ++a) {
      bool again;
      do {
        tets[e + a] = rnd_int(NV);
        again = false;
        for (int b = 0; b < a; ++b) again |= tets[e + b] == tets[e + a];
      } while (again);
    }
  for (int i = 0; i < NCON * 4; ++i) cons[i] = rnd_int(NV);
}

/* an SPD assembly: PSD tets and contacts plus a positive diagonal (scaled by dscale,
 * which may be made negative to break definiteness) */
static bool assemble(ipc_sparse *s, int set, int ncon, double dscale, ipc_csc *A) {
  double H[144], d[3 * NV];
  ipc_sparse_begin(s);
  for (int e = 0; e < NTET; ++e) {
    rnd_psd(12, H);
    ipc_sparse_add_element(s, set, e, H);
  }
  for (int c = 0; c < ncon; ++c) {
    rnd_psd(12, H);
    ipc_sparse_add(s, 4, cons + 4 * c, H);
  }
  for (int i = 0; i < 3 * NV; ++i) d[i] = dscale * (0.5 + 0.5 * rnd_unit() + 0.1);
  ipc_sparse_add_diagonal(s, d);
  return ipc_sparse_finish(s, A);
}

/* solves with the current factor and checks against the dense solution of A + shift I */
static void check_solve(ipc_cholmod *ch, const ipc_csc *A, double shift) {
  int n = A->n;
  double *D = to_dense(A, shift);
  double *b = calloc((size_t)n + 1, sizeof(double)), *x = calloc((size_t)n + 1, sizeof(double));
  double *xr = calloc((size_t)n + 1, sizeof(double)), *y = calloc((size_t)n + 1, sizeof(double));
  for (int i = 0; i < n; ++i) b[i] = rnd_unit();
  CHECK(ipc_cholmod_solve(ch, b, x) == IPC_FACTOR_OK);
  CHECK(dense_chol(n, D));
  dense_solve(n, D, b, xr);
  double err = 0.0, scale = 0.0;
  for (int i = 0; i < n; ++i) {
    err = fmax(err, fabs(x[i] - xr[i]));
    scale = fmax(scale, fabs(xr[i]));
  }
  CHECK_MSG(err <= 1e-9 * scale, "solution error %g (scale %g)", err, scale);
  /* the residual through the sparse product */
  ipc_csc_mul(A, x, y);
  double res = 0.0, bn = 0.0;
  for (int i = 0; i < n; ++i) {
    res = fmax(res, fabs(y[i] + shift * x[i] - b[i]));
    bn = fmax(bn, fabs(b[i]));
  }
  CHECK_MSG(res <= 1e-9 * bn, "residual %g", res);
  /* aliasing b and x */
  memcpy(y, b, sizeof(double) * (size_t)n);
  CHECK(ipc_cholmod_solve(ch, y, y) == IPC_FACTOR_OK);
  for (int i = 0; i < n; ++i) CHECK(y[i] == x[i]);
  free(D);
  free(b);
  free(x);
  free(xr);
  free(y);
}

static void test_solve_and_reuse(void) {
  ipc_sparse *s = ipc_sparse_create(NV);
  int set = ipc_sparse_add_element_set(s, NTET, 4, tets);
  unsigned char fixed[3 * NV] = {0};
  for (int i = 0; i < 3 * NV; i += 7) fixed[i] = 1;
  fixed[3] = fixed[4] = fixed[5] = 1;
  ipc_sparse_set_mask(s, fixed);
  ipc_cholmod *ch = ipc_cholmod_create();
  CHECK(ch != NULL);
  ipc_cholmod_stats st;
  ipc_csc A;

  /* before any factor, solving fails cleanly */
  double b0[3 * NV] = {0};
  CHECK(ipc_cholmod_solve(ch, b0, b0) == IPC_FACTOR_FAILED);

  bool changed = assemble(s, set, 10, 1.0, &A);
  CHECK(changed);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  check_solve(ch, &A, 0.0);

  /* many factorizations with new values and the same pattern: one analysis */
  for (int it = 0; it < 20; ++it) {
    changed = assemble(s, set, 10, 1.0 + it, &A);
    CHECK(!changed);
    CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
    if (it % 5 == 0) check_solve(ch, &A, 0.0);
  }
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 1);
  CHECK(st.factorizations == 21);
  CHECK(st.factor_nnz >= A.nnz);
  CHECK(strcmp(st.ordering, "none") != 0 && strcmp(st.ordering, "unknown") != 0);

  /* a pattern change triggers exactly one new analysis */
  changed = assemble(s, set, NCON, 1.0, &A);
  CHECK(changed);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  check_solve(ch, &A, 0.0);
  changed = assemble(s, set, NCON, 1.0, &A);
  CHECK(!changed);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  check_solve(ch, &A, 0.0);
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 2);

  /* a shift */
  CHECK(ipc_cholmod_factor(ch, &A, false, 2.5) == IPC_FACTOR_OK);
  check_solve(ch, &A, 2.5);
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 2 && st.solves > 10 && st.not_pd == 0);

  ipc_cholmod_destroy(ch);
  ipc_sparse_destroy(s);
}

/* runs fn with stdout redirected to a temporary file; returns the bytes it printed */
static long stdout_bytes(void (*fn)(void)) {
  fflush(stdout);
  FILE *tmp = tmpfile();
  int saved = dup(STDOUT_FILENO);
  dup2(fileno(tmp), STDOUT_FILENO);
  fn();
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  fseek(tmp, 0, SEEK_END);
  long bytes = ftell(tmp);
  fclose(tmp);
  return bytes;
}

static void not_pd_body(void) {
  ipc_sparse *s = ipc_sparse_create(NV);
  int set = ipc_sparse_add_element_set(s, NTET, 4, tets);
  ipc_cholmod *ch = ipc_cholmod_create();
  ipc_csc A;
  ipc_cholmod_stats st;

  /* a large negative diagonal: indefinite */
  bool changed = assemble(s, set, 5, -1e3, &A);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_NOT_PD);
  double b[3 * NV];
  for (int i = 0; i < 3 * NV; ++i) b[i] = 1.0;
  CHECK(ipc_cholmod_solve(ch, b, b) == IPC_FACTOR_FAILED);
  for (int i = 0; i < 3 * NV; ++i) CHECK(b[i] == 1.0);

  /* one negative entry deep in the ordering: still caught */
  ipc_sparse_begin(s);
  double H[144] = {0}, d[3 * NV];
  for (int e = 0; e < NTET; ++e) ipc_sparse_add_element(s, set, e, H);
  for (int c = 0; c < 5; ++c) ipc_sparse_add(s, 4, cons + 4 * c, H);
  for (int i = 0; i < 3 * NV; ++i) d[i] = i == 100 ? -1e-3 : 1.0;
  ipc_sparse_add_diagonal(s, d);
  changed = ipc_sparse_finish(s, &A);
  CHECK(!changed);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_NOT_PD);
  /* ... and a shift makes it definite again */
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.01) == IPC_FACTOR_OK);

  /* the same analysis recovers with a definite matrix */
  changed = assemble(s, set, 5, 1.0, &A);
  CHECK(!changed);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  check_solve(ch, &A, 0.0);
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 1 && st.not_pd == 2 && st.factorizations == 4);
  ipc_cholmod_destroy(ch);
  ipc_sparse_destroy(s);
}

static void test_not_pd(void) {
  long printed = stdout_bytes(not_pd_body);
  CHECK_MSG(printed == 0, "CHOLMOD printed %ld bytes", printed);
}

/* every DOF fixed: the empty system factors and solves trivially */
static void test_empty(void) {
  ipc_sparse *s = ipc_sparse_create(2);
  unsigned char fixed[6] = {1, 1, 1, 1, 1, 1};
  ipc_sparse_set_mask(s, fixed);
  ipc_csc A;
  ipc_sparse_begin(s);
  bool changed = ipc_sparse_finish(s, &A);
  ipc_cholmod *ch = ipc_cholmod_create();
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  double b[1] = {0.0};
  CHECK(ipc_cholmod_solve(ch, b, b) == IPC_FACTOR_OK);
  ipc_cholmod_destroy(ch);
  ipc_sparse_destroy(s);
}

/* a kept ordering: new patterns of the same size are analysed with it (and solved right),
   unless it fills much worse; keep_ordering again makes the next analysis choose afresh
   even for an unchanged pattern whose analysis used a kept ordering */
static void test_kept_ordering(void) {
  ipc_sparse *s = ipc_sparse_create(NV);
  int set = ipc_sparse_add_element_set(s, NTET, 4, tets);
  ipc_cholmod *ch = ipc_cholmod_create();
  ipc_cholmod_stats st;
  ipc_csc A;
  ipc_cholmod_keep_ordering(ch, true);
  bool changed = assemble(s, set, 2, 1.0, &A);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  check_solve(ch, &A, 0.0);
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 1 && st.kept_orderings == 0);
  /* the exact policy drops the contacts not added again: each count is a new pattern */
  ipc_sparse_set_policy(s, IPC_SPARSE_EXACT);
  int kept = 0;
  for (int ncon = 3; ncon <= 6; ++ncon) {
    changed = assemble(s, set, ncon, 1.0, &A);
    CHECK(changed);
    CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
    check_solve(ch, &A, 0.0);
  }
  ipc_cholmod_get_stats(ch, &st);
  kept = st.kept_orderings;
  CHECK_MSG(st.analyses == 5, "analyses %d", st.analyses);
  /* a few contacts on 90 tets fill about as well with the first ordering */
  CHECK_MSG(kept >= 1, "kept orderings %d of 4", kept);
  /* an unchanged pattern after keep_ordering: analysed afresh when the last one was kept */
  ipc_cholmod_keep_ordering(ch, true);
  changed = assemble(s, set, 6, 2.0, &A);
  CHECK(!changed);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  check_solve(ch, &A, 0.0);
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 6 && st.kept_orderings == kept);
  /* and that fresh analysis is not redone while nothing changes */
  changed = assemble(s, set, 6, 3.0, &A);
  CHECK(ipc_cholmod_factor(ch, &A, changed, 0.0) == IPC_FACTOR_OK);
  ipc_cholmod_get_stats(ch, &st);
  CHECK(st.analyses == 6);
  ipc_cholmod_destroy(ch);
  ipc_sparse_destroy(s);
}

int main(void) {
  make_mesh();
  test_solve_and_reuse();
  test_kept_ordering();
  test_not_pd();
  test_empty();
  TEST_MAIN_END();
}
