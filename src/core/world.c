/* the world both contact models step (core/world.h): one creation, the accessors and the
   checks that do not depend on the contact model */
#include "core/world.h"

#include <math.h>
#include <stdio.h>

#include "core/alloc.h"
#include "elastic/model_rest.h"
#include "geometry/intersect_surface.h"

ipcc_world *ipcc_world_create(const ipc_scene_def *def, const ipcc_strategy *strategy,
                              const void *options, ipc_error *err) {
  if (ipc_scene_def_check(def, err) != IPC_OK) return NULL;
  if (strategy->check_options && strategy->check_options(options, err) != IPC_OK) return NULL;
  ipcc_world *w = strategy->alloc();
  if (ipc_model_build(w->m, def, err) != IPC_OK) {
    ipc_free(w->ws);
    return NULL;
  }
  ipc_status st = strategy->check_model ? strategy->check_model(w->m, def, err) : IPC_OK;
  /* rest shapes (inverted or flat tets are bad input), the affine bodies, the state at the
     scene's start and room for the prescription of a step */
  if (st == IPC_OK) st = ipc_rest_build(w->rest, w->m, def, strategy->origin, err);
  if (st == IPC_OK) {
    ipc_state_init(w->s, w->m, w->rest->naff);
    ipc_prescription_init(w->pre, w->m->nverts, w->rest->naff);
    st = strategy->init(w, def, options, err);
  }
  if (st != IPC_OK) {
    ipcc_world_destroy(w);
    return NULL;
  }
  return w;
}

void ipcc_world_destroy(ipcc_world *w) {
  if (!w) return;
  w->strategy->release(w);
  ipc_prescription_free(w->pre);
  ipc_state_free(w->s);
  ipc_rest_free(w->rest);
  ipc_model_free(w->m);
  ipc_free(w->ws);
}

ipc_status ipcc_world_step(ipcc_world *w, void *record, ipc_error *err) {
  return w->strategy->step(w, record, err);
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
  int accel = w->strategy->newmark && m->params.integrator == IPC_NEWMARK;
  return (ipc_state_shape){w->strategy->state_mode, m->nverts,     m->ntets,
                           m->ndirichlet,           w->rest->naff, accel};
}

ipc_status ipcc_world_save_state(const ipcc_world *w, FILE *f, ipc_error *err) {
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

ipc_status ipcc_world_load_state(ipcc_world *w, FILE *f, ipc_error *err) {
  ipc_state_shape sh = state_shape(w);
  ipc_state_record r;
  if (ipc_state_record_read(&r, f, &sh, err) != IPC_OK) return IPC_ERR_INPUT;
  ipc_status st =
      ipc_state_record_check(&r, &sh, w->strategy->state_tags, w->strategy->nstate_tags, err);
  if (st == IPC_OK) st = w->strategy->state_apply(w, &r, &sh, err);
  ipc_state_record_free(&r);
  return st;
}
