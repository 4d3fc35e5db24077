/* bounding-volume trees over sets of boxes, the engine of ipc_box_pairs; used
   directly by the broad phase so one tree serves several pair searches */
#ifndef IPCC_GEOMETRY_BOX_TREE_H
#define IPCC_GEOMETRY_BOX_TREE_H

#include <stddef.h>

#include "geometry/broad_phase.h"

typedef struct ipc_box_tree ipc_box_tree;

/* whether the closed boxes a and b ([min xyz, max xyz]) overlap: the trees' exact test, without
   short-circuits (the six comparisons cost less than the branches they would take on boxes that
   overlap on some axes only) */
static inline int ipc_box_overlap(const double *a, const double *b) {
  return (a[0] <= b[3]) & (b[0] <= a[3]) & (a[1] <= b[4]) & (b[1] <= a[4]) & (a[2] <= b[5]) &
         (b[2] <= a[5]);
}

/* new empty tree; free with ipc_box_tree_free */
ipc_box_tree *ipc_box_tree_new(void);

/* frees t; t may be NULL */
void ipc_box_tree_free(ipc_box_tree *t);

/* rebuilds t over the boxes (n x 6, copied) with ids subset[0..nsubset)
   (subset NULL: all ids 0..n-1, nsubset ignored). passive (indexed by id, may be NULL): pairs of
   two passive boxes are never reported. group (indexed by id, may be NULL): pairs of two boxes
   of one group >= 0 are never reported either, and whole subtrees of one group are skipped
   (the broad phase groups the primitives of each rigid-shaped body). ws provides scratch. */
void ipc_box_tree_build(ipc_box_tree *t, ipc_box_ws *ws, const double *boxes, int n,
                        const int *subset, int nsubset, const unsigned char *passive,
                        const int *group);

/* the tree t over new boxes (same n and ids, e.g. the same primitives moved): keeps the
   order and split of the last build and recomputes every bound, so it serves the same pair
   searches with the same results, only its balance may be worse than a fresh build's */
void ipc_box_tree_refit(ipc_box_tree *t, const double *boxes);

/* appends the overlapping pairs (i in a, j in b), or (i < j) within a when
   b == NULL or b == a, to *pairs sorted by (i, j); filter as in ipc_box_pairs */
void ipc_box_tree_pairs(ipc_box_ws *ws, int **pairs, size_t *npairs, size_t *cap,
                        const ipc_box_tree *a, const ipc_box_tree *b, ipc_pair_filter filter,
                        void *ctx);

#endif
