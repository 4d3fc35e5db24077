/* the scene of bench_engines in ODE 0.16 (Debian's libode-dev: double precision, OPCODE
   trimeshes, libccd inside for convex-trimesh).
   - bodies: dCreateConvex, one plane and one triangle per surface triangle, the points in the
     body frame (centre of mass, principal axes; dMassSetParameters with the principal
     moments). The convex class is ODE's geom for a convex body: it is a solid, so a contact's
     depth is the overlap of two volumes and its normal separates them; a dGeomTriMesh is a
     surface without inside (trimesh-trimesh contacts come from crossing triangles and lose
     their depth once a triangle has passed through), made for static or concave shapes;
   - tube (any static obstacle): by default convex prisms (prisms_of_mesh: each triangle
     extruded 0.1 m outward, its front face the triangle exactly; why so thick: there). As a
     dGeomTriMesh (--ode-static trimesh) it misbehaves: the
     convex-trimesh collider (libccd per triangle) treats each triangle as a thin solid and
     returns depths of 15-28 mm with normals along the tube wall (|n_z| up to 0.95) at the
     first touches of the 125 pour (steps 11-20; prisms: 3.6 mm, Bullet: 4.4 mm), and those
     contacts push the bodies sideways;
   - ground: dCreatePlane;
   - spaces: dHashSpace, cell levels 2^-6 .. 2^4 m (the ellipsoids are 1-4 cm), one for the
     bodies (dSpaceCollide) and one for the static geometry (dSpaceCollide2 against the first);
   - contacts: at most --ode-contacts (8) points per geom pair from dCollide, each a contact
     joint with surface.mode dContactApprox1 (Coulomb friction scaled by the normal force,
     two directions: a friction pyramid), mu from the scene's combination rule, no bounce, no
     softness of its own (the world's ERP and CFM apply);
   - world: dWorldQuickStep (projected Gauss-Seidel) with --iterations sweeps per island and
     ODE's defaults otherwise: ERP 0.2 (ipcc's LCP Baumgarte factor is 0.2 too), CFM 1e-10
     (the double-precision default), SOR factor 1.3, contact surface layer 0, no limit on the
     correcting velocity, no damping, auto-disable off (bodies never sleep, as in ipcc);
   - one thread (dInitODE2(0), no threading implementation attached).
   Reported per step: contact joints created, sweeps x islands that have contacts (union-find
   over the contact joints, as ODE's island processing groups bodies), the time of
   dSpaceCollide + dWorldQuickStep + dJointGroupEmpty, and the largest contact depth that
   dCollide returned (in the state the step starts from). */
#include <math.h>
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_engines.h"

typedef struct geom_info {
  double friction;
  int obstacle; /* static triangles or the ground */
  int body;     /* index into the scene's bodies, -1 for static geoms */
} geom_info;

typedef struct ode_ctx {
  const bench_scene *s;
  dWorldID world;
  dJointGroupID group;
  int max_contacts;
  dContact *buf;          /* (max_contacts) */
  long contacts;          /* joints created this step */
  double max_depth;       /* deepest contact this step */
  int *parent;            /* (nbodies) union-find over bodies joined by contacts */
  unsigned char *touched; /* (nbodies) body has a contact */
} ode_ctx;

static int find_root(int *parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/* a convex geom's arrays, which ODE does not copy */
typedef struct convex_arrays {
  dReal *planes;      /* (nplanes x 4) unit outward normal n and d, n.x = d on the face */
  dReal *points;      /* (npoints x 3) */
  unsigned *polygons; /* per face: its vertex count, then the vertices counter-clockwise
                         seen from outside */
  unsigned nplanes, npoints;
  double origin[3]; /* where the geom is placed: ODE wants its origin inside the convex */
} convex_arrays;

static void convex_free(convex_arrays *c) {
  free(c->planes);
  free(c->points);
  free(c->polygons);
}

static void cross3(double r[3], const double a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* unit normal n (counter-clockwise winding) and offset n.a of triangle a b c; 0 if degenerate */
static int tri_plane(const double *a, const double *b, const double *c, double n[3], double *d) {
  double e1[3], e2[3];
  for (int k = 0; k < 3; ++k) {
    e1[k] = b[k] - a[k];
    e2[k] = c[k] - a[k];
  }
  cross3(n, e1, e2);
  double len = sqrt(dot3(n, n));
  if (!(len > 0)) return 0;
  for (int k = 0; k < 3; ++k) n[k] /= len;
  *d = dot3(n, a);
  return 1;
}

/* a convex body's surface: one plane and one triangle per surface triangle */
static void convex_of_body(const bench_body *bb, convex_arrays *c) {
  c->npoints = (unsigned)bb->nverts;
  c->nplanes = 0;
  c->points = malloc((size_t)(3 * bb->nverts) * sizeof(dReal));
  c->planes = malloc((size_t)(4 * bb->ntris) * sizeof(dReal));
  c->polygons = malloc((size_t)(4 * bb->ntris) * sizeof(unsigned));
  for (int i = 0; i < 3 * bb->nverts; ++i) c->points[i] = bb->local[i];
  unsigned *poly = c->polygons;
  for (int t = 0; t < bb->ntris; ++t) {
    const int *tri = bb->tris + 3 * t;
    double n[3], d;
    if (!tri_plane(bb->local + 3 * tri[0], bb->local + 3 * tri[1], bb->local + 3 * tri[2], n, &d))
      continue;
    dReal *pl = c->planes + 4 * c->nplanes++;
    for (int k = 0; k < 3; ++k) pl[k] = n[k];
    pl[3] = d;
    *poly++ = 3;
    for (int k = 0; k < 3; ++k) *poly++ = (unsigned)tri[k];
  }
}

/* the prisms that stand in for a static triangle mesh (--ode-static prisms): each triangle
   extruded by `thickness` to the side away from the bodies (the side of its plane where fewer
   body centres lie at t = 0), so its front face is the triangle. Thick, because ODE's
   convex-convex collider takes as reference face the face of the first convex that best faces
   the other's centre (GetSupportSide in convex.cpp), not the axis of least overlap: a body over
   a thin or long prism gets a side face, and a depth across the prism (a first version with one
   2 cm slab per flat strip of the tube gave contacts of 0.17-0.41 m along the tube's axis).
   With 0.1 m behind each triangle of 2-4 cm the front face faces a touching body. Returns the
   number of prisms written to *out (allocated). */
static int prisms_of_mesh(const bench_static_mesh *sm, const bench_scene *s, double thickness,
                          convex_arrays **out) {
  convex_arrays *prisms = calloc((size_t)sm->ntris + 1, sizeof *prisms);
  int np = 0;
  for (int t = 0; t < sm->ntris; ++t) {
    const double *v[3];
    for (int k = 0; k < 3; ++k) v[k] = sm->x + 3 * sm->tris[3 * t + k];
    double n[3], d;
    if (!tri_plane(v[0], v[1], v[2], n, &d)) continue;
    int front = 0, flip;
    for (int b = 0; b < s->nbodies; ++b) front += dot3(n, s->bodies[b].pos) >= d ? 1 : -1;
    flip = front < 0; /* then the bodies are behind: extrude along +n */
    /* corners: the triangle (0-2), then moved away from the bodies (3-5); in coordinates about
       the prism's centre, as ODE wants the origin inside */
    double away = flip ? thickness : -thickness, ctr[3];
    for (int k = 0; k < 3; ++k) ctr[k] = (v[0][k] + v[1][k] + v[2][k]) / 3 + 0.5 * away * n[k];
    convex_arrays *c = &prisms[np++];
    c->npoints = 6;
    c->nplanes = 5;
    c->points = malloc(18 * sizeof(dReal));
    c->planes = malloc(20 * sizeof(dReal));
    c->polygons = malloc((2 * 4 + 3 * 5) * sizeof(unsigned));
    memcpy(c->origin, ctr, sizeof ctr);
    double p[6][3];
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        p[i][k] = v[i][k] - ctr[k];
        p[3 + i][k] = p[i][k] + away * n[k];
      }
    for (int i = 0; i < 6; ++i)
      for (int k = 0; k < 3; ++k) c->points[3 * i + k] = p[i][k];
    /* faces with outward normals, corners counter-clockwise seen from outside: the triangle's
       face looks towards the bodies (m = n, or -n when flipped, order reversed then) */
    static const int tri_face[2][2][3] = {{{0, 1, 2}, {5, 4, 3}}, {{2, 1, 0}, {3, 4, 5}}};
    unsigned *poly = c->polygons;
    dReal *pl = c->planes;
    for (int f = 0; f < 2; ++f) {
      const int *q = tri_face[flip][f];
      double nf[3];
      tri_plane(p[q[0]], p[q[1]], p[q[2]], nf, &d);
      for (int k = 0; k < 3; ++k) pl[k] = nf[k];
      pl[3] = d;
      pl += 4;
      *poly++ = 3;
      for (int k = 0; k < 3; ++k) *poly++ = (unsigned)q[k];
    }
    /* sides: edge i -> j of the front face, quad (i, j, j + 3, i + 3) oriented by its normal */
    for (int i = 0; i < 3; ++i) {
      int j = (i + 1) % 3, q[4] = {i, j, j + 3, i + 3};
      double nf[3];
      tri_plane(p[q[0]], p[q[1]], p[q[2]], nf, &d);
      if (d < 0) { /* the origin (inside) must be behind the face: reverse */
        int tmp = q[1];
        q[1] = q[3];
        q[3] = tmp;
        for (int k = 0; k < 3; ++k) nf[k] = -nf[k];
        d = -d;
      }
      for (int k = 0; k < 3; ++k) pl[k] = nf[k];
      pl[3] = d;
      pl += 4;
      *poly++ = 4;
      for (int k = 0; k < 4; ++k) *poly++ = (unsigned)q[k];
    }
  }
  *out = prisms;
  return np;
}

static void near_callback(void *data, dGeomID g1, dGeomID g2) {
  ode_ctx *c = data;
  dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
  if (!b1 && !b2) return;
  const geom_info *i1 = dGeomGetData(g1), *i2 = dGeomGetData(g2);
  int n = dCollide(g1, g2, c->max_contacts, &c->buf[0].geom, (int)sizeof(dContact));
  if (n <= 0) return;
  double mu = i1->obstacle ? bench_combine_friction(c->s, i2->friction, i1->friction, 1)
                           : bench_combine_friction(c->s, i1->friction, i2->friction, i2->obstacle);
  for (int k = 0; k < n; ++k) {
    dContact *ct = &c->buf[k];
    memset(&ct->surface, 0, sizeof ct->surface);
    ct->surface.mode = dContactApprox1;
    ct->surface.mu = mu;
    dJointID j = dJointCreateContact(c->world, c->group, ct);
    dJointAttach(j, b1, b2);
    if (ct->geom.depth > c->max_depth) c->max_depth = ct->geom.depth;
  }
  c->contacts += n;
  if (i1->body >= 0) c->touched[i1->body] = 1;
  if (i2->body >= 0) c->touched[i2->body] = 1;
  if (i1->body >= 0 && i2->body >= 0) {
    int r1 = find_root(c->parent, i1->body), r2 = find_root(c->parent, i2->body);
    if (r1 != r2) c->parent[r1] = r2;
  }
}

int bench_run_ode(const bench_scene *s, const bench_options *o, bench_report *r) {
  dInitODE2(0);
  dWorldID world = dWorldCreate();
  dWorldSetGravity(world, s->gravity[0], s->gravity[1], s->gravity[2]);
  dWorldSetQuickStepNumIterations(world, o->iterations);
  dWorldSetAutoDisableFlag(world, 0);
  /* the bodies in one space, the static geometry in another, so that static pairs are never
     visited */
  dSpaceID space = dHashSpaceCreate(0), static_space = dHashSpaceCreate(0);
  dHashSpaceSetLevels(space, -6, 4);
  dHashSpaceSetLevels(static_space, -6, 4);
  dJointGroupID group = dJointGroupCreate(0);

  int nb = s->nbodies;
  geom_info *info = calloc((size_t)nb, sizeof *info);
  dBodyID *bodies = calloc((size_t)nb, sizeof *bodies);
  convex_arrays *convex = calloc((size_t)nb, sizeof *convex);
  for (int b = 0; b < nb; ++b) {
    const bench_body *bb = &s->bodies[b];
    convex_of_body(bb, &convex[b]);
    dGeomID g = dCreateConvex(space, convex[b].planes, convex[b].nplanes, convex[b].points,
                              convex[b].npoints, convex[b].polygons);
    info[b] = (geom_info){.friction = bb->friction, .obstacle = 0, .body = b};
    dGeomSetData(g, &info[b]);
    dBodyID body = dBodyCreate(world);
    dMass m;
    dMassSetParameters(&m, bb->mass, 0, 0, 0, bb->inertia[0], bb->inertia[1], bb->inertia[2], 0, 0,
                       0);
    dBodySetMass(body, &m);
    dBodySetPosition(body, bb->pos[0], bb->pos[1], bb->pos[2]);
    dMatrix3 R;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) R[4 * i + j] = bb->rot[3 * i + j];
      R[4 * i + 3] = 0;
    }
    dBodySetRotation(body, R);
    dBodySetLinearVel(body, bb->vel[0], bb->vel[1], bb->vel[2]);
    dBodySetAngularVel(body, bb->omega[0], bb->omega[1], bb->omega[2]);
    dGeomSetBody(g, body);
    bodies[b] = body;
  }
  /* static geometry: triangle meshes (or their prisms) and planes, one info each */
  int nstatic_info = s->nstatic + s->nplanes;
  geom_info *sinfo = calloc((size_t)nstatic_info + 1, sizeof *sinfo);
  dTriMeshDataID *tmdata = calloc((size_t)s->nstatic + 1, sizeof *tmdata);
  dTriIndex **indices = calloc((size_t)s->nstatic + 1, sizeof *indices);
  convex_arrays **prisms = calloc((size_t)s->nstatic + 1, sizeof *prisms);
  int *nprisms = calloc((size_t)s->nstatic + 1, sizeof *nprisms);
  for (int k = 0; k < s->nstatic; ++k) {
    const bench_static_mesh *sm = &s->statics[k];
    sinfo[k] = (geom_info){.friction = sm->friction, .obstacle = 1, .body = -1};
    if (o->ode_static_prisms) {
      nprisms[k] = prisms_of_mesh(sm, s, o->ode_prism_thickness, &prisms[k]);
      for (int i = 0; i < nprisms[k]; ++i) {
        const convex_arrays *c = &prisms[k][i];
        dGeomID g =
            dCreateConvex(static_space, c->planes, c->nplanes, c->points, c->npoints, c->polygons);
        dGeomSetPosition(g, c->origin[0], c->origin[1], c->origin[2]);
        dGeomSetData(g, &sinfo[k]);
      }
      continue;
    }
    indices[k] = malloc((size_t)(3 * sm->ntris) * sizeof(dTriIndex));
    for (int i = 0; i < 3 * sm->ntris; ++i) indices[k][i] = (dTriIndex)sm->tris[i];
    tmdata[k] = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(tmdata[k], sm->x, 3 * (int)sizeof(double), sm->nverts, indices[k],
                                3 * sm->ntris, 3 * (int)sizeof(dTriIndex));
    /* convex-trimesh (libccd) refuses meshes without their face angles */
    dGeomTriMeshDataPreprocess2(tmdata[k], 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
    dGeomID g = dCreateTriMesh(static_space, tmdata[k], NULL, NULL, NULL);
    dGeomSetData(g, &sinfo[k]);
  }
  for (int k = 0; k < s->nplanes; ++k) {
    const bench_plane *p = &s->planes[k];
    const double *n = p->normal;
    dGeomID g = dCreatePlane(static_space, n[0], n[1], n[2], dot3(n, p->point));
    sinfo[s->nstatic + k] = (geom_info){.friction = p->friction, .obstacle = 1, .body = -1};
    dGeomSetData(g, &sinfo[s->nstatic + k]);
  }

  ode_ctx c = {.s = s,
               .world = world,
               .group = group,
               .max_contacts = o->ode_max_contacts,
               .buf = calloc((size_t)o->ode_max_contacts, sizeof(dContact)),
               .parent = malloc((size_t)nb * sizeof(int)),
               .touched = malloc((size_t)nb)};
  double *centres = calloc((size_t)(3 * nb), sizeof *centres);
  for (int k = 1; k <= o->steps; ++k) {
    c.contacts = 0;
    c.max_depth = -INFINITY;
    for (int b = 0; b < nb; ++b) {
      c.parent[b] = b;
      c.touched[b] = 0;
    }
    double t0 = bench_now(), c0 = bench_cpu_now();
    dSpaceCollide(space, &c, near_callback);
    dSpaceCollide2((dGeomID)space, (dGeomID)static_space, &c, near_callback);
    dWorldQuickStep(world, s->h);
    dJointGroupEmpty(group);
    double t = bench_now() - t0, tc = bench_cpu_now() - c0;
    long islands = 0;
    for (int b = 0; b < nb; ++b) {
      int root = find_root(c.parent, b);
      if (c.touched[b] && root != b) c.touched[root] = 1;
    }
    for (int b = 0; b < nb; ++b) islands += c.parent[b] == b && c.touched[b];
    bench_report_step(r, k, c.contacts, islands * o->iterations, t, tc,
                      c.contacts > 0 ? -c.max_depth : INFINITY);
    if (bench_report_wants_centres(r, k)) {
      for (int b = 0; b < nb; ++b)
        memcpy(centres + 3 * b, dBodyGetPosition(bodies[b]), 3 * sizeof(double));
      bench_report_centres(r, k, centres);
    }
  }
  free(centres);
  free(c.buf);
  free(c.parent);
  free(c.touched);
  dJointGroupDestroy(group);
  dSpaceDestroy(space); /* destroys the geoms (cleanup mode on) */
  dSpaceDestroy(static_space);
  for (int k = 0; k < s->nstatic; ++k) {
    if (tmdata[k]) dGeomTriMeshDataDestroy(tmdata[k]);
    free(indices[k]);
    for (int i = 0; i < nprisms[k]; ++i) convex_free(&prisms[k][i]);
    free(prisms[k]);
  }
  dWorldDestroy(world);
  for (int b = 0; b < nb; ++b) convex_free(&convex[b]);
  free(convex);
  free(tmdata);
  free(indices);
  free(prisms);
  free(nprisms);
  free(bodies);
  free(info);
  free(sinfo);
  dCloseODE();
  return 0;
}
