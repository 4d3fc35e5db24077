/* scripted (Dirichlet) motion; see dirichlet.h */
#include "core/dirichlet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

void ipc_dirichlet_rotate(double out[3], const double omega[3], double h, const double r[3]) {
  double th = sqrt(omega[0] * omega[0] + omega[1] * omega[1] + omega[2] * omega[2]) * h;
  if (th == 0) {
    memcpy(out, r, 3 * sizeof(double));
    return;
  }
  double k[3] = {omega[0] * h / th, omega[1] * h / th, omega[2] * h / th};
  double c = cos(th), s = sin(th);
  double kxr[3] = {k[1] * r[2] - k[2] * r[1], k[2] * r[0] - k[0] * r[2], k[0] * r[1] - k[1] * r[0]};
  double kr = k[0] * r[0] + k[1] * r[1] + k[2] * r[2];
  for (int d = 0; d < 3; ++d) out[d] = r[d] * c + kxr[d] * s + k[d] * kr * (1 - c);
}

int ipc_dirichlet_active(const ipc_dirichlet *d, double t) {
  return t >= d->t_begin && t < d->t_end;
}

/* IPC's scripted step of a region (bbox_rotation): about the centre of the region's bounding
   box at x, by Rx Ry Rz of the angles w h, then translated by v h */
static void bbox_rotation_targets(const ipc_dirichlet *d, double h, const double *x,
                                  double *target) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < d->nverts; ++i)
    for (int j = 0; j < 3; ++j) {
      lo[j] = fmin(lo[j], x[3 * d->verts[i] + j]);
      hi[j] = fmax(hi[j], x[3 * d->verts[i] + j]);
    }
  double c[3], a[3], R[9];
  for (int j = 0; j < 3; ++j) {
    c[j] = 0.5 * (lo[j] + hi[j]);
    a[j] = d->angular_velocity[j] * h;
  }
  ipc_rotation_xyz(R, a);
  for (int i = 0; i < d->nverts; ++i) {
    const double *p = x + 3 * d->verts[i];
    double r[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    for (int j = 0; j < 3; ++j)
      target[3 * d->verts[i] + j] =
          R[3 * j] * r[0] + R[3 * j + 1] * r[1] + R[3 * j + 2] * r[2] + c[j] + d->velocity[j] * h;
  }
}

void ipc_dirichlet_release(ipc_model *m, double t, const double *x) {
  for (int k = 0; k < m->ndirichlet; ++k) {
    ipc_dirichlet *d = &m->dirichlet[k];
    if (!d->has_release_x || !ipc_dirichlet_active(d, t)) continue;
    int passed = 1;
    for (int i = d->rel_v0; i < d->rel_v0 + d->rel_nv && passed; ++i)
      passed = x[3 * (size_t)i] > d->release_x;
    if (passed) d->t_end = t;
  }
}

void ipc_dirichlet_targets(const ipc_model *m, const double *center, double h, double t,
                           const double *x, double *target, unsigned char *scripted) {
  for (int k = 0; k < m->ndirichlet; ++k) {
    const ipc_dirichlet *d = &m->dirichlet[k];
    if (!ipc_dirichlet_active(d, t)) continue;
    for (int i = 0; i < d->nverts; ++i) scripted[d->verts[i]] = 1;
    if (d->bbox_rotation) {
      bbox_rotation_targets(d, h, x, target);
      continue;
    }
    const double *c = center + 3 * k;
    for (int i = 0; i < d->nverts; ++i) {
      int v = d->verts[i];
      double r[3], rr[3];
      for (int j = 0; j < 3; ++j) r[j] = x[3 * v + j] - c[j];
      ipc_dirichlet_rotate(rr, d->angular_velocity, h, r);
      for (int j = 0; j < 3; ++j) target[3 * v + j] = c[j] + rr[j] + d->velocity[j] * h;
    }
  }
}

ipcc_status ipc_mesh_seq_targets(const ipc_model *m, int step, double *target,
                                 unsigned char *scripted, ipcc_error *err) {
  for (int k = 0; k < m->nseq; ++k) {
    const ipc_mesh_seq *q = &m->seq[k];
    size_t n = strlen(q->folder) + strlen(q->ext) + 32;
    char *path = ipc_malloc(n);
    snprintf(path, n, "%s/%lld%s", q->folder, (long long)step + q->start, q->ext);
    ipcc_mesh me;
    ipcc_status st = ipcc_mesh_read(path, &me, err);
    if (st == IPCC_OK && me.nverts != q->nv)
      st = ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: %d vertices, expected %d (the mesh sequence's body)", path, me.nverts,
                         q->nv);
    if (st == IPCC_OK) {
      memcpy(target + 3 * (size_t)q->v0, me.x, 3 * (size_t)q->nv * sizeof(double));
      memset(scripted + q->v0, 1, (size_t)q->nv);
    }
    ipcc_mesh_free(&me); /* zeroed on failure */
    ipc_free(path);
    if (st != IPCC_OK) return st;
  }
  return IPCC_OK;
}

void ipc_dirichlet_advance_centers(const ipc_model *m, double *center, double h, double t) {
  for (int k = 0; k < m->ndirichlet; ++k) {
    const ipc_dirichlet *d = &m->dirichlet[k];
    if (!ipc_dirichlet_active(d, t)) continue;
    for (int j = 0; j < 3; ++j) center[3 * k + j] += d->velocity[j] * h;
  }
}

void ipc_dirichlet_affine_target(const ipc_dirichlet *d, const double c[3], double h,
                                 const double q[12], double qs[12]) {
  double r[3];
  for (int j = 0; j < 3; ++j) r[j] = q[j] - c[j];
  ipc_dirichlet_rotate(qs, d->angular_velocity, h, r);
  for (int j = 0; j < 3; ++j) qs[j] += c[j] + d->velocity[j] * h;
  for (int k = 1; k < 4; ++k) ipc_dirichlet_rotate(qs + 3 * k, d->angular_velocity, h, q + 3 * k);
}

int ipc_dirichlet_affine_scripted(const ipc_model *m, const double *center, int d0, int nd,
                                  double t, double h, const double q[12], double qs[12]) {
  int any = 0;
  for (int k = d0; k < d0 + nd; ++k) {
    if (!ipc_dirichlet_active(&m->dirichlet[k], t)) continue;
    ipc_dirichlet_affine_target(&m->dirichlet[k], center + 3 * (size_t)k, h, q, qs);
    any = 1;
  }
  return any;
}
