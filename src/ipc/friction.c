/* lagged variational friction (Li et al. 2020, "Incremental Potential Contact", sec. 5).
   Maximal dissipation with the Coulomb constraint, mollified and lagged, gives per contact
     D_k(x) = N_k Phi(|u_k|),  u_k = T_k^T r_k(x),  r_k = sum_i w_ki (x_i - xn_i)
   with T_k (3 x 2), w_k and N_k frozen at the lagged state. With eps = eps_v h:
     f1(s) = 2s/eps - s^2/eps^2 (s < eps), 1 beyond;  f0 = int f1 + eps/3 (eq. 15-16)
   and a coefficient mu(s) that is mu_s up to eps and blends to mu_k by the C1 cubic
   mu_s + (mu_k - mu_s)(3 - 2z) z^2, z = s/eps - 1 in [0, 1] (equal coefficients give IPC's
   model exactly). phi = Phi' = mu f1; Phi(s) = mu_s f0(s) + (mu_k - mu_s) G(s) with
   G = 0 (s <= eps), eps (z^3 - z^4/2) (eps < s < 2 eps), s - 3 eps/2 beyond.
   Derivatives, with J_k r = the relative displacement and P_k = T_k T_k^T:
     grad D_k   = N_k (phi/s) J^T T u
     hess D_k   = N_k J^T T [ (phi/s)(I - uu^T/s^2) + phi' uu^T/s^2 ] T^T J
   the 2x2 bracket has eigenvalues phi/s >= 0 and phi'; projection clamps phi' at 0 (it is
   negative only while mu drops from mu_s to mu_k). N_k = kappa |d (m b(d^2)) / dd| at the
   lagged state = 2 d kappa m |b'(d^2)| (m the edge-edge mollifier, 1 otherwise).
   Closest points follow the distance type: a point-triangle pair whose closest feature is an
   edge is a point-edge pair, and so on (as ipc-toolkit's friction collisions). */
#include "ipc/friction.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "core/vec3.h"
#include "geometry/distance.h"
#include "ipc/barrier.h"

#define X(i) (x + 3 * (size_t)(i))

/* ---- mollifier and coefficient ---- */

double ipc_friction_f0(double s, double eps) {
  if (s >= eps) return s;
  return s * s / eps - s * s * s / (3.0 * eps * eps) + eps / 3.0;
}

double ipc_friction_f1(double s, double eps) {
  if (s >= eps) return 1.0;
  return s * (2.0 - s / eps) / eps;
}

double ipc_friction_mu(double s, double eps, double mu_s, double mu_k) {
  if (s <= eps) return mu_s;
  if (s >= 2.0 * eps || mu_s == mu_k) return mu_k;
  double z = s / eps - 1.0;
  return mu_s + (mu_k - mu_s) * (3.0 - 2.0 * z) * z * z;
}

double ipc_friction_phi(double s, double eps, double mu_s, double mu_k, double *phi,
                        double *phi_over_s, double *dphi) {
  return ipc_friction_phi_mollified(s, eps, mu_s, mu_k, 0, phi, phi_over_s, dphi);
}

double ipc_friction_phi_mollified(double s, double eps, double mu_s, double mu_k, int quadratic,
                                  double *phi, double *phi_over_s, double *dphi) {
  double P, ph, pos, dp;
  if (s < eps && quadratic) {
    P = mu_s * (0.5 * s * s / eps + 0.5 * eps);
    pos = mu_s / eps;
    ph = pos * s;
    dp = pos;
  } else if (s < eps) {
    P = mu_s * ipc_friction_f0(s, eps);
    pos = mu_s * (2.0 - s / eps) / eps;
    ph = pos * s;
    dp = mu_s * 2.0 * (1.0 - s / eps) / eps;
  } else if (s < 2.0 * eps && mu_s != mu_k) {
    double z = s / eps - 1.0, dm = mu_k - mu_s;
    P = mu_s * s + dm * eps * (z * z * z - 0.5 * z * z * z * z);
    ph = mu_s + dm * (3.0 - 2.0 * z) * z * z;
    pos = ph / s;
    dp = dm * 6.0 * z * (1.0 - z) / eps;
  } else {
    P = mu_k * s + (mu_s - mu_k) * 1.5 * eps;
    ph = mu_k;
    pos = mu_k / s;
    dp = 0.0;
  }
  if (phi) *phi = ph;
  if (phi_over_s) *phi_over_s = pos;
  if (dphi) *dphi = dp;
  return P;
}

/* ---- geometry of one contact at the lagged state ---- */

/* orthonormal T (two columns) spanning the plane orthogonal to n (not necessarily unit) */
static void basis_from_normal(double T[6], const double n[3]) {
  double len = sqrt(dot3(n, n)), nn[3] = {n[0] / len, n[1] / len, n[2] / len};
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (fabs(nn[i]) < fabs(nn[k])) k = i;
  double e[3] = {0, 0, 0}, t0[3];
  e[k] = 1.0;
  cross3(t0, nn, e);
  double l0 = sqrt(dot3(t0, t0));
  for (int i = 0; i < 3; ++i) T[i] = t0[i] / l0;
  cross3(T + 3, nn, T);
}

/* reduced primitive pairs: the sub-simplices the distance type selects */
enum { PAIR_PP, PAIR_PE, PAIR_PT, PAIR_EE };

/* reduces contact c (type classified at x) to a pair kind and its ordered vertices */
static int reduce(const ipc_contact *c, const ipc_contact_model *cm, const double *x, int v[4]) {
  const int *cv = c->v;
  switch (c->kind) {
    case IPC_CONTACT_PT: {
      ipc_pt_type t = ipc_contact_pt_type(cm, X(cv[0]), X(cv[1]), X(cv[2]), X(cv[3]));
      v[0] = cv[0];
      if (t <= IPC_PT_P_T2) {
        v[1] = cv[1 + (int)t];
        return PAIR_PP;
      }
      if (t == IPC_PT_P_T) {
        v[1] = cv[1], v[2] = cv[2], v[3] = cv[3];
        return PAIR_PT;
      }
      int e = (int)t - (int)IPC_PT_P_E0; /* edge t_e - t_(e+1 mod 3) */
      v[1] = cv[1 + e];
      v[2] = cv[1 + (e + 1) % 3];
      return PAIR_PE;
    }
    case IPC_CONTACT_EE: {
      ipc_ee_type t = ipc_contact_ee_type(cm, X(cv[0]), X(cv[1]), X(cv[2]), X(cv[3]));
      switch (t) {
        case IPC_EE_A0_B0:
        case IPC_EE_A0_B1:
        case IPC_EE_A1_B0:
        case IPC_EE_A1_B1:
          v[0] = cv[t == IPC_EE_A0_B0 || t == IPC_EE_A0_B1 ? 0 : 1];
          v[1] = cv[t == IPC_EE_A0_B0 || t == IPC_EE_A1_B0 ? 2 : 3];
          return PAIR_PP;
        case IPC_EE_A_B0:
        case IPC_EE_A_B1:
          v[0] = cv[t == IPC_EE_A_B0 ? 2 : 3];
          v[1] = cv[0], v[2] = cv[1];
          return PAIR_PE;
        case IPC_EE_A0_B:
        case IPC_EE_A1_B:
          v[0] = cv[t == IPC_EE_A0_B ? 0 : 1];
          v[1] = cv[2], v[2] = cv[3];
          return PAIR_PE;
        default:
          memcpy(v, cv, 4 * sizeof(int));
          return PAIR_EE;
      }
    }
    case IPC_CONTACT_PE: {
      ipc_pe_type t = ipc_pe_classify(X(cv[0]), X(cv[1]), X(cv[2]));
      v[0] = cv[0];
      if (t == IPC_PE_P_E) {
        v[1] = cv[1], v[2] = cv[2];
        return PAIR_PE;
      }
      v[1] = cv[t == IPC_PE_P_E0 ? 1 : 2];
      return PAIR_PP;
    }
    default:
      v[0] = cv[0], v[1] = cv[1];
      return PAIR_PP;
  }
}

/* solves the symmetric 2x2 system [a b; b c] y = r */
static void solve2(double y[2], double a, double b, double c, const double r[2]) {
  double det = a * c - b * b;
  y[0] = (c * r[0] - b * r[1]) / det;
  y[1] = (a * r[1] - b * r[0]) / det;
}

/* weights, normal direction n (unnormalised) and the closest-point difference of a pair */
static int pair_geometry(int kind, const int v[4], const double *x, double w[4], double n[3]) {
  double e0[3], e1[3], q[3];
  switch (kind) {
    case PAIR_PP:
      w[0] = 1, w[1] = -1;
      sub3(n, X(v[0]), X(v[1]));
      return 2;
    case PAIR_PE: {
      sub3(e0, X(v[2]), X(v[1]));
      sub3(q, X(v[0]), X(v[1]));
      double t = dot3(q, e0) / dot3(e0, e0);
      w[0] = 1, w[1] = -(1.0 - t), w[2] = -t;
      for (int i = 0; i < 3; ++i) n[i] = q[i] - t * e0[i];
      return 3;
    }
    case PAIR_PT: {
      sub3(e0, X(v[2]), X(v[1]));
      sub3(e1, X(v[3]), X(v[1]));
      sub3(q, X(v[0]), X(v[1]));
      double r[2] = {dot3(e0, q), dot3(e1, q)}, b[2];
      solve2(b, dot3(e0, e0), dot3(e0, e1), dot3(e1, e1), r);
      w[0] = 1, w[1] = -(1.0 - b[0] - b[1]), w[2] = -b[0], w[3] = -b[1];
      cross3(n, e0, e1);
      if (dot3(n, q) < 0)
        for (int i = 0; i < 3; ++i) n[i] = -n[i];
      return 4;
    }
    default: {
      sub3(e0, X(v[1]), X(v[0]));
      sub3(e1, X(v[3]), X(v[2]));
      sub3(q, X(v[2]), X(v[0]));
      double r[2] = {dot3(e0, q), dot3(e1, q)}, st[2];
      /* minimise |a0 + s ea - b0 - t eb|^2: unknowns (s, -t) */
      solve2(st, dot3(e0, e0), dot3(e0, e1), dot3(e1, e1), r);
      double s = st[0], t = -st[1];
      w[0] = 1.0 - s, w[1] = s, w[2] = -(1.0 - t), w[3] = -t;
      cross3(n, e0, e1);
      return 4;
    }
  }
}

int ipc_friction_contact_init(ipc_friction_contact *out, const ipc_contact *c,
                              const ipc_contact_model *cm, const double *x, double kappa,
                              double mu_s, double mu_k) {
  memset(out, 0, sizeof *out);
  out->mu_s = mu_s;
  out->mu_k = mu_k;
  double n[3], d2, mol = 1.0;
  if (c->kind == IPC_CONTACT_PLANE) {
    const ipc_plane *p = &cm->model->planes[c->plane];
    out->nv = 1;
    out->v[0] = c->v[0];
    out->w[0] = 1.0;
    double s = ipc_plane_distance(p, X(c->v[0]));
    d2 = s > 0 ? s * s : 0.0;
    memcpy(n, p->normal, sizeof n);
  } else {
    int kind = reduce(c, cm, x, out->v);
    out->nv = pair_geometry(kind, out->v, x, out->w, n);
    double r[3] = {0, 0, 0};
    for (int a = 0; a < out->nv; ++a)
      for (int i = 0; i < 3; ++i) r[i] += out->w[a] * X(out->v[a])[i];
    d2 = dot3(r, r);
    if (kind == PAIR_PP || kind == PAIR_PE) memcpy(n, r, sizeof n);
    if (c->kind == IPC_CONTACT_EE) {
      const int *v = c->v;
      mol = ipc_ee_mollifier(X(v[0]), X(v[1]), X(v[2]), X(v[3]), c->eps_x, NULL, NULL);
    }
  }
  double dhat2 = cm->dhat * cm->dhat;
  if (!(d2 > 0) || d2 >= dhat2 || !(dot3(n, n) > 0)) return 0;
  out->N = -2.0 * sqrt(d2) * kappa * mol * ipc_barrier_d1(d2, dhat2);
  basis_from_normal(out->T, n);
  return out->N > 0 && isfinite(out->N);
}

/* ---- energy and derivatives ---- */

/* tangential displacement a = T u (3) and u (2) */
static double slip(const ipc_friction_contact *fc, const double *x, const double *xn, double u[2],
                   double a[3]) {
  double r[3] = {0, 0, 0};
  for (int k = 0; k < fc->nv; ++k) {
    size_t o = 3 * (size_t)fc->v[k];
    for (int i = 0; i < 3; ++i) r[i] += fc->w[k] * (x[o + i] - xn[o + i]);
  }
  u[0] = dot3(fc->T, r);
  u[1] = dot3(fc->T + 3, r);
  if (a)
    for (int i = 0; i < 3; ++i) a[i] = fc->T[i] * u[0] + fc->T[3 + i] * u[1];
  return sqrt(u[0] * u[0] + u[1] * u[1]);
}

double ipc_friction_contact_slip(const ipc_friction_contact *fc, const double *x, const double *xn,
                                 double u[2]) {
  double uu[2];
  double s = slip(fc, x, xn, uu, NULL);
  if (u) u[0] = uu[0], u[1] = uu[1];
  return s;
}

double ipc_friction_contact_local(const ipc_friction_contact *fc, const double *x, const double *xn,
                                  double eps, int project, double *g, double *H) {
  double u[2], a[3];
  double s = slip(fc, x, xn, u, a);
  double phi, pos, dphi;
  double e = fc->N * ipc_friction_phi_mollified(s, eps, fc->mu_s, fc->mu_k, fc->quadratic, &phi,
                                                &pos, &dphi);
  int nv = fc->nv, n = 3 * nv;
  if (g)
    for (int k = 0; k < nv; ++k)
      for (int i = 0; i < 3; ++i) g[3 * k + i] = fc->N * pos * fc->w[k] * a[i];
  if (H) {
    /* M = pos (I - uh uh^T) + dphi uh uh^T in the tangent plane, then K = T M T^T (3x3) */
    double M[4];
    if (s > 0) {
      double uh[2] = {u[0] / s, u[1] / s};
      double along = project && dphi < 0 ? 0.0 : dphi;
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          M[2 * i + j] = pos * ((i == j) - uh[i] * uh[j]) + along * uh[i] * uh[j];
    } else {
      M[0] = M[3] = pos;
      M[1] = M[2] = 0.0;
    }
    double K[9];
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) {
        double t = 0;
        for (int p = 0; p < 2; ++p)
          for (int q = 0; q < 2; ++q) t += fc->T[3 * p + i] * M[2 * p + q] * fc->T[3 * q + j];
        K[3 * i + j] = K[3 * j + i] = fc->N * t;
      }
    for (int k = 0; k < nv; ++k)
      for (int l = 0; l < nv; ++l) {
        double wkl = fc->w[k] * fc->w[l];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) H[n * (3 * k + i) + 3 * l + j] = wkl * K[3 * i + j];
      }
  }
  return e;
}

/* ---- the set ---- */

void ipc_friction_init(ipc_friction *f, double eps_v, double h) {
  memset(f, 0, sizeof *f);
  f->eps_v = eps_v;
  f->h = h;
}

void ipc_friction_free(ipc_friction *f) {
  ipc_free(f->c);
  ipc_candidates_free(&f->cand);
  ipc_contact_set_free(&f->cs);
  ipc_free(f->gw);
  ipc_free(f->kept);
  memset(f, 0, sizeof *f);
}

/* coefficients of contact c from its two sides (bodies, obstacles, planes) */
static void contact_mu(const ipc_model *m, const ipc_contact *c, double *mu_s, double *mu_k) {
  int a = m->surface.vert_body[c->v[0]];
  if (c->kind == IPC_CONTACT_PLANE) {
    ipc_model_pair_friction(m, a, -1, c->plane, mu_s, mu_k);
  } else {
    int other = c->kind == IPC_CONTACT_EE ? c->v[2] : c->v[1];
    ipc_model_pair_friction(m, a, m->surface.vert_body[other], -1, mu_s, mu_k);
  }
}

/* 1 when some body or plane of the model has a friction coefficient */
static int any_friction(const ipc_model *m) {
  for (int b = 0; b < m->nbodies; ++b)
    if (m->bodies[b].friction > 0) return 1;
  for (int p = 0; p < m->nplanes; ++p)
    if (m->planes[p].friction > 0) return 1;
  return 0;
}

typedef struct update_job {
  ipc_friction *f;
  const ipc_contact_model *cm;
  const ipc_contact_set *cs;
  const double *x;
  double kappa;
} update_job;

/* contacts [begin, end) of the set: each one's lagged friction contact into f->c at its own
   index, f->kept whether it stays */
static double update_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const update_job *j = ctx;
  ipc_friction *f = j->f;
  for (size_t k = begin; k < end; ++k) {
    const ipc_contact *c = &j->cs->c[k];
    double mu_s, mu_k;
    contact_mu(j->cm->model, c, &mu_s, &mu_k);
    f->kept[k] = (mu_s > 0 || mu_k > 0) &&
                 ipc_friction_contact_init(&f->c[k], c, j->cm, j->x, j->kappa, mu_s, mu_k);
    if (f->kept[k]) f->c[k].quadratic = f->plane_quadratic && c->kind == IPC_CONTACT_PLANE;
  }
  return 0.0;
}

void ipc_friction_update_from(ipc_friction *f, const ipc_contact_model *cm, const double *x,
                              double kappa, const ipc_contact_set *cs) {
  f->n = 0;
  if (!(kappa > 0) || !any_friction(cm->model) || cs->n == 0) return;
  ipc_reserve((void **)&f->c, &f->cap, cs->n, sizeof *f->c);
  ipc_reserve((void **)&f->kept, &f->kept_cap, cs->n, 1);
  update_job j = {f, cm, cs, x, kappa};
  ipc_parallel_sum(cs->n, 256, update_range, &j);
  /* the kept ones in the contacts' order */
  for (size_t k = 0; k < cs->n; ++k)
    if (f->kept[k]) f->c[f->n++] = f->c[k];
}

void ipc_friction_update(ipc_friction *f, const ipc_contact_model *cm, const double *x,
                         double kappa) {
  f->n = 0;
  if (!(kappa > 0) || !any_friction(cm->model)) return;
  ipc_broad_phase(&f->cand, &cm->model->surface, x, NULL, cm->dhat);
  ipc_contacts_collect(&f->cs, cm, &f->cand, x);
  ipc_friction_update_from(f, cm, x, kappa, &f->cs);
}

void ipc_friction_add(const ipc_friction *f, const double *x, const double *xn, double *g,
                      ipc_sparse *A) {
  double eps = f->eps_v * f->h, gl[12], Hl[144];
  for (size_t k = 0; k < f->n; ++k) {
    const ipc_friction_contact *fc = &f->c[k];
    ipc_friction_contact_local(fc, x, xn, eps, 1, gl, A ? Hl : NULL);
    for (int a = 0; a < fc->nv; ++a)
      for (int i = 0; i < 3; ++i) g[3 * (size_t)fc->v[a] + i] += gl[3 * a + i];
    if (A) ipc_sparse_add(A, fc->nv, fc->v, Hl);
  }
}

double ipc_friction_max_slip(const ipc_friction *f, const double *x, const double *xn) {
  double mx = 0;
  for (size_t k = 0; k < f->n; ++k) mx = fmax(mx, ipc_friction_contact_slip(&f->c[k], x, xn, NULL));
  return mx;
}

double ipc_friction_relag(ipc_friction *f, const ipc_contact_model *cm, const double *x,
                          const double *xn, double kappa, const double *mass) {
  size_t n3 = 3 * (size_t)cm->model->nverts;
  ipc_reserve((void **)&f->gw, &f->gw_cap, 2 * n3, sizeof(double));
  double *g0 = f->gw, *g1 = f->gw + n3;
  memset(f->gw, 0, 2 * n3 * sizeof(double));
  ipc_friction_add(f, x, xn, g0, NULL);
  ipc_friction_update(f, cm, x, kappa);
  ipc_friction_add(f, x, xn, g1, NULL);
  double change = 0;
  for (size_t i = 0; i < n3; ++i)
    if (mass[i / 3] > 0) change = fmax(change, fabs(g1[i] - g0[i]) / (mass[i / 3] * f->h));
  return change;
}
