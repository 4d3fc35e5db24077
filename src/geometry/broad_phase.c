/* broad phase: candidate pairs of collision-surface primitives for the
   distance / barrier stage (static boxes inflated by dhat) and for CCD (boxes
   swept over x0 -> x1). IPC needs point-triangle and edge-edge pairs; points
   and codimensional edges add point-edge and point-point pairs (Li et al.
   2020, "Incremental Potential Contact", sec. 4 and supplement).

   every primitive gets the box [min - r, max + r], r = inflation / 2, over its
   vertex positions (at x0, and x1 when sweeping): two primitives within
   distance `inflation` have overlapping boxes on every axis. vertex boxes are
   computed once; an edge or face box is the union of its vertex boxes, which
   is the same double as min over the coordinates minus r (rounding is
   monotone). four trees (sv vertices, faces, edges, and on demand points and
   codimensional edges) serve all pair lists: vf = vertices x faces, ee =
   edges within themselves, ve = points x edges + other vertices x codim
   edges, vv = points within themselves. obstacle primitives (all vertices
   kinematic) are passive in the trees, so obstacle-obstacle pairs are never
   visited; adjacency is removed by the pair filters. */
#include "geometry/broad_phase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/box_tree.h"
#include "geometry/broad_phase_bodies.h"
#include "geometry/distance.h"
#include "linalg/mpi_run.h"

struct ipc_broad_phase_ws {
  ipc_box_ws *bw;
  ipc_box_tree *tvert, *tface, *tedge, *tpoint, *tcodim;
  double *vbox, *ebox, *fbox; /* (nverts x 6), (nedges x 6), (nfaces x 6) */
  size_t cap_vbox, cap_ebox, cap_fbox;
  unsigned char *epass, *fpass; /* obstacle edges, faces */
  size_t cap_epass, cap_fpass;
  int *vgrp, *egrp, *fgrp; /* rigid body of each vertex, edge, face (-1: none) */
  size_t cap_vgrp, cap_egrp, cap_fgrp;
  int *points, *codim; /* isolated points (vertex ids), codimensional edges */
  size_t cap_points, cap_codim;
  unsigned char *keep; /* ipc_candidates_narrow: one flag per pair */
  size_t cap_keep;
  int *run, *merged; /* second run of ve pairs, merge buffer */
  size_t nrun, cap_run, cap_merged;
  /* what the trees were last built for: a refit needs the same surface and passive set */
  const ipc_surface *built_for;
  unsigned char *built_passive; /* (nverts) */
  size_t cap_built_passive;
  int built_has_passive;
  struct ipc_bodies_ws *bodies; /* the swept broad phase body by body */
};

static void shrink_lists(ipc_candidates *c);

/* ipc_broad_phase_narrowed's narrowing of one query's pairs before they are gathered */
typedef struct gather_narrow {
  const ipc_surface *s;
  const double *x0, *x1, *grow;
  double dist;
  ipc_pair_kind kind;
} gather_narrow;
static int narrow_keep(int i, int j, void *vctx);

/* the gather filter of the next queries: gn's narrowing of pairs of kind (gn NULL: none) */
static void set_gather_narrow(ipc_box_ws *bw, gather_narrow *gn, ipc_pair_kind kind) {
  if (!gn) return;
  gn->kind = kind;
  ipc_box_ws_gather_filter(bw, narrow_keep, gn);
}

/* the pair filters drop adjacent pairs and pairs that the scene's body_contact rule
   keeps apart: the one place where that rule applies, so the barrier, friction, CCD
   and the line search all see the same pairs */
static int keep_vf(int v, int f, void *ctx) {
  const ipc_surface *s = ctx;
  const int *t = s->faces + 3 * (size_t)f;
  return v != t[0] && v != t[1] && v != t[2] && ipc_surface_pair_touches(s, v, t[0]);
}

static int keep_ee(int a, int b, void *ctx) {
  const ipc_surface *s = ctx;
  const int *ea = s->edges + 2 * (size_t)a, *eb = s->edges + 2 * (size_t)b;
  return ea[0] != eb[0] && ea[0] != eb[1] && ea[1] != eb[0] && ea[1] != eb[1] &&
         ipc_surface_pair_touches(s, ea[0], eb[0]);
}

static int keep_ve(int v, int e, void *ctx) {
  const ipc_surface *s = ctx;
  const int *ed = s->edges + 2 * (size_t)e;
  return v != ed[0] && v != ed[1] && ipc_surface_pair_touches(s, v, ed[0]);
}

static int keep_vv(int a, int b, void *ctx) {
  return ipc_surface_pair_touches(ctx, a, b);
}

/* points already met every edge in the first ve run */
static int keep_ve_surface(int v, int e, void *ctx) {
  const ipc_surface *s = ctx;
  return !(s->vert_point && s->vert_point[v]) && keep_ve(v, e, ctx);
}

static void vertex_boxes(struct ipc_broad_phase_ws *w, const ipc_surface *s, const double *x0,
                         const double *x1, double r0, const double *grow) {
  ipc_reserve((void **)&w->vbox, &w->cap_vbox, (size_t)s->nverts * 6, sizeof(double));
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    double *b = w->vbox + 6 * v, r = grow ? r0 + grow[v] : r0;
    for (int k = 0; k < 3; ++k) {
      double lo = x0[3 * v + k], hi = lo;
      if (x1) {
        double y = x1[3 * v + k];
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
      }
      b[k] = lo - r;
      b[k + 3] = hi + r;
    }
  }
}

/* boxes and obstacle flags of edges or faces (nv vertices each): unions of
   their vertex boxes */
static void element_boxes(double *box, unsigned char *pass, const double *vbox, const int *elem,
                          int n, int nv, const unsigned char *obstacle) {
  for (int e = 0; e < n; ++e) {
    const int *ev = elem + (size_t)nv * e;
    const double *a = vbox + 6 * (size_t)ev[0];
    double u[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};
    for (int k = 1; k < nv; ++k) {
      const double *b = vbox + 6 * (size_t)ev[k];
      for (int j = 0; j < 3; ++j) {
        u[j] = b[j] < u[j] ? b[j] : u[j];
        u[j + 3] = b[j + 3] > u[j + 3] ? b[j + 3] : u[j + 3];
      }
    }
    memcpy(box + 6 * (size_t)e, u, sizeof u);
    if (obstacle) {
      unsigned char all = 1;
      for (int k = 0; k < nv; ++k) all &= obstacle[ev[k]];
      pass[e] = all;
    }
  }
}

/* c->ve (sorted) merged with the sorted run w->run */
static void merge_ve(ipc_candidates *c, struct ipc_broad_phase_ws *w) {
  size_t n = c->nve + w->nrun;
  ipc_reserve((void **)&w->merged, &w->cap_merged, 2 * n, sizeof(int));
  ipc_reserve((void **)&c->ve, &c->cap_ve, n, 2 * sizeof(int));
  size_t i = 0, j = 0, k = 0;
  while (i < c->nve || j < w->nrun) {
    const int *a = c->ve + 2 * i, *b = w->run + 2 * j;
    int take_a = j == w->nrun || (i < c->nve && (a[0] < b[0] || (a[0] == b[0] && a[1] < b[1])));
    const int *p = take_a ? a : b;
    w->merged[2 * k] = p[0];
    w->merged[2 * k + 1] = p[1];
    ++k;
    if (take_a)
      ++i;
    else
      ++j;
  }
  memcpy(c->ve, w->merged, 2 * n * sizeof(int));
  c->nve = n;
}

void ipc_broad_phase(ipc_candidates *c, const ipc_surface *s, const double *x0, const double *x1,
                     double inflation) {
  ipc_broad_phase_passive(c, s, x0, x1, inflation, NULL, s->vert_obstacle);
}

/* ipc_broad_phase_passive, with gn: each rank's pairs of the trees' queries narrowed before
   they are gathered (not those of the body-by-body broad phase). Returns 1 when the trees'
   queries found the pairs, 0 when the body-by-body broad phase did */
static int broad_phase(ipc_candidates *c, const ipc_surface *s, const double *x0, const double *x1,
                       double inflation, const double *grow, const unsigned char *passive,
                       gather_narrow *gn) {
  ipc_candidates_clear(c);
  if (!c->ws) c->ws = IPC_NEW0(struct ipc_broad_phase_ws, 1);
  if (!c->ws->bw) {
    c->ws->bw = ipc_box_ws_new();
    c->ws->tvert = ipc_box_tree_new();
    c->ws->tface = ipc_box_tree_new();
    c->ws->tedge = ipc_box_tree_new();
    c->ws->tpoint = ipc_box_tree_new();
    c->ws->tcodim = ipc_box_tree_new();
  }
  struct ipc_broad_phase_ws *w = c->ws;
  const unsigned char *obs = passive;
  void *ctx = (void *)s;
  /* swept boxes of several bodies: body by body in their moving frames (developers compare
     with the one tree alone by IPCC_BROAD_PHASE=tree) */
  static int one_tree = -1;
  if (one_tree < 0) {
    const char *e = getenv("IPCC_BROAD_PHASE");
    one_tree = e && !strcmp(e, "tree");
  }
  if (!one_tree && ipc_broad_phase_bodies(&w->bodies, c, s, x0, x1, inflation, grow, obs)) {
    c->refit = 0;
    w->built_for = NULL; /* the trees were not rebuilt: the next refit must build */
    shrink_lists(c);
    return 0;
  }

  vertex_boxes(w, s, x0, x1, 0.5 * inflation, grow);
  ipc_reserve((void **)&w->ebox, &w->cap_ebox, (size_t)s->nedges * 6, sizeof(double));
  ipc_reserve((void **)&w->fbox, &w->cap_fbox, (size_t)s->nfaces * 6, sizeof(double));
  if (obs) {
    ipc_reserve((void **)&w->epass, &w->cap_epass, (size_t)s->nedges, 1);
    ipc_reserve((void **)&w->fpass, &w->cap_fpass, (size_t)s->nfaces, 1);
  }
  element_boxes(w->ebox, w->epass, w->vbox, s->edges, s->nedges, 2, obs);
  element_boxes(w->fbox, w->fpass, w->vbox, s->faces, s->nfaces, 3, obs);
  const unsigned char *epass = obs ? w->epass : NULL, *fpass = obs ? w->fpass : NULL;

  int npoints = 0, ncodim = 0;
  /* refit the last trees when allowed and built for this surface and passive set */
  int refit = c->refit && w->built_for == s && w->built_has_passive == (obs != NULL) &&
              (!obs || memcmp(w->built_passive, obs, (size_t)s->nverts) == 0);
  c->refit = 0;
  if (!refit) {
    w->built_for = s;
    w->built_has_passive = obs != NULL;
    if (obs) {
      ipc_reserve((void **)&w->built_passive, &w->cap_built_passive, (size_t)s->nverts, 1);
      memcpy(w->built_passive, obs, (size_t)s->nverts);
    }
  }
  ipc_reserve((void **)&w->points, &w->cap_points, (size_t)s->nsv, sizeof(int));
  ipc_reserve((void **)&w->codim, &w->cap_codim, (size_t)s->nedges, sizeof(int));
  if (s->vert_point)
    for (int i = 0; i < s->nsv; ++i)
      if (s->vert_point[s->sv[i]]) w->points[npoints++] = s->sv[i];
  if (s->edge_codim)
    for (int e = 0; e < s->nedges; ++e)
      if (s->edge_codim[e]) w->codim[ncodim++] = e;

  /* the primitives of one rigid-shaped body never touch (ipc_surface_pair_touches): grouped
     by body, the trees skip them without visiting their pairs */
  const int *vg = NULL, *eg = NULL, *fg = NULL;
  if (s->vert_rigid && !refit) {
    ipc_reserve((void **)&w->vgrp, &w->cap_vgrp, (size_t)s->nverts, sizeof(int));
    ipc_reserve((void **)&w->egrp, &w->cap_egrp, (size_t)s->nedges, sizeof(int));
    ipc_reserve((void **)&w->fgrp, &w->cap_fgrp, (size_t)s->nfaces, sizeof(int));
    for (int v = 0; v < s->nverts; ++v) w->vgrp[v] = s->vert_rigid[v] ? s->vert_body[v] : -1;
    for (int e = 0; e < s->nedges; ++e) w->egrp[e] = w->vgrp[s->edges[2 * (size_t)e]];
    for (int f = 0; f < s->nfaces; ++f) w->fgrp[f] = w->vgrp[s->faces[3 * (size_t)f]];
    vg = w->vgrp;
    eg = w->egrp;
    fg = w->fgrp;
  }
  if (refit) {
    ipc_box_tree_refit(w->tvert, w->vbox);
    ipc_box_tree_refit(w->tface, w->fbox);
    ipc_box_tree_refit(w->tedge, w->ebox);
  } else {
    ipc_box_tree_build(w->tvert, w->bw, w->vbox, s->nverts, s->sv, s->nsv, obs, vg);
    ipc_box_tree_build(w->tface, w->bw, w->fbox, s->nfaces, NULL, 0, fpass, fg);
    ipc_box_tree_build(w->tedge, w->bw, w->ebox, s->nedges, NULL, 0, epass, eg);
  }
  set_gather_narrow(w->bw, gn, IPC_PAIR_PT);
  ipc_box_tree_pairs(w->bw, &c->vf, &c->nvf, &c->cap_vf, w->tvert, w->tface, keep_vf, ctx);
  set_gather_narrow(w->bw, gn, IPC_PAIR_EE);
  ipc_box_tree_pairs(w->bw, &c->ee, &c->nee, &c->cap_ee, w->tedge, NULL, keep_ee, ctx);
  if (npoints > 0) {
    if (refit)
      ipc_box_tree_refit(w->tpoint, w->vbox);
    else
      ipc_box_tree_build(w->tpoint, w->bw, w->vbox, s->nverts, w->points, npoints, obs, vg);
    set_gather_narrow(w->bw, gn, IPC_PAIR_PE);
    ipc_box_tree_pairs(w->bw, &c->ve, &c->nve, &c->cap_ve, w->tpoint, w->tedge, keep_ve, ctx);
    set_gather_narrow(w->bw, gn, IPC_PAIR_PP);
    ipc_box_tree_pairs(w->bw, &c->vv, &c->nvv, &c->cap_vv, w->tpoint, NULL, keep_vv, ctx);
  }
  if (ncodim > 0) {
    if (refit)
      ipc_box_tree_refit(w->tcodim, w->ebox);
    else
      ipc_box_tree_build(w->tcodim, w->bw, w->ebox, s->nedges, w->codim, ncodim, epass, eg);
    w->nrun = 0;
    set_gather_narrow(w->bw, gn, IPC_PAIR_PE);
    ipc_box_tree_pairs(w->bw, &w->run, &w->nrun, &w->cap_run, w->tvert, w->tcodim, keep_ve_surface,
                       ctx);
    if (c->nve == 0) {
      ipc_reserve((void **)&c->ve, &c->cap_ve, w->nrun, 2 * sizeof(int));
      if (w->nrun) memcpy(c->ve, w->run, 2 * w->nrun * sizeof(int));
      c->nve = w->nrun;
    } else if (w->nrun > 0) {
      merge_ve(c, w);
    }
  }
  ipc_box_ws_gather_filter(w->bw, NULL, NULL);
  shrink_lists(c);
  return 1;
}

void ipc_broad_phase_passive(ipc_candidates *c, const ipc_surface *s, const double *x0,
                             const double *x1, double inflation, const double *grow,
                             const unsigned char *passive) {
  broad_phase(c, s, x0, x1, inflation, grow, passive, NULL);
}

void ipc_broad_phase_narrowed(ipc_candidates *c, const ipc_surface *s, const double *x0,
                              const double *x1, double inflation, const double *grow,
                              const unsigned char *passive, double dist) {
  /* one rank: as the two calls always were (the narrowing's chunks and counts) */
  if (!ipc_mpi_splitting()) {
    broad_phase(c, s, x0, x1, inflation, grow, passive, NULL);
    ipc_candidates_narrow(c, s, x0, x1, dist, grow);
    return;
  }
  gather_narrow gn = {s, x0, x1, grow, dist, IPC_PAIR_PT};
  if (!broad_phase(c, s, x0, x1, inflation, grow, passive, &gn))
    ipc_candidates_narrow(c, s, x0, x1, dist, grow);
}

/* whether the pair over vertices v (in ipc_pair_kind's order) stays farther apart than dist
   all along the step (ipc_candidates_narrow) */
/* max(a, b) for an accumulator a that is never NaN: fmax's result there, inlined (fmax is
   a libm call without -ffinite-math-only: 2% of a mat-twist step went to it from here) */
static inline double acc_max(double a, double b) {
  return b > a ? b : a;
}

static int pair_apart(const double *x0, const double *x1, const double *grow, const int *v,
                      ipc_pair_kind kind, double dist, double reach_scale) {
  int nv = kind == IPC_PAIR_PT || kind == IPC_PAIR_EE ? 4 : kind == IPC_PAIR_PE ? 3 : 2;
  int na = kind == IPC_PAIR_EE ? 2 : 1;
  double x[4][3], d[4][3], sag[2] = {0.0, 0.0}, m = 0.0;
  for (int k = 0; k < nv; ++k) {
    const double *p = x0 + 3 * (size_t)v[k], *q = x1 + 3 * (size_t)v[k];
    for (int a = 0; a < 3; ++a) {
      x[k][a] = p[a];
      d[k][a] = q[a] - p[a];
      m = acc_max(acc_max(m, fabs(p[a])), fabs(q[a]));
    }
    if (grow) sag[k >= na] = acc_max(sag[k >= na], grow[v[k]]);
  }
  return ipc_pair_stays_beyond(kind, (const double(*)[3])x, (const double(*)[3])d, 1.0, dist,
                               reach_scale, sag, m);
}

typedef struct narrow_job {
  const ipc_candidates *c;
  const ipc_surface *s;
  const double *x0, *x1, *grow;
  double dist, reach_scale;
  int ee_only; /* the other pairs are kept */
  unsigned char *keep;
} narrow_job;

static double narrow_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const narrow_job *j = vjob;
  const ipc_candidates *c = j->c;
  const ipc_surface *s = j->s;
  size_t s0 = 0, lo, hi;
  if (ipc_subrange(s0, c->nvf, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *f = s->faces + 3 * (size_t)c->vf[2 * i + 1];
      int v[4] = {c->vf[2 * i], f[0], f[1], f[2]};
      j->keep[s0 + i] =
          j->ee_only || !pair_apart(j->x0, j->x1, j->grow, v, IPC_PAIR_PT, j->dist, j->reach_scale);
    }
  s0 += c->nvf;
  if (ipc_subrange(s0, c->nee, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *a = s->edges + 2 * (size_t)c->ee[2 * i],
                *b = s->edges + 2 * (size_t)c->ee[2 * i + 1];
      int v[4] = {a[0], a[1], b[0], b[1]};
      j->keep[s0 + i] = !pair_apart(j->x0, j->x1, j->grow, v, IPC_PAIR_EE, j->dist, j->reach_scale);
    }
  s0 += c->nee;
  if (ipc_subrange(s0, c->nve, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i) {
      const int *e = s->edges + 2 * (size_t)c->ve[2 * i + 1];
      int v[3] = {c->ve[2 * i], e[0], e[1]};
      j->keep[s0 + i] =
          j->ee_only || !pair_apart(j->x0, j->x1, j->grow, v, IPC_PAIR_PE, j->dist, j->reach_scale);
    }
  s0 += c->nve;
  if (ipc_subrange(s0, c->nvv, begin, end, &lo, &hi))
    for (size_t i = lo; i < hi; ++i)
      j->keep[s0 + i] = j->ee_only || !pair_apart(j->x0, j->x1, j->grow, c->vv + 2 * i, IPC_PAIR_PP,
                                                  j->dist, j->reach_scale);
  return 0.0;
}

static int narrow_keep(int i, int j, void *vctx) {
  const gather_narrow *g = vctx;
  const ipc_surface *s = g->s;
  int v[4];
  switch (g->kind) {
    case IPC_PAIR_PT: {
      const int *f = s->faces + 3 * (size_t)j;
      v[0] = i, v[1] = f[0], v[2] = f[1], v[3] = f[2];
      break;
    }
    case IPC_PAIR_EE: {
      const int *a = s->edges + 2 * (size_t)i, *b = s->edges + 2 * (size_t)j;
      v[0] = a[0], v[1] = a[1], v[2] = b[0], v[3] = b[1];
      break;
    }
    case IPC_PAIR_PE: {
      const int *e = s->edges + 2 * (size_t)j;
      v[0] = i, v[1] = e[0], v[2] = e[1];
      break;
    }
    default:
      v[0] = i, v[1] = j;
      break;
  }
  return !pair_apart(g->x0, g->x1, g->grow, v, g->kind, g->dist, 1.0);
}

/* keeps the flagged pairs of a list of n, in order; returns how many */
static size_t compact_pairs(int *pairs, size_t n, const unsigned char *keep) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (keep[i]) {
      pairs[2 * k] = pairs[2 * i];
      pairs[2 * k + 1] = pairs[2 * i + 1];
      ++k;
    }
  return k;
}

/* ipc_candidates_narrow with the relative motion scaled by reach_scale; with ee_only, only the
   edge-edge pairs are judged (ipc_candidates_narrow_reach) */
static void narrow(ipc_candidates *c, const ipc_surface *s, const double *x0, const double *x1,
                   double dist, double reach_scale, int ee_only, const double *grow) {
  size_t n = c->nvf + c->nee + c->nve + c->nvv;
  if (n == 0) return;
  if (!c->ws) c->ws = IPC_NEW0(struct ipc_broad_phase_ws, 1);
  struct ipc_broad_phase_ws *w = c->ws;
  ipc_reserve((void **)&w->keep, &w->cap_keep, n, 1);
  narrow_job j = {c, s, x0, x1, grow, dist, reach_scale, ee_only, w->keep};
  if (!ipc_mpi_splitting()) {
    ipc_mpi_parallel_sum(n, 1024, narrow_range, &j, IPC_WORK_NARROW);
  } else { /* each MPI rank judges its chunks' pairs, then every rank gets all the flags */
    size_t nc = ipc_mpi_chunk_count(n, 1024), c0, c1, b0, b1, e;
    double part[IPC_MAX_CHUNKS];
    ipc_mpi_parallel_chunks(n, nc, narrow_range, &j, part, IPC_WORK_NARROW);
    ipc_mpi_my_chunks(nc, &c0, &c1);
    ipc_chunk_range(n, nc, c0, &b0, &e);
    ipc_chunk_range(n, nc, c1 > c0 ? c1 - 1 : c0, &e, &b1);
    if (c1 <= c0) b1 = b0;
    void *all = NULL;
    size_t cap = 0;
    ipc_mpi_allgather(w->keep + b0, b1 - b0, &all, &cap);
    memcpy(w->keep, all, n);
    ipc_free(all);
  }
  const unsigned char *k = w->keep;
  size_t nvf = c->nvf, nee = c->nee, nve = c->nve;
  c->nvf = compact_pairs(c->vf, nvf, k);
  c->nee = compact_pairs(c->ee, nee, k + nvf);
  c->nve = compact_pairs(c->ve, nve, k + nvf + nee);
  c->nvv = compact_pairs(c->vv, c->nvv, k + nvf + nee + nve);
  ipc_shrink((void **)&w->keep, &w->cap_keep, n, 1);
  shrink_lists(c);
}

void ipc_candidates_narrow(ipc_candidates *c, const ipc_surface *s, const double *x0,
                           const double *x1, double dist, const double *grow) {
  narrow(c, s, x0, x1, dist, 1.0, 0, grow);
}

void ipc_candidates_narrow_reach(ipc_candidates *c, const ipc_surface *s, const double *x0,
                                 const double *x1, double dist, double reach_scale,
                                 const double *grow) {
  narrow(c, s, x0, x1, dist, reach_scale, 1, grow);
}

/* the candidate lists back to a few times their size after a spike */
static void shrink_lists(ipc_candidates *c) {
  ipc_shrink((void **)&c->vf, &c->cap_vf, c->nvf, 2 * sizeof(int));
  ipc_shrink((void **)&c->ee, &c->cap_ee, c->nee, 2 * sizeof(int));
  ipc_shrink((void **)&c->ve, &c->cap_ve, c->nve, 2 * sizeof(int));
  ipc_shrink((void **)&c->vv, &c->cap_vv, c->nvv, 2 * sizeof(int));
}

void ipc_candidates_clear(ipc_candidates *c) {
  c->nvf = c->nee = c->nve = c->nvv = 0;
}

void ipc_candidates_free(ipc_candidates *c) {
  if (!c) return;
  ipc_free(c->vf);
  ipc_free(c->ee);
  ipc_free(c->ve);
  ipc_free(c->vv);
  struct ipc_broad_phase_ws *w = c->ws;
  if (w) {
    ipc_box_ws_free(w->bw);
    ipc_box_tree_free(w->tvert);
    ipc_box_tree_free(w->tface);
    ipc_box_tree_free(w->tedge);
    ipc_box_tree_free(w->tpoint);
    ipc_box_tree_free(w->tcodim);
    ipc_free(w->vbox);
    ipc_free(w->ebox);
    ipc_free(w->fbox);
    ipc_free(w->epass);
    ipc_free(w->fpass);
    ipc_free(w->vgrp);
    ipc_free(w->egrp);
    ipc_free(w->fgrp);
    ipc_free(w->points);
    ipc_free(w->codim);
    ipc_free(w->run);
    ipc_free(w->merged);
    ipc_free(w->keep);
    ipc_free(w->built_passive);
    ipc_bodies_ws_free(w->bodies);
    ipc_free(w);
  }
  memset(c, 0, sizeof *c);
}
