/* frames/planes.obj: the analytic planes as squares around everything the run has shown
   (frame_planes.h) */
#include "io/frame_planes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "io/path.h"

/* the box of the planes.obj written before into lo, hi (grown, never shrunk); a missing or
   foreign file adds nothing */
static void previous_box(const char *path, double lo[3], double hi[3]) {
  ipcc_error ignored;
  char *text = ipc_read_file_max(path, (size_t)1 << 20, NULL, &ignored);
  if (!text) return;
  const char *line = strstr(text, "\n# box ");
  double b[6];
  if (line &&
      sscanf(line + 7, "%lf %lf %lf %lf %lf %lf", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) == 6) {
    int finite = 1;
    for (int k = 0; k < 6; ++k) finite &= isfinite(b[k]) != 0;
    for (int k = 0; finite && k < 3; ++k) {
      lo[k] = fmin(lo[k], b[k]);
      hi[k] = fmax(hi[k], b[3 + k]);
    }
  }
  ipc_free(text);
}

/* u, v spanning the plane of unit normal n, u x v = n: u = normalize(n x e), e the coordinate
   axis least aligned with n */
static void plane_axes(const double n[3], double u[3], double v[3]) {
  int e = 0;
  for (int k = 1; k < 3; ++k)
    if (fabs(n[k]) < fabs(n[e])) e = k;
  double ax[3] = {0, 0, 0};
  ax[e] = 1;
  u[0] = n[1] * ax[2] - n[2] * ax[1];
  u[1] = n[2] * ax[0] - n[0] * ax[2];
  u[2] = n[0] * ax[1] - n[1] * ax[0];
  double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int k = 0; k < 3; ++k) u[k] /= l;
  v[0] = n[1] * u[2] - n[2] * u[1];
  v[1] = n[2] * u[0] - n[0] * u[2];
  v[2] = n[0] * u[1] - n[1] * u[0];
}

ipcc_status ipc_planes_write_obj(const char *dir, int frame, int nplanes, const double *points,
                                 const double *normals, const double *x, int nverts,
                                 ipcc_error *err) {
  char *path = ipc_path_join(dir, IPC_PLANES_FILE);
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < nverts; ++i)
    for (int k = 0; k < 3; ++k) {
      lo[k] = fmin(lo[k], x[3 * i + k]);
      hi[k] = fmax(hi[k], x[3 * i + k]);
    }
  if (frame > 0) previous_box(path, lo, hi);
  if (!(lo[0] <= hi[0])) /* no vertices: a unit box at the origin */
    for (int k = 0; k < 3; ++k) lo[k] = -0.5, hi[k] = 0.5;
  double mid[3], diag2 = 0;
  for (int k = 0; k < 3; ++k) {
    mid[k] = 0.5 * (lo[k] + hi[k]);
    diag2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
  }
  double margin = fmax(0.5 * sqrt(diag2), 1e-3); /* a box of one point still gets 2 mm */
  ipc_atomic_file af;
  ipcc_status st = ipc_atomic_open(&af, path, err);
  if (st != IPCC_OK) {
    ipc_free(path);
    return st;
  }
  FILE *f = af.f;
  fprintf(f,
          "# ipcc planes: the scene's analytic planes as squares (counter-clockwise seen from "
          "the allowed side) covering every frame up to frame %d\n",
          frame);
  fprintf(f, "# box %.17g %.17g %.17g %.17g %.17g %.17g\n", lo[0], lo[1], lo[2], hi[0], hi[1],
          hi[2]);
  for (int p = 0; p < nplanes; ++p) {
    const double *n = normals + 3 * p, *q = points + 3 * p;
    double u[3], v[3], c[3];
    plane_axes(n, u, v);
    double above = (mid[0] - q[0]) * n[0] + (mid[1] - q[1]) * n[1] + (mid[2] - q[2]) * n[2];
    for (int k = 0; k < 3; ++k) c[k] = mid[k] - above * n[k];
    /* half the side: the box's corners seen along the normal, plus the margin */
    double half = 0;
    for (int corner = 0; corner < 8; ++corner) {
      double d[3];
      for (int k = 0; k < 3; ++k) d[k] = ((corner >> k) & 1 ? hi[k] : lo[k]) - c[k];
      half = fmax(half, fabs(d[0] * u[0] + d[1] * u[1] + d[2] * u[2]));
      half = fmax(half, fabs(d[0] * v[0] + d[1] * v[1] + d[2] * v[2]));
    }
    half += margin;
    fprintf(f, "o plane_%d\n# point %.17g %.17g %.17g normal %.17g %.17g %.17g\n", p, q[0], q[1],
            q[2], n[0], n[1], n[2]);
    static const double su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; ++k)
      fprintf(f, "v %.17g %.17g %.17g\n", c[0] + half * (su[k] * u[0] + sv[k] * v[0]),
              c[1] + half * (su[k] * u[1] + sv[k] * v[1]),
              c[2] + half * (su[k] * u[2] + sv[k] * v[2]));
    fprintf(f, "vn %.17g %.17g %.17g\n", n[0], n[1], n[2]);
    int b = 4 * p, nb = p + 1;
    fprintf(f, "f %d//%d %d//%d %d//%d\nf %d//%d %d//%d %d//%d\n", b + 1, nb, b + 2, nb, b + 3, nb,
            b + 1, nb, b + 3, nb, b + 4, nb);
  }
  st = ipc_atomic_commit(&af, err);
  ipc_free(path);
  return st;
}
