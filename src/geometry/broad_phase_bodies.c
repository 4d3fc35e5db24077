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
   listed, sorted or gathered. */
#include "geometry/broad_phase_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/box_tree.h"
#include "linalg/mpi_run.h"

/* min and max without libm's NaN rules (fmin/fmax are calls on x86-64); the inputs are
   finite coordinates */
static inline double mn(double a, double b) {
  return b < a ? b : a;
}
static inline double mx(double a, double b) {
  return b > a ? b : a;
}

/* ipc_broad_phase_bodies_narrowed's superset: the pairs a search with grown vertex boxes
   found, with the body pair (its index in kab then) of each; what the search was for; the
   narrowing's keys and the odometers they are carried by */
typedef struct bodies_superset {
  int valid;
  uint64_t hash;
  int nb, has_passive;
  double r0;
  unsigned char *passive; /* (nverts) the passive set it was searched for */
  size_t cap_passive;
  ipc_candidates cand; /* its pairs */
  int *bp[4];          /* per pair of each list: its body pair, an index in kab */
  size_t cap_bp[4];
  double *key; /* per pair (the lists end to end): a lower bound on its distance plus the
                  odometers of its sides and of its body pair then, or -inf */
  unsigned char *keep;
  size_t cap_key, cap_keep;
  /* the search's positions and grows (per vertex), margins and world boxes (per body), body
     pairs (a < b) and a table of them by (a, b) */
  double *x0, *x1, *g, *G;
  size_t cap_x0, cap_x1, cap_g, cap_G;
  int *kab, *tab;
  size_t nkab, cap_kab, cap_tab, tmask;
  /* per body pair: its odometer (the path of the difference of the two bodies' mean
     positions) and its index in this call's kab (-1: not kept); per body its mean move this
     call, its deviation, and its mean moves since the search at x0 and x1; per surface vertex
     its odometer (its path relative to its body's mean) and position at the last call and
     this call's step length */
  double *odo_ab, *dob, *dev, *ob, *ub, *odo, *xlast, *step;
  size_t cap_odo_ab, cap_dob, cap_dev, cap_ob, cap_ub, cap_odo, cap_xlast, cap_step;
  int *cur;
  size_t cap_cur;
  double *growp; /* the search's grown boxes' grow */
  size_t cap_growp;
  /* per body: its motion this call, searched into the superset (calm then), its world box
     inside its box then; the body pairs searched directly this call (indices in kab) */
  double *mb;
  unsigned char *calm;
  int *sel;
  size_t nsel, cap_mb, cap_calm, cap_sel;
  double M; /* the largest |coordinate| of a surface vertex this call */
} bodies_superset;

struct ipc_bodies_ws {
  int nb;
  double r0;         /* prepared for: half the inflation */
  int points, codim; /* isolated points, codimensional edges on the surface */
  int *pos[3]; /* position of each vertex (-1 off the surface), edge, face in vid / eid / fid */
  size_t cap_pos[3];
  bodies_superset sup;
  double *box0, *box1, *c, *gmax; /* per body: boxes at x0 and x1, mean displacement, grow */
  size_t cap_box0, cap_box1, cap_c, cap_gmax;
  unsigned char *bpass; /* per body: every surface vertex passive */
  size_t cap_bpass;
  int *rep; /* per body: one surface vertex (for ipc_surface_pair_touches), -1: none */
  size_t cap_rep;
  /* primitives by body (CSR): surface vertices, edges, faces */
  int *vs, *vid, *es, *eid, *fs, *fid;
  size_t cap_vs, cap_vid, cap_es, cap_eid, cap_fs, cap_fid;
  double *bb; /* body boxes for the body pairs */
  size_t cap_bb;
  int *bpairs;
  size_t nbp, cap_bp;
  ipc_box_ws *bw;
  /* the body pairs whose frame boxes overlap: bodies, frame, region */
  int *kab;
  double *kcf, *kR;
  size_t nkept, cap_kab, cap_kcf, cap_kR;
  /* the body-pair loop's scratch and pair lists, one per thread (core/parallel.h) */
  struct pair_scratch *scr;
  int nscr;
  /* chunks of CHUNK consecutive primitives of one body and kind (positions in vid / eid /
     fid), with their boxes in the body's own frame (swept over x0 -> x1 - c_b) */
  double *chbox[3], *grpbox[3]; /* and of groups of CHUNK chunks */
  size_t cap_chbox[3], cap_grpbox[3];
  int *chs[3]; /* (nb + 1) first chunk of each body */
  size_t cap_chs[3];
  uint64_t grouped_hash; /* surface_hash of the surface the lists by body are for */
  int grouped_nb;
  struct keyed *keyed;
  size_t cap_keyed;
  double *vob; /* (nverts x 6) surface vertices' boxes in their body's own frame */
  size_t cap_vob;
  /* the vertices of the edges and faces in their lists' order (eid, fid): read in sequence
     where the surface's own arrays would be read at the lists' Morton-scattered ids */
  int *ev, *fv;
  size_t cap_ev, cap_fv;
  int *sort_tmp; /* sort_pairs */
  size_t *sort_count;
  size_t cap_sort_tmp, cap_sort_count;
};

enum { CHUNK = 16, FLUSH = 512 };

/* one thread's scratch for the pairs of bodies it takes: per pair of bodies, the chunks of
   each side and kind that meet its region, with their boxes in the pair's frame; the
   primitive boxes of the chunks met (stamped per pair) */
typedef struct pair_scratch {
  int *lch[2][3];
  double *lbox[2][3];
  size_t nl[2][3], cap_lch[2][3], cap_lbox[2][3];
  unsigned *chstamp[3], stamp;
  int *choff[3], *pid[3];
  double *pbox[3];
  size_t npb[3], cap_chstamp[3], cap_choff[3], cap_pid[3], cap_pbox[3];
  /* the pairs the thread found last, vf, ee, ve, vv, on their way to the candidates' lists,
     and their body pairs (for the superset) */
  int buf[4][2 * FLUSH], bbuf[4][FLUSH];
  int nbuf[4];
} pair_scratch;

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

static void box_union(double *u, const double *b) {
  for (int k = 0; k < 3; ++k) {
    u[k] = mn(u[k], b[k]);
    u[k + 3] = mx(u[k + 3], b[k + 3]);
  }
}

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

static void body_summary(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
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

/* vertex v's box over x0 -> x1 - c, grown by r0 plus its grow */
static inline void vertex_box(const double *x0, const double *x1, const double *grow, size_t v,
                              const double c[3], double r0, double *bx) {
  double r = grow ? r0 + grow[v] : r0;
  for (int k = 0; k < 3; ++k) {
    double p = x0[3 * v + k], q = x1[3 * v + k] - c[k];
    bx[k] = mn(p, q) - r;
    bx[k + 3] = mx(p, q) + r;
  }
}

/* the boxes of the nv vertices of elem (their union) in the frame c */
static inline void elem_box(const double *x0, const double *x1, const double *grow, const int *ev,
                            int nv, const double c[3], double r0, double *u) {
  vertex_box(x0, x1, grow, (size_t)ev[0], c, r0, u);
  for (int k = 1; k < nv; ++k) {
    double b[6];
    vertex_box(x0, x1, grow, (size_t)ev[k], c, r0, b);
    box_union(u, b);
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
      for (int i = i0; i < i1; ++i) {
        const int *v = k == 0 ? &w->vid[i] : k == 1 ? w->ev + 2 * (size_t)i : w->fv + 3 * (size_t)i;
        for (int q = 0; q <= k; ++q) box_union(u, w->vob + 6 * (size_t)v[q]);
      }
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

/* bodies_range's passes: summaries (r0 < 0), chunk boxes (passive CHUNKS_ONLY), or both */
static const unsigned char chunks_only_tag;
#define CHUNKS_ONLY (&chunks_only_tag)

typedef struct bodies_job {
  struct ipc_bodies_ws *w;
  const double *x0, *x1, *grow;
  const unsigned char *passive;
  double r0;
} bodies_job;

/* bodies [begin, end): summaries and chunk boxes */
static double bodies_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const bodies_job *j = vjob;
  for (size_t b = begin; b < end; ++b) {
    if (j->passive != CHUNKS_ONLY) body_summary(j->w, (int)b, j->x0, j->x1, j->grow, j->passive);
    if (j->r0 >= 0.0) body_chunks(j->w, (int)b, j->x0, j->x1, j->r0, j->grow);
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
  for (int g = c0; g < c1; g += CHUNK) {
    if (!ipc_box_overlap(w->grpbox[k] + 6 * (size_t)(g / CHUNK), Q)) continue;
    int g1 = g + CHUNK < c1 ? g + CHUNK : c1;
    for (int ch = g; ch < g1; ++ch) {
      const double *o = w->chbox[k] + 6 * (size_t)ch;
      if (!ipc_box_overlap(o, Q)) continue;
      double *f = t->lbox[side][k] + 6 * n;
      for (int j = 0; j < 3; ++j) {
        f[j] = o[j] + mn(0.0, d[j]);
        f[j + 3] = o[j + 3] + mx(0.0, d[j]);
      }
      t->lch[side][k][n++] = ch;
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
    for (size_t q = 0; q < t->nl[sb][kb]; ++q) {
      const double *B = t->lbox[sb][kb] + 6 * q;
      if (!ipc_box_overlap(A, B)) continue;
      const int *ia, *ib;
      int na, nb;
      const double *pa = chunk_prims(w, t, ka, a, t->lch[sa][ka][i], j->x0, j->x1, j->cf, j->r0,
                                     j->grow, &ia, &na);
      const double *pb = chunk_prims(w, t, kb, b, t->lch[sb][kb][q], j->x0, j->x1, j->cf, j->r0,
                                     j->grow, &ib, &nb);
      /* the primitives of each chunk within the other chunk's box, then their pairs */
      int ua[CHUNK], vb[CHUNK], nua = 0, nvb = 0;
      for (int u = 0; u < na; ++u)
        if (ipc_box_overlap(pa + 6 * u, B)) ua[nua++] = u;
      if (nua == 0) continue;
      for (int v = 0; v < nb; ++v)
        if (ipc_box_overlap(pb + 6 * v, A)) vb[nvb++] = v;
      for (int iu = 0; iu < nua; ++iu) {
        int u = ua[iu];
        for (int iv = 0; iv < nvb; ++iv) {
          int v = vb[iv];
          if (!ipc_box_overlap(pa + 6 * u, pb + 6 * v)) continue;
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

/* the n pairs p sorted by (first, second), first in [0, ra), second in [0, rb): a counting
   sort by the second, then a stable one by the first */
static void sort_pairs(struct ipc_bodies_ws *w, int *p, size_t n, int ra, int rb) {
  if (n < 2) return;
  ipc_reserve((void **)&w->sort_tmp, &w->cap_sort_tmp, 2 * n, sizeof(int));
  size_t range = (size_t)(ra > rb ? ra : rb) + 1;
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

/* what a search needs for this call, into *wsp (created on first use): the lists by body, the
   bodies' summaries, the body pairs kept (kab, with their frames and regions), the chunks'
   boxes. Returns 0 when the body-by-body phase does not apply */
static int prepare(struct ipc_bodies_ws **wsp, const ipc_surface *s, const double *x0,
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
    positions(w, s);
    w->grouped_hash = h;
    w->grouped_nb = nb;
  }
  double r0 = 0.5 * inflation;
  w->r0 = r0;
  /* the bodies' summaries on the threads, body by body; then, when no body needs pairs
     within itself, their chunk boxes */
  reserve_bodies(w);
  bodies_job bj = {w, x0, x1, grow, passive, -1.0};
  ipc_parallel_sum((size_t)nb, 16, bodies_range, &bj);
  for (int b = 0; b < nb; ++b)
    if (self_pairs_possible(w, s, b)) return 0;
  reserve_chunks(w, s);
  bj.passive = CHUNKS_ONLY;
  bj.r0 = r0;
  ipc_parallel_sum((size_t)nb, 16, bodies_range, &bj);

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
  w->points = w->codim = 0;
  for (int i = 0; s->vert_point && i < s->nsv; ++i) w->points |= s->vert_point[s->sv[i]];
  for (int e = 0; s->edge_codim && e < s->nedges; ++e) w->codim |= s->edge_codim[e];
  return 1;
}

/* the prepared search over the body pairs sel[0 .. nsel) (NULL: all kept): their pairs of
   primitives appended to c's lists, in no particular order; with rec, each pair's body pair
   into rec->bp alongside */
static void search(struct ipc_bodies_ws *w, ipc_candidates *c, const ipc_surface *s,
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

/* c's lists sorted by (first, second) */
static void sort_lists(struct ipc_bodies_ws *w, ipc_candidates *c, const ipc_surface *s) {
  sort_pairs(w, c->vf, c->nvf, s->nverts, s->nfaces);
  sort_pairs(w, c->ee, c->nee, s->nedges, s->nedges);
  sort_pairs(w, c->ve, c->nve, s->nverts, s->nedges);
  sort_pairs(w, c->vv, c->nvv, s->nverts, s->nverts);
}

int ipc_broad_phase_bodies(struct ipc_bodies_ws **wsp, ipc_candidates *c, const ipc_surface *s,
                           const double *x0, const double *x1, double inflation, const double *grow,
                           const unsigned char *passive, double narrow_dist) {
  if (!x1) x1 = x0; /* at rest: boxes at x0, every frame the same */
  if (!prepare(wsp, s, x0, x1, inflation, grow, passive, -1.0)) return 0;
  ipc_candidates_clear(c);
  search(*wsp, c, s, x0, x1, grow, passive, narrow_dist, NULL, NULL, 0);
  /* the ranks' lists gathered, then sorted: the same for any number of threads and ranks */
  if (ipc_mpi_splitting()) {
    gather_pairs(&c->vf, &c->nvf, &c->cap_vf);
    gather_pairs(&c->ee, &c->nee, &c->cap_ee);
    gather_pairs(&c->ve, &c->nve, &c->cap_ve);
    gather_pairs(&c->vv, &c->nvv, &c->cap_vv);
  }
  sort_lists(*wsp, c, s);
  return 1;
}

/* ---- the superset of ipc_broad_phase_bodies_narrowed ---- */

/* the superset's margins: a body whose motion over the step of the search (its vertices'
   largest move relative to its own mean move plus the largest difference of mean moves with a
   body it is paired with) is at most SUPERSET_CALM times half the inflation is searched with
   its vertex boxes grown by SUPERSET_GROWTH times that motion plus SUPERSET_FLOOR times half
   the inflation: room for the shorter steps that follow in a Newton solve. The pairs of bodies
   that move more, or have moved beyond their margins since, are searched at each call */
#define SUPERSET_GROWTH 1.0
#define SUPERSET_FLOOR 2.0
#define SUPERSET_CALM 4.0

/* side of a pair: primitive id of kind k (0 vertex, 1 edge, 2 face) in the frame cf of its
   body pair with region R, replaying frame_chunks and chunk_prims on the same doubles: 0 when
   its chunk (or the chunk's group) misses the region; else its chunk's box in the frame into F,
   its own box into P */
static int side_boxes(const struct ipc_bodies_ws *w, const ipc_surface *s, int k, int id,
                      const double *x0, const double *x1, const double *grow, const double cf[3],
                      const double R[6], double F[6], double P[6]) {
  int v0 = k == 0 ? id : k == 1 ? s->edges[2 * (size_t)id] : s->faces[3 * (size_t)id];
  int b = s->vert_body[v0], i = w->pos[k][id];
  const int *start = k == 0 ? w->vs : k == 1 ? w->es : w->fs;
  int ch = w->chs[k][b] + (i - start[b]) / CHUNK;
  const double *cb = w->c + 3 * (size_t)b;
  double d[3] = {cb[0] - cf[0], cb[1] - cf[1], cb[2] - cf[2]}, Q[6];
  for (int j = 0; j < 3; ++j) {
    Q[j] = R[j] - mx(0.0, d[j]);
    Q[j + 3] = R[j + 3] - mn(0.0, d[j]);
  }
  const double *o = w->chbox[k] + 6 * (size_t)ch;
  if (!ipc_box_overlap(w->grpbox[k] + 6 * (size_t)(ch / CHUNK), Q) || !ipc_box_overlap(o, Q))
    return 0;
  for (int j = 0; j < 3; ++j) {
    F[j] = o[j] + mn(0.0, d[j]);
    F[j + 3] = o[j + 3] + mx(0.0, d[j]);
  }
  if (k == 0)
    vertex_box(x0, x1, grow, (size_t)id, cf, w->r0, P);
  else if (k == 1)
    elem_box(x0, x1, grow, w->ev + 2 * (size_t)i, 2, cf, w->r0, P);
  else
    elem_box(x0, x1, grow, w->fv + 3 * (size_t)i, 3, cf, w->r0, P);
  return 1;
}

/* whether the prepared search lists pair pr of list `list` (0 vf, 1 ee, 2 ve, 3 vv; a pair
   its filters keep) of body pair kp: chunk_pairs' tests replayed */
static int boxes_meet(const struct ipc_bodies_ws *w, const ipc_surface *s, int list,
                      const int pr[2], size_t kp, const double *x0, const double *x1,
                      const double *grow) {
  static const int kinds[4][2] = {{0, 2}, {1, 1}, {0, 1}, {0, 0}};
  const double *cf = w->kcf + 3 * kp, *R = w->kR + 6 * kp;
  double Fa[6], Pa[6], Fb[6], Pb[6];
  if (!side_boxes(w, s, kinds[list][0], pr[0], x0, x1, grow, cf, R, Fa, Pa) ||
      !side_boxes(w, s, kinds[list][1], pr[1], x0, x1, grow, cf, R, Fb, Pb))
    return 0;
  return ipc_box_overlap(Fa, Fb) & ipc_box_overlap(Pa, Fb) & ipc_box_overlap(Pb, Fa) &
         ipc_box_overlap(Pa, Pb);
}

/* the superset's body pair (a, b), a < b, by the table: its index, or -1 */
static long find_pair(const bodies_superset *u, int a, int b) {
  uint64_t h = ((uint64_t)(uint32_t)a * 0x9E3779B97F4A7C15ull) ^ (uint64_t)(uint32_t)b;
  for (size_t i = (size_t)(h * 0xBF58476D1CE4E5B9ull >> 20) & u->tmask;; i = (i + 1) & u->tmask) {
    int q = u->tab[i];
    if (q < 0) return -1;
    if (u->kab[2 * (size_t)q] == a && u->kab[2 * (size_t)q + 1] == b) return q;
  }
}

static void table_pairs(bodies_superset *u) {
  size_t n = 16;
  while (n < 2 * u->nkab + 2) n *= 2;
  ipc_reserve((void **)&u->tab, &u->cap_tab, n, sizeof(int));
  u->tmask = n - 1;
  for (size_t i = 0; i < n; ++i) u->tab[i] = -1;
  for (size_t q = 0; q < u->nkab; ++q) {
    uint64_t a = (uint32_t)u->kab[2 * q], b = (uint32_t)u->kab[2 * q + 1];
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ b;
    size_t i = (size_t)(h * 0xBF58476D1CE4E5B9ull >> 20) & u->tmask;
    while (u->tab[i] >= 0) i = (i + 1) & u->tmask;
    u->tab[i] = (int)q;
  }
}

static double inf_norm3(double a, double b, double c) {
  return mx(mx(fabs(a), fabs(b)), fabs(c));
}

/* body b's motion over this call's step into u->mb, its own part: its vertices' largest move
   relative to its mean move (the pairs' part is added by pair_motions) */
static void own_motion(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1) {
  const double *cb = w->c + 3 * (size_t)b;
  double own = 0.0;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
    size_t v = (size_t)w->vid[i];
    own = mx(own, inf_norm3(x1[3 * v] - x0[3 * v] - cb[0], x1[3 * v + 1] - x0[3 * v + 1] - cb[1],
                            x1[3 * v + 2] - x0[3 * v + 2] - cb[2]));
  }
  w->sup.mb[b] = own;
}

/* the bodies' motions (SUPERSET_CALM above): their own, then the largest difference of mean
   moves with a body they are paired with */
static void pair_motions(struct ipc_bodies_ws *w) {
  bodies_superset *u = &w->sup;
  for (size_t p = 0; p < w->nkept; ++p) {
    int a = w->kab[2 * p], b = w->kab[2 * p + 1];
    const double *ca = w->c + 3 * (size_t)a, *cb = w->c + 3 * (size_t)b;
    double r = inf_norm3(ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]);
    u->mb[a] = mx(u->mb[a], r);
    u->mb[b] = mx(u->mb[b], r);
  }
}

/* since the superset's search, body b's mean moves of x0 and x1 (u->ob, u->ub) and its
   vertices' largest deviation from them plus their grows' increase (u->dev) */
static void deviation(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1,
                      const double *grow) {
  bodies_superset *u = &w->sup;
  double *o = u->ob + 3 * (size_t)b, *m = u->ub + 3 * (size_t)b, D = 0.0;
  int n = w->vs[b + 1] - w->vs[b];
  for (int k = 0; k < 3; ++k) o[k] = m[k] = 0.0;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
    size_t v = (size_t)w->vid[i];
    for (int k = 0; k < 3; ++k) {
      o[k] += x0[3 * v + k] - u->x0[3 * v + k];
      m[k] += x1[3 * v + k] - u->x1[3 * v + k];
    }
  }
  for (int k = 0; k < 3 && n > 0; ++k) {
    o[k] /= n;
    m[k] /= n;
  }
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
    size_t v = (size_t)w->vid[i];
    double e0 = inf_norm3(x0[3 * v] - u->x0[3 * v] - o[0], x0[3 * v + 1] - u->x0[3 * v + 1] - o[1],
                          x0[3 * v + 2] - u->x0[3 * v + 2] - o[2]);
    double e1 = inf_norm3(x1[3 * v] - u->x1[3 * v] - m[0], x1[3 * v + 1] - u->x1[3 * v + 1] - m[1],
                          x1[3 * v + 2] - u->x1[3 * v + 2] - m[2]);
    double dg = grow ? mx(0.0, grow[v] - u->g[v]) : 0.0;
    D = mx(D, mx(e0, e1) + dg);
  }
  u->dev[b] = D;
}

/* the odometers of body b's surface vertices run on by this call's moves from the last call's
   x0, relative to the body's mean move (into u->dob), rounded up: the bounds taken from them
   must hold */
static void run_odometers(struct ipc_bodies_ws *w, int b, const double *x0) {
  bodies_superset *u = &w->sup;
  double *o = u->dob + 3 * (size_t)b;
  int n = w->vs[b + 1] - w->vs[b];
  o[0] = o[1] = o[2] = 0.0;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i)
    for (int k = 0; k < 3; ++k) {
      size_t v = (size_t)w->vid[i];
      o[k] += x0[3 * v + k] - u->xlast[3 * v + k];
    }
  for (int k = 0; k < 3 && n > 0; ++k) o[k] /= n;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
    size_t v = (size_t)w->vid[i];
    double a[3];
    for (int k = 0; k < 3; ++k) a[k] = x0[3 * v + k] - u->xlast[3 * v + k] - o[k];
    u->odo[v] += sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) * (1.0 + 1e-12);
    memcpy(u->xlast + 3 * v, x0 + 3 * v, 3 * sizeof(double));
  }
}

/* each body pair's odometer run on by the difference of its two bodies' mean moves */
static void run_pair_odometers(bodies_superset *u) {
  for (size_t q = 0; q < u->nkab; ++q) {
    const double *oa = u->dob + 3 * (size_t)u->kab[2 * q];
    const double *ob = u->dob + 3 * (size_t)u->kab[2 * q + 1];
    double a[3] = {oa[0] - ob[0], oa[1] - ob[1], oa[2] - ob[2]};
    u->odo_ab[q] += sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) * (1.0 + 1e-12);
  }
}

enum { DO_MOTION = 1, DO_ODOMETERS = 2, DO_DEVIATIONS = 4 };

typedef struct sup_bodies_job {
  struct ipc_bodies_ws *w;
  const double *x0, *x1, *grow;
  int what;
} sup_bodies_job;

static double sup_bodies_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const sup_bodies_job *j = vjob;
  for (size_t b = begin; b < end; ++b) {
    if (j->what & DO_MOTION) own_motion(j->w, (int)b, j->x0, j->x1);
    if (j->what & DO_ODOMETERS) run_odometers(j->w, (int)b, j->x0);
    if (j->what & DO_DEVIATIONS) deviation(j->w, (int)b, j->x0, j->x1, j->grow);
  }
  return 0.0;
}

/* the per-body parts `what` on the threads, body by body */
static void sup_bodies(struct ipc_bodies_ws *w, const double *x0, const double *x1,
                       const double *grow, int what) {
  bodies_superset *u = &w->sup;
  size_t nb = (size_t)w->nb;
  ipc_reserve((void **)&u->mb, &u->cap_mb, nb, sizeof(double));
  ipc_reserve((void **)&u->dob, &u->cap_dob, 3 * nb, sizeof(double));
  ipc_reserve((void **)&u->ob, &u->cap_ob, 3 * nb, sizeof(double));
  ipc_reserve((void **)&u->ub, &u->cap_ub, 3 * nb, sizeof(double));
  ipc_reserve((void **)&u->dev, &u->cap_dev, nb, sizeof(double));
  sup_bodies_job j = {w, x0, x1, grow, what};
  ipc_parallel_sum(nb, 16, sup_bodies_range, &j);
}

/* which body pairs kept now the superset answers for (u->cur: their index now by the
   superset's, -1 for the others) and which are searched directly (u->sel); returns how many of
   the direct ones are calm now. The superset answers for pair (a, b) when both bodies were
   searched into it and, up to the common translation T = half the sum of the two bodies' mean
   moves since (of x0 and x1 alike), each of their vertex boxes in the pair's frame lies inside
   its grown box then with 1e-9 M to spare (box overlap is kept by a common translation; the
   frame's own move is the two bodies' mean moves of x1 - x0, so a vertex of body a is off by
   its deviation from a's mean move plus half the difference of the two bodies' mean moves, and
   by its grow's increase): any two of their primitives whose boxes meet now had boxes that met
   then by more than the search's roundings in its chunk and frame tests, and the two bodies'
   boxes in their frame met then, so that the search, which took its body pairs from boxes
   implied by those (prepare's wide boxes), holds them. A pair it answers for that is not among
   its body pairs has no pair of primitives now */
static size_t classify(struct ipc_bodies_ws *w, int valid) {
  bodies_superset *u = &w->sup;
  ipc_reserve((void **)&u->cur, &u->cap_cur, u->nkab + 1, sizeof(int));
  ipc_reserve((void **)&u->sel, &u->cap_sel, w->nkept + 1, sizeof(int));
  for (size_t q = 0; q < u->nkab; ++q) u->cur[q] = -1;
  u->nsel = 0;
  size_t calm = 0;
  double slack = 1e-9 * u->M, lim = SUPERSET_CALM * w->r0;
  for (size_t p = 0; p < w->nkept; ++p) {
    int a = w->kab[2 * p], b = w->kab[2 * p + 1], in = 0;
    if (valid && u->calm[a] && u->calm[b]) {
      const double *oa = u->ob + 3 * (size_t)a, *ob = u->ob + 3 * (size_t)b;
      const double *ma = u->ub + 3 * (size_t)a, *mb = u->ub + 3 * (size_t)b;
      double e = 0.5 * mx(inf_norm3(oa[0] - ob[0], oa[1] - ob[1], oa[2] - ob[2]),
                          inf_norm3(ma[0] - mb[0], ma[1] - mb[1], ma[2] - mb[2]));
      in = u->dev[a] + e <= u->G[a] * (1.0 - 1e-9) - slack &&
           u->dev[b] + e <= u->G[b] * (1.0 - 1e-9) - slack;
    }
    if (in) {
      long q = find_pair(u, a, b);
      if (q >= 0) u->cur[q] = (int)p;
    } else {
      u->sel[u->nsel++] = (int)p;
      calm += u->mb[a] <= lim && u->mb[b] <= lim;
    }
  }
  return calm;
}

/* a new superset from the prepared call (its motions in u->mb): margins per body, the search
   with grown boxes over the pairs of calm bodies, what it was for; the keys and odometers start
   again. Leaves w prepared for the call */
static int rebuild(struct ipc_bodies_ws **wsp, const ipc_surface *s, const double *x0,
                   const double *x1, double inflation, const double *grow,
                   const unsigned char *passive) {
  struct ipc_bodies_ws *w = *wsp;
  bodies_superset *u = &w->sup;
  int nb = w->nb;
  size_t nv = (size_t)s->nverts;
  ipc_reserve((void **)&u->G, &u->cap_G, (size_t)nb, sizeof(double));
  ipc_reserve((void **)&u->calm, &u->cap_calm, (size_t)nb, 1);
  for (int b = 0; b < nb; ++b) {
    u->calm[b] = u->mb[b] <= SUPERSET_CALM * w->r0;
    u->G[b] = SUPERSET_GROWTH * u->mb[b] + SUPERSET_FLOOR * w->r0 + 1e-8 * u->M;
  }
  ipc_reserve((void **)&u->x0, &u->cap_x0, 3 * nv, sizeof(double));
  ipc_reserve((void **)&u->x1, &u->cap_x1, 3 * nv, sizeof(double));
  ipc_reserve((void **)&u->g, &u->cap_g, nv, sizeof(double));
  ipc_reserve((void **)&u->growp, &u->cap_growp, nv, sizeof(double));
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    memcpy(u->x0 + 3 * v, x0 + 3 * v, 3 * sizeof(double));
    memcpy(u->x1 + 3 * v, x1 + 3 * v, 3 * sizeof(double));
    u->g[v] = grow ? grow[v] : 0.0;
    u->growp[v] = u->g[v] + u->G[s->vert_body[v]];
  }
  if (!prepare(wsp, s, x0, x1, inflation, u->growp, passive, 1e-9 * u->M)) return 0;
  u->nkab = w->nkept;
  ipc_reserve((void **)&u->kab, &u->cap_kab, 2 * u->nkab + 2, sizeof(int));
  memcpy(u->kab, w->kab, 2 * u->nkab * sizeof(int));
  table_pairs(u);
  ipc_reserve((void **)&u->sel, &u->cap_sel, w->nkept + 1, sizeof(int));
  u->nsel = 0;
  for (size_t p = 0; p < w->nkept; ++p)
    if (u->calm[w->kab[2 * p]] && u->calm[w->kab[2 * p + 1]]) u->sel[u->nsel++] = (int)p;
  ipc_candidates_clear(&u->cand);
  search(w, &u->cand, s, x0, x1, u->growp, passive, -1.0, u, u->sel, u->nsel);
  size_t n = u->cand.nvf + u->cand.nee + u->cand.nve + u->cand.nvv;
  ipc_reserve((void **)&u->key, &u->cap_key, n + 1, sizeof(double));
  ipc_shrink((void **)&u->key, &u->cap_key, n + 1, sizeof(double));
  for (size_t i = 0; i < n; ++i) u->key[i] = -INFINITY;
  ipc_reserve((void **)&u->odo_ab, &u->cap_odo_ab, u->nkab + 1, sizeof(double));
  for (size_t q = 0; q < u->nkab; ++q) u->odo_ab[q] = 0.0;
  ipc_reserve((void **)&u->odo, &u->cap_odo, nv + 1, sizeof(double));
  ipc_reserve((void **)&u->xlast, &u->cap_xlast, 3 * nv + 3, sizeof(double));
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    u->odo[v] = 0.0;
    memcpy(u->xlast + 3 * v, x0 + 3 * v, 3 * sizeof(double));
  }
  u->hash = w->grouped_hash;
  u->nb = nb;
  u->r0 = w->r0;
  u->has_passive = passive != NULL;
  if (passive) {
    ipc_reserve((void **)&u->passive, &u->cap_passive, nv, 1);
    memcpy(u->passive, passive, nv);
  }
  u->valid = 1;
  return prepare(wsp, s, x0, x1, inflation, grow, passive, -1.0);
}

typedef struct sup_job {
  const struct ipc_bodies_ws *w;
  bodies_superset *u;
  const ipc_surface *s;
  const double *x0, *x1, *grow;
  double dist;
} sup_job;

/* the superset's pairs [begin, end) (its lists end to end) judged: kept when their body pair
   is kept now, the narrowing does not drop them (by the key, carried by the odometers: the
   pair's distance at x0 is at least its key less the odometers of its sides and of its body
   pair, the two primitives having moved by a common translation, their vertices' moves
   relative to it and the relative move of the two bodies' means; else by its verdict, which
   renews the key) and the search's box tests would list them */
static double sup_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const sup_job *j = vjob;
  const struct ipc_bodies_ws *w = j->w;
  bodies_superset *u = j->u;
  const ipc_candidates *c = &u->cand;
  const int *list[4] = {c->vf, c->ee, c->ve, c->vv};
  const size_t len[4] = {c->nvf, c->nee, c->nve, c->nvv};
  size_t s0 = 0, lo, hi;
  double by_key = 0.0;
  for (int l = 0; l < 4; s0 += len[l], ++l) {
    if (!ipc_subrange(s0, len[l], begin, end, &lo, &hi)) continue;
    for (size_t i = lo; i < hi; ++i) {
      const int *pr = list[l] + 2 * i;
      int q = u->bp[l][i], kp = u->cur[q];
      double *key = u->key + s0 + i;
      u->keep[s0 + i] = 0;
      if (kp < 0) continue;
      int v[4], nv = ipc_pair_list_vertices(j->s, l, pr, v), na = l == 1 ? 2 : 1;
      double o[2] = {0.0, 0.0};
      for (int k = 0; k < nv; ++k) o[k >= na] = mx(o[k >= na], u->odo[v[k]]);
      double far = (*key - o[0] - o[1] - u->odo_ab[q]) * (1.0 - 1e-9) - 1e-6 * u->M;
      if (ipc_pair_far_beyond(far, j->s, l, pr, j->x0, j->x1, j->grow, u->step, j->dist)) {
        by_key += 1.0;
        continue;
      }
      double lb = 0.0;
      int apart = ipc_pair_narrowed_lb(j->s, l, pr, j->x0, j->x1, j->grow, j->dist, &lb);
      double m[2] = {INFINITY, INFINITY};
      for (int k = 0; k < nv; ++k) m[k >= na] = mn(m[k >= na], u->odo[v[k]]);
      *key = lb - 1e-7 * u->M + m[0] + m[1] + u->odo_ab[q];
      if (apart) continue;
      u->keep[s0 + i] =
          (unsigned char)boxes_meet(w, j->s, l, pr, (size_t)kp, j->x0, j->x1, j->grow);
    }
  }
  return by_key;
}

int ipc_broad_phase_bodies_narrowed(struct ipc_bodies_ws **wsp, ipc_candidates *c,
                                    const ipc_surface *s, const double *x0, const double *x1,
                                    double inflation, const double *grow,
                                    const unsigned char *passive, double narrow_dist,
                                    ipc_broad_phase_cache_stats *st) {
  static int off = -1;
  if (off < 0) {
    const char *e = getenv("IPCC_BODIES_SUPERSET");
    off = e && !strcmp(e, "0");
  }
  if (off || !x1 || narrow_dist < 0.0 || ipc_mpi_splitting())
    return ipc_broad_phase_bodies(wsp, c, s, x0, x1, inflation, grow, passive, narrow_dist);
  if (!prepare(wsp, s, x0, x1, inflation, grow, passive, -1.0)) return 0;
  struct ipc_bodies_ws *w = *wsp;
  bodies_superset *u = &w->sup;
  ++st->calls;
  double M = 0.0;
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    for (int k = 0; k < 3; ++k) M = mx(mx(M, fabs(x0[3 * v + k])), fabs(x1[3 * v + k]));
  }
  u->M = M;
  int ok = u->valid && u->hash == w->grouped_hash && u->nb == w->nb && u->r0 == w->r0 &&
           u->has_passive == (passive != NULL) &&
           (!passive || memcmp(u->passive, passive, (size_t)s->nverts) == 0);
  sup_bodies(w, x0, x1, grow, DO_MOTION | (ok ? DO_ODOMETERS | DO_DEVIATIONS : 0));
  pair_motions(w);
  if (ok) run_pair_odometers(u);
  /* a new superset when most pairs searched directly are calm now and they are not few (an
     eighth of the body pairs) */
  for (int pass = 0;; ++pass) {
    if (pass > 0) sup_bodies(w, x0, x1, grow, DO_DEVIATIONS);
    size_t calm = classify(w, ok);
    if (pass > 0 || !(8 * calm > w->nkept && 2 * calm > u->nsel)) break;
    ++st->rebuilds;
    u->valid = 0;
    if (!rebuild(wsp, s, x0, x1, inflation, grow, passive)) return 0;
    ok = 1;
  }
  /* the pairs of the body pairs searched directly, then the superset's */
  ipc_candidates_clear(c);
  if (u->nsel > 0) search(w, c, s, x0, x1, grow, passive, narrow_dist, NULL, u->sel, u->nsel);
  const ipc_candidates *sc = &u->cand;
  size_t n = ok ? sc->nvf + sc->nee + sc->nve + sc->nvv : 0;
  if (n > 0) {
    ipc_reserve((void **)&u->step, &u->cap_step, (size_t)s->nverts + 1, sizeof(double));
    for (int i = 0; i < s->nsv; ++i) {
      size_t v = (size_t)s->sv[i];
      const double *p = x0 + 3 * v, *q = x1 + 3 * v;
      double b[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
      u->step[v] = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) * (1.0 + 1e-12);
    }
    ipc_reserve((void **)&u->keep, &u->cap_keep, n + 1, 1);
    sup_job job = {w, u, s, x0, x1, grow, narrow_dist};
    st->key_drops += (size_t)ipc_parallel_sum(n, 1024, sup_range, &job);
    const int *src[4] = {sc->vf, sc->ee, sc->ve, sc->vv};
    const size_t len[4] = {sc->nvf, sc->nee, sc->nve, sc->nvv};
    int **dst[4] = {&c->vf, &c->ee, &c->ve, &c->vv};
    size_t *cnt[4] = {&c->nvf, &c->nee, &c->nve, &c->nvv};
    size_t *cap[4] = {&c->cap_vf, &c->cap_ee, &c->cap_ve, &c->cap_vv};
    size_t s0 = 0;
    for (int l = 0; l < 4; s0 += len[l], ++l) {
      size_t k = *cnt[l];
      for (size_t i = 0; i < len[l]; ++i) k += u->keep[s0 + i];
      ipc_reserve((void **)dst[l], cap[l], k + 1, 2 * sizeof(int));
      k = *cnt[l];
      for (size_t i = 0; i < len[l]; ++i)
        if (u->keep[s0 + i]) {
          (*dst[l])[2 * k] = src[l][2 * i];
          (*dst[l])[2 * k + 1] = src[l][2 * i + 1];
          ++k;
        }
      *cnt[l] = k;
    }
  }
  st->superset_pairs += n;
  st->pairs += c->nvf + c->nee + c->nve + c->nvv;
  sort_lists(w, c, s);
  return 1;
}

void ipc_bodies_ws_free(struct ipc_bodies_ws *w) {
  if (!w) return;
  void *arrays[] = {w->box0,       w->box1,   w->c,   w->gmax, w->bpass, w->rep,
                    w->vs,         w->vid,    w->es,  w->eid,  w->fs,    w->fid,
                    w->bb,         w->bpairs, w->kab, w->kcf,  w->kR,    w->sort_tmp,
                    w->sort_count, w->keyed,  w->vob, w->ev,   w->fv};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) ipc_free(arrays[i]);
  for (int k = 0; k < 3; ++k) {
    ipc_free(w->chbox[k]);
    ipc_free(w->grpbox[k]);
    ipc_free(w->chs[k]);
  }
  for (int i = 0; i < w->nscr; ++i) {
    pair_scratch *t = &w->scr[i];
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
  bodies_superset *u = &w->sup;
  ipc_candidates_free(&u->cand);
  void *sup_arrays[] = {u->passive, u->key,    u->keep,  u->x0,  u->x1,   u->g,  u->G,   u->kab,
                        u->tab,     u->odo_ab, u->dob,   u->dev, u->ob,   u->ub, u->odo, u->xlast,
                        u->step,    u->cur,    u->growp, u->mb,  u->calm, u->sel};
  for (size_t i = 0; i < sizeof sup_arrays / sizeof sup_arrays[0]; ++i) ipc_free(sup_arrays[i]);
  for (int l = 0; l < 4; ++l) ipc_free(u->bp[l]);
  ipc_free(w);
}
