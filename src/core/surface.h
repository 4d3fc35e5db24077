/* the global collision surface: faces, edges and vertices of every body and
   obstacle, indexing the one global vertex array */
#ifndef IPCC_CORE_SURFACE_H
#define IPCC_CORE_SURFACE_H

#include "ipcc/error.h"
#include "ipcc/scene.h"

typedef struct ipc_surface {
  int nverts; /* length of the global vertex array */
  int nfaces;
  int *faces; /* (nfaces x 3) outward counter-clockwise */
  int nedges;
  int *edges; /* (nedges x 2) unique, edges[2e] < edges[2e+1]; face edges and segments */
  int nsv;
  int *sv; /* (nsv) ascending: vertices that lie on a face or edge, or are isolated points */
  int *face_edges;              /* (nfaces x 3) edge of face f between corners k and k+1 (mod 3) */
  unsigned char *edge_codim;    /* (nedges) 1 when the edge lies on no face */
  unsigned char *vert_point;    /* (nverts) 1 when the vertex is an isolated point (on no edge) */
  int *vert_body;               /* (nverts) id of the body or obstacle owning the vertex */
  unsigned char *vert_obstacle; /* (nverts) 1 for kinematic obstacle vertices */
  ipcc_body_contact body_contact; /* which pairs touch; ALL after ipc_surface_build */
  /* (nverts) 1 for the vertices of rigid-shaped (affine) bodies, or NULL: two primitives of
     one such body never touch. x = A xbar + p with det A > 0 is one-to-one, so its surface
     cannot cross itself when its rest shape does not, and its own distances barely change:
     no barrier, CCD or check is needed between them (the world checks the rest shape and
     det A instead). Set by the model build, freed with the surface */
  unsigned char *vert_rigid;
  /* a number unique to this surface among those ipc_surface_build made in this process
     (never 0), for caches of what depends on the surface only (the broad phase's lists by
     body); 0 on surfaces assembled by hand, which such caches must hash instead */
  unsigned long long serial;
} ipc_surface;

/* 1 when the primitive holding vertex a may touch the one holding vertex b under
   s->body_contact (each primitive lies in one body, so one vertex of each decides) */
static inline int ipc_surface_pair_touches(const ipc_surface *s, int a, int b) {
  if (s->vert_rigid && s->vert_rigid[a] && s->vert_body[a] == s->vert_body[b]) return 0;
  switch (s->body_contact) {
    case IPCC_BODY_CONTACT_BETWEEN_BODIES:
      return s->vert_body[a] != s->vert_body[b];
    case IPCC_BODY_CONTACT_OBSTACLES_ONLY:
      return s->vert_obstacle[a] || s->vert_obstacle[b];
    default:
      return 1;
  }
}

/* builds s from triangles, segments and isolated points over nverts vertices;
   vert_body / vert_obstacle may be NULL (all 0). arrays are copied. */
ipcc_status ipc_surface_build(ipc_surface *s, int nverts, const int *faces, int nfaces,
                              const int *segs, int nsegs, const int *points, int npoints,
                              const int *vert_body, const unsigned char *vert_obstacle,
                              ipcc_error *err);

/* boundary triangles of a tet mesh, oriented outward (the tets must be positively
   oriented): the faces that belong to exactly one tet, in the order of their tets (tet, then
   the face opposite corner 0, 1, 2, 3). *tris allocated with ipc_malloc. returns the triangle
   count, or -1 when a face is shared by three or more tets (non-manifold) and -2 when two tets
   sharing a face lie on the same side of it (overlap); then *tris is NULL. O(n log n). */
int ipc_tets_boundary(const int *tets, int ntets, int nverts, int **tris);

/* as ipc_tets_boundary; on failure bad (may be NULL) gets two of the offending tets, bad[0]
   before bad[1] in the input order */
int ipc_tets_boundary_checked(const int *tets, int ntets, int nverts, int **tris, int bad[2]);

/* signed volume of tet t (4 vertex ids) in x (n x 3): positive when (t1-t0, t2-t0, t3-t0)
   is right-handed */
double ipc_tet_volume(const double *x, const int t[4]);

/* frees and zeroes; s may be NULL */
void ipc_surface_free(ipc_surface *s);

#endif
