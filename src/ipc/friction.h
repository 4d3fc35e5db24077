/* lagged, mollified, variational friction of IPC (Li et al. 2020, sec. 5):
   for each contact k a tangent basis T_k (3 x 2), closest-point weights w_k and a normal
   force magnitude N_k are computed at a lagged state and frozen during the Newton solve;
   with r_k(x) = sum_i w_ki (x_i - xn_i) the relative displacement over the step and
   u_k = T_k^T r_k, the dissipative potential is
     D(x) = sum_k N_k Phi_k(|u_k|),   Phi_k' = mu_k(s) f1(s)
   f1 IPC's C1 mollifier with threshold eps = eps_v h (a displacement). */
#ifndef IPCC_IPC_FRICTION_H
#define IPCC_IPC_FRICTION_H

#include <stddef.h>

#include "geometry/broad_phase.h"
#include "ipc/contacts.h"
#include "ipcc/scene.h"
#include "linalg/sparse.h"

/* one lagged friction contact: the relative displacement is r = sum_i w[i] (x - xn)_v[i] */
typedef struct ipc_friction_contact {
  int nv;        /* points involved, 1..4 */
  int v[4];      /* global vertex ids */
  double w[4];   /* closest-point weights (first side +, second side -) */
  double T[6];   /* orthonormal tangent basis: columns T[0..2], T[3..5] */
  double N;      /* lagged normal force magnitude kappa |d(m b)/dd| (mass x length) */
  double mu_s;   /* static coefficient (applies below slip eps) */
  double mu_k;   /* kinetic coefficient (applies above slip 2 eps) */
  int quadratic; /* 1: IPC's half-space mollifier f1 = s/eps below eps (else the C1 one) */
} ipc_friction_contact;

/* the lagged friction set of a world and its workspace */
typedef struct ipc_friction {
  ipc_friction_contact *c;
  size_t n, cap;
  double eps_v; /* absolute slip-speed threshold (m/s) */
  double h;     /* time step (s) */
  /* 1: contacts with planes use IPC's half-space mollifier (HalfSpace.cpp: f0 = s^2/(2 eps)
     below eps, so f1 = s/eps); 0: the C1 one of every other contact */
  int plane_quadratic;
  /* workspace for the lagged contacts */
  ipc_candidates cand;
  ipc_contact_set cs;
  double *gw; /* (2 x nverts x 3) gradients before and after a re-lag */
  size_t gw_cap;
  unsigned char *kept; /* (contacts) whether an update kept each contact */
  size_t kept_cap;
} ipc_friction;

/* ---- the mollifier, with eps > 0 the slip threshold (a displacement, eps_v h) ---- */

/* f0(s) = s^2/eps - s^3/(3 eps^2) + eps/3 for s < eps, s beyond (C2 at eps, f0' = f1) */
double ipc_friction_f0(double s, double eps);
/* f1(s) = 2 s/eps - s^2/eps^2 for s < eps, 1 beyond (C1) */
double ipc_friction_f1(double s, double eps);

/* friction coefficient at slip s: mu_s up to eps, a C1 cubic blend to mu_k at 2 eps */
double ipc_friction_mu(double s, double eps, double mu_s, double mu_k);

/* Phi(s) = int_0^s mu(r) f1(r) dr + mu_s eps/3 (the potential per unit normal force, m);
   phi = Phi' = mu f1, phi_over_s = phi/s (finite at s = 0), dphi = phi' (any may be NULL) */
double ipc_friction_phi(double s, double eps, double mu_s, double mu_k, double *phi,
                        double *phi_over_s, double *dphi);

/* the same with IPC's half-space mollifier when quadratic != 0: f0 = s^2/(2 eps) + eps/2,
   f1 = s/eps below eps (C0 in f1, as IPC's HalfSpace friction), s and 1 beyond */
double ipc_friction_phi_mollified(double s, double eps, double mu_s, double mu_k, int quadratic,
                                  double *phi, double *phi_over_s, double *dphi);

/* ---- one contact ---- */

/* builds the lagged friction contact of barrier contact c at positions x_lag: distance
   type, closest-point weights, tangent basis, N = kappa * 2 d |b'(d^2)| (times the edge-edge
   mollifier). returns 1 when the contact is within dhat (N > 0), else 0. */
int ipc_friction_contact_init(ipc_friction_contact *out, const ipc_contact *c,
                              const ipc_contact_model *cm, const double *x_lag, double kappa,
                              double mu_s, double mu_k);

/* tangential slip u (2) of fc between xn and x (both nverts x 3); returns |u| (m) */
double ipc_friction_contact_slip(const ipc_friction_contact *fc, const double *x, const double *xn,
                                 double u[2]);

/* energy N Phi(|u|) of fc at x (displacement from xn); g (3 nv) and H (3nv x 3nv, PSD when
   project != 0: the 2x2 tangent-space part is clamped) over fc->v, either may be NULL */
double ipc_friction_contact_local(const ipc_friction_contact *fc, const double *x, const double *xn,
                                  double eps, int project, double *g, double *H);

/* ---- the set ---- */

/* empty set with absolute slip-speed threshold eps_v (m/s) and step h (s); the
   coefficients of each contact follow the model's friction_combine rule */
void ipc_friction_init(ipc_friction *f, double eps_v, double h);
void ipc_friction_free(ipc_friction *f);

/* rebuilds the lagged set from the contacts within dhat at x_lag (own broad phase) with the
   barrier stiffness kappa; contacts with zero coefficient or zero force are dropped */
void ipc_friction_update(ipc_friction *f, const ipc_contact_model *cm, const double *x_lag,
                         double kappa);

/* as ipc_friction_update, from cs: every contact within cm->dhat at x_lag (as collected by
   ipc_contacts_collect; the friction set follows its order), with no broad phase */
void ipc_friction_update_from(ipc_friction *f, const ipc_contact_model *cm, const double *x_lag,
                              double kappa, const ipc_contact_set *cs);

/* re-lags at x (ipc_friction_update) and returns how much the friction force changed there,
   as the velocity it would give: max_i |g_new,i - g_old,i| / (mass_i h) over vertices with
   mass > 0 (m/s; mass has nverts entries) */
double ipc_friction_relag(ipc_friction *f, const ipc_contact_model *cm, const double *x,
                          const double *xn, double kappa, const double *mass);

/* g (nverts x 3) += grad D(x); when A is not NULL, the projected local Hessians go to A */
void ipc_friction_add(const ipc_friction *f, const double *x, const double *xn, double *g,
                      ipc_sparse *A);

/* largest tangential slip |u_k| over the set (m); divide by h for a speed */
double ipc_friction_max_slip(const ipc_friction *f, const double *x, const double *xn);

#endif
