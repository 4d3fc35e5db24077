/* frame previews: a small software rasterizer (pinhole camera, z-buffer on 1/z, Gouraud
   Lambert shading with a key and a fill light, 2x2 supersampling). the default camera
   frames the dynamic bodies; they get a color each and show through the kinematic
   obstacles (grey) in front of them; every half-space plane seen from its open side is a
   checkered patch around the bodies. pure double arithmetic in a fixed order, so the same
   frame gives the same picture. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "io/render_model.h"
#include "io/world_output.h"

enum { SS = 2 }; /* supersampling factor per axis */
/* the samples of one band of rows: the buffers hold a band at a time (64 bytes a sample), so
   an 8192 x 8192 picture (268 M samples) needs 128 MiB of them instead of 17 GiB */
enum { BAND_SAMPLES = 1 << 21 };
static const double deg = 3.14159265358979323846 / 180.0;

typedef struct view {
  double eye[3], r[3], u[3], f[3]; /* camera frame: right, up, forward */
  double focal, cx, cy, near;
  double key[3], fill[3]; /* unit directions towards the lights */
  int ok;                 /* 0: no direction to look in, nothing is drawn */
  int w, h;               /* the whole picture, in samples */
  int y0, rows;           /* the band of sample rows the buffers hold */
  double *color;          /* (rows x w x 3) in [0, 1] */
  double *iz;             /* (rows x w) 1 / depth, 0 = empty */
  double tile;            /* > 0: the triangle drawn is checkered in space by cubes of this
                             side (obstacles), its world corners in wp */
  const double *wp[3];
} view;

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void cross3(double o[3], const double a[3], const double b[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static int normalize3(double a[3]) {
  double n = sqrt(dot3(a, a));
  if (!(n > 0)) return 0;
  for (int d = 0; d < 3; ++d) a[d] /= n;
  return 1;
}

/* a unit vector against gravity, +y without gravity */
static void up_of(const ipc_model *m, double up[3]) {
  for (int d = 0; d < 3; ++d) up[d] = -m->params.gravity[d];
  if (!normalize3(up)) {
    up[0] = up[2] = 0;
    up[1] = 1;
  }
}

/* 1 when vertex i is framed: a vertex of a dynamic body, or any vertex when every body is an
   obstacle (huge obstacles and the planes are only context) */
static int framed_vertex(const ipc_model *m, int all, int i) {
  return all || !m->bodies[m->surface.vert_body[i]].obstacle;
}

static int frames_all(const ipc_model *m) {
  for (int b = 0; b < m->nbodies; ++b)
    if (!m->bodies[b].obstacle && m->bodies[b].nv > 0) return 0;
  return 1;
}

/* the n points p with their feet on each floor (a plane facing up, not far below them)
   added; p has room for (1 + floors) n + 1 points. Returns the count (the origin alone when
   n is 0) */
static int add_floor_feet(const ipc_model *m, const double up[3], double *p, int n) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], p[3 * i + d]);
      hi[d] = fmax(hi[d], p[3 * i + d]);
    }
  double diag = 0;
  for (int d = 0; d < 3 && n > 0; ++d) diag += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  diag = sqrt(diag) > 0 ? sqrt(diag) : 1.0;
  int nb = n;
  for (int ip = 0; ip < m->nplanes; ++ip) {
    const ipc_plane *pl = &m->planes[ip];
    if (dot3(pl->normal, up) < 0.5) continue; /* walls and ceilings */
    for (int i = 0; i < nb; ++i) {
      const double *x = p + 3 * (size_t)i;
      double h = dot3(pl->normal, x) - dot3(pl->normal, pl->point);
      if (!(h >= 0 && h < 2 * diag)) continue;
      double *q = p + 3 * (size_t)n++;
      for (int d = 0; d < 3; ++d) q[d] = x[d] - h * pl->normal[d];
    }
  }
  if (n == 0) { /* no vertices at all: the origin */
    p[0] = p[1] = p[2] = 0;
    n = 1;
  }
  return n;
}

/* room for np points and their floor feet */
static double *feet_room(const ipc_model *m, const double up[3], int np) {
  int nfloors = 0;
  for (int ip = 0; ip < m->nplanes; ++ip) nfloors += dot3(m->planes[ip].normal, up) >= 0.5;
  return IPC_NEW(double, 3 * (size_t)(1 + nfloors) * (size_t)np + 3);
}

/* the points a preview frames: the framed vertices at x0 and their feet on the floors. *n
   gets the count; ipc_free the array */
static double *frame_points(const ipc_model *m, const double *x0, const double up[3], int *n) {
  double *p = feet_room(m, up, m->nverts);
  int all = frames_all(m), k = 0;
  for (int i = 0; i < m->nverts; ++i)
    if (framed_vertex(m, all, i)) memcpy(p + 3 * (size_t)k++, x0 + 3 * (size_t)i, 3 * sizeof *x0);
  *n = add_floor_feet(m, up, p, k);
  return p;
}

/* the distance from c along dir at which the points fill the picture (4:3, as the
   previews) with a margin, but no less than 0.6 diag / tan(fov / 2); and the sideways shift
   of c (right r, up u: shift[0], shift[1]) that centers their picture */
static double fit_points(const double *p, int n, double diag, const double c[3],
                         const double dir[3], const double r[3], const double u[3], double fov,
                         double shift[2]) {
  double f[3] = {-dir[0], -dir[1], -dir[2]};
  double ty = 0.75 * tan(0.5 * fov * deg), tx = ty * 4.0 / 3.0, dist = 0, zmin = 0;
  for (int i = 0; i < n; ++i) {
    double q[3] = {p[3 * i] - c[0], p[3 * i + 1] - c[1], p[3 * i + 2] - c[2]};
    double x = dot3(q, r), y = dot3(q, u), z = dot3(q, f);
    dist = fmax(dist, fmax(fabs(x) / tx, fabs(y) / ty) - z);
    zmin = fmin(zmin, z);
  }
  /* every point well in front of the eye (a flat set seen edge-on has no extent) */
  dist = fmax(dist, fmax(-2 * zmin, 1e-9));
  /* a lone small body: far enough back to show what it is on (its diagonal then spans at
     most 5/6 of the picture's height) */
  dist = fmax(dist, 0.6 * diag / tan(0.5 * fov * deg));
  double sx[2] = {INFINITY, -INFINITY}, sy[2] = {INFINITY, -INFINITY};
  for (int i = 0; i < n; ++i) {
    double q[3] = {p[3 * i] - c[0], p[3 * i + 1] - c[1], p[3 * i + 2] - c[2]};
    double z = dist + dot3(q, f);
    sx[0] = fmin(sx[0], dot3(q, r) / z);
    sx[1] = fmax(sx[1], dot3(q, r) / z);
    sy[0] = fmin(sy[0], dot3(q, u) / z);
    sy[1] = fmax(sy[1], dot3(q, u) / z);
  }
  shift[0] = 0.5 * (sx[0] + sx[1]) * dist;
  shift[1] = 0.5 * (sy[0] + sy[1]) * dist;
  return dist;
}

/* the box of the framed points */
static void points_box(const double *p, int n, double lo[3], double hi[3]) {
  for (int d = 0; d < 3; ++d) {
    lo[d] = INFINITY;
    hi[d] = -INFINITY;
  }
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], p[3 * i + d]);
      hi[d] = fmax(hi[d], p[3 * i + d]);
    }
}

/* the box of the framed points of the initial state (the scale of the floor tiles and of
   the depth range) */
static void frame_box(const ipc_model *m, const double up[3], double lo[3], double hi[3]) {
  int n = 0;
  double *p = frame_points(m, m->x0, up, &n);
  points_box(p, n, lo, hi);
  ipc_free(p);
}

static double box_diag(const double lo[3], const double hi[3]) {
  double d2 = 0;
  for (int d = 0; d < 3; ++d) d2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  return sqrt(d2) > 0 ? sqrt(d2) : 1.0;
}

/* the camera of model m that frames the points p (n; frame_points): the scene's own camera
   when it has one, else a view from azimuth 35 degrees, 25 degrees above the horizon, that
   centers and fits them */
static ipcc_camera camera_of_points(const ipc_model *m, const double *p, int n) {
  ipcc_camera c;
  up_of(m, c.up);
  c.fov = m->params.camera_fov > 0 ? m->params.camera_fov : 35.0;
  if (m->params.camera_set) {
    memcpy(c.eye, m->params.camera_eye, sizeof c.eye);
    memcpy(c.target, m->params.camera_target, sizeof c.target);
    return c;
  }
  /* a horizontal frame (a, b) around up; the view comes from azimuth 35 degrees between
     them and 25 degrees above the horizon */
  double a[3] = {0, 0, 1}, b[3];
  if (fabs(dot3(a, c.up)) > 0.9) {
    a[0] = 1;
    a[2] = 0;
  }
  double k = dot3(a, c.up);
  for (int d = 0; d < 3; ++d) a[d] -= k * c.up[d];
  normalize3(a);
  cross3(b, c.up, a);
  const double az = 35.0 * deg, el = 25.0 * deg;
  double dir[3];
  for (int d = 0; d < 3; ++d)
    dir[d] = cos(el) * (cos(az) * a[d] + sin(az) * b[d]) + sin(el) * c.up[d];
  double lo[3], hi[3], shift[2], r[3], u[3], f[3] = {-dir[0], -dir[1], -dir[2]};
  points_box(p, n, lo, hi);
  for (int d = 0; d < 3; ++d) c.target[d] = 0.5 * (lo[d] + hi[d]);
  cross3(r, f, c.up);
  normalize3(r);
  cross3(u, r, f);
  /* twice: the distance changes a little once the picture is centered */
  for (int pass = 0; pass < 2; ++pass) {
    double dist = fit_points(p, n, box_diag(lo, hi), c.target, dir, r, u, c.fov, shift);
    for (int d = 0; d < 3; ++d) {
      c.target[d] += shift[0] * r[d] + shift[1] * u[d];
      c.eye[d] = c.target[d] + dist * dir[d];
    }
  }
  return c;
}

ipcc_camera ipc_model_camera(const ipc_model *m) {
  double up[3];
  up_of(m, up);
  int n = 0;
  double *p = frame_points(m, m->x0, up, &n);
  ipcc_camera c = camera_of_points(m, p, n);
  ipc_free(p);
  return c;
}

void ipc_model_dynamic_box(const ipc_model *m, const double *x, double box[6]) {
  int all = frames_all(m);
  for (int d = 0; d < 3; ++d) {
    box[d] = INFINITY;
    box[3 + d] = -INFINITY;
  }
  for (int i = 0; i < m->nverts; ++i) {
    if (!framed_vertex(m, all, i)) continue;
    for (int d = 0; d < 3; ++d) {
      box[d] = fmin(box[d], x[3 * i + d]);
      box[3 + d] = fmax(box[3 + d], x[3 * i + d]);
    }
  }
}

ipcc_camera ipc_model_camera_boxes(const ipc_model *m, const double *boxes, int nboxes) {
  /* the corners of the boxes framed as the vertices of one state are, with their feet */
  double up[3];
  up_of(m, up);
  double *p = feet_room(m, up, 8 * nboxes);
  int n = 0;
  for (int k = 0; k < nboxes; ++k) {
    const double *b = boxes + 6 * (size_t)k;
    if (!(b[0] <= b[3] && b[1] <= b[4] && b[2] <= b[5])) continue;
    for (int c = 0; c < 8; ++c, ++n)
      for (int d = 0; d < 3; ++d) p[3 * (size_t)n + d] = b[(c >> d & 1) ? 3 + d : d];
  }
  n = add_floor_feet(m, up, p, n);
  ipcc_camera c = camera_of_points(m, p, n);
  ipc_free(p);
  return c;
}

int ipcc_camera_eye_apart(const double eye[3], const double target[3]) {
  double gap = 0, size = 0;
  for (int d = 0; d < 3; ++d) {
    gap = fmax(gap, fabs(eye[d] - target[d]));
    size = fmax(size, fmax(fabs(eye[d]), fabs(target[d])));
  }
  return gap > 1e-12 * size;
}

/* the camera cam for a w x h picture of a scene of size scale (the diagonal of its framed
   points) */
static void view_init(view *v, const ipcc_camera *cam, int w, int h, double scale) {
  memcpy(v->eye, cam->eye, sizeof v->eye);
  /* scaled by its largest component first: the square of an eye-target distance of 1e-160
     underflows to 0 */
  double big = 0;
  for (int d = 0; d < 3; ++d) {
    v->f[d] = cam->target[d] - cam->eye[d];
    big = fmax(big, fabs(v->f[d]));
  }
  v->ok = big > 0 && isfinite(big);
  for (int d = 0; d < 3 && v->ok; ++d) v->f[d] /= big;
  double dist = v->ok ? big * sqrt(dot3(v->f, v->f)) : 0;
  v->ok = v->ok && normalize3(v->f);
  cross3(v->r, v->f, cam->up);
  if (!normalize3(v->r)) { /* looking along up: any right vector */
    double alt[3] = {1, 0, 0};
    if (fabs(v->f[0]) > 0.9) {
      alt[0] = 0;
      alt[1] = 1;
    }
    cross3(v->r, v->f, alt);
    normalize3(v->r);
  }
  cross3(v->u, v->r, v->f);
  v->w = w;
  v->h = h;
  v->y0 = 0;
  v->rows = h;
  v->focal = 0.5 * h / tan(0.5 * cam->fov * deg);
  v->cx = 0.5 * w;
  v->cy = 0.5 * h;
  /* a thousandth of the way to the target, but not much closer than the scene's size calls
     for: with an eye 1e-7 m from its target, the triangles hugging it would project to
     billions of pixels */
  v->near = fmax(1e-3 * dist, 1e-5 * scale);
  v->ok = v->ok && v->near > 0 && isfinite(v->near);
  /* key light from the upper left behind the camera, fill from the right */
  for (int d = 0; d < 3; ++d) {
    v->key[d] = -0.45 * v->r[d] + 0.75 * v->u[d] - 0.5 * v->f[d];
    v->fill[d] = 0.7 * v->r[d] + 0.1 * v->u[d] - 0.7 * v->f[d];
  }
  normalize3(v->key);
  normalize3(v->fill);
}

/* screen position (pixels) and 1/depth; 0 when in front of the near plane or not finite
   (a position that is NaN or overflows) */
static int project(const view *v, const double p[3], double s[3]) {
  double q[3] = {p[0] - v->eye[0], p[1] - v->eye[1], p[2] - v->eye[2]};
  double z = dot3(q, v->f);
  if (!(z >= v->near)) return 0;
  s[0] = v->cx + v->focal * dot3(q, v->r) / z;
  s[1] = v->cy - v->focal * dot3(q, v->u) / z;
  s[2] = 1.0 / z;
  return isfinite(s[0]) && isfinite(s[1]) && isfinite(s[2]);
}

/* Lambert shading of base color at p with normal n (turned towards the eye) */
static void shade(const view *v, const double p[3], const double n_in[3], const double base[3],
                  double out[3]) {
  double n[3] = {n_in[0], n_in[1], n_in[2]};
  double toeye[3] = {v->eye[0] - p[0], v->eye[1] - p[1], v->eye[2] - p[2]};
  if (dot3(n, toeye) < 0)
    for (int d = 0; d < 3; ++d) n[d] = -n[d];
  double k = fmax(0.0, dot3(n, v->key)), f = fmax(0.0, dot3(n, v->fill));
  double s = 0.30 + 0.60 * k + 0.30 * f;
  for (int d = 0; d < 3; ++d) out[d] = fmin(1.0, base[d] * s);
}

/* one triangle: screen vertices s (3 x 3: x, y, 1/z, finite), vertex colors c (3 x 3), on
   the band of rows the buffers of v hold */
static void raster(view *v, const double s[9], const double c[9]) {
  double area = (s[3] - s[0]) * (s[7] - s[1]) - (s[4] - s[1]) * (s[6] - s[0]);
  if (!(fabs(area) > 1e-12 && isfinite(area))) return;
  /* culled and clamped to the band in double before any conversion to int: a triangle near
     the eye spans up to ~1e300 pixels, and a bound beyond INT_MAX converts to INT_MIN */
  double xmin = fmin(s[0], fmin(s[3], s[6])), xmax = fmax(s[0], fmax(s[3], s[6]));
  double ymin = fmin(s[1], fmin(s[4], s[7])), ymax = fmax(s[1], fmax(s[4], s[7]));
  double fx0 = fmax(0.0, floor(xmin)), fx1 = fmin(v->w - 1.0, ceil(xmax));
  double fy0 = fmax((double)v->y0, floor(ymin)), fy1 = fmin(v->y0 + v->rows - 1.0, ceil(ymax));
  if (!(fx0 <= fx1 && fy0 <= fy1)) return;
  int x0 = (int)fx0, y0 = (int)fy0, y1 = (int)fy1;
  /* barycentrics are affine in the pixel position; each row starts afresh (its values do not
     depend on where the band starts) */
  double ia = 1.0 / area;
  double a0x = -(s[7] - s[4]) * ia, a1x = -(s[1] - s[7]) * ia;
  double ax[3] = {a0x, a1x, -a0x - a1x};
  double px0 = x0 + 0.5;
  for (int y = y0; y <= y1; ++y) {
    double py = y + 0.5;
    double r0 = ((s[3] - px0) * (s[7] - py) - (s[4] - py) * (s[6] - px0)) * ia;
    double r1 = ((s[6] - px0) * (s[1] - py) - (s[7] - py) * (s[0] - px0)) * ia;
    /* the columns where every barycentric is >= 0, a pixel wider each side against
       rounding: a thin triangle across the picture costs its pixels, not its box */
    double r[3] = {r0, r1, 1.0 - r0 - r1}, lo = fx0, hi = fx1;
    for (int i = 0; i < 3; ++i) {
      if (ax[i] > 0)
        lo = fmax(lo, x0 - r[i] / ax[i] - 1);
      else if (ax[i] < 0)
        hi = fmin(hi, x0 - r[i] / ax[i] + 1);
      else if (r[i] < 0)
        hi = -1;
    }
    lo = fmax(fx0, floor(lo));
    hi = fmin(fx1, ceil(hi));
    if (!(lo <= hi)) continue;
    for (int x = (int)lo; x <= (int)hi; ++x) {
      double b0 = r0 + a0x * (x - x0), b1 = r1 + a1x * (x - x0), b2 = 1.0 - b0 - b1;
      if (!(b0 >= 0 && b1 >= 0 && b2 >= 0)) continue; /* NaN too: out */
      double iz = b0 * s[2] + b1 * s[5] + b2 * s[8];
      size_t k = (size_t)(y - v->y0) * (size_t)v->w + (size_t)x;
      if (iz <= v->iz[k]) continue;
      v->iz[k] = iz;
      double dim = 1.0;
      if (v->tile > 0) { /* the world point (perspective-correct) and its cube's parity */
        double cell = 0;
        for (int d = 0; d < 3; ++d)
          cell +=
              floor((b0 * s[2] * v->wp[0][d] + b1 * s[5] * v->wp[1][d] + b2 * s[8] * v->wp[2][d]) /
                    (iz * v->tile));
        dim = fmod(cell, 2.0) == 0 ? 1.0 : 0.9;
      }
      for (int d = 0; d < 3; ++d)
        v->color[3 * k + d] = dim * (b0 * c[d] + b1 * c[3 + d] + b2 * c[6 + d]);
    }
  }
}

/* a triangle in front of the near plane: corners p (3 x 3), normals n (3 x 3) */
static void draw_front_tri(view *v, const double p[3][3], const double n[3][3],
                           const double base[3]) {
  double s[9], c[9];
  for (int k = 0; k < 3; ++k) {
    if (!project(v, p[k], s + 3 * k)) return;
    shade(v, p[k], n[k], base, c + 3 * k);
    v->wp[k] = p[k];
  }
  raster(v, s, c);
}

/* a triangle in world space with per-vertex normals (9) and one base color. the part
   behind the eye is clipped off (just in front of the near plane), so a floor or an
   obstacle reaching behind the camera still shows its visible part */
static void draw_tri(view *v, const double *p0, const double *p1, const double *p2,
                     const double n[9], const double base[3]) {
  const double *p[3] = {p0, p1, p2};
  double z[3];
  int front = 0;
  for (int k = 0; k < 3; ++k) {
    double q[3] = {p[k][0] - v->eye[0], p[k][1] - v->eye[1], p[k][2] - v->eye[2]};
    z[k] = dot3(q, v->f) - 2 * v->near;
    front += z[k] >= 0;
  }
  if (front == 0) return;
  double cp[4][3], cn[4][3]; /* the clipped polygon: 3 or 4 corners */
  int nc = 0;
  for (int k = 0; k < 3; ++k) {
    int j = (k + 1) % 3;
    if (z[k] >= 0) {
      memcpy(cp[nc], p[k], sizeof cp[nc]);
      memcpy(cn[nc++], n + 3 * k, sizeof cn[0]);
    }
    if ((z[k] >= 0) != (z[j] >= 0)) {
      double t = z[k] / (z[k] - z[j]);
      for (int d = 0; d < 3; ++d) {
        cp[nc][d] = p[k][d] + t * (p[j][d] - p[k][d]);
        cn[nc][d] = n[3 * k + d] + t * (n[3 * j + d] - n[3 * k + d]);
      }
      normalize3(cn[nc++]);
    }
  }
  for (int k = 1; k + 1 < nc; ++k) {
    const double tp[3][3] = {{cp[0][0], cp[0][1], cp[0][2]},
                             {cp[k][0], cp[k][1], cp[k][2]},
                             {cp[k + 1][0], cp[k + 1][1], cp[k + 1][2]}};
    const double tn[3][3] = {{cn[0][0], cn[0][1], cn[0][2]},
                             {cn[k][0], cn[k][1], cn[k][2]},
                             {cn[k + 1][0], cn[k + 1][1], cn[k + 1][2]}};
    draw_front_tri(v, tp, tn, base);
  }
}

static const double palette[][3] = {{0.91, 0.47, 0.20}, {0.20, 0.58, 0.78}, {0.86, 0.26, 0.36},
                                    {0.36, 0.70, 0.36}, {0.60, 0.42, 0.80}, {0.95, 0.76, 0.26}};
static const double obstacle_color[3] = {0.62, 0.63, 0.67};

/* surfaces of the obstacles (obstacles != 0: checkered in space by cubes of side tile, so a
   body sliding over a flat obstacle is seen to move when the view follows it) or of
   the dynamic bodies. the normal at a face corner averages (area-weighted) the faces around
   the vertex that bend less than the crease angle from this face, so smooth surfaces are
   smooth and the edges of a cube stay sharp. */
static void draw_bodies(view *v, const ipc_model *m, const double *x, int obstacles, double tile) {
  const ipc_surface *s = &m->surface;
  const double crease_cos = 0.75; /* about 40 degrees */
  int nf = s->nfaces, nv = m->nverts;
  double *fn = IPC_NEW(double, 3 * (size_t)nf + 1); /* area-weighted face normals */
  int *start = IPC_NEW0(int, (size_t)nv + 2), *adj = IPC_NEW(int, 3 * (size_t)nf + 1);
  for (int k = 0; k < nf; ++k) {
    const int *f = s->faces + 3 * (size_t)k;
    double e1[3], e2[3];
    for (int d = 0; d < 3; ++d) {
      e1[d] = x[3 * f[1] + d] - x[3 * f[0] + d];
      e2[d] = x[3 * f[2] + d] - x[3 * f[0] + d];
    }
    cross3(fn + 3 * k, e1, e2);
    for (int c = 0; c < 3; ++c) start[f[c] + 2]++;
  }
  for (int i = 0; i < nv; ++i) start[i + 2] += start[i + 1];
  for (int k = 0; k < nf; ++k)
    for (int c = 0; c < 3; ++c) adj[start[s->faces[3 * k + c] + 1]++] = k;
  int color_index = 0;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    const double *base =
        bd->obstacle ? obstacle_color : palette[color_index++ % (sizeof palette / sizeof *palette)];
    if (!bd->obstacle != !obstacles) continue;
    for (int k = bd->f0; k < bd->f0 + bd->nf; ++k) {
      const int *f = s->faces + 3 * (size_t)k;
      double n[9], own[3] = {fn[3 * k], fn[3 * k + 1], fn[3 * k + 2]};
      if (!normalize3(own)) continue;
      for (int c = 0; c < 3; ++c) {
        double *nc = n + 3 * c;
        nc[0] = nc[1] = nc[2] = 0;
        for (int q = start[f[c]]; q < start[f[c] + 1]; ++q) {
          const double *g = fn + 3 * adj[q];
          double len = sqrt(dot3(g, g));
          if (len > 0 && dot3(g, own) >= crease_cos * len)
            for (int d = 0; d < 3; ++d) nc[d] += g[d];
        }
        if (!normalize3(nc)) memcpy(nc, own, sizeof own);
      }
      v->tile = bd->obstacle ? tile : 0.0;
      draw_tri(v, x + 3 * f[0], x + 3 * f[1], x + 3 * f[2], n, base);
      v->tile = 0.0;
    }
  }
  ipc_free(fn);
  ipc_free(start);
  ipc_free(adj);
}

enum { PLANE_TILES = 16 };

/* half the side of the planes' checkered squares: 1.25 times the framed box's diagonal */
static double plane_half(const ipc_model *m) {
  double up[3], lo[3], hi[3];
  up_of(m, up);
  frame_box(m, up, lo, hi);
  return 1.25 * box_diag(lo, hi);
}

/* a checkered square of tiles on each plane the eye looks at from its open side, centered
   at the foot of the framed bodies; a plane seen from behind (a wall of a box of planes,
   between the eye and the bodies) is left out */
static void draw_planes(view *v, const ipc_model *m) {
  enum { tiles = PLANE_TILES };
  double up[3], lo[3], hi[3], cb[3];
  up_of(m, up);
  frame_box(m, up, lo, hi);
  double half = plane_half(m);
  for (int d = 0; d < 3; ++d) cb[d] = 0.5 * (lo[d] + hi[d]);
  for (int k = 0; k < m->nplanes; ++k) {
    const ipc_plane *pl = &m->planes[k];
    double n[3] = {pl->normal[0], pl->normal[1], pl->normal[2]};
    if (dot3(n, v->eye) < dot3(n, pl->point)) continue;
    double t[3] = {1, 0, 0}, bvec[3];
    if (fabs(n[0]) > 0.9) {
      t[0] = 0;
      t[2] = 1;
    }
    double q = dot3(t, n);
    for (int d = 0; d < 3; ++d) t[d] -= q * n[d];
    normalize3(t);
    cross3(bvec, n, t);
    double c[3], h = dot3(n, cb) - dot3(n, pl->point);
    for (int d = 0; d < 3; ++d) c[d] = cb[d] - h * n[d];
    double tile = 2 * half / tiles, nn[9];
    for (int j = 0; j < 3; ++j) memcpy(nn + 3 * j, n, sizeof n);
    for (int i = 0; i < tiles; ++i)
      for (int j = 0; j < tiles; ++j) {
        double p[4][3];
        for (int corner = 0; corner < 4; ++corner) {
          double a = -half + (i + (corner == 1 || corner == 2)) * tile;
          double bb = -half + (j + (corner >= 2)) * tile;
          for (int d = 0; d < 3; ++d) p[corner][d] = c[d] + a * t[d] + bb * bvec[d];
        }
        double shade_k = (i + j) % 2 ? 0.80 : 0.90;
        double base[3] = {shade_k, shade_k * 0.98, shade_k * 0.94};
        draw_tri(v, p[0], p[1], p[2], nn, base);
        draw_tri(v, p[0], p[2], p[3], nn, base);
      }
  }
}

/* the dynamic bodies (layer b) over the scene (layer v: sky, planes, obstacles): where an
   obstacle hides a body, the body shows through it */
static void composite(view *v, const view *b) {
  size_t np = (size_t)v->w * (size_t)v->rows;
  for (size_t k = 0; k < np; ++k) {
    if (!(b->iz[k] > 0)) continue;
    double a = b->iz[k] >= v->iz[k] ? 1.0 : 0.6;
    for (int d = 0; d < 3; ++d)
      v->color[3 * k + d] = a * b->color[3 * k + d] + (1 - a) * v->color[3 * k + d];
  }
}

/* model m at positions pos (ipc_render_world), a band of rows at a time */
void ipc_render_model(ipcc_image *im, const ipc_model *m, const double *pos,
                      const ipcc_camera *cam) {
  double up[3], lo[3], hi[3];
  up_of(m, up);
  frame_box(m, up, lo, hi);
  view v = {0}, b;
  view_init(&v, cam, SS * im->width, SS * im->height, box_diag(lo, hi));
  int band = (int)(BAND_SAMPLES / (size_t)v.w) / SS * SS; /* whole rows of the image */
  band = band < SS ? SS : band > v.h ? v.h : band;
  size_t np = (size_t)v.w * (size_t)band;
  v.color = IPC_NEW(double, 3 * np);
  v.iz = IPC_NEW(double, np);
  b = v;
  b.color = IPC_NEW(double, 3 * np);
  b.iz = IPC_NEW(double, np);
  for (int y0 = 0; y0 < v.h; y0 += band) {
    v.y0 = b.y0 = y0;
    v.rows = b.rows = band < v.h - y0 ? band : v.h - y0;
    size_t nb = (size_t)v.w * (size_t)v.rows;
    memset(v.iz, 0, nb * sizeof *v.iz);
    memset(b.color, 0, 3 * nb * sizeof *b.color);
    memset(b.iz, 0, nb * sizeof *b.iz);
    for (int y = 0; y < v.rows; ++y) { /* sky: blue-grey at the top to white at the bottom */
      double t = (double)(y0 + y) / (v.h - 1 > 0 ? v.h - 1 : 1);
      double sky[3] = {0.60 + 0.35 * t, 0.70 + 0.26 * t, 0.84 + 0.13 * t};
      for (int x = 0; x < v.w; ++x) memcpy(v.color + 3 * ((size_t)y * v.w + x), sky, sizeof sky);
    }
    if (v.ok) {
      draw_planes(&v, m);
      /* obstacles checkered by cubes of the planes' tile */
      draw_bodies(&v, m, pos, 1, 2 * plane_half(m) / PLANE_TILES);
      draw_bodies(&b, m, pos, 0, 0.0);
      composite(&v, &b);
    }
    for (int y = y0 / SS; y < (y0 + v.rows) / SS; ++y)
      for (int x = 0; x < im->width; ++x)
        for (int d = 0; d < 3; ++d) {
          double s = 0;
          for (int sy = 0; sy < SS; ++sy)
            for (int sx = 0; sx < SS; ++sx)
              s += v.color[3 * ((size_t)(SS * y + sy - y0) * v.w + (size_t)(SS * x + sx)) + d];
          double c = s / (SS * SS);
          im->rgb[3 * ((size_t)y * im->width + x) + d] =
              (unsigned char)lround(255.0 * fmin(1.0, fmax(0.0, c)));
        }
  }
  ipc_free(v.color);
  ipc_free(v.iz);
  ipc_free(b.color);
  ipc_free(b.iz);
}

ipcc_camera ipcc_world_default_camera(const ipcc_world *w) {
  return ipc_model_camera(w->m);
}

ipcc_camera ipc_model_follow_camera(const ipc_model *m, const double *x) {
  double boxes[12];
  ipc_model_dynamic_box(m, m->x0, boxes);
  ipc_model_dynamic_box(m, x, boxes + 6);
  return ipc_model_camera_boxes(m, boxes, 2);
}

ipcc_camera ipcc_world_follow_camera(const ipcc_world *w) {
  return ipc_model_follow_camera(w->m, w->s->x);
}

void ipcc_render_world(ipcc_image *im, const ipcc_world *w, const ipcc_camera *cam) {
  ipc_render_model(im, w->m, w->s->x, cam);
}
