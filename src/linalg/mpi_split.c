/* the work split of stage 2 (mpi_run.h): chunked loops whose chunks are shared out among the
 * MPI ranks while a time step runs, their results combined with mpi_run.c's collectives (no-ops
 * in a build without MPI, mpi_run_stub.c). On one rank everything here is ipc_parallel_*. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/parallel.h"
#include "linalg/mpi_run.h"

static int scope;
static unsigned long long work[IPC_WORK_KINDS];
static double work_cpu[IPC_WORK_KINDS]; /* CPU seconds of this process in the kind's loops */

double ipc_mpi_cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void ipc_mpi_count_cpu(ipc_work_kind kind, double seconds) {
  if (scope) work_cpu[kind] += seconds;
}

int ipc_mpi_split_scope(int on) {
  int was = scope;
  scope = on;
  return was;
}

/* IPCC_MPI_SPLIT=0 turns the split off (stage 1's replicated loops: every rank runs them all),
   for measurements and to tell the split's effects from the solver's */
static int split_allowed(void) {
  static int allowed = -1;
  if (allowed < 0) {
    const char *e = getenv("IPCC_MPI_SPLIT");
    allowed = !(e && strcmp(e, "0") == 0);
  }
  return allowed;
}

int ipc_mpi_splitting(void) {
  return scope && ipc_rank_count() > 1 && split_allowed();
}

size_t ipc_mpi_chunk_count(size_t n, size_t min_chunk) {
  size_t nc = ipc_chunk_count(n, min_chunk);
  if (!ipc_mpi_splitting()) return nc;
  /* at least 4 chunks per rank, so the ranks' shares differ by at most a quarter of one */
  size_t want = 4 * (size_t)ipc_rank_count();
  if (want > n) want = n;
  if (nc < want) nc = want;
  return nc > IPC_MAX_CHUNKS ? IPC_MAX_CHUNKS : nc;
}

void ipc_mpi_my_chunks(size_t nc, size_t *c0, size_t *c1) {
  if (!ipc_mpi_splitting()) {
    *c0 = 0;
    *c1 = nc;
    return;
  }
  size_t r = (size_t)ipc_rank(), nr = (size_t)ipc_rank_count();
  *c0 = nc * r / nr;
  *c1 = nc * (r + 1) / nr;
}

/* counted inside the scope only: the steps' work, not the set-up's (which every rank repeats) */
void ipc_mpi_count(ipc_work_kind kind, size_t items) {
  if (scope) work[kind] += items;
}

void ipc_mpi_parallel_chunks(size_t n, size_t nc, ipc_range_fn fn, void *ctx, double *part,
                             ipc_work_kind kind) {
  size_t c0, c1, b0, e0, b1, e1;
  ipc_mpi_my_chunks(nc, &c0, &c1);
  if (c1 <= c0) return;
  double t0 = ipc_mpi_cpu_now();
  ipc_parallel_chunks(n, nc, c0, c1, fn, ctx, part);
  ipc_mpi_count_cpu(kind, ipc_mpi_cpu_now() - t0);
  ipc_chunk_range(n, nc, c0, &b0, &e0);
  ipc_chunk_range(n, nc, c1 - 1, &b1, &e1);
  ipc_mpi_count(kind, e1 - b0);
}

double ipc_mpi_parallel_sum(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx,
                            ipc_work_kind kind) {
  if (!ipc_mpi_splitting()) {
    ipc_mpi_count(kind, n);
    double t0 = ipc_mpi_cpu_now(), r = ipc_parallel_sum(n, min_chunk, fn, ctx);
    ipc_mpi_count_cpu(kind, ipc_mpi_cpu_now() - t0);
    return r;
  }
  size_t nc = ipc_mpi_chunk_count(n, min_chunk);
  double part[IPC_MAX_CHUNKS];
  for (size_t c = 0; c < nc; ++c) part[c] = 0.0;
  ipc_mpi_parallel_chunks(n, nc, fn, ctx, part, kind);
  /* each chunk's value comes from one rank, the others add 0: exact, the same on all ranks */
  ipc_mpi_reduce(part, nc, IPC_MPI_SUM);
  double s = 0.0;
  for (size_t c = 0; c < nc; ++c) s += part[c];
  return s;
}

double ipc_mpi_parallel_min(size_t n, size_t min_chunk, ipc_range_fn fn, void *ctx,
                            ipc_work_kind kind) {
  if (!ipc_mpi_splitting()) {
    ipc_mpi_count(kind, n);
    double t0 = ipc_mpi_cpu_now(), r = ipc_parallel_min(n, min_chunk, fn, ctx);
    ipc_mpi_count_cpu(kind, ipc_mpi_cpu_now() - t0);
    return r;
  }
  size_t nc = ipc_mpi_chunk_count(n, min_chunk), c0, c1;
  double part[IPC_MAX_CHUNKS], s = INFINITY;
  ipc_mpi_parallel_chunks(n, nc, fn, ctx, part, kind);
  ipc_mpi_my_chunks(nc, &c0, &c1);
  for (size_t c = c0; c < c1; ++c)
    if (part[c] < s) s = part[c];
  ipc_mpi_reduce(&s, 1, IPC_MPI_MIN);
  return s;
}

void ipc_mpi_work_report(FILE *f) {
  fprintf(f,
          "ipcc work: rank %d of %d: ccd_pairs %llu narrow_pairs %llu barrier_pairs %llu "
          "elastic_tets %llu broad_nodes %llu body_pairs %llu assembly_tets %llu assembly_contacts "
          "%llu "
          "assembly_friction %llu assembly_affine %llu assembly_sent %llu assemblies %llu "
          "comm_seconds %.3f "
          "comm_bytes %llu cpu_seconds ccd %.3f narrow %.3f barrier %.3f elastic %.3f broad %.3f "
          "bodies %.3f "
          "assembly %.3f assembly_comm %.3f matrix_fill %.3f\n",
          ipc_rank(), ipc_rank_count(), work[IPC_WORK_CCD], work[IPC_WORK_NARROW],
          work[IPC_WORK_BARRIER], work[IPC_WORK_ELASTIC], work[IPC_WORK_BROAD],
          work[IPC_WORK_BODY_PAIRS], work[IPC_WORK_ASM_TETS], work[IPC_WORK_ASM_CONTACTS],
          work[IPC_WORK_ASM_FRICTION], work[IPC_WORK_ASM_AFFINE], work[IPC_WORK_ASM_SENT],
          work[IPC_WORK_ASSEMBLY], ipc_mpi_comm_seconds(), ipc_mpi_comm_bytes(),
          work_cpu[IPC_WORK_CCD], work_cpu[IPC_WORK_NARROW], work_cpu[IPC_WORK_BARRIER],
          work_cpu[IPC_WORK_ELASTIC], work_cpu[IPC_WORK_BROAD], work_cpu[IPC_WORK_BODY_PAIRS],
          work_cpu[IPC_WORK_ASSEMBLY], work_cpu[IPC_WORK_ASM_COMM], work_cpu[IPC_WORK_ASM_SENT]);
}
