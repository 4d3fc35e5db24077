/* the fixed model of a simulation (rest meshes, topology, materials, boundary
   conditions, parameters) apart from the changing state. built once from a
   scene definition, then read-only. */
#ifndef IPCC_CORE_MODEL_H
#define IPCC_CORE_MODEL_H

#include <stddef.h>

#include "affine/affine.h"
#include "core/surface.h"
#include "ipcc/mesh.h"
#include "ipcc/scene.h"

typedef struct ipc_body {
  char name[128];
  int obstacle; /* kinematic surface: no mass, moved by script only */
  int v0, nv;   /* global vertex range */
  int t0, nt;   /* global tet range */
  int f0, nf;   /* global surface face range */
  int s0, ns;   /* global segment range (obstacles) */
  ipcc_material_kind material;
  double mu, lambda, density;
  double friction;
  double friction_static;  /* static coefficient (>= friction) */
  int affine;              /* affine body (ipcc_body_def.affine): 12 DOFs, no tet elasticity */
  int ipc_codim_mass;      /* ipcc_body_def.ipc_codim_mass */
  double affine_stiffness; /* orthogonality stiffness kappa_A (Pa), resolved default */
} ipc_body;

/* scripted motion of a vertex set (Dirichlet); obstacles carry one covering all
   their vertices (zero velocity when static) */
typedef struct ipc_dirichlet {
  int nverts;
  int *verts; /* (nverts) global ids */
  double velocity[3];
  double angular_velocity[3]; /* rad/s about the moving region center */
  double center[3];           /* region bbox center at t = 0 */
  double t_begin, t_end;
  /* 1: each step rotates by Rx Ry Rz of (angular_velocity h) about the centre of the region's
     bounding box at the step's start, as IPC's scripts (ipcc_scene_def.script_rotation_bbox) */
  int bbox_rotation;
  /* ipcc_dirichlet_def.release_x: the entry ends once vertices rel_v0 .. rel_v0 + rel_nv - 1
     (its body's) all lie at x > release_x at a step's start (ipc_dirichlet_release) */
  int has_release_x;
  double release_x;
  int rel_v0, rel_nv;
} ipc_dirichlet;

typedef struct ipc_neumann {
  int nverts;
  int *verts;
  double acceleration[3];
  double t_begin, t_end;
} ipc_neumann;

/* a body moved through a sequence of meshes (ipcc_body_def.mesh_sequence) */
typedef struct ipc_mesh_seq {
  int v0, nv;   /* global vertex range of the body */
  char *folder; /* the step with index k reads folder/(k + start) ext */
  int start;
  char ext[8];
} ipc_mesh_seq;

typedef struct ipc_plane {
  double point[3], normal[3];
  double friction;
  double friction_static; /* static coefficient (>= friction) */
} ipc_plane;

/* signed distance of x from the plane (positive on the allowed side) */
static inline double ipc_plane_distance(const ipc_plane *p, const double x[3]) {
  return p->normal[0] * (x[0] - p->point[0]) + p->normal[1] * (x[1] - p->point[1]) +
         p->normal[2] * (x[2] - p->point[2]);
}

typedef struct ipc_model {
  int nverts;
  double *x0;   /* (nverts x 3) initial positions (rest shape, transformed) */
  double *v0;   /* (nverts x 3) initial velocities */
  double *mass; /* (nverts) lumped mass; 0 for obstacle vertices */
  int ntets;
  int *tets;     /* (ntets x 4) */
  int *tet_body; /* (ntets) */
  int nbodies;
  ipc_body *bodies;
  ipc_surface surface;
  int *segs; /* (nsegs x 2) codimensional segments (obstacles) */
  int nsegs;
  int ndirichlet;
  ipc_dirichlet *dirichlet;
  int nneumann;
  ipc_neumann *neumann;
  int nplanes;
  ipc_plane *planes;
  int nseq;
  ipc_mesh_seq *seq;
  double bbox_min[3], bbox_max[3];
  double bbox_diag;      /* of the initial bodies and obstacles */
  ipcc_scene_def params; /* copy of the scalar parameters (bodies/planes pointers cleared) */
} ipc_model;

/* builds the model: reads every body's mesh, applies transforms, lumps masses,
   selects boundary-condition regions, builds the global collision surface.
   returns IPCC_ERR_INPUT naming the file or key on bad input. */
ipcc_status ipc_model_build(ipc_model *m, const ipcc_scene_def *def, ipcc_error *err);

/* R = Rx(a) Ry(b) Rz(c), angles ang = (a, b, c) in radians, row-major */
void ipc_rotation_xyz(double R[9], const double ang[3]);

/* frees and zeroes; m may be NULL */
void ipc_model_free(ipc_model *m);

/* 1 when every vertex of the bodies that are not obstacles lies on the allowed side of every
   plane at x (on the plane counts as allowed); else 0 and what (n bytes) names the deepest
   vertex: its body, index and depth behind the plane. Part of every exact intersection check:
   a vertex behind the ground is an intersection too. */
int ipc_model_planes_clear(const ipc_model *m, const double *x, char *what, size_t n);

/* 1 when no body lies wholly inside another's volume at x (ipc_surface_first_containment; the
   surfaces must not cross, checked first); else 0 and what names the two bodies. Part of the
   exact intersection check: containment is an overlap of volumes without a crossing. */
int ipc_model_no_containment(const ipc_model *m, const double *x, char *what, size_t n);

/* the exact volume moments of body bd of m (an affine body) with its density, about the
   world origin: from its tets, or from its closed surface by the divergence theorem when it
   has none (ipc_model_build checked that surface). IPCC_ERR_INPUT as the kernels. */
/* adds to f (12 per affine body) the generalized forces of the Neumann loads active at t: the
   forces m_i a on each loaded vertex i of an affine body, as sum m_i J_i^T a with
   J_i = (1, x0_i - origin of its body) (x) I3. vert_aff: the affine body of each vertex or -1;
   origin: (bodies x 3) the bodies' rest-coordinate origins, NULL for the world origin */
void ipc_model_affine_neumann(const ipc_model *m, const int *vert_aff, const double *origin,
                              double t, double *f);

ipcc_status ipc_model_body_moments(const ipc_model *m, const ipc_body *bd, ipc_affine_moments *mom,
                                   ipcc_error *err);

/* IPCC_ERR_INPUT naming bodies[b].dirichlet[k] when a script of affine body b (its entries
   d0 .. d0 + def->bodies[b].ndirichlet - 1 in m->dirichlet) selects only part of the body:
   an affine body moves as a whole. Both modes call it. */
ipcc_status ipc_model_affine_scripts_check(const ipc_model *m, const ipcc_scene_def *def, int b,
                                           int d0, ipcc_error *err);

/* combines two friction coefficients by rule (ipcc_friction_combine; IPCC_FRICTION_OBSTACLE
   combines like IPCC_FRICTION_GEOMETRIC_MEAN: it differs only in which sides it combines) */
double ipc_friction_combine_mu(int rule, double a, double b);

/* the static and kinetic coefficients of a contact between body a and body b, or plane
   `plane` when b < 0, under the scene's friction_combine rule; mu_s >= mu_k */
void ipc_model_pair_friction(const ipc_model *m, int a, int b, int plane, double *mu_s,
                             double *mu_k);

#endif
