/* contact regions by union-find over the keys (vertices) the contacts touch. Algorithm 1 of
   Lazarevych et al. (2010) compares each contact with all later ones (O(K^2)); the
   components are the same: two contacts are in one region exactly when a chain of contacts,
   each sharing a key with the next, joins them. Here every contact is joined to the first
   contact seen on each of its keys, so the cost is O(K alpha(K) + nkeys). */
#include "lcp/regions.h"

#include "core/alloc.h"

static int find(int *parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

int ipc_lcp_regions(int ncontacts, const int *kptr, const int *keys, int nkeys, int *scratch,
                    int *region) {
  int *parent = IPC_NEW(int, 2 * (size_t)ncontacts + 1), *size = parent + ncontacts;
  int *first = scratch; /* first contact seen on each key */
  for (int k = 0; k < nkeys; ++k) first[k] = -1;
  for (int c = 0; c < ncontacts; ++c) {
    parent[c] = c;
    size[c] = 1;
  }
  for (int c = 0; c < ncontacts; ++c) {
    for (int j = kptr[c]; j < kptr[c + 1]; ++j) {
      int k = keys[j];
      if (k < 0) continue;
      if (first[k] < 0) {
        first[k] = c;
        continue;
      }
      int a = find(parent, c), b = find(parent, first[k]);
      if (a == b) continue;
      if (size[a] < size[b]) {
        int t = a;
        a = b;
        b = t;
      }
      parent[b] = a;
      size[a] += size[b];
    }
  }
  /* number the roots in the order of their first contact */
  int nreg = 0;
  for (int c = 0; c < ncontacts; ++c) size[c] = -1;
  for (int c = 0; c < ncontacts; ++c) {
    int r = find(parent, c);
    if (size[r] < 0) size[r] = nreg++;
    region[c] = size[r];
  }
  ipc_free(parent);
  return nreg;
}
