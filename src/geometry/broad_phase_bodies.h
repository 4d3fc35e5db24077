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
   step (x1 NULL: at x0, no sweep); with narrow_dist >= 0 only those of them that
   ipc_candidates_narrow(c, s, x0, x1, narrow_dist, grow) keeps, judged as they are found
   (so that the pairs of boxes that meet, most of them farther apart, are never listed nor
   sorted). Returns 1 when done; 0 (c untouched) when it does not
   apply: fewer than two bodies, or a body whose primitives may touch each other (a deformable body
   with body_contact "all"), which the one-tree broad phase must search. *ws is created on
   first use; free with ipc_bodies_ws_free */
int ipc_broad_phase_bodies(struct ipc_bodies_ws **ws, ipc_candidates *c, const ipc_surface *s,
                           const double *x0, const double *x1, double inflation, const double *grow,
                           const unsigned char *passive, double narrow_dist);

/* ipc_candidates_narrow's verdict (broad_phase.c) on one pair as list `list` of the
   candidates holds it (0 vf, 1 ee, 2 ve, 3 vv): 1 when it stays farther apart than dist all
   along x0 -> x1, its vertices straying by at most grow (may be NULL) from their paths */
int ipc_pair_narrowed_out(const ipc_surface *s, int list, const int pair[2], const double *x0,
                          const double *x1, const double *grow, double dist);

void ipc_bodies_ws_free(struct ipc_bodies_ws *ws);

#endif
