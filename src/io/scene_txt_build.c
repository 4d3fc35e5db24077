/* IPC's .txt scripts, second half: the parsed shapes placed as IPC places them (each shape
   p -> R (s o p) + t, then rotateModel about IPC's pivot, `size`, the lift of the fall and
   dragright scenarios) and mapped onto an ipcc_scene_def (scene_txt.c parses the script) */
#define _XOPEN_SOURCE 700

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/codim.h"
#include "io/path.h"
#include "io/scene_txt.h"
#include "io/scene_txt_internal.h"
#include "ipcc/mesh.h"
#include "ipcc/scene.h"

/* ---- geometry ---- */

/* R = Rx(a) Ry(b) Rz(c), angles in degrees, row-major */
static void rot_xyz(double R[9], const double deg[3]) {
  double a = deg[0] * pi / 180, b = deg[1] * pi / 180, c = deg[2] * pi / 180;
  double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
  double r[9] = {cb * cc,
                 -cb * sc,
                 sb,
                 ca * sc + sa * sb * cc,
                 ca * cc - sa * sb * sc,
                 -sa * cb,
                 sa * sc - ca * sb * cc,
                 sa * cc + ca * sb * sc,
                 ca * cb};
  memcpy(R, r, sizeof r);
}

/* angles (degrees) with R = Rx Ry Rz */
static void euler_xyz_of(double deg[3], const double R[9]) {
  double sb = fmax(-1.0, fmin(1.0, R[2]));
  double b = asin(sb), a, c;
  if (fabs(cos(b)) > 1e-12) {
    a = atan2(-R[5], R[8]);
    c = atan2(-R[1], R[0]);
  } else {
    c = 0;
    a = atan2(R[7], R[4]);
  }
  deg[0] = a * 180 / pi;
  deg[1] = b * 180 / pi;
  deg[2] = c * 180 / pi;
}

static void axis_angle(double R[9], const double axis[3], double deg) {
  double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double k[3] = {axis[0] / n, axis[1] / n, axis[2] / n};
  double th = deg * pi / 180, c = cos(th), s = sin(th), t = 1 - c;
  double r[9] = {t * k[0] * k[0] + c,        t * k[0] * k[1] - s * k[2], t * k[0] * k[2] + s * k[1],
                 t * k[0] * k[1] + s * k[2], t * k[1] * k[1] + c,        t * k[1] * k[2] - s * k[0],
                 t * k[0] * k[2] - s * k[1], t * k[1] * k[2] + s * k[0], t * k[2] * k[2] + c};
  memcpy(R, r, sizeof r);
}

static void matmul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

static void matvec(double y[3], const double A[9], const double x[3]) {
  for (int i = 0; i < 3; ++i) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

void ipc_txt_bbox_grow(double lo[3], double hi[3], const double *x, int n) {
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], x[3 * i + d]);
      hi[d] = fmax(hi[d], x[3 * i + d]);
    }
}

static int load_mesh(txt *p, txt_shape *s) {
  for (int i = 0; i < p->nmeshes; ++i)
    if (p->meshes[i].codim == s->codim && !strcmp(p->meshes[i].path, s->path)) {
      s->mesh = i;
      return 1;
    }
  size_t cap = (size_t)p->cap_meshes;
  ipc_reserve((void **)&p->meshes, &cap, (size_t)p->nmeshes + 1, sizeof(cached_mesh));
  p->cap_meshes = (int)cap;
  cached_mesh *c = &p->meshes[p->nmeshes];
  memset(c, 0, sizeof *c);
  ipcc_error e;
  if (ipcc_mesh_read(s->path, &c->m, &e) != IPCC_OK)
    return ipc_txt_bad(p, s->line, "reading the shape's mesh: %s", e.msg);
  s->mesh = p->nmeshes++; /* from here on txt_free frees it */
  c->path = ipc_txt_dup_str(s->path);
  c->codim = s->codim;
  if (s->codim) ipc_mesh_reduce_codim(&c->m, s->codim);
  if (s->kind == KIND_TET && c->m.ntets == 0)
    return ipc_txt_bad(p, s->line, "mesh %s has no tetrahedra", s->path);
  if (c->m.nverts == 0) return ipc_txt_bad(p, s->line, "mesh %s has no vertices", s->path);
  c->surf = IPC_NEW0(unsigned char, (size_t)c->m.nverts);
  for (int f = 0; f < c->m.ntris; ++f)
    for (int k = 0; k < 3; ++k) c->surf[c->m.tris[3 * f + k]] = 1;
  if (c->m.ntris == 0) memset(c->surf, 1, (size_t)c->m.nverts);
  return 1;
}

/* vertices of a raw mesh in a box relative to its bounding box (IPC's DBC/NBC selection:
   boundary vertices only); returns the count, *out owned by the caller */
static int select_box(int **out, const cached_mesh *c, const double lo[3], const double hi[3]) {
  double blo[3] = {INFINITY, INFINITY, INFINITY}, bhi[3] = {-INFINITY, -INFINITY, -INFINITY};
  ipc_txt_bbox_grow(blo, bhi, c->m.x, c->m.nverts);
  *out = IPC_NEW(int, (size_t)c->m.nverts);
  int n = 0;
  for (int i = 0; i < c->m.nverts; ++i) {
    if (!c->surf[i]) continue;
    int in = 1;
    for (int d = 0; d < 3; ++d) {
      double ext = bhi[d] - blo[d], x = c->m.x[3 * i + d];
      double tol = 1e-12 * (ext > 0 ? ext : 1.0);
      if (x < blo[d] + lo[d] * ext - tol || x > blo[d] + hi[d] * ext + tol) in = 0;
    }
    if (in) (*out)[n++] = i;
  }
  return n;
}

/* appends a Dirichlet entry with an explicit vertex list (body-local ids; takes verts) */
ipcc_dirichlet_def *ipc_txt_add_dirichlet(ipcc_body_def *b, int *verts, int n, double t0,
                                          double t1) {
  b->dirichlet =
      ipc_realloc(b->dirichlet, (size_t)(b->ndirichlet + 1) * sizeof(ipcc_dirichlet_def));
  ipcc_dirichlet_def *d = &b->dirichlet[b->ndirichlet++];
  memset(d, 0, sizeof *d);
  d->region.verts = verts;
  d->region.nverts = n;
  d->t_begin = t0;
  d->t_end = t1;
  return d;
}

int *ipc_txt_all_verts(int n) {
  int *v = IPC_NEW(int, (size_t)n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

/* the first step index k >= 0 at which the scenario's condition stops holding, as a time
   between steps (so that step start times compare robustly) */
double ipc_txt_switch_time(int k, double dt) {
  return k <= 0 ? 0.0 : (k - 0.5) * dt;
}

int ipc_txt_finalize(txt *p, ipcc_scene_def *s) {
  int nsh = 0;
  for (int i = 0; i < p->nshapes; ++i) {
    if (!load_mesh(p, &p->shapes[i])) return 0;
    if (!p->shapes[i].co) ++nsh;
  }
  if (nsh == 0) return ipc_txt_bad(p, 0, "no shapes (expected 'shapes input N' and N shape lines)");
  if (p->dt <= 0) return ipc_txt_bad(p, 0, "time step must be positive");

  /* shapes first (IPC's mesh components), then meshCO obstacles */
  int *order = p->order = IPC_NEW(int, (size_t)p->nshapes + 1);
  {
    int k = 0;
    for (int i = 0; i < p->nshapes; ++i)
      if (!p->shapes[i].co) order[k++] = i;
    for (int i = 0; i < p->nshapes; ++i)
      if (p->shapes[i].co) order[k++] = i;
  }
  placed pl;
  pl.off = p->off = IPC_NEW(int, (size_t)nsh + 1);
  pl.off[0] = 0;
  for (int c = 0; c < nsh; ++c)
    pl.off[c + 1] = pl.off[c] + p->meshes[p->shapes[order[c]].mesh].m.nverts;
  pl.X = p->X = IPC_NEW(double, 3 * (size_t)pl.off[nsh] + 3);
  double *Rb = p->Rb = IPC_NEW(double, 9 * (size_t)nsh + 9);
  for (int c = 0; c < nsh; ++c) {
    const txt_shape *sh = &p->shapes[order[c]];
    const ipcc_mesh *m = &p->meshes[sh->mesh].m;
    rot_xyz(Rb + 9 * c, sh->r);
    for (int i = 0; i < m->nverts; ++i) {
      double q[3] = {sh->s[0] * m->x[3 * i], sh->s[1] * m->x[3 * i + 1],
                     sh->s[2] * m->x[3 * i + 2]};
      double *x = pl.X + 3 * (size_t)(pl.off[c] + i);
      matvec(x, Rb + 9 * c, q);
      for (int d = 0; d < 3; ++d) x[d] += sh->t[d];
    }
  }
  int nX = pl.off[nsh];
  /* rotateModel (pivot (max - min) / 2, as IPC), size, lift */
  double Rm[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, piv[3] = {0, 0, 0}, k = 1.0, mn[3] = {0, 0, 0};
  double lift = 0.0;
  int rotated = p->rot_deg != 0.0;
  for (int d = 0; d < 3; ++d) {
    pl.lo[d] = INFINITY;
    pl.hi[d] = -INFINITY;
  }
  ipc_txt_bbox_grow(pl.lo, pl.hi, pl.X, nX);
  if (rotated) {
    axis_angle(Rm, p->rot_axis, p->rot_deg);
    for (int d = 0; d < 3; ++d) piv[d] = 0.5 * (pl.hi[d] - pl.lo[d]);
    for (int i = 0; i < nX; ++i) {
      double r[3], *x = pl.X + 3 * (size_t)i;
      for (int d = 0; d < 3; ++d) r[d] = x[d] - piv[d];
      matvec(x, Rm, r);
      for (int d = 0; d < 3; ++d) x[d] += piv[d];
    }
    for (int d = 0; d < 3; ++d) {
      pl.lo[d] = INFINITY;
      pl.hi[d] = -INFINITY;
    }
    ipc_txt_bbox_grow(pl.lo, pl.hi, pl.X, nX);
  }
  if (p->size > 0) {
    double ext = fmax(pl.hi[0] - pl.lo[0], fmax(pl.hi[1] - pl.lo[1], pl.hi[2] - pl.lo[2]));
    if (!(ext > 0)) return ipc_txt_bad(p, 0, "keyword 'size': the shapes have zero extent");
    k = p->size / ext;
    for (int d = 0; d < 3; ++d) mn[d] = k * pl.lo[d];
    for (int i = 0; i < nX; ++i)
      for (int d = 0; d < 3; ++d) pl.X[3 * (size_t)i + d] = k * pl.X[3 * (size_t)i + d] - mn[d];
  }
  for (int d = 0; d < 3; ++d) {
    pl.lo[d] = INFINITY;
    pl.hi[d] = -INFINITY;
  }
  ipc_txt_bbox_grow(pl.lo, pl.hi, pl.X, nX);
  double ext[3] = {pl.hi[0] - pl.lo[0], pl.hi[1] - pl.lo[1], pl.hi[2] - pl.lo[2]};
  double diag = sqrt(ext[0] * ext[0] + ext[1] * ext[1] + ext[2] * ext[2]);
  if (p->script == SCRIPT_FALL || p->script == SCRIPT_DRAGRIGHT || p->script == SCRIPT_DRAGDOWN ||
      p->script == SCRIPT_SWING) {
    lift = p->script == SCRIPT_SWING ? 1.3 * ext[1] : 0.5 * diag;
    for (int i = 0; i < nX; ++i) pl.X[3 * (size_t)i + 1] += lift;
    pl.lo[1] += lift;
    pl.hi[1] += lift;
  }
  if (!(diag > 0)) return ipc_txt_bad(p, 0, "the shapes have zero extent");
  /* IPC's relative parameters (dHat, epsv, the Newton tolerance, kappa's bounds, its dTol)
     refer to the diagonal of the tet shapes' rest positions alone (matSpaceBBoxSize2(3)):
     kinematic triangle, segment and point shapes do not count. Without tet shapes IPC's
     diagonal would be 0; ipcc keeps the diagonal of all shapes then. */
  double pdiag = diag;
  {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int c = 0; c < nsh; ++c)
      if (p->shapes[order[c]].kind == KIND_TET)
        ipc_txt_bbox_grow(lo, hi, pl.X + 3 * (size_t)pl.off[c], pl.off[c + 1] - pl.off[c]);
    double e2 = 0;
    for (int d = 0; d < 3; ++d) e2 += hi[d] > lo[d] ? (hi[d] - lo[d]) * (hi[d] - lo[d]) : 0.0;
    if (e2 > 0) pdiag = sqrt(e2);
  }

  /* bodies */
  s->nbodies = p->nshapes;
  s->bodies = IPC_NEW0(ipcc_body_def, s->nbodies);
  int null_script = p->script == SCRIPT_NULL;
  for (int c = 0; c < p->nshapes; ++c) {
    txt_shape *sh = &p->shapes[order[c]];
    const cached_mesh *cm = &p->meshes[sh->mesh];
    ipcc_body_def *b = &s->bodies[c];
    *b = ipcc_default_body_def();
    b->source_line = sh->line;
    b->mesh = ipc_txt_dup_str(sh->path);
    b->codim = sh->codim;
    b->material = p->energy;
    b->density = p->density;
    b->young = p->young;
    b->poisson = p->poisson;
    b->friction = p->self_fric;
    if (sh->co) { /* centred on the mean, rotated, scaled to the largest extent, moved */
      double mean[3] = {0, 0, 0}, lo[3] = {INFINITY, INFINITY, INFINITY};
      double hi[3] = {-INFINITY, -INFINITY, -INFINITY}, R[9], Rmean[3];
      for (int i = 0; i < cm->m.nverts; ++i)
        for (int d = 0; d < 3; ++d) mean[d] += cm->m.x[3 * i + d] / cm->m.nverts;
      ipc_txt_bbox_grow(lo, hi, cm->m.x, cm->m.nverts);
      double cur = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
      if (!(cur > 0)) return ipc_txt_bad(p, sh->line, "keyword 'meshCO': the mesh has zero extent");
      double kc = sh->s[0] / cur;
      rot_xyz(R, sh->r);
      matvec(Rmean, R, mean);
      for (int d = 0; d < 3; ++d) {
        b->scale[d] = kc;
        b->rotation[d] = sh->r[d];
        b->translation[d] = sh->t[d] - kc * Rmean[d];
      }
      b->obstacle = 1;
      /* IPC reads a meshCO's friction coefficient but adds no friction term for it (its
         friction energy covers halfSpace/ground and shape-shape pairs only): contact with a
         meshCO is frictionless there, and so here */
      b->friction = 0.0;
      continue;
    }
    /* fold the global steps into the body transform */
    double tt[3];
    if (rotated) {
      double R[9], r[3];
      matmul(R, Rm, Rb + 9 * c);
      euler_xyz_of(b->rotation, R);
      for (int d = 0; d < 3; ++d) r[d] = sh->t[d] - piv[d];
      matvec(tt, Rm, r);
      for (int d = 0; d < 3; ++d) tt[d] += piv[d];
    } else {
      memcpy(b->rotation, sh->r, sizeof b->rotation);
      memcpy(tt, sh->t, sizeof tt);
    }
    for (int d = 0; d < 3; ++d) {
      b->scale[d] = k * sh->s[d];
      b->translation[d] = k * tt[d] - mn[d] + (d == 1 ? lift : 0.0);
    }
    /* a scripted velocity: a surface shape is a kinematic obstacle; a volumetric one keeps its
       mass and elasticity with every vertex scripted (IPC makes all its nodes Dirichlet
       nodes, which its moving boundary conditions pull when they cannot move at once) */
    int kinematic = sh->has_lin_vel || sh->has_ang_vel;
    b->obstacle = sh->kind != KIND_TET;
    b->ipc_codim_mass = b->obstacle;
    if (sh->kind == KIND_TET && isfinite(sh->mat[0]) && isfinite(sh->mat[1]) &&
        isfinite(sh->mat[2])) {
      if (!(sh->mat[0] > 0 && sh->mat[1] > 0))
        return ipc_txt_bad(p, sh->line,
                           "shape extra 'material': expected density > 0 and Young's modulus "
                           "> 0, got %g %g",
                           sh->mat[0], sh->mat[1]);
      if (!(sh->mat[2] >= 0 && sh->mat[2] < 0.5))
        return ipc_txt_bad(p, sh->line, "shape extra 'material': expected 0 <= nu < 0.5");
      b->density = sh->mat[0];
      b->young = sh->mat[1];
      b->poisson = sh->mat[2];
    }
    if (!null_script && (kinematic || sh->has_init_vel || sh->nbc[0] || sh->nbc[1] || sh->seq) &&
        !ipc_txt_unsupported(p, sh->line, "shapes",
                             "IPC applies the extras DBC, NBC, initVel, linearVelocity, "
                             "angularVelocity and meshSeq only with script null"))
      return 0;
    if (!null_script) continue;
    if (sh->seq && !ipc_txt_mesh_sequence(p, b, sh, sh->seq, sh->seq_line, 0)) return 0;
    if (kinematic && b->obstacle) {
      if (sh->has_lin_vel) memcpy(b->velocity, sh->lin_vel, sizeof b->velocity);
      if (sh->has_ang_vel) memcpy(b->angular_velocity, sh->ang_vel, sizeof b->velocity);
    } else if (kinematic) {
      ipcc_dirichlet_def *d =
          ipc_txt_add_dirichlet(b, ipc_txt_all_verts(cm->m.nverts), cm->m.nverts, 0, INFINITY);
      d->source_line = sh->line;
      if (sh->has_lin_vel) memcpy(d->velocity, sh->lin_vel, sizeof d->velocity);
      if (sh->has_ang_vel) memcpy(d->angular_velocity, sh->ang_vel, sizeof d->angular_velocity);
    } else if (sh->has_init_vel && !b->obstacle) {
      memcpy(b->velocity, sh->init_v, sizeof b->velocity);
      memcpy(b->angular_velocity, sh->init_w, sizeof b->velocity);
    }
    for (int q = 0; q < sh->nbc[0]; ++q) {
      const txt_bc *bc = &sh->bc[0][q];
      int *verts;
      int n = select_box(&verts, cm, bc->lo, bc->hi);
      double t0 = fmax(bc->t0, p->dbc_range[0]), t1 = fmin(bc->t1, p->dbc_range[1]);
      if (n == 0 || !(t0 < t1)) {
        ipc_free(verts);
        continue;
      }
      ipcc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, t0, t1);
      d->source_line = bc->line;
      memcpy(d->velocity, bc->v, sizeof d->velocity);
      memcpy(d->angular_velocity, bc->w, sizeof d->angular_velocity);
    }
    for (int q = 0; q < sh->nbc[1]; ++q) {
      const txt_bc *bc = &sh->bc[1][q];
      int *verts;
      int n = select_box(&verts, cm, bc->lo, bc->hi);
      double t0 = fmax(bc->t0, p->nbc_range[0]), t1 = fmin(bc->t1, p->nbc_range[1]);
      if (n == 0 || !(t0 < t1)) {
        ipc_free(verts);
        continue;
      }
      b->neumann = ipc_realloc(b->neumann, (size_t)(b->nneumann + 1) * sizeof(ipcc_neumann_def));
      ipcc_neumann_def *nd = &b->neumann[b->nneumann++];
      memset(nd, 0, sizeof *nd);
      nd->region.verts = verts;
      nd->region.nverts = n;
      nd->source_line = bc->line;
      memcpy(nd->acceleration, bc->v, sizeof nd->acceleration);
      nd->t_begin = t0;
      nd->t_end = t1;
    }
  }

  /* IPC's selfCollisionOff: the shapes touch only meshCO, ground and halfSpace; its
     kinematic shapes then touch nothing, which obstacles_only cannot say */
  if (p->self_collision_off) {
    int kinematic = 0;
    for (int c = 0; c < nsh; ++c) kinematic |= s->bodies[c].obstacle;
    if (!kinematic)
      s->body_contact = IPCC_BODY_CONTACT_OBSTACLES_ONLY;
    else if (!ipc_txt_unsupported(
                 p, p->self_collision_off, "selfCollisionOff",
                 "with kinematic shapes: in IPC they then touch nothing, in ipcc every "
                 "obstacle touches the bodies"))
      return 0;
  }

  /* built-in scenarios, on the shapes' final positions */
  double dt = p->dt;
  int sl = p->script_line;
  if (p->script == SCRIPT_DRAGRIGHT || p->script == SCRIPT_TWIST ||
      p->script == SCRIPT_STRETCH_PAUSE) {
    double ratio = p->script == SCRIPT_DRAGRIGHT ? 0.04
                   : p->script == SCRIPT_TWIST   ? p->handle_ratio
                                                 : 0.01;
    double left = pl.lo[0] + ratio * ext[0], right = pl.hi[0] - ratio * ext[0];
    /* dragright lets a body go once it lies right of every meshCO (of -infinity without
       one: IPC then never drags) */
    double mco_right = -INFINITY;
    for (int c = nsh; c < p->nshapes; ++c) {
      const ipcc_body_def *o = &s->bodies[c];
      const ipcc_mesh *om = &p->meshes[p->shapes[order[c]].mesh].m;
      double R[9];
      rot_xyz(R, o->rotation);
      for (int i = 0; i < om->nverts; ++i) {
        const double *q = om->x + 3 * (size_t)i;
        double x = o->translation[0] + o->scale[0] * (R[0] * q[0] + R[1] * q[1] + R[2] * q[2]);
        mco_right = fmax(mco_right, x);
      }
    }
    double center[3], t_stop = INFINITY;
    for (int d = 0; d < 3; ++d) center[d] = 0.5 * (pl.lo[d] + pl.hi[d]);
    if (p->script ==
        SCRIPT_STRETCH_PAUSE) { /* pauses when the last left handle vertex passes x = -0.28 */
      double x0 = NAN;
      for (int i = 0; i < nX; ++i)
        if (pl.X[3 * (size_t)i] < left) x0 = pl.X[3 * (size_t)i];
      int kk = 0;
      while (!isnan(x0) && x0 - kk * dt >= -0.28 && kk < 100000000) ++kk;
      t_stop = ipc_txt_switch_time(kk, dt);
    }
    for (int c = 0; c < nsh; ++c) {
      ipcc_body_def *b = &s->bodies[c];
      if (b->obstacle) continue;
      int nv = pl.off[c + 1] - pl.off[c];
      for (int side = 0; side < 2; ++side) {
        if (p->script == SCRIPT_DRAGRIGHT && side == 0) continue;
        int *verts = IPC_NEW(int, (size_t)nv), n = 0;
        for (int i = 0; i < nv; ++i) {
          double x = pl.X[3 * (size_t)(pl.off[c] + i)];
          if (side == 0 ? x < left : (x > right && !(x < left))) verts[n++] = i;
        }
        if (n == 0) {
          ipc_free(verts);
          continue;
        }
        if (p->script == SCRIPT_STRETCH_PAUSE) {
          int *hold = IPC_NEW(int, (size_t)n);
          memcpy(hold, verts, (size_t)n * sizeof(int));
          if (t_stop > 0)
            ipc_txt_add_dirichlet(b, verts, n, 0.0, t_stop)->velocity[0] = side ? 1.0 : -1.0;
          else
            ipc_free(verts);
          ipc_txt_add_dirichlet(b, hold, n, t_stop, INFINITY);
        } else if (p->script == SCRIPT_DRAGRIGHT) {
          ipcc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, 0.0, INFINITY);
          d->velocity[0] = 0.5;
          d->has_release_x = 1;
          d->release_x = mco_right;
        } else {
          ipcc_dirichlet_def *d = ipc_txt_add_dirichlet(b, verts, n, 0.0, INFINITY);
          d->angular_velocity[0] = (side ? 1.0 : -1.0) * 0.4 * pi;
          d->has_center = 1;
          memcpy(d->center, center, sizeof d->center);
        }
      }
    }
  } else if (p->script == SCRIPT_DCO_ROT_CYLINDERS || p->script == SCRIPT_DCO_SQUASH6) {
    int need = p->script == SCRIPT_DCO_SQUASH6 ? 6 : 4;
    if (nsh < need + 1)
      return ipc_txt_bad(p, sl, "script '%s' moves the first %d shapes; the script has %d",
                         ipc_txt_script_names[p->script], need, nsh);
    static const double w[4][3] = {{0.5, 0, 0}, {-0.5, 0, 0}, {0, 0, -0.5}, {0, 0, 0.5}};
    static const double v[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    double t_flip = INFINITY;
    if (p->script == SCRIPT_DCO_SQUASH6) { /* reverses once shapes 0 and 1 are 0.1 apart in x */
      double r0 = -INFINITY, l1 = INFINITY;
      for (int i = pl.off[0]; i < pl.off[1]; ++i) r0 = fmax(r0, pl.X[3 * (size_t)i]);
      for (int i = pl.off[1]; i < pl.off[2]; ++i) l1 = fmin(l1, pl.X[3 * (size_t)i]);
      int kk = 0;
      while (l1 - r0 - 2.0 * kk * dt >= 0.1 && kk < 100000000) ++kk;
      t_flip = ipc_txt_switch_time(kk, dt);
    }
    for (int c = 0; c < need; ++c) {
      ipcc_body_def *b = &s->bodies[c];
      b->obstacle = 1;
      int nv = pl.off[c + 1] - pl.off[c];
      if (p->script == SCRIPT_DCO_ROT_CYLINDERS) {
        for (int d = 0; d < 3; ++d) b->angular_velocity[d] = w[c][d] * pi;
      } else {
        if (t_flip > 0)
          memcpy(ipc_txt_add_dirichlet(b, ipc_txt_all_verts(nv), nv, 0.0, t_flip)->velocity, v[c],
                 24);
        ipcc_dirichlet_def *d =
            ipc_txt_add_dirichlet(b, ipc_txt_all_verts(nv), nv, t_flip, INFINITY);
        for (int q = 0; q < 3; ++q) d->velocity[q] = -v[c][q];
      }
    }
  } else if (p->script == SCRIPT_DCO_SEGBED_SQUASH) {
    /* the kinematic shapes in the second half move down at 1 m/s until the two halves
       are 0.1 apart */
    int half = (nsh + 1) / 2;
    double top = INFINITY, bottom = -INFINITY;
    for (int c = 0; c < nsh; ++c) {
      if (!s->bodies[c].obstacle) continue;
      for (int i = pl.off[c]; i < pl.off[c + 1]; ++i) {
        double y = pl.X[3 * (size_t)i + 1];
        if (c >= half)
          top = fmin(top, y);
        else
          bottom = fmax(bottom, y);
      }
    }
    int kk = 0;
    while (top - bottom - kk * dt > 0.1 && kk < 100000000) ++kk;
    double t_stop = ipc_txt_switch_time(kk, dt);
    for (int c = half; c < nsh && t_stop > 0; ++c) {
      ipcc_body_def *b = &s->bodies[c];
      if (!b->obstacle) continue;
      int nv = pl.off[c + 1] - pl.off[c];
      ipc_txt_add_dirichlet(b, ipc_txt_all_verts(nv), nv, 0.0, t_stop)->velocity[1] = -1.0;
    }
  } else if (p->script == SCRIPT_MESH_SEQ_FROM_FILE) {
    /* the first kinematic shape follows FOLDER/1.obj, 2.obj, ... (step k reads k.obj) */
    for (int c = 0; c < nsh; ++c) {
      const txt_shape *sh = &p->shapes[order[c]];
      if (sh->kind == KIND_TET) continue;
      if (!ipc_txt_mesh_sequence(p, &s->bodies[c], sh, p->seq_folder, sl, 1)) return 0;
      break;
    }
  } else if (p->script >= SCRIPT_HANG && !ipc_txt_more_scenarios(p, s, &pl, nsh, nX)) {
    return 0;
  }

  /* scene */
  s->nplanes = p->nplanes;
  s->planes = p->planes;
  p->planes = NULL;
  p->nplanes = 0;
  s->time_step = p->dt;
  s->duration = p->duration;
  if (p->gravity_off) s->gravity[1] = 0.0;
  s->integrator = p->integrator;
  s->warm_start = p->warm_start;
  /* IPC damps with C = (k / h) K; a ratio r > 0 sets k = 3/4 r h^3 (Config.cpp). ipcc's
     C = beta h K, so beta = k / h^2 */
  if (p->damping_ratio > 0)
    s->damping_stiffness = 0.75 * p->damping_ratio * p->dt;
  else
    s->damping_stiffness = p->damping_stiff / (p->dt * p->dt);
  s->bbox_diag = pdiag;
  /* IPC's kappa from tuning[0] is where its adaptive kappa starts each step, not a fixed one */
  s->kappa = 0.0;
  s->kappa_initial = p->tuning[0];
  s->dhat = p->use_abs ? p->tuning[1] / pdiag : p->tuning[1];
  s->dhat_target = p->use_abs ? p->tuning[2] / pdiag : p->tuning[2];
  s->script_rotation_bbox = 1;
  s->plane_friction_quadratic = 1;
  s->ipc_newton_path = 1;
  /* IPC's slip threshold is epsv times the time step its Optimizer's constructor sets before
     the script's own (setTime(10, 0.025)): fricDHat0 = (epsv 0.025)^2, whatever dt the script
     gives; ipcc's is epsv h */
  s->epsv = p->tuning[4] * (IPC_TXT_CONSTRUCTOR_DT / p->dt);
  s->source_line_epsv = p->epsv_line;
  s->source_line_damping = p->damping_line;
  s->epsv_absolute = p->use_abs;
  /* IPC's Newton tolerance (targetGRes, on the Newton direction's largest entry) is tol times
     diagonal times dt, and tol itself with useAbsParameters: not scaled by dt then */
  s->newton_tol = p->use_abs ? p->tol / (pdiag * p->dt) : p->tol;
  s->friction_iterations = p->friction_iterations;
  s->friction_tolerance = 0.0; /* IPC re-lags until the Newton direction is within the tolerance */
  /* IPC: selfFric between shapes, a collision object's own coefficient against it */
  s->friction_combine = IPCC_FRICTION_OBSTACLE;
  /* the scripts a scenario sets up come from its 'script' line (else the shape's): the errors
     found when the scene is built name a line, not a JSON key */
  for (int c = 0; c < s->nbodies; ++c) {
    ipcc_body_def *b = &s->bodies[c];
    int line = p->script_line > 0 ? p->script_line : b->source_line;
    for (int q = 0; q < b->ndirichlet; ++q)
      if (b->dirichlet[q].source_line <= 0) b->dirichlet[q].source_line = line;
    for (int q = 0; q < b->nneumann; ++q)
      if (b->neumann[q].source_line <= 0) b->neumann[q].source_line = line;
  }
  return 1;
}
