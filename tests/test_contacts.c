/* barrier contact terms (src/ipc/contacts.c): value, gradient and Hessian of
   kappa * m * b(d^2) for every contact kind against finite differences, with and
   without the edge-edge mollifier; projected local Hessians are PSD */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/distance.h"
#include "ipc/contacts.h"
#include "linalg/dense.h"
#include "test.h"

static double urand(void) {
  return rand() / (double)RAND_MAX;
}

static ipc_model model;
static ipc_contact_model cm;

/* energy of one contact at x */
static double energy(const ipc_contact *c, const double *x, double kappa) {
  ipc_contact_set cs = {(ipc_contact *)c, 1, 1};
  return ipc_contacts_energy(&cs, &cm, x, kappa);
}

/* full-layout (4 points) gradient and Hessian from the compressed local ones */
static double local_full(const ipc_contact *c, const double *x, double kappa, int project,
                         double g[12], double H[144]) {
  int nv, verts[4];
  double gl[12], Hl[144];
  double e = ipc_contact_local(c, &cm, x, kappa, project, &nv, verts, gl, Hl);
  memset(g, 0, 12 * sizeof(double));
  memset(H, 0, 144 * sizeof(double));
  for (int a = 0; a < nv; ++a)
    for (int r = 0; r < 3; ++r) {
      g[3 * verts[a] + r] += gl[3 * a + r];
      for (int b = 0; b < nv; ++b)
        for (int s = 0; s < 3; ++s)
          H[12 * (3 * verts[a] + r) + 3 * verts[b] + s] += Hl[3 * nv * (3 * a + r) + 3 * b + s];
    }
  return e;
}

static int type_of(ipc_contact *c, const double *x) {
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

/* finite-difference check at x; returns 1 if checked (the type stayed put) */
static int fd_check(ipc_contact *c, const double *x, double kappa, const char *what) {
  double g[12], H[144], gp[12], Hp[144], gm[12], Hm[144];
  double e = local_full(c, x, kappa, 0, g, H);
  CHECK_NEAR(e, energy(c, x, kappa), 1e-12);
  if (!(e > 0)) return 0;
  double h = 1e-7 * 0.1;
  int t0 = type_of(c, x);
  double xp[12], xm[12];
  double gscale = 0, hscale = 0;
  for (int i = 0; i < 12; ++i) gscale = fmax(gscale, fabs(g[i]));
  for (int i = 0; i < 144; ++i) hscale = fmax(hscale, fabs(H[i]));
  int ok = 1;
  for (int i = 0; i < 12 && ok; ++i) {
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    if (type_of(c, xp) != t0 || type_of(c, xm) != t0) return 0;
    double fd = (energy(c, xp, kappa) - energy(c, xm, kappa)) / (2 * h);
    if (!(fabs(fd - g[i]) <= 1e-4 * gscale + 1e-9)) {
      ok = 0;
      CHECK_MSG(0, "%s: gradient %d: fd %.10g analytic %.10g", what, i, fd, g[i]);
    }
    local_full(c, xp, kappa, 0, gp, Hp);
    local_full(c, xm, kappa, 0, gm, Hm);
    for (int j = 0; j < 12 && ok; ++j) {
      double fdh = (gp[j] - gm[j]) / (2 * h);
      if (!(fabs(fdh - H[12 * j + i]) <= 1e-4 * hscale + 1e-9)) {
        ok = 0;
        CHECK_MSG(0, "%s: Hessian (%d,%d): fd %.10g analytic %.10g", what, j, i, fdh,
                  H[12 * j + i]);
      }
    }
  }
  CHECK(ok);
  return 1;
}

static void check_psd(ipc_contact *c, const double *x, double kappa) {
  int nv, verts[4];
  double gl[12], Hl[144], ev[12];
  ipc_contact_local(c, &cm, x, kappa, 1, &nv, verts, gl, Hl);
  if (nv == 0) return;
  int n = 3 * nv;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) CHECK(Hl[n * i + j] == Hl[n * j + i]);
  ipc_sym_eig(n, Hl, ev, NULL);
  double mx = 0;
  for (int i = 0; i < n; ++i) mx = fmax(mx, fabs(ev[i]));
  CHECK_MSG(ev[0] >= -1e-10 * mx, "projected Hessian min eigenvalue %g (max %g)", ev[0], mx);
}

int main(void) {
  srand(7);
  memset(&model, 0, sizeof model);
  model.nplanes = 1;
  ipc_plane plane = {{0, -0.2, 0}, {0, 1, 0}, 0, 0};
  model.planes = &plane;
  model.params.body_contact = IPCC_BODY_CONTACT_ALL;
  double dhat = 0.5;
  ipc_contact_model_init(&cm, &model, dhat);
  double kappa = 3.0;

  const int kinds[] = {IPC_CONTACT_PT, IPC_CONTACT_EE, IPC_CONTACT_PE, IPC_CONTACT_PP,
                       IPC_CONTACT_PLANE};
  const char *names[] = {"PT", "EE", "PE", "PP", "PLANE"};
  for (int k = 0; k < 5; ++k) {
    int checked = 0, mollified = 0, types_seen = 0;
    for (int trial = 0; trial < 3000 && checked < 300; ++trial) {
      ipc_contact c;
      memset(&c, 0, sizeof c);
      c.kind = kinds[k];
      for (int i = 0; i < 4; ++i) c.v[i] = i;
      double x[12];
      for (int i = 0; i < 12; ++i) x[i] = 0.6 * (urand() - 0.5);
      if (c.kind == IPC_CONTACT_EE) {
        /* half the cases nearly parallel, so the mollifier is active */
        if (trial % 2) {
          double scale = 0.5 + urand();
          for (int d = 0; d < 3; ++d) x[9 + d] = x[6 + d] + (x[3 + d] - x[d]) * scale;
          for (int d = 0; d < 3; ++d) x[9 + d] += 0.004 * (urand() - 0.5);
        }
        double eps_x = ipc_ee_mollifier_threshold(x, x + 3, x + 6, x + 9);
        c.eps_x = eps_x;
        if (ipc_ee_cross2(x, x + 3, x + 6, x + 9, NULL, NULL) < eps_x) ++mollified;
      }
      double e = energy(&c, x, kappa);
      if (!(e > 0) || !isfinite(e)) continue;
      types_seen |= 1 << type_of(&c, x);
      checked += fd_check(&c, x, kappa, names[k]);
      check_psd(&c, x, kappa);
    }
    CHECK_MSG(checked >= 100, "%s: only %d configurations checked", names[k], checked);
    if (kinds[k] == IPC_CONTACT_EE) CHECK_MSG(mollified >= 20, "EE: %d mollified", mollified);
    if (kinds[k] == IPC_CONTACT_PT) CHECK_MSG(types_seen == 0x7F, "PT types seen %x", types_seen);
  }
  /* far pairs contribute nothing; zero distance is infinite */
  {
    ipc_contact c;
    memset(&c, 0, sizeof c);
    c.kind = IPC_CONTACT_PP;
    c.v[1] = 1;
    double x[12] = {0, 0, 0, 1, 0, 0};
    CHECK(energy(&c, x, kappa) == 0.0);
    x[3] = 0;
    CHECK(isinf(energy(&c, x, kappa)));
  }
  ipc_contact_model_free(&cm);
  TEST_MAIN_END();
}
