/* the contact problem of one LCP step, region by region.
   Rows per contact: the normal n, then (box, cone) the tangents t1, t2, or (pyramid) the k
   directions d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2. Row i of J holds w_a dir_i^T in
   the columns of each vertex a of its contact that is not prescribed; prescribed vertices
   enter q only. q_i = J_i v* (all vertices) minus, on normal rows, the normal velocity the
   contact needs:
     r = -phi / h              (phi >= 0: the gap may close, not more: speculative contact)
     r = -baumgarte phi / h    (phi < 0: a fraction of the penetration is pushed out)
   with phi reduced by a skin (IPC_LCP_SKIN x the contact gap) for contacts between two
   meshes, whose normals turn during the step (the linearised constraint lets the pair
   close a little more than the gap; a plane's constraint is exact)
     r = max(r, -e v_n^-)      (restitution e, when the pair approaches faster than 2 |g| h
                                and will touch within the step; v_n^- the pre-step velocity)
   so w_n = J_n v - r >= 0 is non-penetration at the end of the step.
   Problems (z = impulses, N s):
     none:    LCP(W, q), W = J M^-1 J^T in Jacobian form (or explicit J A^-1 J^T);
     box:     BLCP with |z_t| <= mu z_n on t1 and t2 (bounds from the current z_n);
     cone:    the Coulomb disk |z_t| <= mu z_n by projection (cone.c);
     pyramid: Stewart-Trinkle LCP (Erleben's notes Sec. 1.6) in (z_n, beta_1..k, sigma):
                [W_nn  W_nd  0] [z_n ]   [q_n]
                [W_dn  W_dd  E] [beta] + [q_d]   >= 0, complementary to (z_n, beta, sigma) >= 0,
                [mu   -E^T   0] [sigma]  [ 0 ]
              sigma the sliding speed; not symmetric, zero diagonal: Lemke only.
   Regions (regions.c): contacts sharing a vertex with a free velocity (lumped), or a body
   (coupled, where A^-1 couples every vertex of a body), are solved together. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/matrix_market.h"
#include "lcp/cone.h"
#include "lcp/lcp.h"
#include "lcp/lcp_world_internal.h"
#include "lcp/regions.h"

static const double two_pi = 6.283185307179586;

/* direction of row j of contact c */
static void row_dir(const ipc_lcp_world *w, const ipc_lcp_contact *c, int j, double d[3]) {
  if (j == 0) {
    memcpy(d, c->n, 3 * sizeof(double));
  } else if (w->def.friction == IPCC_LCP_FRICTION_PYRAMID) {
    double a = two_pi * (j - 1) / w->def.pyramid_directions;
    double ca = cos(a), sa = sin(a);
    for (int k = 0; k < 3; ++k) d[k] = ca * c->t1[k] + sa * c->t2[k];
  } else {
    memcpy(d, j == 1 ? c->t1 : c->t2, 3 * sizeof(double));
  }
}

double ipc_lcp_required_normal_velocity(const ipc_lcp_world *w, const ipc_lcp_contact *c) {
  double h = w->h;
  /* between two meshes the normal turns during the step: aim at a skin, not at contact */
  double phi = c->nv > 1 ? c->phi - IPC_LCP_SKIN * w->gap : c->phi;
  double r = phi >= 0 ? -phi / h : -w->def.baumgarte * phi / h;
  if (w->def.restitution > 0) {
    double vn = 0; /* pre-step normal velocity */
    for (int a = 0; a < c->nv; ++a)
      for (int k = 0; k < 3; ++k) vn += c->w[a] * c->n[k] * w->s.v[3 * c->vert[a] + k];
    const double *g = w->m.params.gravity;
    double thr = 2 * h * sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (vn < -thr && phi + h * vn <= 0) r = fmax(r, -w->def.restitution * vn);
  }
  return r;
}

/* per-step workspace of the region solves */
typedef struct region_ws {
  int *tri_r, *tri_c;
  double *tri_v;
  size_t tri_cap;
  double *q, *lo, *hi, *mu, *ainv, *z, *Wd, *M, *qM, *zM, *col, *jtz;
  int *dep;
  /* affine bodies: those of the region (aff_list), the transposed affine part of J in
     coupled mode (12 rows per body of the region) and its J^T z (acol) */
  int *aff_list, *at_r, *at_c;
  double *at_v, *acol;
  size_t at_cap;
  size_t cap, capM, cap_dof;
} region_ws;

static void grow_d(double **p, size_t need) {
  *p = ipc_realloc(*p, sizeof(double) * (need + 1));
}

static void ws_reserve(region_ws *ws, size_t rows, size_t dofs, size_t nM) {
  if (rows > ws->cap) {
    ws->cap = rows;
    grow_d(&ws->q, rows);
    grow_d(&ws->lo, rows);
    grow_d(&ws->hi, rows);
    grow_d(&ws->mu, rows);
    grow_d(&ws->z, rows);
    ws->dep = ipc_realloc(ws->dep, sizeof(int) * (rows + 1));
  }
  /* allocated even for 0 free DOFs (contacts between fixed vertices only): memset(NULL, 0,
     0) is undefined */
  if (dofs > ws->cap_dof || !ws->col) {
    ws->cap_dof = dofs;
    grow_d(&ws->ainv, dofs);
    grow_d(&ws->col, dofs);
  }
  if (nM > ws->capM) {
    ws->capM = nM;
    grow_d(&ws->M, nM * nM);
    grow_d(&ws->Wd, nM * nM);
    grow_d(&ws->qM, nM);
    grow_d(&ws->zM, nM);
  }
}

static void ws_free(region_ws *ws) {
  ipc_free(ws->tri_r);
  ipc_free(ws->tri_c);
  ipc_free(ws->tri_v);
  double *a[] = {ws->q, ws->lo, ws->hi, ws->mu,  ws->ainv, ws->z,    ws->Wd,
                 ws->M, ws->qM, ws->zM, ws->col, ws->jtz,  ws->at_v, ws->acol};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; ++i) ipc_free(a[i]);
  ipc_free(ws->dep);
  ipc_free(ws->aff_list);
  ipc_free(ws->at_r);
  ipc_free(ws->at_c);
}

/* appends (r, c, v) to the triplet arrays (*tr, *tc, *tv) of capacity *cap holding *nt */
static void push_triplet(int **tr, int **tc, double **tv, size_t *cap, size_t *nt, int r, int c,
                         double v) {
  if (*nt + 1 > *cap) {
    *cap = *cap ? 2 * *cap : 256;
    *tr = ipc_realloc(*tr, sizeof(int) * *cap);
    *tc = ipc_realloc(*tc, sizeof(int) * *cap);
    *tv = ipc_realloc(*tv, sizeof(double) * *cap);
  }
  (*tr)[*nt] = r;
  (*tc)[*nt] = c;
  (*tv)[*nt] = v;
  ++*nt;
}

static void add_triplet(region_ws *ws, size_t *nt, int r, int c, double v) {
  push_triplet(&ws->tri_r, &ws->tri_c, &ws->tri_v, &ws->tri_cap, nt, r, c, v);
}

/* the affine columns of row `row` of one contact: d the row's direction, the contact's
   vertices on free affine bodies accumulated per body into g = sum w_k (w_i (x) d), mapped
   by L^-1 (lcp_affine.c) and added as 12 columns per body: in the local columns
   off + 12 aff_loc (lumped) or, transposed, into the coupled affine part (at_*) */
static void affine_row(const ipc_lcp_world *w, region_ws *ws, const ipc_lcp_contact *c, int row,
                       const double d[3], int coupled, int off, size_t *nt, size_t *nat) {
  int body[4], nb = 0;
  double g[4][12];
  for (int k = 0; k < c->nv; ++k) {
    int v = c->vert[k], a = w->rest.vert_aff ? w->rest.vert_aff[v] : -1;
    if (a < 0 || w->fixed[v]) continue;
    int s = 0;
    while (s < nb && body[s] != a) ++s;
    if (s == nb) {
      body[nb++] = a;
      memset(g[s], 0, sizeof g[s]);
    }
    double wt[4];
    ipc_rest_weights(&w->rest, &w->m, v, wt);
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 3; ++e) g[s][3 * j + e] += c->w[k] * wt[j] * d[e];
  }
  for (int s = 0; s < nb; ++s) {
    ipc_lcp_affine_forward(w, body[s], g[s]);
    int base = 12 * w->aff_loc[body[s]];
    for (int r = 0; r < 12; ++r) {
      if (g[s][r] == 0) continue;
      if (coupled)
        push_triplet(&ws->at_r, &ws->at_c, &ws->at_v, &ws->at_cap, nat, base + r, row, g[s][r]);
      else
        add_triplet(ws, nt, row, off + base + r, g[s][r]);
    }
  }
}

/* the region's affine bodies get their local index -1 back */
static void affine_release(ipc_lcp_world *w, const region_ws *ws, int naloc) {
  for (int al = 0; al < naloc; ++al) w->aff_loc[ws->aff_list[al]] = -1;
}

/* W += Ja Ja^T from the transposed affine part JaT (rows: affine columns) */
static void add_affine_w(const ipc_lcp_csr *JaT, int n, double *W) {
  for (int c = 0; c < JaT->nrows; ++c)
    for (int p = JaT->rowptr[c]; p < JaT->rowptr[c + 1]; ++p) {
      double vp = JaT->val[p];
      double *Wr = W + (size_t)JaT->col[p] * n;
      for (int q = JaT->rowptr[c]; q < JaT->rowptr[c + 1]; ++q) Wr[JaT->col[q]] += vp * JaT->val[q];
    }
}

/* writes the region's LCP (W, q) into the dump folder; IPCC_ERR_INPUT naming the file when
   a write fails */
static ipcc_status dump_region(const ipc_lcp_world *w, int region, int n, const double *W,
                               const double *q, ipcc_error *err) {
  if (!w->dump_dir) return IPCC_OK;
  size_t len = strlen(w->dump_dir) + 64;
  char *path = IPC_NEW(char, len);
  snprintf(path, len, "%s/step%06d_region%04d_M.mtx", w->dump_dir, w->s.step + 1, region);
  ipcc_status s = ipc_mm_write_array(path, n, n, W, err);
  if (s == IPCC_OK) {
    snprintf(path, len, "%s/step%06d_region%04d_q.mtx", w->dump_dir, w->s.step + 1, region);
    s = ipc_mm_write_array(path, n, 1, q, err);
  }
  ipc_free(path);
  return s == IPCC_OK ? IPCC_OK : IPCC_ERR_INPUT;
}

static void record(ipcc_lcp_step_stats *st, int ncontacts, const ipc_lcp_result *res, int ok) {
  st->regions++;
  if (ncontacts > st->region_max) st->region_max = ncontacts;
  int b = ncontacts <= 1     ? 0
          : ncontacts <= 4   ? 1
          : ncontacts <= 16  ? 2
          : ncontacts <= 64  ? 3
          : ncontacts <= 256 ? 4
                             : 5;
  st->region_hist[b]++;
  st->lcp_iterations += res->iterations;
  if (!ok) st->unconverged++;
  if (res->residual > st->residual) st->residual = res->residual;
  if (res->rel_residual > st->rel_residual) st->rel_residual = res->rel_residual;
}

/* a (block, row) pair of the coupled W build */
typedef struct block_row {
  int block, row;
} block_row;

static int block_row_cmp(const void *pa, const void *pb) {
  const block_row *a = pa, *b = pb;
  if (a->block != b->block) return a->block < b->block ? -1 : 1;
  return (a->row > b->row) - (a->row < b->row);
}

/* the block (body) of reduced DOF r: r0 sorted, r0[0] = 0 */
static int block_of(const ipc_lcp_body_factors *bf, int r) {
  int lo = 0, hi = bf->nb - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (bf->r0[mid] <= r)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* W = J A^-1 J^T (dense, n x n) with the per-body factors: A^-1 is block diagonal, so
   W_ri = sum over the bodies b both rows touch of J_r,b A_b^-1 J_i,b^T; one block solve per
   (row, body) pair, the size of that body's block. 0 when a solve failed. */
static int coupled_w_blocks(const ipc_lcp_world *w, region_ws *ws, const ipc_lcp_csr *J, int n,
                            double *W) {
  const ipc_lcp_body_factors *bf = &w->bf;
  memset(W, 0, sizeof(double) * (size_t)n * n);
  block_row *pr = IPC_NEW(block_row, 4 * (size_t)n + 1);
  size_t np = 0;
  for (int i = 0; i < n; ++i) {
    size_t first = np;
    for (int k = J->rowptr[i]; k < J->rowptr[i + 1]; ++k) {
      int b = block_of(bf, J->col[k]), seen = 0;
      for (size_t q = first; q < np; ++q) seen |= pr[q].block == b;
      if (!seen) pr[np++] = (block_row){b, i};
    }
  }
  qsort(pr, np, sizeof *pr, block_row_cmp);
  int ok = 1;
  for (size_t g = 0; g < np && ok;) {
    size_t ge = g;
    while (ge < np && pr[ge].block == pr[g].block) ++ge;
    int b = pr[g].block, a = bf->r0[b], e = bf->r0[b + 1];
    double *col = ws->col;
    for (size_t q = g; q < ge && ok; ++q) {
      int i = pr[q].row;
      memset(col, 0, sizeof(double) * (size_t)(e - a));
      for (int k = J->rowptr[i]; k < J->rowptr[i + 1]; ++k)
        if (J->col[k] >= a && J->col[k] < e) col[J->col[k] - a] += J->val[k];
      if (ipc_lcp_body_factors_solve_block(bf, b, col) != IPC_FACTOR_OK) {
        ok = 0;
        break;
      }
      for (size_t t = g; t < ge; ++t) {
        int r = pr[t].row;
        double sum = 0;
        for (int k = J->rowptr[r]; k < J->rowptr[r + 1]; ++k)
          if (J->col[k] >= a && J->col[k] < e) sum += J->val[k] * col[J->col[k] - a];
        W[(size_t)r * n + i] += sum;
      }
    }
    g = ge;
  }
  ipc_free(pr);
  return ok;
}

/* solves the region of contacts idx[0..nc-1]; z (nc x R, warm start in, impulses out).
   keep: z is the solution already (a region an added point did not reach): only its impulses
   are applied, and *out (its last solve's result) recorded; else solved to the relative
   residual tol */
static ipcc_status solve_region(ipc_lcp_world *w, region_ws *ws, int region, const int *idx, int nc,
                                double *z, int keep, double tol, ipc_lcp_region_result *out,
                                ipcc_lcp_step_stats *st, ipcc_error *err) {
  const ipc_model *m = &w->m;
  const int R = ipc_lcp_world_rows(w);
  const int nrows = nc * R;
  /* a region of affine bodies alone (and prescribed vertices) has W = J' J'^T in either
     coupling (lcp_affine.c): it keeps the Jacobian form instead of the dense coupled W
     (10,118 rows of affine balls: 0.8 GB and most of a step's time) */
  int ndef = 0;
  for (int a = 0; a < nc && !ndef; ++a) {
    const ipc_lcp_contact *c = &w->active->c[idx[a]];
    for (int k = 0; k < c->nv; ++k)
      ndef |= !w->fixed[c->vert[k]] && !(w->rest.vert_aff && w->rest.vert_aff[c->vert[k]] >= 0);
  }
  const int coupled = w->def.coupling == IPCC_LCP_COUPLED && ndef;
  const int *dofmap = coupled ? ipc_sparse_dof_map(w->asm_) : NULL;
  int nf = coupled ? ipc_sparse_num_free(w->asm_) : 0;
  /* local DOFs (lumped): free vertices in order of appearance; affine bodies (both
     couplings): 12 columns each after them, in order of appearance */
  int nloc = 0, naloc = 0;
  for (int a = 0; a < nc; ++a) {
    const ipc_lcp_contact *c = &w->active->c[idx[a]];
    for (int k = 0; k < c->nv; ++k) {
      int v = c->vert[k], af = w->rest.vert_aff ? w->rest.vert_aff[v] : -1;
      if (w->fixed[v]) continue;
      if (af >= 0) {
        if (w->aff_loc[af] < 0) {
          w->aff_loc[af] = naloc;
          ws->aff_list[naloc++] = af;
        }
      } else if (!coupled && w->loc[v] < 0) {
        w->loc[v] = nloc++;
      }
    }
  }
  int ncols = coupled ? nf : 3 * nloc + 12 * naloc;
  int nM = w->def.friction == IPCC_LCP_FRICTION_PYRAMID ? nc * (R + 1) : nrows;
  ws_reserve(ws, (size_t)nrows, (size_t)ncols,
             (coupled || w->def.dump_dir || w->def.friction == IPCC_LCP_FRICTION_PYRAMID)
                 ? (size_t)nM
                 : 0);
  size_t nt = 0, nat = 0;
  for (int a = 0; a < nc; ++a) {
    const ipc_lcp_contact *c = &w->active->c[idx[a]];
    /* a projection asks for the gap alone: no v*, the whole penetration (projection.c) */
    double rn = w->projecting ? -c->phi / w->h : ipc_lcp_required_normal_velocity(w, c);
    for (int j = 0; j < R; ++j) {
      int row = a * R + j;
      double d[3], qi = 0;
      row_dir(w, c, j, d);
      for (int k = 0; k < c->nv; ++k) {
        int v = c->vert[k];
        int af = w->rest.vert_aff ? w->rest.vert_aff[v] : -1;
        for (int e = 0; e < 3; ++e) {
          double coef = c->w[k] * d[e];
          if (!w->projecting) qi += coef * w->vstar[3 * v + e];
          if (w->fixed[v] || coef == 0 || af >= 0) continue;
          int col = coupled ? dofmap[3 * v + e] : 3 * w->loc[v] + e;
          if (col >= 0) add_triplet(ws, &nt, row, col, coef);
        }
      }
      if (naloc > 0) affine_row(w, ws, c, row, d, coupled, 3 * nloc, &nt, &nat);
      ws->q[row] = j == 0 ? qi - rn : qi;
      ws->lo[row] = j == 0 ? 0 : -c->mu;
      ws->hi[row] = j == 0 ? INFINITY : c->mu;
      ws->dep[row] = j == 0 ? -1 : a * R;
    }
    ws->mu[a] = c->mu;
  }
  for (int a = 0; a < nc && !coupled; ++a) {
    const ipc_lcp_contact *c = &w->active->c[idx[a]];
    for (int k = 0; k < c->nv; ++k) {
      int v = c->vert[k];
      if (w->loc[v] >= 0)
        for (int e = 0; e < 3; ++e) ws->ainv[3 * w->loc[v] + e] = 1.0 / m->mass[v];
    }
  }
  for (int k = 3 * nloc; k < ncols && !coupled; ++k) ws->ainv[k] = 1.0; /* affine: L^-1 in J */
  ipc_lcp_csr JaT = {0}; /* coupled: the affine part of J, transposed */
  if (coupled && naloc > 0)
    ipc_lcp_csr_from_triplets(&JaT, 12 * naloc, nrows, (int)nat, ws->at_r, ws->at_c, ws->at_v,
                              NULL);
  ipc_lcp_csr J = {0}, Mx = {0};
  ipc_lcp_csr_from_triplets(&J, nrows, ncols, (int)nt, ws->tri_r, ws->tri_c, ws->tri_v, NULL);
  ipc_lcp_problem p;
  memset(&p, 0, sizeof p);
  p.n = nrows;
  p.q = ws->q;
  double *W = ws->Wd; /* dense W of the J rows when needed */
  if (keep) {
    /* no W: the impulses are known */
  } else if (coupled && w->use_bf) {
    if (!coupled_w_blocks(w, ws, &J, nrows, W)) {
      ipc_lcp_csr_free(&J);
      ipc_lcp_csr_free(&JaT);
      affine_release(w, ws, naloc);
      return ipc_error_set(err, IPCC_ERR_SIM, "step %d: A^-1 J^T could not be solved",
                           w->s.step + 1);
    }
  } else if (coupled) {
    /* W = J A^-1 J^T: one solve per row; 0 when no DOF is free (the factor is empty) */
    if (nf == 0) memset(W, 0, sizeof(double) * (size_t)nrows * (size_t)nrows);
    for (int i = 0; i < nrows && nf > 0; ++i) {
      memset(ws->col, 0, sizeof(double) * (size_t)nf);
      for (int k = J.rowptr[i]; k < J.rowptr[i + 1]; ++k) ws->col[J.col[k]] += J.val[k];
      if (ipc_cholmod_solve(w->chol, ws->col, ws->col) != IPC_FACTOR_OK) {
        ipc_lcp_csr_free(&J);
        ipc_lcp_csr_free(&JaT);
        affine_release(w, ws, naloc);
        return ipc_error_set(err, IPCC_ERR_SIM, "step %d: A^-1 J^T could not be solved",
                             w->s.step + 1);
      }
      for (int r = 0; r < nrows; ++r) {
        double s = 0;
        for (int k = J.rowptr[r]; k < J.rowptr[r + 1]; ++k) s += J.val[k] * ws->col[J.col[k]];
        W[(size_t)r * nrows + i] = s;
      }
    }
  }
  if (keep) {
    /* nothing to solve */
  } else if (coupled) {
    add_affine_w(&JaT, nrows, W);
    for (int r = 0; r < nrows; ++r) /* symmetrise round-off */
      for (int i = r + 1; i < nrows; ++i) {
        double s = 0.5 * (W[(size_t)r * nrows + i] + W[(size_t)i * nrows + r]);
        W[(size_t)r * nrows + i] = W[(size_t)i * nrows + r] = s;
      }
    ipc_lcp_csr_from_dense(&Mx, nrows, nrows, W);
    p.M = &Mx;
  } else {
    p.J = &J;
    p.ainv_block = 1;
    p.ainv = ws->ainv;
    if (w->def.dump_dir || w->def.friction == IPCC_LCP_FRICTION_PYRAMID) ipc_lcp_dense(&p, W);
  }
  ipc_lcp_options o = ipc_lcp_default_options();
  o.solver = (ipc_lcp_solver)w->def.solver;
  o.tol = tol;
  o.max_iter = w->def.max_iter;
  o.omega = w->def.omega;
  o.check_every = IPC_LCP_CHECK_EVERY;
  o.z0 = z;
  ipc_lcp_result res;
  memset(&res, 0, sizeof res);
  ipcc_status s = IPCC_OK;
  int converged = 1;
  if (keep) {
    res.residual = out->residual;
    res.rel_residual = out->rel_residual;
    converged = out->converged;
  } else if (w->def.friction == IPCC_LCP_FRICTION_PYRAMID) {
    /* Stewart-Trinkle LCP, per contact (z_n, beta_1..k, sigma) */
    const int B = R + 1;
    double *M = ws->M;
    memset(M, 0, sizeof(double) * (size_t)nM * nM);
    for (int a = 0; a < nc; ++a)
      for (int i = 0; i < R; ++i) {
        int ri = a * B + i;
        for (int b2 = 0; b2 < nc; ++b2)
          for (int j = 0; j < R; ++j)
            M[(size_t)ri * nM + b2 * B + j] = W[(size_t)(a * R + i) * nrows + b2 * R + j];
        ws->qM[ri] = ws->q[a * R + i];
        if (i > 0) {
          M[(size_t)ri * nM + a * B + R] = 1;
          M[(size_t)(a * B + R) * nM + ri] = -1;
        }
      }
    for (int a = 0; a < nc; ++a) {
      M[(size_t)(a * B + R) * nM + a * B] = ws->mu[a];
      ws->qM[a * B + R] = 0;
    }
    ipc_lcp_csr Mp = {0};
    ipc_lcp_csr_from_dense(&Mp, nM, nM, M);
    ipc_lcp_problem pp;
    memset(&pp, 0, sizeof pp);
    pp.n = nM;
    pp.M = &Mp;
    pp.q = ws->qM;
    o.z0 = NULL;
    s = ipc_lcp_solve(&pp, &o, ws->zM, &res, err);
    if (s != IPCC_ERR_INPUT && dump_region(w, region, nM, M, ws->qM, err) != IPCC_OK)
      s = IPCC_ERR_INPUT;
    for (int a = 0; a < nc; ++a)
      for (int i = 0; i < R; ++i) z[a * R + i] = ws->zM[a * B + i];
    ipc_lcp_csr_free(&Mp);
  } else {
    if (w->def.friction == IPCC_LCP_FRICTION_BOX) {
      p.lo = ws->lo;
      p.hi = ws->hi;
      p.dep = ws->dep;
    }
    if (w->def.dump_dir && dump_region(w, region, nrows, W, ws->q, err) != IPCC_OK)
      s = IPCC_ERR_INPUT;
    else if (w->def.friction == IPCC_LCP_FRICTION_CONE)
      s = ipc_lcp_cone_solve(&p, ws->mu, &o, z, &res, err);
    else
      s = ipc_lcp_solve(&p, &o, z, &res, err);
  }
  if (s == IPCC_ERR_INPUT) {
    ipc_lcp_csr_free(&J);
    ipc_lcp_csr_free(&JaT);
    affine_release(w, ws, naloc);
    ipc_lcp_csr_free(&Mx);
    return s;
  }
  /* against the world's tolerance (a region solved again stops at its first solve's) */
  if (s != IPCC_OK || (!keep && !(res.rel_residual <= w->def.tol))) converged = 0;
  record(st, nc, &res, converged);
  out->residual = res.residual;
  out->rel_residual = res.rel_residual;
  out->converged = converged;
  for (int i = 0; i < nrows; ++i)
    if (!isfinite(z[i])) {
      ipc_lcp_csr_free(&J);
      ipc_lcp_csr_free(&JaT);
      affine_release(w, ws, naloc);
      ipc_lcp_csr_free(&Mx);
      return ipc_error_set(err, IPCC_ERR_SIM, "step %d: contact impulses are not finite",
                           w->s.step + 1);
    }
  /* affine bodies: qdot += L^-T (L^-1 J_a^T) z */
  if (coupled)
    for (int r = 0; r < JaT.nrows; ++r) {
      double sum = 0;
      for (int k = JaT.rowptr[r]; k < JaT.rowptr[r + 1]; ++k) sum += JaT.val[k] * z[JaT.col[k]];
      ws->acol[r] = sum;
    }
  ipc_lcp_csr_free(&JaT);
  /* impulses into velocity changes: dv += M^-1 J^T z, or collect J^T z for A^-1 */
  if (!coupled) memset(ws->col, 0, sizeof(double) * (size_t)ncols);
  for (int i = 0; i < nrows; ++i) {
    if (z[i] == 0) continue;
    for (int k = J.rowptr[i]; k < J.rowptr[i + 1]; ++k) {
      double f = J.val[k] * z[i];
      if (coupled)
        ws->jtz[J.col[k]] += f;
      else
        ws->col[J.col[k]] += f;
    }
  }
  if (!coupled) {
    for (int a = 0; a < nc; ++a) {
      const ipc_lcp_contact *c = &w->active->c[idx[a]];
      for (int k = 0; k < c->nv; ++k) {
        int v = c->vert[k];
        int l = w->loc[v];
        if (l < 0) continue;
        for (int e = 0; e < 3; ++e) {
          w->dv[3 * v + e] += ws->ainv[3 * l + e] * ws->col[3 * l + e];
          ws->col[3 * l + e] = 0;
        }
        w->loc[v] = -1;
      }
    }
  }
  for (int al = 0; al < naloc; ++al) {
    int af = ws->aff_list[al];
    double *y = coupled ? ws->acol + 12 * al : ws->col + 3 * nloc + 12 * al;
    ipc_lcp_affine_backward(w, af, y);
    for (int r = 0; r < 12; ++r) w->adqd[12 * (size_t)af + r] += y[r];
    w->aff_loc[af] = -1;
  }
  ipc_lcp_csr_free(&J);
  ipc_lcp_csr_free(&Mx);
  return IPCC_OK;
}

/* counting sort of the contacts by region: order[start[r] .. start[r+1]-1] */
static void group(int nc, int nreg, const int *region, int *start, int *order) {
  for (int r = 0; r <= nreg; ++r) start[r] = 0;
  for (int c = 0; c < nc; ++c) start[region[c] + 1]++;
  for (int r = 0; r < nreg; ++r) start[r + 1] += start[r];
  int *fill = IPC_NEW(int, nreg + 1);
  memcpy(fill, start, sizeof(int) * (size_t)nreg);
  for (int c = 0; c < nc; ++c) order[fill[region[c]]++] = c;
  ipc_free(fill);
}

ipcc_status ipc_lcp_world_solve_pass(ipc_lcp_world *w, int all, ipcc_lcp_step_stats *st,
                                     ipcc_error *err) {
  const ipc_model *m = &w->m;
  const int nc = (int)w->active->n, R = ipc_lcp_world_rows(w);
  const int coupled = w->def.coupling == IPCC_LCP_COUPLED;
  if (w->rest.naff > 0) memset(w->adqd, 0, 12 * (size_t)w->rest.naff * sizeof(double));
  memset(w->dv, 0, 3 * (size_t)m->nverts * sizeof(double));
  if (all) {
    ipc_reserve((void **)&w->cres, &w->cres_cap, (size_t)nc + 1, sizeof *w->cres);
    memset(w->cres, 0, sizeof *w->cres * ((size_t)nc + 1));
  }
  /* the statistics of the last pass's regions; its iterations add up */
  st->regions = st->region_max = st->unconverged = 0;
  memset(st->region_hist, 0, sizeof st->region_hist);
  st->residual = st->rel_residual = 0;
  ipcc_status s = IPCC_OK;
  if (nc > 0) {
    /* regions */
    int *kptr = IPC_NEW(int, nc + 1), *keys = IPC_NEW(int, 4 * (size_t)nc + 1);
    int *region = IPC_NEW(int, nc + 1), *order = IPC_NEW(int, nc + 1);
    int nkeys = coupled ? m->nbodies : m->nverts;
    int *scratch = IPC_NEW(int, nkeys + 1);
    kptr[0] = 0;
    for (int c = 0; c < nc; ++c) {
      const ipc_lcp_contact *ct = &w->active->c[c];
      int base = kptr[c];
      for (int k = 0; k < ct->nv; ++k) {
        int v = ct->vert[k];
        /* lumped: an affine body's vertices share one key, its first vertex */
        int af = w->rest.vert_aff ? w->rest.vert_aff[v] : -1;
        keys[base + k] = w->fixed[v] ? -1
                         : coupled   ? m->surface.vert_body[v]
                         : af >= 0   ? m->bodies[w->rest.aff_body[af]].v0
                                     : v;
      }
      kptr[c + 1] = base + ct->nv;
    }
    int nreg;
    if (w->def.split_regions) {
      nreg = ipc_lcp_regions(nc, kptr, keys, nkeys, scratch, region);
    } else {
      nreg = 1;
      memset(region, 0, sizeof(int) * (size_t)nc);
    }
    int *start = IPC_NEW(int, nreg + 1);
    group(nc, nreg, region, start, order);
    region_ws ws;
    memset(&ws, 0, sizeof ws);
    if (coupled) ws.jtz = IPC_NEW0(double, ipc_sparse_num_free(w->asm_) + 1);
    ws.aff_list = IPC_NEW(int, w->rest.naff + 1);
    ws.acol = IPC_NEW(double, 12 * (size_t)w->rest.naff + 1);
    double *zr = IPC_NEW(double, (size_t)nc *R + 1);
    for (int r = 0; r < nreg && s == IPCC_OK; ++r) {
      int cnt = start[r + 1] - start[r];
      const int *idx = order + start[r];
      /* a contact with no free vertex (two prescribed motions meeting) links nothing, so it is
         a region of its own: no impulse can change it (W = 0), and it is left out with z = 0
         (the step reports it as prescribed_overlap when the surfaces overlap) */
      int linked = 0;
      for (int k = kptr[idx[0]]; k < kptr[idx[0] + 1]; ++k) linked |= keys[k] >= 0;
      if (cnt == 1 && !linked) {
        memset(w->z + (size_t)idx[0] * R, 0, sizeof(double) * (size_t)R);
        continue;
      }
      for (int a = 0; a < cnt; ++a)
        memcpy(zr + (size_t)a * R, w->z + (size_t)idx[a] * R, sizeof(double) * (size_t)R);
      /* after the first solve, a region without an added point holds its solution; one with
         is solved again from it to the residual its first solve reached (a region that
         stopped at the sweep cap would spend the whole cap again) */
      int fresh = all;
      double tol = w->def.tol;
      ipc_lcp_region_result rr = w->cres[idx[0]];
      for (int a = 0; a < cnt; ++a) {
        const ipc_lcp_region_result *c = &w->cres[idx[a]];
        fresh |= c->fresh;
        if (!c->fresh) tol = fmax(tol, c->rel_residual), rr = *c;
      }
      s = solve_region(w, &ws, r, idx, cnt, zr, !fresh, all ? w->def.tol : tol, &rr, st, err);
      for (int a = 0; a < cnt; ++a) {
        memcpy(w->z + (size_t)idx[a] * R, zr + (size_t)a * R, sizeof(double) * (size_t)R);
        w->cres[idx[a]] = rr;
        w->cres[idx[a]].fresh = 0;
      }
    }
    if (coupled && s == IPCC_OK && ipc_sparse_num_free(w->asm_) > 0) {
      if ((w->use_bf ? ipc_lcp_body_factors_solve(&w->bf, ws.jtz)
                     : ipc_cholmod_solve(w->chol, ws.jtz, ws.jtz)) != IPC_FACTOR_OK)
        s = ipc_error_set(err, IPCC_ERR_SIM, "step %d: A^-1 J^T z could not be solved",
                          w->s.step + 1);
      else
        ipc_sparse_scatter(w->asm_, ws.jtz, w->dv);
    }
    ipc_free(zr);
    ws_free(&ws);
    ipc_free(start);
    ipc_free(kptr);
    ipc_free(keys);
    ipc_free(region);
    ipc_free(order);
    ipc_free(scratch);
  }
  return s;
}

ipcc_status ipc_lcp_world_solve_contacts(ipc_lcp_world *w, ipcc_lcp_step_stats *st,
                                         ipcc_error *err) {
  const int R = ipc_lcp_world_rows(w);
  size_t nc = w->active->n;
  ipc_reserve((void **)&w->z, &w->z_cap, nc * R + 1, sizeof(double));
  memset(w->z, 0, sizeof(double) * (nc * R + 1));
  /* warm start: merge with the previous step's contacts (both sorted by key) */
  if (w->def.warm_start && w->prev_n > 0 && nc > 0) {
    size_t j = 0;
    for (size_t c = 0; c < nc; ++c) {
      const unsigned long long *k = w->active->c[c].key;
      while (j < w->prev_n && ipc_lcp_key_cmp(w->prev_key + 3 * j, k) < 0) ++j;
      if (j < w->prev_n && ipc_lcp_key_cmp(w->prev_key + 3 * j, k) == 0)
        memcpy(w->z + c * R, w->prev_z + j * R, sizeof(double) * (size_t)R);
    }
  }
  /* the manifolds' solution, then again with the dropped points it would let through (their
     impulses 0, the others' from the last pass) until none is */
  w->activated = 0;
  w->activation_rounds = 0;
  ipcc_status s = ipc_lcp_world_solve_pass(w, 1, st, err);
  for (int round = 0; s == IPCC_OK && round < IPC_LCP_ACTIVATION_ROUNDS; ++round) {
    size_t added = ipc_lcp_world_activate(w);
    if (added == 0) break;
    w->activated += added;
    w->activation_rounds++;
    s = ipc_lcp_world_solve_pass(w, 0, st, err);
  }
  nc = w->active->n;
  /* keep this step's impulses for the next warm start */
  w->prev_n = nc;
  ipc_reserve((void **)&w->prev_key, &w->prev_cap_key, 3 * (size_t)nc + 1,
              sizeof(unsigned long long));
  ipc_reserve((void **)&w->prev_z, &w->prev_cap_z, (size_t)nc * R + 1, sizeof(double));
  for (size_t c = 0; c < nc; ++c)
    memcpy(w->prev_key + 3 * c, w->active->c[c].key, sizeof(unsigned long long) * 3);
  memcpy(w->prev_z, w->z, sizeof(double) * (size_t)nc * R);
  return s;
}
