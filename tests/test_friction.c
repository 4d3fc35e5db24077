/* lagged friction (src/ipc/friction.c): the mollifier and the coefficient blend; for every
   contact kind (point-triangle, edge-edge, point-edge, point-point, plane) and every distance
   type the lagged normal force equals the barrier force, the tangent basis is orthonormal and
   orthogonal to it, and the energy, gradient and Hessian of D_k agree with finite differences
   at slips below eps = eps_v h, inside the static-to-kinetic blend and above it; projected
   Hessians are PSD */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/distance.h"
#include "ipc/friction.h"
#include "linalg/dense.h"
#include "test.h"

static double urand(void) {
  return rand() / (double)RAND_MAX;
}

static ipc_model model;
static ipc_contact_model cm;

/* the mollifier, the coefficient and Phi against finite differences and at the joints */
static void check_scalar(void) {
  const double eps = 0.37, mus[] = {0.5, 0.8}, muk = 0.5;
  for (int k = 0; k < 2; ++k) {
    double mu_s = mus[k];
    for (double s = 0.01; s < 3.0 * eps; s += 0.013) {
      double h = 1e-6;
      double fd0 = (ipc_friction_f0(s + h, eps) - ipc_friction_f0(s - h, eps)) / (2 * h);
      CHECK_NEAR(fd0, ipc_friction_f1(s, eps), 1e-8);
      double phi, pos, dphi, php, phm;
      double P = ipc_friction_phi(s, eps, mu_s, muk, &phi, &pos, &dphi);
      (void)P;
      double fdP = (ipc_friction_phi(s + h, eps, mu_s, muk, NULL, NULL, NULL) -
                    ipc_friction_phi(s - h, eps, mu_s, muk, NULL, NULL, NULL)) /
                   (2 * h);
      CHECK_NEAR(fdP, phi, 1e-8);
      CHECK_NEAR(pos * s, phi, 1e-12);
      CHECK_NEAR(phi, ipc_friction_mu(s, eps, mu_s, muk) * ipc_friction_f1(s, eps), 1e-12);
      ipc_friction_phi(s + h, eps, mu_s, muk, &php, NULL, NULL);
      ipc_friction_phi(s - h, eps, mu_s, muk, &phm, NULL, NULL);
      CHECK_NEAR((php - phm) / (2 * h), dphi, 1e-6);
    }
    /* continuity of Phi and phi at eps and 2 eps; the limits of the blend */
    for (int j = 1; j <= 2; ++j) {
      double a, b, pa, pb;
      double Pa = ipc_friction_phi(j * eps * (1 - 1e-13), eps, mu_s, muk, &pa, NULL, NULL);
      double Pb = ipc_friction_phi(j * eps * (1 + 1e-13), eps, mu_s, muk, &pb, NULL, NULL);
      CHECK_NEAR(Pa, Pb, 1e-11);
      CHECK_NEAR(pa, pb, 1e-11);
      a = ipc_friction_mu(j * eps * (1 - 1e-13), eps, mu_s, muk);
      b = ipc_friction_mu(j * eps * (1 + 1e-13), eps, mu_s, muk);
      CHECK_NEAR(a, b, 1e-11);
    }
    CHECK(ipc_friction_mu(0.5 * eps, eps, mu_s, muk) == mu_s);
    CHECK(ipc_friction_mu(2.5 * eps, eps, mu_s, muk) == muk);
    double phi0, pos0;
    ipc_friction_phi(0.0, eps, mu_s, muk, &phi0, &pos0, NULL);
    CHECK(phi0 == 0.0);
    CHECK_NEAR(pos0, 2 * mu_s / eps, 1e-14);
  }
  /* IPC's half-space mollifier: Phi = mu (s^2/(2 eps) + eps/2) below eps, phi = mu s/eps;
     Phi and phi continuous at eps and 2 eps (phi' jumps at eps, as in IPC), derivatives
     against finite differences away from the joints */
  for (int k = 0; k < 2; ++k) {
    double mu_s = mus[k], h = 1e-6;
    for (double s = 0.01; s < 3.0 * eps; s += 0.013) {
      if (fabs(s - eps) < 2 * h || fabs(s - 2 * eps) < 2 * h) continue;
      double phi, pos, dphi, php, phm;
      double P = ipc_friction_phi_mollified(s, eps, mu_s, muk, 1, &phi, &pos, &dphi);
      double Pp = ipc_friction_phi_mollified(s + h, eps, mu_s, muk, 1, &php, NULL, NULL);
      double Pm = ipc_friction_phi_mollified(s - h, eps, mu_s, muk, 1, &phm, NULL, NULL);
      CHECK_NEAR((Pp - Pm) / (2 * h), phi, 1e-8);
      CHECK_NEAR((php - phm) / (2 * h), dphi, 1e-6);
      CHECK_NEAR(pos * s, phi, 1e-12);
      if (s < eps) {
        CHECK_NEAR(P, mu_s * (s * s / (2 * eps) + eps / 2), 1e-14);
        CHECK_NEAR(phi, mu_s * s / eps, 1e-14);
      } else {
        double q;
        CHECK_NEAR(P, ipc_friction_phi(s, eps, mu_s, muk, &q, NULL, NULL), 1e-14);
        CHECK_NEAR(phi, q, 1e-14);
      }
    }
    for (int j = 1; j <= 2; ++j) {
      double pa, pb;
      double Pa = ipc_friction_phi_mollified(j * eps * (1 - 1e-13), eps, mu_s, muk, 1, &pa, NULL, NULL);
      double Pb = ipc_friction_phi_mollified(j * eps * (1 + 1e-13), eps, mu_s, muk, 1, &pb, NULL, NULL);
      CHECK_NEAR(Pa, Pb, 1e-11);
      CHECK_NEAR(pa, pb, 1e-11);
    }
  }
  CHECK_NEAR(ipc_friction_f0(0.0, 2.0), 2.0 / 3.0, 1e-15);
  CHECK(ipc_friction_f1(5.0, 2.0) == 1.0);
  CHECK_NEAR(ipc_friction_combine_mu(IPCC_FRICTION_GEOMETRIC_MEAN, 0.25, 1.0), 0.5, 1e-15);
  CHECK_NEAR(ipc_friction_combine_mu(IPCC_FRICTION_MEAN, 0.25, 1.0), 0.625, 1e-15);
  CHECK(ipc_friction_combine_mu(IPCC_FRICTION_MIN, 0.25, 1.0) == 0.25);
  CHECK(ipc_friction_combine_mu(IPCC_FRICTION_MAX, 0.25, 1.0) == 1.0);
}

/* barrier gradient of contact c at x summed over the first side (the point, or edge a) */
static double barrier_force(const ipc_contact *c, const double *x, double kappa, double f[3]) {
  int nv, verts[4];
  double g[12], H[144];
  ipc_contact_local(c, &cm, x, kappa, 0, &nv, verts, g, H);
  f[0] = f[1] = f[2] = 0;
  for (int a = 0; a < nv; ++a) {
    int first = verts[a] == c->v[0] || (c->kind == IPC_CONTACT_EE && verts[a] == c->v[1]);
    if (first)
      for (int i = 0; i < 3; ++i) f[i] += g[3 * a + i];
  }
  return sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
}

/* x (12) as the full positions of vertices 0..3: local energy/gradient/Hessian of fc */
static double local(const ipc_friction_contact *fc, const double *x, const double *xn, double eps,
                    int project, double *g, double *H) {
  return ipc_friction_contact_local(fc, x, xn, eps, project, g, H);
}

/* finite differences of fc's energy, gradient, Hessian at x (displacement from xn) */
static void fd_check(const ipc_friction_contact *fc, const double *x, const double *xn, double eps,
                     const char *what) {
  int n = 3 * fc->nv;
  double g[12], H[144], gp[12], gm[12];
  local(fc, x, xn, eps, 0, g, H);
  double gs = 0, hs = 0;
  for (int i = 0; i < n; ++i) gs = fmax(gs, fabs(g[i]));
  for (int i = 0; i < n * n; ++i) hs = fmax(hs, fabs(H[i]));
  double h = 1e-7 * eps;
  int ok = 1;
  for (int a = 0; a < fc->nv && ok; ++a)
    for (int d = 0; d < 3 && ok; ++d) {
      double xp[12], xm[12];
      memcpy(xp, x, sizeof xp);
      memcpy(xm, x, sizeof xm);
      int i = 3 * fc->v[a] + d;
      xp[i] += h;
      xm[i] -= h;
      double fd =
          (local(fc, xp, xn, eps, 0, NULL, NULL) - local(fc, xm, xn, eps, 0, NULL, NULL)) / (2 * h);
      if (!(fabs(fd - g[3 * a + d]) <= 1e-5 * gs + 1e-12)) {
        ok = 0;
        CHECK_MSG(0, "%s: gradient %d: fd %.10g analytic %.10g", what, 3 * a + d, fd, g[3 * a + d]);
      }
      local(fc, xp, xn, eps, 0, gp, NULL);
      local(fc, xm, xn, eps, 0, gm, NULL);
      for (int j = 0; j < n && ok; ++j) {
        double fdh = (gp[j] - gm[j]) / (2 * h);
        if (!(fabs(fdh - H[n * j + 3 * a + d]) <= 1e-5 * hs + 1e-12)) {
          ok = 0;
          CHECK_MSG(0, "%s: Hessian (%d,%d): fd %.10g analytic %.10g", what, j, 3 * a + d, fdh,
                    H[n * j + 3 * a + d]);
        }
      }
    }
  CHECK(ok);
}

/* min eigenvalue / max |eigenvalue| of fc's Hessian (projected or not) */
static double min_eig_ratio(const ipc_friction_contact *fc, const double *x, const double *xn,
                            double eps, int project) {
  int n = 3 * fc->nv;
  double H[144], ev[12];
  local(fc, x, xn, eps, project, NULL, H);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) CHECK(H[n * i + j] == H[n * j + i]);
  ipc_sym_eig(n, H, ev, NULL);
  double mx = 0;
  for (int i = 0; i < n; ++i) mx = fmax(mx, fabs(ev[i]));
  return mx > 0 ? ev[0] / mx : 0.0;
}

static int type_of(const ipc_contact *c, const double *x) {
  switch (c->kind) {
    case IPC_CONTACT_PT:
      return (int)ipc_pt_classify(x, x + 3, x + 6, x + 9);
    case IPC_CONTACT_EE:
      return (int)ipc_ee_classify(x, x + 3, x + 6, x + 9);
    case IPC_CONTACT_PE:
      return (int)ipc_pe_classify(x, x + 3, x + 6);
    default:
      return 0;
  }
}

int main(void) {
  srand(11);
  check_scalar();

  memset(&model, 0, sizeof model);
  model.nplanes = 1;
  ipc_plane plane = {{0, -0.2, 0}, {0, 0.6, 0.8}, 0, 0};
  model.planes = &plane;
  model.params.body_contact = IPCC_BODY_CONTACT_ALL;
  double dhat = 0.5, kappa = 3.0, eps = 0.01;
  ipc_contact_model_init(&cm, &model, dhat);

  const int kinds[] = {IPC_CONTACT_PT, IPC_CONTACT_EE, IPC_CONTACT_PE, IPC_CONTACT_PP,
                       IPC_CONTACT_PLANE};
  const char *names[] = {"PT", "EE", "PE", "PP", "PLANE"};
  /* slips relative to eps: below, at the top of the mollifier, in the blend, beyond */
  const double slips[] = {0.0, 0.2, 0.9, 1.4, 1.8, 4.0};
  for (int k = 0; k < 5; ++k) {
    int checked = 0, types_seen = 0, nonconvex = 0;
    for (int trial = 0; trial < 4000 && checked < 120; ++trial) {
      ipc_contact c;
      memset(&c, 0, sizeof c);
      c.kind = kinds[k];
      for (int i = 0; i < 4; ++i) c.v[i] = i;
      double x[12];
      for (int i = 0; i < 12; ++i) x[i] = 0.6 * (urand() - 0.5);
      if (c.kind == IPC_CONTACT_EE) {
        if (trial % 3 == 0) { /* nearly parallel: mollified */
          double sc = 0.5 + urand();
          for (int d = 0; d < 3; ++d) x[9 + d] = x[6 + d] + (x[3 + d] - x[d]) * sc;
          for (int d = 0; d < 3; ++d) x[9 + d] += 0.004 * (urand() - 0.5);
        }
        c.eps_x = ipc_ee_mollifier_threshold(x, x + 3, x + 6, x + 9);
      }
      ipc_contact_set cs = {&c, 1, 1};
      double e = ipc_contacts_energy(&cs, &cm, x, kappa);
      if (!(e > 0) || !isfinite(e)) continue;
      double mu_k = 0.4, mu_s = trial % 2 ? 0.4 : 0.7;
      ipc_friction_contact fc;
      CHECK(ipc_friction_contact_init(&fc, &c, &cm, x, kappa, mu_s, mu_k) == 1);
      CHECK(fc.nv >= 1 && fc.nv <= 4);
      types_seen |= 1 << type_of(&c, x);
      /* basis orthonormal; normal force = barrier force on the first side, orthogonal to T */
      double *T = fc.T;
      CHECK_NEAR(T[0] * T[0] + T[1] * T[1] + T[2] * T[2], 1.0, 1e-12);
      CHECK_NEAR(T[3] * T[3] + T[4] * T[4] + T[5] * T[5], 1.0, 1e-12);
      CHECK(fabs(T[0] * T[3] + T[1] * T[4] + T[2] * T[5]) < 1e-12);
      double f[3];
      double fn = barrier_force(&c, x, kappa, f);
      int mollified =
          c.kind == IPC_CONTACT_EE && ipc_ee_cross2(x, x + 3, x + 6, x + 9, NULL, NULL) < c.eps_x;
      if (!mollified) {
        CHECK_MSG(fabs(fc.N - fn) <= 1e-9 * fn, "%s: N %.12g, barrier force %.12g", names[k], fc.N,
                  fn);
        for (int j = 0; j < 2; ++j) {
          double t = T[3 * j] * f[0] + T[3 * j + 1] * f[1] + T[3 * j + 2] * f[2];
          CHECK_MSG(fabs(t) <= 1e-9 * fn, "%s: basis not orthogonal to the normal (%g)", names[k],
                    t / fn);
        }
      }
      /* positions: x = xn + displacement with a chosen tangential slip */
      for (size_t si = 0; si < sizeof slips / sizeof slips[0]; ++si) {
        double xn[12], dx[12], xx[12], u[2];
        memcpy(xn, x, sizeof xn);
        for (int i = 0; i < 12; ++i) dx[i] = urand() - 0.5;
        memcpy(xx, xn, sizeof xx);
        for (int i = 0; i < 12; ++i) xx[i] += dx[i];
        double s = ipc_friction_contact_slip(&fc, xx, xn, u);
        for (int i = 0; i < 12; ++i) xx[i] = xn[i] + dx[i] * slips[si] * eps / s;
        s = ipc_friction_contact_slip(&fc, xx, xn, u);
        CHECK_NEAR(s, slips[si] * eps, 1e-9);
        fd_check(&fc, xx, xn, eps, names[k]);
        double r = min_eig_ratio(&fc, xx, xn, eps, 1);
        CHECK_MSG(r >= -1e-12, "%s: projected Hessian not PSD (%g)", names[k], r);
        if (c.kind == IPC_CONTACT_PLANE && slips[si] != 1.0) { /* IPC's half-space mollifier */
          ipc_friction_contact fq = fc;
          fq.quadratic = 1;
          fd_check(&fq, xx, xn, eps, "PLANE quadratic");
          r = min_eig_ratio(&fq, xx, xn, eps, 1);
          CHECK_MSG(r >= -1e-12, "PLANE quadratic: projected Hessian not PSD (%g)", r);
        }
        if (mu_s > mu_k && slips[si] > 1 && slips[si] < 2 &&
            min_eig_ratio(&fc, xx, xn, eps, 0) < -1e-3)
          ++nonconvex;
      }
      /* gradient at zero slip vanishes, and the friction force is bounded by mu_s N */
      {
        double g[12];
        ipc_friction_contact_local(&fc, x, x, eps, 1, g, NULL);
        for (int i = 0; i < 3 * fc.nv; ++i) CHECK(g[i] == 0.0);
      }
      ++checked;
    }
    CHECK_MSG(checked >= 100, "%s: only %d configurations checked", names[k], checked);
    if (kinds[k] == IPC_CONTACT_PT) CHECK_MSG(types_seen == 0x7F, "PT types seen %x", types_seen);
    if (kinds[k] == IPC_CONTACT_EE) CHECK_MSG(types_seen == 0x1FF, "EE types seen %x", types_seen);
    if (kinds[k] == IPC_CONTACT_PE) CHECK_MSG(types_seen == 0x7, "PE types seen %x", types_seen);
    /* the velocity-weakening blend is non-convex: projection does something */
    CHECK_MSG(nonconvex > 0, "%s: no non-convex case in the static-kinetic blend", names[k]);
  }
  /* far pairs give no friction contact */
  {
    ipc_contact c;
    memset(&c, 0, sizeof c);
    c.kind = IPC_CONTACT_PP;
    c.v[1] = 1;
    double x[12] = {0, 0, 0, 1, 0, 0};
    ipc_friction_contact fc;
    CHECK(ipc_friction_contact_init(&fc, &c, &cm, x, kappa, 0.5, 0.5) == 0);
  }
  ipc_contact_model_free(&cm);
  TEST_MAIN_END();
}
