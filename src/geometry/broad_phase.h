/* broad phase: candidate primitive pairs of the collision surface whose
   (swept, inflated) bounding boxes overlap, and the generic box-pair search
   beneath it (box_pairs.c). */
#ifndef IPCC_GEOMETRY_BROAD_PHASE_H
#define IPCC_GEOMETRY_BROAD_PHASE_H

#include <stddef.h>

#include "core/surface.h"

struct ipc_broad_phase_ws;

/* candidate pairs, each list sorted lexicographically by (first, second).
   zero-initialise before first use; arrays and scratch are kept between calls. */
typedef struct ipc_candidates {
  int *vf; /* (nvf x 2) vertex id, face id */
  size_t nvf, cap_vf;
  int *ee; /* (nee x 2) edge id a < edge id b */
  size_t nee, cap_ee;
  int *ve; /* (nve x 2) vertex id, edge id: only where the vertex is an isolated
              point or the edge is codimensional (edge_codim) */
  size_t nve, cap_ve;
  int *vv; /* (nvv x 2) vertex ids a < b: isolated points only */
  size_t nvv, cap_vv;
  struct ipc_broad_phase_ws *ws; /* scratch owned by the candidates (opaque) */
  /* set by the caller: the next broad phase may refit the trees of the last one instead of
     building them afresh when the surface and the passive set are the same (the pairs found
     are the same; a refit is cheaper, its trees less balanced once things have moved far).
     Cleared by every broad phase */
  int refit;
} ipc_candidates;

/* fills c (previous contents dropped) with every pair of surface primitives
   whose boxes overlap. the box of a primitive is, per axis, [min - inflation/2,
   max + inflation/2] with min/max over its vertices at x0, and also at x1 when
   x1 != NULL (linear motion x0 -> x1); two closed boxes overlap when
   lo_a <= hi_b and lo_b <= hi_a on all three axes. so every pair whose distance
   (at some time of the motion) is at most `inflation` (a distance, >= 0) is
   reported. pairs sharing a vertex, pairs whose vertices are all
   kinematic-obstacle vertices (s->vert_obstacle), and pairs that s->body_contact
   keeps apart (ipc_surface_pair_touches) are left out. x0, x1 are
   (s->nverts x 3), finite (a NaN may drop pairs). no allocation once warm. */
void ipc_broad_phase(ipc_candidates *c, const ipc_surface *s, const double *x0, const double *x1,
                     double inflation);

/* the same with every vertex box v grown by grow[v] >= 0 more on each side (grow may be
   NULL: for motions that may stray from the segment x0 -> x1 by up to grow[v], the curved
   line-search trials of affine bodies) and the vertices flagged in passive (nverts, may be
   NULL) taking the place of the obstacle vertices: pairs whose vertices are all passive are left
   out. passive must flag every kinematic-obstacle vertex too (the Newton solve adds the bodies it
   has frozen, which do not move along the step) */
void ipc_broad_phase_passive(ipc_candidates *c, const ipc_surface *s, const double *x0,
                             const double *x1, double inflation, const double *grow,
                             const unsigned char *passive);

/* the same pairs for motions whose step lengths differ between bodies (each body or island
   its own alpha along x0 -> x1): every box is swept in world coordinates over its vertices'
   whole paths, so any two primitives that can meet at any pair of step lengths are listed.
   ipc_broad_phase_passive may search the pairs of two bodies in their common moving frame
   (broad_phase_bodies.c), which holds only for one step length shared by both: two bodies
   carried along together are left out. The island line search does not call this (its long
   boxes are slow for a carried stream): it pairs bodies by ipc_broad_phase_body_pairs, whose
   pairs hold the bodies of every pair listed here (test_islands), and takes the frame
   search's pairs within an island */
void ipc_broad_phase_independent(ipc_candidates *c, const ipc_surface *s, const double *x0,
                                 const double *x1, double inflation, const double *grow,
                                 const unsigned char *passive);

/* the pairs of bodies (by s->vert_body; a < b) that may come within `inflation` of each other
   at any two step lengths along x0 -> x1 (x1 may be NULL: at rest): boxes over each body's
   surface vertices at x0 and x1, each vertex grown by grow[v] (grow may be NULL) and half the
   inflation, in world coordinates, so two bodies never listed stay farther apart than
   `inflation` whatever step each takes (the island line search's coupling: within an island one
   step length holds, and ipc_broad_phase_narrowed's pairs serve it). Pairs of two bodies whose
   surface vertices are all passive (may be NULL) are left out. Into *pairs (2 ints a pair,
   grown with ipc_reserve, *cap in pairs), sorted; returns their number. Scratch kept in c */
size_t ipc_broad_phase_body_pairs(ipc_candidates *c, const ipc_surface *s, const double *x0,
                                  const double *x1, double inflation, const double *grow,
                                  const unsigned char *passive, int **pairs, size_t *cap);

/* drops from c the pairs that stay farther apart than `dist` all along the step x0 -> x1 when
   every vertex moves with one parameter t in [0, 1] (one step length for all, as IPC's
   line search takes), each vertex straying at most grow[v] from its straight path (grow may
   be NULL: 0; the curved trials of affine bodies). A pair stays apart when its distance at x0
   exceeds dist + D + (largest grow of each primitive) with D the bound on its relative
   motion of ccd.c's early out (displacements taken relative to the pair's mean, so pairs
   carried along together keep tight bounds however far they move), with the margins of that
   early out for rounding. The kept pairs keep their order; the barrier, the contact set and
   the CCD over the step see exactly the pairs that matter to them. Not valid when parts of
   the surface may take different step lengths (a line search per contact island).
   x0, x1 (s->nverts x 3) finite. */
void ipc_candidates_narrow(ipc_candidates *c, const ipc_surface *s, const double *x0,
                           const double *x1, double dist, const double *grow);

/* for IPC's CTCD step bounds: drops the edge-edge pairs that stay farther apart than
   dist + (reach_scale - 1) D along the step, D the bound on the pair's relative motion above
   (ipc_pair_stays_beyond), and keeps every other pair. The CTCD with slackness s stops a pair
   only once it is within about (1 - s) of its distance at x0, so it has closed by s of it:
   reach_scale 1 / s, or more for room (ipc_ctcd_reach). Its point-face test is not held to
   the distance (its prism walls turn with a stand-in normal, so a point near a turning face's
   plane but far outside the face can stop the step): those pairs all stay */
void ipc_candidates_narrow_reach(ipc_candidates *c, const ipc_surface *s, const double *x0,
                                 const double *x1, double dist, double reach_scale,
                                 const double *grow);

/* ipc_broad_phase_passive(c, s, x0, x1, inflation, grow, passive), then
   ipc_candidates_narrow(c, s, x0, x1, dist, grow): the same lists, bit for bit, in less time
   over the calls of a Newton solve. With the one-tree broad phase, c keeps a superset: the
   pairs of boxes grown beyond the swept ones (by half each vertex's step plus twice the box's
   own margin, half the inflation and the sag), taken while every vertex's swept box stays inside
   its grown one, and searched again otherwise; and the narrowing keeps, for the superset's pairs,
   lower bounds on their distances carried from call to call by how far their vertices have moved
   since, so that a pair far enough apart is dropped without its distance
   (ipc_broad_phase_get_cache_stats). Over MPI ranks the superset's search and the narrowing are
   split among them */
void ipc_broad_phase_narrowed(ipc_candidates *c, const ipc_surface *s, const double *x0,
                              const double *x1, double inflation, const double *grow,
                              const unsigned char *passive, double dist);

/* what ipc_broad_phase_narrowed's superset of pairs did (one-tree broad phase only): calls,
   how many of them searched the trees for a new superset, and over the calls the pairs of
   the superset tested against the step's boxes, the pairs found, and of those the pairs the
   narrowing dropped by what it knew of them from earlier calls (one process only) */
typedef struct ipc_broad_phase_cache_stats {
  size_t calls, rebuilds, superset_pairs, pairs, key_drops;
  /* body-by-body: the bodies found still (unmoved since an earlier call); with
     IPCC_BODIES_STILL_CHECK=1, what they kept that computing it anew did not give */
  size_t still, still_bad;
} ipc_broad_phase_cache_stats;

/* c's counts since it was made (zeros before its first broad phase) */
void ipc_broad_phase_get_cache_stats(const ipc_candidates *c, ipc_broad_phase_cache_stats *st);

/* sets all counts to zero, keeping memory */
void ipc_candidates_clear(ipc_candidates *c);

/* frees arrays and scratch and zeroes c; c may be NULL */
void ipc_candidates_free(ipc_candidates *c);

/* returns nonzero to keep the overlapping pair (i, j) */
typedef int (*ipc_pair_filter)(int i, int j, void *ctx);

/* reusable scratch of the box-pair search (opaque) */
typedef struct ipc_box_ws ipc_box_ws;

/* new empty scratch; free with ipc_box_ws_free */
ipc_box_ws *ipc_box_ws_new(void);

/* frees ws; ws may be NULL */
void ipc_box_ws_free(ipc_box_ws *ws);

/* all pairs (i, j) of overlapping closed axis-aligned boxes, i indexing a
   (na x 6, [minx miny minz maxx maxy maxz]) and j indexing b (nb x 6). b == NULL
   means pairs within a, with i < j (nb ignored). filter (may be NULL) is called
   once for each overlapping pair, in no particular order, and returns nonzero to
   keep it. the kept pairs are appended to *pairs ((*npairs x 2), grown with
   ipc_reserve, *cap its capacity in pairs), sorted by (i, j). a box with a NaN
   coordinate overlaps nothing. scratch is allocated and freed inside. */
void ipc_box_pairs(int **pairs, size_t *npairs, size_t *cap, const double *a, int na,
                   const double *b, int nb, ipc_pair_filter filter, void *ctx);

/* ipc_box_pairs with scratch kept in ws (no allocation once warm) */
void ipc_box_pairs_ws(ipc_box_ws *ws, int **pairs, size_t *npairs, size_t *cap, const double *a,
                      int na, const double *b, int nb, ipc_pair_filter filter, void *ctx);

#endif
