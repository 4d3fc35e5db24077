/* what both worlds derive from the model at creation and never change (docs/one-world.md):
   the rest shapes of the tets and the affine bodies' list, scripts, moments and rest
   coordinates. Built by one function for the IPC and the LCP world alike. */
#ifndef IPCC_CORE_REST_H
#define IPCC_CORE_REST_H

#include "affine/affine.h"
#include "core/model.h"

typedef struct ipc_rest {
  /* tets */
  double *DmInv, *vol; /* (ntets x 9), (ntets) */
  int *tet_model;      /* (ntets) ipc_material_model */
  /* affine bodies (docs/affine-integration.md): body a's vertices move as x_i = J_i q_a with
     J_i = w_i^T (x) I3, w_i = (1, x0_i - origin_a) */
  int naff;
  int *aff_body;               /* (naff) model body */
  int *aff_dir0, *aff_ndir;    /* (naff) the body's scripts in the model's dirichlet list */
  int *vert_aff;               /* (nverts) affine body of a vertex or -1; NULL when naff = 0 */
  ipc_affine_moments *aff_mom; /* (naff) about the body's origin */
  double *aff_origin;          /* (naff x 3) origin of the rest coordinates */
} ipc_rest;

/* where the rest coordinates of an affine body start */
typedef enum ipc_rest_origin {
  IPC_REST_WORLD_ORIGIN, /* the world's origin (the IPC world: q starts at (0, I)) */
  IPC_REST_CENTRE,       /* the body's centre of mass (the LCP world: q starts at (c, I)) */
} ipc_rest_origin;

/* the rest shapes of m's tets (IPCC_ERR_INPUT naming def->path, the body and the tet for a
   degenerate or inverted one), then its affine bodies: their scripts checked (a script moves
   a whole affine body), their exact moments about the chosen origin. r is zeroed first;
   on failure what was built stays in r for ipc_rest_free. */
ipcc_status ipc_rest_build(ipc_rest *r, const ipc_model *m, const ipcc_scene_def *def,
                           ipc_rest_origin origin, ipcc_error *err);

/* frees and zeroes */
void ipc_rest_free(ipc_rest *r);

/* the weights w_i = (1, x0_i - origin) of vertex i of affine body vert_aff[i] */
static inline void ipc_rest_weights(const ipc_rest *r, const ipc_model *m, int i, double wt[4]) {
  const double *o = r->aff_origin + 3 * (size_t)r->vert_aff[i];
  wt[0] = 1.0;
  for (int d = 0; d < 3; ++d) wt[1 + d] = m->x0[3 * (size_t)i + d] - o[d];
}

/* out_i = J_i q_a for the vertices of affine body a (q: 12) */
void ipc_rest_map_body(const ipc_rest *r, const ipc_model *m, int a, const double *q, double *out);

/* out_i = J_i q_a for the vertices of every affine body (q: naff x 12) */
void ipc_rest_map(const ipc_rest *r, const ipc_model *m, const double *q, double *out);

/* q_a (12) of affine body a fitted to the values vals (nverts x 3: positions or velocities,
   both J q) of its vertices, in the mass-weighted least-squares sense
   (ipc_affine_fit_velocity) */
void ipc_rest_fit_body(const ipc_rest *r, const ipc_model *m, int a, const double *vals, double *q);

/* adds to gf (naff x 12) the generalized forces sum_i J_i^T f_i of the vertex forces f
   (nverts x 3) on the affine bodies' vertices */
void ipc_rest_affine_forces(const ipc_rest *r, const ipc_model *m, const double *f, double *gf);

/* the affine bodies' initial state: q = (origin, I) (x0 is the rest shape) and qdot fitted
   to the vertex velocities v (ipc_affine_fit_velocity); then x = J q and v = J qdot on their
   vertices. q, qd: (naff x 12), zeroed by the caller */
void ipc_rest_affine_start(const ipc_rest *r, const ipc_model *m, double *x, double *v, double *q,
                           double *qd);

#endif
