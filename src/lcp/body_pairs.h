/* the broad phase of the LCP contacts by pairs of bodies: each pair's primitives are paired
   within the distance its own relative motion can close, not the fastest body's */
#ifndef IPCC_LCP_BODY_PAIRS_H
#define IPCC_LCP_BODY_PAIRS_H

#include "core/model.h"
#include "geometry/broad_phase.h"

/* the bodies' primitives (fixed by the model) and per-step scratch; zero-initialise */
typedef struct ipc_lcp_body_pairs {
  int nb;
  int *vptr, *vlist;   /* (nb + 1), the surface vertices of each body */
  int *fptr, *flist;   /* (nb + 1), its faces */
  int *eptr, *elist;   /* (nb + 1), its edges */
  unsigned char *self; /* (nb) two primitives of the body may touch (ipc_surface_pair_touches) */
  double *bbox;        /* (nb x 6) the body's box at x */
  double *vbar;        /* (nb x 3) mean velocity of its vertices */
  double *vbox;        /* (nverts x 6) a vertex's box at x grown by 2h |v_i - vbar| */
  double *fbox, *ebox; /* (nfaces x 6), (nedges x 6) unions of their vertices' boxes */
  double *a, *b;       /* scratch boxes */
  int *ia, *ib;        /* their primitive ids */
  size_t cap_a, cap_b;
  int *pairs, *bpairs;
  size_t npairs, cap_pairs, nbpairs, cap_bpairs;
  ipc_box_ws *ws;
} ipc_lcp_body_pairs;

/* sets bp up for the model's surface; 0 when it cannot serve it (isolated points or
   codimensional edges: the general broad phase pairs those) */
int ipc_lcp_body_pairs_init(ipc_lcp_body_pairs *bp, const ipc_model *m);

void ipc_lcp_body_pairs_free(ipc_lcp_body_pairs *bp);

/* c (previous contents dropped; its vf and ee lists only, not sorted) = the vertex-face and
   edge-edge pairs whose distance at x may be below gap + 2h (s + 2h accel), s the speed under
   v of a vertex of one primitive relative to one of the other: every pair
   ipc_lcp_contacts_collect keeps with cross_reach is among them. Pairs that share a vertex,
   that body_contact keeps apart, or whose vertices are all obstacle vertices are left out, as
   the general broad phase does. */
void ipc_lcp_body_pairs_run(ipc_lcp_body_pairs *bp, ipc_candidates *c, const ipc_model *m,
                            const double *x, const double *v, double gap, double h, double accel);

#endif
