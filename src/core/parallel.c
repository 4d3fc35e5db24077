/* chunked OpenMP loops with thread-count independent results; see parallel.h */
#include "core/parallel.h"

#include "ipc/world.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>

/* one thread unless asked: on this project's 2-core reference machine two threads were
   slower (OpenMP workers and OpenBLAS/CHOLMOD threads spin against each other) */
static int g_threads = 1;

int ipcc_set_threads(int n) {
  if (n < 1) n = omp_get_num_procs();
  g_threads = n;
  return n;
}

int ipc_threads(void) {
  return g_threads;
}

int ipc_thread_num(void) {
  return omp_get_thread_num();
}

/* MPI rank and rank count (parallel.h) */
static int g_rank = 0, g_rank_count = 1;

int ipc_rank(void) {
  return g_rank;
}

int ipc_rank_count(void) {
  return g_rank_count;
}

int ipc_launcher_rank_count(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE",
                                     "SLURM_STEP_NUM_TASKS"};
  for (size_t k = 0; k < sizeof vars / sizeof vars[0]; ++k) {
    const char *v = getenv(vars[k]);
    long n = v ? strtol(v, NULL, 10) : 0;
    if (n > 1 && n < INT_MAX) return (int)n;
  }
  return 1;
}

void ipc_set_rank(int rank, int count) {
  g_rank = rank;
  g_rank_count = count > 0 ? count : 1;
}

size_t ipc_chunk_count(size_t n, size_t min_chunk) {
  if (n == 0) return 0;
  if (min_chunk < 1) min_chunk = 1;
  size_t c = n / min_chunk;
  if (c < 1) c = 1;
  if (c > IPC_MAX_CHUNKS) c = IPC_MAX_CHUNKS;
  return c;
}

void ipc_chunk_range(size_t n, size_t nchunks, size_t c, size_t *begin, size_t *end) {
  *begin = n * c / nchunks;
  *end = n * (c + 1) / nchunks;
}

int ipc_subrange(size_t s0, size_t n, size_t begin, size_t end, size_t *lo, size_t *hi) {
  if (end <= s0 || begin >= s0 + n) return 0;
  *lo = begin > s0 ? begin - s0 : 0;
  *hi = end < s0 + n ? end - s0 : n;
  return 1;
}

void ipc_parallel_chunks(size_t n, size_t nc, size_t c0, size_t c1, ipc_range_fn fn, void *ctx,
                         double *part) {
  int nt = ipc_threads();
  if (c1 <= c0) return;
  if (nt > (int)(c1 - c0)) nt = (int)(c1 - c0);
  if (nt <= 1) { /* no OpenMP region at all: even a serialized one costs a futex call */
    for (size_t c = c0; c < c1; ++c) {
      size_t b, e;
      ipc_chunk_range(n, nc, c, &b, &e);
      part[c] = fn(ctx, c, b, e);
    }
    return;
  }
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
  for (size_t c = c0; c < c1; ++c) {
    size_t b, e;
    ipc_chunk_range(n, nc, c, &b, &e);
    part[c] = fn(ctx, c, b, e);
  }
}

static void run_chunks(size_t n, size_t nc, ipc_range_fn fn, void *ctx, double *part) {
  ipc_parallel_chunks(n, nc, 0, nc, fn, ctx, part);
}

double ipc_parallel_sum(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx) {
  size_t nc = ipc_chunk_count(n, min_chunk);
  double part[IPC_MAX_CHUNKS];
  run_chunks(n, nc, fn, ctx, part);
  double s = 0.0;
  for (size_t c = 0; c < nc; ++c) s += part[c];
  return s;
}

double ipc_parallel_min(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx) {
  size_t nc = ipc_chunk_count(n, min_chunk);
  double part[IPC_MAX_CHUNKS];
  run_chunks(n, nc, fn, ctx, part);
  double s = INFINITY;
  for (size_t c = 0; c < nc; ++c)
    if (part[c] < s) s = part[c];
  return s;
}
