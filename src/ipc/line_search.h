/* CCD step bound for IPC's line search; see line_search.c */
#ifndef IPCC_IPC_LINE_SEARCH_H
#define IPCC_IPC_LINE_SEARCH_H

#include "ipc/contacts.h"

/* earliest conservative time of impact t in [0, 1] over the swept candidate pairs
   (and vertex-plane pairs) for the linear motion x -> xe; 1 when nothing collides */
double ipc_ccd_max_step(const ipc_contact_model *cm, const ipc_candidates *cand, const double *x,
                        const double *xe);

/* the same per island: toi[i] (nisl) the earliest time of impact over the pairs (and
   vertex-plane pairs) of island i (ipc_islands_of with vert_island), for the islands with
   check[i] set (check NULL: all); pairs of no island are skipped */
void ipc_ccd_max_step_islands(const ipc_contact_model *cm, const ipc_candidates *cand,
                              const double *x, const double *xe, const int *vert_island,
                              int nisl, const unsigned char *check, double *toi);

#endif
