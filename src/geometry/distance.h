/* squared distances between surface primitives (point, edge, triangle) as used by IPC:
 * elementary squared distances, closest-feature classification, the full distance for a
 * classified type, and the edge-edge mollifier. Every function returns a squared distance (m^2)
 * and optionally its gradient and Hessian with respect to the stacked coordinates of the listed
 * points, in the order listed; g and H may be NULL. Hessians are dense, row-major and symmetric.
 * Nothing here allocates; all functions are thread-safe. */
#ifndef IPCC_GEOMETRY_DISTANCE_H
#define IPCC_GEOMETRY_DISTANCE_H

/* edges with |u x v|^2 < IPC_EE_PARALLEL_SIN2 * |u|^2 |v|^2 (sin^2 of the angle between them)
 * are classified as parallel: the closest pair is then taken among point-edge/point-point pairs.
 * Below this angle (~1.6e-8 rad) the line-line formula loses more accuracy to round-off
 * (~eps L / angle) than the point-edge fallback loses by ignoring the tilt (~angle L). Purely
 * relative, so it holds for edges of any length; current ipc-toolkit uses the same value (older
 * versions used 1e-20 * max(1, |u|^2 |v|^2), which is not scale-invariant). */
#define IPC_EE_PARALLEL_SIN2 2.5e-16

/* triangles with |(t1-t0) x (t2-t0)|^2 < IPC_PT_DEGENERATE_SIN2 * (longest edge)^4 (the squared
 * width relative to the longest edge) are treated as segments: only edge/vertex types are used */
#define IPC_PT_DEGENERATE_SIN2 2.5e-16

/* mollifier threshold factor of IPC: eps_x = IPC_EE_MOLLIFIER_SCALE |a1-a0|^2 |b1-b0|^2 at rest */
#define IPC_EE_MOLLIFIER_SCALE 1e-3

/* closest sub-simplex pair of a point and a triangle (t0, t1, t2) */
typedef enum ipc_pt_type {
  IPC_PT_P_T0, /* vertex t0 */
  IPC_PT_P_T1, /* vertex t1 */
  IPC_PT_P_T2, /* vertex t2 */
  IPC_PT_P_E0, /* edge t0-t1 */
  IPC_PT_P_E1, /* edge t1-t2 */
  IPC_PT_P_E2, /* edge t2-t0 */
  IPC_PT_P_T,  /* triangle interior (plane) */
} ipc_pt_type;

/* closest sub-simplex pair of edges a = (a0, a1) and b = (b0, b1); A/B alone is the edge */
typedef enum ipc_ee_type {
  IPC_EE_A0_B0,
  IPC_EE_A0_B1,
  IPC_EE_A1_B0,
  IPC_EE_A1_B1,
  IPC_EE_A_B0,
  IPC_EE_A_B1,
  IPC_EE_A0_B,
  IPC_EE_A1_B,
  IPC_EE_A_B, /* interior-interior (line-line) */
} ipc_ee_type;

/* closest sub-simplex of an edge (e0, e1) to a point */
typedef enum ipc_pe_type {
  IPC_PE_P_E0,
  IPC_PE_P_E1,
  IPC_PE_P_E, /* edge interior (line) */
} ipc_pe_type;

/* |p - q|^2; g[6], H[36] over [p q] (may be NULL) */
double ipc_pp_dist2(const double p[3], const double q[3], double g[6], double H[36]);

/* squared distance from p to the infinite line through e0, e1 (e0 != e1);
 * g[9], H[81] over [p e0 e1] (may be NULL) */
double ipc_pe_dist2(const double p[3], const double e0[3], const double e1[3], double g[9],
                    double H[81]);

/* squared distance from p to the plane through t0, t1, t2 (non-degenerate triangle);
 * g[12], H[144] over [p t0 t1 t2] (may be NULL) */
double ipc_pt_dist2(const double p[3], const double t0[3], const double t1[3], const double t2[3],
                    double g[12], double H[144]);

/* squared distance between the infinite lines through a0, a1 and b0, b1 (not parallel);
 * g[12], H[144] over [a0 a1 b0 b1] (may be NULL) */
double ipc_ee_dist2(const double a0[3], const double a1[3], const double b0[3], const double b1[3],
                    double g[12], double H[144]);

/* which sub-simplex of the closed triangle is closest to p; projections outside the triangle go
 * to the closest edge or vertex (exact for obtuse triangles); degenerate triangles never give
 * IPC_PT_P_T */
ipc_pt_type ipc_pt_classify(const double p[3], const double t0[3], const double t1[3],
                            const double t2[3]);

/* which sub-simplex pair of the closed segments is closest; (nearly) parallel edges, see
 * IPC_EE_PARALLEL_SIN2, and degenerate edges never give IPC_EE_A_B */
ipc_ee_type ipc_ee_classify(const double a0[3], const double a1[3], const double b0[3],
                            const double b1[3]);

/* which sub-simplex of the closed segment is closest to p; a zero-length edge gives P_E0 */
ipc_pe_type ipc_pe_classify(const double p[3], const double e0[3], const double e1[3]);

/* the original IPC code's classification (dType_PT and dType_EE in its
   CollisionObject/MeshCollisionUtils.hpp, evaluated in plain double arithmetic): the same
   closest pair as ipc_pt_classify and ipc_ee_classify wherever that pair is unique. On a tie
   (a point exactly over an edge or a corner of the triangle, an end point exactly over the
   other edge, coplanar or parallel edges) it takes the lower-dimensional feature, as IPC's
   source does: the same distance and gradient, a different Hessian. IPC scripts use it
   (ipc_newton_path). */
ipc_pt_type ipc_pt_classify_ipc(const double p[3], const double t0[3], const double t1[3],
                                const double t2[3]);
ipc_ee_type ipc_ee_classify_ipc(const double a0[3], const double a1[3], const double b0[3],
                                const double b1[3]);

/* squared distance of the given type between p and triangle (t0, t1, t2); g[12], H[144] over
 * [p t0 t1 t2] (entries of points the type does not involve are zero; may be NULL) */
double ipc_pt_distance2(const double p[3], const double t0[3], const double t1[3],
                        const double t2[3], ipc_pt_type type, double g[12], double H[144]);

/* squared distance of the given type between edges (a0, a1) and (b0, b1); g[12], H[144] over
 * [a0 a1 b0 b1] (entries of points the type does not involve are zero; may be NULL) */
double ipc_ee_distance2(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3], ipc_ee_type type, double g[12], double H[144]);

/* the points a distance type depends on, as a bit mask over the layout of the matching
 * full distance: bit k set when point k ([p t0 t1 t2], [a0 a1 b0 b1], [p e0 e1]) is used */
int ipc_pt_type_points(ipc_pt_type type);
int ipc_ee_type_points(ipc_ee_type type);
int ipc_pe_type_points(ipc_pe_type type);

/* squared distance of the given type between p and edge (e0, e1); g[9], H[81] over [p e0 e1]
 * (entries of points the type does not involve are zero; may be NULL) */
double ipc_pe_distance2(const double p[3], const double e0[3], const double e1[3], ipc_pe_type type,
                        double g[9], double H[81]);

/* mollifier threshold eps_x = 1e-3 |a1-a0|^2 |b1-b0|^2 from REST positions (m^4) */
double ipc_ee_mollifier_threshold(const double a0_rest[3], const double a1_rest[3],
                                  const double b0_rest[3], const double b1_rest[3]);

/* c = |(a1-a0) x (b1-b0)|^2 (m^4); g[12], H[144] over [a0 a1 b0 b1] (may be NULL) */
double ipc_ee_cross2(const double a0[3], const double a1[3], const double b0[3], const double b1[3],
                     double g[12], double H[144]);

/* edge-edge mollifier m(c(x)) of IPC (Li et al. 2020): (2 - c/eps_x) c/eps_x for c < eps_x,
 * else 1 (C1 at c = eps_x); dimensionless; g[12], H[144] over [a0 a1 b0 b1] (may be NULL) */
double ipc_ee_mollifier(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3], double eps_x, double g[12], double H[144]);

/* the kinds of primitive pairs, by their points in order: point-triangle [p t0 t1 t2],
 * edge-edge [a0 a1 b0 b1], point-edge [p e0 e1], point-point [p q] */
typedef enum ipc_pair_kind { IPC_PAIR_PT, IPC_PAIR_EE, IPC_PAIR_PE, IPC_PAIR_PP } ipc_pair_kind;

/* squared distance of the pair over points x (in ipc_pair_kind's order) through this file's
   closest-feature classification */
double ipc_pair_distance2(ipc_pair_kind kind, const double x[4][3]);

/* 1 when a pair certainly stays farther apart than `dist` while each of its points k moves
 * from x[k] by t d[k], t in [0, tmax], straying at most sag[0] (points of the first primitive)
 * or sag[1] (of the second) from that path; 0 when that is not certain. Exact up to the
 * margins below, for the CCD's early out and the candidate narrowing alike.
 * For any common vector c, F(t) - F(0) = t (sum of the d_k - c weighted as in F) plus the
 * strays, c dropping out because each primitive's weights sum to 1; so |F(t) - F(0)| <=
 * t D + sag[0] + sag[1] with D the largest |d_k - c| over each primitive, summed over the two,
 * and c the mean displacement: primitives carried along together have D near 0 however far
 * they move. The distance at t = 0 is this file's, through the closest-feature
 * classification: its rounding, and the feature it takes for edges within the parallel
 * threshold or a triangle below the degeneracy threshold (at most about 2e-8 times the edge
 * length, so 4e-8 M), are covered by the margin 1e-7 M, M the largest |coordinate| of the pair
 * over the motion; those of D and the distance by 1e-9 relative margins. */
int ipc_pair_stays_apart(ipc_pair_kind kind, const double x[4][3], const double d[4][3],
                         double tmax, double dist, const double sag[2], double M);

/* the same with the bound on the pair's relative motion scaled by reach_scale >= 1: 1 when the
 * pair stays farther apart than dist + (reach_scale - 1) t D all along, so that it cannot close
 * by a fraction 1 / reach_scale of its distance at 0 (the CTCD's step bounds stop a pair only
 * once it has closed by its slackness s of that distance: reach_scale 1 / s, or more) */
int ipc_pair_stays_beyond(ipc_pair_kind kind, const double x[4][3], const double d[4][3],
                          double tmax, double dist, double reach_scale, const double sag[2],
                          double M);

/* ipc_pair_stays_beyond, also giving in *lb what it found of the pair's distance at t = 0: a
 * lower bound on it up to 1e-7 M (the separation along the line through the two primitives'
 * centroids, or the larger of that and the closest-feature distance when it computed both) */
int ipc_pair_stays_beyond_lb(ipc_pair_kind kind, const double x[4][3], const double d[4][3],
                             double tmax, double dist, double reach_scale, const double sag[2],
                             double M, double *lb);

#endif
