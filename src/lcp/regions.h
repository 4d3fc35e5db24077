/* independent contact regions (Lazarevych et al. 2010, Sec. 3, Algorithm 1): contacts that
   share a simulated (non-fixed) vertex belong to one region, so regions share no unknown
   velocity and their LCPs can be solved separately */
#ifndef IPCC_LCP_REGIONS_H
#define IPCC_LCP_REGIONS_H

/* regions of ncontacts contacts; contact c touches the keys keys[kptr[c] .. kptr[c+1]-1]
   (vertex ids, or any other ids in [0, nkeys); a negative key links nothing, e.g. a fixed
   vertex). Writes region[c] (regions numbered 0.. in the order of their first contact) and
   returns the number of regions. Union-find with path halving and union by size: near-linear.
   scratch: (nkeys) ints, contents overwritten. */
int ipc_lcp_regions(int ncontacts, const int *kptr, const int *keys, int nkeys, int *scratch,
                    int *region);

#endif
