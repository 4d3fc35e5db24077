/* CCD step bound for IPC's line search; see line_search.c */
#ifndef IPCC_IPC_LINE_SEARCH_H
#define IPCC_IPC_LINE_SEARCH_H

#include "ipc/contacts.h"

/* earliest conservative time of impact t in [0, 1] over the swept candidate pairs
   (and vertex-plane pairs) for the linear motion x -> xe; 1 when nothing collides */
double ipc_ccd_max_step(const ipc_contact_model *cm, const ipc_candidates *cand, const double *x,
                        const double *xe);

/* 1 when ipc_ccd_max_step(cm, cand, x, xe) is certainly below 1 for the candidates cand of
   a broad phase of x -> xe inflated by at least near (which holds every pair closer than
   near at x): a plane vertex, or one of the mesh pairs of cs closer than near at x, has its
   time of impact below 1, found by the same call ipc_ccd_max_step makes for it, and that
   takes the earliest over all. 0 says nothing. Stops at the first such pair: a cheap
   refusal of a move that runs into a contact. */
int ipc_ccd_contacts_stop(const ipc_contact_model *cm, const ipc_contact_set *cs, const double *x,
                          const double *xe, double near);

/* the same per island: toi[i] (nisl) the earliest time of impact over the pairs (and
   vertex-plane pairs) of island i (ipc_islands_of with vert_island), for the islands with
   check[i] set (check NULL: all); pairs of no island are skipped */
void ipc_ccd_max_step_islands(const ipc_contact_model *cm, const ipc_candidates *cand,
                              const double *x, const double *xe, const int *vert_island, int nisl,
                              const unsigned char *check, double *toi);

/* the first step length of IPC's line search along x -> xe (the full Newton step), as the
   original IPC code chooses it: 0.9 of the time any vertex would reach a plane it moves
   towards; 0.8 of the time of impact of the pairs within dhat (contacts); with the CFL bound
   cfl = dhat / (2 max |xe - x| over surface vertices): on the first iteration (first) when
   that is above cfl, or later when it is above 2 cfl, 0.8 of the time of impact over all
   candidate pairs instead, not below cfl; otherwise at most cfl. Not a safe bound by itself:
   the line search still checks its trials by CCD. *pmax_surface: the largest surface vertex
   move. With ctcd, every mesh pair's bound is IPC's own instead of 0.8 of its time of impact:
   the first time the pair comes within 0.2 of its current distance (ipc_ctcd_pair_step, IPC's
   default CCD), and the full CCD also queries each candidate vertex against the face's edges
   and vertices, as IPC does, over the candidates gathered afresh into `wide` (when not NULL)
   with every pair that can come within 0.2 of its current distance along the step (cand is
   narrowed to dhat). */
double ipc_ipc_step_bound(const ipc_contact_model *cm, const ipc_contact_set *contacts,
                          const ipc_candidates *cand, ipc_candidates *wide, const double *x,
                          const double *xe, int first, int ctcd, double *pmax_surface);

/* the reach_scale of ipc_candidates_narrow_reach that keeps every pair IPC's CTCD with
   slackness slack can stop (with room for its approximate tests), and that of the scripted
   move's bound below */
double ipc_ctcd_reach(double slack);
double ipc_ctcd_script_reach(void);

/* the fraction of the scripted move x -> xe (only scripted vertices move) the original IPC
   code takes at a step's start (AnimScripter::stepAnimScript): its CTCD full CCD over the
   candidate mesh pairs with slackness 0.5 (point pairs first, then the edge pairs whose boxes
   swept up to that bound meet, as in the full CCD above), pairs whose vertices are all
   scripted left out (half-spaces are not considered, as in IPC). cand must hold every pair
   that can come within half its distance (boxes inflated by twice the largest move) */
double ipc_ipc_script_step_bound(const ipc_contact_model *cm, const ipc_candidates *cand,
                                 const double *x, const double *xe, const unsigned char *scripted);

#endif
