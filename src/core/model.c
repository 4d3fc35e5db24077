/* model construction: meshes -> transformed global arrays, lumped masses,
   boundary-condition regions, the global collision surface */
#include "core/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "affine/affine.h"
#include "core/alloc.h"
#include "core/codim.h"
#include "core/error.h"
#include "geometry/containment.h"

static const double deg = 3.14159265358979323846 / 180.0;

void ipc_rotation_xyz(double R[9], const double ang[3]) {
  double ca = cos(ang[0]), sa = sin(ang[0]);
  double cb = cos(ang[1]), sb = sin(ang[1]);
  double cc = cos(ang[2]), sc = sin(ang[2]);
  double Rx[9] = {1, 0, 0, 0, ca, -sa, 0, sa, ca};
  double Ry[9] = {cb, 0, sb, 0, 1, 0, -sb, 0, cb};
  double Rz[9] = {cc, -sc, 0, sc, cc, 0, 0, 0, 1};
  double T[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      T[3 * i + j] = 0;
      for (int k = 0; k < 3; ++k) T[3 * i + j] += Rx[3 * i + k] * Ry[3 * k + j];
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      R[3 * i + j] = 0;
      for (int k = 0; k < 3; ++k) R[3 * i + j] += T[3 * i + k] * Rz[3 * k + j];
    }
}

static void bbox(const double *x, int n, double lo[3], double hi[3]) {
  for (int d = 0; d < 3; ++d) {
    lo[d] = INFINITY;
    hi[d] = -INFINITY;
  }
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], x[3 * i + d]);
      hi[d] = fmax(hi[d], x[3 * i + d]);
    }
}

static void base_name(char *out, size_t n, const char *path) {
  const char *s = strrchr(path, '/');
  s = s ? s + 1 : path;
  snprintf(out, n, "%s", s);
  char *dot = strrchr(out, '.');
  if (dot && dot != out) *dot = '\0';
}

/* where an error of the scene lies: "FILE:LINE" for what a script line declared (line > 0),
   else "FILE: key 'KEY'" with KEY formatted from fmt */
static const char *where(char *buf, size_t n, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static const char *where(char *buf, size_t n, const char *file, int line, const char *fmt, ...) {
  if (line > 0) {
    snprintf(buf, n, "%s:%d", file, line);
    return buf;
  }
  char key[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(key, sizeof key, fmt, ap);
  va_end(ap);
  snprintf(buf, n, "%s: key '%s'", file, key);
  return buf;
}

/* vertices of a body selected by a region; returns count, fills *out (global ids). at: where
   the region was declared (where()) */
static int select_region(int **out, const ipcc_region_def *r, const double *xrest, int v0, int nv,
                         const char *at, ipcc_error *err) {
  if (r->nverts > 0) {
    *out = IPC_NEW(int, r->nverts);
    /* a vertex listed twice would take a Neumann load twice: refused */
    int *first = IPC_NEW(int, nv > 0 ? nv : 1);
    for (int i = 0; i < nv; ++i) first[i] = -1;
    for (int i = 0; i < r->nverts; ++i) {
      if (r->verts[i] < 0 || r->verts[i] >= nv) {
        ipc_error_set(err, IPCC_ERR_INPUT,
                      "%s: vertex index %d out of range (the body has %d vertices)", at,
                      r->verts[i], nv);
        ipc_free(*out);
        ipc_free(first);
        *out = NULL;
        return -1;
      }
      if (first[r->verts[i]] >= 0) {
        ipc_error_set(err, IPCC_ERR_INPUT,
                      "%s: vertex %d is listed twice (entries %d and %d); list each vertex once",
                      at, r->verts[i], first[r->verts[i]], i);
        ipc_free(*out);
        ipc_free(first);
        *out = NULL;
        return -1;
      }
      first[r->verts[i]] = i;
      (*out)[i] = v0 + r->verts[i];
    }
    ipc_free(first);
    return r->nverts;
  }
  double lo[3], hi[3];
  bbox(xrest, nv, lo, hi);
  int cnt = 0;
  *out = IPC_NEW(int, nv);
  for (int i = 0; i < nv; ++i) {
    int in = 1;
    for (int d = 0; d < 3; ++d) {
      double ext = hi[d] - lo[d];
      double a = lo[d] + r->box_min[d] * ext, b = lo[d] + r->box_max[d] * ext;
      double tol = 1e-12 * (ext > 0 ? ext : 1.0);
      if (xrest[3 * i + d] < a - tol || xrest[3 * i + d] > b + tol) in = 0;
    }
    if (in) (*out)[cnt++] = v0 + i;
  }
  if (cnt == 0) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: the box selects no vertex of the body", at);
    ipc_free(*out);
    *out = NULL;
    return -1;
  }
  return cnt;
}

static void region_center(double c[3], const int *verts, int n, const double *x) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], x[3 * verts[i] + d]);
      hi[d] = fmax(hi[d], x[3 * verts[i] + d]);
    }
  for (int d = 0; d < 3; ++d) c[d] = 0.5 * (lo[d] + hi[d]);
}

/* a plane normal of unit length into u; 0 when n is zero or not finite. The loaders
   normalise already: a normal within rounding of unit length is kept bit for bit, others
   (scenes built in code) are divided by their length, as the barrier distance n.(x - p)
   needs a unit n. */
static int unit_normal(const double n[3], double u[3]) {
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0) || !isfinite(len)) return 0;
  double scale = fabs(len - 1.0) <= 1e-12 ? 1.0 : len;
  for (int d = 0; d < 3; ++d) u[d] = n[d] / scale;
  return 1;
}

/* lumped masses of an affine body without tets (bodies[b].affine): its mass rho V, with V
   enclosed by its triangle surface tris (ntris x 3, local ids) over x (nv x 3, transformed),
   spread over the vertices by area (each corner gets a third of its triangle's share). The
   body's dynamics use its exact volume moments (affine_world.c); these masses serve what
   works per vertex: the fit of the initial velocity, the mass scale of the barrier
   stiffness, the friction convergence test, statistics. ipc_affine_moments_surface checks
   that the surface is closed, consistently oriented and encloses a positive volume. */
static ipcc_status surface_masses(double *mass, int nv, const double *x, int ntris, const int *tris,
                                  double density, const char *at, int b, const char *mesh,
                                  ipcc_error *err) {
  ipc_affine_moments mom;
  ipcc_error inner;
  if (ntris == 0)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %s has neither tetrahedra nor triangles; an affine body "
                         "(bodies[%d].affine) needs a tet mesh or a closed triangle surface",
                         at, mesh, b);
  if (ipc_affine_moments_surface(nv, x, ntris, tris, density, &mom, &inner) != IPCC_OK) {
    const char *why = inner.msg;
    if (strncmp(why, "affine body: ", 13) == 0) why += 13;
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %s: %s (bodies[%d].affine is true and the mesh has no tets: "
                         "expected a closed, outward-oriented, manifold triangle surface; "
                         "vertices and triangles count from 0)",
                         at, mesh, why, b);
  }
  double total = 0;
  for (int t = 0; t < ntris; ++t) {
    const int *f = tris + 3 * t;
    double e1[3], e2[3];
    for (int d = 0; d < 3; ++d) {
      e1[d] = x[3 * f[1] + d] - x[3 * f[0] + d];
      e2[d] = x[3 * f[2] + d] - x[3 * f[0] + d];
    }
    double c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    double area = 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    total += area;
    for (int k = 0; k < 3; ++k) mass[f[k]] += area / 3.0;
  }
  for (int i = 0; i < nv; ++i) mass[i] *= mom.mass / total;
  return IPCC_OK;
}

/* the bodies moved through mesh sequences: obstacles only (a deformable body's vertices
   are not all scripted) */
static ipcc_status mesh_sequences(ipc_model *m, const ipcc_scene_def *def, const char *file,
                                  ipcc_error *err) {
  for (int b = 0; b < def->nbodies; ++b) m->nseq += def->bodies[b].mesh_sequence != NULL;
  m->seq = IPC_NEW0(ipc_mesh_seq, (size_t)m->nseq + 1);
  for (int b = 0, k = 0; b < def->nbodies; ++b) {
    const ipcc_body_def *bd = &def->bodies[b];
    if (!bd->mesh_sequence) continue;
    if (!bd->obstacle)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s: body %d: a mesh sequence moves obstacles only, expected an "
                           "obstacle",
                           file, b);
    ipc_mesh_seq *q = &m->seq[k++];
    q->v0 = m->bodies[b].v0;
    q->nv = m->bodies[b].nv;
    q->folder = IPC_NEW(char, strlen(bd->mesh_sequence) + 1);
    strcpy(q->folder, bd->mesh_sequence);
    q->start = bd->mesh_sequence_start;
    memcpy(q->ext, bd->mesh_sequence_ext, sizeof q->ext);
    q->ext[sizeof q->ext - 1] = '\0';
  }
  return IPCC_OK;
}

ipcc_status ipc_model_build(ipc_model *m, const ipcc_scene_def *def, ipcc_error *err) {
  memset(m, 0, sizeof *m);
  const char *file = def->path ? def->path : "(scene)";
  int nb = def->nbodies;
  ipcc_mesh *meshes = IPC_NEW0(ipcc_mesh, nb);
  ipcc_status st = IPCC_OK;
  int nverts = 0, ntets = 0, nfaces = 0, nsegs = 0, npoints = 0;
  for (int b = 0; b < nb; ++b) {
    st = ipcc_mesh_read(def->bodies[b].mesh, &meshes[b], err);
    if (st != IPCC_OK) goto done;
    if (def->bodies[b].codim) ipc_mesh_reduce_codim(&meshes[b], def->bodies[b].codim);
    const ipcc_mesh *me = &meshes[b];
    char at[1200];
    where(at, sizeof at, file, def->bodies[b].source_line, "bodies[%d].mesh", b);
    if (!def->bodies[b].obstacle && !def->bodies[b].affine && me->ntets == 0) {
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %s has no tetrahedra; a deformable body needs a tet mesh (.msh, "
                         ".node/.ele), or set \"obstacle\": true (or \"affine\": true for a "
                         "closed surface)",
                         at, def->bodies[b].mesh);
      goto done;
    }
    /* a node of a deformable body in no tet has no mass and no elasticity: it would hang
       frozen where it starts (even below the ground) and show in frames as a stray point */
    if (!def->bodies[b].obstacle && !def->bodies[b].affine && !def->bodies[b].codim) {
      unsigned char *used = IPC_NEW0(unsigned char, (size_t)me->nverts + 1);
      for (size_t k = 0; k < 4 * (size_t)me->ntets; ++k) used[me->tets[k]] = 1;
      int stray = 0, first = -1;
      for (int i = me->nverts - 1; i >= 0; --i)
        if (!used[i]) {
          stray++;
          first = i;
        }
      ipc_free(used);
      if (stray) {
        st = ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s: %s: %d of its %d nodes belong to no tetrahedron, the first the "
                           "%d-th node listed; a deformable body's nodes need a tet each (such a "
                           "node has no mass and would hang where it starts); remove them from "
                           "the mesh",
                           at, def->bodies[b].mesh, stray, me->nverts, first + 1);
        goto done;
      }
    }
    nverts += me->nverts;
    ntets += def->bodies[b].obstacle ? 0 : me->ntets;
    nfaces += me->ntris;
    nsegs += me->nsegs;
    if (def->bodies[b].obstacle && me->ntris == 0 && me->nsegs == 0) npoints += me->nverts;
  }

  m->nverts = nverts;
  m->x0 = IPC_NEW0(double, 3 * (size_t)nverts);
  m->v0 = IPC_NEW0(double, 3 * (size_t)nverts);
  m->mass = IPC_NEW0(double, nverts);
  m->ntets = ntets;
  m->tets = IPC_NEW(int, 4 * (size_t)ntets + 1);
  m->tet_body = IPC_NEW(int, (size_t)ntets + 1);
  m->nbodies = nb;
  m->bodies = IPC_NEW0(ipc_body, nb);
  int *faces = IPC_NEW(int, 3 * (size_t)nfaces + 1);
  m->segs = IPC_NEW(int, 2 * (size_t)nsegs + 1);
  m->nsegs = nsegs;
  int *points = IPC_NEW(int, (size_t)npoints + 1);
  int *vert_body = IPC_NEW(int, (size_t)nverts + 1);
  unsigned char *vert_obs = IPC_NEW0(unsigned char, (size_t)nverts + 1);

  int nd = 0, nn = 0;
  for (int b = 0; b < nb; ++b) {
    nd += def->bodies[b].ndirichlet + (def->bodies[b].obstacle ? 1 : 0);
    nn += def->bodies[b].nneumann;
  }
  m->dirichlet = IPC_NEW0(ipc_dirichlet, nd + 1);
  m->neumann = IPC_NEW0(ipc_neumann, nn + 1);

  int vo = 0, to = 0, fo = 0, so = 0, po = 0;
  for (int b = 0; b < nb; ++b) {
    const ipcc_body_def *bd = &def->bodies[b];
    const ipcc_mesh *me = &meshes[b];
    ipc_body *body = &m->bodies[b];
    if (bd->name)
      snprintf(body->name, sizeof body->name, "%s", bd->name);
    else
      base_name(body->name, sizeof body->name, bd->mesh);
    /* names go into OBJ 'o' lines and PLY header comments: a control character from a mesh
       file's name or a C caller's name would break those files (the JSON reader refuses
       them in "name"); it becomes '_' */
    for (char *c = body->name; *c; ++c)
      if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '_';
    body->obstacle = bd->obstacle;
    body->affine = bd->affine;
    body->ipc_codim_mass = bd->ipc_codim_mass;
    body->affine_stiffness = bd->affine_stiffness > 0 ? bd->affine_stiffness : 1e3 * bd->young;
    body->v0 = vo;
    body->nv = me->nverts;
    body->t0 = to;
    body->f0 = fo;
    body->nf = me->ntris;
    body->s0 = so;
    body->ns = me->nsegs;
    body->material = bd->material;
    body->density = bd->density;
    body->friction = bd->friction;
    body->friction_static = fmax(bd->friction_static, bd->friction);
    body->mu = bd->young / (2.0 * (1.0 + bd->poisson));
    body->lambda = bd->young * bd->poisson / ((1.0 + bd->poisson) * (1.0 - 2.0 * bd->poisson));

    double R[9], ang[3] = {bd->rotation[0] * deg, bd->rotation[1] * deg, bd->rotation[2] * deg};
    ipc_rotation_xyz(R, ang);
    char at[1200]; /* where its errors lie: its script line, or its JSON key */
    double *x = m->x0 + 3 * (size_t)vo;
    for (int i = 0; i < me->nverts; ++i) {
      double s[3];
      for (int d = 0; d < 3; ++d) s[d] = bd->scale[d] * me->x[3 * i + d];
      for (int d = 0; d < 3; ++d)
        x[3 * i + d] =
            R[3 * d] * s[0] + R[3 * d + 1] * s[1] + R[3 * d + 2] * s[2] + bd->translation[d];
      vert_body[vo + i] = b;
      vert_obs[vo + i] = (unsigned char)bd->obstacle;
    }
    /* placed where doubles cannot hold its shape: coordinates 1e9 times the body's size keep
       about 7 digits of it (an obstacle moved to 1e308 made the scene's extent and dhat
       infinite; a cube at 1e308 had flat tets) */
    {
      double lo[3], hi[3], reach = 0;
      bbox(x, me->nverts, lo, hi);
      double size = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                         (hi[2] - lo[2]) * (hi[2] - lo[2]));
      for (int d = 0; d < 3; ++d) reach = fmax(reach, fmax(fabs(lo[d]), fabs(hi[d])));
      if (me->nverts > 0 && (!(reach <= 1e9 * size) || !isfinite(size)) &&
          !(size == 0 && reach <= 1e9)) {
        st = ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s: body '%s' reaches %.3g m from the origin while it is %.3g m "
                           "across: out of range (expected coordinates within 1e9 times the "
                           "body's size, where doubles keep 7 digits of its shape; check its "
                           "translation, scale and the units of %s)",
                           where(at, sizeof at, file, bd->source_line, "bodies[%d]", b), body->name,
                           reach, size, bd->mesh);
        goto cleanup;
      }
    }
    if (!bd->obstacle) {
      for (int t = 0; t < me->ntets; ++t) {
        int *tt = m->tets + 4 * (size_t)(to + t);
        for (int k = 0; k < 4; ++k) tt[k] = vo + me->tets[4 * t + k];
        m->tet_body[to + t] = b;
        double vol = ipc_tet_volume(m->x0, tt);
        if (!(vol > 0)) {
          if (bd->source_line > 0)
            st = ipc_error_set(err, IPCC_ERR_INPUT,
                               "%s:%d: %s: tet %d has volume %g after the shape's transform "
                               "(expected > 0)",
                               file, bd->source_line, bd->mesh, t + 1, vol);
          else
            st = ipc_error_set(err, IPCC_ERR_INPUT,
                               "%s: tet %d has volume %g after the transform of bodies[%d] "
                               "(expected > 0)",
                               bd->mesh, t + 1, vol, b);
          goto cleanup;
        }
        for (int k = 0; k < 4; ++k) m->mass[tt[k]] += 0.25 * bd->density * vol;
      }
      body->nt = me->ntets;
      to += me->ntets;
      if (bd->affine && me->ntets == 0) {
        st = surface_masses(m->mass + vo, me->nverts, x, me->ntris, me->tris, bd->density,
                            where(at, sizeof at, file, bd->source_line, "bodies[%d].mesh", b), b,
                            bd->mesh, err);
        if (st != IPCC_OK) goto cleanup;
      }
      /* initial velocity: v + w x (x - c), c = bbox center */
      double lo[3], hi[3], c[3];
      bbox(x, me->nverts, lo, hi);
      for (int d = 0; d < 3; ++d) c[d] = 0.5 * (lo[d] + hi[d]);
      const double *w = bd->angular_velocity;
      /* a step extrapolates a spin linearly: the body is stretched by about |w| h in the first
         step, and the energies of that stretch (its square) lose all precision beyond 1e6 rad
         per step (1e15 rad/s at h 0.01 moved a spinning cube along its axis; 1e50 made
         nonsense of it). The spin is refused rather than computed wrong */
      double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      if (wn * def->time_step > 1e6) {
        st = ipc_error_set(
            err, IPCC_ERR_INPUT,
            "%s: |w| = %.3g rad/s turns body '%s' by %.3g rad in one time step "
            "of %g s (expected at most 1e6 rad per step: beyond it the step's "
            "linear extrapolation of the spin loses all precision)",
            where(at, sizeof at, file, bd->source_line, "bodies[%d].angular_velocity", b), wn,
            body->name, wn * def->time_step, def->time_step);
        goto cleanup;
      }
      for (int i = 0; i < me->nverts; ++i) {
        double r[3] = {x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]};
        double *v = m->v0 + 3 * (size_t)(vo + i);
        v[0] = bd->velocity[0] + w[1] * r[2] - w[2] * r[1];
        v[1] = bd->velocity[1] + w[2] * r[0] - w[0] * r[2];
        v[2] = bd->velocity[2] + w[0] * r[1] - w[1] * r[0];
      }
    }
    for (int f = 0; f < me->ntris; ++f)
      for (int k = 0; k < 3; ++k) faces[3 * (fo + f) + k] = vo + me->tris[3 * f + k];
    fo += me->ntris;
    for (int s = 0; s < me->nsegs; ++s)
      for (int k = 0; k < 2; ++k) m->segs[2 * (so + s) + k] = vo + me->segs[2 * s + k];
    so += me->nsegs;
    if (bd->obstacle && me->ntris == 0 && me->nsegs == 0)
      for (int i = 0; i < me->nverts; ++i) points[po++] = vo + i;

    /* boundary conditions; regions select in the mesh's own (untransformed) frame. an
       obstacle's whole-body script comes first so that its own entries override it */
    if (bd->obstacle) {
      ipc_dirichlet *dd = &m->dirichlet[m->ndirichlet++];
      dd->nverts = me->nverts;
      dd->verts = IPC_NEW(int, me->nverts);
      for (int i = 0; i < me->nverts; ++i) dd->verts[i] = vo + i;
      memcpy(dd->velocity, bd->velocity, sizeof dd->velocity);
      memcpy(dd->angular_velocity, bd->angular_velocity, sizeof dd->angular_velocity);
      dd->t_begin = 0;
      dd->t_end = INFINITY;
      dd->bbox_rotation = def->script_rotation_bbox;
      region_center(dd->center, dd->verts, me->nverts, m->x0);
    }
    for (int k = 0; k < bd->ndirichlet; ++k) {
      char rat[1200];
      const ipcc_dirichlet_def *src = &bd->dirichlet[k];
      where(rat, sizeof rat, file, src->source_line, "bodies[%d].dirichlet[%d]", b, k);
      ipc_dirichlet *dd = &m->dirichlet[m->ndirichlet];
      int n = select_region(&dd->verts, &src->region, me->x, vo, me->nverts, rat, err);
      if (n < 0) {
        st = IPCC_ERR_INPUT;
        goto cleanup;
      }
      dd->nverts = n;
      memcpy(dd->velocity, src->velocity, sizeof dd->velocity);
      memcpy(dd->angular_velocity, src->angular_velocity, sizeof dd->angular_velocity);
      dd->t_begin = src->t_begin;
      dd->t_end = src->t_end;
      dd->has_release_x = src->has_release_x;
      dd->release_x = src->release_x;
      dd->rel_v0 = vo;
      dd->rel_nv = me->nverts;
      if (src->has_center) {
        memcpy(dd->center, src->center, sizeof dd->center);
      } else {
        region_center(dd->center, dd->verts, n, m->x0);
        dd->bbox_rotation = def->script_rotation_bbox;
      }
      m->ndirichlet++;
    }
    /* two of the body's entries active at the same time and moving a shared vertex
       differently: only the last would act, silently. Refused (JSON scenes and the API; an IPC
       script adds such motions up, as IPC does not check either) */
    if (!def->ipc_newton_path && bd->ndirichlet > 1) {
      const ipc_dirichlet *e0 = m->dirichlet + m->ndirichlet - bd->ndirichlet;
      int *owner = IPC_NEW(int, (size_t)me->nverts + 1);
      for (int k = 0; k < bd->ndirichlet && st == IPCC_OK; ++k) {
        for (int i = 0; i < me->nverts; ++i) owner[i] = 0;
        for (int i = 0; i < e0[k].nverts; ++i) owner[e0[k].verts[i] - vo] = 1;
        for (int l = k + 1; l < bd->ndirichlet && st == IPCC_OK; ++l) {
          const ipc_dirichlet *a = &e0[k], *c = &e0[l];
          if (!(fmax(a->t_begin, c->t_begin) < fmin(a->t_end, c->t_end))) continue;
          if (!memcmp(a->velocity, c->velocity, sizeof a->velocity) &&
              !memcmp(a->angular_velocity, c->angular_velocity, sizeof a->velocity) &&
              !memcmp(a->center, c->center, sizeof a->center))
            continue;
          for (int i = 0; i < c->nverts; ++i)
            if (owner[c->verts[i] - vo]) {
              st = ipc_error_set(err, IPCC_ERR_INPUT,
                                 "%s: keys 'bodies[%d].dirichlet[%d]' and "
                                 "'bodies[%d].dirichlet[%d]' both move vertex %d at t = %g, "
                                 "differently; give each vertex one motion at a time",
                                 file, b, k, b, l, c->verts[i] - vo, fmax(a->t_begin, c->t_begin));
              break;
            }
        }
      }
      ipc_free(owner);
      if (st != IPCC_OK) goto cleanup;
    }
    for (int k = 0; k < bd->nneumann; ++k) {
      char rat[1200];
      const ipcc_neumann_def *src = &bd->neumann[k];
      where(rat, sizeof rat, file, src->source_line, "bodies[%d].neumann[%d]", b, k);
      ipc_neumann *nd2 = &m->neumann[m->nneumann];
      int n = select_region(&nd2->verts, &src->region, me->x, vo, me->nverts, rat, err);
      if (n < 0) {
        st = IPCC_ERR_INPUT;
        goto cleanup;
      }
      nd2->nverts = n;
      memcpy(nd2->acceleration, src->acceleration, sizeof nd2->acceleration);
      nd2->t_begin = src->t_begin;
      nd2->t_end = src->t_end;
      m->nneumann++;
    }
    vo += me->nverts;
  }

  m->nplanes = def->nplanes;
  m->planes = IPC_NEW0(ipc_plane, def->nplanes + 1);
  for (int p = 0; p < def->nplanes; ++p) {
    memcpy(m->planes[p].point, def->planes[p].point, sizeof m->planes[p].point);
    if (!unit_normal(def->planes[p].normal, m->planes[p].normal)) {
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: key 'planes[%d].normal': expected a non-zero finite vector", file, p);
      goto cleanup;
    }
    m->planes[p].friction = def->planes[p].friction;
    m->planes[p].friction_static = fmax(def->planes[p].friction_static, def->planes[p].friction);
  }

  bbox(m->x0, nverts, m->bbox_min, m->bbox_max);
  double dd2 = 0;
  for (int d = 0; d < 3; ++d)
    dd2 += (m->bbox_max[d] - m->bbox_min[d]) * (m->bbox_max[d] - m->bbox_min[d]);
  m->bbox_diag = def->bbox_diag > 0 ? def->bbox_diag : sqrt(dd2);
  if (!(m->bbox_diag > 0)) {
    st = ipc_error_set(err, IPCC_ERR_INPUT, "%s: the scene has zero extent", file);
    goto cleanup;
  }

  st = ipc_surface_build(&m->surface, nverts, faces, nfaces, m->segs, nsegs, points, npoints,
                         vert_body, vert_obs, err);
  m->surface.body_contact = def->body_contact;
  for (int b = 0; b < nb && st == IPCC_OK; ++b) {
    const ipc_body *body = &m->bodies[b];
    if (!body->affine || body->nv == 0) continue;
    if (!m->surface.vert_rigid) m->surface.vert_rigid = IPC_NEW0(unsigned char, (size_t)nverts);
    memset(m->surface.vert_rigid + body->v0, 1, (size_t)body->nv);
  }
  if (st == IPCC_OK) st = mesh_sequences(m, def, file, err);

  m->params = *def;
  m->params.bodies = NULL;
  m->params.planes = NULL;
  m->params.path = NULL;
  m->params.nbodies = 0;
  m->params.nplanes = 0;

cleanup:
  ipc_free(faces);
  ipc_free(points);
  ipc_free(vert_body);
  ipc_free(vert_obs);
done:
  for (int b = 0; b < nb; ++b) ipcc_mesh_free(&meshes[b]);
  ipc_free(meshes);
  if (st != IPCC_OK) ipc_model_free(m);
  return st;
}

void ipc_model_free(ipc_model *m) {
  if (!m) return;
  ipc_free(m->x0);
  ipc_free(m->v0);
  ipc_free(m->mass);
  ipc_free(m->tets);
  ipc_free(m->tet_body);
  ipc_free(m->bodies);
  ipc_surface_free(&m->surface);
  ipc_free(m->segs);
  for (int i = 0; i < m->ndirichlet; ++i) ipc_free(m->dirichlet[i].verts);
  for (int i = 0; i < m->nneumann; ++i) ipc_free(m->neumann[i].verts);
  ipc_free(m->dirichlet);
  ipc_free(m->neumann);
  ipc_free(m->planes);
  for (int i = 0; i < m->nseq; ++i) ipc_free(m->seq[i].folder);
  ipc_free(m->seq);
  memset(m, 0, sizeof *m);
}

double ipc_friction_combine_mu(int rule, double a, double b) {
  switch (rule) {
    case IPCC_FRICTION_MEAN:
      return 0.5 * (a + b);
    case IPCC_FRICTION_MIN:
      return fmin(a, b);
    case IPCC_FRICTION_MAX:
      return fmax(a, b);
    default:
      return sqrt(a * b);
  }
}

void ipc_model_pair_friction(const ipc_model *m, int a, int b, int plane, double *mu_s,
                             double *mu_k) {
  int rule = (int)m->params.friction_combine;
  const ipc_body *ba = &m->bodies[a];
  double ka = ba->friction, sa = ba->friction_static, kb, sb;
  int a_obstacle = ba->obstacle, b_obstacle = 1;
  if (b < 0) {
    kb = m->planes[plane].friction;
    sb = m->planes[plane].friction_static;
  } else {
    kb = m->bodies[b].friction;
    sb = m->bodies[b].friction_static;
    b_obstacle = m->bodies[b].obstacle;
  }
  if (rule == IPCC_FRICTION_OBSTACLE && a_obstacle != b_obstacle) {
    *mu_k = a_obstacle ? ka : kb;
    *mu_s = fmax(a_obstacle ? sa : sb, *mu_k);
    return;
  }
  *mu_k = ipc_friction_combine_mu(rule, ka, kb);
  *mu_s = fmax(ipc_friction_combine_mu(rule, sa, sb), *mu_k);
}

/* the exact moments of body bd: from its tets, or from its closed surface by the divergence
   theorem (model.c checked it and spread the mass over its vertices); over the body's own
   vertices, so the sums are taken near the body and cost O(its size) */
ipcc_status ipc_model_body_moments(const ipc_model *m, const ipc_body *bd, ipc_affine_moments *mom,
                                   ipcc_error *err) {
  int per = bd->nt > 0 ? 4 : 3, nel = bd->nt > 0 ? bd->nt : bd->nf;
  const int *src =
      bd->nt > 0 ? m->tets + 4 * (size_t)bd->t0 : m->surface.faces + 3 * (size_t)bd->f0;
  int *loc = IPC_NEW(int, (size_t)per *(size_t)nel + 1);
  for (size_t k = 0; k < (size_t)per * (size_t)nel; ++k) loc[k] = src[k] - bd->v0;
  const double *x = m->x0 + 3 * (size_t)bd->v0;
  ipcc_status st = bd->nt > 0
                       ? ipc_affine_moments_tets(bd->nv, x, nel, loc, bd->density, mom, err)
                       : ipc_affine_moments_surface(bd->nv, x, nel, loc, bd->density, mom, err);
  ipc_free(loc);
  return st;
}

void ipc_model_affine_neumann(const ipc_model *m, const int *vert_aff, const double *origin,
                              double t, double *f) {
  for (int k = 0; k < m->nneumann; ++k) {
    const ipc_neumann *nb = &m->neumann[k];
    if (!(t >= nb->t_begin && t < nb->t_end)) continue;
    for (int j = 0; j < nb->nverts; ++j) {
      int i = nb->verts[j], a = vert_aff[i];
      if (a < 0) continue;
      double wt[4] = {1.0, 0, 0, 0};
      for (int d = 0; d < 3; ++d)
        wt[1 + d] = m->x0[3 * (size_t)i + d] - (origin ? origin[3 * (size_t)a + d] : 0.0);
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 3; ++d)
          f[12 * (size_t)a + 3 * c + d] += m->mass[i] * wt[c] * nb->acceleration[d];
    }
  }
}

ipcc_status ipc_model_affine_scripts_check(const ipc_model *m, const ipcc_scene_def *def, int b,
                                           int d0, ipcc_error *err) {
  const char *path = def->path ? def->path : "(scene)";
  const ipcc_body_def *bd = &def->bodies[b];
  for (int k = 0; k < bd->ndirichlet; ++k) {
    const ipc_dirichlet *d = &m->dirichlet[d0 + k];
    if (d->nverts != m->bodies[b].nv)
      return ipc_error_set(err, IPCC_ERR_INPUT,
                           "%s: bodies[%d].dirichlet[%d]: selects %d of the body's %d vertices; "
                           "an affine body moves as a whole, so its script must select all of "
                           "them (bodies[%d].affine is true)",
                           path, b, k, d->nverts, m->bodies[b].nv, b);
  }
  return IPCC_OK;
}

int ipc_model_planes_clear(const ipc_model *m, const double *x, char *what, size_t n) {
  double worst = 0.0;
  int wv = -1, wp = -1, wb = -1;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->obstacle) continue;
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i)
      for (int p = 0; p < m->nplanes; ++p) {
        double s = ipc_plane_distance(&m->planes[p], x + 3 * (size_t)i);
        if (s < worst || (s != s && wv < 0)) {
          worst = s != s ? -INFINITY : s;
          wv = i;
          wp = p;
          wb = b;
        }
      }
  }
  if (wv < 0) return 1;
  if (what)
    snprintf(what, n, "vertex %d of body '%s' is %.3g m behind plane %d (through %g %g %g)",
             wv - m->bodies[wb].v0, m->bodies[wb].name, -worst, wp, m->planes[wp].point[0],
             m->planes[wp].point[1], m->planes[wp].point[2]);
  return 0;
}

int ipc_model_no_containment(const ipc_model *m, const double *x, char *what, size_t n) {
  int inner, outer;
  if (!ipc_surface_first_containment(&m->surface, x, &inner, &outer)) return 1;
  if (what)
    snprintf(what, n, "body '%s' lies inside body '%s' (their volumes overlap)",
             inner < m->nbodies ? m->bodies[inner].name : "?",
             outer < m->nbodies ? m->bodies[outer].name : "?");
  return 0;
}
