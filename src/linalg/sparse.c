/* symmetric block-sparse assembly into upper-triangular CSC over free DOFs
 *
 * Layout. The pattern is kept at two levels. The block level is a CSC over vertices: block
 * column v lists the row vertices u <= v that couple to v, sorted, the diagonal block last.
 * The scalar level is the CSC over free DOFs that solvers see. Because free DOFs are
 * numbered vertex by vertex, each scalar column of vertex v holds the blocks of block column
 * v in the same order, each block contributing its free rows contiguously. So a block has
 * one "slot" (the number of free rows of the blocks before it in its column), and entry
 * (row DOF r of u, column DOF c of v) lives at
 *     vcol[3v + c] + slot + rrank[3u + r]
 * with vcol the start of the scalar column and rrank the rank of r among u's free DOFs.
 *
 * Fast path. Element sets (tets) have a fixed block pattern computed once; each element
 * stores its vertices sorted by id and, per vertex pair, the index of its block in the fixed
 * pattern and its current slot. Adding an element is then a pure scatter. Other adds
 * (contacts) binary-search their block in the column (a handful of entries). A block that
 * is missing is queued with its values; finish then rebuilds the pattern once (two counting
 * sorts of the new keys, a merge per column), moves the values already summed into the new
 * layout, adds the queued blocks and refreshes the element slots, in O(nnz + elements). */
#include "linalg/sparse.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

#include "core/alloc.h"

#define STAMP_FIXED 0 /* stamp of blocks that come from element sets */

typedef struct elem_set {
  int ne, nv, npair;   /* npair = nv (nv - 1) / 2 */
  int *ids;            /* (ne x nv) global vertex ids */
  unsigned char *perm; /* (ne x nv) local indices in increasing global id */
  int *fblock;         /* (ne x npair) index of each pair's block in the fixed pattern */
  int *slot;           /* (ne x npair) slot of that block in the current pattern */
} elem_set;

/* one pattern (two are kept: the current one and the one a rebuild writes) */
typedef struct pattern {
  int nb;       /* blocks */
  int *bcolptr; /* (nverts + 1) */
  int *brow;    /* (nb) row vertex of each block */
  int *bslot;   /* (nb) slot of each block */
  int *bstamp;  /* (nb) STAMP_FIXED, or the last assembly that used this dynamic block */
  size_t cap_nb;
  int *dslot;    /* (nverts) slot of the diagonal block */
  int *vcol;     /* (nverts x 3) start of the scalar column of each free DOF, -1 if fixed */
  int lead_done; /* the first lead_done vertices are written as lone fixed diagonals */
  int nnz;
  int *colptr; /* (nfree + 1) */
  int *rowind; /* (nnz) */
  double *val; /* (nnz) */
  size_t cap_nnz;
} pattern;

struct ipc_sparse {
  int nverts;
  ipc_sparse_policy policy;

  /* DOF mask */
  int nfree;
  unsigned char *mask; /* (nverts x 3) the mask last set, as given (NULL: all zero) */
  int *vfree;          /* (nverts + 1) free DOFs before each vertex */
  signed char *rrank;  /* (nverts x 3) rank of a DOF among its vertex's free DOFs, -1 fixed */
  unsigned char *nfv;  /* (nverts) free DOFs per vertex */
  int *dofmap;         /* (nverts x 3) reduced index, -1 fixed */

  /* element sets and their union block pattern (upper, diagonal last in each column) */
  elem_set *sets;
  int nsets;
  int *fcolptr; /* (nverts + 1) */
  int *frow;    /* (nfb) */
  int nfb;
  int *fslot; /* (nfb) slot of each fixed block in the current pattern */

  pattern pat[2];
  int cur; /* index of the current pattern */
  /* the leading vertices with every DOF fixed and no fixed block but their diagonal (an
     affine body's real vertices, numbered before its pseudo-vertices): no block of theirs
     changes, so a rebuild writes them once per pattern and then starts after them */
  int lead;

  /* assembly state */
  bool assembling;
  bool changed;  /* a rebuild happened since the last finish */
  int stamp;     /* current assembly, > STAMP_FIXED */
  int ndyn;      /* dynamic blocks in the current pattern */
  int ndyn_used; /* of them, used in this assembly */
  int rebuilds;

  /* queued blocks outside the pattern: (row vertex, col vertex), 3x3 row-major values */
  int npend;
  int *pkey;    /* (npend x 2) */
  double *pval; /* (npend x 9) */
  size_t cap_pkey, cap_pval;

  /* rebuild scratch */
  int *kcount; /* (nverts + 1) */
  int *krow, *kcol, *krow2, *kcol2;
  size_t cap_k, cap_k2, cap_kr, cap_kc;
};

/* ---------- small helpers ---------- */

/* index of block row `row` in brow[lo, hi), or -1 */
static inline int find_row(const int *brow, int lo, int hi, int row) {
  while (hi - lo > 8) {
    int mid = lo + (hi - lo) / 2;
    if (brow[mid] <= row)
      lo = mid;
    else
      hi = mid;
  }
  for (int k = lo; k < hi; ++k) {
    if (brow[k] == row) return k;
    if (brow[k] > row) break;
  }
  return -1;
}

/* adds the 3x3 block Hb (leading dimension ld) to the off-diagonal block at slot of column
 * vertex with column starts vc[3] and row vertex with row ranks rr[3] */
static inline void scatter_off(double *val, const int *vc, int slot, const signed char *rr,
                               const double *Hb, int ld) {
  for (int c = 0; c < 3; ++c) {
    if (vc[c] < 0) continue;
    double *dst = val + vc[c] + slot;
    for (int r = 0; r < 3; ++r)
      if (rr[r] >= 0) dst[rr[r]] += Hb[r * ld + c];
  }
}

/* same for a vertex pair with all six DOFs free */
static inline void scatter_off_full(double *val, const int *vc, int slot, const double *Hb,
                                    int ld) {
  for (int c = 0; c < 3; ++c) {
    double *dst = val + vc[c] + slot;
    dst[0] += Hb[c];
    dst[1] += Hb[ld + c];
    dst[2] += Hb[2 * ld + c];
  }
}

/* upper triangle of the 3x3 block Hb into the diagonal block of a vertex */
static inline void scatter_diag(double *val, const int *vc, int dslot, const signed char *rr,
                                const double *Hb, int ld) {
  for (int c = 0; c < 3; ++c) {
    if (vc[c] < 0) continue;
    double *dst = val + vc[c] + dslot;
    for (int r = 0; r <= c; ++r)
      if (rr[r] >= 0) dst[rr[r]] += Hb[r * ld + c];
  }
}

static inline void scatter_diag_full(double *val, const int *vc, int dslot, const double *Hb,
                                     int ld) {
  double *d0 = val + vc[0] + dslot, *d1 = val + vc[1] + dslot, *d2 = val + vc[2] + dslot;
  d0[0] += Hb[0];
  d1[0] += Hb[1];
  d1[1] += Hb[ld + 1];
  d2[0] += Hb[2];
  d2[1] += Hb[ld + 2];
  d2[2] += Hb[2 * ld + 2];
}

/* ---------- creation, mask ---------- */

static void pattern_init(pattern *p, int nverts) {
  memset(p, 0, sizeof *p);
  p->bcolptr = IPC_NEW0(int, nverts + 1);
  p->dslot = IPC_NEW0(int, nverts);
  p->vcol = IPC_NEW0(int, 3 * (size_t)nverts);
  p->colptr = IPC_NEW0(int, 3 * (size_t)nverts + 1);
  p->cap_nb = p->cap_nnz = 16; /* never NULL, even for empty problems */
  p->brow = IPC_NEW(int, p->cap_nb);
  p->bslot = IPC_NEW(int, p->cap_nb);
  p->bstamp = IPC_NEW(int, p->cap_nb);
  p->rowind = IPC_NEW(int, p->cap_nnz);
  p->val = IPC_NEW(double, p->cap_nnz);
}

static void pattern_free(pattern *p) {
  ipc_free(p->bcolptr);
  ipc_free(p->brow);
  ipc_free(p->bslot);
  ipc_free(p->bstamp);
  ipc_free(p->dslot);
  ipc_free(p->vcol);
  ipc_free(p->colptr);
  ipc_free(p->rowind);
  ipc_free(p->val);
}

static void rebuild(ipc_sparse *s, bool transfer);
static void build_fixed(ipc_sparse *s);

/* the mask fixed from vertex v0 on (the vertices before it keep theirs) */
static void apply_mask(ipc_sparse *s, const unsigned char *fixed, int v0) {
  int nf = s->vfree[v0];
  for (int v = v0; v < s->nverts; ++v) {
    int k = 0;
    for (int c = 0; c < 3; ++c) {
      int d = 3 * v + c;
      if (fixed && fixed[d]) {
        s->rrank[d] = -1;
        s->dofmap[d] = -1;
      } else {
        s->rrank[d] = (signed char)k++;
        s->dofmap[d] = nf++;
      }
    }
    s->nfv[v] = (unsigned char)k;
    s->vfree[v + 1] = nf;
  }
  s->nfree = nf;
  size_t d0 = 3 * (size_t)v0, nd = 3 * (size_t)s->nverts - d0;
  if (fixed)
    memcpy(s->mask + d0, fixed + d0, nd);
  else
    memset(s->mask + d0, 0, nd);
}

/* s->lead from the mask and the fixed pattern, the vertices before `from` known trivial (at
   least from the lead on) */
static void find_lead_from(ipc_sparse *s, int from) {
  int L = from;
  while (L < s->nverts && s->nfv[L] == 0 && s->fcolptr[L + 1] - s->fcolptr[L] == 1) ++L;
  s->lead = L;
}

static void find_lead(ipc_sparse *s) {
  find_lead_from(s, 0);
}

ipc_sparse *ipc_sparse_create(int nverts) {
  assert(nverts >= 0 && nverts < INT_MAX / 3);
  ipc_sparse *s = IPC_NEW0(ipc_sparse, 1);
  s->nverts = nverts;
  s->policy = IPC_SPARSE_GROW;
  s->rrank = IPC_NEW(signed char, 3 * (size_t)nverts);
  s->nfv = IPC_NEW(unsigned char, nverts);
  s->dofmap = IPC_NEW(int, 3 * (size_t)nverts);
  s->mask = IPC_NEW0(unsigned char, 3 * (size_t)nverts + 1);
  s->vfree = IPC_NEW0(int, (size_t)nverts + 1);
  s->fcolptr = IPC_NEW0(int, nverts + 1);
  s->kcount = IPC_NEW0(int, nverts + 1);
  pattern_init(&s->pat[0], nverts);
  pattern_init(&s->pat[1], nverts);
  s->stamp = STAMP_FIXED + 1;
  apply_mask(s, NULL, 0);
  build_fixed(s);
  rebuild(s, false);
  return s;
}

void ipc_sparse_destroy(ipc_sparse *s) {
  if (!s) return;
  for (int i = 0; i < s->nsets; ++i) {
    ipc_free(s->sets[i].ids);
    ipc_free(s->sets[i].perm);
    ipc_free(s->sets[i].fblock);
    ipc_free(s->sets[i].slot);
  }
  ipc_free(s->sets);
  pattern_free(&s->pat[0]);
  pattern_free(&s->pat[1]);
  ipc_free(s->rrank);
  ipc_free(s->nfv);
  ipc_free(s->dofmap);
  ipc_free(s->mask);
  ipc_free(s->vfree);
  ipc_free(s->fcolptr);
  ipc_free(s->frow);
  ipc_free(s->fslot);
  ipc_free(s->pkey);
  ipc_free(s->pval);
  ipc_free(s->kcount);
  ipc_free(s->krow);
  ipc_free(s->kcol);
  ipc_free(s->krow2);
  ipc_free(s->kcol2);
  ipc_free(s);
}

void ipc_sparse_set_policy(ipc_sparse *s, ipc_sparse_policy policy) {
  s->policy = policy;
}

void ipc_sparse_set_mask(ipc_sparse *s, const unsigned char *fixed) {
  assert(!s->assembling);
  /* the first DOF whose fixed state changes: equal bytes first, by blocks */
  size_t nd = 3 * (size_t)s->nverts, d = 0;
  enum { BLOCK = 4096 };
  if (fixed)
    while (d + BLOCK <= nd && !memcmp(s->mask + d, fixed + d, BLOCK)) d += BLOCK;
  for (; d < nd; ++d)
    if ((fixed && fixed[d]) != (s->rrank[d] < 0)) break;
  if (d == nd) return; /* the reduced system keeps its pattern */
  int v0 = (int)(d / 3);
  apply_mask(s, fixed, v0);
  find_lead_from(s, s->lead < v0 ? s->lead : v0);
  rebuild(s, false);
}

int ipc_sparse_num_free(const ipc_sparse *s) {
  return s->nfree;
}

const int *ipc_sparse_dof_map(const ipc_sparse *s) {
  return s->dofmap;
}

int ipc_sparse_num_rebuilds(const ipc_sparse *s) {
  return s->rebuilds;
}

void ipc_sparse_gather(const ipc_sparse *s, const double *full, double *reduced) {
  int n = 3 * s->nverts;
  for (int d = 0; d < n; ++d)
    if (s->dofmap[d] >= 0) reduced[s->dofmap[d]] = full[d];
}

void ipc_sparse_scatter(const ipc_sparse *s, const double *reduced, double *full) {
  int n = 3 * s->nverts;
  for (int d = 0; d < n; ++d) full[d] = s->dofmap[d] >= 0 ? reduced[s->dofmap[d]] : 0.0;
}

/* ---------- key sorting ---------- */

/* sorts the n keys (krow, kcol) by (col, row) with two stable counting sorts; the result is
 * left in (krow, kcol). Uses krow2/kcol2 and kcount. */
static void sort_keys(ipc_sparse *s, int n, int lo) {
  int nv = s->nverts - lo; /* every key is at least lo */
  int *cnt = s->kcount;
  ipc_reserve((void **)&s->krow2, &s->cap_kr, (size_t)n, sizeof(int));
  ipc_reserve((void **)&s->kcol2, &s->cap_kc, (size_t)n, sizeof(int));
  int *r = s->krow, *c = s->kcol, *r2 = s->krow2, *c2 = s->kcol2;
  /* by row into (r2, c2) */
  memset(cnt, 0, sizeof(int) * (size_t)(nv + 1));
  for (int i = 0; i < n; ++i) ++cnt[r[i] - lo + 1];
  for (int v = 0; v < nv; ++v) cnt[v + 1] += cnt[v];
  for (int i = 0; i < n; ++i) {
    int p = cnt[r[i] - lo]++;
    r2[p] = r[i];
    c2[p] = c[i];
  }
  /* stable by column back into (r, c) */
  memset(cnt, 0, sizeof(int) * (size_t)(nv + 1));
  for (int i = 0; i < n; ++i) ++cnt[c2[i] - lo + 1];
  for (int v = 0; v < nv; ++v) cnt[v + 1] += cnt[v];
  for (int i = 0; i < n; ++i) {
    int p = cnt[c2[i] - lo]++;
    r[p] = r2[i];
    c[p] = c2[i];
  }
}

static void reserve_keys(ipc_sparse *s, size_t n) {
  ipc_reserve((void **)&s->krow, &s->cap_k, n, sizeof(int));
  ipc_reserve((void **)&s->kcol, &s->cap_k2, n, sizeof(int));
}

/* ---------- element sets ---------- */

/* the union block pattern of all element sets plus every diagonal, and each element's
 * fixed block indices */
static void build_fixed(ipc_sparse *s) {
  int nv = s->nverts;
  size_t nk = 0;
  for (int i = 0; i < s->nsets; ++i) nk += (size_t)s->sets[i].ne * (size_t)s->sets[i].npair;
  assert(nk + (size_t)nv < INT_MAX);
  reserve_keys(s, nk + (size_t)nv);
  int n = 0;
  for (int i = 0; i < s->nsets; ++i) {
    const elem_set *es = &s->sets[i];
    for (int e = 0; e < es->ne; ++e) {
      const int *ids = es->ids + (size_t)e * es->nv;
      const unsigned char *pm = es->perm + (size_t)e * es->nv;
      for (int a = 0; a < es->nv; ++a)
        for (int b = a + 1; b < es->nv; ++b) {
          s->krow[n] = ids[pm[a]];
          s->kcol[n] = ids[pm[b]];
          ++n;
        }
    }
  }
  for (int v = 0; v < nv; ++v) {
    s->krow[n] = v;
    s->kcol[n] = v;
    ++n;
  }
  sort_keys(s, n, 0);
  /* dedup in place */
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (m > 0 && s->krow[m - 1] == s->krow[i] && s->kcol[m - 1] == s->kcol[i]) continue;
    s->krow[m] = s->krow[i];
    s->kcol[m] = s->kcol[i];
    ++m;
  }
  s->frow = ipc_realloc(s->frow, sizeof(int) * (size_t)m);
  s->fslot = ipc_realloc(s->fslot, sizeof(int) * (size_t)m);
  memset(s->fcolptr, 0, sizeof(int) * (size_t)(nv + 1));
  for (int i = 0; i < m; ++i) {
    s->frow[i] = s->krow[i];
    ++s->fcolptr[s->kcol[i] + 1];
  }
  for (int v = 0; v < nv; ++v) s->fcolptr[v + 1] += s->fcolptr[v];
  s->nfb = m;
  /* a new fixed pattern (and fslot): the patterns' leading vertices are written again */
  s->pat[0].lead_done = s->pat[1].lead_done = 0;
  find_lead(s);
  for (int i = 0; i < s->nsets; ++i) {
    elem_set *es = &s->sets[i];
    for (int e = 0; e < es->ne; ++e) {
      const int *ids = es->ids + (size_t)e * es->nv;
      const unsigned char *pm = es->perm + (size_t)e * es->nv;
      int *fb = es->fblock + (size_t)e * es->npair;
      for (int a = 0; a < es->nv; ++a)
        for (int b = a + 1; b < es->nv; ++b) {
          int col = ids[pm[b]];
          *fb = find_row(s->frow, s->fcolptr[col], s->fcolptr[col + 1], ids[pm[a]]);
          assert(*fb >= 0);
          ++fb;
        }
    }
  }
}

int ipc_sparse_add_element_set(ipc_sparse *s, int nelem, int nv, const int *ids) {
  assert(!s->assembling);
  assert(nelem >= 0 && nv >= 1 && nv <= 255);
  s->sets = ipc_realloc(s->sets, sizeof(elem_set) * (size_t)(s->nsets + 1));
  elem_set *es = &s->sets[s->nsets];
  es->ne = nelem;
  es->nv = nv;
  es->npair = nv * (nv - 1) / 2;
  size_t n = (size_t)nelem * (size_t)nv, np = (size_t)nelem * (size_t)es->npair;
  es->ids = IPC_NEW(int, n);
  es->perm = IPC_NEW(unsigned char, n);
  es->fblock = IPC_NEW(int, np);
  es->slot = IPC_NEW(int, np);
  if (n) memcpy(es->ids, ids, sizeof(int) * n);
  for (int e = 0; e < nelem; ++e) {
    const int *id = es->ids + (size_t)e * nv;
    unsigned char *pm = es->perm + (size_t)e * nv;
    for (int a = 0; a < nv; ++a) {
      assert(id[a] >= 0 && id[a] < s->nverts);
      int b = a;
      while (b > 0 && id[pm[b - 1]] > id[a]) {
        pm[b] = pm[b - 1];
        --b;
      }
      pm[b] = (unsigned char)a;
    }
    for (int a = 1; a < nv; ++a) assert(id[pm[a - 1]] < id[pm[a]]); /* distinct */
  }
  ++s->nsets;
  build_fixed(s);
  rebuild(s, false);
  return s->nsets - 1;
}

/* ---------- rebuild ---------- */

/* number of entries block (row u) contributes to scalar column c of vertex v */
static inline int block_rows(const ipc_sparse *s, int u, int v, int c) {
  return u == v ? s->rrank[3 * v + c] + 1 : s->nfv[u];
}

/* adds a queued 3x3 block (row vertex u < column vertex v) to pattern p, which has it */
static void add_block(ipc_sparse *s, pattern *p, int u, int v, const double *b) {
  int k = find_row(p->brow, p->bcolptr[v], p->bcolptr[v + 1], u);
  assert(k >= 0);
  scatter_off(p->val, p->vcol + 3 * v, p->bslot[k], s->rrank + 3 * u, b, 3);
}

/* makes the other pattern current: the fixed blocks, the current pattern's dynamic blocks
 * used in this assembly and the queued blocks. With transfer, the values summed so far move
 * along and the queued values are added; without, values are left unset. */
static void rebuild(ipc_sparse *s, bool transfer) {
  const int nv = s->nverts, L = s->lead;
  pattern *op = &s->pat[s->cur], *np = &s->pat[1 - s->cur];

  /* dynamic keys, sorted by (column, row). A block with a vertex of the lead (every DOF
     fixed, so it adds no entry: one used before the mask fixed its vertex) is dropped, and
     the lead's columns hold their diagonals alone */
  size_t nk = (size_t)s->npend;
  for (int k = op->bcolptr[L]; k < op->nb; ++k) nk += op->bstamp[k] == s->stamp;
  assert(nk < INT_MAX);
  reserve_keys(s, nk);
  int n = 0;
  for (int v = L; v < nv; ++v)
    for (int k = op->bcolptr[v]; k < op->bcolptr[v + 1]; ++k)
      if (op->bstamp[k] == s->stamp && op->brow[k] >= L) {
        s->krow[n] = op->brow[k];
        s->kcol[n] = v;
        ++n;
      }
  for (int i = 0; i < s->npend; ++i) {
    if (s->pkey[2 * i] < L) continue; /* queued blocks are of free vertices */
    s->krow[n] = s->pkey[2 * i];
    s->kcol[n] = s->pkey[2 * i + 1];
    ++n;
  }
  sort_keys(s, n, L);

  /* merge with the fixed pattern, column by column */
  size_t maxnb = (size_t)s->nfb + (size_t)n;
  assert(maxnb < INT_MAX);
  if (maxnb > np->cap_nb) {
    size_t cap = maxnb + maxnb / 4 + 16;
    np->brow = ipc_realloc(np->brow, sizeof(int) * cap);
    np->bslot = ipc_realloc(np->bslot, sizeof(int) * cap);
    np->bstamp = ipc_realloc(np->bstamp, sizeof(int) * cap);
    np->cap_nb = cap;
  }
  /* the lead: one fixed diagonal block each, at slot 0, no scalar entries */
  for (int v = np->lead_done < L ? np->lead_done : L; v < L; ++v) {
    np->bcolptr[v] = v;
    np->brow[v] = v;
    np->bslot[v] = 0;
    np->bstamp[v] = STAMP_FIXED;
    np->dslot[v] = 0;
    s->fslot[v] = 0;
    for (int c = 0; c < 3; ++c) np->vcol[3 * v + c] = -1;
  }
  np->lead_done = L;
  int nb = L, ndyn = 0, i = 0;
  size_t nnz = 0;
  np->bcolptr[L] = L;
  for (int v = L; v < nv; ++v) {
    int f = s->fcolptr[v], fend = s->fcolptr[v + 1];
    int slot = 0;
    while (f < fend || (i < n && s->kcol[i] == v)) {
      bool take_dyn = i < n && s->kcol[i] == v && (f == fend || s->krow[i] < s->frow[f]);
      int row;
      if (take_dyn) {
        row = s->krow[i];
        np->bstamp[nb] = s->stamp;
        ++ndyn;
      } else {
        row = s->frow[f];
        while (i < n && s->kcol[i] == v && s->krow[i] == row) ++i; /* also fixed now */
        s->fslot[f++] = slot;
        np->bstamp[nb] = STAMP_FIXED;
      }
      while (take_dyn && i < n && s->kcol[i] == v && s->krow[i] == row) ++i; /* repeats */
      np->brow[nb] = row;
      np->bslot[nb] = slot;
      slot += s->nfv[row];
      ++nb;
    }
    assert(nb > 0 && np->brow[nb - 1] == v); /* diagonal last */
    np->bcolptr[v + 1] = nb;
    np->dslot[v] = np->bslot[nb - 1];
    for (int c = 0; c < 3; ++c)
      if (s->rrank[3 * v + c] >= 0) nnz += (size_t)(np->dslot[v] + s->rrank[3 * v + c] + 1);
  }
  np->nb = nb;

  /* scalar CSC */
  assert(nnz < INT_MAX);
  if (nnz > np->cap_nnz) {
    size_t cap = nnz + nnz / 4 + 16;
    ipc_free(np->val);
    np->rowind = ipc_realloc(np->rowind, sizeof(int) * cap);
    np->val = IPC_NEW(double, cap);
    np->cap_nnz = cap;
  }
  np->nnz = (int)nnz;
  int pos = 0;
  for (int v = L; v < nv; ++v)
    for (int c = 0; c < 3; ++c) {
      int d = 3 * v + c;
      if (s->rrank[d] < 0) {
        np->vcol[d] = -1;
        continue;
      }
      np->vcol[d] = pos;
      np->colptr[s->dofmap[d]] = pos;
      for (int k = np->bcolptr[v]; k < np->bcolptr[v + 1]; ++k) {
        int u = np->brow[k], cnt = block_rows(s, u, v, c);
        const int *dm = s->dofmap + 3 * u;
        for (int r = 0, w = 0; w < cnt; ++r)
          if (dm[r] >= 0) {
            np->rowind[pos++] = dm[r];
            ++w;
          }
      }
    }
  np->colptr[s->nfree] = pos;
  assert(pos == np->nnz);

  if (transfer) {
    memset(np->val, 0, sizeof(double) * nnz);
    for (int v = L; v < nv; ++v) {
      int ko = op->bcolptr[v], koe = op->bcolptr[v + 1];
      for (int k = np->bcolptr[v]; k < np->bcolptr[v + 1]; ++k) {
        int u = np->brow[k];
        while (ko < koe && op->brow[ko] < u) ++ko;
        if (ko == koe || op->brow[ko] != u) continue;
        for (int c = 0; c < 3; ++c) {
          int d = 3 * v + c;
          if (s->rrank[d] < 0) continue;
          memcpy(np->val + np->vcol[d] + np->bslot[k], op->val + op->vcol[d] + op->bslot[ko],
                 sizeof(double) * (size_t)block_rows(s, u, v, c));
        }
      }
    }
    for (int q = 0; q < s->npend; ++q)
      if (s->pkey[2 * q] >= L)
        add_block(s, np, s->pkey[2 * q], s->pkey[2 * q + 1], s->pval + 9 * q);
  }

  /* element slots */
  for (int si = 0; si < s->nsets; ++si) {
    elem_set *es = &s->sets[si];
    size_t m = (size_t)es->ne * (size_t)es->npair;
    for (size_t q = 0; q < m; ++q) es->slot[q] = s->fslot[es->fblock[q]];
  }

  s->npend = 0;
  s->ndyn = ndyn;
  s->ndyn_used = ndyn;
  s->cur = 1 - s->cur;
  s->changed = true;
  ++s->rebuilds;
}

/* ---------- assembly ---------- */

void ipc_sparse_begin(ipc_sparse *s) {
  assert(!s->assembling);
  s->assembling = true;
  if (s->stamp == INT_MAX) { /* wrap around: restart the stamps below the next one */
    pattern *p = &s->pat[s->cur];
    for (int k = 0; k < p->nb; ++k)
      if (p->bstamp[k] != STAMP_FIXED) p->bstamp[k] = STAMP_FIXED + 1;
    s->stamp = STAMP_FIXED + 1;
  }
  ++s->stamp;
  s->npend = 0;
  s->ndyn_used = 0;
  pattern *p = &s->pat[s->cur];
  memset(p->val, 0, sizeof(double) * (size_t)p->nnz);
}

/* element kernel; nv is a constant where inlined for tets */
static inline void add_element_nv(ipc_sparse *s, const pattern *p, int nv, const int *ids,
                                  const unsigned char *pm, const int *slot, const double *H) {
  const int ld = 3 * nv;
  double *val = p->val;
  for (int a = 0; a < nv; ++a) {
    int g = ids[a];
    const double *Hb = H + 3 * a * ld + 3 * a;
    if (s->nfv[g] == 3)
      scatter_diag_full(val, p->vcol + 3 * g, p->dslot[g], Hb, ld);
    else if (s->nfv[g])
      scatter_diag(val, p->vcol + 3 * g, p->dslot[g], s->rrank + 3 * g, Hb, ld);
  }
  int q = 0;
  for (int a = 0; a < nv; ++a)
    for (int b = a + 1; b < nv; ++b, ++q) {
      int la = pm[a], lb = pm[b];
      int u = ids[la], v = ids[lb];
      const double *Hb = H + 3 * la * ld + 3 * lb;
      if (s->nfv[u] == 3 && s->nfv[v] == 3)
        scatter_off_full(val, p->vcol + 3 * v, slot[q], Hb, ld);
      else if (s->nfv[u] && s->nfv[v])
        scatter_off(val, p->vcol + 3 * v, slot[q], s->rrank + 3 * u, Hb, ld);
    }
}

void ipc_sparse_add_element(ipc_sparse *s, int set, int e, const double *H) {
  assert(s->assembling && set >= 0 && set < s->nsets);
  const elem_set *es = &s->sets[set];
  assert(e >= 0 && e < es->ne);
  const pattern *p = &s->pat[s->cur];
  const int *ids = es->ids + (size_t)e * es->nv;
  const unsigned char *pm = es->perm + (size_t)e * es->nv;
  const int *slot = es->slot + (size_t)e * es->npair;
  if (es->nv == 4)
    add_element_nv(s, p, 4, ids, pm, slot, H);
  else
    add_element_nv(s, p, es->nv, ids, pm, slot, H);
}

/* queues block (u, v), u < v, with value b (9, row-major) */
static void queue_block(ipc_sparse *s, int u, int v, const double *b, int ld) {
  int q = s->npend++;
  ipc_reserve((void **)&s->pkey, &s->cap_pkey, 2 * (size_t)s->npend, sizeof(int));
  ipc_reserve((void **)&s->pval, &s->cap_pval, 9 * (size_t)s->npend, sizeof(double));
  s->pkey[2 * q] = u;
  s->pkey[2 * q + 1] = v;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) s->pval[9 * q + 3 * r + c] = b[r * ld + c];
}

/* ipc_sparse_add, or with H NULL ipc_sparse_touch: the blocks' pattern (and their use in this
   assembly) is the same either way */
static void add_or_touch(ipc_sparse *s, int nv, const int *ids, const double *H) {
  static const double zero[9];
  assert(s->assembling);
  pattern *p = &s->pat[s->cur];
  const int ld = 3 * nv;
  for (int a = 0; a < nv; ++a) {
    int u = ids[a];
    assert(u >= 0 && u < s->nverts);
    if (!s->nfv[u]) continue;
    for (int b = 0; b < nv; ++b) {
      int v = ids[b];
      if (u > v || !s->nfv[v]) continue;
      const double *Hb = H ? H + 3 * a * ld + 3 * b : NULL;
      if (u == v) { /* b != a only with repeated ids */
        if (Hb) scatter_diag(p->val, p->vcol + 3 * v, p->dslot[v], s->rrank + 3 * v, Hb, ld);
        continue;
      }
      int k = find_row(p->brow, p->bcolptr[v], p->bcolptr[v + 1] - 1, u);
      if (k >= 0) {
        if (p->bstamp[k] != STAMP_FIXED && p->bstamp[k] != s->stamp) {
          p->bstamp[k] = s->stamp;
          ++s->ndyn_used;
        }
        if (Hb) scatter_off(p->val, p->vcol + 3 * v, p->bslot[k], s->rrank + 3 * u, Hb, ld);
      } else if (Hb) {
        queue_block(s, u, v, Hb, ld);
      } else {
        queue_block(s, u, v, zero, 3);
      }
    }
  }
}

void ipc_sparse_add(ipc_sparse *s, int nv, const int *ids, const double *H) {
  add_or_touch(s, nv, ids, H);
}

void ipc_sparse_touch(ipc_sparse *s, int nv, const int *ids) {
  add_or_touch(s, nv, ids, NULL);
}

void ipc_sparse_add_diagonal(ipc_sparse *s, const double *d) {
  assert(s->assembling);
  pattern *p = &s->pat[s->cur];
  for (int v = s->lead; v < s->nverts; ++v) /* the lead's DOFs are all fixed */
    for (int c = 0; c < 3; ++c) {
      int r = s->rrank[3 * v + c];
      if (r >= 0) p->val[p->vcol[3 * v + c] + p->dslot[v] + r] += d[3 * v + c];
    }
}

bool ipc_sparse_finish(ipc_sparse *s, ipc_csc *A) {
  assert(s->assembling);
  s->assembling = false;
  bool stale = s->policy == IPC_SPARSE_EXACT && s->ndyn_used != s->ndyn;
  if (s->npend > 0 || stale) rebuild(s, true);
  const pattern *p = &s->pat[s->cur];
  A->n = s->nfree;
  A->nnz = p->nnz;
  A->colptr = p->colptr;
  A->rowind = p->rowind;
  A->val = p->val;
  bool changed = s->changed;
  s->changed = false;
  return changed;
}

/* ---------- products ---------- */

void ipc_csc_mul(const ipc_csc *A, const double *x, double *y) {
  for (int i = 0; i < A->n; ++i) y[i] = 0.0;
  for (int j = 0; j < A->n; ++j) {
    double xj = x[j], yj = 0.0;
    for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k) {
      int i = A->rowind[k];
      double a = A->val[k];
      y[i] += a * xj;
      if (i != j) yj += a * x[i];
    }
    y[j] += yj;
  }
}
