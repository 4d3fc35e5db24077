/* the scripted motion of one step, as both worlds take it (docs/one-world.md): Dirichlet
   regions (targets and releases), obstacles' motion, whole-body scripts of affine bodies and
   mesh sequences. What a mode does with it is its own: the IPC world places or pulls the
   scripted vertices onto their targets (its moving boundary conditions, ipc/newton.c), the
   LCP world gives them the velocity (target - x) / h. */
#ifndef IPCC_CORE_PRESCRIBE_H
#define IPCC_CORE_PRESCRIBE_H

#include "core/model.h"
#include "core/rest.h"

/* the step's prescription (workspace, rebuilt by every step) */
typedef struct ipc_prescription {
  double *target;              /* (nverts x 3) end-of-step positions of the scripted vertices */
  unsigned char *scripted;     /* (nverts) the vertex has a target this step */
  double *qs;                  /* (naff x 12) end-of-step q of a scripted affine body */
  unsigned char *aff_scripted; /* (naff) the affine body moves by a script this step */
  /* targets set from outside for the next step (ipcc_world_set_targets): ext_set[i] when
     vertex i ends the next step at ext_target[i] (NULL until first set); next: how many */
  double *ext_target;
  unsigned char *ext_set;
  int next;
} ipc_prescription;

/* zeroed arrays for nverts vertices and naff affine bodies */
void ipc_prescription_init(ipc_prescription *p, int nverts, int naff);
void ipc_prescription_free(ipc_prescription *p);

/* the prescription of the step with index `step` starting at time t, of length h, from the
   positions x and the affine bodies' q (naff x 12): ends the scripts whose release the bodies
   passed (ipc_dirichlet_release), sets the targets of the regions active at t, the target q
   of every scripted affine body (the last active script winning) with its vertices' targets
   J_i qs, the targets of mesh sequences, then the targets set from outside (which end
   there: one step each); then moves the regions' centres on to the step's end.
   IPCC_ERR_INPUT (centres unchanged) when a mesh sequence's file is missing or does not fit. */
ipcc_status ipc_prescribe(ipc_prescription *p, ipc_model *m, const ipc_rest *r, double *center,
                          double h, double t, int step, const double *x, const double *q,
                          ipcc_error *err);

#endif
