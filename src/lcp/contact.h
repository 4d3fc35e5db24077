/* contact points of the LCP mode: from the shared broad phase and distance code, each
   pair within the contact gap becomes a point contact with a normal, a tangent basis,
   weights on up to four vertices and a signed gap */
#ifndef IPCC_LCP_CONTACT_H
#define IPCC_LCP_CONTACT_H

#include "core/model.h"
#include "geometry/broad_phase.h"

/* one contact: the relative velocity sum_k w[k] v[vert[k]] has normal part n . v_rel = d phi/dt
   (phi grows as the two sides separate) */
typedef struct ipc_lcp_contact {
  int nv;       /* vertices with a nonzero weight (1..4) */
  int vert[4];  /* global vertex ids; -1 beyond nv */
  double w[4];  /* weights: + on the side the normal points to, - on the other */
  double n[3];  /* unit normal */
  double t1[3]; /* tangent basis, t1 x t2 = n (ipc_lcp_tangents) */
  double t2[3];
  double phi;                /* signed gap (m), negative when penetrating */
  double mu;                 /* friction coefficient of the pair */
  unsigned long long key[3]; /* identity across steps (kind, sorted vertex ids, plane) */
  int unsigned_gap;          /* phi from |distance| (edge-edge, vertex-edge/vertex, obstacle) */
  int face_body;             /* vertex against a deformable body's feature: that body, else -1 */
} ipc_lcp_contact;

/* -1, 0, 1 as contact key a orders before, equal to, after b (the order contact sets are
   sorted in) */
static inline int ipc_lcp_key_cmp(const unsigned long long a[3], const unsigned long long b[3]) {
  for (int k = 0; k < 3; ++k)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

typedef struct ipc_lcp_contact_set {
  ipc_lcp_contact *c;
  size_t n, cap;
} ipc_lcp_contact_set;

/* the tangent basis of normal n: t1 = normalize(n x e), e the coordinate axis least aligned
   with n (the first of them on ties), t2 = n x t1 */
void ipc_lcp_tangents(const double n[3], double t1[3], double t2[3]);

/* the contacts among cand and the vertex-plane pairs at x with gap phi < gap + the distance
   the pair may close in a step of h (2h (largest relative speed of its vertices under v +
   2h accel); 0 when v is NULL; a plane is at rest), sorted by key,
   duplicates (same vertices) dropped. Pairs inside one body are skipped unless the scene
   allows self-collision. Unsigned contacts (edge-edge, vertex-edge/vertex) take the side of
   the contact with the same key in prev (may be NULL; sorted by key): when the normal has
   turned against it, the pair has crossed, the normal is flipped and phi made negative.
   Of a vertex's contacts with one body's features, negative gaps other than the nearest
   feature's are dropped, and all of them when the vertex is in front of one of the body's
   faces near it (outside). A vertex deeper than gap behind a face is taken to be across
   the body (no contact with that face). cross_reach: the speeds are those of one side's
   vertices against the other's (not of two vertices of one side: a spinning face).
   Returns the smallest phi kept (INFINITY when none). */
double ipc_lcp_contacts_collect(ipc_lcp_contact_set *out, const ipc_model *m,
                                const ipc_candidates *cand, const double *x, double gap,
                                const double *v, double h, double accel,
                                const ipc_lcp_contact_set *prev, int cross_reach);

void ipc_lcp_contact_set_free(ipc_lcp_contact_set *cs);

/* the plane of a vertex-plane contact, -1 for the other kinds */
int ipc_lcp_contact_plane(const ipc_lcp_contact *c);

#endif
