/* the LCP time step (velocity-level complementarity; Anitescu & Potra 1997 in the form of
   Lazarevych et al. 2010 and Erleben's LCP notes, ch. 1):
     1. unconstrained, linearly implicit Euler velocity: one Newton step of the incremental
        potential without contact, E(x) = 1/2 |x - xt|_M^2 + h^2 Psi(x), xt = xn + h v + h^2 a,
        from x0 (xn with scripted vertices on their targets):
          A v* = M v + h (M a - grad Psi(x0)),   A = M + h^2 K(x0)
        (K the PSD-projected elastic Hessian; CHOLMOD over the free DOFs);
     2. contacts (found at xn at the end of the previous step) give J (normal and tangent
        rows) and gaps phi; per independent region, an LCP / BLCP / cone problem in the
        impulses z with W = J M^-1 J^T (or J A^-1 J^T) and q = J v* - r, r the normal
        velocity each contact needs (-phi/h, i.e. closed by the end of the step; lcp_solve.c);
     3. v = v* + M^-1 J^T z (or A^-1 J^T z), x = xn + h v.
   Scripted vertices and obstacles move with their prescribed velocity and take no impulse. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/timer.h"
#include "core/vec3.h"
#include "elastic/elasticity.h"
#include "elastic/model_rest.h"
#include "geometry/intersect_surface.h"
#include "lcp/lcp.h"
#include "lcp/lcp_world_internal.h"
#include "lcp/manifold.h"

ipcc_lcp_world_def ipcc_default_lcp_world_def(void) {
  ipcc_lcp_world_def d;
  memset(&d, 0, sizeof d);
  d.solver = IPC_LCP_PGS;
  d.friction = IPCC_LCP_FRICTION_NONE;
  d.pyramid_directions = 4;
  d.coupling = IPCC_LCP_COUPLED;
  d.contact_gap = 0;
  d.baumgarte = 0.2;
  d.restitution = 0;
  d.tol = 1e-8;
  d.max_iter = 1000;
  d.omega = 1.0;
  d.warm_start = 1;
  d.split_regions = 1;
  d.dump_dir = NULL;
  d.manifold = IPCC_LCP_MANIFOLD_REDUCED;
  return d;
}

const char *ipcc_lcp_friction_name(ipcc_lcp_friction f) {
  static const char *const names[] = {"none", "box", "pyramid", "cone"};
  return (int)f >= 0 && (int)f < 4 ? names[f] : "?";
}

const char *ipcc_lcp_coupling_name(ipcc_lcp_coupling c) {
  return c == IPCC_LCP_COUPLED ? "coupled" : "lumped";
}

static int parse_bool(const char *v, int *out) {
  if (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on")) return *out = 1, 1;
  if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off")) return *out = 0, 1;
  return 0;
}

static int parse_num(const char *v, double lo, double hi, double *out) {
  char *end;
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= lo && x <= hi)) return 0;
  *out = x;
  return 1;
}

ipcc_status ipcc_lcp_world_def_set(ipcc_lcp_world_def *d, const char *key, const char *value,
                                   ipcc_error *err) {
  double x;
  if (!strcmp(key, "solver")) {
    ipc_lcp_solver s;
    if (ipc_lcp_solver_parse(value, &s) != 0 || s == IPC_LCP_BPP)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.solver: expected pgs, pcg-pgs, amgs or lemke, got '%s'", value);
    d->solver = (int)s;
  } else if (!strcmp(key, "friction")) {
    static const char *const names[] = {"none", "box", "pyramid", "cone"};
    int k = 0;
    while (k < 4 && strcmp(value, names[k])) ++k;
    if (k == 4)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.friction: expected none, box, pyramid or cone, got '%s'", value);
    d->friction = (ipcc_lcp_friction)k;
  } else if (!strcmp(key, "coupling")) {
    if (!strcmp(value, "lumped"))
      d->coupling = IPCC_LCP_LUMPED;
    else if (!strcmp(value, "coupled"))
      d->coupling = IPCC_LCP_COUPLED;
    else
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.coupling: expected lumped or coupled, got '%s'", value);
  } else if (!strcmp(key, "directions")) {
    if (!parse_num(value, 3, 64, &x) || x != floor(x))
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.directions: expected an integer in [3, 64], got '%s'", value);
    d->pyramid_directions = (int)x;
  } else if (!strcmp(key, "gap")) {
    if (!parse_num(value, 0, 1e6, &x))
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.gap: expected a contact gap >= 0 (m), got '%s'", value);
    d->contact_gap = x;
  } else if (!strcmp(key, "baumgarte")) {
    if (!parse_num(value, 0, 1, &x))
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.baumgarte: expected a number in [0, 1], got '%s'", value);
    d->baumgarte = x;
  } else if (!strcmp(key, "restitution")) {
    if (!parse_num(value, 0, 1, &x))
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.restitution: expected a number in [0, 1], got '%s'", value);
    d->restitution = x;
  } else if (!strcmp(key, "tolerance")) {
    if (!parse_num(value, 0, 1, &x))
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.tolerance: expected a relative residual in [0, 1], got '%s'",
                           value);
    d->tol = x;
  } else if (!strcmp(key, "max_iterations")) {
    if (!parse_num(value, 1, 1e9, &x) || x != floor(x))
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "lcp.max_iterations: expected a positive integer, got '%s'", value);
    d->max_iter = (int)x;
  } else if (!strcmp(key, "omega")) {
    if (!parse_num(value, 1e-6, 2 - 1e-6, &x))
      return ipc_error_set(err, IPCC_ERR_INPUT, "lcp.omega: expected a number in (0, 2), got '%s'",
                           value);
    d->omega = x;
  } else if (!strcmp(key, "manifold")) {
    if (!strcmp(value, "reduced"))
      d->manifold = IPCC_LCP_MANIFOLD_REDUCED;
    else if (!strcmp(value, "full"))
      d->manifold = IPCC_LCP_MANIFOLD_FULL;
    else
      return ipc_error_set(err, IPCC_ERR_INPUT, "lcp.manifold: expected reduced or full, got '%s'",
                           value);
  } else if (!strcmp(key, "warm_start") || !strcmp(key, "regions")) {
    int b;
    if (!parse_bool(value, &b))
      return ipc_error_set(err, IPCC_ERR_INPUT, "lcp.%s: expected true or false, got '%s'", key,
                           value);
    if (key[0] == 'w')
      d->warm_start = b;
    else
      d->split_regions = b;
  } else {
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "lcp.%s: unknown option (known: solver friction directions coupling gap "
                         "baumgarte restitution tolerance max_iterations omega warm_start regions "
                         "manifold)",
                         key);
  }
  return IPCC_OK;
}

int ipc_lcp_world_rows(const ipc_lcp_world *w) {
  switch (w->def.friction) {
    case IPCC_LCP_FRICTION_NONE:
      return 1;
    case IPCC_LCP_FRICTION_PYRAMID:
      return 1 + w->def.pyramid_directions;
    default:
      return 3;
  }
}

static ipcc_status check_def(const ipcc_lcp_world_def *d, ipcc_error *err) {
  ipc_lcp_solver s = (ipc_lcp_solver)d->solver;
  if (s != IPC_LCP_PGS && s != IPC_LCP_PCG_PGS && s != IPC_LCP_AMGS && s != IPC_LCP_LEMKE)
    return ipc_error_set(err, IPCC_ERR_INPUT, "lcp.solver: expected pgs, pcg-pgs, amgs or lemke");
  if ((d->friction == IPCC_LCP_FRICTION_BOX || d->friction == IPCC_LCP_FRICTION_CONE) &&
      s != IPC_LCP_PGS && s != IPC_LCP_PCG_PGS)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "lcp.solver: %s cannot solve the %s friction problem (bounds that move "
                         "with the normal impulse); use pgs or pcg-pgs",
                         ipc_lcp_solver_name(s),
                         d->friction == IPCC_LCP_FRICTION_BOX ? "box" : "cone");
  if (d->friction == IPCC_LCP_FRICTION_PYRAMID && s != IPC_LCP_LEMKE)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "lcp.solver: the pyramid friction LCP is not symmetric and has zero "
                         "diagonal entries; only lemke solves it (got %s)",
                         ipc_lcp_solver_name(s));
  if (d->friction == IPCC_LCP_FRICTION_PYRAMID && d->pyramid_directions < 3)
    return ipc_error_set(err, IPCC_ERR_INPUT, "lcp.directions: expected at least 3");
  if (!(d->omega > 0 && d->omega < 2))
    return ipc_error_set(err, IPCC_ERR_INPUT, "lcp.omega: expected a number in (0, 2)");
  return IPCC_OK;
}

static void lcp_release(ipcc_world *world) {
  ipc_lcp_world *w = world->ws;
  ipc_sparse_destroy(w->asm_);
  ipc_cholmod_destroy(w->chol);
  ipc_lcp_body_factors_free(&w->bf);
  ipc_candidates_free(&w->cand);
  ipc_lcp_contact_set_free(&w->contacts);
  ipc_lcp_contact_set_free(&w->prev_contacts);
  ipc_lcp_contact_set_free(&w->manifold);
  ipc_lcp_contact_set_free(&w->proj);
  ipc_free(w->moved);
  ipc_lcp_body_pairs_free(&w->bp);
  double *arrays[] = {w->vstar, w->x0,  w->dv,     w->tet_g, w->tet_H,   w->grad,     w->diag,
                      w->rhs,   w->sol, w->prev_z, w->z,     w->pcg_buf, w->x_factor, w->grow};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) ipc_free(arrays[i]);
  void *bytes[] = {w->fixed, w->dof_fixed, w->dof_fixed_prev, w->prev_key,
                   w->cres,  w->loc,       w->dump_dir};
  for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; ++i) ipc_free(bytes[i]);
  ipc_lcp_affine_free(w);
}

/* length of surface edge e at rest */
static double rest_edge_length(const ipc_model *m, int e) {
  const double *p = m->x0 + 3 * (size_t)m->surface.edges[2 * e];
  const double *q = m->x0 + 3 * (size_t)m->surface.edges[2 * e + 1];
  return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
              (p[2] - q[2]) * (p[2] - q[2]));
}

double ipc_lcp_default_gap(const ipc_model *m) {
  const ipc_surface *s = &m->surface;
  double sum[2] = {0, 0};
  int cnt[2] = {0, 0};
  for (int e = 0; e < s->nedges; ++e) {
    int k = s->vert_obstacle[s->edges[2 * e]] && s->vert_obstacle[s->edges[2 * e + 1]];
    sum[k] += rest_edge_length(m, e);
    cnt[k]++;
  }
  int k = cnt[0] > 0 ? 0 : 1;
  double gap = cnt[k] > 0 ? IPC_LCP_GAP_EDGE_FRACTION * sum[k] / cnt[k] : 0;
  double cap = 1e-2 * m->bbox_diag;
  if (!(gap > 0) || gap > cap) gap = cap;
  return gap > 0 ? gap : 1e-3;
}

void ipc_lcp_world_reduce(ipc_lcp_world *w) {
  if (w->def.manifold == IPCC_LCP_MANIFOLD_FULL) {
    w->active = &w->contacts;
    w->manifolds = w->contacts.n;
    return;
  }
  w->manifolds = ipc_lcp_manifold_reduce(&w->manifold, &w->contacts, &w->m, w->s.x, w->patch_cell,
                                         w->gap, IPC_LCP_MANIFOLD_TIE * w->gap);
  w->active = &w->manifold;
}

/* the mean rest length of the deformable bodies' surface edges (neither affine nor obstacle),
   0 when there are none */
static double deformable_edge_length(const ipc_model *m) {
  const ipc_surface *s = &m->surface;
  double sum = 0;
  int cnt = 0;
  for (int e = 0; e < s->nedges; ++e) {
    int b = s->vert_body ? s->vert_body[s->edges[2 * e]] : 0;
    if (m->nbodies == 0 || m->bodies[b].affine || m->bodies[b].obstacle) continue;
    sum += rest_edge_length(m, e);
    cnt++;
  }
  return cnt > 0 ? sum / cnt : 0;
}

/* the broad phase of the reduced manifolds: each vertex box grown by 2h |v_i - c|, c the
   mean velocity of the vertices that are not obstacles', so a pair's boxes are within
   2h (|v_i - c| + |v_j - c|) >= 2h |v_i - v_j| of each other: what two of its vertices can
   close in the step, whatever c. With c = 0 that is twice the speeds; the global bound
   (twice the largest speed) pairs every primitive of a body sliding at that speed with all
   others within 2h v_max. A stream of bodies moving together is close to c. */
static void broad_phase_relative(ipc_lcp_world *w, double accel) {
  const ipc_model *m = &w->m;
  const int n = m->nverts;
  double c[3] = {0, 0, 0};
  int cnt = 0;
  for (int i = 0; i < n; ++i)
    if (!m->surface.vert_obstacle[i]) {
      for (int d = 0; d < 3; ++d) c[d] += w->s.v[3 * (size_t)i + d];
      cnt++;
    }
  for (int d = 0; d < 3 && cnt > 0; ++d) c[d] /= cnt;
  for (int i = 0; i < n; ++i) {
    const double *v = w->s.v + 3 * (size_t)i;
    double u[3] = {v[0] - c[0], v[1] - c[1], v[2] - c[2]};
    w->grow[i] = 2 * w->h * sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  }
  ipc_broad_phase_passive(&w->cand, &m->surface, w->s.x, NULL, w->gap + 4 * w->h * w->h * accel,
                          w->grow, m->surface.vert_obstacle);
}

/* contacts at the current positions: every pair within the contact gap plus the distance
   two vertices can close in one step (twice the largest speed, with gravity's increment),
   so fast pairs are caught before they cross (speculative contacts); returns the smallest
   gap seen */
static double detect(ipc_lcp_world *w) {
  const ipc_model *m = &w->m;
  const double ga = sqrt(dot3(m->params.gravity, m->params.gravity));
  if (w->def.manifold == IPCC_LCP_MANIFOLD_FULL) {
    double vmax2 = 0;
    for (int i = 0; i < m->nverts; ++i) {
      const double *v = w->s.v + 3 * (size_t)i;
      double s = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
      if (s > vmax2) vmax2 = s;
    }
    double reach = 2 * w->h * (sqrt(vmax2) + 2 * w->h * ga);
    ipc_broad_phase(&w->cand, &m->surface, w->s.x, NULL, w->gap + reach);
  } else if (w->use_bp) {
    ipc_lcp_body_pairs_run(&w->bp, &w->cand, m, w->s.x, w->s.v, w->gap, w->h, ga);
  } else {
    broad_phase_relative(w, ga);
  }
  ipc_lcp_contact_set t = w->prev_contacts;
  w->prev_contacts = w->contacts;
  w->contacts = t;
  w->min_phi =
      ipc_lcp_contacts_collect(&w->contacts, m, &w->cand, w->s.x, w->gap, w->s.v, w->h, ga,
                               &w->prev_contacts, w->def.manifold == IPCC_LCP_MANIFOLD_REDUCED);
  ipc_lcp_world_reduce(w);
  return w->min_phi;
}

static int touches_moved(const ipc_lcp_world *w, int nv, const int *vert) {
  for (int k = 0; k < nv; ++k)
    if (w->moved[w->m.surface.vert_body[vert[k]]]) return 1;
  return 0;
}

/* after a projection: the contacts of the bodies it moved (w->moved) found again from the
   candidates of the last detection (the projection moves them by a fraction of the gap, far
   less than the broad phase's margin), the others kept; returns the smallest gap */
static double detect_moved(ipc_lcp_world *w) {
  const ipc_model *m = &w->m;
  const ipc_surface *s = &m->surface;
  const ipc_candidates *c = &w->cand;
  ipc_candidates sub;
  memset(&sub, 0, sizeof sub);
  sub.vf = IPC_NEW(int, 2 * c->nvf + 1);
  sub.ee = IPC_NEW(int, 2 * c->nee + 1);
  sub.ve = IPC_NEW(int, 2 * c->nve + 1);
  sub.vv = IPC_NEW(int, 2 * c->nvv + 1);
  for (size_t i = 0; i < c->nvf; ++i) {
    const int *f = s->faces + 3 * (size_t)c->vf[2 * i + 1];
    int q[4] = {c->vf[2 * i], f[0], f[1], f[2]};
    if (touches_moved(w, 4, q)) memcpy(sub.vf + 2 * sub.nvf++, c->vf + 2 * i, 2 * sizeof(int));
  }
  for (size_t i = 0; i < c->nee; ++i) {
    const int *a = s->edges + 2 * (size_t)c->ee[2 * i],
              *b = s->edges + 2 * (size_t)c->ee[2 * i + 1];
    int q[4] = {a[0], a[1], b[0], b[1]};
    if (touches_moved(w, 4, q)) memcpy(sub.ee + 2 * sub.nee++, c->ee + 2 * i, 2 * sizeof(int));
  }
  for (size_t i = 0; i < c->nve; ++i) {
    const int *e = s->edges + 2 * (size_t)c->ve[2 * i + 1];
    int q[3] = {c->ve[2 * i], e[0], e[1]};
    if (touches_moved(w, 3, q)) memcpy(sub.ve + 2 * sub.nve++, c->ve + 2 * i, 2 * sizeof(int));
  }
  for (size_t i = 0; i < c->nvv; ++i)
    if (touches_moved(w, 2, c->vv + 2 * i))
      memcpy(sub.vv + 2 * sub.nvv++, c->vv + 2 * i, 2 * sizeof(int));
  ipc_lcp_contact_set fresh = {0};
  ipc_lcp_contacts_collect(&fresh, m, &sub, w->s.x, w->gap, w->s.v, w->h,
                           sqrt(dot3(m->params.gravity, m->params.gravity)), &w->prev_contacts,
                           w->def.manifold == IPCC_LCP_MANIFOLD_REDUCED);
  ipc_free(sub.vf);
  ipc_free(sub.ee);
  ipc_free(sub.ve);
  ipc_free(sub.vv);
  /* merge by key: the moved bodies' contacts from fresh, the others' from w->contacts */
  ipc_lcp_contact_set out = {0};
  ipc_reserve((void **)&out.c, &out.cap, w->contacts.n + fresh.n + 1, sizeof *out.c);
  size_t i = 0, j = 0;
  for (;;) {
    while (i < w->contacts.n && touches_moved(w, w->contacts.c[i].nv, w->contacts.c[i].vert)) ++i;
    while (j < fresh.n && !touches_moved(w, fresh.c[j].nv, fresh.c[j].vert)) ++j;
    if (i == w->contacts.n && j == fresh.n) break;
    if (j == fresh.n ||
        (i < w->contacts.n && ipc_lcp_key_cmp(w->contacts.c[i].key, fresh.c[j].key) < 0))
      out.c[out.n++] = w->contacts.c[i++];
    else
      out.c[out.n++] = fresh.c[j++];
  }
  ipc_lcp_contact_set_free(&fresh);
  ipc_lcp_contact_set_free(&w->contacts);
  w->contacts = out;
  double min_phi = INFINITY;
  for (size_t k = 0; k < w->contacts.n; ++k)
    if (w->contacts.c[k].phi < min_phi) min_phi = w->contacts.c[k].phi;
  w->min_phi = min_phi;
  ipc_lcp_world_reduce(w);
  return min_phi;
}

static ipcc_status lcp_check_options(const void *options, ipcc_error *err) {
  ipcc_lcp_world_def d =
      options ? *(const ipcc_lcp_world_def *)options : ipcc_default_lcp_world_def();
  return check_def(&d, err);
}

/* what the LCP mode cannot step: a start that crosses a plane or lies inside another body (as
   the IPC world refuses; surfaces closer than the gap are contacts), mesh sequences */
static ipcc_status lcp_check_model(const ipc_model *m, const ipcc_scene_def *scene,
                                   ipcc_error *err) {
  char what[256];
  if (!ipc_model_planes_clear(m, m->x0, what, sizeof what) ||
      !ipc_model_no_containment(m, m->x0, what, sizeof what))
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: the initial state intersects: %s",
                         scene->path ? scene->path : "(scene)", what);
  if (m->nseq > 0) /* read per step by the IPC world only */
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: mesh sequences (meshSeq) move obstacles in IPC mode "
                         "only, not in LCP mode",
                         scene->path ? scene->path : "(scene)");
  return IPCC_OK;
}

static ipcc_world *lcp_alloc(void) {
  ipc_lcp_world *w = IPC_NEW0(ipc_lcp_world, 1);
  w->world = (ipcc_world){&ipcc_strategy_lcp, w, &w->m, &w->rest, &w->s, &w->pre, NULL};
  return &w->world;
}

/* the LCP strategy's workspace of a world whose model, rest data, state and prescription are
   built (core/world.c); the contacts at the start */
static ipcc_status lcp_init(ipcc_world *world, const ipcc_scene_def *scene, const void *options,
                            ipcc_error *err) {
  ipc_lcp_world *w = world->ws;
  ipcc_lcp_world_def d =
      options ? *(const ipcc_lcp_world_def *)options : ipcc_default_lcp_world_def();
  ipc_model *m = &w->m;
  int n = m->nverts;
  size_t n3 = 3 * (size_t)n + 1;
  w->def = d;
  if (d.dump_dir) {
    w->dump_dir = IPC_NEW(char, strlen(d.dump_dir) + 1);
    strcpy(w->dump_dir, d.dump_dir);
  }
  w->def.dump_dir = w->dump_dir;
  w->h = scene->time_step;
  w->gap = d.contact_gap > 0 ? d.contact_gap : ipc_lcp_default_gap(m);
  w->patch_cell = IPC_LCP_PATCH_EDGES * deformable_edge_length(m);
  w->use_bp = ipc_lcp_body_pairs_init(&w->bp, m);
  w->active = &w->contacts;
  double **per_dof[] = {&w->vstar, &w->x0,  &w->dv,  &w->grad,
                        &w->diag,  &w->rhs, &w->sol, &w->x_factor};
  for (size_t k = 0; k < sizeof per_dof / sizeof per_dof[0]; ++k)
    *per_dof[k] = IPC_NEW0(double, n3);
  w->grow = IPC_NEW0(double, (size_t)n + 1);
  w->fixed = IPC_NEW0(unsigned char, n + 1);
  w->dof_fixed = IPC_NEW0(unsigned char, n3);
  w->dof_fixed_prev = IPC_NEW0(unsigned char, n3);
  w->loc = IPC_NEW(int, n + 1);
  for (int i = 0; i < n; ++i) w->loc[i] = -1;
  w->tet_g = IPC_NEW(double, 12 * (size_t)IPC_LCP_TET_CHUNK);
  w->tet_H = IPC_NEW(double, 144 * (size_t)IPC_LCP_TET_CHUNK);
  ipc_lcp_affine_init(w);
  w->asm_ = ipc_sparse_create(n);
  w->chol = ipc_cholmod_create();
  w->tet_set = -1;
  if (!w->chol) return ipc_error_set(err, IPCC_ERR_INPUT, "CHOLMOD could not start");
  detect(w);
  return IPCC_OK;
}

void ipc_lcp_world_set_dump_dir(ipc_lcp_world *w, const char *dir) {
  ipc_free(w->dump_dir);
  w->dump_dir = NULL;
  if (dir) {
    w->dump_dir = IPC_NEW(char, strlen(dir) + 1);
    strcpy(w->dump_dir, dir);
  }
  w->def.dump_dir = w->dump_dir;
}

double ipc_lcp_world_stiffness_ratio(const ipc_lcp_world *w, const char **body) {
  const ipc_model *m = &w->m;
  const ipc_surface *s = &m->surface;
  double *sum = IPC_NEW0(double, (size_t)m->nbodies + 1);
  int *cnt = IPC_NEW0(int, (size_t)m->nbodies + 1);
  for (int e = 0; e < s->nedges; ++e) {
    int b = s->vert_body ? s->vert_body[s->edges[2 * e]] : 0;
    sum[b] += rest_edge_length(m, e);
    cnt[b]++;
  }
  double worst = 0;
  if (body) *body = "";
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->obstacle || bd->affine || bd->nt == 0 || !(bd->density > 0) || cnt[b] == 0) continue;
    double l = sum[b] / cnt[b];
    double young = bd->mu * (3 * bd->lambda + 2 * bd->mu) / (bd->lambda + bd->mu);
    double r = young * w->h * w->h / (bd->density * l * l);
    if (r > worst) {
      worst = r;
      if (body) *body = bd->name;
    }
  }
  ipc_free(sum);
  ipc_free(cnt);
  return worst;
}
const ipc_model *ipc_lcp_world_model(const ipc_lcp_world *w) {
  return &w->m;
}
/* the step's prescription (ipc_prescribe) as velocities: obstacles' vertices still (0 unless
   scripted), scripted ones moving to their targets, (target - x) / h; both fixed in the solve.
   *change: the largest change of a prescribed vertex velocity from the one the contacts were
   detected with (w->s.v at the end of the last step). IPCC_ERR_INPUT as ipc_prescribe */
static ipcc_status prescribe(ipc_lcp_world *w, double t, double *change, ipcc_error *err) {
  ipc_model *m = &w->m;
  int n = m->nverts;
  double dv2 = 0;
  memcpy(w->x0, w->s.x, 3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    w->fixed[i] = m->mass[i] <= 0;
    if (w->fixed[i]) {
      dv2 = fmax(dv2, dot3(w->s.v + 3 * i, w->s.v + 3 * i));
      memset(w->s.v + 3 * i, 0, 3 * sizeof(double));
    }
  }
  if (ipc_prescribe(&w->pre, m, &w->rest, w->s.center, w->h, t, w->s.step, w->s.x, w->s.q, err) !=
      IPCC_OK)
    return IPCC_ERR_INPUT;
  for (int v = 0; v < n; ++v) {
    if (!w->pre.scripted[v]) continue;
    double d2 = 0;
    for (int j = 0; j < 3; ++j) {
      double tg = w->pre.target[3 * v + j], vj = (tg - w->s.x[3 * v + j]) / w->h;
      d2 += (vj - w->s.v[3 * v + j]) * (vj - w->s.v[3 * v + j]);
      w->x0[3 * v + j] = tg;
      w->s.v[3 * v + j] = vj;
    }
    dv2 = fmax(dv2, d2);
    w->fixed[v] = 1;
  }
  *change = sqrt(dv2);
  return IPCC_OK;
}

static double total_energy(const ipc_lcp_world *w) {
  const ipc_model *m = &w->m;
  double e = ipc_state_mechanical_energy(&w->s, m, &w->rest);
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt == 0 || bd->affine) continue;
    e += ipc_tets_energy((ipc_material_model)w->rest.tet_model[bd->t0], bd->mu, bd->lambda, bd->nt,
                         m->tets + 4 * (size_t)bd->t0, w->rest.DmInv + 9 * (size_t)bd->t0,
                         w->rest.vol + bd->t0, w->s.x);
  }
  return e;
}

/* the LCP strategy's step (record: ipcc_lcp_step_stats) */
static ipcc_status lcp_step(ipcc_world *world, void *record, ipcc_error *err) {
  ipc_lcp_world *w = world->ws;
  ipcc_lcp_step_stats *st = record;
  const ipc_model *m = &w->m;
  int n = m->nverts;
  double t0 = ipc_now();
  memset(st, 0, sizeof *st);
  /* the contacts were sought with last step's velocities; a prescribed velocity that changed
     by more than the margin of that search (an obstacle starting to move, a script switching
     on) could carry its vertices through a surface within the step: seek them again */
  const double *g = m->params.gravity;
  double change;
  ipcc_status s = prescribe(w, w->s.time, &change, err);
  if (s != IPCC_OK) return s;
  if (change > 3 * w->h * sqrt(dot3(g, g))) detect(w);
  s = ipc_lcp_world_free_velocity(w, st, err);
  if (s == IPCC_OK) s = ipc_lcp_affine_free_velocity(w, err);
  if (s != IPCC_OK) return s;
  double t1 = ipc_now();
  st->t_velocity = t1 - t0;
  st->contacts = (int)w->active->n;
  memset(w->dv, 0, 3 * (size_t)n * sizeof(double));
  s = ipc_lcp_world_solve_contacts(w, st, err);
  if (s != IPCC_OK) return s;
  double t2 = ipc_now();
  st->t_solve = t2 - t1;
  for (int i = 0; i < 3 * n; ++i) {
    w->s.v[i] = w->vstar[i] + w->dv[i];
    if (!isfinite(w->s.v[i]))
      return ipc_error_set(err, IPCC_ERR_SIM, "step %d: velocity is not finite", w->s.step + 1);
    w->s.x[i] += w->h * w->s.v[i];
  }
  ipc_lcp_affine_advance(w); /* x = J q on the affine bodies, not advanced on its own */
  w->s.time += w->h;
  w->s.step++;
  double t3 = ipc_now();
  double phi = detect(w);
  st->t_contacts = ipc_now() - t3;
  int projected = ipc_lcp_world_project(w, st, err);
  if (projected < 0) return IPCC_ERR_SIM;
  if (projected) {
    double t4 = ipc_now();
    st->t_solve += t4 - t3 - st->t_contacts;
    phi = detect_moved(w);
    st->t_contacts += ipc_now() - t4;
  }
  st->step = w->s.step;
  st->time = w->s.time;
  st->min_distance = phi < w->gap ? phi : INFINITY;
  st->contacts_after = (int)w->active->n;
  for (size_t k = 0; k < w->contacts.n; ++k) {
    const ipc_lcp_contact *c = &w->contacts.c[k];
    int moved = 0;
    for (int j = 0; j < c->nv; ++j) moved |= !w->fixed[c->vert[j]];
    st->prescribed_overlap += c->phi < 0 && !moved;
  }
  st->energy = total_energy(w);
  st->t_total = ipc_now() - t0;
  return IPCC_OK;
}

static double lcp_distance(const ipcc_world *w) {
  return ((const ipc_lcp_world *)w->ws)->gap;
}

/* after x or v was set from outside: the contacts sought again (they were sought with the old
   x and v); the stale factor, if reused, only preconditions the next solve */
static ipcc_status lcp_state_changed(ipcc_world *world, int positions, ipcc_error *err) {
  (void)positions;
  (void)err;
  detect(world->ws);
  return IPCC_OK;
}

/* the contacts the next step solves (w->active), with the impulses the last step gave the
   same pairs (its warm-start table, sorted by key as active is) / h */
static int lcp_contact_list(const ipcc_world *world, ipcc_contact *out, int cap) {
  const ipc_lcp_world *w = world->ws;
  const int R = ipc_lcp_world_rows(w);
  const ipc_lcp_contact_set *cs = w->active;
  const int *vb = w->m.surface.vert_body;
  const double *x = w->s.x;
  int n = (int)cs->n;
  size_t j = 0;
  for (int k = 0; k < n && k < cap; ++k) {
    const ipc_lcp_contact *c = &cs->c[k];
    ipcc_contact *o = &out[k];
    memset(o, 0, sizeof *o);
    o->plane = ipc_lcp_contact_plane(c);
    o->kind = o->plane >= 0 ? IPCC_CONTACT_VERTEX_PLANE : IPCC_CONTACT_POINTS;
    o->body[0] = o->body[1] = -1;
    double wp = 0, wn = 0;
    for (int a = 0; a < 4; ++a) {
      o->vertex[a] = a < c->nv ? c->vert[a] : -1;
      o->weight[a] = a < c->nv ? c->w[a] : 0.0;
      if (a >= c->nv || c->w[a] == 0) continue;
      int side = c->w[a] > 0 ? 0 : 1;
      if (o->body[side] < 0) o->body[side] = vb[c->vert[a]];
      for (int d = 0; d < 3; ++d) o->point[side][d] += c->w[a] * x[3 * (size_t)c->vert[a] + d];
      if (side == 0)
        wp += c->w[a];
      else
        wn += c->w[a];
    }
    for (int d = 0; d < 3; ++d) {
      o->point[0][d] = wp != 0 ? o->point[0][d] / wp : 0.0;
      o->point[1][d] = wn != 0 ? o->point[1][d] / wn : o->point[0][d] - c->phi * c->n[d];
      o->normal[d] = c->n[d];
    }
    o->distance = c->phi;
    while (j < w->prev_n && ipc_lcp_key_cmp(w->prev_key + 3 * j, c->key) < 0) ++j;
    if (!(j < w->prev_n && ipc_lcp_key_cmp(w->prev_key + 3 * j, c->key) == 0)) continue;
    const double *z = w->prev_z + j * (size_t)R;
    o->normal_force = z[0] / w->h;
    if (R == 3) {
      for (int d = 0; d < 3; ++d) o->friction_force[d] = (z[1] * c->t1[d] + z[2] * c->t2[d]) / w->h;
    } else if (R > 3) { /* pyramid: direction i at the angle 2 pi (i - 1) / (R - 1) */
      for (int i = 1; i < R; ++i) {
        double a = 2 * 3.14159265358979323846 * (i - 1) / (R - 1);
        for (int d = 0; d < 3; ++d)
          o->friction_force[d] += z[i] * (cos(a) * c->t1[d] + sin(a) * c->t2[d]) / w->h;
      }
    }
  }
  return n;
}

/* in the order of ipcc_strategy's fields (core/world.h), as ipcc_strategy_ipc */
const ipcc_strategy ipcc_strategy_lcp = {"lcp",
                                         IPC_REST_CENTRE,
                                         1,
                                         sizeof(ipcc_lcp_step_stats),
                                         IPC_STATE_LCP,
                                         0,
                                         lcp_check_options,
                                         lcp_alloc,
                                         lcp_check_model,
                                         lcp_init,
                                         lcp_release,
                                         lcp_step,
                                         ipc_lcp_world_state_fields,
                                         ipc_lcp_world_state_tags,
                                         8,
                                         ipc_lcp_world_state_apply,
                                         lcp_distance,
                                         lcp_state_changed,
                                         lcp_contact_list};
