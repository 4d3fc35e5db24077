/* FCLIB problems read with libfclib and reduced to ipcc's local cone problem.
 *
 * FCLIB format: Acary, Bremond, Koziara, Perignon, "FCLIB: a collection of discrete 3D
 * Frictional Contact problems", INRIA RT-0444 (2014). The global problem M v = H r + f,
 * u = H^T v + w eliminates v: u = H^T M^-1 H r + (H^T M^-1 f + w). M is factored densely
 * (LAPACK Cholesky; the sample problems have at most a few hundred DOFs) and M^-1 H is formed
 * by triangular solves; W is then stored sparse with exact zeros dropped. */
#include "io/fclib_read.h"

#include <errno.h>
#include <fclib.h>
#include <float.h>
#include <hdf5.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "lcp/cone.h"

/* a matrix of the file as validated triplets (row, col, value) */
typedef struct fc_triplets {
  int rows, cols, nnz;
  int *ri, *ci;
  double *v;
} fc_triplets;

static void fc_triplets_free(fc_triplets *t) {
  ipc_free(t->ri);
  ipc_free(t->ci);
  ipc_free(t->v);
  memset(t, 0, sizeof *t);
}

static int all_finite(const double *x, int n) {
  for (int k = 0; k < n; ++k)
    if (!isfinite(x[k])) return 0;
  return 1;
}

/* expands the fclib matrix a (triplet, CSR or CSC) into triplets; triplet entry k is read as
   (row i[k], column p[k]) */
static ipcc_status fc_expand(const char *path, const char *name, const struct fclib_matrix *a,
                             fc_triplets *t, ipcc_error *err) {
  memset(t, 0, sizeof *t);
  if (!a) return ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected a matrix %s", path, name);
  if (a->m <= 0 || a->n <= 0 || a->m > 100000000 || a->n > 100000000)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s: expected positive sizes, found %d x %d",
                         path, name, a->m, a->n);
  int nnz;
  if (a->nz >= 0) {
    nnz = a->nz;
  } else if (a->nz == -1 || a->nz == -2) {
    int np = a->nz == -2 ? a->m : a->n;
    if (!a->p)
      return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s: expected pointer array p", path, name);
    if (a->p[0] != 0)
      return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s: expected p[0] = 0, found %d", path, name,
                           a->p[0]);
    for (int k = 0; k < np; ++k)
      if (a->p[k + 1] < a->p[k])
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "%s: %s: expected non-decreasing p, p[%d] > p[%d]", path, name, k,
                             k + 1);
    nnz = a->p[np];
    if (nnz > a->nzmax)
      return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s: expected p[%d] <= nzmax = %d, found %d",
                           path, name, np, a->nzmax, nnz);
  } else {
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %s: expected nz >= 0 (triplets), -1 (CSC) or -2 (CSR), found %d",
                         path, name, a->nz);
  }
  if (nnz > 0 && (!a->i || !a->x || (a->nz >= 0 && !a->p)))
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s: expected arrays p, i, x", path, name);
  t->rows = a->m;
  t->cols = a->n;
  t->nnz = nnz;
  t->ri = IPC_NEW(int, nnz > 0 ? nnz : 1);
  t->ci = IPC_NEW(int, nnz > 0 ? nnz : 1);
  t->v = IPC_NEW(double, nnz > 0 ? nnz : 1);
  for (int k = 0; k < nnz; ++k) {
    t->v[k] = a->x[k];
    if (a->nz >= 0) {
      t->ri[k] = a->i[k];
      t->ci[k] = a->p[k];
    }
  }
  if (a->nz == -2) {
    for (int r = 0; r < a->m; ++r)
      for (int k = a->p[r]; k < a->p[r + 1]; ++k) {
        t->ri[k] = r;
        t->ci[k] = a->i[k];
      }
  } else if (a->nz == -1) {
    for (int c = 0; c < a->n; ++c)
      for (int k = a->p[c]; k < a->p[c + 1]; ++k) {
        t->ri[k] = a->i[k];
        t->ci[k] = c;
      }
  }
  for (int k = 0; k < nnz; ++k) {
    if (t->ri[k] < 0 || t->ri[k] >= t->rows || t->ci[k] < 0 || t->ci[k] >= t->cols) {
      ipcc_status s = ipc_error_set(err, IPCC_ERR_INPUT,
                                    "%s: %s: entry %d at (%d, %d) outside the %d x %d matrix", path,
                                    name, k, t->ri[k], t->ci[k], t->rows, t->cols);
      fc_triplets_free(t);
      return s;
    }
  }
  if (!all_finite(t->v, nnz)) {
    fc_triplets_free(t);
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s: expected finite values", path, name);
  }
  return IPCC_OK;
}

static ipcc_status fc_check_mu(const char *path, const double *mu, int nc, ipcc_error *err) {
  if (!mu) return ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected vector mu", path);
  for (int c = 0; c < nc; ++c)
    if (!isfinite(mu[c]) || mu[c] < 0.0)
      return ipc_error_set(err, IPCC_ERR_INPUT, "%s: mu[%d]: expected a finite value >= 0, got %g",
                           path, c, mu[c]);
  return IPCC_OK;
}

static ipcc_status fc_check_spacedim(const char *path, int spacedim, int m, ipcc_error *err) {
  if (spacedim != 3)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected spacedim 3, found %d", path, spacedim);
  if (m % 3 != 0)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: expected 3 contact coordinates per contact, found %d in all", path,
                         m);
  return IPCC_OK;
}

static ipcc_status fc_local(const char *path, const struct fclib_local *lp, ipc_fclib_problem *out,
                            ipcc_error *err) {
  if (lp->V || lp->R || lp->s)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected no V, R, s blocks (not supported)",
                         path);
  fc_triplets t;
  ipcc_status s = fc_expand(path, "W", lp->W, &t, err);
  if (s != IPCC_OK) return s;
  if (t.rows != t.cols) {
    s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: W: expected a square matrix, found %d x %d", path,
                      t.rows, t.cols);
  }
  if (s == IPCC_OK) s = fc_check_spacedim(path, lp->spacedim, t.rows, err);
  if (s == IPCC_OK && !lp->q) s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected vector q", path);
  if (s == IPCC_OK && !all_finite(lp->q, t.rows))
    s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: q: expected finite values", path);
  if (s == IPCC_OK) s = fc_check_mu(path, lp->mu, t.rows / 3, err);
  if (s == IPCC_OK)
    s = ipc_lcp_csr_from_triplets(&out->W, t.rows, t.cols, t.nnz, t.ri, t.ci, t.v, err);
  if (s == IPCC_OK) {
    out->kind = IPC_FCLIB_LOCAL;
    out->n = t.rows;
    out->ncontacts = t.rows / 3;
    out->q = IPC_NEW(double, out->n);
    memcpy(out->q, lp->q, sizeof(double) * (size_t)out->n);
    out->mu = IPC_NEW(double, out->ncontacts > 0 ? out->ncontacts : 1);
    memcpy(out->mu, lp->mu, sizeof(double) * (size_t)out->ncontacts);
  }
  fc_triplets_free(&t);
  return s;
}

/* dense column-major M (nd x nd) from its triplets; a matrix stored as one triangle only is
   mirrored, one with entries on both sides of the diagonal is summed as stored */
static void fc_dense_m(const fc_triplets *t, double *M) {
  int nd = t->rows, lower = 0, upper = 0;
  for (int k = 0; k < t->nnz; ++k) {
    lower += t->ri[k] > t->ci[k];
    upper += t->ri[k] < t->ci[k];
  }
  int mirror = lower == 0 || upper == 0;
  for (int k = 0; k < t->nnz; ++k) {
    int r = t->ri[k], c = t->ci[k];
    M[(size_t)c * (size_t)nd + (size_t)r] += t->v[k];
    if (mirror && r != c) M[(size_t)r * (size_t)nd + (size_t)c] += t->v[k];
  }
}

static ipcc_status fc_global(const char *path, const struct fclib_global *gp,
                             ipc_fclib_problem *out, ipcc_error *err) {
  if (gp->G || gp->b)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected no G, b blocks (not supported)", path);
  fc_triplets tm, th;
  memset(&th, 0, sizeof th);
  ipcc_status s = fc_expand(path, "M", gp->M, &tm, err);
  if (s != IPCC_OK) return s;
  s = fc_expand(path, "H", gp->H, &th, err);
  int nd = tm.rows, m = th.cols;
  if (s == IPCC_OK && tm.rows != tm.cols)
    s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: M: expected a square matrix, found %d x %d", path,
                      tm.rows, tm.cols);
  if (s == IPCC_OK && th.rows != nd)
    s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: H: expected %d rows (those of M), found %d", path,
                      nd, th.rows);
  if (s == IPCC_OK && (double)nd * (double)(nd + m) > 4e8)
    s = ipc_error_set(err, IPCC_ERR_INPUT,
                      "%s: expected at most a few thousand DOFs (dense reduction), found %d", path,
                      nd);
  if (s == IPCC_OK) s = fc_check_spacedim(path, gp->spacedim, m, err);
  if (s == IPCC_OK && (!gp->f || !gp->w))
    s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected vectors f and w", path);
  if (s == IPCC_OK && (!all_finite(gp->f, nd) || !all_finite(gp->w, m)))
    s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: f, w: expected finite values", path);
  if (s == IPCC_OK) s = fc_check_mu(path, gp->mu, m / 3, err);
  if (s != IPCC_OK) {
    fc_triplets_free(&tm);
    fc_triplets_free(&th);
    return s;
  }

  double *M = IPC_NEW0(double, (size_t)nd *(size_t)nd);
  fc_dense_m(&tm, M);
  /* X = [H | f] column-major, solved in place to M^-1 [H | f] */
  double *X = IPC_NEW0(double, (size_t)nd *(size_t)(m + 1));
  for (int k = 0; k < th.nnz; ++k) X[(size_t)th.ci[k] * (size_t)nd + (size_t)th.ri[k]] += th.v[k];
  memcpy(X + (size_t)m * (size_t)nd, gp->f, sizeof(double) * (size_t)nd);
  lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', nd, M, nd);
  if (info != 0) {
    s = ipc_error_set(err, IPCC_ERR_INPUT,
                      "%s: M: expected a symmetric positive definite matrix (Cholesky failed at "
                      "column %d)",
                      path, (int)info);
  } else {
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', nd, m + 1, M, nd, X, nd);
    /* W[a][b] = sum_k H[k][a] X[k][b], q[a] = sum_k H[k][a] X[k][m] + w[a]; H^T as CSR */
    ipc_lcp_csr ht;
    s = ipc_lcp_csr_from_triplets(&ht, m, nd, th.nnz, th.ci, th.ri, th.v, err);
    if (s == IPCC_OK) {
      double *W = IPC_NEW0(double, (size_t)m *(size_t)m);
      out->q = IPC_NEW(double, m);
      for (int a = 0; a < m; ++a) {
        double *wa = W + (size_t)a * (size_t)m;
        double qa = gp->w[a];
        for (int e = ht.rowptr[a]; e < ht.rowptr[a + 1]; ++e) {
          double h = ht.val[e];
          const double *xk = X + ht.col[e];
          for (int b = 0; b < m; ++b) wa[b] += h * xk[(size_t)b * (size_t)nd];
          qa += h * xk[(size_t)m * (size_t)nd];
        }
        out->q[a] = qa;
      }
      ipc_lcp_csr_from_dense(&out->W, m, m, W);
      ipc_free(W);
      ipc_lcp_csr_free(&ht);
      out->kind = IPC_FCLIB_GLOBAL;
      out->n = m;
      out->ncontacts = m / 3;
      out->ndof = nd;
      out->mu = IPC_NEW(double, out->ncontacts > 0 ? out->ncontacts : 1);
      memcpy(out->mu, gp->mu, sizeof(double) * (size_t)out->ncontacts);
    }
  }
  ipc_free(M);
  ipc_free(X);
  fc_triplets_free(&tm);
  fc_triplets_free(&th);
  return s;
}

/* libfclib 3.1.0's fclib_delete_* free the members but not the struct itself (calloc'ed by
   fclib_read_*); LeakSanitizer finds it */
static void fc_delete_local(struct fclib_local *lp) {
  if (!lp) return;
  fclib_delete_local(lp);
  free(lp);
}

static void fc_delete_global(struct fclib_global *gp) {
  if (!gp) return;
  fclib_delete_global(gp);
  free(gp);
}

/* elements of the scalar or one-dimensional dataset name in group g; -1 when it is missing
   or has another shape */
static long fc_extent(hid_t g, const char *name) {
  if (H5Lexists(g, name, H5P_DEFAULT) <= 0) return -1;
  hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
  if (d < 0) return -1;
  hid_t sp = H5Dget_space(d);
  int rank = sp < 0 ? -1 : H5Sget_simple_extent_ndims(sp);
  hsize_t dim = 1;
  if (rank == 1 && H5Sget_simple_extent_dims(sp, &dim, NULL) < 0) rank = -1;
  if (sp >= 0) H5Sclose(sp);
  H5Dclose(d);
  return rank == 0 || rank == 1 ? (long)dim : -1;
}

static int fc_int(hid_t g, const char *name, int *v) {
  if (fc_extent(g, name) != 1) return 0;
  hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
  herr_t r = H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Dclose(d);
  return r >= 0;
}

/* libfclib 3.1.0 allocates a matrix's arrays from its m, n, nz and nzmax and reads the
   datasets p, i, x whole into them (its own writer stores triplet x with nz entries, its
   reader allocates nzmax), and exits on an unknown nz. so the group name of the problem
   group is checked first: 0 when its arrays are not the lengths its sizes give */
static int fc_matrix_fits(hid_t problem, const char *name) {
  if (H5Lexists(problem, name, H5P_DEFAULT) <= 0) return 1;
  hid_t g = H5Gopen2(problem, name, H5P_DEFAULT);
  if (g < 0) return 0;
  int m, n, nz, nzmax;
  int ok = fc_int(g, "m", &m) && fc_int(g, "n", &n) && fc_int(g, "nz", &nz) &&
           fc_int(g, "nzmax", &nzmax) && m >= 0 && n >= 0 && nzmax >= 0 && nz >= -2;
  if (ok) {
    long np = nz >= 0 ? nz : (nz == -1 ? n : m) + 1L;
    long ni = nz >= 0 ? nz : nzmax, nx = fc_extent(g, "x");
    ok = fc_extent(g, "p") == np && fc_extent(g, "i") == ni && nx >= ni && nx <= nzmax;
  }
  H5Gclose(g);
  return ok;
}

/* 1 local, 0 global, -1 neither, -2 not an HDF5 file we can open, -3 a matrix whose
   arrays disagree with its sizes (its name in *bad) */
static int fc_probe(const char *path, const char **bad) {
  static const char *const local[] = {"W", "V", "R", NULL}, *const global[] = {"M", "H", "G", NULL};
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return -2;
  int kind = -1;
  if (H5Lexists(f, "fclib_local", H5P_DEFAULT) > 0)
    kind = 1;
  else if (H5Lexists(f, "fclib_global", H5P_DEFAULT) > 0)
    kind = 0;
  if (kind >= 0) {
    hid_t g = H5Gopen2(f, kind ? "fclib_local" : "fclib_global", H5P_DEFAULT);
    for (const char *const *m = kind ? local : global; *m && kind >= 0; ++m)
      if (g < 0 || !fc_matrix_fits(g, *m)) {
        *bad = *m;
        kind = -3;
      }
    if (g >= 0) H5Gclose(g);
  }
  H5Fclose(f);
  return kind;
}

ipcc_status ipc_fclib_read(const char *path, ipc_fclib_problem *out, ipcc_error *err) {
  memset(out, 0, sizeof *out);
  /* silence HDF5's automatic error stack printing while reading; restored below */
  H5E_auto2_t old_func = NULL;
  void *old_data = NULL;
  H5Eget_auto2(H5E_DEFAULT, &old_func, &old_data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  ipcc_status s = IPCC_OK;
  const char *bad = "";
  int kind = fc_probe(path, &bad);
  if (kind == -3) {
    s = ipc_error_set(err, IPCC_ERR_INPUT,
                      "%s: %s: expected arrays p, i, x of the lengths its m, n, nz, nzmax give",
                      path, bad);
  } else if (kind == -2) {
    /* say why the file cannot be read before blaming its format */
    FILE *f = fopen(path, "rb");
    if (!f)
      s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: %s", path, strerror(errno));
    else
      s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected a readable HDF5 file (FCLIB problem)",
                        path);
    if (f) fclose(f);
  } else if (kind == -1) {
    s = ipc_error_set(err, IPCC_ERR_INPUT,
                      "%s: expected a group /fclib_local or /fclib_global (FCLIB problem)", path);
  } else if (kind == 1) {
    struct fclib_local *lp = fclib_read_local(path);
    if (!lp)
      s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected a readable FCLIB local problem", path);
    else
      s = fc_local(path, lp, out, err);
    fc_delete_local(lp);
  } else {
    struct fclib_global *gp = fclib_read_global(path);
    if (!gp)
      s = ipc_error_set(err, IPCC_ERR_INPUT, "%s: expected a readable FCLIB global problem", path);
    else
      s = fc_global(path, gp, out, err);
    fc_delete_global(gp);
  }
  H5Eset_auto2(H5E_DEFAULT, old_func, old_data);
  if (s != IPCC_OK) ipc_fclib_problem_free(out);
  return s;
}

void ipc_fclib_problem_free(ipc_fclib_problem *p) {
  if (!p) return;
  ipc_lcp_csr_free(&p->W);
  ipc_free(p->q);
  ipc_free(p->mu);
  memset(p, 0, sizeof *p);
}

const char *ipc_fclib_kind_name(ipc_fclib_kind k) {
  return k == IPC_FCLIB_GLOBAL ? "global" : "local";
}

static double norm2(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k) s += x[k] * x[k];
  return sqrt(s);
}

ipc_fclib_residual ipc_fclib_residuals(const ipc_fclib_problem *p, const double *r, double *u) {
  int n = p->n;
  double *w = IPC_NEW(double, n > 0 ? n : 1);
  for (int a = 0; a < n; ++a) {
    double s = p->q[a];
    for (int e = p->W.rowptr[a]; e < p->W.rowptr[a + 1]; ++e) s += p->W.val[e] * r[p->W.col[e]];
    w[a] = s;
  }
  ipc_fclib_residual res;
  res.abs = ipc_lcp_cone_residual_zw(p->ncontacts, p->mu, r, w);
  double nq = norm2(p->q, n);
  double nmax = fmax(nq, fmax(norm2(r, n), norm2(w, n)));
  res.rel_q = nq > DBL_EPSILON ? res.abs / nq : res.abs;
  res.rel_max = nmax > DBL_EPSILON ? res.abs / nmax : res.abs;
  if (u) memcpy(u, w, sizeof(double) * (size_t)n);
  ipc_free(w);
  return res;
}
