/* IPC's AnimScripter scenarios beyond the ones finalize() maps itself, and mesh sequences
   (meshSeq, meshSeqFromFile), for the .txt script reader (src/io/scene_txt.c) */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "io/path.h"
#include "io/scene_txt_internal.h"

/* ---- IPC's other scenarios (AnimScripter.cpp: initAnimScript / stepAnimScript) ----
   each becomes Dirichlet windows (and Neumann loads or initial velocities) computed here:
   IPC's turning points (a handle stops, reverses or is released when one of its vertices
   passes a position, tested at the start of each step) become switch times, exact while
   the handles follow their script. selections are over IPC's mesh.V, every shape's
   vertices; handles on kinematic shapes are left to those shapes' own scripts. */

/* the placed shapes, seen by a scenario */
typedef struct scen {
  txt *p;
  ipcc_scene_def *s;
  const placed *pl;
  int nsh, nX, nsteps;
  double dt, lo[3], hi[3], r[3]; /* bounding box of all shapes, its extent */
  unsigned char *tag;            /* (nX) group of each vertex, 0 for none */
} scen;

static const double *vert(const scen *k, int i) {
  return k->pl->X + 3 * (size_t)i;
}

/* x_d below lo + f r (f < 0.5) or above hi - f r (f > 0): IPC's relative bands */
static int below(const scen *k, int i, int d, double f) {
  return vert(k, i)[d] < k->lo[d] + f * k->r[d];
}
static int above(const scen *k, int i, int d, double f) {
  return vert(k, i)[d] > k->hi[d] - f * k->r[d];
}

/* lo + a r < x_d < hi - b r, strictly */
static int inside(const scen *k, int i, int d, double a, double b) {
  double x = vert(k, i)[d];
  return x > k->lo[d] + a * k->r[d] && x < k->hi[d] - b * k->r[d];
}

/* IPC's borderVerts_primitive (IglUtils::findBorderVerts): 1 left of lo + handleRatio r in
   x, else 2 right of hi - handleRatio r, else 0 */
static int border(const scen *k, int i) {
  double f = k->p->handle_ratio;
  return below(k, i, 0, f) ? 1 : above(k, i, 0, f) ? 2 : 0;
}

/* first (last) vertex of group g, -1 if none */
static int first_of(const scen *k, int g) {
  for (int i = 0; i < k->nX; ++i)
    if (k->tag[i] == g) return i;
  return -1;
}
static int last_of(const scen *k, int g) {
  for (int i = k->nX - 1; i >= 0; --i)
    if (k->tag[i] == g) return i;
  return -1;
}

/* the vertices of shape c in group g (shape-local ids, n of them), or NULL when none */
static int *group_verts(const scen *k, int c, int g, int *n) {
  int o = k->pl->off[c], nv = k->pl->off[c + 1] - o;
  int *verts = IPC_NEW(int, (size_t)nv + 1);
  *n = 0;
  for (int i = 0; i < nv; ++i)
    if (k->tag[o + i] == g) verts[(*n)++] = i;
  if (*n == 0) {
    ipc_free(verts);
    return NULL;
  }
  return verts;
}

/* window [t0, t1) moving group g of every deformable shape by velocity v and angular
   velocity w (about center, or NULL: the region's own centre); v, w NULL: held */
static void add_group(scen *k, int g, double t0, double t1, const double v[3], const double w[3],
                      const double *center) {
  if (!(t0 < t1)) return;
  for (int c = 0; c < k->nsh; ++c) {
    ipcc_body_def *b = &k->s->bodies[c];
    int n = 0;
    int *verts = b->obstacle ? NULL : group_verts(k, c, g, &n);
    if (!verts) continue;
    ipcc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, t0, t1);
    if (v) memcpy(d->velocity, v, sizeof d->velocity);
    if (w) memcpy(d->angular_velocity, w, sizeof d->angular_velocity);
    if (center) {
      d->has_center = 1;
      memcpy(d->center, center, sizeof d->center);
    }
  }
}

/* Neumann acceleration a on group g of every deformable shape over the NBCTimeRange */
static void add_load(scen *k, int g, const double a[3]) {
  for (int c = 0; c < k->nsh; ++c) {
    ipcc_body_def *b = &k->s->bodies[c];
    int n = 0;
    int *verts = b->obstacle ? NULL : group_verts(k, c, g, &n);
    if (!verts) continue;
    b->neumann = ipc_realloc(b->neumann, (size_t)(b->nneumann + 1) * sizeof(ipcc_neumann_def));
    ipcc_neumann_def *nd = &b->neumann[b->nneumann++];
    memset(nd, 0, sizeof *nd);
    nd->region.verts = verts;
    nd->region.nverts = n;
    memcpy(nd->acceleration, a, sizeof nd->acceleration);
    nd->t_begin = fmax(0.0, k->p->nbc_range[0]);
    nd->t_end = k->p->nbc_range[1];
  }
}

/* IPC's turning points: a coordinate starting at x and moving by speed v is tested at the
   start of each of the scene's steps; outside (lo, hi) the motion reverses (once: only the
   first time). writes the switch steps to ks; returns their count, -1 beyond cap */
static int turning_steps(const scen *k, double x, double v, double lo, double hi, int once, int *ks,
                         int cap) {
  int n = 0;
  for (int step = 0; step < k->nsteps; ++step) {
    if (x <= lo || x >= hi) {
      if (n == cap) return -1;
      ks[n++] = step;
      v = -v;
      if (once) break;
    }
    x += v * k->dt;
  }
  return n;
}

/* the time of the first turning step, INFINITY if none */
static double first_turn(const scen *k, double x, double v, double lo, double hi) {
  int ks[1];
  return turning_steps(k, x, v, lo, hi, 1, ks, 1) == 1 ? ipc_txt_switch_time(ks[0], k->dt)
                                                       : INFINITY;
}

#define MAX_FLIPS 10000

/* group g moves at v (rotating at w about center, constant), v reversing at each turning
   step of the coordinate d of vertex `turn` within (x0 - below, x0 + above) */
static int add_flipping(scen *k, int g, int turn, int d, const double v[3], double vd,
                        double below_, double above_, const double w[3], const double *center) {
  int *ks = IPC_NEW(int, MAX_FLIPS);
  double x0 = vert(k, turn)[d];
  int n = turning_steps(k, x0, vd, x0 - below_, x0 + above_, 0, ks, MAX_FLIPS);
  if (n < 0) {
    ipc_free(ks);
    return ipc_txt_bad(
        k->p, k->p->script_line,
        "keyword 'script': scenario '%s' reverses more than %d times over the scene's "
        "duration",
        ipc_txt_script_names[k->p->script], MAX_FLIPS);
  }
  double vv[3] = {v[0], v[1], v[2]}, t0 = 0.0;
  for (int i = 0; i <= n; ++i) {
    double t1 = i < n ? ipc_txt_switch_time(ks[i], k->dt) : INFINITY;
    add_group(k, g, t0, t1, vv, w, center);
    for (int q = 0; q < 3; ++q) vv[q] = -vv[q];
    t0 = t1;
  }
  ipc_free(ks);
  return 1;
}

/* the meshCO obstacles (bodies after the shapes) */
static int mesh_co_count(const scen *k) {
  return k->s->nbodies - k->nsh;
}

static int need(scen *k, int ok, const char *what) {
  if (ok) return 1;
  return ipc_txt_bad(k->p, k->p->script_line, "keyword 'script': scenario '%s' needs %s",
                     ipc_txt_script_names[k->p->script], what);
}

/* body c (a shape or a meshCO) scripted whole over [t0, t1) */
static ipcc_dirichlet_def *whole(scen *k, int c, double t0, double t1) {
  int nv = k->p->meshes[k->p->shapes[k->p->order[c]].mesh].m.nverts;
  return ipc_txt_add_dirichlet(&k->s->bodies[c], ipc_txt_all_verts(nv), nv, t0, t1);
}

/* tags of the static scenarios: which vertices are held; returns 1 if the scenario is one */
static int held_tags(scen *k) {
  int sc = k->p->script, g1 = -1, g2 = -1;
  for (int i = 0; i < k->nX; ++i) {
    int b = border(k, i), t = 0;
    switch (sc) {
      case SCRIPT_HANG2:
        t = above(k, i, 1, 0.01);
        break;
      case SCRIPT_HANG_TOP_LEFT:
        t = b == 1 && above(k, i, 1, 0.01) && (above(k, i, 2, 0.01) || below(k, i, 2, 0.01));
        break;
      case SCRIPT_HANG_LEFT:
      case SCRIPT_STAMP:
        t = b == 1;
        break;
      case SCRIPT_SWING:
        t = below(k, i, 0, 0.05);
        break;
      case SCRIPT_STAMP_TOP_LEFT:
        t = b == 1 && above(k, i, 1, 0.01);
        break;
      case SCRIPT_STAMP_BOTH:
        t = b != 0;
        break;
      case SCRIPT_STAND:
        t = below(k, i, 1, 0.01);
        break;
      case SCRIPT_TOP_BOTTOM_FIX:
        t = below(k, i, 1, 0.02) || above(k, i, 1, 0.02);
        break;
      case SCRIPT_FIX_LOWER_HALF:
        t = below(k, i, 1, 0.5);
        break;
      case SCRIPT_CORNER:
        t = below(k, i, 0, 0.01) || below(k, i, 1, 0.01) || below(k, i, 2, 0.01);
        break;
      case SCRIPT_HANG: /* the last vertex of each border */
        if (b == 1) g1 = i;
        if (b == 2) g2 = i;
        break;
      case SCRIPT_FIX_RIGHTMOST1: /* the first vertex right of hi - 1e-3 r */
        if (g1 < 0 && above(k, i, 0, 1e-3)) g1 = i;
        break;
      default:
        return 0;
    }
    k->tag[i] = (unsigned char)t;
  }
  if (g1 >= 0) k->tag[g1] = 1;
  if (g2 >= 0) k->tag[g2] = 1;
  add_group(k, 1, 0.0, INFINITY, NULL, NULL, NULL);
  return 1;
}

/* the scenarios that move deformable shapes' handles */
static int handle_scenarios(scen *k) {
  const double pi_ = pi;
  int sc = k->p->script, rightmost = -1;
  double ctr[3];
  for (int d = 0; d < 3; ++d) ctr[d] = 0.5 * (k->lo[d] + k->hi[d]);
  for (int i = 0; i < k->nX; ++i) {
    int b = border(k, i), t = 0;
    switch (sc) {
      case SCRIPT_PUSH:
      case SCRIPT_TEAR:
        t = below(k, i, 1, 0.01) ? 1 : above(k, i, 1, 0.01) ? 2 : 0;
        break;
      case SCRIPT_UNDSTAMP:
        t = b == 1;
        break;
      case SCRIPT_UPNDOWN:
      case SCRIPT_STRETCH:
      case SCRIPT_SQUASH:
      case SCRIPT_STRETCH_SQUASH:
      case SCRIPT_TWIST_STRETCH:
      case SCRIPT_TWIST_SNS:
      case SCRIPT_TWIST_SNS_OLD:
      case SCRIPT_BEND:
        t = b;
        break;
      case SCRIPT_RUBBER_BAND_PULL:
        t = below(k, i, 1, 0.02)          ? 1
            : above(k, i, 1, 0.02)        ? 2
            : inside(k, i, 1, 0.48, 0.48) ? 3
                                          : 0;
        break;
      case SCRIPT_FOUR_LEG_PULL:
        t = above(k, i, 1, 0.129) && below(k, i, 0, 0.16)  ? 1
            : above(k, i, 1, 0.16) && above(k, i, 0, 0.16) ? 2
            : below(k, i, 1, 0.02) && above(k, i, 0, 0.25) ? 3
            : below(k, i, 1, 0.02) && below(k, i, 0, 0.25) ? 4
                                                           : 0;
        break;
      case SCRIPT_HEAD_TAIL_PULL:
        t = below(k, i, 2, 0.02)          ? 1
            : above(k, i, 2, 0.02)        ? 2
            : inside(k, i, 2, 0.46, 0.46) ? 3
                                          : 0;
        break;
      case SCRIPT_DRAGDOWN:
        t = below(k, i, 1, 0.1) && inside(k, i, 0, 0.42, 0.48);
        break;
      case SCRIPT_TOGGLE_TOP:
        t = above(k, i, 1, 0.02);
        break;
      case SCRIPT_CURTAIN: /* eight pins along the top edge */
        for (int pin = 0; pin < 8 && !t; ++pin) {
          double x = vert(k, i)[0], px = k->lo[0] + k->r[0] / 7.0 * pin;
          if (x > px - 0.0025 * k->r[0] && x < px + 0.0025 * k->r[0] && above(k, i, 1, 0.005))
            t = pin + 1;
        }
        break;
      case SCRIPT_PUSH_RIGHTMOST1: /* the first vertex right of hi - 1e-3 r */
        t = rightmost < 0 && above(k, i, 0, 1e-3);
        if (t) rightmost = i;
        break;
      default:
        return 0;
    }
    k->tag[i] = (unsigned char)t;
  }
  const double inf = INFINITY;
  switch (sc) {
    case SCRIPT_PUSH:
    case SCRIPT_TEAR: { /* bottom held; top pushed down 0.5 and held / dragged -x 4 and back */
      int turn = first_of(k, 2);
      add_group(k, 1, 0, inf, NULL, NULL, NULL);
      if (turn < 0) return 1;
      if (sc == SCRIPT_PUSH) {
        double y0 = vert(k, turn)[1], t1 = first_turn(k, y0, -1.0, y0 - 0.5, inf);
        add_group(k, 2, 0, t1, (const double[3]){0, -1, 0}, NULL, NULL);
        add_group(k, 2, t1, inf, NULL, NULL, NULL);
        return 1;
      }
      return add_flipping(k, 2, turn, 0, (const double[3]){-5, 0, 0}, -5, 4.0, inf, NULL, NULL);
    }
    case SCRIPT_UNDSTAMP:
    case SCRIPT_UPNDOWN: { /* up and down 1.8 m/s, reversing 0.6 from the start */
      int turn = first_of(k, 1);
      if (turn < 0) return 1;
      if (!add_flipping(k, 1, turn, 1, (const double[3]){0, 1.8, 0}, 1.8, 0.6, 0.6, NULL, NULL))
        return 0;
      return sc == SCRIPT_UNDSTAMP ||
             add_flipping(k, 2, turn, 1, (const double[3]){0, -1.8, 0}, 1.8, 0.6, 0.6, NULL, NULL);
    }
    case SCRIPT_STRETCH:
    case SCRIPT_SQUASH: {
      double v = sc == SCRIPT_STRETCH ? -0.1 : 0.03;
      add_group(k, 1, 0, inf, (const double[3]){v, 0, 0}, NULL, NULL);
      add_group(k, 2, 0, inf, (const double[3]){-v, 0, 0}, NULL, NULL);
      return 1;
    }
    case SCRIPT_STRETCH_SQUASH:
    case SCRIPT_TWIST_SNS:
    case SCRIPT_TWIST_SNS_OLD: { /* x velocity reversing at (x0 - a, x0 + 0.4) of border 0 */
      double v = sc == SCRIPT_TWIST_SNS ? -1.2 : -0.9;
      double a = sc == SCRIPT_TWIST_SNS ? 1.2 : 0.8,
             w = sc == SCRIPT_STRETCH_SQUASH ? 0 : -0.4 * pi_;
      int turn = first_of(k, 1);
      if (turn < 0) return 1;
      return add_flipping(k, 1, turn, 0, (const double[3]){v, 0, 0}, v, a, 0.4,
                          (const double[3]){w, 0, 0}, w != 0 ? ctr : NULL) &&
             add_flipping(k, 2, turn, 0, (const double[3]){-v, 0, 0}, v, a, 0.4,
                          (const double[3]){-w, 0, 0}, w != 0 ? ctr : NULL);
    }
    case SCRIPT_TWIST_STRETCH: /* rotating about x through the centre while moving along x:
                                  the same whether the centre moves along x or not */
      add_group(k, 1, 0, inf, (const double[3]){-0.1, 0, 0}, (const double[3]){-0.1 * pi_, 0, 0},
                ctr);
      add_group(k, 2, 0, inf, (const double[3]){0.1, 0, 0}, (const double[3]){0.1 * pi_, 0, 0},
                ctr);
      return 1;
    case SCRIPT_BEND: /* each border but its last vertex turns about z through that vertex */
      for (int g = 1; g <= 2; ++g) {
        int last = last_of(k, g);
        if (last < 0) continue;
        double c[3];
        memcpy(c, vert(k, last), sizeof c);
        k->tag[last] = 3;
        add_group(k, g, 0, inf, NULL, (const double[3]){0, 0, (g == 1 ? -0.05 : 0.05) * pi_}, c);
        add_group(k, 3, 0, inf, NULL, NULL, NULL);
        k->tag[last] = 0;
      }
      return 1;
    case SCRIPT_RUBBER_BAND_PULL:
    case SCRIPT_FOUR_LEG_PULL:
    case SCRIPT_HEAD_TAIL_PULL: { /* handles pulled until one has gone 5 (4.5): then the
                                     pulled ones are released, the others held */
      static const double vel[3][5][3] = {
          {{0}, {0, -0.2, 0}, {0, 0.2, 0}, {-2.5, 0, 0}, {0}},
          {{0}, {0, 0, 0}, {2.5, 0, 0}, {2.5, -3.5, 0}, {0, -3.5, 0}},
          {{0}, {3.5, 0, 0}, {3.5, 0, 0}, {0, 0, 0}, {0}}};
      static const int released[3][5] = {{0, 0, 0, 1, 0}, {0, 0, 1, 1, 1}, {0, 1, 1, 0, 0}};
      int which = sc - SCRIPT_RUBBER_BAND_PULL;
      int tg = which == 0 ? 3 : which == 1 ? 4 : 1, d = which == 1 ? 1 : 0;
      double sign = which == 2 ? 1 : -1, reach = which == 2 ? 4.5 : 5.0;
      int turn = first_of(k, tg);
      double t1 = inf;
      if (turn >= 0) {
        double x0 = vert(k, turn)[d];
        t1 = first_turn(k, x0, vel[which][tg][d], sign < 0 ? x0 - reach : -inf,
                        sign > 0 ? x0 + reach : inf);
      }
      for (int g = 1; g <= 4; ++g) {
        add_group(k, g, 0, t1, vel[which][g], NULL, NULL);
        if (!released[which][g]) add_group(k, g, t1, inf, NULL, NULL, NULL);
      }
      return 1;
    }
    case SCRIPT_DRAGDOWN:
      add_group(k, 1, 0, inf, (const double[3]){0, -1.5, 0}, NULL, NULL);
      return 1;
    case SCRIPT_TOGGLE_TOP: { /* the top dragged -x until it has gone 0.1, then released */
      int turn = first_of(k, 1);
      if (turn < 0) return 1;
      double x0 = vert(k, turn)[0];
      add_group(k, 1, 0, first_turn(k, x0, -0.5, x0 - 0.1, inf), (const double[3]){-0.5, 0, 0},
                NULL, NULL);
      return 1;
    }
    case SCRIPT_CURTAIN:
      for (int pin = 0; pin < 8; ++pin)
        add_group(k, pin + 1, 0, inf, (const double[3]){0.04 * (7 - pin) / 7.0, 0, 0}, NULL, NULL);
      return 1;
    case SCRIPT_PUSH_RIGHTMOST1:
      add_group(k, 1, 0, inf, (const double[3]){-0.15, 0, 0}, NULL, NULL);
      return 1;
    default:
      return 0;
  }
}

/* the center of body c's vertices' bounding box, and the box */
static void shape_box(const scen *k, int c, double lo[3], double hi[3]) {
  for (int d = 0; d < 3; ++d) {
    lo[d] = INFINITY;
    hi[d] = -INFINITY;
  }
  int o = k->pl->off[c];
  ipc_txt_bbox_grow(lo, hi, k->pl->X + 3 * (size_t)o, k->pl->off[c + 1] - o);
}

/* the step at which shape c, turning at w (rad/s about z through ctr) from its placed
   position, first has its lowest y at or below y_stop (IPC's DCOHammerWalnut stop),
   as a time; INFINITY if not within the scene */
static double rotation_stop(const scen *k, int c, double w, const double ctr[3], double y_stop) {
  for (int step = 0; step < k->nsteps; ++step) {
    double a = w * k->dt * step, ymin = INFINITY;
    for (int i = k->pl->off[c]; i < k->pl->off[c + 1]; ++i) {
      const double *x = vert(k, i);
      ymin = fmin(ymin, ctr[1] + sin(a) * (x[0] - ctr[0]) + cos(a) * (x[1] - ctr[1]));
    }
    if (ymin <= y_stop) return ipc_txt_switch_time(step, k->dt);
  }
  return INFINITY;
}

/* scenarios acting on whole shapes, meshCO obstacles, loads and initial velocities */
static int other_scenarios(scen *k) {
  const double inf = INFINITY, pi_ = pi;
  int sc = k->p->script, nsh = k->nsh;
  switch (sc) {
    case SCRIPT_LEFT_HIT_RIGHT:
    case SCRIPT_DROP:
    case SCRIPT_DCO_BALL_HIT_WALL: /* initial velocities of the deformable shapes */
      for (int c = 0; c < nsh; ++c) {
        ipcc_body_def *b = &k->s->bodies[c];
        if (b->obstacle) continue;
        if (sc == SCRIPT_DROP) {
          b->velocity[1] = -1.0;
        } else if (sc == SCRIPT_DCO_BALL_HIT_WALL) {
          b->velocity[0] = isnan(k->p->script_param) ? 1000.0 : k->p->script_param;
        } else { /* 1 m/s in x for the vertices left of the middle: whole shapes only */
          int left = 0, nv = k->pl->off[c + 1] - k->pl->off[c];
          for (int i = k->pl->off[c]; i < k->pl->off[c + 1]; ++i) left += below(k, i, 0, 0.5);
          if (left != 0 && left != nv)
            return ipc_txt_bad(
                k->p, k->p->script_line,
                "keyword 'script': scenario 'leftHitRight' is not supported (shape %d "
                "straddles the middle: IPC gives only its left vertices a velocity, "
                "ipcc's initial velocities are per shape)",
                c);
          b->velocity[0] = left ? 1.0 : 0.0;
        }
      }
      return 1;
    case SCRIPT_NM_DRAG_LEFT:
    case SCRIPT_NM_DRAG_FORWARD:
    case SCRIPT_UTOPIA: { /* bottom held, top loaded (over the NBCTimeRange) */
      double f = sc == SCRIPT_UTOPIA ? 1e-4 * k->r[0] / k->r[1] : 0.05;
      for (int i = 0; i < k->nX; ++i) {
        int top = sc == SCRIPT_UTOPIA ? above(k, i, 1, f) : 0, bot = below(k, i, 1, f);
        if (sc != SCRIPT_UTOPIA) top = !bot && above(k, i, 1, f);
        k->tag[i] = top ? 2 : bot ? 1 : 0;
      }
      static const double load[3][3] = {{-600, 0, 0}, {0, 0, 600}, {0, -1.5, 0}};
      add_group(k, 1, 0, inf, NULL, NULL, NULL);
      add_load(k, 2, load[sc == SCRIPT_UTOPIA ? 2 : sc - SCRIPT_NM_DRAG_LEFT]);
      return 1;
    }
    case SCRIPT_MCO_SQUASH: { /* meshCO 0 and 1 move together along x at 1 m/s; reversing
                                 whenever their origins are less than 1.5 apart */
      if (!need(k, mesh_co_count(k) >= 2, "two meshCO obstacles")) return 0;
      const txt_shape *a = &k->p->shapes[k->p->order[nsh]],
                      *b = &k->p->shapes[k->p->order[nsh + 1]];
      int *ks = IPC_NEW(int, MAX_FLIPS);
      int n = turning_steps(k, b->t[0] - a->t[0], -2.0, 1.5, inf, 0, ks, MAX_FLIPS);
      double v = 1.0, t0 = 0.0;
      for (int i = 0; n >= 0 && i <= n; ++i) {
        double t1 = i < n ? ipc_txt_switch_time(ks[i], k->dt) : inf;
        if (t0 < t1) {
          whole(k, nsh, t0, t1)->velocity[0] = v;
          whole(k, nsh + 1, t0, t1)->velocity[0] = -v;
        }
        v = -v;
        t0 = t1;
      }
      ipc_free(ks);
      return need(k, n >= 0, "fewer reversals over the scene's duration");
    }
    case SCRIPT_MCO_ROT_SQUASH:
    case SCRIPT_MCO_ROT_CYLINDERS: { /* meshCO obstacles turning about fixed centres */
      static const double w[2][4][3] = {{{0, 0, 1}, {0, 0, 1}},
                                        {{0.5, 0, 0}, {-0.5, 0, 0}, {0, 0, -0.5}, {0, 0, 0.5}}};
      int rot = sc == SCRIPT_MCO_ROT_CYLINDERS, m = rot ? 4 : 2;
      if (!need(k, mesh_co_count(k) == m,
                rot ? "exactly four meshCO obstacles (IPC turns each by its own of four "
                      "angular velocities)"
                    : "exactly two meshCO obstacles (IPC turns each by its own of two "
                      "angular velocities)"))
        return 0;
      for (int j = 0; j < m; ++j) {
        const txt_shape *co = &k->p->shapes[k->p->order[nsh + j]];
        ipcc_dirichlet_def *d = whole(k, nsh + j, 0, inf);
        memcpy(d->center, co->t, sizeof d->center);
        if (!rot) d->center[1] += (j == 0 ? 0.5 : -0.5) * co->s[0];
        d->has_center = 1;
        for (int q = 0; q < 3; ++q) d->angular_velocity[q] = w[rot][j][q] * pi_;
      }
      return 1;
    }
    case SCRIPT_DCO_SQUASH: { /* shapes 0 and 1 move together along x at 1 m/s, reversing
                                 whenever they are less than 0.1 apart */
      if (!need(k, nsh >= 3, "at least three shapes")) return 0;
      double lo0[3], hi0[3], lo1[3], hi1[3];
      shape_box(k, 0, lo0, hi0);
      shape_box(k, 1, lo1, hi1);
      int *ks = IPC_NEW(int, MAX_FLIPS);
      int n = turning_steps(k, lo1[0] - hi0[0], -2.0, 0.1, inf, 0, ks, MAX_FLIPS);
      double v = 1.0, t0 = 0.0;
      for (int c = 0; c < 2; ++c) k->s->bodies[c].obstacle = 1;
      for (int i = 0; n >= 0 && i <= n; ++i) {
        double t1 = i < n ? ipc_txt_switch_time(ks[i], k->dt) : inf;
        if (t0 < t1) {
          whole(k, 0, t0, t1)->velocity[0] = v;
          whole(k, 1, t0, t1)->velocity[0] = -v;
        }
        v = -v;
        t0 = t1;
      }
      ipc_free(ks);
      return need(k, n >= 0, "fewer reversals over the scene's duration");
    }
    case SCRIPT_DCO_VERSCHOOR_ROLLER: { /* shapes 0-5 spin about their centres */
      static const double w[6][3] = {{0, 0, -4}, {0, 0, -2}, {0, 0, 2},
                                     {0, 0, 4},  {2, 0, 0},  {-2, 0, 0}};
      if (!need(k, nsh >= 7, "at least seven shapes")) return 0;
      for (int c = 0; c < 6; ++c) {
        k->s->bodies[c].obstacle = 1;
        memcpy(k->s->bodies[c].angular_velocity, w[c], sizeof w[c]);
      }
      return 1;
    }
    case SCRIPT_DCO_HAMMER_WALNUT:
    case SCRIPT_DCO_CUT: { /* shape 1 turns about z (hammer) or moves along (0,-1,-1) (cut)
                              until its lowest point reaches y = 0.05 (0.001); held after */
      if (!need(k, nsh >= 2, "at least two shapes")) return 0;
      double lo1[3], hi1[3], t1;
      shape_box(k, 1, lo1, hi1);
      double c[3] = {hi1[0], lo1[1], 0.5 * (lo1[2] + hi1[2])};
      if (sc == SCRIPT_DCO_CUT)
        t1 = first_turn(k, lo1[1], -1.0, 0.001, inf);
      else
        t1 = rotation_stop(k, 1, pi_ / 6, c, 0.05);
      if (t1 > 0) {
        ipcc_dirichlet_def *d = whole(k, 1, 0, t1);
        if (sc == SCRIPT_DCO_CUT) {
          d->velocity[1] = d->velocity[2] = -1.0;
        } else {
          d->has_center = 1;
          memcpy(d->center, c, sizeof c);
          d->angular_velocity[2] = pi_ / 6;
        }
      }
      if (!k->s->bodies[1].obstacle && t1 < inf) whole(k, 1, t1, inf); /* IPC keeps it fixed */
      return 1;
    }
    case SCRIPT_DCO_SQUEEZE_OUT: { /* kinematic shape 0 moves down at 0.3 m/s until its top is
                                      within 0.9/3.8 of kinematic shape 1's height */
      if (!need(k, nsh >= 2 && k->s->bodies[0].obstacle && k->s->bodies[1].obstacle,
                "kinematic shapes 0 and 1 (.obj, .seg or .pt)"))
        return 0;
      double lo0[3], hi0[3], lo1[3], hi1[3];
      shape_box(k, 0, lo0, hi0);
      shape_box(k, 1, lo1, hi1);
      double t1 = first_turn(k, hi0[1], -0.3, lo1[1] + (hi1[1] - lo1[1]) / 3.8 * 0.9, inf);
      if (t1 > 0) whole(k, 0, 0, t1)->velocity[1] = -0.3;
      return 1;
    }
    default:
      return 0;
  }
}

/* every scenario not handled in finalize itself; 0 on error */
int ipc_txt_more_scenarios(txt *p, ipcc_scene_def *s, const placed *pl, int nsh, int nX) {
  scen k;
  memset(&k, 0, sizeof k);
  k.p = p;
  k.s = s;
  k.pl = pl;
  k.nsh = nsh;
  k.nX = nX;
  k.dt = p->dt;
  double n = ceil(p->duration / p->dt); /* IPC's frameAmt */
  k.nsteps = n < 1e8 ? (int)n : 100000000;
  memcpy(k.lo, pl->lo, sizeof k.lo);
  memcpy(k.hi, pl->hi, sizeof k.hi);
  for (int d = 0; d < 3; ++d) k.r[d] = pl->hi[d] - pl->lo[d];
  k.tag = IPC_NEW0(unsigned char, (size_t)nX + 1);
  int ok = 1;
  if (!held_tags(&k) && !handle_scenarios(&k)) ok = other_scenarios(&k);
  ipc_free(k.tag);
  return ok && !p->failed;
}

/* body b (shape sh) moved through the meshes folder/N.ext from N = start: folder resolves
   like mesh paths; ext is .obj, or for segment shapes .seg if that exists (IPC's order) */
int ipc_txt_mesh_sequence(txt *p, ipcc_body_def *b, const txt_shape *sh, const char *folder,
                          int line, int start) {
  if (sh->kind == KIND_TET)
    return ipc_txt_unsupported(
        p, line, "meshSeq",
        "on a tet-mesh shape: ipcc moves only kinematic shapes (.obj, .seg, .pt) "
        "through a mesh sequence");
  static const char *const exts[] = {".seg", ".obj"};
  for (int e = sh->kind == KIND_SEG ? 0 : 1; e < 2; ++e) {
    size_t n = strlen(folder) + 32;
    char *rel = IPC_NEW(char, n);
    snprintf(rel, n, "%s/%d%s", folder, start, exts[e]);
    char *found = ipc_txt_find_up(p->dir, rel);
    ipc_free(rel);
    if (!found) continue;
    b->mesh_sequence = ipc_path_dirname(found);
    ipc_free(found);
    b->mesh_sequence_start = start;
    snprintf(b->mesh_sequence_ext, sizeof b->mesh_sequence_ext, "%s", exts[e]);
    return 1;
  }
  return ipc_txt_bad(p, line, "meshSeq: '%s/%d%s' not found (looked in %s and its parent folders)",
                     folder, start, sh->kind == KIND_SEG ? ".seg or .obj" : ".obj",
                     p->dir[0] ? p->dir : ".");
}
