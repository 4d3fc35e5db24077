/* the world both contact models step (core/world.h): one creation, the accessors and the
   checks that do not depend on the contact model; driving it from outside and its state
   snapshots (ipcc/world_unified.h) */
#ifndef _POSIX_C_SOURCE /* open_memstream, fmemopen (the snapshots); meson defines it */
#define _POSIX_C_SOURCE 200809L
#endif
#include "core/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "elastic/model_rest.h"
#include "geometry/intersect_surface.h"

ipcc_world *ipcc_world_create(const ipcc_scene_def *def, const ipcc_strategy *strategy,
                              const void *options, ipcc_error *err) {
  if (ipcc_scene_def_check(def, err) != IPCC_OK) return NULL;
  if (strategy->check_options && strategy->check_options(options, err) != IPCC_OK) return NULL;
  ipcc_world *w = strategy->alloc();
  if (ipc_model_build(w->m, def, err) != IPCC_OK) {
    ipc_free(w->ws);
    return NULL;
  }
  ipcc_status st = strategy->check_model ? strategy->check_model(w->m, def, err) : IPCC_OK;
  /* rest shapes (inverted or flat tets are bad input), the affine bodies, the state at the
     scene's start and room for the prescription of a step */
  if (st == IPCC_OK) st = ipc_rest_build(w->rest, w->m, def, strategy->origin, err);
  if (st == IPCC_OK) {
    ipc_state_init(w->s, w->m, w->rest->naff);
    ipc_prescription_init(w->pre, w->m->nverts, w->rest->naff);
    st = strategy->init(w, def, options, err);
  }
  if (st != IPCC_OK) {
    ipcc_world_destroy(w);
    return NULL;
  }
  return w;
}

ipcc_world *ipcc_world_new(const ipcc_scene_def *def, ipcc_mode mode, const ipcc_lcp_world_def *lcp,
                           ipcc_error *err) {
  if (mode == IPCC_MODE_IPC) return ipcc_world_create(def, &ipcc_strategy_ipc, NULL, err);
  if (mode != IPCC_MODE_LCP) {
    ipc_error_set(err, IPCC_ERR_INPUT,
                  "ipcc_world_new: mode %d: expected IPCC_MODE_IPC (0) or IPCC_MODE_LCP (1)",
                  (int)mode);
    return NULL;
  }
  ipcc_lcp_world_def d = lcp ? *lcp : ipcc_default_lcp_world_def();
  return ipcc_world_create(def, &ipcc_strategy_lcp, &d, err);
}

void ipcc_world_destroy(ipcc_world *w) {
  if (!w) return;
  ipc_free(w->force);
  w->force = NULL;
  w->strategy->release(w);
  ipc_prescription_free(w->pre);
  ipc_state_free(w->s);
  ipc_rest_free(w->rest);
  ipc_model_free(w->m);
  ipc_free(w->ws);
}

ipcc_status ipcc_world_step(ipcc_world *w, void *record, ipcc_error *err) {
  union {
    ipcc_step_stats ipc;
    ipcc_lcp_step_stats lcp;
  } scratch;
  return w->strategy->step(w, record ? record : &scratch, err);
}

ipcc_mode ipcc_world_mode(const ipcc_world *w) {
  return w->strategy->state_mode == IPC_STATE_LCP ? IPCC_MODE_LCP : IPCC_MODE_IPC;
}

const double *ipcc_world_masses(const ipcc_world *w) {
  return w->m->mass;
}

int ipcc_world_vertex_body(const ipcc_world *w, int i) {
  return i >= 0 && i < w->m->nverts ? w->m->surface.vert_body[i] : -1;
}

const double *ipcc_world_positions(const ipcc_world *w) {
  return w->s->x;
}
const double *ipcc_world_velocities(const ipcc_world *w) {
  return w->s->v;
}
int ipcc_world_vertex_count(const ipcc_world *w) {
  return w->m->nverts;
}
int ipcc_world_tet_count(const ipcc_world *w) {
  return w->m->ntets;
}
double ipcc_world_time(const ipcc_world *w) {
  return w->s->time;
}
int ipcc_world_step_count(const ipcc_world *w) {
  return w->s->step;
}
int ipcc_world_scene_steps(const ipcc_world *w) {
  return (int)floor(w->m->params.duration / w->m->params.time_step + 0.5);
}
double ipcc_world_contact_distance(const ipcc_world *w) {
  return w->strategy->contact_distance(w);
}

void ipcc_world_tet_energy_density(const ipcc_world *w, double *psi) {
  ipc_model_tet_energy_density(w->m, w->rest->DmInv, w->rest->tet_model, w->s->x, psi);
}

/* 0 and the first affine body whose map is inverted or flat (det A <= 0) described in what */
static int affine_maps_valid(const ipcc_world *w, char *what, size_t n) {
  /* an affine body's own surface stays intersection-free while its map is one-to-one */
  for (int a = 0; a < w->rest->naff; ++a) {
    const double *q = w->s->q + 12 * (size_t)a; /* A's columns at q + 3, + 6, + 9 */
    double det = q[3] * (q[7] * q[11] - q[10] * q[8]) - q[6] * (q[4] * q[11] - q[10] * q[5]) +
                 q[9] * (q[4] * q[8] - q[7] * q[5]);
    if (!(det > 0)) {
      if (what)
        snprintf(what, n, "affine body '%s' is inverted or flat (det A = %g)",
                 w->m->bodies[w->rest->aff_body[a]].name, det);
      return 0;
    }
  }
  return 1;
}

int ipcc_world_intersection_free(const ipcc_world *w, char *what, size_t n) {
  if (!w->strategy->allows_penetration &&
      (!ipc_model_planes_clear(w->m, w->s->x, what, n) || !affine_maps_valid(w, what, n)))
    return 0;
  ipc_intersection hit;
  if (!ipc_surface_first_intersection(&w->m->surface, w->s->x, &hit))
    return ipc_model_no_containment(w->m, w->s->x, what, n);
  if (what) ipc_intersection_describe(what, n, &w->m->surface, &hit);
  return 0;
}

/* the sizes a state record of w is made for */
static ipc_state_shape state_shape(const ipcc_world *w) {
  const ipc_model *m = w->m;
  int accel = w->strategy->newmark && m->params.integrator == IPCC_NEWMARK;
  return (ipc_state_shape){w->strategy->state_mode, m->nverts,     m->ntets,
                           m->ndirichlet,           w->rest->naff, accel};
}

ipcc_status ipcc_world_save_state(const ipcc_world *w, FILE *f, ipcc_error *err) {
  ipc_state_shape sh = state_shape(w);
  ipc_state_field extra[IPCC_STATE_EXTRA];
  union {
    double d;
    long long l;
    unsigned char bytes[IPCC_STATE_SCRATCH];
  } scratch;
  int n = w->strategy->state_fields(w, extra, &scratch);
  return ipc_state_save(w->s, &sh, extra, n, f, err);
}

ipcc_status ipcc_world_load_state(ipcc_world *w, FILE *f, ipcc_error *err) {
  ipc_state_shape sh = state_shape(w);
  ipc_state_record r;
  if (ipc_state_record_read(&r, f, &sh, err) != IPCC_OK) return IPCC_ERR_INPUT;
  ipcc_status st =
      ipc_state_record_check(&r, &sh, w->strategy->state_tags, w->strategy->nstate_tags, err);
  if (st == IPCC_OK) st = w->strategy->state_apply(w, &r, &sh, err);
  ipc_state_record_free(&r);
  return st;
}

/* ---- driving from outside (ipcc/world_unified.h) ---- */

/* IPCC_OK when a (nverts x 3) fits w and is finite; else IPCC_ERR_INPUT naming fn */
static ipcc_status check_vertex_array(const ipcc_world *w, const char *fn, const double *a,
                                      int nverts, ipcc_error *err) {
  if (nverts != w->m->nverts)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %d vertices given, the world has %d (ipcc_world_vertex_count)", fn,
                         nverts, w->m->nverts);
  for (int i = 0; i < nverts; ++i)
    for (int d = 0; d < 3; ++d)
      if (!isfinite(a[3 * (size_t)i + d]))
        return ipc_error_set(err, IPCC_ERR_INPUT, "%s: vertex %d: %c = %g is not finite", fn, i,
                             "xyz"[d], a[3 * (size_t)i + d]);
  return IPCC_OK;
}

/* the affine bodies' coordinates q (naff x 12) fitted to the vertex values a (positions or
   velocities: both are J q), then a = J q on their vertices */
static void fit_affine(const ipcc_world *w, double *a, double *q) {
  for (int k = 0; k < w->rest->naff; ++k)
    ipc_rest_fit_body(w->rest, w->m, k, a, q + 12 * (size_t)k);
  if (w->rest->naff > 0) ipc_rest_map(w->rest, w->m, q, a);
}

ipcc_status ipcc_world_set_positions(ipcc_world *w, const double *x, int nverts, ipcc_error *err) {
  const char *fn = "ipcc_world_set_positions";
  if (check_vertex_array(w, fn, x, nverts, err) != IPCC_OK) return IPCC_ERR_INPUT;
  size_t n3 = 3 * (size_t)nverts, nq = 12 * (size_t)w->rest->naff;
  double *old = IPC_NEW(double, n3 + 1), *oldq = IPC_NEW(double, nq + 1);
  memcpy(old, w->s->x, n3 * sizeof(double));
  if (nq) memcpy(oldq, w->s->q, nq * sizeof(double));
  memcpy(w->s->x, x, n3 * sizeof(double));
  fit_affine(w, w->s->x, w->s->q);
  char what[512];
  ipcc_status st = IPCC_OK;
  int changed = 0; /* the strategy rebuilt its caches at the new x */
  if (!ipcc_world_intersection_free(w, what, sizeof what)) {
    st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: the new state intersects: %s", fn, what);
  } else {
    st = w->strategy->state_changed(w, 1, err);
    changed = 1;
  }
  if (st != IPCC_OK) { /* the world as it was */
    memcpy(w->s->x, old, n3 * sizeof(double));
    if (nq) memcpy(w->s->q, oldq, nq * sizeof(double));
    if (changed) w->strategy->state_changed(w, 1, NULL);
  }
  ipc_free(old);
  ipc_free(oldq);
  return st;
}

ipcc_status ipcc_world_set_velocities(ipcc_world *w, const double *v, int nverts, ipcc_error *err) {
  if (check_vertex_array(w, "ipcc_world_set_velocities", v, nverts, err) != IPCC_OK)
    return IPCC_ERR_INPUT;
  memcpy(w->s->v, v, 3 * (size_t)nverts * sizeof(double));
  fit_affine(w, w->s->v, w->s->qd);
  return w->strategy->state_changed(w, 0, err);
}

ipcc_status ipcc_world_set_forces(ipcc_world *w, const double *f, int nverts, ipcc_error *err) {
  if (!f) {
    ipc_free(w->force);
    w->force = NULL;
    return IPCC_OK;
  }
  if (check_vertex_array(w, "ipcc_world_set_forces", f, nverts, err) != IPCC_OK)
    return IPCC_ERR_INPUT;
  if (!w->force) w->force = IPC_NEW(double, 3 * (size_t)nverts + 1);
  memcpy(w->force, f, 3 * (size_t)nverts * sizeof(double));
  return IPCC_OK;
}

ipcc_status ipcc_world_set_targets(ipcc_world *w, const int *verts, int count,
                                   const double *targets, ipcc_error *err) {
  const char *fn = "ipcc_world_set_targets";
  const ipc_model *m = w->m;
  if (count < 0 || count > m->nverts)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: count %d: expected 0 to %d", fn, count,
                         m->nverts);
  if (count > 0 && (!verts || !targets))
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: %d targets but no %s", fn, count,
                         !verts ? "vertex ids" : "target positions");
  for (int k = 0; k < count; ++k) {
    int i = verts[k];
    if (i < 0 || i >= m->nverts)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s: verts[%d] = %d: expected a vertex id in [0, %d)", fn, k, i,
                           m->nverts);
    if (w->rest->naff > 0 && w->rest->vert_aff[i] >= 0)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s: verts[%d] = %d belongs to affine body '%s', which moves as a "
                           "whole: its targets cannot be set per vertex",
                           fn, k, i, m->bodies[m->surface.vert_body[i]].name);
    for (int d = 0; d < 3; ++d)
      if (!isfinite(targets[3 * (size_t)k + d]))
        return ipc_error_set(err, IPCC_ERR_INPUT,
                             "%s: target %d (vertex %d): %c = %g is not finite", fn, k, i, "xyz"[d],
                             targets[3 * (size_t)k + d]);
  }
  ipc_prescription *p = w->pre;
  if (!p->ext_set) {
    p->ext_set = IPC_NEW0(unsigned char, (size_t)m->nverts + 1);
    p->ext_target = IPC_NEW0(double, 3 * (size_t)m->nverts + 1);
  }
  memset(p->ext_set, 0, (size_t)m->nverts);
  for (int k = 0; k < count; ++k) {
    p->ext_set[verts[k]] = 1;
    memcpy(p->ext_target + 3 * (size_t)verts[k], targets + 3 * (size_t)k, 3 * sizeof(double));
  }
  p->next = count;
  return IPCC_OK;
}

int ipcc_world_contacts(const ipcc_world *w, ipcc_contact *out, int cap) {
  return w->strategy->contacts(w, out, out ? cap : 0);
}

/* ---- state snapshots: the state record in memory ---- */

struct ipcc_state {
  char *data;
  size_t bytes;
};

ipcc_state *ipcc_state_create(const ipcc_world *w, ipcc_error *err) {
  char *buf = NULL;
  size_t bytes = 0;
  FILE *f = open_memstream(&buf, &bytes);
  if (!f) {
    ipc_error_set(err, IPCC_ERR_IO, "ipcc_state_create: no memory stream");
    return NULL;
  }
  ipcc_status st = ipcc_world_save_state(w, f, err);
  if (fclose(f) != 0 && st == IPCC_OK)
    st = ipc_error_set(err, IPCC_ERR_IO, "ipcc_state_create: the memory stream failed");
  if (st != IPCC_OK) {
    free(buf);
    return NULL;
  }
  ipcc_state *s = IPC_NEW0(ipcc_state, 1);
  s->data = IPC_NEW(char, bytes + 1);
  memcpy(s->data, buf, bytes);
  s->bytes = bytes;
  free(buf);
  return s;
}

ipcc_state *ipcc_state_copy(const ipcc_state *s, ipcc_error *err) {
  (void)err;
  ipcc_state *c = IPC_NEW0(ipcc_state, 1);
  c->data = IPC_NEW(char, s->bytes + 1);
  memcpy(c->data, s->data, s->bytes);
  c->bytes = s->bytes;
  return c;
}

ipcc_status ipcc_state_restore(ipcc_world *w, const ipcc_state *s, ipcc_error *err) {
  FILE *f = fmemopen(s->data, s->bytes, "rb");
  if (!f) return ipc_error_set(err, IPCC_ERR_IO, "ipcc_state_restore: no memory stream");
  ipcc_status st = ipcc_world_load_state(w, f, err);
  fclose(f);
  return st;
}

const void *ipcc_state_data(const ipcc_state *s, size_t *bytes) {
  *bytes = s->bytes;
  return s->data;
}

void ipcc_state_free(ipcc_state *s) {
  if (!s) return;
  ipc_free(s->data);
  ipc_free(s);
}
