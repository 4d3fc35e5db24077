/* the LCP matrix W: sparse rows, the Jacobian form W = J A^-1 J^T + diag(reg), products
 *
 * For the Jacobian form, G = (A^-1 J^T)^T is built once: row i holds the blocks of A^-1
 * that J_i touches times J_i, so (W z)_i = J_i (G^T z) + reg_i z_i and a change dz of z_i
 * moves u = G^T z by dz G_i. The cost of a row is nnz(J_i) + nnz(G_i), never O(n) as with
 * an explicit W (Miyamoto, Yamashita et al., Sparsity exploitation of AMGS, Sec. 3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/lcp_internal.h"

/* counting sort by (row, column), stable in the input order: deterministic */
ipcc_status ipc_lcp_csr_from_triplets(ipc_lcp_csr *A, int nrows, int ncols, int nnz, const int *ri,
                                      const int *ci, const double *v, ipcc_error *err) {
  memset(A, 0, sizeof *A);
  for (int k = 0; k < nnz; ++k) {
    if (ri[k] < 0 || ri[k] >= nrows || ci[k] < 0 || ci[k] >= ncols)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "entry %d: index (%d, %d) outside the %d x %d matrix", k, ri[k], ci[k],
                           nrows, ncols);
  }
  /* sort by column, then stably by row: rows end up with ascending columns */
  int *cnt = IPC_NEW0(int, (ncols > nrows ? ncols : nrows) + 1);
  int *by_col = IPC_NEW(int, nnz > 0 ? nnz : 1);
  for (int k = 0; k < nnz; ++k) ++cnt[ci[k] + 1];
  for (int c = 0; c < ncols; ++c) cnt[c + 1] += cnt[c];
  for (int k = 0; k < nnz; ++k) by_col[cnt[ci[k]]++] = k;
  memset(cnt, 0, sizeof(int) * (size_t)((ncols > nrows ? ncols : nrows) + 1));
  int *order = IPC_NEW(int, nnz > 0 ? nnz : 1);
  for (int k = 0; k < nnz; ++k) ++cnt[ri[k] + 1];
  for (int r = 0; r < nrows; ++r) cnt[r + 1] += cnt[r];
  for (int t = 0; t < nnz; ++t) {
    int k = by_col[t];
    order[cnt[ri[k]]++] = k;
  }
  /* merge duplicates */
  A->nrows = nrows;
  A->ncols = ncols;
  A->rowptr = IPC_NEW0(int, nrows + 1);
  A->col = IPC_NEW(int, nnz > 0 ? nnz : 1);
  A->val = IPC_NEW(double, nnz > 0 ? nnz : 1);
  int m = 0, t = 0;
  for (int r = 0; r < nrows; ++r) {
    int row_start = m;
    for (; t < nnz && ri[order[t]] == r; ++t) {
      int k = order[t];
      if (m > row_start && A->col[m - 1] == ci[k]) {
        A->val[m - 1] += v[k];
      } else {
        A->col[m] = ci[k];
        A->val[m] = v[k];
        ++m;
      }
    }
    A->rowptr[r + 1] = m;
  }
  ipc_free(cnt);
  ipc_free(by_col);
  ipc_free(order);
  return IPCC_OK;
}

void ipc_lcp_csr_from_dense(ipc_lcp_csr *A, int nrows, int ncols, const double *dense) {
  int nnz = 0;
  for (long k = 0; k < (long)nrows * ncols; ++k) nnz += dense[k] != 0.0;
  A->nrows = nrows;
  A->ncols = ncols;
  A->rowptr = IPC_NEW0(int, nrows + 1);
  A->col = IPC_NEW(int, nnz > 0 ? nnz : 1);
  A->val = IPC_NEW(double, nnz > 0 ? nnz : 1);
  int m = 0;
  for (int i = 0; i < nrows; ++i) {
    for (int j = 0; j < ncols; ++j) {
      double a = dense[(long)i * ncols + j];
      if (a != 0.0) {
        A->col[m] = j;
        A->val[m] = a;
        ++m;
      }
    }
    A->rowptr[i + 1] = m;
  }
}

void ipc_lcp_csr_free(ipc_lcp_csr *A) {
  if (!A) return;
  ipc_free(A->rowptr);
  ipc_free(A->col);
  ipc_free(A->val);
  memset(A, 0, sizeof *A);
}

/* G = rows J_i A^-1 over the full blocks J_i touches */
static void build_g(ipc_lcp_csr *G, const ipc_lcp_problem *p) {
  const ipc_lcp_csr *J = p->J;
  const int b = p->ainv_block;
  int nnz = 0;
  for (int i = 0; i < J->nrows; ++i) {
    int last = -1;
    for (int k = J->rowptr[i]; k < J->rowptr[i + 1]; ++k) {
      int blk = J->col[k] / b;
      if (blk != last) nnz += b;
      last = blk;
    }
  }
  G->nrows = J->nrows;
  G->ncols = J->ncols;
  G->rowptr = IPC_NEW0(int, J->nrows + 1);
  G->col = IPC_NEW(int, nnz > 0 ? nnz : 1);
  G->val = IPC_NEW(double, nnz > 0 ? nnz : 1);
  int m = 0;
  for (int i = 0; i < J->nrows; ++i) {
    int k = J->rowptr[i], end = J->rowptr[i + 1];
    while (k < end) {
      int blk = J->col[k] / b;
      int kb = k;
      while (k < end && J->col[k] / b == blk) ++k;
      const double *Ab = p->ainv + (long)blk * b * b;
      for (int r = 0; r < b; ++r) {
        double s = 0.0;
        for (int t = kb; t < k; ++t) s += Ab[r * b + (J->col[t] - blk * b)] * J->val[t];
        G->col[m] = blk * b + r;
        G->val[m] = s;
        ++m;
      }
    }
    G->rowptr[i + 1] = m;
  }
}

void ipc_lcp_op_init(ipc_lcp_op *op, const ipc_lcp_problem *p) {
  memset(op, 0, sizeof *op);
  op->p = p;
  op->n = p->n;
  op->diag = IPC_NEW0(double, p->n > 0 ? p->n : 1);
  if (p->M) {
    const ipc_lcp_csr *M = p->M;
    for (int i = 0; i < p->n; ++i)
      for (int k = M->rowptr[i]; k < M->rowptr[i + 1]; ++k)
        if (M->col[k] == i) op->diag[i] += M->val[k];
    return;
  }
  op->ndof = p->J->ncols;
  build_g(&op->G, p);
  op->u = IPC_NEW0(double, op->ndof > 0 ? op->ndof : 1);
  op->t = IPC_NEW0(double, op->ndof > 0 ? op->ndof : 1);
  const ipc_lcp_csr *J = p->J, *G = &op->G;
  for (int i = 0; i < p->n; ++i) {
    /* sparse dot J_i . G_i: both rows have ascending columns */
    double s = 0.0;
    int kg = G->rowptr[i];
    for (int k = J->rowptr[i]; k < J->rowptr[i + 1]; ++k) {
      while (G->col[kg] < J->col[k]) ++kg;
      s += J->val[k] * G->val[kg];
    }
    op->diag[i] = s + (p->reg ? p->reg[i] : 0.0);
  }
}

void ipc_lcp_op_free(ipc_lcp_op *op) {
  ipc_free(op->diag);
  ipc_free(op->u);
  ipc_free(op->t);
  ipc_lcp_csr_free(&op->G);
  memset(op, 0, sizeof *op);
}

/* u = G^T x */
static void g_transpose_mul(const ipc_lcp_csr *G, int ndof, const double *x, double *u) {
  memset(u, 0, sizeof(double) * (size_t)ndof);
  for (int i = 0; i < G->nrows; ++i) {
    double xi = x[i];
    if (xi == 0.0) continue;
    for (int k = G->rowptr[i]; k < G->rowptr[i + 1]; ++k) u[G->col[k]] += G->val[k] * xi;
  }
}

static void csr_mul(const ipc_lcp_csr *A, const double *x, double *y) {
  for (int i = 0; i < A->nrows; ++i) {
    double s = 0.0;
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) s += A->val[k] * x[A->col[k]];
    y[i] = s;
  }
}

void ipc_lcp_op_mul(ipc_lcp_op *op, const double *x, double *y) {
  const ipc_lcp_problem *p = op->p;
  if (p->M) {
    csr_mul(p->M, x, y);
    return;
  }
  g_transpose_mul(&op->G, op->ndof, x, op->t);
  csr_mul(p->J, op->t, y);
  if (p->reg)
    for (int i = 0; i < p->n; ++i) y[i] += p->reg[i] * x[i];
}

double ipc_lcp_op_eval(ipc_lcp_op *op, const double *z, double *w) {
  const ipc_lcp_problem *p = op->p;
  if (p->M) {
    csr_mul(p->M, z, w);
  } else {
    g_transpose_mul(&op->G, op->ndof, z, op->u);
    csr_mul(p->J, op->u, w);
    if (p->reg)
      for (int i = 0; i < p->n; ++i) w[i] += p->reg[i] * z[i];
  }
  for (int i = 0; i < p->n; ++i) w[i] += p->q[i];
  return ipc_lcp_residual_zw(p, z, w);
}

void ipc_lcp_mul(const ipc_lcp_problem *p, const double *x, double *y) {
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  ipc_lcp_op_mul(&op, x, y);
  ipc_lcp_op_free(&op);
}

void ipc_lcp_w(const ipc_lcp_problem *p, const double *z, double *w) {
  ipc_lcp_mul(p, z, w);
  for (int i = 0; i < p->n; ++i) w[i] += p->q[i];
}

void ipc_lcp_dense(const ipc_lcp_problem *p, double *W) {
  const int n = p->n;
  memset(W, 0, sizeof(double) * (size_t)n * (size_t)n);
  if (p->M) {
    const ipc_lcp_csr *M = p->M;
    for (int i = 0; i < n; ++i)
      for (int k = M->rowptr[i]; k < M->rowptr[i + 1]; ++k) W[(long)i * n + M->col[k]] += M->val[k];
    return;
  }
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  const ipc_lcp_csr *J = p->J, *G = &op.G;
  /* column j of J A^-1 J^T is J G_j^T: scatter G_j, multiply by J */
  double *col = IPC_NEW(double, n > 0 ? n : 1);
  for (int j = 0; j < n; ++j) {
    memset(op.t, 0, sizeof(double) * (size_t)op.ndof);
    for (int k = G->rowptr[j]; k < G->rowptr[j + 1]; ++k) op.t[G->col[k]] = G->val[k];
    csr_mul(J, op.t, col);
    for (int i = 0; i < n; ++i) W[(long)i * n + j] = col[i];
    if (p->reg) W[(long)j * n + j] += p->reg[j];
  }
  ipc_free(col);
  ipc_lcp_op_free(&op);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* sparse product W = J G^T + diag(reg): row i accumulates J_ic times row c of G^T */
void ipc_lcp_csr_explicit(ipc_lcp_csr *W, const ipc_lcp_problem *p) {
  const int n = p->n;
  if (p->M) {
    const ipc_lcp_csr *M = p->M;
    int nnz = M->rowptr[n];
    W->nrows = W->ncols = n;
    W->rowptr = IPC_NEW(int, n + 1);
    W->col = IPC_NEW(int, nnz > 0 ? nnz : 1);
    W->val = IPC_NEW(double, nnz > 0 ? nnz : 1);
    memcpy(W->rowptr, M->rowptr, sizeof(int) * (size_t)(n + 1));
    if (nnz > 0) {
      memcpy(W->col, M->col, sizeof(int) * (size_t)nnz);
      memcpy(W->val, M->val, sizeof(double) * (size_t)nnz);
    }
    return;
  }
  ipc_lcp_op op;
  ipc_lcp_op_init(&op, p);
  const ipc_lcp_csr *J = p->J, *G = &op.G;
  /* GT = G^T in compressed rows (ndof x n), rows ascending by construction */
  const int ndof = op.ndof, gnnz = G->rowptr[n];
  int *gtp = IPC_NEW0(int, ndof + 1), *gtc = IPC_NEW(int, gnnz > 0 ? gnnz : 1);
  double *gtv = IPC_NEW(double, gnnz > 0 ? gnnz : 1);
  for (int k = 0; k < gnnz; ++k) ++gtp[G->col[k] + 1];
  for (int c = 0; c < ndof; ++c) gtp[c + 1] += gtp[c];
  int *fill = IPC_NEW(int, ndof > 0 ? ndof : 1);
  memcpy(fill, gtp, sizeof(int) * (size_t)(ndof > 0 ? ndof : 1));
  for (int j = 0; j < n; ++j)
    for (int k = G->rowptr[j]; k < G->rowptr[j + 1]; ++k) {
      int s = fill[G->col[k]]++;
      gtc[s] = j;
      gtv[s] = G->val[k];
    }
  /* rows of W with a dense accumulator and a marker list, sorted per row */
  double *acc = IPC_NEW0(double, n > 0 ? n : 1);
  int *mark = IPC_NEW(int, n > 0 ? n : 1), *list = IPC_NEW(int, n > 0 ? n : 1);
  for (int j = 0; j < n; ++j) mark[j] = -1;
  size_t cap = 16, m = 0;
  W->nrows = W->ncols = n;
  W->rowptr = IPC_NEW0(int, n + 1);
  W->col = IPC_NEW(int, cap);
  W->val = IPC_NEW(double, cap);
  for (int i = 0; i < n; ++i) {
    int cnt = 0;
    for (int k = J->rowptr[i]; k < J->rowptr[i + 1]; ++k) {
      int c = J->col[k];
      for (int s = gtp[c]; s < gtp[c + 1]; ++s) {
        int j = gtc[s];
        if (mark[j] != i) {
          mark[j] = i;
          acc[j] = 0.0;
          list[cnt++] = j;
        }
        acc[j] += J->val[k] * gtv[s];
      }
    }
    if (p->reg && mark[i] != i) {
      mark[i] = i;
      acc[i] = 0.0;
      list[cnt++] = i;
    }
    if (p->reg) acc[i] += p->reg[i];
    qsort(list, (size_t)cnt, sizeof(int), cmp_int);
    size_t old_cap = cap;
    ipc_reserve((void **)&W->col, &cap, m + (size_t)cnt, sizeof(int));
    if (cap != old_cap) W->val = ipc_realloc(W->val, sizeof(double) * cap);
    for (int a = 0; a < cnt; ++a) {
      W->col[m] = list[a];
      W->val[m] = acc[list[a]];
      ++m;
    }
    W->rowptr[i + 1] = (int)m;
  }
  ipc_free(acc);
  ipc_free(mark);
  ipc_free(list);
  ipc_free(gtp);
  ipc_free(gtc);
  ipc_free(gtv);
  ipc_free(fill);
  ipc_lcp_op_free(&op);
}
