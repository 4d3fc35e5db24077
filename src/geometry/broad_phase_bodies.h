/* the swept broad phase body by body in moving frames (broad_phase_bodies.c), behind
   ipc_broad_phase_passive */
#ifndef IPCC_GEOMETRY_BROAD_PHASE_BODIES_H
#define IPCC_GEOMETRY_BROAD_PHASE_BODIES_H

#include "geometry/broad_phase.h"

struct ipc_bodies_ws;

/* fills c (previous contents dropped, lists sorted as ipc_broad_phase_passive's) with the
   pairs of primitives of two different bodies whose boxes, swept over x0 -> x1 in the frame
   moving with the mean displacement of the pair's two bodies and inflated by inflation / 2
   plus grow, overlap: every pair that comes within `inflation` of each other along the
   step (x1 NULL: at x0, no sweep). Returns 1 when done; 0 (c untouched) when it does not
   apply: fewer than two bodies, or a body whose primitives may touch each other (a deformable body
   with body_contact "all"), which the one-tree broad phase must search. *ws is created on
   first use; free with ipc_bodies_ws_free */
int ipc_broad_phase_bodies(struct ipc_bodies_ws **ws, ipc_candidates *c, const ipc_surface *s,
                           const double *x0, const double *x1, double inflation, const double *grow,
                           const unsigned char *passive);

void ipc_bodies_ws_free(struct ipc_bodies_ws *ws);

#endif
