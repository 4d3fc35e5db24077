/* benchmark: Hessian assembly and CHOLMOD on a tet grid (~10K vertices, ~50K tets)
 *
 * usage: bench_assembly [NX NY NZ] (vertices per axis, default 40 40 6, a mat: 9600 vertices,
 * 45630 tets). Local Hessians are random 12x12 SPD matrices from a small pool, so they are
 * cache-hot as they are when an integrator adds each one right after computing it.
 * Reports milliseconds per call:
 *   (a)  assembly with the fixed pattern (tets + lumped mass)
 *   (a') the same plus contacts whose set does not change (lookup path)
 *   (b)  assembly when part of the contact set is replaced (pattern rebuild in finish)
 *   (c)  CHOLMOD symbolic analysis, numeric factorization, solve */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linalg/cholmod_solver.h"
#include "linalg/sparse.h"

static uint64_t rng = 88172645463325252ull;

static double rnd_unit(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static int rnd_int(int n) {
  return (int)(rnd_unit() * n);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { POOL = 64, REPS = 30 };
static double pool[POOL][144];

/* random SPD 12x12: B B^T + I */
static void make_pool(void) {
  for (int p = 0; p < POOL; ++p) {
    double B[144];
    for (int i = 0; i < 144; ++i) B[i] = rnd_unit() - 0.5;
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) {
        double s = i == j ? 1.0 : 0.0;
        for (int k = 0; k < 12; ++k) s += B[i * 12 + k] * B[j * 12 + k];
        pool[p][i * 12 + j] = s;
      }
  }
}

/* a contact near a random top-surface vertex: four vertices within two cells of it and up
 * to two layers down, so the couplings are local (as real contacts are) but mostly outside
 * the elastic pattern */
static void make_contact(int nx, int ny, int nz, int *ids) {
  int i0 = rnd_int(nx), j0 = rnd_int(ny), k0 = nz - 1;
  for (int a = 0; a < 4; ++a) {
    bool again;
    do {
      int i = i0 + rnd_int(5) - 2, j = j0 + rnd_int(5) - 2, k = k0 - rnd_int(nz < 3 ? nz : 3);
      i = i < 0 ? 0 : i >= nx ? nx - 1 : i;
      j = j < 0 ? 0 : j >= ny ? ny - 1 : j;
      ids[a] = i + nx * (j + ny * k);
      again = false;
      for (int b = 0; b < a; ++b) again |= ids[b] == ids[a];
    } while (again);
  }
}

static void assemble(ipc_sparse *s, int set, int ntet, const double *mass, int ncon, const int *con,
                     ipc_csc *A, bool *changed) {
  ipc_sparse_begin(s);
  for (int e = 0; e < ntet; ++e) ipc_sparse_add_element(s, set, e, pool[e % POOL]);
  for (int c = 0; c < ncon; ++c) ipc_sparse_add(s, 4, con + 4 * c, pool[c % POOL]);
  ipc_sparse_add_diagonal(s, mass);
  *changed = ipc_sparse_finish(s, A);
}

int main(int argc, char **argv) {
  int nx = 40, ny = 40, nz = 6;
  if (argc == 4) {
    nx = atoi(argv[1]);
    ny = atoi(argv[2]);
    nz = atoi(argv[3]);
  }
  /* 4 indices per tet must fit an int (the assembler's index type) */
  if (nx < 2 || ny < 2 || nz < 2 || 24 * (int64_t)(nx - 1) * (ny - 1) * (nz - 1) > INT_MAX) {
    fprintf(stderr, "usage: bench_assembly [NX NY NZ], each >= 2, at most %d tets\n", INT_MAX / 4);
    return 2;
  }
  int nv = nx * ny * nz, ntet = 6 * (nx - 1) * (ny - 1) * (nz - 1);
  int *tets = malloc(sizeof(int) * 4 * (size_t)ntet);
  /* Kuhn split of each cube into 6 tets along the diagonal 0-7 (conforming) */
  static const int kuhn[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7},
                                 {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};
  /* corner c of a cube is at offset (c & 1, c >> 1 & 1, c >> 2 & 1) */
  int off[8];
  for (int c = 0; c < 8; ++c) off[c] = (c & 1) + nx * ((c >> 1 & 1) + ny * (c >> 2 & 1));
  int e = 0;
  for (int k = 0; k + 1 < nz; ++k)
    for (int j = 0; j + 1 < ny; ++j)
      for (int i = 0; i + 1 < nx; ++i) {
        int base = i + nx * (j + ny * k);
        for (int t = 0; t < 6; ++t, ++e)
          for (int a = 0; a < 4; ++a) tets[4 * e + a] = base + off[kuhn[t][a]];
      }
  for (int q = 0; q < ntet; ++q) /* the Kuhn table and offsets must give proper tets */
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < a; ++b)
        if (tets[4 * q + a] == tets[4 * q + b]) {
          fprintf(stderr, "bench_assembly: degenerate tet %d\n", q);
          return 1;
        }
  make_pool();
  double *mass = malloc(sizeof(double) * 3 * (size_t)nv);
  for (int i = 0; i < 3 * nv; ++i) mass[i] = 1.0 + rnd_unit();

  printf("grid %d x %d x %d: %d vertices, %d tets, %d DOFs\n", nx, ny, nz, nv, ntet, 3 * nv);

  double t0 = now();
  ipc_sparse *s = ipc_sparse_create(nv);
  int set = ipc_sparse_add_element_set(s, ntet, 4, tets);
  printf("setup (element set, fixed pattern):      %8.3f ms\n", 1e3 * (now() - t0));

  ipc_csc A;
  bool changed;
  assemble(s, set, ntet, mass, 0, NULL, &A, &changed);
  printf("matrix: n = %d, nnz(upper) = %d\n", A.n, A.nnz);

  /* (a) fixed pattern */
  double best = 1e30, sum = 0.0;
  for (int r = 0; r < REPS; ++r) {
    t0 = now();
    assemble(s, set, ntet, mass, 0, NULL, &A, &changed);
    double t = now() - t0;
    best = t < best ? t : best;
    sum += t;
    if (changed) printf("unexpected pattern change in (a)\n");
  }
  printf("(a)  fixed pattern:                      %8.3f ms (mean %.3f)\n", 1e3 * best,
         1e3 * sum / REPS);

  /* contacts: 1% of the tet count, 4 vertices each; at least one, since (b) replaces some */
  int ncon = ntet / 100 > 0 ? ntet / 100 : 1;
  int *con = malloc(sizeof(int) * 4 * (size_t)ncon);
  for (int c = 0; c < ncon; ++c) make_contact(nx, ny, nz, con + 4 * c);
  assemble(s, set, ntet, mass, ncon, con, &A, &changed);
  printf("with %d contacts: nnz(upper) = %d\n", ncon, A.nnz);

  /* (a') unchanged contact set */
  best = 1e30;
  sum = 0.0;
  for (int r = 0; r < REPS; ++r) {
    t0 = now();
    assemble(s, set, ntet, mass, ncon, con, &A, &changed);
    double t = now() - t0;
    best = t < best ? t : best;
    sum += t;
    if (changed) printf("unexpected pattern change in (a')\n");
  }
  printf("(a') + %4d unchanged contacts:          %8.3f ms (mean %.3f)\n", ncon, 1e3 * best,
         1e3 * sum / REPS);

  /* (b) a fraction of the contacts replaced each time */
  const double fractions[3] = {0.01, 0.1, 1.0};
  for (int f = 0; f < 3; ++f) {
    int nrep = (int)(fractions[f] * ncon + 0.5);
    if (nrep < 1) nrep = 1;
    best = 1e30;
    sum = 0.0;
    int nchanged = 0;
    for (int r = 0; r < REPS; ++r) {
      for (int q = 0; q < nrep; ++q) make_contact(nx, ny, nz, con + 4 * rnd_int(ncon));
      t0 = now();
      assemble(s, set, ntet, mass, ncon, con, &A, &changed);
      double t = now() - t0;
      best = t < best ? t : best;
      sum += t;
      nchanged += changed;
    }
    printf("(b)  %4d of %d contacts replaced:      %8.3f ms (mean %.3f, %d/%d rebuilt)\n", nrep,
           ncon, 1e3 * best, 1e3 * sum / REPS, nchanged, REPS);
  }

  /* (c) CHOLMOD on the last matrix */
  ipc_cholmod *ch = ipc_cholmod_create();
  double *b = malloc(sizeof(double) * (size_t)A.n), *x = malloc(sizeof(double) * (size_t)A.n);
  for (int i = 0; i < A.n; ++i) b[i] = rnd_unit() - 0.5;
  t0 = now();
  ipc_factor_status fs = ipc_cholmod_factor(ch, &A, true, 0.0);
  double first = now() - t0;
  const int nfac = 5;
  double fbest = 1e30, sbest = 1e30;
  for (int r = 0; r < nfac && fs == IPC_FACTOR_OK; ++r) {
    t0 = now();
    fs = ipc_cholmod_factor(ch, &A, false, 0.0);
    double t = now() - t0;
    fbest = t < fbest ? t : fbest;
    t0 = now();
    ipc_cholmod_solve(ch, b, x);
    t = now() - t0;
    sbest = t < sbest ? t : sbest;
  }
  ipc_cholmod_stats st;
  ipc_cholmod_get_stats(ch, &st);
  if (fs != IPC_FACTOR_OK) printf("factorization failed: status %d\n", (int)fs);
  printf("(c)  CHOLMOD analysis (%s):           %8.3f ms\n", st.ordering, 1e3 * st.analyze_seconds);
  printf("     first analysis + factorization:     %8.3f ms\n", 1e3 * first);
  printf("     numeric factorization:              %8.3f ms  (nnz(L) = %.0f, %.2f GFlop)\n",
         1e3 * fbest, st.factor_nnz, 1e-9 * st.factor_flops);
  printf("     solve:                              %8.3f ms\n", 1e3 * sbest);

  /* residual check so the numbers belong to a correct solve */
  double *y = malloc(sizeof(double) * (size_t)A.n), res = 0.0, bn = 0.0;
  ipc_csc_mul(&A, x, y);
  for (int i = 0; i < A.n; ++i) {
    double d = y[i] - b[i];
    res = d * d > res ? d * d : res;
    bn = b[i] * b[i] > bn ? b[i] * b[i] : bn;
  }
  printf("     max residual / max |b|: %.2e\n", bn > 0.0 ? sqrt(res / bn) : 0.0);

  free(y);
  free(b);
  free(x);
  ipc_cholmod_destroy(ch);
  ipc_sparse_destroy(s);
  free(con);
  free(mass);
  free(tets);
  return 0;
}
