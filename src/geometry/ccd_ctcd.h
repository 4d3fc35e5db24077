/* distance-threshold CCD with the semantics of the original IPC code's default CCD (its
   "floating point root finder", E. Vouga's CTCD routines), and IPC's per-pair line-search step
   bound built on it. See ccd_ctcd.c for the conditions and the root finder.

   What IPC (ipc-sim/IPC) does with it, as read from its source:

   Step bound of one pair (the same in all four call sites below). For the pair's current
   distance d0 (the closest-feature distance: computePointTriD, computeEdgeEdgeD,
   computePointEdgeD, |p - q|, in CollisionObject/MeshCollisionUtils.hpp) and slackness s = 0.8
   (Optimizer.cpp, slackness_m), query with eta = (1 - s) d0 over the full search direction
   (t in [0, 1]). No hit: 1. Hit at t >= 1e-6: t (no slackness factor; eta is the margin).
   Hit at t < 1e-6: query again with eta = 0; no hit: 1; hit at t: s t, except that at some
   sites (below) a retry hit at exactly t = 0 counts as t = 1 ("numerically parallel edge-edge"),
   giving s. The line search's first step is the minimum over pairs (and other bounds).

   Sites and pairs (x_sim moves by the search direction; a kinematic obstacle, MeshCO, stays):
   - SelfCollisionHandler::largestFeasibleStepSize (partial CCD): the point-triangle and
     edge-edge pairs of the CCD constraint set (pairs whose distance is below dHat, collected by
     computeConstraintSet). Zero-retry rule: edge-edge yes, point-triangle no.
   - SelfCollisionHandler::largestFeasibleStepSize_CCD (full CCD, spatial-hash candidates):
     point-point (surface vertex pairs), point-edge, point-triangle, edge-edge, skipping pairs
     that share a vertex, pairs where both sides belong to codimensional (non-volumetric)
     components, and pairs whose vertices are all Dirichlet. Zero-retry rule: none.
   - MeshCO::largestFeasibleStepSize (partial): obstacle vertex vs simulated triangle,
     simulated vertex vs obstacle triangle, simulated edge vs obstacle edge, from the constraint
     set. Zero-retry rule: edge-edge only.
   - MeshCO::largestFeasibleStepSize_CCD (full): simulated vertex vs obstacle triangle,
     obstacle vertex vs simulated triangle, obstacle vertex vs simulated vertex, obstacle vertex
     vs simulated edge, simulated edge vs obstacle edge, simulated vertex vs obstacle edge.
     Zero-retry rule: edge-edge and simulated-vertex-vs-obstacle-edge.
   Optimizer.cpp (CFL_FOR_CCD == 2): the partial CCD runs every Newton iteration; with
   alpha_CFL = sqrt(dHat) / (2 max_i |p_i|) (dHat squared, p_i the search direction of surface
   vertex i), when (first iteration and alpha > alpha_CFL) or alpha > 2 alpha_CFL the full CCD
   runs too and alpha = max(its result, alpha_CFL); otherwise alpha = min(alpha, alpha_CFL). */
#ifndef IPCC_GEOMETRY_CCD_CTCD_H
#define IPCC_GEOMETRY_CCD_CTCD_H

#include "geometry/distance.h"

/* IPC's retry threshold: first-query times below it are recomputed with eta = 0 */
#define IPC_CTCD_TINY_STEP 1e-6

/* Shared contract of the four queries: every point moves linearly from its position at t = 0
   (arguments ending in 0) to its position at t = 1 (ending in 1). Returns 1 and sets *t to the
   earliest time in [0, 1] at which all of the query's polynomial conditions hold (see
   ccd_ctcd.c; with eta > 0 roughly "within distance eta"), else 0 and leaves *t alone.
   eta >= 0 (m). For eta > 0 the times agree with the reference CTCD to ~1e-12 (20,000 random
   queries per kind). With eta = 0 the distance conditions are squares with double roots at
   contact, which the reference's sign tests catch only by rounding luck (it misses about 40%
   of vertex-face and edge-edge contacts); here vertex-face and edge-edge use the zeros of the
   triple product directly and the others accept a touch within rounding, so eta = 0 gives the
   contact time (vertex-edge to about sqrt(eps)). Thread-safe, no allocation. */

/* point p against triangle (a, b, c) */
int ipc_ctcd_vf(const double p0[3], const double a0[3], const double b0[3], const double c0[3],
                const double p1[3], const double a1[3], const double b1[3], const double c1[3],
                double eta, double *t);

/* edge (a0, a1) against edge (b0, b1); the second digit is the time (a00 = a0 at t = 0) */
int ipc_ctcd_ee(const double a00[3], const double a10[3], const double b00[3], const double b10[3],
                const double a01[3], const double a11[3], const double b01[3], const double b11[3],
                double eta, double *t);

/* point p against edge (e0, e1); e00 = e0 at t = 0, e01 = e0 at t = 1 */
int ipc_ctcd_ve(const double p0[3], const double e00[3], const double e10[3], const double p1[3],
                const double e01[3], const double e11[3], double eta, double *t);

/* point p against point q */
int ipc_ctcd_vv(const double p0[3], const double q0[3], const double p1[3], const double q1[3],
                double eta, double *t);

/* one query of the given kind on points x[k] (t = 0) moving to x[k] + d[k] (t = 1), points in
   the order of ipc_pair_kind ([p t0 t1 t2], [a0 a1 b0 b1], [p e0 e1], [p q]) */
int ipc_ctcd_pair(ipc_pair_kind kind, const double x[4][3], const double d[4][3], double eta,
                  double *t);

/* IPC's d0 of a pair (m): the distance to the closest feature (vertex, edge or face) */
double ipc_ctcd_pair_distance(ipc_pair_kind kind, const double x[4][3]);

/* the call sites of IPC's step bound (see the top of this file) */
typedef enum ipc_ctcd_site {
  IPC_CTCD_SELF_PARTIAL,
  IPC_CTCD_SELF_FULL,
  IPC_CTCD_OBSTACLE_PARTIAL,
  IPC_CTCD_OBSTACLE_FULL,
} ipc_ctcd_site;

/* 1 when IPC turns a retry hit at t = 0 into t = 1 at this site for this kind; for a point-edge
   pair of IPC_CTCD_OBSTACLE_FULL, edge_on_obstacle tells whether the edge is the obstacle's */
int ipc_ctcd_zero_retry_is_one(ipc_ctcd_site site, ipc_pair_kind kind, int edge_on_obstacle);

/* IPC's step bound in (0, 1] (or 0) for one pair moving from x[k] to x[k] + d[k]: d0 the
   pair's current distance (ipc_ctcd_pair_distance), slackness s in (0, 1) (IPC: 0.8), the
   zero-retry rule from ipc_ctcd_zero_retry_is_one */
double ipc_ctcd_pair_step(ipc_pair_kind kind, const double x[4][3], const double d[4][3], double d0,
                          double slackness, int zero_retry_is_one);

#endif
