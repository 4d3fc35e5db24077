/* the active contact set of IPC and its barrier potential
   B(x) = kappa * sum_k m_k(x) b(d_k^2(x), dhat^2) over surface pairs closer than dhat
   (m_k the edge-edge mollifier, 1 for other pairs) and vertex-plane pairs. */
#ifndef IPCC_IPC_CONTACTS_H
#define IPCC_IPC_CONTACTS_H

#include <stddef.h>

#include "core/model.h"
#include "geometry/broad_phase.h"
#include "geometry/distance.h"

typedef enum ipc_contact_kind {
  IPC_CONTACT_PT,    /* vertex v[0] against face v[1..3] */
  IPC_CONTACT_EE,    /* edge v[0]-v[1] against edge v[2]-v[3] */
  IPC_CONTACT_PE,    /* isolated vertex / codimensional edge: v[0] against edge v[1]-v[2] */
  IPC_CONTACT_PP,    /* isolated points v[0], v[1] */
  IPC_CONTACT_PLANE, /* vertex v[0] against plane `plane` */
} ipc_contact_kind;

typedef struct ipc_contact {
  int kind;
  int type; /* distance type (ipc_pt_type / ipc_ee_type / ipc_pe_type) */
  int v[4];
  int plane;
  double eps_x; /* edge-edge mollifier threshold (rest), 0 otherwise */
  double d2;    /* squared distance at the last evaluation */
} ipc_contact;

typedef struct ipc_contact_set {
  ipc_contact *c;
  size_t n, cap;
} ipc_contact_set;

/* per-model contact data that does not change: mollifier thresholds need rest edges */
typedef struct ipc_contact_model {
  const ipc_model *model;
  double dhat;       /* absolute */
  double *edge_len2; /* (nedges) rest squared edge lengths */
  int *plane_verts;  /* surface vertices of deformable bodies (checked against planes) */
  int nplane_verts;
  /* IPC's spatial-hash voxel: a third of the mean rest length of the edges of the deformable
     bodies' faces (igl::avg_edge_length over the faces); 0 when there are none */
  double hash_voxel;
} ipc_contact_model;

void ipc_contact_model_init(ipc_contact_model *cm, const ipc_model *m, double dhat);
void ipc_contact_model_free(ipc_contact_model *cm);

/* the distance type of a point-triangle or edge-edge pair at its positions: IPC's tie rules
   on IPC scripts (ipc_pt_classify_ipc, params.ipc_newton_path), ipcc's own otherwise. The
   barrier and friction classify through these, so both see the same closest pair */
ipc_pt_type ipc_contact_pt_type(const ipc_contact_model *cm, const double *p, const double *a,
                                const double *b, const double *c);
ipc_ee_type ipc_contact_ee_type(const ipc_contact_model *cm, const double *a0, const double *a1,
                                const double *b0, const double *b1);

/* the pairs among cand (and vertex-plane pairs) with squared distance < dhat^2 at x;
   returns the smallest squared distance seen (INFINITY if none), or -1 when some
   pair has zero distance or a vertex is on the wrong side of a plane */
double ipc_contacts_collect(ipc_contact_set *out, const ipc_contact_model *cm,
                            const ipc_candidates *cand, const double *x);

/* squared distance of contact c's primitives at x (its type classified again) */
double ipc_contact_distance2(ipc_contact *c, const ipc_contact_model *cm, const double *x);

/* the closest points of contact c's primitives at x (its type classified again): pa on the
   first primitive (v[0]'s: the point, the first edge), pb on the other (a plane's foot point
   for a plane contact); returns their distance */
double ipc_contact_closest_points(const ipc_contact *c, const ipc_contact_model *cm,
                                  const double *x, double pa[3], double pb[3]);

/* how many of c->v are on the first primitive (1, or 2 for edge-edge); the rest (up to the
   kind's count: 4 point-triangle and edge-edge, 3 point-edge, 2 point-point, 1 plane) are on
   the second */
int ipc_contact_first_side(const ipc_contact *c);
int ipc_contact_vertices(const ipc_contact *c);

/* barrier energy kappa * sum m b over the set at x (recomputes distances); +INFINITY if
   any distance is zero */
double ipc_contacts_energy(const ipc_contact_set *cs, const ipc_contact_model *cm, const double *x,
                           double kappa);

/* local gradient and PSD-projected Hessian of contact k's barrier term, compressed to
   the vertices it really depends on: *nv ids in verts, g (3nv), H (3nv x 3nv).
   returns the energy of the term. project: 0 none, 1 clamp negative eigenvalues. */
double ipc_contact_local(const ipc_contact *c, const ipc_contact_model *cm, const double *x,
                         double kappa, int project, int *nv, int verts[4], double g[12],
                         double H[144]);

/* barrier energy over all candidate pairs and planes at x, for the line search. min_d2 (may
   be NULL): the smallest squared distance seen. out (may be NULL): the contact set
   ipc_contacts_collect would return at x, in the same order with the same fields, so a line
   search that accepts x has its next contact set without a second pass over the candidates.
   vert_island (may be NULL: no split, e unused): each pair's term is also added to
   e[island] (e: nisl + 1 entries, not cleared), its island that of its first vertex with
   vert_island >= 0, or nisl when it has none (ipc_islands_of) */
double ipc_barrier_energy_islands(const ipc_contact_model *cm, const ipc_candidates *cand,
                                  const double *x, double kappa, const int *vert_island, int nisl,
                                  double *e, double *min_d2, ipc_contact_set *out);

/* calls visit on every candidate pair (and vertex-plane pair) as a contact record whose
   kind, v, plane and eps_x are set (type and d2 not yet), in a fixed order; pairs within
   one body are skipped without self-collision. visit may modify the record. */
typedef void (*ipc_contact_visit)(ipc_contact *c, void *ctx);
void ipc_contacts_visit(const ipc_contact_model *cm, const ipc_candidates *cand,
                        ipc_contact_visit visit, void *ctx);

/* the pairs ipc_contacts_visit goes through are numbered 0 .. ipc_contacts_count - 1 (skipped
   same-body pairs included); ipc_contacts_visit_range visits those numbered [begin, end) */
size_t ipc_contacts_count(const ipc_contact_model *cm, const ipc_candidates *cand);
void ipc_contacts_visit_range(const ipc_contact_model *cm, const ipc_candidates *cand, size_t begin,
                              size_t end, ipc_contact_visit visit, void *ctx);

void ipc_contact_set_free(ipc_contact_set *cs);

#endif
