/* rest data of a model's tets, shared by the IPC and LCP worlds */
#ifndef IPCC_ELASTIC_MODEL_REST_H
#define IPCC_ELASTIC_MODEL_REST_H

#include "core/model.h"
#include "ipcc/error.h"

/* for every tet of m: DmInv (ntets x 9), vol (ntets) and its energy model (ntets,
   ipc_material_model from the body's material). IPCC_ERR_INPUT naming scene_path (may be
   NULL), the body and the tet when a tet is degenerate or inverted. */
ipcc_status ipc_model_tet_rest(const ipc_model *m, const char *scene_path, double *DmInv,
                               double *vol, int *material, ipcc_error *err);

/* the elastic energy density Psi (J/m^3) of every tet of m at positions x (ntets), from the
   rest data ipc_model_tet_rest made; not finite for an inverted tet */
void ipc_model_tet_energy_density(const ipc_model *m, const double *DmInv, const int *material,
                                  const double *x, double *psi);

#endif
