/* all overlapping pairs of axis-aligned boxes.

   algorithm: a linear bounding-volume hierarchy (boxes sorted by the Morton
   code of their centre, split where the highest differing code bit changes;
   Lauterbach et al. 2009, Karras 2012), stored in pre-order with skip
   pointers and queried leaf against tree without a stack. why not the others:
   - sort and sweep on one axis tests every pair whose projections overlap; on
     a surface of n primitives that is ~n^1.5 tests (each projected interval
     meets ~sqrt(n) others), 1e7..1e8 at 1e5 triangles: too slow per Newton step.
   - a uniform hash grid is O(n + k) for even sizes, but its cell size fits one
     scale: two huge obstacle triangles beside a fine mesh either fill millions
     of cells or force cells that hold the whole mesh.
   - the tree costs O(n) to sort (radix sort of 33-bit codes) plus at most
     O(n log n) to split, and O(log n + k) per query whatever the sizes, and it
     serves both "a within itself" and "a against b".
   details:
   - outliers get a tree of their own, with its own Morton frame: boxes larger
     than LARGE_FACTOR times the median largest side, and boxes centred far
     outside the bulk of the centres (e.g. the corners of a ground plane). so a
     few huge or remote boxes neither inflate the nodes of the fine tree nor
     crush its code resolution (11 bits an axis). passive boxes (kinematic
     obstacles) get their own trees too, so passive-passive pairs are never
     visited.
   - queries are whole leaves (up to LEAF_MAX Morton-consecutive boxes); a
     query within the same tree starts at its own leaf, since the pre-order
     suffix after a leaf is a run of whole subtrees holding exactly the boxes
     later in tree order: each unordered pair is met once, and ancestors are
     never tested.
   - node bounds are floats rounded outward (half the memory); every pair is
     decided by the exact closed-overlap predicate on the double boxes, so the
     result equals the brute-force definition bit for bit. leaf-against-leaf
     tests build a bit mask without branches.
   - output: LSD radix sort on (first, second), two counting sorts: O(k + n),
     and unique pairs give one order whatever the traversal: deterministic. the
     query leaves are cut into chunks (core/parallel.h) that run on the threads the
     run was given, each emitting into its own list; the sort makes the result
     independent of that. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/box_tree.h"
#include "linalg/mpi_run.h"

enum { LEAF_MAX = 8, NPART = 4, SAMPLE_MAX = 255, MORTON_BITS = 11, ID_BITS = 31 };
#define LARGE_FACTOR 8.0f
#define WINDOW_FACTOR 2.0f

/* node bounds in float, rounded outward: half the memory of doubles; the
   final test of every pair is on the exact double boxes */
typedef struct bvh_node {
  float box[6];
  int lo;    /* first box of the subtree in tree order */
  int info;  /* internal: escape (next node after the subtree, pre-order);
                leaf: -(number of boxes) */
  int group; /* the group every box of the subtree is in, or -1 (mixed or none) */
} bvh_node;

/* one tree over one class of boxes (bulk/outlier x active/passive) */
typedef struct bvh {
  int n;
  int passive;
  double *box;    /* (n x 6) in tree order */
  int *id;        /* (n) caller's id of each box in tree order */
  int *grp;       /* (n) group of each box in tree order (-1: none) */
  bvh_node *node; /* (nnode) pre-order */
  int nnode;
  size_t cap_box, cap_id, cap_grp, cap_node;
} bvh;

struct ipc_box_tree {
  int range;       /* ids lie in [0, range) */
  bvh part[NPART]; /* index 2 * outlier + passive */
};

/* pairs emitted by one chunk of query leaves */
typedef struct pair_list {
  int *p; /* (n x 2) */
  size_t n, cap;
} pair_list;

struct ipc_box_ws {
  ipc_box_tree *ta, *tb; /* trees of ipc_box_pairs_ws */
  pair_list part[IPC_MAX_CHUNKS];
  float *cent;          /* (m x 4) centre and largest side of each box */
  uint64_t *key, *key2; /* Morton code << ID_BITS | id, and radix scratch */
  int *idx;             /* box positions grouped by class */
  size_t cap_cent, cap_key, cap_key2, cap_idx;
  int *raw; /* (nraw x 2) pairs before sorting */
  size_t nraw, cap_raw;
  size_t *count; /* counting-sort buckets */
  size_t cap_count;
  int *raw2; /* (nraw x 2) radix-sort scratch */
  size_t cap_raw2;
};

enum { ORDER_QT, ORDER_TQ, ORDER_MINMAX };

static inline int box_overlap_f(const float *a, const float *b) {
  return (a[0] <= b[3]) & (b[0] <= a[3]) & (a[1] <= b[4]) & (b[1] <= a[4]) & (a[2] <= b[5]) &
         (b[2] <= a[5]);
}

static inline int box_overlap_df(const double *a, const float *b) {
  return (a[0] <= b[3]) & (b[0] <= a[3]) & (a[1] <= b[4]) & (b[1] <= a[4]) & (a[2] <= b[5]) &
         (b[2] <= a[5]);
}

/* largest float <= d (NaN stays NaN) */
static float float_down(double d) {
  if (d > FLT_MAX) return FLT_MAX;
  if (d < -FLT_MAX) return -INFINITY;
  float f = (float)d;
  if ((double)f <= d || isnan(f)) return f;
  /* one step towards -inf: f > d, so f is not -inf, and f == 0 means d < 0 */
  if (f == 0.0f) return -FLT_TRUE_MIN;
  uint32_t u;
  memcpy(&u, &f, 4);
  u = f > 0.0f ? u - 1 : u + 1;
  memcpy(&f, &u, 4);
  return f;
}

/* smallest float >= d (NaN stays NaN) */
static float float_up(double d) {
  return -float_down(-d);
}

static void box_grow_f(float *u, const float *b) {
  for (int k = 0; k < 3; ++k) {
    u[k] = b[k] < u[k] ? b[k] : u[k];
    u[k + 3] = b[k + 3] > u[k + 3] ? b[k + 3] : u[k + 3];
  }
}

/* spreads the low 11 bits of v to every third bit */
static uint64_t morton_spread(uint32_t v) {
  uint64_t x = v & 0x7ffu;
  x = (x | x << 16) & 0x0000ff0000ffull;
  x = (x | x << 8) & 0x00f00f00f00full;
  x = (x | x << 4) & 0x0c30c30c30c3ull;
  x = (x | x << 2) & 0x249249249249ull;
  return x;
}

static uint32_t morton_quantize(float c, float lo, float scale) {
  float t = (c - lo) * scale;
  const float top = (float)((1u << MORTON_BITS) - 1);
  if (!(t > 0.0f)) return 0;
  if (t >= top) return (1u << MORTON_BITS) - 1;
  return (uint32_t)t;
}

/* sorts keys by their Morton part (bits ID_BITS and up): LSD radix, 11 bits a
   pass, stable */
static void sort_keys(uint64_t *key, uint64_t *key2, int m) {
  if (m <= 32) {
    for (int i = 1; i < m; ++i) {
      uint64_t k = key[i];
      int j = i;
      for (; j > 0 && key[j - 1] >> ID_BITS > k >> ID_BITS; --j) key[j] = key[j - 1];
      key[j] = k;
    }
    return;
  }
  uint32_t hist[1u << MORTON_BITS];
  uint64_t *src = key, *dst = key2;
  for (int pass = 0; pass < 3; ++pass) {
    int shift = ID_BITS + MORTON_BITS * pass;
    const uint64_t mask = (1u << MORTON_BITS) - 1;
    memset(hist, 0, sizeof hist);
    for (int i = 0; i < m; ++i) ++hist[(src[i] >> shift) & mask];
    if (hist[(src[0] >> shift) & mask] == (uint32_t)m) continue;
    uint32_t sum = 0;
    for (uint32_t b = 0; b <= mask; ++b) {
      uint32_t c = hist[b];
      hist[b] = sum;
      sum += c;
    }
    for (int i = 0; i < m; ++i) dst[hist[(src[i] >> shift) & mask]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != key) memcpy(key, src, sizeof *key * (size_t)m);
}

/* first index of [lo, hi) in the upper half of the highest bit where the
   sorted keys differ */
static int split_at(const uint64_t *key, int lo, int hi) {
  if (key[lo] == key[hi - 1]) return lo + (hi - lo) / 2; /* repeated ids in a subset */
  uint64_t mask = (uint64_t)1 << (63 - __builtin_clzll(key[lo] ^ key[hi - 1]));
  int l = lo, r = hi - 1;
  while (r - l > 1) {
    int mid = l + (r - l) / 2;
    if (key[mid] & mask)
      r = mid;
    else
      l = mid;
  }
  return r;
}

static void build_node(bvh *t, const double *boxes, const int *group, const uint64_t *key, int lo,
                       int hi) {
  int me = t->nnode++;
  if (hi - lo <= LEAF_MAX) {
    /* the leaf's boxes are copied here, in tree order; NaN entries are
       skipped in the union: a box with a NaN overlaps nothing */
    double u[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    int g = -2;
    for (int i = lo; i < hi; ++i) {
      int id = (int)(key[i] & (((uint64_t)1 << ID_BITS) - 1));
      const double *b = boxes + 6 * (size_t)id;
      t->id[i] = id;
      t->grp[i] = group && group[id] >= 0 ? group[id] : -1;
      g = g == -2 || g == t->grp[i] ? t->grp[i] : -1;
      memcpy(t->box + 6 * i, b, 6 * sizeof(double));
      for (int k = 0; k < 3; ++k) {
        u[k] = b[k] < u[k] ? b[k] : u[k];
        u[k + 3] = b[k + 3] > u[k + 3] ? b[k + 3] : u[k + 3];
      }
    }
    bvh_node *nd = &t->node[me];
    for (int k = 0; k < 3; ++k) {
      nd->box[k] = float_down(u[k]);
      nd->box[k + 3] = float_up(u[k + 3]);
    }
    nd->lo = lo;
    nd->info = -(hi - lo);
    nd->group = g;
    return;
  }
  int mid = split_at(key, lo, hi);
  build_node(t, boxes, group, key, lo, mid);
  int right = t->nnode;
  build_node(t, boxes, group, key, mid, hi);
  bvh_node *nd = &t->node[me];
  memcpy(nd->box, t->node[me + 1].box, sizeof nd->box);
  box_grow_f(nd->box, t->node[right].box);
  nd->lo = lo;
  nd->info = t->nnode;
  nd->group = t->node[me + 1].group == t->node[right].group ? t->node[right].group : -1;
}

/* builds t over the boxes at positions list[0..m) (ids: subset[pos] or pos),
   using the centres in ws->cent */
static void bvh_build(bvh *t, ipc_box_ws *ws, const double *boxes, const int *group,
                      const int *subset, const int *list, int m) {
  t->n = m;
  t->nnode = 0;
  if (m == 0) return;
  ipc_reserve((void **)&t->box, &t->cap_box, (size_t)m * 6, sizeof(double));
  ipc_reserve((void **)&t->id, &t->cap_id, (size_t)m, sizeof(int));
  ipc_reserve((void **)&t->grp, &t->cap_grp, (size_t)m, sizeof(int));
  ipc_reserve((void **)&t->node, &t->cap_node, (size_t)m * 2, sizeof(bvh_node));

  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < m; ++i) {
    const float *c = ws->cent + 4 * (size_t)list[i];
    for (int k = 0; k < 3; ++k) {
      if (!isfinite(c[k])) continue;
      if (c[k] < lo[k]) lo[k] = c[k];
      if (c[k] > hi[k]) hi[k] = c[k];
    }
  }
  /* one scale for all axes: cubic cells */
  float side = 0.0f;
  for (int k = 0; k < 3; ++k) {
    if (!(hi[k] >= lo[k])) lo[k] = hi[k] = 0.0f;
    if (hi[k] - lo[k] > side) side = hi[k] - lo[k];
  }
  float scale = side > 0.0f ? (float)(1u << MORTON_BITS) / side : 0.0f;
  if (!isfinite(scale)) scale = 0.0f;
  for (int i = 0; i < m; ++i) {
    const float *c = ws->cent + 4 * (size_t)list[i];
    uint64_t code = 0;
    for (int k = 0; k < 3; ++k) code |= morton_spread(morton_quantize(c[k], lo[k], scale)) << k;
    uint64_t id = (uint64_t)(subset ? subset[list[i]] : list[i]);
    ws->key[i] = code << ID_BITS | id;
  }
  sort_keys(ws->key, ws->key2, m);
  build_node(t, boxes, group, ws->key, 0, m);
}

ipc_box_tree *ipc_box_tree_new(void) {
  return IPC_NEW0(ipc_box_tree, 1);
}

void ipc_box_tree_free(ipc_box_tree *t) {
  if (!t) return;
  for (int p = 0; p < NPART; ++p) {
    ipc_free(t->part[p].box);
    ipc_free(t->part[p].id);
    ipc_free(t->part[p].grp);
    ipc_free(t->part[p].node);
  }
  ipc_free(t);
}

static void sort_floats(float *e, int n) {
  for (int i = 1; i < n; ++i) {
    float x = e[i];
    int j = i;
    for (; j > 0 && e[j - 1] > x; --j) e[j] = e[j - 1];
    e[j] = x;
  }
}

/* what makes a box an outlier, from a strided sample of at most SAMPLE_MAX
   boxes: a largest side above LARGE_FACTOR times the median, or a centre
   outside the window that extends the 5..95% quantile box of the centres by
   WINDOW_FACTOR times its widest side (skipped for tiny sets) */
typedef struct outlier_rule {
  float size;
  float lo[3], hi[3];
} outlier_rule;

static outlier_rule outlier_rule_make(const float *cent, int m) {
  outlier_rule o = {INFINITY, {-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}};
  float e[SAMPLE_MAX] = {0}, c[3][SAMPLE_MAX] = {{0}};
  int s = m < SAMPLE_MAX ? m : SAMPLE_MAX;
  if (s == 0) return o;
  for (int i = 0; i < s; ++i) {
    const float *ci = cent + 4 * (size_t)((int64_t)i * m / s);
    e[i] = isnan(ci[3]) ? 0.0f : ci[3];
    for (int k = 0; k < 3; ++k) c[k][i] = ci[k];
  }
  sort_floats(e, s);
  o.size = LARGE_FACTOR * e[s / 2];
  if (s < 64) return o;
  float width = 0.0f;
  for (int k = 0; k < 3; ++k) {
    sort_floats(c[k], s);
    o.lo[k] = c[k][s / 20];
    o.hi[k] = c[k][s - 1 - s / 20];
    if (o.hi[k] - o.lo[k] > width) width = o.hi[k] - o.lo[k];
  }
  if (!(width > 0.0f) || !isfinite(width)) {
    for (int k = 0; k < 3; ++k) o.lo[k] = -INFINITY, o.hi[k] = INFINITY;
    return o;
  }
  for (int k = 0; k < 3; ++k) {
    o.lo[k] -= WINDOW_FACTOR * width;
    o.hi[k] += WINDOW_FACTOR * width;
  }
  return o;
}

static int outlier(const outlier_rule *o, const float *c) {
  return (c[3] > o->size) | (c[0] < o->lo[0]) | (c[0] > o->hi[0]) | (c[1] < o->lo[1]) |
         (c[1] > o->hi[1]) | (c[2] < o->lo[2]) | (c[2] > o->hi[2]);
}

void ipc_box_tree_build(ipc_box_tree *t, ipc_box_ws *ws, const double *boxes, int n,
                        const int *subset, int nsubset, const unsigned char *passive,
                        const int *group) {
  int m = subset ? nsubset : n;
  t->range = n;
  ipc_reserve((void **)&ws->cent, &ws->cap_cent, (size_t)m * 4, sizeof(float));
  ipc_reserve((void **)&ws->idx, &ws->cap_idx, (size_t)m, sizeof(int));
  ipc_reserve((void **)&ws->key, &ws->cap_key, (size_t)m, sizeof(uint64_t));
  ipc_reserve((void **)&ws->key2, &ws->cap_key2, (size_t)m, sizeof(uint64_t));
  for (int i = 0; i < m; ++i) {
    const double *b = boxes + 6 * (size_t)(subset ? subset[i] : i);
    float *c = ws->cent + 4 * (size_t)i;
    double e = -INFINITY;
    for (int k = 0; k < 3; ++k) {
      double mid = 0.5 * b[k] + 0.5 * b[k + 3], side = b[k + 3] - b[k];
      if (!isfinite(mid)) mid = 0.0;
      c[k] = (float)(mid > FLT_MAX ? FLT_MAX : mid < -FLT_MAX ? -FLT_MAX : mid);
      if (side > e || isnan(side)) e = side;
    }
    c[3] = e > FLT_MAX ? INFINITY : (float)e;
  }
  outlier_rule rule = outlier_rule_make(ws->cent, m);
  int cnt[NPART] = {0}, start[NPART];
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      int sum = 0;
      for (int p = 0; p < NPART; ++p) {
        start[p] = sum;
        sum += cnt[p];
      }
    }
    for (int i = 0; i < m; ++i) {
      int id = subset ? subset[i] : i;
      int cls = 2 * outlier(&rule, ws->cent + 4 * (size_t)i) + (passive && passive[id] ? 1 : 0);
      if (pass == 0)
        ++cnt[cls];
      else
        ws->idx[start[cls]++] = i;
    }
  }
  for (int p = 0; p < NPART; ++p) {
    t->part[p].passive = p & 1;
    bvh_build(&t->part[p], ws, boxes, group, subset, cnt[p] ? ws->idx + (start[p] - cnt[p]) : NULL,
              cnt[p]);
  }
}

/* new boxes for the same ids in the same tree order: leaf boxes copied, node bounds
   recomputed children first (pre-order reversed) */
static void bvh_refit(bvh *t, const double *boxes) {
  for (int i = 0; i < t->n; ++i)
    memcpy(t->box + 6 * (size_t)i, boxes + 6 * (size_t)t->id[i], 6 * sizeof(double));
  for (int me = t->nnode - 1; me >= 0; --me) {
    bvh_node *nd = &t->node[me];
    if (nd->info < 0) {
      double u[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
      for (int i = nd->lo; i < nd->lo - nd->info; ++i) {
        const double *b = t->box + 6 * (size_t)i;
        for (int k = 0; k < 3; ++k) {
          u[k] = b[k] < u[k] ? b[k] : u[k];
          u[k + 3] = b[k + 3] > u[k + 3] ? b[k + 3] : u[k + 3];
        }
      }
      for (int k = 0; k < 3; ++k) {
        nd->box[k] = float_down(u[k]);
        nd->box[k + 3] = float_up(u[k + 3]);
      }
    } else {
      const bvh_node *left = &t->node[me + 1];
      int right = left->info < 0 ? me + 2 : left->info;
      memcpy(nd->box, left->box, sizeof nd->box);
      box_grow_f(nd->box, t->node[right].box);
    }
  }
}

void ipc_box_tree_refit(ipc_box_tree *t, const double *boxes) {
  for (int p = 0; p < NPART; ++p) bvh_refit(&t->part[p], boxes);
}

static void emit(pair_list *out, int i, int j, ipc_pair_filter filter, void *ctx) {
  if (filter && !filter(i, j, ctx)) return;
  if (out->n == out->cap) ipc_reserve((void **)&out->p, &out->cap, out->n + 1, 2 * sizeof(int));
  out->p[2 * out->n] = i;
  out->p[2 * out->n + 1] = j;
  ++out->n;
}

/* the leaves among nodes [ql0, ql1) of q against tree t, stackless (skip pointers);
   self: q == t and only subtrees from the query leaf on, so each unordered pair comes once */
static void part_pairs(pair_list *out, const bvh *q, const bvh *t, int self, int order, int ql0,
                       int ql1, ipc_pair_filter filter, void *ctx) {
  for (int ql = ql0; ql < ql1; ++ql) {
    const bvh_node *qn = &q->node[ql];
    if (qn->info >= 0) continue;
    int qlo = qn->lo, qhi = qn->lo - qn->info;
    int k = self ? ql : 0;
    while (k < t->nnode) {
      const bvh_node *tn = &t->node[k];
      int next = tn->info < 0 ? k + 1 : tn->info;
      /* a subtree wholly in the query leaf's group holds no pair to report */
      if (!box_overlap_f(qn->box, tn->box) || (qn->group >= 0 && tn->group == qn->group)) {
        k = next;
        continue;
      }
      if (tn->info >= 0) {
        ++k;
        continue;
      }
      int tlo = tn->lo, thi = tn->lo - tn->info;
      for (int p = qlo; p < qhi; ++p) {
        const double *pb = q->box + 6 * p;
        if (!box_overlap_df(pb, tn->box)) continue;
        int ip = q->id[p], gp = q->grp[p];
        int r0 = k == ql && self ? p + 1 : tlo;
        unsigned mask = 0;
        for (int r = r0; r < thi; ++r)
          mask |= (unsigned)(ipc_box_overlap(pb, t->box + 6 * r) & (gp < 0 || t->grp[r] != gp))
                  << (r - r0);
        while (mask) {
          int r = r0 + __builtin_ctz(mask);
          mask &= mask - 1;
          int ir = t->id[r];
          if (order == ORDER_QT)
            emit(out, ip, ir, filter, ctx);
          else if (order == ORDER_TQ)
            emit(out, ir, ip, filter, ctx);
          else if (ip < ir)
            emit(out, ip, ir, filter, ctx);
          else
            emit(out, ir, ip, filter, ctx);
        }
      }
      k = next;
    }
  }
}

/* appends ws->raw to *pairs sorted by (first, second), first in [0, range_a),
   second in [0, range_b): LSD radix sort, a counting sort by the second index
   then a stable one by the first; O(k + range) */
static void sort_out(ipc_box_ws *ws, int range_a, int range_b, int **pairs, size_t *npairs,
                     size_t *cap) {
  size_t k = ws->nraw;
  if (k == 0) return;
  ipc_reserve((void **)pairs, cap, *npairs + k, 2 * sizeof(int));
  ipc_reserve((void **)&ws->raw2, &ws->cap_raw2, k, 2 * sizeof(int));
  size_t range = (size_t)(range_a > range_b ? range_a : range_b);
  ipc_reserve((void **)&ws->count, &ws->cap_count, range + 1, sizeof(size_t));
  size_t *count = ws->count;
  int *out = *pairs + 2 * *npairs;
  for (int pass = 0; pass < 2; ++pass) {
    const int *src = pass == 0 ? ws->raw : ws->raw2;
    int *dst = pass == 0 ? ws->raw2 : out;
    int col = pass == 0 ? 1 : 0, nb = pass == 0 ? range_b : range_a;
    memset(count, 0, sizeof *count * ((size_t)nb + 1));
    for (size_t r = 0; r < k; ++r) ++count[src[2 * r + col] + 1];
    for (int i = 0; i < nb; ++i) count[i + 1] += count[i];
    for (size_t r = 0; r < k; ++r) {
      size_t p = count[src[2 * r + col]]++;
      dst[2 * p] = src[2 * r];
      dst[2 * p + 1] = src[2 * r + 1];
    }
  }
  *npairs += k;
}

/* one tree-against-tree query, its query nodes cut into chunks */
typedef struct pairs_job {
  ipc_box_ws *ws;
  const bvh *q, *t;
  int self, order;
  ipc_pair_filter filter;
  void *ctx;
} pairs_job;

static double pairs_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  pairs_job *j = vjob;
  part_pairs(&j->ws->part[chunk], j->q, j->t, j->self, j->order, (int)begin, (int)end, j->filter,
             j->ctx);
  return 0.0;
}

/* all pairs of q against t appended to ws->raw */
static void query(ipc_box_ws *ws, const bvh *q, const bvh *t, int self, int order,
                  ipc_pair_filter filter, void *ctx) {
  pairs_job j = {ws, q, t, self, order, filter, ctx};
  /* over MPI ranks each rank traverses its chunks of query nodes (linalg/mpi_run.h); the
     ranks' pairs are gathered before the sort (ipc_box_tree_pairs) */
  size_t nc = ipc_mpi_chunk_count((size_t)q->nnode, 64);
  double part[IPC_MAX_CHUNKS];
  for (size_t c = 0; c < nc; ++c) ws->part[c].n = 0;
  ipc_mpi_parallel_chunks((size_t)q->nnode, nc, pairs_range, &j, part, IPC_WORK_BROAD);
  for (size_t c = 0; c < nc; ++c) {
    const pair_list *l = &ws->part[c];
    if (l->n == 0) continue;
    ipc_reserve((void **)&ws->raw, &ws->cap_raw, ws->nraw + l->n, 2 * sizeof(int));
    memcpy(ws->raw + 2 * ws->nraw, l->p, 2 * l->n * sizeof(int));
    ws->nraw += l->n;
  }
}

void ipc_box_tree_pairs(ipc_box_ws *ws, int **pairs, size_t *npairs, size_t *cap,
                        const ipc_box_tree *a, const ipc_box_tree *b, ipc_pair_filter filter,
                        void *ctx) {
  int self = b == NULL || b == a;
  if (self) b = a;
  ws->nraw = 0;
  for (int ga = 0; ga < NPART; ++ga) {
    for (int gb = self ? ga : 0; gb < NPART; ++gb) {
      const bvh *pa = &a->part[ga], *pb = &b->part[gb];
      if (pa->n == 0 || pb->n == 0 || (pa->passive && pb->passive)) continue;
      if (self && ga == gb)
        query(ws, pa, pa, 1, ORDER_MINMAX, filter, ctx);
      else if (pa->n <= pb->n)
        query(ws, pa, pb, 0, self ? ORDER_MINMAX : ORDER_QT, filter, ctx);
      else
        query(ws, pb, pa, 0, self ? ORDER_MINMAX : ORDER_TQ, filter, ctx);
    }
  }
  if (ipc_mpi_splitting()) { /* every rank's pairs: the sort puts them in the serial order */
    void *all = NULL;
    size_t acap = 0;
    size_t bytes = ipc_mpi_allgather(ws->raw, ws->nraw * 2 * sizeof(int), &all, &acap);
    ws->nraw = bytes / (2 * sizeof(int));
    ipc_reserve((void **)&ws->raw, &ws->cap_raw, ws->nraw + 1, 2 * sizeof(int));
    if (bytes) memcpy(ws->raw, all, bytes);
    ipc_free(all);
  }
  sort_out(ws, a->range, b->range, pairs, npairs, cap);
  /* after a spike (the first, long step of a Newton solve) the scratch goes back to a few
     times this query's size */
  size_t k = ws->nraw;
  ipc_shrink((void **)&ws->raw, &ws->cap_raw, k, 2 * sizeof(int));
  ipc_shrink((void **)&ws->raw2, &ws->cap_raw2, k, 2 * sizeof(int));
  for (int c = 0; c < IPC_MAX_CHUNKS; ++c)
    ipc_shrink((void **)&ws->part[c].p, &ws->part[c].cap, k, 2 * sizeof(int));
}

ipc_box_ws *ipc_box_ws_new(void) {
  return IPC_NEW0(ipc_box_ws, 1);
}

void ipc_box_ws_free(ipc_box_ws *ws) {
  if (!ws) return;
  ipc_box_tree_free(ws->ta);
  ipc_box_tree_free(ws->tb);
  ipc_free(ws->cent);
  ipc_free(ws->key);
  ipc_free(ws->key2);
  ipc_free(ws->idx);
  ipc_free(ws->raw);
  ipc_free(ws->count);
  ipc_free(ws->raw2);
  for (int c = 0; c < IPC_MAX_CHUNKS; ++c) ipc_free(ws->part[c].p);
  ipc_free(ws);
}

void ipc_box_pairs_ws(ipc_box_ws *ws, int **pairs, size_t *npairs, size_t *cap, const double *a,
                      int na, const double *b, int nb, ipc_pair_filter filter, void *ctx) {
  if (!ws->ta) ws->ta = ipc_box_tree_new();
  ipc_box_tree_build(ws->ta, ws, a, na, NULL, 0, NULL, NULL);
  if (!b) {
    ipc_box_tree_pairs(ws, pairs, npairs, cap, ws->ta, NULL, filter, ctx);
    return;
  }
  if (!ws->tb) ws->tb = ipc_box_tree_new();
  ipc_box_tree_build(ws->tb, ws, b, nb, NULL, 0, NULL, NULL);
  ipc_box_tree_pairs(ws, pairs, npairs, cap, ws->ta, ws->tb, filter, ctx);
}

void ipc_box_pairs(int **pairs, size_t *npairs, size_t *cap, const double *a, int na,
                   const double *b, int nb, ipc_pair_filter filter, void *ctx) {
  ipc_box_ws *ws = ipc_box_ws_new();
  ipc_box_pairs_ws(ws, pairs, npairs, cap, a, na, b, nb, filter, ctx);
  ipc_box_ws_free(ws);
}
