/* Rayleigh stiffness damping; see damping.h */
#include "ipc/damping.h"

#include <string.h>

#include "elastic/elasticity.h"

void ipc_damping_update(ipc_world *w) {
  const ipc_model *m = &w->m;
  double c = m->params.damping_stiffness * w->h;
  if (!(c > 0)) return;
  /* affine bodies: the Gram matrix A^T A at the start of the step, for their strain
     damping (ipc_affine_strain_energy, applied in affine_world.c) */
  for (int a = 0; a < w->rest.naff; ++a)
    ipc_affine_gram(w->s.q + 12 * (size_t)a, w->aff_damp + 9 * (size_t)a);
  /* (an affine body's tets keep the zero blocks they were allocated with) */
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt == 0 || bd->affine) continue;
    size_t t0 = (size_t)bd->t0;
    ipc_tets_derivatives((ipc_material_model)w->rest.tet_model[t0], bd->mu, bd->lambda, bd->nt,
                         m->tets + 4 * t0, w->rest.DmInv + 9 * t0, w->rest.vol + t0, w->s.x, NULL,
                         w->tet_g + 12 * t0, w->damp_H + 144 * t0, ipc_world_elastic_project(w));
  }
  for (size_t k = 0; k < 144 * (size_t)m->ntets; ++k) w->damp_H[k] *= c;
}

/* the displacement x - xn of tet t's four vertices (12), zero on fixed vertices */
static void tet_displacement(const ipc_world *w, const double *x, int t, double d[12]) {
  const int *tt = w->m.tets + 4 * (size_t)t;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j) {
      size_t i = 3 * (size_t)tt[k] + j;
      d[3 * k + j] = w->fixed[tt[k]] ? 0.0 : x[i] - w->xn[i];
    }
}

double ipc_damping_energy(const ipc_world *w, const double *x) {
  return ipc_damping_energy_tets(w, x, 0, w->m.ntets);
}

double ipc_damping_energy_tets(const ipc_world *w, const double *x, int t0, int nt) {
  if (!(w->m.params.damping_stiffness > 0)) return 0.0;
  double e = 0;
  for (int t = t0; t < t0 + nt; ++t) {
    double d[12];
    tet_displacement(w, x, t, d);
    const double *C = w->damp_H + 144 * (size_t)t;
    for (int a = 0; a < 12; ++a) {
      double r = 0;
      for (int b = 0; b < 12; ++b) r += C[12 * a + b] * d[b];
      e += 0.5 * d[a] * r;
    }
  }
  return e;
}

void ipc_damping_gradient(const ipc_world *w, const double *x, double *g) {
  ipc_damping_gradient_tets(w, x, 0, w->m.ntets, g);
}

void ipc_damping_gradient_tets(const ipc_world *w, const double *x, int t0, int t1, double *g) {
  if (!(w->m.params.damping_stiffness > 0)) return;
  for (int t = t0; t < t1; ++t) {
    double d[12];
    tet_displacement(w, x, t, d);
    const double *C = w->damp_H + 144 * (size_t)t;
    const int *tt = w->m.tets + 4 * (size_t)t;
    for (int a = 0; a < 12; ++a) {
      double r = 0;
      for (int b = 0; b < 12; ++b) r += C[12 * a + b] * d[b];
      g[3 * (size_t)tt[a / 3] + a % 3] += r;
    }
  }
}
