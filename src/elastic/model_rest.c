/* rest shapes and energy models of a model's tets; see model_rest.h */
#include "elastic/model_rest.h"

#include <string.h>

#include "core/error.h"
#include "elastic/elasticity.h"

static ipc_material_model material_of(ipcc_material_kind k) {
  switch (k) {
    case IPCC_MAT_FIXED_COROTATED:
      return IPC_FIXED_COROTATED;
    case IPCC_MAT_STVK:
      return IPC_STVK;
    default:
      return IPC_NEO_HOOKEAN;
  }
}

ipcc_status ipc_model_tet_rest(const ipc_model *m, const char *scene_path, double *DmInv,
                               double *vol, int *material, ipcc_error *err) {
  for (int t = 0; t < m->ntets; ++t) {
    const ipc_body *b = &m->bodies[m->tet_body[t]];
    double X[12];
    for (int k = 0; k < 4; ++k) memcpy(X + 3 * k, m->x0 + 3 * (size_t)m->tets[4 * t + k], 24);
    if (!ipc_tet_rest(X, DmInv + 9 * (size_t)t, &vol[t]))
      return ipc_error_set(err, IPCC_ERR_INPUT, "%s: body '%s': tet %d is degenerate or inverted",
                           scene_path ? scene_path : "(scene)", b->name, t - b->t0 + 1);
    material[t] = (int)material_of(b->material);
  }
  return IPCC_OK;
}

void ipc_model_tet_energy_density(const ipc_model *m, const double *DmInv, const int *material,
                                  const double *x, double *psi) {
  for (int t = 0; t < m->ntets; ++t) {
    const ipc_body *bd = &m->bodies[m->tet_body[t]];
    double X[12], F[9];
    for (int k = 0; k < 4; ++k) memcpy(X + 3 * k, x + 3 * (size_t)m->tets[4 * t + k], 24);
    ipc_tet_deformation(X, DmInv + 9 * (size_t)t, F);
    psi[t] = ipc_elastic_density((ipc_material_model)material[t], bd->mu, bd->lambda, F, NULL,
                                 NULL, IPC_PROJECT_NONE);
  }
}
