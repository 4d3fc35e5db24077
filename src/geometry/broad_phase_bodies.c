/* the swept broad phase body by body, in moving frames (issue 21): for the pairs of two
   different bodies only, it finds the same pairs that matter as the one-tree broad phase
   (broad_phase.c) without sweeping boxes along what the two bodies share of their motion.

   The distance between two points of the surface at time t of the step is unchanged when
   both are displaced by the same c t: so for a pair of bodies (a, b) every vertex may be
   swept over x0 -> x1 - c instead of x0 -> x1, with c = the mean of the two bodies' mean
   vertex displacements. Two bodies carried along together (a pile sliding down a tube, a
   stream falling) then have boxes as short as their relative motion, where world-swept
   boxes are as long as the whole displacement and pair every primitive with every other of
   both bodies. Pairs whose boxes in the frame of their bodies do not overlap stay farther
   apart than the inflation all along the step, so they are left out exactly as a world box
   test would leave out a pair at rest.

   Body pairs come from the bodies' world-swept boxes (a few thousand boxes), then their
   boxes in the pair's frame; within a pair only the primitives whose frame box meets the
   intersection of the two bodies' frame boxes are searched. The pair filters are the
   one-tree broad phase's (adjacency, body_contact, passive pairs). Used when no body needs
   pairs within itself (affine bodies, obstacles, body_contact between bodies): a body that
   may touch itself is searched by the one-tree broad phase. The pairs of bodies are searched
   in chunks on the threads (each thread with its own scratch, appending its pairs to the
   lists in turns) and, over MPI, split among the ranks; the lists are then sorted, so they
   are the same for any number of threads and ranks. For ipc_broad_phase_narrowed each pair
   is narrowed as it is found (ipc_pair_narrowed_out, ipc_candidates_narrow's own verdict):
   of the pairs of boxes that meet in a pile, about 2% come within the narrowing's distance
   (1,000 pour, step 31: 157,000 pairs of boxes, 3,000 kept), and the rest are never
   listed, sorted or gathered. Across the calls of a Newton solve, once the bodies' relative
   motions have calmed, most body pairs are answered from a superset of pairs instead
   (broad_phase_superset.c), with the same lists. */
#include "geometry/broad_phase_bodies_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/box_tree.h"
#include "linalg/mpi_run.h"

/* one box tested against many: with SSE2 (every x86-64) its six bounds are held in registers
   and a box's six comparisons are three of pairs; the same comparisons as ipc_box_overlap (an
   ordered <= is false on a NaN either way), so the same verdicts */
#ifdef __SSE2__
#include <emmintrin.h>
typedef struct box_probe {
  __m128d hi01, lo0, hi2, lo12;
} box_probe;
static inline box_probe probe_of(const double *b) {
  box_probe q = {_mm_loadu_pd(b + 3), _mm_set1_pd(b[0]), _mm_set1_pd(b[5]), _mm_loadu_pd(b + 1)};
  return q;
}
/* (p0 <= b3, p1 <= b4), (p2 <= b5, b0 <= p3), (b1 <= p4, b2 <= p5) */
static inline int probe_meets(const box_probe *q, const double *p) {
  __m128d p01 = _mm_loadu_pd(p), p23 = _mm_loadu_pd(p + 2), p45 = _mm_loadu_pd(p + 4);
  __m128d c1 = _mm_cmple_pd(p01, q->hi01);
  __m128d c2 = _mm_cmple_pd(_mm_move_sd(q->lo0, p23), _mm_move_sd(p23, q->hi2));
  __m128d c3 = _mm_cmple_pd(q->lo12, p45);
  return _mm_movemask_pd(_mm_and_pd(_mm_and_pd(c1, c2), c3)) == 3;
}
#else
typedef struct box_probe {
  const double *b;
} box_probe;
static inline box_probe probe_of(const double *b) {
  box_probe q = {b};
  return q;
}
static inline int probe_meets(const box_probe *q, const double *p) {
  return ipc_box_overlap(p, q->b);
}
#endif

typedef struct filter_ctx {
  const ipc_surface *s;
  const unsigned char *passive;
} filter_ctx;

static int all_passive(const unsigned char *passive, const int *v, int n) {
  if (!passive) return 0;
  for (int k = 0; k < n; ++k)
    if (!passive[v[k]]) return 0;
  return 1;
}

/* the one-tree broad phase's filters (broad_phase.c) on global ids, plus its passive rule:
   two primitives whose vertices are all passive make no pair */
static int keep_vf_g(const filter_ctx *x, int v, int f) {
  const ipc_surface *s = x->s;
  const int *t = s->faces + 3 * (size_t)f;
  if (x->passive && x->passive[v] && all_passive(x->passive, t, 3)) return 0;
  return v != t[0] && v != t[1] && v != t[2] && ipc_surface_pair_touches(s, v, t[0]);
}

static int keep_ee_g(const filter_ctx *x, int a, int b) {
  const ipc_surface *s = x->s;
  const int *ea = s->edges + 2 * (size_t)a, *eb = s->edges + 2 * (size_t)b;
  if (all_passive(x->passive, ea, 2) && all_passive(x->passive, eb, 2)) return 0;
  return ea[0] != eb[0] && ea[0] != eb[1] && ea[1] != eb[0] && ea[1] != eb[1] &&
         ipc_surface_pair_touches(s, ea[0], eb[0]);
}

static int keep_ve_g(const filter_ctx *x, int v, int e) {
  const ipc_surface *s = x->s;
  const int *ed = s->edges + 2 * (size_t)e;
  if (x->passive && x->passive[v] && all_passive(x->passive, ed, 2)) return 0;
  return v != ed[0] && v != ed[1] && ipc_surface_pair_touches(s, v, ed[0]);
}

static int keep_vv_g(const filter_ctx *x, int a, int b) {
  if (x->passive && x->passive[a] && x->passive[b]) return 0;
  return ipc_surface_pair_touches(x->s, a, b);
}

enum { K_VF, K_EE, K_VE, K_VV };

/* the primitive lists of every body (CSR by the body of their first vertex) */
static void group_by_body(struct ipc_bodies_ws *w, const ipc_surface *s) {
  int nb = w->nb;
  ipc_reserve((void **)&w->vs, &w->cap_vs, (size_t)nb + 1, sizeof(int));
  ipc_reserve((void **)&w->es, &w->cap_es, (size_t)nb + 1, sizeof(int));
  ipc_reserve((void **)&w->fs, &w->cap_fs, (size_t)nb + 1, sizeof(int));
  ipc_reserve((void **)&w->vid, &w->cap_vid, (size_t)s->nsv, sizeof(int));
  ipc_reserve((void **)&w->eid, &w->cap_eid, (size_t)s->nedges, sizeof(int));
  ipc_reserve((void **)&w->fid, &w->cap_fid, (size_t)s->nfaces, sizeof(int));
  int *start[3] = {w->vs, w->es, w->fs}, *ids[3] = {w->vid, w->eid, w->fid};
  int count[3] = {s->nsv, s->nedges, s->nfaces};
  for (int k = 0; k < 3; ++k) {
    int *st = start[k];
    memset(st, 0, sizeof(int) * ((size_t)nb + 1));
    for (int i = 0; i < count[k]; ++i) {
      int v = k == 0 ? s->sv[i] : k == 1 ? s->edges[2 * (size_t)i] : s->faces[3 * (size_t)i];
      ++st[s->vert_body[v] + 1];
    }
    for (int b = 0; b < nb; ++b) st[b + 1] += st[b];
    for (int i = 0; i < count[k]; ++i) {
      int v = k == 0 ? s->sv[i] : k == 1 ? s->edges[2 * (size_t)i] : s->faces[3 * (size_t)i];
      int slot = st[s->vert_body[v]]++;
      ids[k][slot] = k == 0 ? v : i;
    }
    for (int b = nb; b > 0; --b) st[b] = st[b - 1];
    st[0] = 0;
  }
}

/* what identifies the surface for the lists by body: its serial, else (a surface assembled
   by hand) a hash of what they depend on: the surface vertices' bodies, the edges, the faces
   (FNV-1a over their ints, with the high bit set apart from serials) */
static uint64_t surface_hash(const ipc_surface *s) {
  if (s->serial) return s->serial; /* built by ipc_surface_build: its serial is its identity */
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(uint32_t)(v)) * 1099511628211ull)
  MIX(s->nsv);
  MIX(s->nedges);
  MIX(s->nfaces);
  for (int i = 0; i < s->nsv; ++i) {
    MIX(s->sv[i]);
    MIX(s->vert_body[s->sv[i]]);
  }
  for (int i = 0; i < 2 * s->nedges; ++i) MIX(s->edges[i]);
  for (int i = 0; i < 3 * s->nfaces; ++i) MIX(s->faces[i]);
#undef MIX
  return h | 1ull << 63;
}

/* a primitive's position key for the sort below */
typedef struct keyed {
  uint64_t key;
  int id;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  return (a->key > b->key) - (a->key < b->key);
}

/* the 10 low bits of v spread to every third bit */
static uint64_t spread3(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 10; ++i) r |= ((v >> i) & 1u) << (3 * i);
  return r;
}

/* each body's primitives of each kind in Morton order of their centroids at x (within the
   body's box), so that CHUNK consecutive ones lie close together and their chunk boxes are
   small (a mesh's own order, a latitude-longitude sphere's bands, would make long chunks) */
static void order_in_bodies(struct ipc_bodies_ws *w, const ipc_surface *s, const double *x) {
  const int *start[3] = {w->vs, w->es, w->fs};
  int *ids[3] = {w->vid, w->eid, w->fid};
  for (int b = 0; b < w->nb; ++b) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = w->vs[b]; i < w->vs[b + 1]; ++i)
      for (int k = 0; k < 3; ++k) {
        lo[k] = mn(lo[k], x[3 * (size_t)w->vid[i] + k]);
        hi[k] = mx(hi[k], x[3 * (size_t)w->vid[i] + k]);
      }
    for (int k = 0; k < 3; ++k) {
      int n = start[k][b + 1] - start[k][b];
      if (n < 2) continue;
      ipc_reserve((void **)&w->keyed, &w->cap_keyed, (size_t)n, sizeof(keyed));
      keyed *kd = w->keyed;
      for (int i = 0; i < n; ++i) {
        int id = ids[k][start[k][b] + i];
        const int *v = k == 0   ? &ids[k][start[k][b] + i]
                       : k == 1 ? s->edges + 2 * (size_t)id
                                : s->faces + 3 * (size_t)id;
        int nv = k + 1;
        uint64_t key = 0;
        for (int d = 0; d < 3; ++d) {
          double m = 0;
          for (int j = 0; j < nv; ++j) m += x[3 * (size_t)v[j] + d];
          m /= nv;
          double t = hi[d] > lo[d] ? (m - lo[d]) / (hi[d] - lo[d]) : 0.0;
          uint64_t q = (uint64_t)(t < 0 ? 0 : t > 1 ? 1023 : t * 1023);
          key |= spread3(q) << d;
        }
        kd[i] = (keyed){key, id};
      }
      qsort(kd, (size_t)n, sizeof *kd, cmp_keyed);
      for (int i = 0; i < n; ++i) ids[k][start[k][b] + i] = kd[i].id;
    }
  }
}

/* the vertices of the edges and faces in the order of eid and fid */
static void pack_vertices(struct ipc_bodies_ws *w, const ipc_surface *s) {
  ipc_reserve((void **)&w->ev, &w->cap_ev, 2 * (size_t)s->nedges + 1, sizeof(int));
  ipc_reserve((void **)&w->fv, &w->cap_fv, 3 * (size_t)s->nfaces + 1, sizeof(int));
  for (int i = 0; i < s->nedges; ++i)
    memcpy(w->ev + 2 * (size_t)i, s->edges + 2 * (size_t)w->eid[i], 2 * sizeof(int));
  for (int i = 0; i < s->nfaces; ++i)
    memcpy(w->fv + 3 * (size_t)i, s->faces + 3 * (size_t)w->fid[i], 3 * sizeof(int));
}

/* the distinct vertices of every chunk of edges and of faces (in the order they first
   appear): a vertex shared by several of a chunk's primitives enters its box once */
static void chunk_vertices(struct ipc_bodies_ws *w) {
  const int *start[3] = {w->vs, w->es, w->fs}, *pv[3] = {NULL, w->ev, w->fv};
  for (int k = 1; k < 3; ++k) {
    size_t nch = 0;
    ipc_reserve((void **)&w->cvb[k], &w->cap_cvb[k], (size_t)w->nb + 1, sizeof(int));
    for (int b = 0; b < w->nb; ++b) {
      w->cvb[k][b] = (int)nch;
      nch += (size_t)((start[k][b + 1] - start[k][b] + CHUNK - 1) / CHUNK);
    }
    w->cvb[k][w->nb] = (int)nch;
    size_t room = (size_t)(k + 1) * (size_t)start[k][w->nb];
    ipc_reserve((void **)&w->cvs[k], &w->cap_cvs[k], nch + 1, sizeof(int));
    ipc_reserve((void **)&w->cvid[k], &w->cap_cvid[k], room + 1, sizeof(int));
    int n = 0, e = 0;
    for (int b = 0; b < w->nb; ++b)
      for (int i0 = start[k][b]; i0 < start[k][b + 1]; i0 += CHUNK, ++e) {
        int i1 = i0 + CHUNK < start[k][b + 1] ? i0 + CHUNK : start[k][b + 1], first = n;
        w->cvs[k][e] = n;
        for (int i = i0; i < i1; ++i)
          for (int q = 0; q <= k; ++q) {
            int v = pv[k][(k + 1) * (size_t)i + (size_t)q], seen = 0;
            for (int t = first; t < n && !seen; ++t) seen = w->cvid[k][t] == v;
            if (!seen) w->cvid[k][n++] = v;
          }
      }
    w->cvs[k][e] = n;
  }
}

/* each primitive's position in the lists by body (vid / eid / fid) */
static void positions(struct ipc_bodies_ws *w, const ipc_surface *s) {
  int count[3] = {s->nverts, s->nedges, s->nfaces}, len[3] = {s->nsv, s->nedges, s->nfaces};
  const int *ids[3] = {w->vid, w->eid, w->fid};
  for (int k = 0; k < 3; ++k) {
    ipc_reserve((void **)&w->pos[k], &w->cap_pos[k], (size_t)count[k] + 1, sizeof(int));
    for (int i = 0; i < count[k]; ++i) w->pos[k][i] = -1;
    for (int i = 0; i < len[k]; ++i) w->pos[k][ids[k][i]] = i;
  }
}

/* per body: boxes at x0 and x1, mean displacement, largest grow, passive, a vertex (room
   reserved by reserve_bodies) */
static void reserve_bodies(struct ipc_bodies_ws *w) {
  int nb = w->nb;
  ipc_reserve((void **)&w->box0, &w->cap_box0, 6 * (size_t)nb, sizeof(double));
  ipc_reserve((void **)&w->box1, &w->cap_box1, 6 * (size_t)nb, sizeof(double));
  ipc_reserve((void **)&w->c, &w->cap_c, 3 * (size_t)nb, sizeof(double));
  ipc_reserve((void **)&w->gmax, &w->cap_gmax, (size_t)nb, sizeof(double));
  ipc_reserve((void **)&w->bpass, &w->cap_bpass, (size_t)nb, 1);
  ipc_reserve((void **)&w->rep, &w->cap_rep, (size_t)nb, sizeof(int));
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* the bodies' ranges of surface vertex indices for still bodies (see ipc_bodies_ws), every
   body's cache emptied. Nothing is kept unless the ranges are disjoint (each body's copy into
   cx then writes its own entries; vertices in a range that are not the body's surface are only
   compared) */
static void still_ranges(struct ipc_bodies_ws *w) {
  int nb = w->nb;
  ipc_reserve((void **)&w->vlo, &w->cap_vlo, (size_t)nb, sizeof(int));
  ipc_reserve((void **)&w->vhi, &w->cap_vhi, (size_t)nb, sizeof(int));
  ipc_reserve((void **)&w->since, &w->cap_since, (size_t)nb, sizeof(unsigned long));
  ipc_reserve((void **)&w->t_chunks, &w->cap_t_chunks, (size_t)nb, sizeof(unsigned long));
  ipc_reserve((void **)&w->still, &w->cap_still, (size_t)nb, 1);
  /* (start, end) of every non-empty range, sorted by start: disjoint when each ends before the
     next starts */
  int *r = IPC_NEW(int, 2 * (size_t)nb + 1), nr = 0;
  for (int b = 0; b < nb; ++b) {
    w->vlo[b] = w->vhi[b] = 0;
    for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
      int v = w->vid[i];
      if (i == w->vs[b] || v < w->vlo[b]) w->vlo[b] = v;
      if (i == w->vs[b] || v >= w->vhi[b]) w->vhi[b] = v + 1;
    }
    if (w->vhi[b] > w->vlo[b]) {
      r[2 * nr] = w->vlo[b];
      r[2 * nr++ + 1] = w->vhi[b];
    }
    w->since[b] = w->t_chunks[b] = 0;
    w->still[b] = 0;
  }
  qsort(r, (size_t)nr, 2 * sizeof(int), cmp_int);
  w->still_ok = 1;
  for (int k = 1; k < nr; ++k)
    if (r[2 * k - 1] > r[2 * k]) w->still_ok = 0;
  ipc_free(r);
}

/* whether body b is still (see ipc_bodies_ws); when its x1 == x0 without grow but not at the
   kept x0, its x0 is kept from this call on */
static int body_still(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
                      const double *grow) {
  size_t lo = (size_t)w->vlo[b], n = (size_t)w->vhi[b] - lo;
  int ok = w->still_ok && n > 0 && (x1 == x0 || !memcmp(x0 + 3 * lo, x1 + 3 * lo, 24 * n));
  for (size_t v = lo; ok && grow && v < lo + n; ++v) ok = grow[v] == 0.0;
  if (!ok) {
    w->since[b] = 0;
    return 0;
  }
  if (w->since[b] > 0 && !memcmp(x0 + 3 * lo, w->cx + 3 * lo, 24 * n)) return 1;
  memcpy(w->cx + 3 * lo, x0 + 3 * lo, 24 * n);
  w->since[b] = w->calls;
  return 0;
}

static void summarize(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
                      const double *grow, const unsigned char *passive) {
  double *b0 = w->box0 + 6 * (size_t)b, *b1 = w->box1 + 6 * (size_t)b, *c = w->c + 3 * (size_t)b;
  for (int k = 0; k < 3; ++k) {
    b0[k] = b1[k] = INFINITY;
    b0[k + 3] = b1[k + 3] = -INFINITY;
    c[k] = 0;
  }
  w->gmax[b] = 0;
  w->bpass[b] = 1;
  w->rep[b] = w->vs[b] < w->vs[b + 1] ? w->vid[w->vs[b]] : -1;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
    size_t v = (size_t)w->vid[i];
    for (int k = 0; k < 3; ++k) {
      double p = x0[3 * v + k], q = x1[3 * v + k];
      b0[k] = mn(b0[k], p);
      b0[k + 3] = mx(b0[k + 3], p);
      b1[k] = mn(b1[k], q);
      b1[k + 3] = mx(b1[k + 3], q);
      c[k] += q - p;
    }
    if (grow) w->gmax[b] = mx(w->gmax[b], grow[v]);
    if (!passive || !passive[v]) w->bpass[b] = 0;
  }
  int n = w->vs[b + 1] - w->vs[b];
  for (int k = 0; k < 3 && n > 0; ++k) c[k] /= n;
}

/* body b's summary, kept when the body is still (only its passive flag computed); with
   w->check computed anyway and compared */
static void body_summary(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
                         const double *grow, const unsigned char *passive) {
  w->still[b] = (unsigned char)body_still(w, b, x0, x1, grow);
  if (!w->still[b]) {
    summarize(w, b, x0, x1, grow, passive);
    return;
  }
  if (w->check) {
    double kept[16] = {w->gmax[b]}, now[16];
    memcpy(kept + 1, w->box0 + 6 * (size_t)b, 6 * sizeof(double));
    memcpy(kept + 7, w->box1 + 6 * (size_t)b, 6 * sizeof(double));
    memcpy(kept + 13, w->c + 3 * (size_t)b, 3 * sizeof(double));
    int rep = w->rep[b];
    summarize(w, b, x0, x1, grow, passive);
    now[0] = w->gmax[b];
    memcpy(now + 1, w->box0 + 6 * (size_t)b, 6 * sizeof(double));
    memcpy(now + 7, w->box1 + 6 * (size_t)b, 6 * sizeof(double));
    memcpy(now + 13, w->c + 3 * (size_t)b, 3 * sizeof(double));
    if (memcmp(kept, now, sizeof kept) || rep != w->rep[b]) still_differs(w);
  }
  w->bpass[b] = 1;
  for (int i = w->vs[b]; i < w->vs[b + 1] && w->bpass[b]; ++i)
    if (!passive || !passive[w->vid[i]]) w->bpass[b] = 0;
}

/* body b's box in the frame moving with c t: the box at x0 united with the box at x1 - c,
   grown by r (the half inflation plus the body's largest grow) */
static void frame_box(const struct ipc_bodies_ws *w, int b, const double c[3], double r,
                      double out[6]) {
  const double *b0 = w->box0 + 6 * (size_t)b, *b1 = w->box1 + 6 * (size_t)b;
  for (int k = 0; k < 3; ++k) {
    out[k] = mn(b0[k], b1[k] - c[k]) - r;
    out[k + 3] = mx(b0[k + 3], b1[k + 3] - c[k]) + r;
  }
}

/* the chunks of every body and kind with their boxes in the body's own frame */
/* one past body b's last chunk of kind k */
static int body_chunk_end(const struct ipc_bodies_ws *w, int k, int b) {
  const int *start = k == 0 ? w->vs : k == 1 ? w->es : w->fs;
  return w->chs[k][b] + (start[b + 1] - start[b] + CHUNK - 1) / CHUNK;
}

static void reserve_chunks(struct ipc_bodies_ws *w, const ipc_surface *s) {
  int nb = w->nb;
  const int *start[3] = {w->vs, w->es, w->fs};
  ipc_reserve((void **)&w->vob, &w->cap_vob, 6 * (size_t)s->nverts, sizeof(double));
  for (int k = 0; k < 3; ++k) {
    ipc_reserve((void **)&w->chs[k], &w->cap_chs[k], (size_t)nb + 1, sizeof(int));
    /* each body's chunks start at a multiple of CHUNK, so groups of CHUNK chunks are
       g / CHUNK (the chunks between bodies are never visited) */
    int n = 0;
    for (int b = 0; b < nb; ++b) {
      w->chs[k][b] = n;
      n += (start[k][b + 1] - start[k][b] + CHUNK - 1) / CHUNK;
      n = (n + CHUNK - 1) / CHUNK * CHUNK;
    }
    w->chs[k][nb] = n;
    ipc_reserve((void **)&w->chbox[k], &w->cap_chbox[k], 6 * (size_t)n + 6, sizeof(double));
    ipc_reserve((void **)&w->grpbox[k], &w->cap_grpbox[k], 6 * (size_t)(n / CHUNK) + 6,
                sizeof(double));
  }
}

/* body b's surface vertices' boxes in its own frame, then its chunks' and groups' boxes (the
   vertex boxes still in cache) */
static void body_chunks(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
                        double r0, const double *grow) {
  const int *start[3] = {w->vs, w->es, w->fs};
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i)
    vertex_box(x0, x1, grow, (size_t)w->vid[i], w->c + 3 * (size_t)b, r0,
               w->vob + 6 * (size_t)w->vid[i]);
  for (int k = 0; k < 3; ++k) {
    int last = body_chunk_end(w, k, b);
    for (int ch = w->chs[k][b]; ch < last; ++ch) {
      int i0 = start[k][b] + CHUNK * (ch - w->chs[k][b]), i1 = i0 + CHUNK;
      if (i1 > start[k][b + 1]) i1 = start[k][b + 1];
      double *u = w->chbox[k] + 6 * (size_t)ch;
      for (int j = 0; j < 3; ++j) {
        u[j] = INFINITY;
        u[j + 3] = -INFINITY;
      }
      if (k == 0)
        for (int i = i0; i < i1; ++i) box_union(u, w->vob + 6 * (size_t)w->vid[i]);
      else /* the union of its distinct vertices' boxes */
        for (int e = w->cvb[k][b] + ch - w->chs[k][b], t = w->cvs[k][e]; t < w->cvs[k][e + 1]; ++t)
          box_union(u, w->vob + 6 * (size_t)w->cvid[k][t]);
    }
    for (int g = w->chs[k][b]; g < last; g += CHUNK) {
      double *u = w->grpbox[k] + 6 * (size_t)(g / CHUNK);
      for (int j = 0; j < 3; ++j) {
        u[j] = INFINITY;
        u[j + 3] = -INFINITY;
      }
      for (int ch = g; ch < g + CHUNK && ch < last; ++ch)
        box_union(u, w->chbox[k] + 6 * (size_t)ch);
    }
  }
}

/* w->check: body b's kept chunk boxes (and its vertices' boxes) against computed ones */
static void check_chunks(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
                         double r0, const double *grow) {
  size_t nv = (size_t)(w->vs[b + 1] - w->vs[b]), len[3], glen[3], n = 6 * nv;
  for (int k = 0; k < 3; ++k) {
    len[k] = 6 * (size_t)(body_chunk_end(w, k, b) - w->chs[k][b]);
    glen[k] = 6 * ((len[k] / 6 + CHUNK - 1) / CHUNK);
    n += len[k] + glen[k];
  }
  double *kept = IPC_NEW(double, 2 * n + 1), *now = kept + n;
  for (int pass = 0; pass < 2; ++pass) {
    double *o = pass ? now : kept;
    if (pass) body_chunks(w, b, x0, x1, r0, grow);
    for (int i = w->vs[b]; i < w->vs[b + 1]; ++i, o += 6)
      memcpy(o, w->vob + 6 * (size_t)w->vid[i], 6 * sizeof(double));
    for (int k = 0; k < 3; o += len[k] + glen[k], ++k) {
      memcpy(o, w->chbox[k] + 6 * (size_t)w->chs[k][b], len[k] * sizeof(double));
      memcpy(o + len[k], w->grpbox[k] + 6 * (size_t)(w->chs[k][b] / CHUNK),
             glen[k] * sizeof(double));
    }
  }
  if (memcmp(kept, now, n * sizeof(double))) still_differs(w);
  ipc_free(kept);
}

typedef struct bodies_job {
  struct ipc_bodies_ws *w;
  const double *x0, *x1, *grow;
  const unsigned char *passive;
  double r0;
  int chunks; /* 0: the bodies' summaries, 1: their chunk boxes */
} bodies_job;

/* bodies [begin, end): their summaries or their chunk boxes */
static double bodies_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const bodies_job *j = vjob;
  for (size_t b = begin; b < end; ++b) {
    if (j->chunks) {
      struct ipc_bodies_ws *w = j->w;
      if (!w->inpair[b]) continue;
      if (!(w->still[b] && w->t_chunks[b] >= w->since[b])) {
        body_chunks(w, (int)b, j->x0, j->x1, j->r0, j->grow);
        w->t_chunks[b] = w->calls;
      } else if (w->check)
        check_chunks(w, (int)b, j->x0, j->x1, j->r0, j->grow);
    } else
      body_summary(j->w, (int)b, j->x0, j->x1, j->grow, j->passive);
  }
  return 0.0;
}

/* the chunks of kind k of body b whose boxes in the frame cf meet R, with those boxes, into
   list `side` (a chunk's boxes in the frame cf lie in its box of the body's own frame swept by
   t (c_b - cf)) */
static void frame_chunks(const struct ipc_bodies_ws *w, pair_scratch *t, int b, int side, int k,
                         const double cf[3], const double R[6]) {
  const double *cb = w->c + 3 * (size_t)b;
  double d[3] = {cb[0] - cf[0], cb[1] - cf[1], cb[2] - cf[2]};
  size_t n = 0;
  int c0 = w->chs[k][b], c1 = body_chunk_end(w, k, b);
  ipc_reserve((void **)&t->lch[side][k], &t->cap_lch[side][k], (size_t)(c1 - c0) + 1, sizeof(int));
  ipc_reserve((void **)&t->lbox[side][k], &t->cap_lbox[side][k], 6 * (size_t)(c1 - c0) + 6,
              sizeof(double));
  /* R moved back into the body's frame: a chunk's own box meets it when its frame box meets
     R; groups of CHUNK chunks first */
  double Q[6];
  for (int j = 0; j < 3; ++j) {
    Q[j] = R[j] - mx(0.0, d[j]);
    Q[j + 3] = R[j + 3] - mn(0.0, d[j]);
  }
  box_probe qq = probe_of(Q);
  double lo[3] = {mn(0.0, d[0]), mn(0.0, d[1]), mn(0.0, d[2])};
  double hi[3] = {mx(0.0, d[0]), mx(0.0, d[1]), mx(0.0, d[2])};
  for (int g = c0; g < c1; g += CHUNK) {
    if (!probe_meets(&qq, w->grpbox[k] + 6 * (size_t)(g / CHUNK))) continue;
    int g1 = g + CHUNK < c1 ? g + CHUNK : c1;
    /* every chunk written, those that meet Q counted (no branch on the test) */
    for (int ch = g; ch < g1; ++ch) {
      const double *o = w->chbox[k] + 6 * (size_t)ch;
      double *f = t->lbox[side][k] + 6 * n;
      for (int j = 0; j < 3; ++j) {
        f[j] = o[j] + lo[j];
        f[j + 3] = o[j + 3] + hi[j];
      }
      t->lch[side][k][n] = ch;
      n += (size_t)probe_meets(&qq, o);
    }
  }
  t->nl[side][k] = n;
}

/* the ids and boxes in the frame cf of the primitives of chunk ch (kind k of body b), computed
   once per pair of bodies (t->stamp) into t->pbox[k] / t->pid[k]; their count in *n */
static const double *chunk_prims(const struct ipc_bodies_ws *w, pair_scratch *t, int k, int b,
                                 int ch, const double *x0, const double *x1, const double cf[3],
                                 double r0, const double *grow, const int **ids, int *n) {
  const int *start = k == 0 ? w->vs : k == 1 ? w->es : w->fs;
  int i0 = start[b] + CHUNK * (ch - w->chs[k][b]), i1 = i0 + CHUNK;
  if (i1 > start[b + 1]) i1 = start[b + 1];
  *n = i1 - i0;
  if (t->chstamp[k][ch] != t->stamp) {
    size_t off = t->npb[k]; /* room reserved for both bodies at the pair's start */
    for (int i = i0; i < i1; ++i) {
      double *bx = t->pbox[k] + 6 * (off + (size_t)(i - i0));
      int id = k == 0 ? w->vid[i] : k == 1 ? w->eid[i] : w->fid[i];
      t->pid[k][off + (size_t)(i - i0)] = id;
      if (k == 0)
        vertex_box(x0, x1, grow, (size_t)id, cf, r0, bx);
      else if (k == 1)
        elem_box(x0, x1, grow, w->ev + 2 * (size_t)i, 2, cf, r0, bx);
      else
        elem_box(x0, x1, grow, w->fv + 3 * (size_t)i, 3, cf, r0, bx);
    }
    t->choff[k][ch] = (int)off;
    t->chstamp[k][ch] = t->stamp;
    t->npb[k] = off + (size_t)(i1 - i0);
  }
  *ids = t->pid[k] + t->choff[k][ch];
  return t->pbox[k] + 6 * (size_t)t->choff[k][ch];
}

/* the primitive pairs of kinds (ka of body a: list side sa) x (kb of body b: list sb) whose
   frame boxes overlap and that the filter `kind` keeps, through their chunks' boxes, appended
   to *out as global ids ((min, max) with minmax) */
typedef struct pair_job {
  const struct ipc_bodies_ws *w;
  pair_scratch *t;
  ipc_candidates *c;
  const ipc_surface *s;
  const unsigned char *passive;
  const double *x0, *x1, *grow, *cf;
  double r0;
  double narrow;        /* >= 0: ipc_candidates_narrow's distance, applied to each pair found */
  bodies_superset *rec; /* the superset's search: each pair's body pair recorded in rec->bp */
  int bp;               /* the body pair (index in kab) */
} pair_job;

/* the thread's pairs of list l (0 vf, 1 ee, 2 ve, 3 vv) appended to the candidates' list, one
   thread at a time: the lists are sorted afterwards, so the order threads append in leaves no
   trace; no thread keeps a spike-sized list of its own */
static void flush_pairs(pair_scratch *t, ipc_candidates *c, int l, bodies_superset *rec) {
  size_t n = (size_t)t->nbuf[l];
  if (n == 0) return;
  int **list[4] = {&c->vf, &c->ee, &c->ve, &c->vv};
  size_t *count[4] = {&c->nvf, &c->nee, &c->nve, &c->nvv};
  size_t *cap[4] = {&c->cap_vf, &c->cap_ee, &c->cap_ve, &c->cap_vv};
#pragma omp critical
  {
    ipc_reserve((void **)list[l], cap[l], *count[l] + n, 2 * sizeof(int));
    memcpy(*list[l] + 2 * *count[l], t->buf[l], n * 2 * sizeof(int));
    if (rec) {
      ipc_reserve((void **)&rec->bp[l], &rec->cap_bp[l], *count[l] + n, sizeof(int));
      memcpy(rec->bp[l] + *count[l], t->bbuf[l], n * sizeof(int));
    }
    *count[l] += n;
  }
  t->nbuf[l] = 0;
}

static inline void emit_pair(const pair_job *j, int l, int x, int y) {
  pair_scratch *t = j->t;
  int *b = t->buf[l] + 2 * t->nbuf[l];
  b[0] = x;
  b[1] = y;
  t->bbuf[l][t->nbuf[l]] = j->bp;
  if (++t->nbuf[l] == FLUSH) flush_pairs(t, j->c, l, j->rec);
}

static void chunk_pairs(const pair_job *j, int a, int sa, int ka, int b, int sb, int kb, int kind,
                        int minmax, int list) {
  const struct ipc_bodies_ws *w = j->w;
  pair_scratch *t = j->t;
  filter_ctx f = {j->s, j->passive};
  for (size_t i = 0; i < t->nl[sa][ka]; ++i) {
    const double *A = t->lbox[sa][ka] + 6 * i;
    box_probe qa = probe_of(A);
    /* the other side's chunks that meet A, listed without branching on the test (most do,
       in no pattern a predictor learns) */
    size_t nm = 0, nlb = t->nl[sb][kb];
    ipc_reserve((void **)&t->meet, &t->cap_meet, nlb + 1, sizeof(int));
    for (size_t q = 0; q < nlb; ++q) {
      t->meet[nm] = (int)q;
      nm += (size_t)probe_meets(&qa, t->lbox[sb][kb] + 6 * q);
    }
    for (size_t im = 0; im < nm; ++im) {
      size_t q = (size_t)t->meet[im];
      const double *B = t->lbox[sb][kb] + 6 * q;
      const int *ia, *ib;
      int na, nb;
      const double *pa = chunk_prims(w, t, ka, a, t->lch[sa][ka][i], j->x0, j->x1, j->cf, j->r0,
                                     j->grow, &ia, &na);
      const double *pb = chunk_prims(w, t, kb, b, t->lch[sb][kb][q], j->x0, j->x1, j->cf, j->r0,
                                     j->grow, &ib, &nb);
      /* the primitives of each chunk within the other chunk's box, then their pairs */
      int ua[CHUNK], vb[CHUNK], nua = 0, nvb = 0;
      box_probe qb = probe_of(B);
      for (int u = 0; u < na; ++u) {
        ua[nua] = u;
        nua += probe_meets(&qb, pa + 6 * u);
      }
      if (nua == 0) continue;
      for (int v = 0; v < nb; ++v) {
        vb[nvb] = v;
        nvb += probe_meets(&qa, pb + 6 * v);
      }
      for (int iu = 0; iu < nua; ++iu) {
        int u = ua[iu];
        box_probe qu = probe_of(pa + 6 * u);
        int hit[CHUNK], nh = 0;
        for (int iv = 0; iv < nvb; ++iv) {
          hit[nh] = vb[iv];
          nh += probe_meets(&qu, pb + 6 * vb[iv]);
        }
        for (int ih = 0; ih < nh; ++ih) {
          int v = hit[ih];
          int x = ia[u], y = ib[v], keep;
          switch (kind) {
            case K_VF:
              keep = keep_vf_g(&f, x, y);
              break;
            case K_EE:
              keep = keep_ee_g(&f, x, y);
              break;
            case K_VE:
              keep = ((j->s->vert_point && j->s->vert_point[x]) ||
                      (j->s->edge_codim && j->s->edge_codim[y])) &&
                     keep_ve_g(&f, x, y);
              break;
            default:
              keep = j->s->vert_point && j->s->vert_point[x] && j->s->vert_point[y] &&
                     keep_vv_g(&f, x, y);
          }
          if (!keep) continue;
          if (minmax && x > y) {
            int sw = x;
            x = y;
            y = sw;
          }
          const int pr[2] = {x, y};
          if (j->narrow >= 0.0 &&
              ipc_pair_narrowed_out(j->s, list, pr, j->x0, j->x1, j->grow, j->narrow))
            continue;
          emit_pair(j, list, x, y);
        }
      }
    }
  }
}

/* the bytes an id below r takes */
static int id_bytes(int r) {
  int b = 1;
  while (b < 4 && ((unsigned)r >> (8 * b)) > 0) ++b;
  return b;
}

/* sort_pairs for few pairs over a wide range of ids: stable counting sorts by one byte at a
   time, the second's bytes from the lowest, then the first's (the same order) */
static void sort_pairs_bytes(struct ipc_bodies_ws *w, int *p, size_t n, int ra, int rb) {
  int *src = p, *dst = w->sort_tmp;
  int nb2 = id_bytes(rb), passes = nb2 + id_bytes(ra);
  size_t count[257];
  for (int pass = 0; pass < passes; ++pass) {
    int col = pass < nb2 ? 1 : 0, shift = 8 * (pass < nb2 ? pass : pass - nb2);
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; ++i) ++count[((unsigned)src[2 * i + col] >> shift & 255u) + 1];
    for (int i = 0; i < 256; ++i) count[i + 1] += count[i];
    for (size_t i = 0; i < n; ++i) {
      size_t q = count[(unsigned)src[2 * i + col] >> shift & 255u]++;
      dst[2 * q] = src[2 * i];
      dst[2 * q + 1] = src[2 * i + 1];
    }
    int *t = src;
    src = dst;
    dst = t;
  }
  if (src != p) memcpy(p, src, n * 2 * sizeof(int));
}

/* the n pairs p sorted by (first, second), first in [0, ra), second in [0, rb): a counting
   sort by the second, then a stable one by the first (by bytes when the pairs are few
   against the range of ids: a frozen or resting pile's lists) */
static void sort_pairs(struct ipc_bodies_ws *w, int *p, size_t n, int ra, int rb) {
  if (n < 2) return;
  ipc_reserve((void **)&w->sort_tmp, &w->cap_sort_tmp, 2 * n, sizeof(int));
  size_t range = (size_t)(ra > rb ? ra : rb) + 1;
  if (4 * n < range) {
    sort_pairs_bytes(w, p, n, ra, rb);
    return;
  }
  ipc_reserve((void **)&w->sort_count, &w->cap_sort_count, range, sizeof(size_t));
  size_t *count = w->sort_count;
  for (int pass = 0; pass < 2; ++pass) {
    const int *src = pass == 0 ? p : w->sort_tmp;
    int *dst = pass == 0 ? w->sort_tmp : p;
    int col = pass == 0 ? 1 : 0, r = pass == 0 ? rb : ra;
    memset(count, 0, sizeof *count * ((size_t)r + 1));
    for (size_t i = 0; i < n; ++i) ++count[src[2 * i + col] + 1];
    for (int i = 0; i < r; ++i) count[i + 1] += count[i];
    for (size_t i = 0; i < n; ++i) {
      size_t q = count[src[2 * i + col]]++;
      dst[2 * q] = src[2 * i];
      dst[2 * q + 1] = src[2 * i + 1];
    }
  }
}

/* collective: every rank's pairs of one list (n pairs, capacity cap in pairs) concatenated in
   rank order into the list */
static void gather_pairs(int **list, size_t *n, size_t *cap) {
  void *all = NULL;
  size_t acap = 0, bytes = ipc_mpi_allgather(*list, *n * 2 * sizeof(int), &all, &acap);
  *n = bytes / (2 * sizeof(int));
  ipc_reserve((void **)list, cap, *n + 1, 2 * sizeof(int));
  if (bytes) memcpy(*list, all, bytes);
  ipc_free(all);
}

static int body_pair_kept(int i, int j, void *vctx) {
  const void **ctx = vctx;
  const struct ipc_bodies_ws *w = ctx[0];
  const ipc_surface *s = ctx[1];
  if (w->bpass[i] && w->bpass[j]) return 0;
  if (w->rep[i] < 0 || w->rep[j] < 0) return 0;
  /* the rule is one per pair of bodies (obstacle flags are per body) */
  return ipc_surface_pair_touches(s, w->rep[i], w->rep[j]) ||
         ipc_surface_pair_touches(s, w->rep[j], w->rep[i]);
}

/* whether body b may need pairs within itself: not rigid-shaped, the scene lets a body touch
   itself, and not wholly passive */
static int self_pairs_possible(const struct ipc_bodies_ws *w, const ipc_surface *s, int b) {
  int v = w->rep[b];
  if (v < 0 || w->bpass[b]) return 0;
  if (s->vert_rigid && s->vert_rigid[v]) return 0;
  if (s->body_contact == IPCC_BODY_CONTACT_BETWEEN_BODIES) return 0;
  if (s->body_contact == IPCC_BODY_CONTACT_OBSTACLES_ONLY) return s->vert_obstacle[v];
  return 1;
}

/* the body-pair loop: the pairs of bodies kept (w->kab, their frames and regions) in
   chunks, with the scratch of the thread running it, their pairs appended to c's lists */
typedef struct body_pair_job {
  struct ipc_bodies_ws *w;
  ipc_candidates *c;
  const ipc_surface *s;
  const unsigned char *passive;
  const double *x0, *x1, *grow;
  double r0, narrow;
  int points, codim;
  bodies_superset *rec;
  const int *sel; /* the body pairs to search (indices in kab), or NULL: all */
} body_pair_job;

static double body_pair_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  const body_pair_job *jb = vjob;
  struct ipc_bodies_ws *w = jb->w;
  (void)chunk;
  pair_scratch *t = &w->scr[ipc_thread_num()];
  const int *start[3] = {w->vs, w->es, w->fs};
  for (size_t ip = begin; ip < end; ++ip) {
    size_t p = jb->sel ? (size_t)jb->sel[ip] : ip;
    int a = w->kab[2 * p], b = w->kab[2 * p + 1];
    const double *cf = w->kcf + 3 * p, *R = w->kR + 6 * p;
    ++t->stamp;
    /* room for every primitive of both bodies: the boxes returned stay in place */
    for (int k = 0; k < 3; ++k) {
      size_t room = (size_t)(start[k][a + 1] - start[k][a] + start[k][b + 1] - start[k][b]);
      ipc_reserve((void **)&t->pbox[k], &t->cap_pbox[k], 6 * room + 6, sizeof(double));
      ipc_reserve((void **)&t->pid[k], &t->cap_pid[k], room + 1, sizeof(int));
      t->npb[k] = 0;
    }
    for (int k = 0; k < 3; ++k) {
      frame_chunks(w, t, a, 0, k, cf, R);
      frame_chunks(w, t, b, 1, k, cf, R);
    }
    pair_job j = {w,        t,  jb->c,  jb->s,      jb->passive, jb->x0, jb->x1,
                  jb->grow, cf, jb->r0, jb->narrow, jb->rec,     (int)p};
    /* vertices against faces both ways, edges against edges */
    chunk_pairs(&j, a, 0, 0, b, 1, 2, K_VF, 0, 0);
    chunk_pairs(&j, b, 1, 0, a, 0, 2, K_VF, 0, 0);
    chunk_pairs(&j, a, 0, 1, b, 1, 1, K_EE, 1, 1);
    /* isolated points against every edge, other vertices against codimensional edges;
       points against points */
    if (jb->points || jb->codim) {
      chunk_pairs(&j, a, 0, 0, b, 1, 1, K_VE, 0, 2);
      chunk_pairs(&j, b, 1, 0, a, 0, 1, K_VE, 0, 2);
    }
    if (jb->points) chunk_pairs(&j, a, 0, 0, b, 1, 0, K_VV, 1, 3);
  }
  for (int l = 0; l < 4; ++l) flush_pairs(t, jb->c, l, jb->rec);
  return 0.0;
}

int ipc_bodies_prepare(struct ipc_bodies_ws **wsp, const ipc_surface *s, const double *x0,
                       const double *x1, double inflation, const double *grow,
                       const unsigned char *passive, double wide) {
  if (s->nsv == 0) return 0;
  int nb = 0;
  for (int i = 0; i < s->nsv; ++i)
    nb = s->vert_body[s->sv[i]] + 1 > nb ? s->vert_body[s->sv[i]] + 1 : nb;
  if (nb < 2) return 0;
  if (!*wsp) *wsp = IPC_NEW0(struct ipc_bodies_ws, 1);
  struct ipc_bodies_ws *w = *wsp;
  w->nb = nb;
  /* the grouping and its order depend on the surface only: kept while its hash is the same
     (the order's positions are the first call's: it stays correct, only its chunks may
     loosen as deformable bodies deform) */
  uint64_t h = surface_hash(s);
  if (w->grouped_hash != h || w->grouped_nb != nb) {
    group_by_body(w, s);
    order_in_bodies(w, s, x0);
    pack_vertices(w, s);
    chunk_vertices(w);
    positions(w, s);
    still_ranges(w);
    w->grouped_hash = h;
    w->grouped_nb = nb;
  }
  double r0 = 0.5 * inflation;
  w->r0 = r0;
  ++w->calls;
  static int check = -1;
  if (check < 0) {
    const char *e = getenv("IPCC_BODIES_STILL_CHECK");
    check = e && !strcmp(e, "1");
  }
  w->check = check;
  ipc_reserve((void **)&w->cx, &w->cap_cx, 3 * (size_t)s->nverts, sizeof(double));
  if (r0 != w->chunks_r0) { /* the chunk boxes kept are for another inflation */
    for (int b = 0; b < nb; ++b) w->t_chunks[b] = 0;
    w->chunks_r0 = r0;
  }
  /* the bodies' summaries on the threads, body by body; then, when no body needs pairs
     within itself, the pairs of bodies, and the chunk boxes of the bodies in them (with
     frozen or resting bodies passive, most bodies are in none) */
  reserve_bodies(w);
  bodies_job bj = {w, x0, x1, grow, passive, r0, 0};
  ipc_parallel_sum((size_t)nb, 16, bodies_range, &bj);
  for (int b = 0; b < nb; ++b)
    if (self_pairs_possible(w, s, b)) return 0;

  /* body pairs: world-swept boxes; or, with wide >= 0, each body's box in its own frame grown
     by how far its mean move strays from the bodies' mean move C, plus wide: two bodies whose
     boxes in the frame of the pair meet have such boxes that meet (a frame box lies within
     the own frame's box grown by |c_a - c_b| / 2 <= (|c_a - C| + |c_b - C|) / 2 on each axis;
     wide covers the roundings) */
  double C[3] = {0.0, 0.0, 0.0};
  if (wide >= 0.0) {
    int n = 0;
    for (int b = 0; b < nb; ++b)
      if (w->rep[b] >= 0) {
        ++n;
        for (int k = 0; k < 3; ++k) C[k] += w->c[3 * (size_t)b + k];
      }
    for (int k = 0; k < 3 && n > 0; ++k) C[k] /= n;
  }
  ipc_reserve((void **)&w->bb, &w->cap_bb, 6 * (size_t)nb, sizeof(double));
  for (int b = 0; b < nb; ++b) {
    double *o = w->bb + 6 * (size_t)b, r = r0 + w->gmax[b];
    const double *b0 = w->box0 + 6 * (size_t)b, *b1 = w->box1 + 6 * (size_t)b;
    const double *cb = w->c + 3 * (size_t)b;
    for (int k = 0; k < 3; ++k) {
      if (wide >= 0.0) {
        double e = r + fabs(cb[k] - C[k]) + wide;
        o[k] = mn(b0[k], b1[k] - cb[k]) - e;
        o[k + 3] = mx(b0[k + 3], b1[k + 3] - cb[k]) + e;
      } else {
        o[k] = mn(b0[k], b1[k]) - r;
        o[k + 3] = mx(b0[k + 3], b1[k + 3]) + r;
      }
    }
    if (w->rep[b] < 0)
      for (int k = 0; k < 6; ++k) o[k] = NAN; /* no surface: overlaps nothing */
  }
  if (!w->bw) w->bw = ipc_box_ws_new();
  w->nbp = 0;
  const void *bctx[2] = {w, s};
  ipc_box_pairs_ws(w->bw, &w->bpairs, &w->nbp, &w->cap_bp, w->bb, nb, NULL, 0, body_pair_kept,
                   (void *)bctx);

  /* the body pairs whose boxes in their own frame overlap, with their region */
  w->nkept = 0;
  for (size_t p = 0; p < w->nbp; ++p) {
    int a = w->bpairs[2 * p], b = w->bpairs[2 * p + 1];
    double cf[3], fa[6], fb[6];
    for (int k = 0; k < 3; ++k) cf[k] = 0.5 * (w->c[3 * (size_t)a + k] + w->c[3 * (size_t)b + k]);
    frame_box(w, a, cf, r0 + w->gmax[a], fa);
    frame_box(w, b, cf, r0 + w->gmax[b], fb);
    if (!ipc_box_overlap(fa, fb)) continue;
    size_t n = w->nkept++;
    ipc_reserve((void **)&w->kab, &w->cap_kab, 2 * (n + 1), sizeof(int));
    ipc_reserve((void **)&w->kcf, &w->cap_kcf, 3 * (n + 1), sizeof(double));
    ipc_reserve((void **)&w->kR, &w->cap_kR, 6 * (n + 1), sizeof(double));
    w->kab[2 * n] = a;
    w->kab[2 * n + 1] = b;
    for (int k = 0; k < 3; ++k) {
      w->kcf[3 * n + k] = cf[k];
      w->kR[6 * n + k] = mx(fa[k], fb[k]);
      w->kR[6 * n + k + 3] = mn(fa[k + 3], fb[k + 3]);
    }
  }
  ipc_reserve((void **)&w->inpair, &w->cap_inpair, (size_t)nb, 1);
  memset(w->inpair, 0, (size_t)nb);
  for (size_t p = 0; p < 2 * w->nkept; ++p) w->inpair[w->kab[p]] = 1;
  reserve_chunks(w, s);
  bj.chunks = 1;
  ipc_parallel_sum((size_t)nb, 16, bodies_range, &bj);
  /* isolated points and codimensional edges: a surface built once (its serial) has the same
     ones as at its grouping */
  if (!s->serial || w->flags_hash != w->grouped_hash) {
    w->points = w->codim = 0;
    for (int i = 0; s->vert_point && i < s->nsv; ++i) w->points |= s->vert_point[s->sv[i]];
    for (int e = 0; s->edge_codim && e < s->nedges; ++e) w->codim |= s->edge_codim[e];
    w->flags_hash = w->grouped_hash;
  }
  return 1;
}

void ipc_bodies_search(struct ipc_bodies_ws *w, ipc_candidates *c, const ipc_surface *s,
                       const double *x0, const double *x1, const double *grow,
                       const unsigned char *passive, double narrow_dist, bodies_superset *rec,
                       const int *sel, size_t nsel) {
  int nb = w->nb;
  /* the body pairs in chunks over the threads (each with its own scratch, appending to the
     lists in turns) and, over MPI ranks (mpi_run.h), each rank its chunks */
  int nt = ipc_threads() > 0 ? ipc_threads() : 1;
  if (w->nscr < nt) {
    w->scr = ipc_realloc(w->scr, (size_t)nt * sizeof *w->scr);
    memset(w->scr + w->nscr, 0, (size_t)(nt - w->nscr) * sizeof *w->scr);
    w->nscr = nt;
  }
  for (int i = 0; i < nt; ++i) {
    pair_scratch *t = &w->scr[i];
    for (int k = 0; k < 3; ++k) {
      size_t nch = (size_t)w->chs[k][nb];
      ipc_reserve((void **)&t->chstamp[k], &t->cap_chstamp[k], nch + 1, sizeof(unsigned));
      ipc_reserve((void **)&t->choff[k], &t->cap_choff[k], nch + 1, sizeof(int));
      memset(t->chstamp[k], 0, sizeof(unsigned) * (nch + 1));
    }
    t->stamp = 0;
    for (int l = 0; l < 4; ++l) t->nbuf[l] = 0;
  }
  /* the lists allocated here, on the calling thread: grown later by any thread, they stay in
     the calling thread's heap (glibc reallocates a block in its own arena; a list first
     allocated by a pool thread would live in that thread's arena, where the spikes' blocks
     left 0.2-0.6 GB more resident on the 1,000 pour) */
  ipc_reserve((void **)&c->vf, &c->cap_vf, c->nvf + 2 * FLUSH, 2 * sizeof(int));
  ipc_reserve((void **)&c->ee, &c->cap_ee, c->nee + 2 * FLUSH, 2 * sizeof(int));
  ipc_reserve((void **)&c->ve, &c->cap_ve, c->nve + 2 * FLUSH, 2 * sizeof(int));
  ipc_reserve((void **)&c->vv, &c->cap_vv, c->nvv + 2 * FLUSH, 2 * sizeof(int));
  for (int l = 0; rec && l < 4; ++l)
    ipc_reserve((void **)&rec->bp[l], &rec->cap_bp[l], 2 * FLUSH, sizeof(int));
  size_t n = sel ? nsel : w->nkept, nc = ipc_mpi_chunk_count(n, 4);
  body_pair_job job = {w,     c,           s,         passive,  x0,  x1, grow,
                       w->r0, narrow_dist, w->points, w->codim, rec, sel};
  double unused[IPC_MAX_CHUNKS];
  ipc_mpi_parallel_chunks(n, nc, body_pair_range, &job, unused, IPC_WORK_BODY_PAIRS);
}

void ipc_bodies_sort_lists(struct ipc_bodies_ws *w, ipc_candidates *c, const ipc_surface *s) {
  sort_pairs(w, c->vf, c->nvf, s->nverts, s->nfaces);
  sort_pairs(w, c->ee, c->nee, s->nedges, s->nedges);
  sort_pairs(w, c->ve, c->nve, s->nverts, s->nedges);
  sort_pairs(w, c->vv, c->nvv, s->nverts, s->nverts);
}

int ipc_broad_phase_bodies(struct ipc_bodies_ws **wsp, ipc_candidates *c, const ipc_surface *s,
                           const double *x0, const double *x1, double inflation, const double *grow,
                           const unsigned char *passive, double narrow_dist) {
  if (!x1) x1 = x0; /* at rest: boxes at x0, every frame the same */
  if (!ipc_bodies_prepare(wsp, s, x0, x1, inflation, grow, passive, -1.0)) return 0;
  ipc_candidates_clear(c);
  ipc_bodies_search(*wsp, c, s, x0, x1, grow, passive, narrow_dist, NULL, NULL, 0);
  /* the ranks' lists gathered, then sorted: the same for any number of threads and ranks */
  if (ipc_mpi_splitting()) {
    gather_pairs(&c->vf, &c->nvf, &c->cap_vf);
    gather_pairs(&c->ee, &c->nee, &c->cap_ee);
    gather_pairs(&c->ve, &c->nve, &c->cap_ve);
    gather_pairs(&c->vv, &c->nvv, &c->cap_vv);
  }
  ipc_bodies_sort_lists(*wsp, c, s);
  return 1;
}

void ipc_bodies_ws_free(struct ipc_bodies_ws *w) {
  if (!w) return;
  void *arrays[] = {w->box0,     w->box1,       w->c,      w->gmax,  w->bpass,    w->inpair,
                    w->rep,      w->vs,         w->vid,    w->es,    w->eid,      w->fs,
                    w->fid,      w->bb,         w->bpairs, w->kab,   w->kcf,      w->kR,
                    w->sort_tmp, w->sort_count, w->keyed,  w->vob,   w->ev,       w->fv,
                    w->vlo,      w->vhi,        w->cx,     w->since, w->t_chunks, w->still};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) ipc_free(arrays[i]);
  for (int k = 0; k < 3; ++k) {
    ipc_free(w->chbox[k]);
    ipc_free(w->grpbox[k]);
    ipc_free(w->chs[k]);
    ipc_free(w->cvb[k]);
    ipc_free(w->cvs[k]);
    ipc_free(w->cvid[k]);
  }
  for (int i = 0; i < w->nscr; ++i) {
    pair_scratch *t = &w->scr[i];
    ipc_free(t->meet);
    for (int k = 0; k < 3; ++k) {
      ipc_free(t->chstamp[k]);
      ipc_free(t->choff[k]);
      ipc_free(t->pid[k]);
      ipc_free(t->pbox[k]);
      for (int side = 0; side < 2; ++side) {
        ipc_free(t->lch[side][k]);
        ipc_free(t->lbox[side][k]);
      }
    }
  }
  ipc_free(w->scr);
  ipc_box_ws_free(w->bw);
  for (int k = 0; k < 3; ++k) ipc_free(w->pos[k]);
  ipc_bodies_superset_free(&w->sup);
  ipc_free(w);
}
