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

/* (broad_phase_superset.c) ipc_broad_phase_bodies with narrow_dist >= 0, the same lists bit
   for bit, in less time over the calls of a Newton solve: once most body pairs are calm, the
   pairs of calm bodies are searched with every vertex box grown by a margin of its body (its
   relative motion), kept while each body's moves since then stay within those margins up to a
   common translation of each pair of bodies, and each call tests the superset's pairs with the
   search's own box tests (chunks, groups and primitive boxes in the pair's frame, replayed on
   the same doubles) and its narrowing, whose lower bounds on the pairs' distances are carried
   from call to call by how far their vertices have moved relative to their bodies and their
   bodies relative to each other; the other body pairs are searched. Counts go to *st. Over MPI
   ranks, or with IPCC_BODIES_SUPERSET=0 in the environment, it is ipc_broad_phase_bodies */
int ipc_broad_phase_bodies_narrowed(struct ipc_bodies_ws **ws, ipc_candidates *c,
                                    const ipc_surface *s, const double *x0, const double *x1,
                                    double inflation, const double *grow,
                                    const unsigned char *passive, double narrow_dist,
                                    ipc_broad_phase_cache_stats *st);

/* ipc_pair_narrowed_out's verdict on a pair of list `list` given by its vertices v
   (ipc_pair_list_vertices), also giving in *lb (may be NULL) what the narrowing found of the
   pair's distance at x0 (ipc_pair_stays_beyond_lb) */
int ipc_pair_apart_lb(int list, const int v[4], const double *x0, const double *x1,
                      const double *grow, double dist, double *lb);

/* 1 when a pair of list `list` over vertices v (ipc_pair_list_vertices) whose distance at x0
   is at least far is one ipc_pair_narrowed_out(dist) surely drops (the narrowing's key test;
   step: each vertex's |x1 - x0| rounded up) */
int ipc_pair_far_beyond(double far, int list, const int v[4], const double *x0, const double *x1,
                        const double *grow, const double *step, double dist);

/* the vertices of a pair of list `list` in ipc_pair_kind's order; returns their count (the
   first primitive has 2 of them for ee, 1 otherwise) */
int ipc_pair_list_vertices(const ipc_surface *s, int list, const int pair[2], int v[4]);

void ipc_bodies_ws_free(struct ipc_bodies_ws *ws);

#endif
