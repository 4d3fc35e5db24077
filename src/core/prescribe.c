/* the scripted motion of one step; see prescribe.h */
#include "core/prescribe.h"

#include <string.h>

#include "core/alloc.h"
#include "core/dirichlet.h"

void ipc_prescription_init(ipc_prescription *p, int nverts, int naff) {
  p->target = IPC_NEW0(double, 3 * (size_t)nverts + 1);
  p->scripted = IPC_NEW0(unsigned char, (size_t)nverts + 1);
  p->qs = IPC_NEW0(double, 12 * (size_t)naff + 1);
  p->aff_scripted = IPC_NEW0(unsigned char, (size_t)naff + 1);
}

void ipc_prescription_free(ipc_prescription *p) {
  ipc_free(p->target);
  ipc_free(p->scripted);
  ipc_free(p->qs);
  ipc_free(p->aff_scripted);
  ipc_free(p->ext_target);
  ipc_free(p->ext_set);
  memset(p, 0, sizeof *p);
}

ipcc_status ipc_prescribe(ipc_prescription *p, ipc_model *m, const ipc_rest *r, double *center,
                          double h, double t, int step, const double *x, const double *q,
                          ipcc_error *err) {
  memset(p->scripted, 0, (size_t)m->nverts);
  ipc_dirichlet_release(m, t, x);
  ipc_dirichlet_targets(m, center, h, t, x, p->target, p->scripted);
  for (int a = 0; a < r->naff; ++a) {
    double *qs = p->qs + 12 * (size_t)a;
    p->aff_scripted[a] = (unsigned char)ipc_dirichlet_affine_scripted(
        m, center, r->aff_dir0[a], r->aff_ndir[a], t, h, q + 12 * (size_t)a, qs);
    if (p->aff_scripted[a]) ipc_rest_map_body(r, m, a, qs, p->target);
  }
  if (ipc_mesh_seq_targets(m, step, p->target, p->scripted, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (p->next > 0) { /* set from outside for this step only */
    for (int i = 0; i < m->nverts; ++i) {
      if (!p->ext_set[i]) continue;
      memcpy(p->target + 3 * (size_t)i, p->ext_target + 3 * (size_t)i, 3 * sizeof(double));
      p->scripted[i] = 1;
      p->ext_set[i] = 0;
    }
    p->next = 0;
  }
  ipc_dirichlet_advance_centers(m, center, h, t);
  return IPCC_OK;
}
