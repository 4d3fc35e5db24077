/* exact intersection check of a whole collision surface (exact predicates on the
   pairs whose bounding boxes overlap) */
#ifndef IPCC_GEOMETRY_INTERSECT_SURFACE_H
#define IPCC_GEOMETRY_INTERSECT_SURFACE_H

#include <stddef.h>

#include "core/surface.h"
#include "geometry/intersect.h"

/* every intersecting pair of surface primitives at x (nverts x 3): edges against faces,
   codimensional segments against each other, isolated points against faces, segments and
   points. pairs whose vertices all belong to kinematic obstacles (s->vert_obstacle) are
   skipped when skip_obstacle_pairs != 0, and pairs without contact under s->body_contact
   (ipc_surface_pair_touches) always. writes up to max hits into hits (may be NULL)
   and returns the total count. */
size_t ipc_surface_intersections(const ipc_surface *s, const double *x, int skip_obstacle_pairs,
                                 ipc_intersection *hits, size_t max);

/* 1 and the first pair in *hit if any two primitives intersect (obstacle-only pairs skipped) */
int ipc_surface_first_intersection(const ipc_surface *s, const double *x, ipc_intersection *hit);

/* human-readable description of a hit, naming the primitives and their vertices */
void ipc_intersection_describe(char *out, size_t n, const ipc_surface *s,
                               const ipc_intersection *hit);

#endif
