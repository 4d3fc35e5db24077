/* the rest data both worlds build at creation; see rest.h */
#include "core/rest.h"

#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "elastic/model_rest.h"

/* body a's affine data: its scripts, its moments about the chosen origin */
static ipcc_status affine_body(ipc_rest *r, const ipc_model *m, const ipcc_scene_def *def, int a,
                               int b, int d0, ipc_rest_origin origin, ipcc_error *err) {
  const ipc_body *bd = &m->bodies[b];
  if (ipc_model_affine_scripts_check(m, def, b, d0, err) != IPCC_OK) return IPCC_ERR_INPUT;
  r->aff_body[a] = b;
  r->aff_dir0[a] = d0;
  r->aff_ndir[a] = def->bodies[b].ndirichlet;
  if (origin == IPC_REST_WORLD_ORIGIN) return ipc_model_body_moments(m, bd, &r->aff_mom[a], err);
  /* about the centre of mass: M4 = [m c^T; c S] stays well conditioned far from the world's
     origin (lcp/lcp_affine.c) */
  ipc_affine_moments world;
  if (ipc_model_body_moments(m, bd, &world, err) != IPCC_OK) return IPCC_ERR_INPUT;
  double *o = r->aff_origin + 3 * (size_t)a, shift[3];
  static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int d = 0; d < 3; ++d) shift[d] = -(o[d] = world.first[d] / world.mass);
  ipc_affine_moments_transform(&world, I3, shift, &r->aff_mom[a]);
  return IPCC_OK;
}

ipcc_status ipc_rest_build(ipc_rest *r, const ipc_model *m, const ipcc_scene_def *def,
                           ipc_rest_origin origin, ipcc_error *err) {
  memset(r, 0, sizeof *r);
  r->DmInv = IPC_NEW(double, 9 * (size_t)m->ntets + 1);
  r->vol = IPC_NEW(double, (size_t)m->ntets + 1);
  r->tet_model = IPC_NEW(int, (size_t)m->ntets + 1);
  if (ipc_model_tet_rest(m, def->path, r->DmInv, r->vol, r->tet_model, err) != IPCC_OK)
    return IPCC_ERR_INPUT;
  for (int b = 0; b < m->nbodies; ++b) r->naff += m->bodies[b].affine != 0;
  if (r->naff == 0) return IPCC_OK;
  int na = r->naff;
  r->aff_body = IPC_NEW(int, na);
  r->aff_dir0 = IPC_NEW(int, na);
  r->aff_ndir = IPC_NEW(int, na);
  r->aff_mom = IPC_NEW0(ipc_affine_moments, na);
  r->aff_origin = IPC_NEW0(double, 3 * (size_t)na);
  r->vert_aff = IPC_NEW(int, m->nverts);
  for (int i = 0; i < m->nverts; ++i) r->vert_aff[i] = -1;
  int a = 0, dnext = 0; /* the model's dirichlet list: per body, obstacle entry, then its own */
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    int d0 = dnext + bd->obstacle;
    dnext = d0 + def->bodies[b].ndirichlet;
    if (!bd->affine) continue;
    if (affine_body(r, m, def, a, b, d0, origin, err) != IPCC_OK) return IPCC_ERR_INPUT;
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) r->vert_aff[i] = a;
    ++a;
  }
  return IPCC_OK;
}

void ipc_rest_free(ipc_rest *r) {
  void *all[] = {r->DmInv,    r->vol,      r->tet_model, r->aff_body,  r->aff_dir0,
                 r->aff_ndir, r->vert_aff, r->aff_mom,   r->aff_origin};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) ipc_free(all[k]);
  memset(r, 0, sizeof *r);
}

void ipc_rest_map_body(const ipc_rest *r, const ipc_model *m, int a, const double *q, double *out) {
  const ipc_body *bd = &m->bodies[r->aff_body[a]];
  for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
    double wt[4];
    ipc_rest_weights(r, m, i, wt);
    for (int d = 0; d < 3; ++d)
      out[3 * (size_t)i + d] = q[d] + wt[1] * q[3 + d] + wt[2] * q[6 + d] + wt[3] * q[9 + d];
  }
}

typedef struct map_job {
  const ipc_rest *r;
  const ipc_model *m;
  const double *q;
  double *out;
} map_job;

static double map_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const map_job *j = ctx;
  for (size_t a = begin; a < end; ++a) ipc_rest_map_body(j->r, j->m, (int)a, j->q + 12 * a, j->out);
  return 0.0;
}

/* the bodies on the threads: each writes its own vertices */
void ipc_rest_map(const ipc_rest *r, const ipc_model *m, const double *q, double *out) {
  map_job j = {r, m, q, out};
  ipc_parallel_sum((size_t)r->naff, 16, map_range, &j);
}

void ipc_rest_fit_body(const ipc_rest *r, const ipc_model *m, int a, const double *vals,
                       double *q) {
  const ipc_body *bd = &m->bodies[r->aff_body[a]];
  const double *o = r->aff_origin + 3 * (size_t)a;
  double *xbar = IPC_NEW(double, 3 * (size_t)bd->nv + 1);
  for (int i = 0; i < bd->nv; ++i)
    for (int d = 0; d < 3; ++d) xbar[3 * i + d] = m->x0[3 * (size_t)(bd->v0 + i) + d] - o[d];
  ipc_affine_fit_velocity(bd->nv, xbar, m->mass + bd->v0, vals + 3 * (size_t)bd->v0, q);
  ipc_free(xbar);
}

void ipc_rest_affine_forces(const ipc_rest *r, const ipc_model *m, const double *f, double *gf) {
  for (int i = 0; i < m->nverts && r->naff > 0; ++i) {
    int a = r->vert_aff[i];
    if (a < 0) continue;
    double wt[4];
    ipc_rest_weights(r, m, i, wt);
    for (int c = 0; c < 4; ++c)
      for (int d = 0; d < 3; ++d) gf[12 * (size_t)a + 3 * c + d] += wt[c] * f[3 * (size_t)i + d];
  }
}

void ipc_rest_affine_start(const ipc_rest *r, const ipc_model *m, double *x, double *v, double *q,
                           double *qd) {
  for (int a = 0; a < r->naff; ++a) {
    const double *o = r->aff_origin + 3 * (size_t)a;
    double *qa = q + 12 * (size_t)a;
    memcpy(qa, o, 3 * sizeof(double));
    qa[3] = qa[7] = qa[11] = 1.0;
    ipc_rest_fit_body(r, m, a, v, qd + 12 * (size_t)a);
  }
  ipc_rest_map(r, m, q, x);
  ipc_rest_map(r, m, qd, v);
}
