/* edge-edge mollifier of IPC (Li et al. 2020, "Incremental Potential Contact"): the
 * barrier of a nearly parallel edge pair is multiplied by m(c), c = |u x v|^2, u = a1 - a0,
 * v = b1 - b0, which vanishes with its gradient at parallel edges, where the edge-edge distance
 * is not smooth, so that the mollified barrier stays C1:
 *   m(c) = (2 - c/eps_x) c/eps_x for c < eps_x, else 1;  m' = 2 (1 - c/eps_x)/eps_x,
 *   m'' = -2/eps_x^2;  eps_x = 1e-3 |u|^2 |v|^2 at rest.
 * With n = u x v and [a]x the cross-product matrix:
 *   grad c = (2 v x n, 2 n x u) over (u, v);  d2c/du2 = 2(|v|^2 I - v v^T),
 *   d2c/dv2 = 2(|u|^2 I - u u^T),  d2c/dudv = 2(u v^T - (u.v) I - [n]x),
 * and u, v are scattered to [a0 a1 b0 b1] with signs (-, +, -, +). */
#include <string.h>

#include "geometry/distance.h"

static double norm2_diff(const double a[3], const double b[3]) {
  const double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
  return d0 * d0 + d1 * d1 + d2 * d2;
}

double ipc_ee_mollifier_threshold(const double a0_rest[3], const double a1_rest[3],
                                  const double b0_rest[3], const double b1_rest[3]) {
  return IPC_EE_MOLLIFIER_SCALE * norm2_diff(a1_rest, a0_rest) * norm2_diff(b1_rest, b0_rest);
}

double ipc_ee_cross2(const double a0[3], const double a1[3], const double b0[3], const double b1[3],
                     double g[12], double H[144]) {
  double u[3], v[3], n[3];
  for (int a = 0; a < 3; ++a) {
    u[a] = a1[a] - a0[a];
    v[a] = b1[a] - b0[a];
  }
  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
  const double c = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  if (g) {
    const double gu[3] = {2.0 * (v[1] * n[2] - v[2] * n[1]), 2.0 * (v[2] * n[0] - v[0] * n[2]),
                          2.0 * (v[0] * n[1] - v[1] * n[0])};
    const double gv[3] = {2.0 * (n[1] * u[2] - n[2] * u[1]), 2.0 * (n[2] * u[0] - n[0] * u[2]),
                          2.0 * (n[0] * u[1] - n[1] * u[0])};
    for (int a = 0; a < 3; ++a) {
      g[a] = -gu[a];
      g[3 + a] = gu[a];
      g[6 + a] = -gv[a];
      g[9 + a] = gv[a];
    }
  }
  if (H) {
    const double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const double uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    /* local 6x6 Hessian over (u, v) */
    double Hy[6][6];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double id = i == j ? 1.0 : 0.0;
        Hy[i][j] = 2.0 * (vv * id - v[i] * v[j]);
        Hy[3 + i][3 + j] = 2.0 * (uu * id - u[i] * u[j]);
        Hy[i][3 + j] = 2.0 * (u[i] * v[j] - uv * id);
      }
    /* -2 [n]x in the (u, v) block */
    Hy[0][4] += 2.0 * n[2];
    Hy[0][5] -= 2.0 * n[1];
    Hy[1][3] -= 2.0 * n[2];
    Hy[1][5] += 2.0 * n[0];
    Hy[2][3] += 2.0 * n[1];
    Hy[2][4] -= 2.0 * n[0];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Hy[3 + j][i] = Hy[i][3 + j];
    static const double sign[4] = {-1.0, 1.0, -1.0, 1.0};
    for (int P = 0; P < 4; ++P)
      for (int Q = 0; Q < 4; ++Q) {
        const double sPQ = sign[P] * sign[Q];
        const int bp = 3 * (P / 2), bq = 3 * (Q / 2);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) H[(3 * P + a) * 12 + 3 * Q + b] = sPQ * Hy[bp + a][bq + b];
      }
  }
  return c;
}

double ipc_ee_mollifier(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3], double eps_x, double g[12], double H[144]) {
  double gc[12], Hc[144];
  const double c = ipc_ee_cross2(a0, a1, b0, b1, (g || H) ? gc : NULL, H ? Hc : NULL);
  if (!(c < eps_x)) {
    if (g) memset(g, 0, sizeof(double) * 12);
    if (H) memset(H, 0, sizeof(double) * 144);
    return 1.0;
  }
  const double r = c / eps_x;
  const double dm = 2.0 * (1.0 - r) / eps_x, d2m = -2.0 / (eps_x * eps_x);
  if (g) {
    for (int i = 0; i < 12; ++i) g[i] = dm * gc[i];
  }
  if (H) {
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) H[i * 12 + j] = dm * Hc[i * 12 + j] + d2m * (gc[i] * gc[j]);
  }
  return (2.0 - r) * r;
}
