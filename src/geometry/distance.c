/* squared distances between points, edges and triangles and their closest-feature types, as in
 * IPC (Li et al. 2020, "Incremental Potential Contact"): the distance between closed simplices
 * is the elementary (unclamped) distance of the closest sub-simplex pair, so each type has a
 * smooth formula and classification only picks the pair.
 *
 * Every elementary distance is written in a few local difference vectors y_k = x_plus - x_minus
 * of the point coordinates, then scattered to the points (dy_k/dx = +-I):
 *   point-point   w = p - q:                  d = w.w
 *   point-line    w = p - e0, e = e1 - e0:    d = N/D, N = |w x e|^2, D = e.e
 *   point-plane   w = p - t0, u = t1 - t0, v = t2 - t0
 *   line-line     w = b0 - a0, u = a1 - a0, v = b1 - b0
 *                 both: d = s^2/D, s = w.(u x v) (triple product), D = |u x v|^2
 * With n = u x v and [a]x the cross-product matrix ([a]x b = a x b):
 *   grad s = (n, v x w, w x u);  d2s/dwdu = -[v]x, d2s/dwdv = [u]x, d2s/dudv = -[w]x
 *   grad D = (0, 2 v x n, 2 n x u);  d2D/du2 = 2(|v|^2 I - v v^T), d2D/dv2 = 2(|u|^2 I - u u^T),
 *   d2D/dudv = 2(u v^T - (u.v) I - [n]x)
 * and for c = w x e (point-line):  grad N = (2 e x c, -2 w x c);
 *   d2N/dw2 = 2(|e|^2 I - e e^T), d2N/de2 = 2(|w|^2 I - w w^T),
 *   d2N/dwde = 2(w e^T - (w.e) I - [c]x).
 * The quotient f = N/D has grad f = (grad N - f grad D)/D and
 *   hess f = (hess N - f hess D - grad f grad D^T - grad D grad f^T)/D.
 * The forms above use cross products rather than Lagrange-identity differences so that small
 * distances and small angles keep their relative accuracy. */
#include "geometry/distance.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/vec3.h"

/* M[bi, bj] += t x y^T + r I and, if bi != bj, M[bj, bi] += its transpose (ny x ny matrix) */
static inline void add_outer(double *M, int ny, int bi, int bj, double t, const double x[3],
                             const double y[3], double r) {
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      const double v = t * x[a] * y[b] + (a == b ? r : 0.0);
      M[(3 * bi + a) * ny + 3 * bj + b] += v;
      if (bi != bj) M[(3 * bj + b) * ny + 3 * bi + a] += v;
    }
  }
}

/* M[bi, bj] += c [a]x and M[bj, bi] += (c [a]x)^T, bi != bj */
static inline void add_cross(double *M, int ny, int bi, int bj, double c, const double a[3]) {
  static const int r[6] = {0, 0, 1, 1, 2, 2}, q[6] = {1, 2, 0, 2, 0, 1}, k[6] = {2, 1, 2, 0, 1, 0};
  static const double sgn[6] = {-1.0, 1.0, 1.0, -1.0, -1.0, 1.0};
  for (int e = 0; e < 6; ++e) {
    const double v = sgn[e] * c * a[k[e]];
    M[(3 * bi + r[e]) * ny + 3 * bj + q[e]] += v;
    M[(3 * bj + q[e]) * ny + 3 * bi + r[e]] += v;
  }
}

/* g = J^T gy and H = J^T Hy J for the map J from npts (<= 4) points to nvec (<= 3) local
 * difference vectors y_k = x[plus[k]] - x[minus[k]], block by block; g/H (3 npts, may be NULL)
 * are fully overwritten, zero where no vector touches, and H is exactly symmetric */
static void scatter(int nvec, const int *plus, const int *minus, int npts, const double *gy,
                    const double *Hy, double *g, double *H) {
  const int n = 3 * npts, ny = 3 * nvec;
  if (g) {
    memset(g, 0, sizeof(double) * (size_t)n);
    for (int k = 0; k < nvec; ++k)
      for (int a = 0; a < 3; ++a) {
        g[3 * plus[k] + a] += gy[3 * k + a];
        g[3 * minus[k] + a] -= gy[3 * k + a];
      }
  }
  if (!H) return;
  /* point P is touched by vectors vec[P][0..cnt[P]) with signs sgn[P][.] */
  int cnt[4] = {0, 0, 0, 0}, vec[4][3];
  double sgn[4][3];
  for (int k = 0; k < nvec; ++k) {
    vec[plus[k]][cnt[plus[k]]] = k;
    sgn[plus[k]][cnt[plus[k]]++] = 1.0;
    vec[minus[k]][cnt[minus[k]]] = k;
    sgn[minus[k]][cnt[minus[k]]++] = -1.0;
  }
  for (int P = 0; P < npts; ++P)
    for (int Q = P; Q < npts; ++Q) {
      double B[9] = {0.0};
      for (int i = 0; i < cnt[P]; ++i)
        for (int j = 0; j < cnt[Q]; ++j) {
          const double st = sgn[P][i] * sgn[Q][j];
          const double *hb = Hy + 3 * vec[P][i] * ny + 3 * vec[Q][j];
          for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) B[3 * a + b] += st * hb[a * ny + b];
        }
      double *hpq = H + 3 * P * n + 3 * Q, *hqp = H + 3 * Q * n + 3 * P;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
          if (P != Q) {
            hpq[a * n + b] = B[3 * a + b];
            hqp[b * n + a] = B[3 * a + b];
          } else {
            hpq[a * n + b] = a <= b ? B[3 * a + b] : B[3 * b + a];
          }
        }
    }
}

/* |p - q|^2 with p, q at point slots ip, iq of npts */
static double pp_local(const double p[3], const double q[3], int ip, int iq, int npts, double *g,
                       double *H) {
  double w[3];
  sub3(w, p, q);
  const double d = dot3(w, w);
  if (g || H) {
    const double gy[3] = {2.0 * w[0], 2.0 * w[1], 2.0 * w[2]};
    const double Hy[9] = {2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0};
    const int plus[1] = {ip}, minus[1] = {iq};
    scatter(1, plus, minus, npts, gy, Hy, g, H);
  }
  return d;
}

/* squared distance from p to the line e0 e1, points at slots ip, ie0, ie1 of npts */
static double pe_local(const double p[3], const double e0[3], const double e1[3], int ip, int ie0,
                       int ie1, int npts, double *g, double *H) {
  double w[3], e[3], c[3];
  sub3(w, p, e0);
  sub3(e, e1, e0);
  cross3(c, w, e);
  const double N = dot3(c, c), D = dot3(e, e), f = N / D;
  if (!g && !H) return f;

  /* local dofs (w, e); grad D = (0, 2e), hess D = 2I on (e, e) */
  const double iD = 1.0 / D;
  double gf[6], gD[6] = {0.0, 0.0, 0.0, 2.0 * e[0], 2.0 * e[1], 2.0 * e[2]}, ec[3], wc[3];
  cross3(ec, e, c);
  cross3(wc, w, c);
  for (int a = 0; a < 3; ++a) {
    gf[a] = 2.0 * ec[a] * iD;
    gf[3 + a] = (-2.0 * wc[a] - f * gD[3 + a]) * iD;
  }
  double Hf[36];
  if (H) {
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) Hf[i * 6 + j] = -(gf[i] * gD[j] + gD[i] * gf[j]) * iD;
    const double t = 2.0 * iD;
    add_outer(Hf, 6, 0, 0, -t, e, e, t * D);
    add_outer(Hf, 6, 1, 1, -t, w, w, t * (dot3(w, w) - f));
    add_outer(Hf, 6, 0, 1, t, w, e, -t * dot3(w, e));
    add_cross(Hf, 6, 0, 1, -t, c);
  }
  const int plus[2] = {ip, ie1}, minus[2] = {ie0, ie0};
  scatter(2, plus, minus, npts, gf, Hf, g, H);
  return f;
}

/* s^2/|u x v|^2 with s = w.(u x v), w = x[plus[0]] - x[minus[0]], u, v likewise: the squared
 * distance from a point to a plane (point-triangle) or between two lines (edge-edge) */
static double triple_local(const double *const x[4], const int plus[3], const int minus[3],
                           double *g, double *H) {
  double w[3], u[3], v[3], n[3];
  sub3(w, x[plus[0]], x[minus[0]]);
  sub3(u, x[plus[1]], x[minus[1]]);
  sub3(v, x[plus[2]], x[minus[2]]);
  cross3(n, u, v);
  const double s = dot3(w, n), D = dot3(n, n), f = s * s / D;
  if (!g && !H) return f;

  /* local dofs (w, u, v) */
  const double iD = 1.0 / D;
  double gs[9], gD[9], gf[9], vn[3], nu[3];
  cross3(gs + 3, v, w);
  cross3(gs + 6, w, u);
  memcpy(gs, n, sizeof n);
  cross3(vn, v, n);
  cross3(nu, n, u);
  for (int a = 0; a < 3; ++a) {
    gD[a] = 0.0;
    gD[3 + a] = 2.0 * vn[a];
    gD[6 + a] = 2.0 * nu[a];
  }
  for (int i = 0; i < 9; ++i) gf[i] = (2.0 * s * gs[i] - f * gD[i]) * iD;

  double Hf[81];
  if (H) {
    double gs2[9], gDi[9], gfi[9];
    for (int i = 0; i < 9; ++i) {
      gs2[i] = 2.0 * gs[i] * iD;
      gDi[i] = gD[i] * iD;
      gfi[i] = gf[i] * iD;
    }
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 9; ++j) Hf[i * 9 + j] = gs2[i] * gs[j] - gfi[i] * gD[j] - gDi[i] * gf[j];
    /* 2 s hess(s) / D */
    const double c = 2.0 * s * iD;
    add_cross(Hf, 9, 0, 1, -c, v);
    add_cross(Hf, 9, 0, 2, c, u);
    add_cross(Hf, 9, 1, 2, -c, w);
    /* -f hess(D) / D on the (u, v) blocks */
    const double k = -2.0 * f * iD;
    add_outer(Hf, 9, 1, 1, -k, v, v, k * dot3(v, v));
    add_outer(Hf, 9, 2, 2, -k, u, u, k * dot3(u, u));
    add_outer(Hf, 9, 1, 2, k, u, v, -k * dot3(u, v));
    add_cross(Hf, 9, 1, 2, -k, n);
  }
  scatter(3, plus, minus, 4, gf, Hf, g, H);
  return f;
}

double ipc_pp_dist2(const double p[3], const double q[3], double g[6], double H[36]) {
  return pp_local(p, q, 0, 1, 2, g, H);
}

double ipc_pe_dist2(const double p[3], const double e0[3], const double e1[3], double g[9],
                    double H[81]) {
  return pe_local(p, e0, e1, 0, 1, 2, 3, g, H);
}

double ipc_pt_dist2(const double p[3], const double t0[3], const double t1[3], const double t2[3],
                    double g[12], double H[144]) {
  const double *x[4] = {p, t0, t1, t2};
  static const int plus[3] = {0, 2, 3}, minus[3] = {1, 1, 1};
  return triple_local(x, plus, minus, g, H);
}

double ipc_ee_dist2(const double a0[3], const double a1[3], const double b0[3], const double b1[3],
                    double g[12], double H[144]) {
  const double *x[4] = {a0, a1, b0, b1};
  static const int plus[3] = {2, 1, 3}, minus[3] = {0, 0, 2};
  return triple_local(x, plus, minus, g, H);
}

/* squared distance from p to the closed segment e0 e1; *which = 0 (e0), 1 (e1), 2 (interior) */
static double point_segment(const double p[3], const double e0[3], const double e1[3], int *which) {
  double w[3], e[3], r[3];
  sub3(w, p, e0);
  sub3(e, e1, e0);
  const double we = dot3(w, e), ee = dot3(e, e);
  if (we <= 0.0 || ee == 0.0) {
    *which = 0;
    return dot3(w, w);
  }
  if (we >= ee) {
    *which = 1;
    sub3(r, p, e1);
    return dot3(r, r);
  }
  *which = 2;
  const double t = we / ee;
  for (int a = 0; a < 3; ++a) r[a] = w[a] - t * e[a];
  return dot3(r, r);
}

ipc_pe_type ipc_pe_classify(const double p[3], const double e0[3], const double e1[3]) {
  static const ipc_pe_type types[3] = {IPC_PE_P_E0, IPC_PE_P_E1, IPC_PE_P_E};
  int which;
  point_segment(p, e0, e1, &which);
  return types[which];
}

ipc_pt_type ipc_pt_classify(const double p[3], const double t0[3], const double t1[3],
                            const double t2[3]) {
  const double *t[3] = {t0, t1, t2};
  double e[3][3], n[3];
  sub3(e[0], t1, t0);
  sub3(e[1], t2, t1);
  sub3(e[2], t0, t2);
  cross3(n, e[0], e[1]);
  double lmax2 = dot3(e[0], e[0]);
  for (int k = 1; k < 3; ++k) {
    const double l2 = dot3(e[k], e[k]);
    if (l2 > lmax2) lmax2 = l2;
  }
  const double nn = dot3(n, n);
  if (nn > 0.0 && nn >= IPC_PT_DEGENERATE_SIN2 * lmax2 * lmax2) {
    /* unnormalised barycentric coordinates of the projection of p: signed areas against n */
    double r[3][3], c[3];
    int inside = 1;
    for (int k = 0; k < 3; ++k) sub3(r[k], t[k], p);
    for (int k = 0; k < 3 && inside; ++k) {
      cross3(c, r[(k + 1) % 3], r[(k + 2) % 3]);
      if (dot3(c, n) < 0.0) inside = 0;
    }
    if (inside) return IPC_PT_P_T;
  }
  /* the projection is outside (or the triangle is degenerate): the closest point is on the
   * boundary, i.e. on the closest of the three closed edges */
  static const ipc_pt_type types[3][3] = {{IPC_PT_P_T0, IPC_PT_P_T1, IPC_PT_P_E0},
                                          {IPC_PT_P_T1, IPC_PT_P_T2, IPC_PT_P_E1},
                                          {IPC_PT_P_T2, IPC_PT_P_T0, IPC_PT_P_E2}};
  ipc_pt_type best = IPC_PT_P_T0;
  double dbest = 0.0;
  for (int k = 0; k < 3; ++k) {
    int which;
    const double d = point_segment(p, t[k], t[(k + 1) % 3], &which);
    if (k == 0 || d < dbest) {
      dbest = d;
      best = types[k][which];
    }
  }
  return best;
}

/* x = M^-1 r for the symmetric M = [a b; b c] as Eigen's LDLT solves it (diagonal pivoting, the
   larger diagonal entry first; a zero pivot gives 0), the solve IPC's dType_PT makes */
static void ldlt2_solve(double a, double b, double c, const double r[2], double x[2]) {
  const int sw = fabs(c) > fabs(a);
  const double d0 = sw ? c : a;
  if (d0 == 0.0) { /* the whole diagonal is zero */
    x[0] = x[1] = 0.0;
    return;
  }
  const double l = b / d0, d1 = (sw ? a : c) - l * (d0 * l);
  double y0 = r[sw], y1 = r[1 - sw];
  y1 -= l * y0;
  y0 = fabs(d0) > DBL_MIN ? y0 / d0 : 0.0;
  y1 = fabs(d1) > DBL_MIN ? y1 / d1 : 0.0;
  y0 -= l * y1;
  x[sw] = y0;
  x[1 - sw] = y1;
}

/* IPC's coordinates of p against the edge from s to s + e of a triangle with normal n: along
   the edge (0 at s, 1 at its end) and across it (>= 0 on the edge's line or outside) */
static void ipc_edge_params(const double p[3], const double s[3], const double e[3],
                            const double n[3], double par[2]) {
  double q[3], w[3];
  cross3(q, e, n);
  sub3(w, p, s);
  const double r[2] = {dot3(e, w), dot3(q, w)};
  ldlt2_solve(dot3(e, e), dot3(q, e), dot3(q, q), r, par);
}

ipc_pt_type ipc_pt_classify_ipc(const double p[3], const double t0[3], const double t1[3],
                                const double t2[3]) {
  const double *t[3] = {t0, t1, t2};
  double e[3], e2[3], n[3], par[3][2];
  sub3(e, t1, t0);
  sub3(e2, t2, t0);
  cross3(n, e, e2);
  static const ipc_pt_type edge_type[3] = {IPC_PT_P_E0, IPC_PT_P_E1, IPC_PT_P_E2};
  for (int k = 0; k < 3; ++k) {
    sub3(e, t[(k + 1) % 3], t[k]);
    ipc_edge_params(p, t[k], e, n, par[k]);
    if (par[k][0] > 0.0 && par[k][0] < 1.0 && par[k][1] >= 0.0) return edge_type[k];
  }
  if (par[0][0] <= 0.0 && par[2][0] >= 1.0) return IPC_PT_P_T0;
  if (par[1][0] <= 0.0 && par[0][0] >= 1.0) return IPC_PT_P_T1;
  if (par[2][0] <= 0.0 && par[1][0] >= 1.0) return IPC_PT_P_T2;
  return IPC_PT_P_T;
}

ipc_ee_type ipc_ee_classify_ipc(const double a0[3], const double a1[3], const double b0[3],
                                const double b1[3]) {
  double u[3], v[3], w[3], uv[3];
  sub3(u, a1, a0);
  sub3(v, b1, b0);
  sub3(w, a0, b0);
  const double a = dot3(u, u), b = dot3(u, v), c = dot3(v, v), d = dot3(u, w), e = dot3(v, w);
  const double D = a * c - b * b, sN = b * e - c * d;
  double tN, tD = D;
  ipc_ee_type interior = IPC_EE_A_B;
  if (sN <= 0.0) { /* the closest point of line a is at or before a0: a0 against b */
    tN = e;
    tD = c;
    interior = IPC_EE_A0_B;
  } else if (sN >= D) { /* at or after a1 */
    tN = e + b;
    tD = c;
    interior = IPC_EE_A1_B;
  } else {
    tN = a * e - b * d;
    cross3(uv, u, v);
    /* coplanar or nearly parallel edges: an end point of a against b */
    if (tN > 0.0 && tN < tD && (dot3(uv, w) == 0.0 || dot3(uv, uv) < 1.0e-20 * a * c)) {
      interior = sN < D / 2 ? IPC_EE_A0_B : IPC_EE_A1_B;
      tN = sN < D / 2 ? e : e + b;
      tD = c;
    }
  }
  if (tN <= 0.0) /* b0 against a */
    return -d <= 0.0 ? IPC_EE_A0_B0 : -d >= a ? IPC_EE_A1_B0 : IPC_EE_A_B0;
  if (tN >= tD) /* b1 against a */
    return -d + b <= 0.0 ? IPC_EE_A0_B1 : -d + b >= a ? IPC_EE_A1_B1 : IPC_EE_A_B1;
  return interior;
}

ipc_ee_type ipc_ee_classify(const double a0[3], const double a1[3], const double b0[3],
                            const double b1[3]) {
  double u[3], v[3], n[3];
  sub3(u, a1, a0);
  sub3(v, b1, b0);
  cross3(n, u, v);
  const double uu = dot3(u, u), vv = dot3(v, v), nn = dot3(n, n);
  if (uu > 0.0 && vv > 0.0 && nn >= IPC_EE_PARALLEL_SIN2 * uu * vv) {
    /* line parameters of the closest points: a0 + s u = b0 + t v + k n */
    double w[3], c[3];
    sub3(w, b0, a0);
    cross3(c, w, v);
    const double sn = dot3(c, n);
    cross3(c, w, u);
    const double tn = dot3(c, n);
    if (sn > 0.0 && sn < nn && tn > 0.0 && tn < nn) return IPC_EE_A_B;
  }
  /* the unconstrained minimiser is outside [0,1]^2, not unique (parallel), or an edge is
   * degenerate: the minimum is on the boundary of the parameter square, i.e. an end point
   * against the other closed segment. A degenerate edge is only tested through its point 0. */
  static const ipc_ee_type types[4][3] = {{IPC_EE_A0_B0, IPC_EE_A0_B1, IPC_EE_A0_B},
                                          {IPC_EE_A1_B0, IPC_EE_A1_B1, IPC_EE_A1_B},
                                          {IPC_EE_A0_B0, IPC_EE_A1_B0, IPC_EE_A_B0},
                                          {IPC_EE_A0_B1, IPC_EE_A1_B1, IPC_EE_A_B1}};
  const double *pts[4] = {a0, a1, b0, b1};
  ipc_ee_type best = IPC_EE_A0_B0;
  double dbest = 0.0;
  int first = 1;
  for (int k = 0; k < 4; ++k) {
    if ((k == 1 && uu == 0.0) || (k == 3 && vv == 0.0)) continue;
    const double *e0 = k < 2 ? b0 : a0, *e1 = k < 2 ? b1 : a1;
    int which;
    const double d = point_segment(pts[k], e0, e1, &which);
    if (first || d < dbest) {
      first = 0;
      dbest = d;
      best = types[k][which];
    }
  }
  return best;
}

double ipc_pt_distance2(const double p[3], const double t0[3], const double t1[3],
                        const double t2[3], ipc_pt_type type, double g[12], double H[144]) {
  switch (type) {
    case IPC_PT_P_T0:
      return pp_local(p, t0, 0, 1, 4, g, H);
    case IPC_PT_P_T1:
      return pp_local(p, t1, 0, 2, 4, g, H);
    case IPC_PT_P_T2:
      return pp_local(p, t2, 0, 3, 4, g, H);
    case IPC_PT_P_E0:
      return pe_local(p, t0, t1, 0, 1, 2, 4, g, H);
    case IPC_PT_P_E1:
      return pe_local(p, t1, t2, 0, 2, 3, 4, g, H);
    case IPC_PT_P_E2:
      return pe_local(p, t2, t0, 0, 3, 1, 4, g, H);
    case IPC_PT_P_T:
      break;
  }
  return ipc_pt_dist2(p, t0, t1, t2, g, H);
}

double ipc_ee_distance2(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3], ipc_ee_type type, double g[12], double H[144]) {
  switch (type) {
    case IPC_EE_A0_B0:
      return pp_local(a0, b0, 0, 2, 4, g, H);
    case IPC_EE_A0_B1:
      return pp_local(a0, b1, 0, 3, 4, g, H);
    case IPC_EE_A1_B0:
      return pp_local(a1, b0, 1, 2, 4, g, H);
    case IPC_EE_A1_B1:
      return pp_local(a1, b1, 1, 3, 4, g, H);
    case IPC_EE_A_B0:
      return pe_local(b0, a0, a1, 2, 0, 1, 4, g, H);
    case IPC_EE_A_B1:
      return pe_local(b1, a0, a1, 3, 0, 1, 4, g, H);
    case IPC_EE_A0_B:
      return pe_local(a0, b0, b1, 0, 2, 3, 4, g, H);
    case IPC_EE_A1_B:
      return pe_local(a1, b0, b1, 1, 2, 3, 4, g, H);
    case IPC_EE_A_B:
      break;
  }
  return ipc_ee_dist2(a0, a1, b0, b1, g, H);
}

double ipc_pe_distance2(const double p[3], const double e0[3], const double e1[3], ipc_pe_type type,
                        double g[9], double H[81]) {
  switch (type) {
    case IPC_PE_P_E0:
      return pp_local(p, e0, 0, 1, 3, g, H);
    case IPC_PE_P_E1:
      return pp_local(p, e1, 0, 2, 3, g, H);
    case IPC_PE_P_E:
      break;
  }
  return pe_local(p, e0, e1, 0, 1, 2, 3, g, H);
}

int ipc_pt_type_points(ipc_pt_type type) {
  static const int points[] = {0x3, 0x5, 0x9, 0x7, 0xD, 0xB, 0xF};
  return points[type];
}

int ipc_ee_type_points(ipc_ee_type type) {
  static const int points[] = {0x5, 0x9, 0x6, 0xA, 0x7, 0xB, 0xD, 0xE, 0xF};
  return points[type];
}

int ipc_pe_type_points(ipc_pe_type type) {
  static const int points[] = {0x3, 0x5, 0x7};
  return points[type];
}

double ipc_pair_distance2(ipc_pair_kind kind, const double x[4][3]) {
  switch (kind) {
    case IPC_PAIR_PT:
      return ipc_pt_distance2(x[0], x[1], x[2], x[3], ipc_pt_classify(x[0], x[1], x[2], x[3]), NULL,
                              NULL);
    case IPC_PAIR_EE:
      return ipc_ee_distance2(x[0], x[1], x[2], x[3], ipc_ee_classify(x[0], x[1], x[2], x[3]), NULL,
                              NULL);
    case IPC_PAIR_PE:
      return ipc_pe_distance2(x[0], x[1], x[2], ipc_pe_classify(x[0], x[1], x[2]), NULL, NULL);
    default:
      return ipc_pp_dist2(x[0], x[1], NULL, NULL);
  }
}

int ipc_pair_stays_apart(ipc_pair_kind kind, const double x[4][3], const double d[4][3],
                         double tmax, double dist, const double sag[2], double M) {
  return ipc_pair_stays_beyond(kind, x, d, tmax, dist, 1.0, sag, M);
}

/* a lower bound on the distance between the hulls of points x[0..na) and x[na..nv): their
   separation along the line through their centroids (the projection of a hull onto a unit
   axis lies within its centroid's projection plus the largest offset of its points), 0 or
   less when they overlap along it. No division, branches only on the result */
/* x / n for n in 1 .. 4, as a product where 1 / n is a power of two: the same correctly
   rounded quotient without a division */
static inline double div_small(double x, int n) {
  return n == 3 ? x / 3.0 : x * (n == 4 ? 0.25 : n == 2 ? 0.5 : 1.0);
}

static double separation(const double x[4][3], int na, int nv) {
  double ca[3] = {0.0, 0.0, 0.0}, cb[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < nv; ++k)
    for (int a = 0; a < 3; ++a) {
      if (k < na)
        ca[a] += div_small(x[k][a], na);
      else
        cb[a] += div_small(x[k][a], nv - na);
    }
  double u[3] = {cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]};
  double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  if (!(len > 0.0)) return 0.0;
  double ea = 0.0, eb = 0.0;
  for (int k = 0; k < nv; ++k) {
    const double *c = k < na ? ca : cb;
    double o = fabs((x[k][0] - c[0]) * u[0] + (x[k][1] - c[1]) * u[1] + (x[k][2] - c[2]) * u[2]);
    if (k < na)
      ea = o > ea ? o : ea;
    else
      eb = o > eb ? o : eb;
  }
  return len - (ea + eb) / len;
}

int ipc_pair_stays_beyond_lb(ipc_pair_kind kind, const double x[4][3], const double d[4][3],
                             double tmax, double dist, double reach_scale, const double sag[2],
                             double M, double *lb) {
  int nv = kind == IPC_PAIR_PT || kind == IPC_PAIR_EE ? 4 : kind == IPC_PAIR_PE ? 3 : 2;
  int na = kind == IPC_PAIR_EE ? 2 : 1;
  double c[3] = {0.0, 0.0, 0.0}, reach[2] = {0.0, 0.0};
  for (int k = 0; k < nv; ++k)
    for (int a = 0; a < 3; ++a) c[a] += div_small(d[k][a], nv);
  /* the largest length of each side, from its largest square (a correctly rounded square
     root is monotone: the same as the largest of the roots) */
  for (int k = 0; k < nv; ++k) {
    double r[3] = {d[k][0] - c[0], d[k][1] - c[1], d[k][2] - c[2]};
    double len2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    int side = k >= na;
    if (len2 > reach[side]) reach[side] = len2;
  }
  reach[0] = sqrt(reach[0]);
  reach[1] = sqrt(reach[1]);
  double bound = dist + reach_scale * tmax * (reach[0] + reach[1]) + sag[0] + sag[1];
  double thr = bound * (1.0 + 1e-9) + 1e-7 * M;
  /* most pairs a broad phase reports are neighbours well apart: the separating axis through
     the centroids tells them apart without the closest-feature classification. Its margin is
     twice the distance's, so that what it drops the distance below would drop too (the
     distance may read up to 4e-8 M short, above): the same pairs either way */
  double sep = separation(x, na, nv);
  if (sep * (1.0 - 1e-9) > thr + 1e-7 * M) {
    if (lb) *lb = sep;
    return 1;
  }
  double dd = sqrt(ipc_pair_distance2(kind, x));
  if (lb) *lb = dd > sep ? dd : sep;
  return dd * (1.0 - 1e-9) > thr;
}

int ipc_pair_stays_beyond(ipc_pair_kind kind, const double x[4][3], const double d[4][3],
                          double tmax, double dist, double reach_scale, const double sag[2],
                          double M) {
  return ipc_pair_stays_beyond_lb(kind, x, d, tmax, dist, reach_scale, sag, M, NULL);
}
