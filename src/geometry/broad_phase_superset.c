/* the body-by-body broad phase's superset across a Newton solve (issue 21): for
   ipc_broad_phase_narrowed with several bodies, the pairs of calm bodies searched once with
   grown boxes, then at each call judged by the search's own tests (replayed on the same doubles)
   and its narrowing (with lower bounds carried by odometers), while the bodies' moves since the
   search stay within its margins up to a common translation of each pair of bodies. The lists
   are those of ipc_broad_phase_bodies narrowed afterwards, bit for bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "geometry/box_tree.h"
#include "geometry/broad_phase_bodies_internal.h"
#include "linalg/mpi_run.h"

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
  double m = 0.0;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) m = mx(m, u->odo[w->vid[i]]);
  u->bodo[b] = m;
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

/* room for n calls per body (ipc_bodies_ws's `calls`), those it adds 0: calls count from 1,
   so a value never set is before any */
static void reserve_calls(unsigned long **t, size_t *cap, size_t n) {
  if (*cap >= n) return;
  ipc_reserve((void **)t, cap, n, sizeof(unsigned long));
  memset(*t, 0, *cap * sizeof(unsigned long));
}

/* body b's largest |coordinate| of a surface vertex at x0 and x1 into u->Mb */
static void body_coordinates(struct ipc_bodies_ws *w, int b, const double *x0, const double *x1) {
  double M = 0.0;
  for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
    const double *p = x0 + 3 * (size_t)w->vid[i], *q = x1 + 3 * (size_t)w->vid[i];
    for (int k = 0; k < 3; ++k) M = mx(mx(M, fabs(p[k])), fabs(q[k]));
  }
  w->sup.Mb[b] = M;
  w->sup.t_Mb[b] = w->calls;
}

/* bodies [begin, end): the parts `what`. A still body (ipc_bodies_ws) has no motion of its own
   and no odometer run, and keeps its largest coordinate and its deviation when they are from a
   call at which its x0 was the one kept */
static double sup_bodies_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const sup_bodies_job *j = vjob;
  struct ipc_bodies_ws *w = j->w;
  bodies_superset *u = &w->sup;
  for (size_t b = begin; b < end; ++b) {
    int still = w->still[b];
    if (j->what & DO_MOTION) {
      if (still) {
        u->mb[b] = 0.0;
        if (w->check) {
          own_motion(w, (int)b, j->x0, j->x1);
          if (u->mb[b] != 0.0) still_differs(w);
        }
      } else
        own_motion(w, (int)b, j->x0, j->x1);
      if (!still || u->t_Mb[b] < w->since[b])
        body_coordinates(w, (int)b, j->x0, j->x1);
      else if (w->check) {
        double kept = u->Mb[b];
        body_coordinates(w, (int)b, j->x0, j->x1);
        if (kept != u->Mb[b]) still_differs(w);
      }
    }
    if (j->what & DO_ODOMETERS) {
      if (still && w->since[b] <= u->odo_call) {
        u->dob[3 * b] = u->dob[3 * b + 1] = u->dob[3 * b + 2] = 0.0;
        for (int i = w->vs[b]; w->check && i < w->vs[b + 1]; ++i) /* nothing to run on */
          if (memcmp(u->xlast + 3 * (size_t)w->vid[i], j->x0 + 3 * (size_t)w->vid[i],
                     3 * sizeof(double))) {
            still_differs(w);
            break;
          }
      } else
        run_odometers(w, (int)b, j->x0);
    }
    if (j->what & DO_DEVIATIONS) {
      if (!(still && w->since[b] <= u->dev_call))
        deviation(w, (int)b, j->x0, j->x1, j->grow);
      else if (w->check) {
        double kept[7] = {u->dev[b],    u->ob[3 * b],     u->ob[3 * b + 1], u->ob[3 * b + 2],
                          u->ub[3 * b], u->ub[3 * b + 1], u->ub[3 * b + 2]};
        deviation(w, (int)b, j->x0, j->x1, j->grow);
        double now[7] = {u->dev[b],    u->ob[3 * b],     u->ob[3 * b + 1], u->ob[3 * b + 2],
                         u->ub[3 * b], u->ub[3 * b + 1], u->ub[3 * b + 2]};
        if (memcmp(kept, now, sizeof kept)) still_differs(w);
      }
    }
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
  ipc_reserve((void **)&u->Mb, &u->cap_Mb, nb, sizeof(double));
  ipc_reserve((void **)&u->bodo, &u->cap_bodo, nb, sizeof(double));
  reserve_calls(&u->t_Mb, &u->cap_t_Mb, nb);
  sup_bodies_job j = {w, x0, x1, grow, what};
  ipc_parallel_sum(nb, 16, sup_bodies_range, &j);
  if (what & DO_ODOMETERS) u->odo_call = w->calls;
  if (what & DO_DEVIATIONS) u->dev_call = w->calls;
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
   its body pairs has no pair of primitives now. Passive sets come by whole bodies (obstacles;
   bodies frozen by the Newton solve or the island line search): the search listed every pair
   of primitives of two bodies one of which had no passive vertex then, whatever is passive now
   (a pair of two bodies passive now is not among the pairs kept). So a body frozen for the
   search and thawed since keeps the superset, and only its pairs with bodies that were passive
   too are searched directly */
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
    if (valid && u->calm[a] && u->calm[b] && (!u->bpassive[a] || !u->bpassive[b])) {
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
  if (!ipc_bodies_prepare(wsp, s, x0, x1, inflation, u->growp, passive, 1e-9 * u->M)) return 0;
  u->nkab = w->nkept;
  ipc_reserve((void **)&u->kab, &u->cap_kab, 2 * u->nkab + 2, sizeof(int));
  memcpy(u->kab, w->kab, 2 * u->nkab * sizeof(int));
  table_pairs(u);
  ipc_reserve((void **)&u->sel, &u->cap_sel, w->nkept + 1, sizeof(int));
  u->nsel = 0;
  for (size_t p = 0; p < w->nkept; ++p)
    if (u->calm[w->kab[2 * p]] && u->calm[w->kab[2 * p + 1]]) u->sel[u->nsel++] = (int)p;
  ipc_candidates_clear(&u->cand);
  ipc_bodies_search(w, &u->cand, s, x0, x1, u->growp, passive, -1.0, u, u->sel, u->nsel);
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
  ipc_reserve((void **)&u->bodo, &u->cap_bodo, (size_t)nb, sizeof(double));
  for (int b = 0; b < nb; ++b) u->bodo[b] = 0.0;
  u->hash = w->grouped_hash;
  u->nb = nb;
  u->r0 = w->r0;
  u->has_passive = passive != NULL;
  ipc_reserve((void **)&u->bpassive, &u->cap_bpassive, (size_t)nb, 1);
  memset(u->bpassive, 0, (size_t)nb);
  for (int i = 0; passive && i < s->nsv; ++i)
    if (passive[s->sv[i]]) u->bpassive[s->vert_body[s->sv[i]]] = 1;
  u->valid = 1;
  u->dev_call = 0; /* the deviations are from the search's positions */
  int r = ipc_bodies_prepare(wsp, s, x0, x1, inflation, grow, passive, -1.0);
  u->odo_call = (*wsp)->calls; /* every xlast is this call's x0 */
  return r;
}

typedef struct sup_job {
  const struct ipc_bodies_ws *w;
  bodies_superset *u;
  const ipc_surface *s;
  const double *x0, *x1, *grow;
  double dist;
  size_t (*kept)[4]; /* per chunk of pairs and list: the pairs kept */
} sup_job;

/* the superset's pairs [begin, end) (its lists end to end) judged: kept when their body pair
   is kept now, the narrowing does not drop them (by the key, carried by the odometers: the
   pair's distance at x0 is at least its key less the odometers of its sides and of its body
   pair, the two primitives having moved by a common translation, their vertices' moves
   relative to it and the relative move of the two bodies' means; else by its verdict, which
   renews the key) and the search's box tests would list them */
static double sup_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  const sup_job *j = vjob;
  const struct ipc_bodies_ws *w = j->w;
  bodies_superset *u = j->u;
  const ipc_candidates *c = &u->cand;
  const int *list[4] = {c->vf, c->ee, c->ve, c->vv};
  const size_t len[4] = {c->nvf, c->nee, c->nve, c->nvv};
  size_t s0 = 0, lo, hi;
  double by_key = 0.0;
  for (int l = 0; l < 4; s0 += len[l], ++l) {
    j->kept[chunk][l] = 0;
    if (!ipc_subrange(s0, len[l], begin, end, &lo, &hi)) continue;
    for (size_t i = lo; i < hi; ++i) {
      const int *pr = list[l] + 2 * i;
      int q = u->bp[l][i], kp = u->cur[q];
      double *key = u->key + s0 + i;
      u->keep[s0 + i] = 0;
      if (kp < 0) continue;
      /* the key test with its bounds taken over the two bodies: no larger a distance, no
         smaller a threshold (the same roundings, each monotone) */
      double far_q = ((*key - u->qodo[q]) - u->qodo[q] - u->odo_ab[q]) * (1.0 - 1e-9) - 1e-6 * u->M;
      if (far_q > u->qfar[q]) {
        by_key += 1.0;
        continue;
      }
      int v[4], nv = ipc_pair_list_vertices(j->s, l, pr, v), na = l == 1 ? 2 : 1;
      double o[2] = {0.0, 0.0};
      for (int k = 0; k < nv; ++k) o[k >= na] = mx(o[k >= na], u->odo[v[k]]);
      double far = (*key - o[0] - o[1] - u->odo_ab[q]) * (1.0 - 1e-9) - 1e-6 * u->M;
      if (ipc_pair_far_beyond(far, l, v, j->x0, j->x1, j->grow, u->step, j->dist)) {
        by_key += 1.0;
        continue;
      }
      double lb = 0.0;
      int apart = ipc_pair_apart_lb(l, v, j->x0, j->x1, j->grow, j->dist, &lb);
      double m[2] = {INFINITY, INFINITY};
      for (int k = 0; k < nv; ++k) m[k >= na] = mn(m[k >= na], u->odo[v[k]]);
      *key = lb - 1e-7 * u->M + m[0] + m[1] + u->odo_ab[q];
      if (apart) continue;
      u->keep[s0 + i] =
          (unsigned char)boxes_meet(w, j->s, l, pr, (size_t)kp, j->x0, j->x1, j->grow);
      j->kept[chunk][l] += u->keep[s0 + i];
    }
  }
  return by_key;
}

typedef struct gather_job {
  const bodies_superset *u;
  int *dst[4];
  size_t (*at)[4]; /* per chunk and list: where its kept pairs go */
} gather_job;

/* the kept pairs of the superset's pairs [begin, end) (sup_range's chunk) into their lists,
   at the places the chunks before them leave: the order a serial pass would give */
static double gather_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  const gather_job *j = vjob;
  const ipc_candidates *c = &j->u->cand;
  const int *src[4] = {c->vf, c->ee, c->ve, c->vv};
  const size_t len[4] = {c->nvf, c->nee, c->nve, c->nvv};
  size_t s0 = 0, lo, hi;
  for (int l = 0; l < 4; s0 += len[l], ++l) {
    if (!ipc_subrange(s0, len[l], begin, end, &lo, &hi)) continue;
    size_t k = j->at[chunk][l];
    for (size_t i = lo; i < hi; ++i)
      if (j->u->keep[s0 + i]) {
        j->dst[l][2 * k] = src[l][2 * i];
        j->dst[l][2 * k + 1] = src[l][2 * i + 1];
        ++k;
      }
  }
  return 0.0;
}

typedef struct step_job {
  struct ipc_bodies_ws *w;
  const double *x0, *x1;
} step_job;

/* bodies [begin, end): their surface vertices' step lengths into u->step, a little over, and
   the largest into u->bstep (a still body's are 0: kept from a call since its x0 was kept) */
static double step_range(void *vjob, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const step_job *j = vjob;
  struct ipc_bodies_ws *w = j->w;
  bodies_superset *u = &w->sup;
  for (size_t b = begin; b < end; ++b) {
    int keep = w->still[b] && u->t_step[b] >= w->since[b];
    if (keep && !w->check) continue;
    if (keep) /* a still body's steps are 0 */
      for (int i = w->vs[b]; i < w->vs[b + 1]; ++i)
        if (u->step[w->vid[i]] != 0.0 || u->bstep[b] != 0.0) {
          still_differs(w);
          break;
        }
    double m = 0.0;
    for (int i = w->vs[b]; i < w->vs[b + 1]; ++i) {
      size_t v = (size_t)w->vid[i];
      const double *p = j->x0 + 3 * v, *q = j->x1 + 3 * v;
      double d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
      u->step[v] = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) * (1.0 + 1e-12);
      m = mx(m, u->step[v]);
    }
    u->bstep[b] = m;
    u->t_step[b] = w->calls;
  }
  return 0.0;
}

/* per body pair of the superset answered for now: the largest odometer of its bodies and the
   key test's threshold with the largest step and grow of its bodies (ipc_pair_far_beyond's
   first test, the same operations in the same order) */
static void pair_bounds(struct ipc_bodies_ws *w, const double *grow, double dist) {
  bodies_superset *u = &w->sup;
  ipc_reserve((void **)&u->qodo, &u->cap_qodo, u->nkab + 1, sizeof(double));
  ipc_reserve((void **)&u->qfar, &u->cap_qfar, u->nkab + 1, sizeof(double));
  for (size_t q = 0; q < u->nkab; ++q) {
    if (u->cur[q] < 0) continue;
    int a = u->kab[2 * q], b = u->kab[2 * q + 1];
    double L = mx(u->bstep[a], u->bstep[b]), g = grow ? mx(w->gmax[a], w->gmax[b]) : 0.0;
    u->qodo[q] = mx(u->bodo[a], u->bodo[b]);
    u->qfar[q] = (dist + 4.0 * 1.0 * L + g + g) * (1.0 + 1e-8);
  }
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
  if (!ipc_bodies_prepare(wsp, s, x0, x1, inflation, grow, passive, -1.0)) return 0;
  struct ipc_bodies_ws *w = *wsp;
  bodies_superset *u = &w->sup;
  ++st->calls;
  for (int b = 0; b < w->nb; ++b) st->still += w->still[b];
  st->still_bad += w->still_bad;
  w->still_bad = 0;
  int ok = u->valid && u->hash == w->grouped_hash && u->nb == w->nb && u->r0 == w->r0 &&
           u->has_passive == (passive != NULL);
  sup_bodies(w, x0, x1, grow, DO_MOTION | (ok ? DO_ODOMETERS | DO_DEVIATIONS : 0));
  u->M = 0.0; /* the largest |coordinate| of a surface vertex */
  for (int b = 0; b < w->nb; ++b) u->M = mx(u->M, u->Mb[b]);
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
  if (u->nsel > 0)
    ipc_bodies_search(w, c, s, x0, x1, grow, passive, narrow_dist, NULL, u->sel, u->nsel);
  const ipc_candidates *sc = &u->cand;
  size_t n = ok ? sc->nvf + sc->nee + sc->nve + sc->nvv : 0;
  if (n > 0) {
    ipc_reserve((void **)&u->step, &u->cap_step, (size_t)s->nverts + 1, sizeof(double));
    ipc_reserve((void **)&u->bstep, &u->cap_bstep, (size_t)w->nb, sizeof(double));
    reserve_calls(&u->t_step, &u->cap_t_step, (size_t)w->nb);
    step_job sj = {w, x0, x1};
    ipc_parallel_sum((size_t)w->nb, 16, step_range, &sj);
    pair_bounds(w, grow, narrow_dist);
    ipc_reserve((void **)&u->keep, &u->cap_keep, n + 1, 1);
    size_t kept[IPC_MAX_CHUNKS][4], nc = ipc_chunk_count(n, 1024);
    sup_job job = {w, u, s, x0, x1, grow, narrow_dist, kept};
    st->key_drops += (size_t)ipc_parallel_sum(n, 1024, sup_range, &job);
    /* the kept pairs appended to c's lists on the threads, each chunk at its place (the
       same chunks: ipc_parallel_sum's split depends on n and the chunk size only); the lists
       grown here, on the calling thread */
    int **dst[4] = {&c->vf, &c->ee, &c->ve, &c->vv};
    size_t *cnt[4] = {&c->nvf, &c->nee, &c->nve, &c->nvv};
    size_t *cap[4] = {&c->cap_vf, &c->cap_ee, &c->cap_ve, &c->cap_vv};
    gather_job gj = {u, {NULL}, kept};
    for (int l = 0; l < 4; ++l) {
      size_t k = *cnt[l];
      for (size_t ch = 0; ch < nc; ++ch) {
        size_t m = kept[ch][l];
        kept[ch][l] = k; /* now where chunk ch's pairs go */
        k += m;
      }
      ipc_reserve((void **)dst[l], cap[l], k + 1, 2 * sizeof(int));
      gj.dst[l] = *dst[l];
      *cnt[l] = k;
    }
    ipc_parallel_sum(n, 1024, gather_range, &gj);
  }
  st->superset_pairs += n;
  st->pairs += c->nvf + c->nee + c->nve + c->nvv;
  ipc_bodies_sort_lists(w, c, s);
  return 1;
}

void ipc_bodies_superset_free(bodies_superset *u) {
  ipc_candidates_free(&u->cand);
  void *sup_arrays[] = {u->bpassive, u->key,   u->keep, u->x0,     u->x1,    u->g,
                        u->G,        u->kab,   u->tab,  u->odo_ab, u->dob,   u->dev,
                        u->ob,       u->ub,    u->odo,  u->xlast,  u->step,  u->cur,
                        u->growp,    u->mb,    u->calm, u->sel,    u->Mb,    u->t_Mb,
                        u->bodo,     u->bstep, u->qodo, u->qfar,   u->t_step};
  for (size_t i = 0; i < sizeof sup_arrays / sizeof sup_arrays[0]; ++i) ipc_free(sup_arrays[i]);
  for (int l = 0; l < 4; ++l) ipc_free(u->bp[l]);
}
