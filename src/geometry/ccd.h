/* conservative continuous collision detection (CCD) of linearly moving primitives:
   vertex-face, edge-edge, vertex-edge, vertex-vertex; see ccd.c for the method */
#ifndef IPCC_GEOMETRY_CCD_H
#define IPCC_GEOMETRY_CCD_H

/* parameters of one CCD query; start from ipc_ccd_default_params() */
typedef struct ipc_ccd_params {
  double min_sep;   /* minimum separation distance (>= 0), same units as positions */
  double tmax;      /* search interval [0, tmax], 0 <= tmax <= 1 */
  double tolerance; /* time/parameter tolerance of the root finder (e.g. 1e-6) */
  long max_iter;    /* cap on boxes processed; when hit, return the earliest unresolved time
                       (still conservative); <= 0 means no cap */
} ipc_ccd_params;

/* min_sep 0, tmax 1, tolerance 1e-6, max_iter 1e6 */
ipc_ccd_params ipc_ccd_default_params(void);

/* Contract shared by the four queries below. Every vertex moves linearly from its position
   at t = 0 (arguments ending in 0) to its position at t = 1 (ending in 1).
   Returns 1 and sets *toi (if toi is not NULL) when the primitives may come within min_sep
   for some t in [0, tmax]; *toi is then never later than the first such time (in exact
   arithmetic on the given doubles), so every t < *toi is certified to keep the distance
   above min_sep. Returns 0 and sets *toi = tmax when they certainly stay farther apart.
   Conservative in double precision: false positives possible, false negatives not. Misses
   by less than about tolerance times the size of the primitives may count as contacts (and,
   for degenerate queries that use more than 2048 boxes, larger misses: the tolerance is then
   relaxed, so that they end early at a time still never later than the first contact). With
   min_sep > 0 the reported time may be one where the distance is still up to sqrt(3) min_sep
   (a box is accepted when each coordinate of the offset is within min_sep).
   With min_sep = 0, *toi came out 1e-11 early on average (at most 3e-8) on 20,000
   random contacts with exact reference times.
   *toi == 0 is returned only when the primitives are within min_sep at t = 0 (up to
   round-off and a parameter tolerance of tolerance * 2^-20), or when max_iter was hit
   before any later time could be certified. A line search (which takes the smallest toi of
   all candidate pairs and scales it, e.g. by 0.8) then cannot move; for such pairs call
   again with a min_sep below their current distance (IPC uses 0, or a fraction of it).
   prm may be NULL (defaults). Coordinates must be finite; inputs with a non-finite
   coordinate or one above 2^1000 in magnitude give 1 with *toi = 0.
   Thread-safe; no allocation unless more than 256 boxes are queued at once. */

/* point p against triangle (a, b, c) */
int ipc_ccd_vf(const double p0[3], const double a0[3], const double b0[3], const double c0[3],
               const double p1[3], const double a1[3], const double b1[3], const double c1[3],
               const ipc_ccd_params *prm, double *toi);

/* edge (a0, a1) against edge (b0, b1); the second digit is the time (a00 = a0 at t = 0) */
int ipc_ccd_ee(const double a00[3], const double a10[3], const double b00[3], const double b10[3],
               const double a01[3], const double a11[3], const double b01[3], const double b11[3],
               const ipc_ccd_params *prm, double *toi);

/* point p against edge (e0, e1); e00 = e0 at t = 0, e01 = e0 at t = 1 */
int ipc_ccd_ve(const double p0[3], const double e00[3], const double e10[3], const double p1[3],
               const double e01[3], const double e11[3], const ipc_ccd_params *prm, double *toi);

/* point p against point q */
int ipc_ccd_vv(const double p0[3], const double q0[3], const double p1[3], const double q1[3],
               const ipc_ccd_params *prm, double *toi);

#endif
