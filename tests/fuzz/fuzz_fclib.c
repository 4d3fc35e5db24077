/* libFuzzer target: FCLIB problems (HDF5), structure-aware. mutating the bytes of an HDF5
   file mostly exercises libhdf5 (not instrumented, not ipcc's code), so an input here is
   decoded into an FCLIB problem instead: local or global, each matrix in triplet, CSC or CSR
   form with small sizes, its own nz/nzmax, indices and values (NaN, infinities and huge
   ones included), optional blocks, spacedim 2 or 3. libfclib writes it to p.hdf5 in the scratch
   folder and ipc_fclib_read reads it back; an accepted problem must be consistent */
#include <fclib.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/fclib_read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CAP = 64 }; /* entries of every array handed to libfclib (sizes stay below) */

typedef struct bytes {
  const uint8_t *d;
  size_t n, k;
} bytes;

typedef struct mat_buf {
  struct fclib_matrix m;
  int p[CAP], i[CAP];
  double x[CAP];
} mat_buf;

static int take(bytes *b) {
  return b->k < b->n ? b->d[b->k++] : 0;
}

static double value(bytes *b) {
  int c = take(b);
  static const double special[5] = {NAN, INFINITY, -INFINITY, 1e300, -1};
  return c > 250 ? special[c - 251] : (c - 125) / 8.0;
}

static void fill_vector(bytes *b, double *v) {
  for (int k = 0; k < CAP; ++k) v[k] = k < 13 ? value(b) : 0;
}

/* sizes 0..12, nz and nzmax below 40; compressed pointers mostly non-decreasing */
static struct fclib_matrix *fill_matrix(bytes *b, mat_buf *mb) {
  memset(mb, 0, sizeof *mb);
  int kind = take(b) % 3;
  mb->m.m = take(b) % 13;
  mb->m.n = take(b) % 13;
  mb->m.nzmax = take(b) % 40;
  mb->m.nz = kind == 0 ? take(b) % 40 : -kind;
  int len = mb->m.nzmax > mb->m.nz ? mb->m.nzmax : mb->m.nz;
  if (len < 14) len = 14;
  for (int k = 0; k < len; ++k) {
    int c = take(b);
    mb->p[k] = kind == 0 ? c % 16 - 2 : (k ? mb->p[k - 1] : 0) + c % 4 - (c == 255 ? 5 : 0);
    mb->i[k] = take(b) % 16 - 2;
    mb->x[k] = value(b);
  }
  mb->m.p = mb->p;
  mb->m.i = mb->i;
  mb->m.x = mb->x;
  return &mb->m;
}

static int spacedim(bytes *b) {
  return take(b) % 4 ? 3 : 2;
}

static void check_problem(const ipc_fclib_problem *p) {
  int ok = p->n == 3 * p->ncontacts && p->W.nrows == p->n && p->W.ncols == p->n && p->W.rowptr &&
           p->W.rowptr[0] == 0;
  for (int r = 0; ok && r < p->n; ++r) {
    ok = p->W.rowptr[r] <= p->W.rowptr[r + 1] && isfinite(p->q[r]);
    for (int e = p->W.rowptr[r]; ok && e < p->W.rowptr[r + 1]; ++e)
      ok = p->W.col[e] >= 0 && p->W.col[e] < p->n;
  }
  for (int c = 0; ok && c < p->ncontacts; ++c) ok = p->mu[c] >= 0 && isfinite(p->mu[c]);
  if (!ok) {
    fprintf(stderr, "fuzz oracle: inconsistent FCLIB problem (n %d)\n", p->n);
    abort();
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_dir();
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* libfclib's refusals are not findings */
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size, 0};
  int flags = take(&b);
  static mat_buf m1, m2, m3;
  static double v1[CAP], v2[CAP], v3[CAP], v4[CAP];
  fill_vector(&b, v1);
  fill_vector(&b, v2);
  fill_vector(&b, v3);
  fill_vector(&b, v4);
  const char *path = fuzz_path(0, "p.hdf5");
  remove(path);
  int written;
  if (flags & 1) {
    struct fclib_global g = {0};
    g.M = fill_matrix(&b, &m1);
    g.H = fill_matrix(&b, &m2);
    g.G = flags & 2 ? fill_matrix(&b, &m3) : NULL;
    g.f = v1;
    g.w = v2;
    g.mu = v3;
    g.b = flags & 2 ? v4 : NULL; /* libfclib exits when G comes without b */
    g.spacedim = spacedim(&b);
    /* libfclib's writer exits on these, so they cannot be written */
    if (g.H->n % g.spacedim) return 0;
    written = fclib_write_global(&g, path);
  } else {
    struct fclib_local l = {0};
    l.W = fill_matrix(&b, &m1);
    l.V = flags & 2 ? fill_matrix(&b, &m2) : NULL;
    l.R = flags & 2 ? fill_matrix(&b, &m3) : NULL;
    l.q = v1;
    l.mu = v2;
    l.s = flags & 2 ? v3 : NULL; /* libfclib exits when V, R come without s */
    l.spacedim = spacedim(&b);
    if (l.W->m % l.spacedim) return 0;
    written = fclib_write_local(&l, path);
  }
  if (!written) return 0;
  ipc_fclib_problem p;
  ipcc_error err = {0};
  ipcc_status st = ipc_fclib_read(path, &p, &err);
  fuzz_check_error(st, &err, path);
  if (st == IPCC_OK) check_problem(&p);
  ipc_fclib_problem_free(&p);
  return 0;
}
