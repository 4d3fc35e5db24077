/* containment check: a body wholly inside another's volume touches no face of it, so the exact
   crossing test (intersect_surface.h) passes it; its volume still overlaps the other's */
#ifndef IPCC_GEOMETRY_CONTAINMENT_H
#define IPCC_GEOMETRY_CONTAINMENT_H

#include "core/surface.h"

/* the winding number of the closed (or not) triangle set faces[0..nf) (global vertex ids into
   x) around p: 1 inside an outward-oriented closed surface, 0 outside, -1 inside an inward one;
   the sum of the triangles' signed solid angles over 4 pi (Van Oosterom and Strackee) */
double ipc_winding_number(const double *x, const int *faces, int nf, const double p[3]);

/* for a surface whose primitives do not cross (check that first): 1 when a vertex of one
   body lies inside the volume of another that it may touch (ipc_surface_pair_touches; pairs
   of kinematic obstacles skipped), with the two bodies (ids of s->vert_body) in *inner and
   *outer; 0 otherwise. Only closed surfaces (every edge on two faces) hold a volume: a body in
   an open bucket is not contained, nor one inside another's hole (winding number 0). One
   vertex per body decides (surfaces that do not cross are wholly inside or wholly outside);
   only pairs whose bounding boxes nest are tested. s->vert_body NULL: 0. */
int ipc_surface_first_containment(const ipc_surface *s, const double *x, int *inner, int *outer);

#endif
