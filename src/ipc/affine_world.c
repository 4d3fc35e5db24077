/* affine bodies in the IPC world (docs/affine-integration.md): body a has the state
   q_a = (p, A e1, A e2, A e3) and its vertices move as x_i = J_i q_a = sum_k w_ik q_a,k with
   w_i = (1, xbar_i) and xbar_i the vertex's initial position (the model's x0; core/rest.h
   with the world's origin as the rest coordinates' origin). The Newton
   system gets four pseudo-vertices per body, one per 3-block of q, so every Hessian block
   stays a 3x3 block; the real vertices are fixed in it and follow q. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "ipc/world_internal.h"

void ipc_affine_world_init(ipc_world *w, const ipcc_scene_def *def) {
  const ipc_model *m = &w->m;
  int na = w->rest.naff;
  w->nsys = m->nverts + 4 * na;
  if (na == 0) return;
  w->aff_pv = IPC_NEW(int, 4 * (size_t)na);
  w->aff_grow = IPC_NEW0(double, m->nverts);
  w->aff_fixed = IPC_NEW0(unsigned char, na);
  w->aff_penalty = IPC_NEW0(double, na);
  if (def->damping_stiffness > 0) {
    w->aff_damp = IPC_NEW0(double, 9 * (size_t)na);
    for (int k = 0; k < na; ++k)
      w->aff_damp[9 * k] = w->aff_damp[9 * k + 4] = w->aff_damp[9 * k + 8] = 1.0;
  }
  double **arrays[] = {&w->aqn, &w->aqt, &w->aqe, &w->adq};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k)
    *arrays[k] = IPC_NEW0(double, 12 * (size_t)na);
  for (int a = 0; a < na; ++a) {
    const ipc_body *bd = &m->bodies[w->rest.aff_body[a]];
    for (int k = 0; k < 4; ++k) w->aff_pv[4 * a + k] = m->nverts + 4 * a + k;
    /* no tet elasticity: the per-tet derivatives the assembly adds stay zero */
    memset(w->tet_g + 12 * (size_t)bd->t0, 0, 12 * (size_t)bd->nt * sizeof(double));
    memset(w->tet_H + 144 * (size_t)bd->t0, 0, 144 * (size_t)bd->nt * sizeof(double));
  }
  ipc_rest_affine_start(&w->rest, m, w->s.x, w->s.v, w->s.q, w->s.qd);
}

void ipc_affine_world_free(ipc_world *w) {
  ipc_free(w->aff_pv);
  ipc_free(w->aff_grow);
  ipc_free(w->aff_fixed);
  ipc_free(w->aff_penalty);
  ipc_free(w->aff_damp);
  double *arrays[] = {w->aqn, w->aqt, w->aqe, w->adq};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) ipc_free(arrays[k]);
}

void ipc_affine_world_positions(const ipc_world *w, const double *q, double *x) {
  if (w->rest.naff > 0) ipc_rest_map(&w->rest, &w->m, q, x);
}

void ipc_affine_world_predict(ipc_world *w, double t) {
  if (w->rest.naff == 0) return;
  /* generalized forces: gravity, and the Neumann loads active at t as the vertex forces
     m_i a on their vertices (as a deformable body gets them), sum_i m_i J_i^T a */
  double *f = IPC_NEW0(double, 12 * (size_t)w->rest.naff);
  for (int a = 0; a < w->rest.naff; ++a)
    ipc_affine_uniform_force(&w->rest.aff_mom[a], w->m.params.gravity, f + 12 * (size_t)a);
  ipc_model_affine_neumann(&w->m, w->rest.vert_aff, NULL, t, f);
  /* external forces set from outside: sum_i J_i^T f_i */
  if (w->world.force) ipc_rest_affine_forces(&w->rest, &w->m, w->world.force, f);
  /* c h^2 M^-1 f, as the vertices' c h^2 (g + neumann): ipc_affine_predict scales by h^2,
     so f is scaled by c (1 for implicit Euler, beta for Newmark) */
  double c = w->c_elastic, h = w->h;
  int newmark = w->m.params.integrator == IPCC_NEWMARK;
  for (int k = 0; k < 12 * w->rest.naff; ++k) f[k] *= c;
  for (int a = 0; a < w->rest.naff; ++a) {
    double *q = w->s.q + 12 * (size_t)a, *qt = w->aqt + 12 * (size_t)a;
    memcpy(w->aqn + 12 * (size_t)a, q, 12 * sizeof(double));
    ipc_affine_predict(&w->rest.aff_mom[a], q, w->s.qd + 12 * (size_t)a, h, f + 12 * (size_t)a, qt);
    if (newmark)
      for (int k = 0; k < 12; ++k)
        qt[k] += h * h * (0.5 - IPC_NEWMARK_BETA) * w->s.qdd[12 * (size_t)a + k];
  }
  ipc_free(f);
}

void ipc_affine_world_velocities(ipc_world *w) {
  if (w->rest.naff == 0) return;
  double h = w->h;
  if (w->m.params.integrator == IPCC_NEWMARK) {
    const double beta = IPC_NEWMARK_BETA, gamma = IPC_NEWMARK_GAMMA;
    for (int k = 0; k < 12 * w->rest.naff; ++k) {
      double qhat = w->aqn[k] + h * w->s.qd[k] + h * h * (0.5 - beta) * w->s.qdd[k];
      double anew = (w->s.q[k] - qhat) / (beta * h * h);
      w->s.qd[k] += h * ((1 - gamma) * w->s.qdd[k] + gamma * anew);
      w->s.qdd[k] = anew;
    }
    ipc_rest_map(&w->rest, &w->m, w->s.qdd, w->s.a);
  } else {
    for (int k = 0; k < 12 * w->rest.naff; ++k) w->s.qd[k] = (w->s.q[k] - w->aqn[k]) / h;
  }
  ipc_rest_map(&w->rest, &w->m, w->s.qd, w->s.v);
}

void ipc_affine_world_initial_acceleration(ipc_world *w) {
  if (w->rest.naff == 0) return;
  double *f = IPC_NEW0(double, 12 * (size_t)w->rest.naff);
  for (int a = 0; a < w->rest.naff; ++a)
    ipc_affine_uniform_force(&w->rest.aff_mom[a], w->m.params.gravity, f + 12 * (size_t)a);
  ipc_model_affine_neumann(&w->m, w->rest.vert_aff, NULL, 0.0, f);
  const double zero[12] = {0};
  for (int a = 0; a < w->rest.naff; ++a) /* M^-1 f: the prediction from rest with h = 1 */
    ipc_affine_predict(&w->rest.aff_mom[a], zero, zero, 1.0, f + 12 * (size_t)a,
                       w->s.qdd + 12 * (size_t)a);
  ipc_free(f);
  ipc_rest_map(&w->rest, &w->m, w->s.qdd, w->s.a);
}

void ipc_affine_world_rotated_prediction(const ipc_world *w, double *q) {
  memcpy(q, w->aqt, 12 * (size_t)w->rest.naff * sizeof(double));
  for (int a = 0; a < w->rest.naff; ++a) {
    double R[9], *A = q + 12 * (size_t)a + 3;
    if (w->pre.aff_scripted[a]) { /* a kinematic mover stays where its script put it */
      memcpy(q + 12 * (size_t)a, w->s.q + 12 * (size_t)a, 12 * sizeof(double));
      continue;
    }
    if (ipc_affine_polar(A, R) == 0) memcpy(A, R, sizeof R);
  }
}

/* the strain damping coefficient of affine body a: beta h kappa_A V (damping.h) */
static double damp_coef(const ipc_world *w, int a) {
  return w->m.params.damping_stiffness * w->h * w->m.bodies[w->rest.aff_body[a]].affine_stiffness *
         w->rest.aff_mom[a].volume;
}

double ipc_affine_world_body_energy(const ipc_world *w, const double *q, int a) {
  double h2 = w->c_elastic * w->h * w->h;
  const ipc_body *bd = &w->m.bodies[w->rest.aff_body[a]];
  const double *qa = q + 12 * (size_t)a;
  double e = ipc_affine_inertia(&w->rest.aff_mom[a], qa, w->aqt + 12 * (size_t)a, NULL);
  e += h2 * ipc_affine_orth_energy(qa, bd->affine_stiffness, w->rest.aff_mom[a].volume);
  if (w->aff_penalty[a] > 0)
    e += w->aff_penalty[a] *
         ipc_affine_inertia(&w->rest.aff_mom[a], qa, w->pre.qs + 12 * (size_t)a, NULL);
  if (w->aff_damp) e += ipc_affine_strain_energy(qa, w->aff_damp + 9 * (size_t)a, damp_coef(w, a));
  return e;
}

typedef struct pull_job {
  const ipc_world *w;
  double *g;
  const unsigned char *skip; /* (nbodies) or NULL */
} pull_job;

/* affine bodies [begin, end): each one's vertex gradients, in vertex order, onto its own
   pseudo-vertices */
static double pull_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const pull_job *j = ctx;
  const ipc_world *w = j->w;
  double *g = j->g;
  for (size_t a = begin; a < end; ++a) {
    const ipc_body *bd = &w->m.bodies[w->rest.aff_body[a]];
    if (j->skip && j->skip[w->rest.aff_body[a]]) {
      memset(g + 3 * (size_t)bd->v0, 0, 3 * (size_t)bd->nv * sizeof(double));
      continue;
    }
    for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) {
      double wt[4], *gi = g + 3 * (size_t)i;
      ipc_rest_weights(&w->rest, &w->m, i, wt);
      for (int k = 0; k < 4; ++k)
        for (int d = 0; d < 3; ++d) g[3 * (size_t)w->aff_pv[4 * a + k] + d] += wt[k] * gi[d];
      gi[0] = gi[1] = gi[2] = 0.0;
    }
  }
  return 0.0;
}

void ipc_affine_world_pull(const ipc_world *w, double *g) {
  ipc_affine_world_pull_skip(w, g, NULL);
}

void ipc_affine_world_pull_skip(const ipc_world *w, double *g, const unsigned char *skip) {
  pull_job j = {w, g, skip};
  ipc_parallel_sum((size_t)w->rest.naff, 16, pull_range, &j);
}

void ipc_affine_world_add(const ipc_world *w, double *g, ipc_sparse *A, int set) {
  for (int a = 0; a < w->rest.naff; ++a) ipc_affine_world_add_body(w, g, A, set, a);
}

void ipc_affine_world_add_body(const ipc_world *w, double *g, ipc_sparse *A, int set, int a) {
  double h2 = w->c_elastic * w->h * w->h;
  const ipc_body *bd = &w->m.bodies[w->rest.aff_body[a]];
  const ipc_affine_moments *mom = &w->rest.aff_mom[a];
  const double *qa = w->s.q + 12 * (size_t)a;
  double ka = bd->affine_stiffness, gi[12], go[12], gs[12] = {0}, H[144], M[144];
  double pen = w->aff_penalty[a];
  ipc_affine_inertia(mom, qa, w->aqt + 12 * (size_t)a, gi);
  ipc_affine_orth_gradient(qa, ka, mom->volume, go);
  if (pen > 0) ipc_affine_inertia(mom, qa, w->pre.qs + 12 * (size_t)a, gs);
  /* the pseudo-vertices of a body are consecutive from aff_pv[4a] */
  double *gp = g ? g + 3 * (size_t)w->aff_pv[4 * a] : NULL;
  for (int k = 0; k < 12 && gp; ++k) gp[k] += gi[k] + h2 * go[k] + pen * gs[k];
  double Hd[144];
  if (w->aff_damp && gp) {
    ipc_affine_strain_gradient(qa, w->aff_damp + 9 * (size_t)a, damp_coef(w, a), Hd);
    for (int k = 0; k < 12; ++k) gp[k] += Hd[k];
  }
  if (!A) return;
  ipc_affine_orth_hessian_psd(qa, ka, mom->volume, H);
  ipc_affine_mass_matrix(mom, M);
  for (int k = 0; k < 144; ++k) H[k] = (1.0 + pen) * M[k] + h2 * H[k];
  if (w->aff_damp) {
    ipc_affine_strain_hessian_psd(qa, w->aff_damp + 9 * (size_t)a, damp_coef(w, a), Hd);
    for (int k = 0; k < 144; ++k) H[k] += Hd[k];
  }
  ipc_sparse_add_element(A, set, a, H);
}

/* slot of vertex id in ids (n of them), appended when new */
static int slot(int *ids, int *n, int id) {
  for (int k = 0; k < *n; ++k)
    if (ids[k] == id) return k;
  ids[*n] = id;
  return (*n)++;
}

int ipc_affine_world_targets(const ipc_world *w, int nv, const int *verts, int *ids) {
  int nu = 0;
  for (int k = 0; k < nv; ++k) {
    int a = w->rest.naff > 0 ? w->rest.vert_aff[verts[k]] : -1;
    if (a < 0)
      slot(ids, &nu, verts[k]);
    else
      for (int j = 0; j < 4; ++j) slot(ids, &nu, w->aff_pv[4 * a + j]);
  }
  return nu;
}

int ipc_affine_world_map(const ipc_world *w, int nv, const int *verts, const double *H,
                         int max_targets, int *ids, double *Hm) {
  int any = 0;
  for (int k = 0; k < nv && w->rest.naff > 0; ++k) any |= w->rest.vert_aff[verts[k]] >= 0;
  if (!any) return 0;
  /* x_local = T y with y over the unique targets (real or pseudo): T[k][u] scalar weights */
  enum { MAXV = 4, MAXU = 16 };
  int nu = 0;
  double T[MAXV][MAXU];
  memset(T, 0, sizeof T);
  for (int k = 0; k < nv; ++k) {
    int a = w->rest.vert_aff[verts[k]];
    if (a < 0) {
      T[k][slot(ids, &nu, verts[k])] += 1.0;
      continue;
    }
    double wt[4];
    ipc_rest_weights(&w->rest, &w->m, verts[k], wt);
    for (int j = 0; j < 4; ++j) T[k][slot(ids, &nu, w->aff_pv[4 * a + j])] += wt[j];
  }
  if (nu > max_targets) return -1;
  /* T^T H T, block by block (each block of T is a scalar times I3), in two passes:
     L = T^T H (nu x nv blocks), then L T */
  double L[(3 * MAXU) * (3 * MAXV)];
  int n3 = 3 * nu, k3 = 3 * nv;
  memset(L, 0, (size_t)n3 * (size_t)k3 * sizeof(double));
  memset(Hm, 0, (size_t)n3 * (size_t)n3 * sizeof(double));
  for (int k = 0; k < nv; ++k)
    for (int u = 0; u < nu; ++u) {
      double t = T[k][u];
      if (t == 0.0) continue;
      for (int i = 0; i < 3; ++i) {
        const double *hr = H + (size_t)(3 * k + i) * k3;
        double *lr = L + (size_t)(3 * u + i) * k3;
        for (int c = 0; c < k3; ++c) lr[c] += t * hr[c];
      }
    }
  for (int l = 0; l < nv; ++l)
    for (int v = 0; v < nu; ++v) {
      double t = T[l][v];
      if (t == 0.0) continue;
      for (int r = 0; r < n3; ++r)
        for (int j = 0; j < 3; ++j)
          Hm[(size_t)r * n3 + 3 * v + j] += t * L[(size_t)r * k3 + 3 * l + j];
    }
  return nu;
}

void ipc_affine_world_sparse_add(const ipc_world *w, ipc_sparse *A, int nv, const int *verts,
                                 const double *H) {
  int ids[16];
  double Hm[48 * 48];
  int nu = ipc_affine_world_map(w, nv, verts, H, 16, ids, Hm);
  if (nu == 0)
    ipc_sparse_add(A, nv, verts, H);
  else
    ipc_sparse_add(A, nu, ids, Hm);
}

void ipc_affine_world_direction(ipc_world *w, double *p) {
  if (w->rest.naff == 0) return;
  for (int a = 0; a < w->rest.naff; ++a)
    memcpy(w->adq + 12 * (size_t)a, p + 3 * (size_t)w->aff_pv[4 * a], 12 * sizeof(double));
  ipc_rest_map(&w->rest, &w->m, w->adq, p);
}

typedef struct sag_job {
  const ipc_world *w;
  double alpha, *grow;
} sag_job;

static double sag_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const sag_job *j = ctx;
  const ipc_world *w = j->w;
  for (size_t a = begin; a < end; ++a) {
    const ipc_body *b = &w->m.bodies[w->rest.aff_body[a]];
    double sa = ipc_affine_curved_sag(w->s.q + 12 * a, w->adq + 12 * a, j->alpha, b->nv,
                                      w->s.x + 3 * (size_t)b->v0);
    /* 1% over the bound: rounding in the trial points */
    for (int i = b->v0; i < b->v0 + b->nv; ++i) j->grow[i] = 1.01 * sa;
  }
  return 0.0;
}

/* body by body on the threads */
void ipc_affine_world_sag(const ipc_world *w, double alpha, double *grow) {
  sag_job j = {w, alpha, grow};
  ipc_parallel_sum((size_t)w->rest.naff, 16, sag_range, &j);
}
