/* contact manifolds of the LCP mode: the point contacts of one touching pair of bodies (and,
   on deformable bodies, of one patch of their surfaces) reduced to at most four points */
#ifndef IPCC_LCP_MANIFOLD_H
#define IPCC_LCP_MANIFOLD_H

#include "core/model.h"
#include "lcp/contact.h"

/* points kept per manifold */
#define IPC_LCP_MANIFOLD_POINTS 4

/* the normals of one manifold lie within this angle (cosine) of its deepest point's normal;
   the points of a pair outside it (a body touching an obstacle's floor and wall) form
   manifolds of their own */
#define IPC_LCP_MANIFOLD_COS 0.70710678118654752

/* out = the contacts of all (sorted by key) reduced to manifolds, in all's order (so sorted
   by key too; out's previous contents dropped). A manifold gathers the contacts of one pair of
   sides (body against body, obstacle or plane) whose normals lie within
   IPC_LCP_MANIFOLD_COS of its deepest one's; when a side is a deformable body (neither affine
   nor an obstacle), only those whose midpoint lies in one square cell of edge `cell` (m) of a
   grid fixed in space across the normal (its two coordinates other than the normal's
   largest: a base on the ground is tiled in x and z). Only its points within `band` (m) of
   its deepest are kept (the contact region; the farther speculative points of a curved
   surface would take the places that span it), and of a manifold whose deepest is `band` or
   more apart (speculative, not touching yet) only that one. Of more than four, it keeps the
   deepest (smallest phi; among those within `tie` (m) of it the farthest from the group's
   centre), then the farthest from it,
   then the one spanning the largest triangle with those two and the one spanning the largest
   quadrilateral, all measured in the plane normal to the deepest's normal; a point adding no
   area is not taken. x: (nverts x 3) the positions the contacts were found at. Returns the
   number of manifolds. */
size_t ipc_lcp_manifold_reduce(ipc_lcp_contact_set *out, const ipc_lcp_contact_set *all,
                               const ipc_model *m, const double *x, double cell, double band,
                               double tie);

/* the sides of contact c: *a the body of its vertices with positive weights, *b that of its
   negative ones, or -1 - plane for a vertex-plane contact */
void ipc_lcp_contact_sides(const ipc_lcp_contact *c, const ipc_model *m, int *a, int *b);

#endif
