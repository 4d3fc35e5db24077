/* scripted (Dirichlet) motion; see dirichlet.h */
#include "core/dirichlet.h"

#include <math.h>
#include <string.h>

/* Rodrigues rotation of r by angle |omega| h about omega */
static void rotate(double out[3], const double omega[3], double h, const double r[3]) {
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

static int active(const ipc_dirichlet *d, double t) {
  return t >= d->t_begin && t < d->t_end;
}

void ipc_dirichlet_targets(const ipc_model *m, const double *center, double h, double t,
                           const double *x, double *target, unsigned char *scripted) {
  for (int k = 0; k < m->ndirichlet; ++k) {
    const ipc_dirichlet *d = &m->dirichlet[k];
    if (!active(d, t)) continue;
    const double *c = center + 3 * k;
    for (int i = 0; i < d->nverts; ++i) {
      int v = d->verts[i];
      double r[3], rr[3];
      for (int j = 0; j < 3; ++j) r[j] = x[3 * v + j] - c[j];
      rotate(rr, d->angular_velocity, h, r);
      for (int j = 0; j < 3; ++j) target[3 * v + j] = c[j] + rr[j] + d->velocity[j] * h;
      scripted[v] = 1;
    }
  }
}

void ipc_dirichlet_advance_centers(const ipc_model *m, double *center, double h, double t) {
  for (int k = 0; k < m->ndirichlet; ++k) {
    const ipc_dirichlet *d = &m->dirichlet[k];
    if (!active(d, t)) continue;
    for (int j = 0; j < 3; ++j) center[3 * k + j] += d->velocity[j] * h;
  }
}
