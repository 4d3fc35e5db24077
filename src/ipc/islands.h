/* contact islands of one Newton iteration's line search (newton.c): the bodies that move
   along the step, grouped so that no energy term couples two groups anywhere on the step.
   Bodies are joined by every swept candidate pair (boxes of the whole step, inflated by
   dhat, so no pair of two groups comes within dhat at any step sizes of the two) and every
   lagged friction pair between their moving vertices; a vertex that does not move along
   the step (a fixed or obstacle vertex, a scripted affine body's) joins nothing. The
   incremental potential is then a sum over islands plus a constant, and each island can
   take its own step size: a body far from the pair that limits the step no longer waits
   for it. */
#ifndef IPCC_IPC_ISLANDS_H
#define IPCC_IPC_ISLANDS_H

#include "core/model.h"
#include "geometry/broad_phase.h"
#include "ipc/friction.h"

typedef struct ipc_islands {
  int n;     /* islands */
  int *vert; /* (nverts) island of a vertex that moves along the step, -1 for the others */
  int *body; /* (nbodies) island of a body with a moving vertex, -1 for the others */
  int *uf;   /* (nbodies) union-find scratch */
  int nverts, nbodies;
} ipc_islands;

/* groups the bodies of m whose vertices move (moving: nverts flags) as the header says, joined
   also by the pairs of bodies body_pairs[2k], body_pairs[2k + 1] (k < npairs; may be NULL)
   where both move; single: one island holding every moving body (one line search for all).
   Islands are numbered in the order of their lowest body. `is` zero-initialised before the
   first call; memory is kept between calls */
void ipc_islands_build(ipc_islands *is, const ipc_model *m, const unsigned char *moving,
                       const ipc_candidates *cand, const ipc_friction *fric, const int *body_pairs,
                       size_t npairs, int single);

void ipc_islands_free(ipc_islands *is);

/* calls fn on the vertices of every term the islands are built from: each candidate pair
   (vf, ee, ve, vv) and each lagged friction pair (fric may be NULL) */
void ipc_islands_terms(const ipc_model *m, const ipc_candidates *cand, const ipc_friction *fric,
                       void (*fn)(const int *v, int nv, void *ctx), void *ctx);

/* the island of a term over vertices v[0..nv): that of its first moving vertex, or `none`
   when none moves (the term is a constant of the line search) */
static inline int ipc_islands_of(const int *vert_island, const int *v, int nv, int none) {
  for (int k = 0; k < nv; ++k)
    if (vert_island[v[k]] >= 0) return vert_island[v[k]];
  return none;
}

#endif
