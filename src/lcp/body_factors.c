/* per-body factors of A = M + h^2 K for the coupled contact mode.
   A has no entry between two bodies (elasticity acts within a body, the mass is diagonal),
   so it is block diagonal with one block per body over that body's free DOFs, and
   A^-1 = diag(A_b^-1). The coupled contact matrix W = J A^-1 J^T needs A^-1 J_i^T for every
   contact row i; J_i touches at most two bodies, so each column costs triangular solves
   with the factors of those bodies' blocks (nnz(L_b) each) instead of the whole factor
   (sum over all bodies), and the unconstrained velocity is solved block by block with the
   same factors. The blocks are contiguous ranges of the reduced DOFs because the
   assembler numbers free DOFs in vertex order and a body's vertices are contiguous; both
   are checked, and a failure leaves the caller to factor A whole. */
#include "lcp/body_factors.h"

#include <string.h>

#include "core/alloc.h"

/* block ranges from the DOF map; 0 when a body's free DOFs are not contiguous or do not
   tile 0 .. nf-1 in body order */
static int build_ranges(ipc_lcp_body_factors *bf, const ipc_model *m, const ipc_sparse *s) {
  const int *map = ipc_sparse_dof_map(s);
  int nf = ipc_sparse_num_free(s);
  bf->r0 = ipc_realloc(bf->r0, sizeof(int) * ((size_t)m->nbodies + 1));
  bf->block = ipc_realloc(bf->block, sizeof(int) * ((size_t)m->nbodies + 1));
  int nb = 0, next = 0;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    int lo = -1, cnt = 0, ok = 1;
    for (int d = 3 * bd->v0; d < 3 * (bd->v0 + bd->nv); ++d) {
      int r = map[d];
      if (r < 0) continue;
      if (lo < 0) lo = r;
      ok &= r == lo + cnt;
      ++cnt;
    }
    bf->block[b] = -1;
    if (cnt == 0) continue;
    if (!ok || lo != next) return 0;
    bf->block[b] = nb;
    bf->r0[nb++] = lo;
    next = lo + cnt;
  }
  if (next != nf) return 0;
  bf->r0[nb] = nf;
  bf->nb = nb;
  return 1;
}

ipc_factor_status ipc_lcp_body_factors_update(ipc_lcp_body_factors *bf, const ipc_model *m,
                                              const ipc_sparse *s, const ipc_csc *A,
                                              bool pattern_changed) {
  int nf = ipc_sparse_num_free(s);
  bool rebuild = pattern_changed || bf->nf != nf || bf->nnz != A->nnz || bf->r0 == NULL;
  if (rebuild) {
    bf->nf = -1;
    if (!build_ranges(bf, m, s)) return IPC_FACTOR_FAILED;
    /* no entry of a block's columns outside its rows */
    for (int k = 0; k < bf->nb; ++k)
      for (int j = bf->r0[k]; j < bf->r0[k + 1]; ++j)
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; ++p)
          if (A->rowind[p] < bf->r0[k]) return IPC_FACTOR_FAILED;
    if (bf->nb > bf->cap) {
      bf->f = ipc_realloc(bf->f, sizeof(ipc_cholmod *) * (size_t)bf->nb);
      for (int k = bf->cap; k < bf->nb; ++k) bf->f[k] = NULL;
      bf->cap = bf->nb;
    }
    for (int k = 0; k < bf->nb; ++k)
      if (!bf->f[k] && !(bf->f[k] = ipc_cholmod_create())) return IPC_FACTOR_FAILED;
    bf->colptr = ipc_realloc(bf->colptr, sizeof(int) * ((size_t)nf + (size_t)bf->nb + 1));
    bf->rowind = ipc_realloc(bf->rowind, sizeof(int) * ((size_t)A->nnz + 1));
    for (int k = 0; k < bf->nb; ++k) {
      int a = bf->r0[k], e = bf->r0[k + 1], base = A->colptr[a];
      int *cp = bf->colptr + a + k;
      for (int j = a; j <= e; ++j) cp[j - a] = A->colptr[j] - base;
      for (int p = base; p < A->colptr[e]; ++p) bf->rowind[p] = A->rowind[p] - a;
    }
    bf->nf = nf;
    bf->nnz = A->nnz;
  }
  for (int k = 0; k < bf->nb; ++k) {
    int a = bf->r0[k], e = bf->r0[k + 1], base = A->colptr[a];
    ipc_csc Ab = {.n = e - a,
                  .nnz = A->colptr[e] - base,
                  .colptr = bf->colptr + a + k,
                  .rowind = bf->rowind + base,
                  .val = A->val + base};
    ipc_factor_status st = ipc_cholmod_factor(bf->f[k], &Ab, rebuild, 0.0);
    if (st != IPC_FACTOR_OK) {
      bf->nf = -1;
      return st;
    }
  }
  return IPC_FACTOR_OK;
}

ipc_factor_status ipc_lcp_body_factors_solve_block(const ipc_lcp_body_factors *bf, int k,
                                                   double *x) {
  return ipc_cholmod_solve(bf->f[k], x, x);
}

ipc_factor_status ipc_lcp_body_factors_solve(const ipc_lcp_body_factors *bf, double *x) {
  for (int k = 0; k < bf->nb; ++k) {
    ipc_factor_status st = ipc_cholmod_solve(bf->f[k], x + bf->r0[k], x + bf->r0[k]);
    if (st != IPC_FACTOR_OK) return st;
  }
  return IPC_FACTOR_OK;
}

void ipc_lcp_body_factors_free(ipc_lcp_body_factors *bf) {
  for (int k = 0; k < bf->cap; ++k) ipc_cholmod_destroy(bf->f[k]);
  ipc_free(bf->f);
  ipc_free(bf->r0);
  ipc_free(bf->block);
  ipc_free(bf->colptr);
  ipc_free(bf->rowind);
  memset(bf, 0, sizeof *bf);
}
