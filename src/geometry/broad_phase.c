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

/* max(a, b) for an accumulator a that is never NaN: fmax's result there, inlined (fmax is
   a libm call without -ffinite-math-only: 2% of a mat-twist step went to it from here) */
static inline double acc_max(double a, double b) {
  return b > a ? b : a;
}

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
  /* ipc_broad_phase_narrowed's superset: every pair whose vertex boxes grown by a margin
     overlap (sup_vbox), kept while the swept boxes of later calls stay inside those */
  ipc_candidates sup;
  int sup_valid;
  const ipc_surface *sup_for;
  double *sup_vbox; /* (nverts x 6) */
  size_t cap_sup_vbox;
  unsigned char *sup_passive; /* (nverts) the passive set it was found for */
  size_t cap_sup_passive;
  int sup_has_passive;
  /* what the narrowing learnt of the superset's pairs: per pair a lower bound on its distance
     plus the odometers of its two primitives' vertices then (the smallest of each side's), or
     -inf; per surface vertex its odometer (the length of its path over the calls since the
     superset was found, rounded up), its position at the last call and its step in the
     narrowing's */
  double *sup_key, *sup_key2; /* the keys, and the buffer the next superset's are made in */
  size_t cap_sup_key, cap_sup_key2;
  int *sup_idx;     /* (pairs of c) the index of each in the superset, its lists end to end */
  size_t sup_fresh; /* n + 1 while c's n pairs are superset_pairs' (sup_idx maps them), else 0 */
  size_t cap_sup_idx;
  double *odo, *xlast, *step;
  size_t cap_odo, cap_xlast, cap_step;
  double sup_M; /* the largest |coordinate| of a surface vertex at x0 or x1 this call */
  ipc_broad_phase_cache_stats sup_stats;
  /* ipc_broad_phase_body_pairs: a world-swept box per body and whether all its surface
     vertices are passive */
  ipc_box_ws *body_bw;
  double *body_box;
  size_t cap_body_box;
  unsigned char *body_pass;
  size_t cap_body_pass;
};

static void shrink_lists(ipc_candidates *c);

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

/* the one-tree broad phase over the surface vertices' boxes vbox (nverts x 6; edges and faces
   get the unions of theirs) into c: every pair whose boxes overlap, through the pair filters */
static void tree_pairs(ipc_candidates *c, struct ipc_broad_phase_ws *w, const ipc_surface *s,
                       const double *vbox, const unsigned char *obs) {
  void *ctx = (void *)s;
  ipc_reserve((void **)&w->ebox, &w->cap_ebox, (size_t)s->nedges * 6, sizeof(double));
  ipc_reserve((void **)&w->fbox, &w->cap_fbox, (size_t)s->nfaces * 6, sizeof(double));
  if (obs) {
    ipc_reserve((void **)&w->epass, &w->cap_epass, (size_t)s->nedges, 1);
    ipc_reserve((void **)&w->fpass, &w->cap_fpass, (size_t)s->nfaces, 1);
  }
  element_boxes(w->ebox, w->epass, vbox, s->edges, s->nedges, 2, obs);
  element_boxes(w->fbox, w->fpass, vbox, s->faces, s->nfaces, 3, obs);
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
    ipc_box_tree_refit(w->tvert, vbox);
    ipc_box_tree_refit(w->tface, w->fbox);
    ipc_box_tree_refit(w->tedge, w->ebox);
  } else {
    ipc_box_tree_build(w->tvert, w->bw, vbox, s->nverts, s->sv, s->nsv, obs, vg);
    ipc_box_tree_build(w->tface, w->bw, w->fbox, s->nfaces, NULL, 0, fpass, fg);
    ipc_box_tree_build(w->tedge, w->bw, w->ebox, s->nedges, NULL, 0, epass, eg);
  }
  ipc_box_tree_pairs(w->bw, &c->vf, &c->nvf, &c->cap_vf, w->tvert, w->tface, keep_vf, ctx);
  ipc_box_tree_pairs(w->bw, &c->ee, &c->nee, &c->cap_ee, w->tedge, NULL, keep_ee, ctx);
  if (npoints > 0) {
    if (refit)
      ipc_box_tree_refit(w->tpoint, vbox);
    else
      ipc_box_tree_build(w->tpoint, w->bw, vbox, s->nverts, w->points, npoints, obs, vg);
    ipc_box_tree_pairs(w->bw, &c->ve, &c->nve, &c->cap_ve, w->tpoint, w->tedge, keep_ve, ctx);
    ipc_box_tree_pairs(w->bw, &c->vv, &c->nvv, &c->cap_vv, w->tpoint, NULL, keep_vv, ctx);
  }
  if (ncodim > 0) {
    if (refit)
      ipc_box_tree_refit(w->tcodim, w->ebox);
    else
      ipc_box_tree_build(w->tcodim, w->bw, w->ebox, s->nedges, w->codim, ncodim, epass, eg);
    w->nrun = 0;
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
  shrink_lists(c);
}

/* the pairs (i, j) of in[0 .. n) whose boxes a + 6 i and b + 6 j overlap (box_pairs.c's
   closed test), in order, into out, with their positions in `in` plus base into idx; returns
   how many */
static size_t overlapping(int *out, int *idx, int base, const int *in, size_t n, const double *a,
                          const double *b) {
  size_t k = 0;
  for (size_t p = 0; p < n; ++p) {
    int hit = ipc_box_overlap(a + 6 * (size_t)in[2 * p], b + 6 * (size_t)in[2 * p + 1]);
    out[2 * k] = in[2 * p];
    out[2 * k + 1] = in[2 * p + 1];
    idx[k] = base + (int)p;
    k += (size_t)hit;
  }
  return k;
}

/* the superset's vertex boxes are the swept boxes of the call that searched for it, each grown
   on every side by SUPERSET_GROWTH times its vertex's largest coordinate displacement over that
   call's step plus SUPERSET_FLOOR times the box's own margin (half the inflation, and the
   sag): room for the next Newton steps of a solve, which are shorter than its first */
#define SUPERSET_GROWTH 0.5
#define SUPERSET_FLOOR 2.0

/* a pair list (n pairs) into *dst, its capacity *cap fitted to it */
static void copy_list(int **dst, size_t *ndst, size_t *cap, const int *src, size_t n) {
  ipc_reserve((void **)dst, cap, n, 2 * sizeof(int));
  if (n) memcpy(*dst, src, n * 2 * sizeof(int));
  *ndst = n;
  ipc_shrink((void **)dst, cap, n, 2 * sizeof(int));
}

/* the kind of the pairs of each candidate list: vf, ee, ve, vv */
static const ipc_pair_kind list_kind[4] = {IPC_PAIR_PT, IPC_PAIR_EE, IPC_PAIR_PE, IPC_PAIR_PP};

/* the vertices of pair p of a list of the given kind, in ipc_pair_kind's order */
static void pair_vertices(const ipc_surface *s, ipc_pair_kind kind, const int *p, int *v) {
  switch (kind) {
    case IPC_PAIR_PT: {
      const int *f = s->faces + 3 * (size_t)p[1];
      v[0] = p[0], v[1] = f[0], v[2] = f[1], v[3] = f[2];
      break;
    }
    case IPC_PAIR_EE: {
      const int *a = s->edges + 2 * (size_t)p[0], *b = s->edges + 2 * (size_t)p[1];
      v[0] = a[0], v[1] = a[1], v[2] = b[0], v[3] = b[1];
      break;
    }
    case IPC_PAIR_PE: {
      const int *e = s->edges + 2 * (size_t)p[1];
      v[0] = p[0], v[1] = e[0], v[2] = e[1];
      break;
    }
    default:
      v[0] = p[0], v[1] = p[1];
      break;
  }
}

/* keys of the new superset's list nw (n pairs) from the old one's (list od of m pairs, keys ok):
   a pair in both keeps its bound on the distance now, its key less the largest odometer of
   each side (the odometers start again from 0); the others get -inf. Both lists are sorted */
static void carry_keys(double *nk, const int *nw, size_t n, const double *ok, const int *od,
                       size_t m, const double *odo, const ipc_surface *s, ipc_pair_kind kind) {
  int nv = kind == IPC_PAIR_PT || kind == IPC_PAIR_EE ? 4 : kind == IPC_PAIR_PE ? 3 : 2;
  int na = kind == IPC_PAIR_EE ? 2 : 1;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    const int *p = nw + 2 * i;
    while (k < m && (od[2 * k] < p[0] || (od[2 * k] == p[0] && od[2 * k + 1] < p[1]))) ++k;
    nk[i] = -INFINITY;
    if (k < m && od[2 * k] == p[0] && od[2 * k + 1] == p[1] && ok[k] > -INFINITY) {
      int v[4];
      pair_vertices(s, kind, p, v);
      double o[2] = {0.0, 0.0};
      for (int a = 0; a < nv; ++a) o[a >= na] = acc_max(o[a >= na], odo[v[a]]);
      nk[i] = ok[k] - o[0] - o[1];
    }
  }
}

/* ipc_broad_phase_narrowed's pairs before the narrowing, from a superset. While every surface
   vertex's swept box (w->vbox) lies inside its box of the superset's search, two primitives
   whose boxes overlap had overlapping boxes there: the superset holds every pair of the
   one-tree broad phase, and those are its pairs whose boxes overlap now, tested with the
   trees' exact closed-overlap predicate on the same doubles. The superset is sorted as the
   trees' pairs are, so the kept pairs come in the same order: the same lists, bit for bit.
   Also keeps the odometers of narrow_pair's keys */
static void superset_pairs(ipc_candidates *c, struct ipc_broad_phase_ws *w, const ipc_surface *s,
                           const double *x0, const double *x1, const unsigned char *obs) {
  ++w->sup_stats.calls;
  int same = w->sup_valid && w->sup_for == s;
  /* the odometers run on by each vertex's move since the last call (rounded up: the bounds
     taken from them must hold); the size of the coordinates */
  double M = 0.0;
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    const double *p = x0 + 3 * v, *q = x1 ? x1 + 3 * v : p;
    if (same) {
      const double *l = w->xlast + 3 * v;
      double a[3] = {p[0] - l[0], p[1] - l[1], p[2] - l[2]};
      w->odo[v] += sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) * (1.0 + 1e-12);
    }
    for (int k = 0; k < 3; ++k) M = acc_max(acc_max(M, fabs(p[k])), fabs(q[k]));
  }
  w->sup_M = M;
  int inside = same && w->sup_has_passive == (obs != NULL) &&
               (!obs || memcmp(w->sup_passive, obs, (size_t)s->nverts) == 0);
  for (int i = 0; inside && i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    const double *b = w->vbox + 6 * v, *r = w->sup_vbox + 6 * v;
    inside = (r[0] <= b[0]) & (r[1] <= b[1]) & (r[2] <= b[2]) & (b[3] <= r[3]) & (b[4] <= r[4]) &
             (b[5] <= r[5]);
  }
  if (!inside) {
    ++w->sup_stats.rebuilds;
    ipc_reserve((void **)&w->sup_vbox, &w->cap_sup_vbox, (size_t)s->nverts * 6, sizeof(double));
    for (int i = 0; i < s->nsv; ++i) {
      size_t v = (size_t)s->sv[i];
      const double *b = w->vbox + 6 * v;
      double m = 0.0;
      for (int k = 0; k < 3; ++k) {
        double d = x1 ? fabs(x1[3 * v + k] - x0[3 * v + k]) : 0.0;
        m = d > m ? d : m;
      }
      /* the box's growth beyond its vertex's path (the inflation and the sag) */
      double r = 0.5 * (b[3] - b[0] - (x1 ? fabs(x1[3 * v] - x0[3 * v]) : 0.0));
      double g = SUPERSET_GROWTH * m + SUPERSET_FLOOR * r;
      for (int k = 0; k < 3; ++k) {
        w->sup_vbox[6 * v + k] = b[k] - g;
        w->sup_vbox[6 * v + k + 3] = b[k + 3] + g;
      }
    }
    w->sup_has_passive = obs != NULL;
    if (obs) {
      ipc_reserve((void **)&w->sup_passive, &w->cap_sup_passive, (size_t)s->nverts, 1);
      memcpy(w->sup_passive, obs, (size_t)s->nverts);
    }
    tree_pairs(c, w, s, w->sup_vbox, obs);
    /* the keys: carried over from the last superset for the pairs in both */
    ipc_candidates *u = &w->sup;
    size_t nu = c->nvf + c->nee + c->nve + c->nvv;
    ipc_reserve((void **)&w->sup_key2, &w->cap_sup_key2, nu + 1, sizeof(double));
    double *nk = w->sup_key2;
    if (same) {
      const double *ok = w->sup_key, *odo = w->odo;
      double *k = nk;
      carry_keys(k, c->vf, c->nvf, ok, u->vf, u->nvf, odo, s, IPC_PAIR_PT);
      k += c->nvf, ok += u->nvf;
      carry_keys(k, c->ee, c->nee, ok, u->ee, u->nee, odo, s, IPC_PAIR_EE);
      k += c->nee, ok += u->nee;
      carry_keys(k, c->ve, c->nve, ok, u->ve, u->nve, odo, s, IPC_PAIR_PE);
      k += c->nve, ok += u->nve;
      carry_keys(k, c->vv, c->nvv, ok, u->vv, u->nvv, odo, s, IPC_PAIR_PP);
    } else {
      for (size_t i = 0; i < nu; ++i) nk[i] = -INFINITY;
    }
    w->sup_key2 = w->sup_key; /* the buffers swap */
    w->sup_key = nk;
    size_t cap = w->cap_sup_key2;
    w->cap_sup_key2 = w->cap_sup_key;
    w->cap_sup_key = cap;
    ipc_shrink((void **)&w->sup_key, &w->cap_sup_key, nu + 1, sizeof(double));
    copy_list(&u->vf, &u->nvf, &u->cap_vf, c->vf, c->nvf);
    copy_list(&u->ee, &u->nee, &u->cap_ee, c->ee, c->nee);
    copy_list(&u->ve, &u->nve, &u->cap_ve, c->ve, c->nve);
    copy_list(&u->vv, &u->nvv, &u->cap_vv, c->vv, c->nvv);
    w->sup_for = s;
    w->sup_valid = 1;
    /* the odometers start again from here */
    ipc_reserve((void **)&w->odo, &w->cap_odo, (size_t)s->nverts, sizeof(double));
    ipc_reserve((void **)&w->xlast, &w->cap_xlast, (size_t)s->nverts * 3, sizeof(double));
    for (int i = 0; i < s->nsv; ++i) w->odo[s->sv[i]] = 0.0;
  }
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    memcpy(w->xlast + 3 * v, x0 + 3 * v, 3 * sizeof(double));
  }
  c->refit = 0;
  /* the boxes of this call's step */
  ipc_reserve((void **)&w->ebox, &w->cap_ebox, (size_t)s->nedges * 6, sizeof(double));
  ipc_reserve((void **)&w->fbox, &w->cap_fbox, (size_t)s->nfaces * 6, sizeof(double));
  element_boxes(w->ebox, NULL, w->vbox, s->edges, s->nedges, 2, NULL);
  element_boxes(w->fbox, NULL, w->vbox, s->faces, s->nfaces, 3, NULL);
  const ipc_candidates *u = &w->sup;
  ipc_reserve((void **)&c->vf, &c->cap_vf, u->nvf, 2 * sizeof(int));
  ipc_reserve((void **)&c->ee, &c->cap_ee, u->nee, 2 * sizeof(int));
  ipc_reserve((void **)&c->ve, &c->cap_ve, u->nve, 2 * sizeof(int));
  ipc_reserve((void **)&c->vv, &c->cap_vv, u->nvv, 2 * sizeof(int));
  ipc_reserve((void **)&w->sup_idx, &w->cap_sup_idx, u->nvf + u->nee + u->nve + u->nvv + 1,
              sizeof(int));
  int *idx = w->sup_idx, o = 0;
  c->nvf = overlapping(c->vf, idx, o, u->vf, u->nvf, w->vbox, w->fbox);
  o += (int)u->nvf;
  c->nee = overlapping(c->ee, idx + c->nvf, o, u->ee, u->nee, w->ebox, w->ebox);
  o += (int)u->nee;
  c->nve = overlapping(c->ve, idx + c->nvf + c->nee, o, u->ve, u->nve, w->vbox, w->ebox);
  o += (int)u->nve;
  c->nvv = overlapping(c->vv, idx + c->nvf + c->nee + c->nve, o, u->vv, u->nvv, w->vbox, w->vbox);
  w->sup_stats.superset_pairs += u->nvf + u->nee + u->nve + u->nvv;
  w->sup_stats.pairs += c->nvf + c->nee + c->nve + c->nvv;
  w->sup_fresh = c->nvf + c->nee + c->nve + c->nvv + 1;
  shrink_lists(c);
}

/* ipc_broad_phase_passive; with superset, the one-tree broad phase's pairs come from
   superset_pairs. Returns 0 when the body-by-body broad phase found the pairs, 1 when the
   trees' queries did, 2 when the superset did */
static int broad_phase(ipc_candidates *c, const ipc_surface *s, const double *x0, const double *x1,
                       double inflation, const double *grow, const unsigned char *passive,
                       int superset, double narrow_dist, int world) {
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
  w->sup_fresh = 0;
  const unsigned char *obs = passive;
  /* swept boxes of several bodies: body by body in their moving frames (developers compare
     with the one tree alone by IPCC_BROAD_PHASE=tree) */
  static int one_tree = -1;
  if (one_tree < 0) {
    const char *e = getenv("IPCC_BROAD_PHASE");
    one_tree = e && !strcmp(e, "tree");
  }
  if (!one_tree && !world &&
      (superset
           ? ipc_broad_phase_bodies_narrowed(&w->bodies, c, s, x0, x1, inflation, grow, obs,
                                             narrow_dist, &w->sup_stats)
           : ipc_broad_phase_bodies(&w->bodies, c, s, x0, x1, inflation, grow, obs, narrow_dist))) {
    c->refit = 0;
    w->built_for = NULL; /* the trees were not rebuilt: the next refit must build */
    shrink_lists(c);
    return 0;
  }

  vertex_boxes(w, s, x0, x1, 0.5 * inflation, grow);
  if (superset) {
    superset_pairs(c, w, s, x0, x1, obs);
    return 2;
  }
  tree_pairs(c, w, s, w->vbox, obs);
  return 1;
}

void ipc_broad_phase_passive(ipc_candidates *c, const ipc_surface *s, const double *x0,
                             const double *x1, double inflation, const double *grow,
                             const unsigned char *passive) {
  broad_phase(c, s, x0, x1, inflation, grow, passive, 0, -1.0, 0);
}

void ipc_broad_phase_independent(ipc_candidates *c, const ipc_surface *s, const double *x0,
                                 const double *x1, double inflation, const double *grow,
                                 const unsigned char *passive) {
  broad_phase(c, s, x0, x1, inflation, grow, passive, 0, -1.0, 1);
}

static int body_pair_active(int a, int b, void *ctx) {
  const unsigned char *pass = ctx;
  return !(pass[a] && pass[b]);
}

size_t ipc_broad_phase_body_pairs(ipc_candidates *c, const ipc_surface *s, const double *x0,
                                  const double *x1, double inflation, const double *grow,
                                  const unsigned char *passive, int **pairs, size_t *cap) {
  if (!c->ws) c->ws = IPC_NEW0(struct ipc_broad_phase_ws, 1);
  struct ipc_broad_phase_ws *w = c->ws;
  if (!w->body_bw) w->body_bw = ipc_box_ws_new();
  int nb = 0;
  for (int i = 0; i < s->nsv; ++i)
    nb = s->vert_body[s->sv[i]] + 1 > nb ? s->vert_body[s->sv[i]] + 1 : nb;
  ipc_reserve((void **)&w->body_box, &w->cap_body_box, 6 * (size_t)nb + 6, sizeof(double));
  ipc_reserve((void **)&w->body_pass, &w->cap_body_pass, (size_t)nb + 1, 1);
  for (int b = 0; b < nb; ++b) {
    for (int k = 0; k < 3; ++k) {
      w->body_box[6 * (size_t)b + k] = INFINITY;
      w->body_box[6 * (size_t)b + k + 3] = -INFINITY;
    }
    w->body_pass[b] = 1;
  }
  double r0 = 0.5 * inflation;
  for (int i = 0; i < s->nsv; ++i) {
    size_t v = (size_t)s->sv[i];
    int b = s->vert_body[v];
    double *o = w->body_box + 6 * (size_t)b, r = grow ? r0 + grow[v] : r0;
    if (!passive || !passive[v]) w->body_pass[b] = 0;
    for (int k = 0; k < 3; ++k) {
      double p = x0[3 * v + k], q = x1 ? x1[3 * v + k] : p;
      double lo = (q < p ? q : p) - r, hi = (q > p ? q : p) + r;
      o[k] = lo < o[k] ? lo : o[k];
      o[k + 3] = hi > o[k + 3] ? hi : o[k + 3];
    }
  }
  for (int b = 0; b < nb; ++b) /* no surface vertex: NaN, overlapping nothing */
    if (w->body_box[6 * (size_t)b] > w->body_box[6 * (size_t)b + 3])
      for (int k = 0; k < 6; ++k) w->body_box[6 * (size_t)b + k] = NAN;
  size_t n = 0;
  ipc_box_pairs_ws(w->body_bw, pairs, &n, cap, w->body_box, nb, NULL, 0, body_pair_active,
                   w->body_pass);
  return n;
}

/* whether the pair over vertices v (in ipc_pair_kind's order) stays farther apart than dist
   all along the step (ipc_candidates_narrow) */
static int pair_apart(const double *x0, const double *x1, const double *grow, const int *v,
                      ipc_pair_kind kind, double dist, double reach_scale, double *lb) {
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
  return ipc_pair_stays_beyond_lb(kind, (const double(*)[3])x, (const double(*)[3])d, 1.0, dist,
                                  reach_scale, sag, m, lb);
}

int ipc_pair_narrowed_out(const ipc_surface *s, int list, const int pair[2], const double *x0,
                          const double *x1, const double *grow, double dist) {
  int v[4];
  pair_vertices(s, list_kind[list], pair, v);
  return pair_apart(x0, x1, grow, v, list_kind[list], dist, 1.0, NULL);
}

int ipc_pair_apart_lb(int list, const int v[4], const double *x0, const double *x1,
                      const double *grow, double dist, double *lb) {
  return pair_apart(x0, x1, grow, v, list_kind[list], dist, 1.0, lb);
}

int ipc_pair_list_vertices(const ipc_surface *s, int list, const int pair[2], int v[4]) {
  pair_vertices(s, list_kind[list], pair, v);
  return list == 0 || list == 1 ? 4 : list == 2 ? 3 : 2;
}

typedef struct narrow_job {
  const ipc_candidates *c;
  const ipc_surface *s;
  const double *x0, *x1, *grow;
  double dist, reach_scale;
  int ee_only; /* the other pairs are kept */
  unsigned char *keep;
  struct ipc_broad_phase_ws *w; /* c's pairs come from w's superset (its keys), or NULL */
} narrow_job;

/* the key test of narrow_pair and of the body-by-body superset (broad_phase_superset.c): 1 when
   a pair over vertices v whose distance at x0 is at least far stays beyond pair_apart's
   threshold all along x0 -> x1 by more than its margins: first with the relative motion
   bounded by the longest step (each |d_k - c| is at most |d_k| + |c| <= 2 L, L from step, each
   vertex's |x1 - x0| rounded up), then with pair_apart's bound itself */
static int far_beyond(double far, const int *v, ipc_pair_kind kind, const double *x0,
                      const double *x1, const double *grow, const double *step, double dist,
                      double reach_scale) {
  int nv = kind == IPC_PAIR_PT || kind == IPC_PAIR_EE ? 4 : kind == IPC_PAIR_PE ? 3 : 2;
  int na = kind == IPC_PAIR_EE ? 2 : 1;
  double g[2] = {0.0, 0.0}, L = 0.0;
  for (int k = 0; k < nv; ++k) {
    L = acc_max(L, step[v[k]]);
    if (grow) g[k >= na] = acc_max(g[k >= na], grow[v[k]]);
  }
  if (far > (dist + 4.0 * reach_scale * L + g[0] + g[1]) * (1.0 + 1e-8)) return 1;
  if (far > dist * (1.0 + 1e-8)) {
    double d[4][3], c[3] = {0.0, 0.0, 0.0}, reach[2] = {0.0, 0.0};
    for (int k = 0; k < nv; ++k) {
      const double *p = x0 + 3 * (size_t)v[k], *q = x1 + 3 * (size_t)v[k];
      for (int a = 0; a < 3; ++a) {
        d[k][a] = q[a] - p[a];
        c[a] += d[k][a] / nv;
      }
    }
    for (int k = 0; k < nv; ++k) {
      double r[3] = {d[k][0] - c[0], d[k][1] - c[1], d[k][2] - c[2]};
      reach[k >= na] = acc_max(reach[k >= na], sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]));
    }
    if (far > (dist + reach_scale * (reach[0] + reach[1]) + g[0] + g[1]) * (1.0 + 1e-8)) return 1;
  }
  return 0;
}

int ipc_pair_far_beyond(double far, int list, const int v[4], const double *x0, const double *x1,
                        const double *grow, const double *step, double dist) {
  return far_beyond(far, v, list_kind[list], x0, x1, grow, step, dist, 1.0);
}

/* whether to keep pair ci of c, over vertices v of the given kind (pair_apart's verdict; -1:
   dropped by its key). With the superset's keys: the pair's distance at x0 is at least its key
   less the largest odometer of each side (a primitive's hull moves by at most its vertices'
   moves, and those are at most what their odometers ran since the key was taken, at least its
   smallest one then); a pair whose distance is thus bounded beyond pair_apart's threshold (its
   bound on the pair's relative motion, computed alike) by more than pair_apart's margins and
   the key's (1e-6 M) is one pair_apart drops, without its distance (far_beyond). Otherwise
   pair_apart decides and what it found of the distance renews the key */
static int narrow_pair(const narrow_job *j, size_t ci, const int *v, ipc_pair_kind kind) {
  struct ipc_broad_phase_ws *w = j->w;
  int nv = kind == IPC_PAIR_PT || kind == IPC_PAIR_EE ? 4 : kind == IPC_PAIR_PE ? 3 : 2;
  int na = kind == IPC_PAIR_EE ? 2 : 1;
  double lb = 0.0, *key = NULL;
  if (w) {
    key = w->sup_key + w->sup_idx[ci];
    double o[2] = {0.0, 0.0};
    for (int k = 0; k < nv; ++k) o[k >= na] = acc_max(o[k >= na], w->odo[v[k]]);
    double far = (*key - o[0] - o[1]) * (1.0 - 1e-9) - 1e-6 * w->sup_M;
    if (far_beyond(far, v, kind, j->x0, j->x1, j->grow, w->step, j->dist, j->reach_scale))
      return -1;
  }
  int apart = pair_apart(j->x0, j->x1, j->grow, v, kind, j->dist, j->reach_scale, w ? &lb : NULL);
  if (w) {
    double o[2] = {INFINITY, INFINITY};
    for (int k = 0; k < nv; ++k) {
      int side = k >= na;
      o[side] = w->odo[v[k]] < o[side] ? w->odo[v[k]] : o[side];
    }
    *key = lb - 1e-7 * w->sup_M + o[0] + o[1];
  }
  return !apart;
}

static double narrow_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const narrow_job *j = vjob;
  const ipc_candidates *c = j->c;
  const int *list[4] = {c->vf, c->ee, c->ve, c->vv};
  const size_t len[4] = {c->nvf, c->nee, c->nve, c->nvv};
  size_t s0 = 0, lo, hi;
  double by_key = 0.0;
  for (int t = 0; t < 4; s0 += len[t], ++t) {
    if (!ipc_subrange(s0, len[t], begin, end, &lo, &hi)) continue;
    for (size_t i = lo; i < hi; ++i) {
      int v[4];
      pair_vertices(j->s, list_kind[t], list[t] + 2 * i, v);
      int r =
          j->ee_only && list_kind[t] != IPC_PAIR_EE ? 1 : narrow_pair(j, s0 + i, v, list_kind[t]);
      j->keep[s0 + i] = r > 0;
      by_key += r < 0;
    }
  }
  return by_key; /* how many pairs their keys dropped */
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
  /* lists straight from the superset, narrowed from where it was searched: the narrowing uses
     and renews its keys, with the step of each vertex */
  int keys = w->sup_fresh == n + 1;
  w->sup_fresh = 0;
  if (keys) {
    ipc_reserve((void **)&w->step, &w->cap_step, (size_t)s->nverts, sizeof(double));
    for (int i = 0; keys && i < s->nsv; ++i) {
      size_t v = (size_t)s->sv[i];
      const double *p = x0 + 3 * v, *q = x1 + 3 * v, *l = w->xlast + 3 * v;
      double b[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
      w->step[v] = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) * (1.0 + 1e-12);
      keys = p[0] == l[0] && p[1] == l[1] && p[2] == l[2];
    }
  }
  narrow_job j = {c, s, x0, x1, grow, dist, reach_scale, ee_only, w->keep, keys ? w : NULL};
  if (!ipc_mpi_splitting()) {
    w->sup_stats.key_drops +=
        (size_t)ipc_mpi_parallel_sum(n, 1024, narrow_range, &j, IPC_WORK_NARROW);
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

void ipc_broad_phase_narrowed(ipc_candidates *c, const ipc_surface *s, const double *x0,
                              const double *x1, double inflation, const double *grow,
                              const unsigned char *passive, double dist) {
  /* the body-by-body phase narrows each pair as it finds it (the same verdict as
     ipc_candidates_narrow's, ipc_pair_narrowed_out) */
  if (broad_phase(c, s, x0, x1, inflation, grow, passive, 1, dist, 0) != 0)
    ipc_candidates_narrow(c, s, x0, x1, dist, grow);
}

void ipc_broad_phase_get_cache_stats(const ipc_candidates *c, ipc_broad_phase_cache_stats *st) {
  if (c->ws)
    *st = c->ws->sup_stats;
  else
    memset(st, 0, sizeof *st);
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
    ipc_candidates_free(&w->sup);
    ipc_free(w->sup_vbox);
    ipc_free(w->sup_passive);
    ipc_free(w->sup_key);
    ipc_free(w->sup_key2);
    ipc_free(w->sup_idx);
    ipc_free(w->odo);
    ipc_free(w->xlast);
    ipc_free(w->step);
    ipc_box_ws_free(w->body_bw);
    ipc_free(w->body_box);
    ipc_free(w->body_pass);
    ipc_free(w);
  }
  memset(c, 0, sizeof *c);
}
