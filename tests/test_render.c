/* previews and plots (src/io/render.c, plot.c, font.c, png.c): deterministic pictures,
   bodies drawn where the camera puts them, a floor under them, PNG files that decode */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/plot.h"
#include "io/render_model.h"
#include "ipc/world_internal.h"
#include "ipcc/ipcc.h"
#include "test.h"

static const unsigned char white[3] = {255, 255, 255};

static const unsigned char *px(const ipcc_image *im, int x, int y) {
  return im->rgb + 3 * ((size_t)y * (size_t)im->width + (size_t)x);
}

/* pixel of world point p under camera c (same pinhole model as the renderer) */
static void project(const ipcc_camera *c, const double p[3], int w, int h, int *x, int *y) {
  double f[3], r[3], u[3], q[3];
  double n = 0;
  for (int d = 0; d < 3; ++d) f[d] = c->target[d] - c->eye[d], n += f[d] * f[d];
  for (int d = 0; d < 3; ++d) f[d] /= sqrt(n);
  r[0] = f[1] * c->up[2] - f[2] * c->up[1];
  r[1] = f[2] * c->up[0] - f[0] * c->up[2];
  r[2] = f[0] * c->up[1] - f[1] * c->up[0];
  n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (int d = 0; d < 3; ++d) r[d] /= n;
  u[0] = r[1] * f[2] - r[2] * f[1];
  u[1] = r[2] * f[0] - r[0] * f[2];
  u[2] = r[0] * f[1] - r[1] * f[0];
  for (int d = 0; d < 3; ++d) q[d] = p[d] - c->eye[d];
  double z = q[0] * f[0] + q[1] * f[1] + q[2] * f[2];
  double foc = 0.5 * h / tan(0.5 * c->fov * 3.14159265358979323846 / 180.0);
  *x = (int)(0.5 * w + foc * (q[0] * r[0] + q[1] * r[1] + q[2] * r[2]) / z);
  *y = (int)(0.5 * h - foc * (q[0] * u[0] + q[1] * u[1] + q[2] * u[2]) / z);
}

/* a small box on an infinite floor behind a 200 m obstacle wall: the default camera frames
   the box, not the wall or the floor, and the box shows through the wall */
static void test_framing(void) {
  char cwd[1024], path[128];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  snprintf(path, sizeof path, "/tmp/ipcc_test_render_wall_%d.json", (int)getpid());
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(
      f,
      "{\"time_step\": 0.01, \"duration\": 0.1, \"gravity\": [0, -9.8, 0], \"bodies\": [\n"
      " {\"mesh\": \"%s/scenes/meshes/cube.msh\", \"scale\": 0.3, \"translation\": [0, 0.5, 0]},\n"
      " {\"mesh\": \"%s/scenes/meshes/plane.obj\", \"obstacle\": true, \"scale\": [200, 1, 200],\n"
      "  \"rotation\": [-90, 0, 0], \"translation\": [-100, 0.01, 1]}],\n"
      " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}\n",
      cwd, cwd);
  fclose(f);
  ipcc_scene_def def;
  ipcc_error err;
  ipcc_status st = ipcc_scene_load(path, &def, &err);
  remove(path);
  CHECK_MSG(st == IPCC_OK, "%s", err.msg);
  if (st != IPCC_OK) return;
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) {
    ipcc_scene_def_free(&def);
    return;
  }
  ipcc_camera cam = ipc_world_default_camera(w);
  CHECK_MSG(cam.eye[2] > 1.0, "the wall (z = 1) lies between the eye and the box");
  int W = 320, H = 240;
  ipcc_image *im = ipcc_image_create(W, H, white);
  ipc_render_world(im, w, &cam);
  /* the box: every vertex but the wall's 4 */
  const double *x = ipc_world_positions(w);
  int n = ipc_world_vertex_count(w) - 4;
  int u0 = W, u1 = -1, v0 = H, v1 = -1;
  double c[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    int u, v;
    project(&cam, x + 3 * i, W, H, &u, &v);
    u0 = u < u0 ? u : u0, u1 = u > u1 ? u : u1, v0 = v < v0 ? v : v0, v1 = v > v1 ? v : v1;
    for (int d = 0; d < 3; ++d) c[d] += x[3 * i + d] / n;
  }
  double share = (double)(u1 - u0) * (v1 - v0) / ((double)W * H);
  CHECK_MSG(u0 >= 0 && u1 < W && v0 >= 0 && v1 < H, "box inside the picture: [%d, %d] x [%d, %d]",
            u0, u1, v0, v1);
  CHECK_MSG(share > 0.04 && share < 0.6, "box covers %.1f%% of the picture", 100 * share);
  int u, v;
  project(&cam, c, W, H, &u, &v);
  const unsigned char *p = px(im, u, v);
  CHECK_MSG(p[0] > p[2] + 30, "box orange through the wall at (%d, %d): %d %d %d", u, v, p[0], p[1],
            p[2]);
  ipcc_image_destroy(im);
  ipc_world_destroy(w);
  ipcc_scene_def_free(&def);
}

/* axis labels: one format per axis, neighbours distinct, read back within half a step (an
   energy drifting by 1e-4 relative labelled every tick "533.6"); far from zero in units of
   the step, relative to an offset shown once */
static void test_axis_labels(void) {
  static const double cases[][3] = {
      {533.6, 533.65, 0.01}, {533.6, 533.6001, 2e-5}, {0, 1, 0.2}, {0, 20, 5},
      {1e6, 5e6, 1e6},       {1e-5, 5e-5, 1e-5},      {-3, 3, 1},  {1e9, 1e9 + 10, 2}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    double lo = cases[c][0], hi = cases[c][1], step = cases[c][2];
    ipc_axis_format f;
    ipc_axis_format_init(&f, lo, hi, step);
    char prev[32] = "", lab[32], off[32];
    ipc_axis_format_offset(&f, off, sizeof off);
    double offset = off[0] ? strtod(off, NULL) : 0;
    int k = 0;
    for (double t = lo; t <= hi + 1e-9 * step; t += step, ++k) {
      ipc_axis_format_label(&f, t, lab, sizeof lab);
      CHECK_MSG(strcmp(lab, prev) != 0, "case %zu: tick %d repeats '%s'", c, k, lab);
      double back = strtod(lab, NULL) + offset;
      CHECK_MSG(fabs(back - t) <= 0.5 * step, "case %zu: '%s' (offset '%s') reads %.10g for %.10g",
                c, lab, off, back, t);
      CHECK_MSG(strlen(lab) <= 12, "case %zu: label '%s' too long", c, lab);
      memcpy(prev, lab, sizeof prev);
    }
    if (c == 1) CHECK_MSG(!strcmp(off, "+533.6"), "offset '%s'", off);
    if (c == 0) CHECK_MSG(!off[0], "no offset needed, got '%s'", off);
  }
}

/* a camera over the whole run frames every box given (the bodies where each frame has them:
   spinning_cube's cube slid out of the picture from frame 60 under the first frame's
   framing), and the follow camera of a state frames the bodies where they started and where
   they are */
static void test_run_framing(void) {
  ipcc_error err;
  ipc_world *w = ipc_world_load("scenes/two_cubes.json", 0, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  const ipc_model *m = &w->m;
  double boxes[18];
  ipc_model_dynamic_box(m, m->x0, boxes);
  for (int k = 1; k < 3; ++k) /* the same bodies carried 6 m and 12 m along x */
    for (int d = 0; d < 6; ++d) boxes[6 * k + d] = boxes[d] + (d % 3 == 0 ? 6.0 * k : 0.0);
  ipcc_camera all = ipc_model_camera_boxes(m, boxes, 3), first = ipc_model_camera(m);
  int W = 640, H = 480, inside_all = 0, inside_first = 0;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 8; ++c) {
      double p[3];
      for (int d = 0; d < 3; ++d) p[d] = boxes[6 * k + ((c >> d & 1) ? 3 + d : d)];
      int u, v;
      project(&all, p, W, H, &u, &v);
      inside_all += u >= 0 && u < W && v >= 0 && v < H;
      project(&first, p, W, H, &u, &v);
      inside_first += u >= 0 && u < W && v >= 0 && v < H;
    }
  CHECK_MSG(inside_all == 24, "%d of 24 corners in the whole-run view", inside_all);
  CHECK_MSG(inside_first < 24, "the first frame's view loses the far box (%d of 24)", inside_first);
  /* the follow camera of the state moved 12 m: start and now both in the picture */
  double *x = malloc(sizeof(double) * 3 * (size_t)m->nverts);
  for (int i = 0; i < 3 * m->nverts; ++i) x[i] = m->x0[i] + (i % 3 == 0 ? 12.0 : 0.0);
  ipcc_camera fol = ipc_model_follow_camera(m, x);
  int inside = 0;
  for (int i = 0; i < m->nverts; ++i) {
    int u, v;
    project(&fol, m->x0 + 3 * i, W, H, &u, &v);
    inside += u >= 0 && u < W && v >= 0 && v < H;
    project(&fol, x + 3 * i, W, H, &u, &v);
    inside += u >= 0 && u < W && v >= 0 && v < H;
  }
  CHECK_MSG(inside == 2 * m->nverts, "follow camera: %d of %d points inside", inside,
            2 * m->nverts);
  free(x);
  ipc_world_destroy(w);
}

int main(void) {
  test_run_framing();
  test_axis_labels();
  test_framing();
  ipcc_scene_def def;
  ipcc_error err;
  CHECK(ipcc_scene_load("scenes/two_cubes.json", &def, &err) == IPCC_OK);
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK(w != NULL);
  if (!w) TEST_MAIN_END();
  ipcc_camera cam = ipc_world_default_camera(w);
  CHECK(cam.up[1] > 0.99);           /* against gravity */
  CHECK(cam.eye[1] > cam.target[1]); /* from above */

  int W = 200, H = 150;
  ipcc_image *a = ipcc_image_create(W, H, white), *b = ipcc_image_create(W, H, white);
  ipc_render_world(a, w, &cam);
  ipc_render_world(b, w, &cam);
  CHECK_MSG(!memcmp(a->rgb, b->rgb, 3 * (size_t)W * H), "same frame, same picture");

  /* the centers of the two cubes: upper (orange, body 0) and lower (blue, body 1) */
  const double *x = ipc_world_positions(w);
  int n = ipc_world_vertex_count(w);
  double c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) (i < n / 2 ? c0 : c1)[d] += x[3 * i + d] / (n / 2);
  int u, v;
  project(&cam, c0, W, H, &u, &v);
  CHECK(u > 0 && u < W && v > 0 && v < H);
  const unsigned char *p = px(a, u, v);
  CHECK_MSG(p[0] > p[2] + 40, "upper cube orange at (%d, %d): %d %d %d", u, v, p[0], p[1], p[2]);
  project(&cam, c1, W, H, &u, &v);
  p = px(a, u, v);
  CHECK_MSG(p[2] > p[0] + 40, "lower cube blue at (%d, %d): %d %d %d", u, v, p[0], p[1], p[2]);
  /* the floor under the lower cube: grey tiles, below the cubes in the picture */
  double g[3] = {c1[0], 0.0, c1[2]};
  project(&cam, g, W, H, &u, &v);
  int grey = 0;
  for (int dy = 0; dy < 12 && v + dy < H; ++dy) {
    p = px(a, u, v + dy);
    grey += abs(p[0] - p[2]) < 30 && p[0] > 120;
  }
  CHECK_MSG(grey > 0, "floor visible below the cubes at (%d, %d)", u, v);
  /* the top corners are sky: bluish */
  p = px(a, 2, 2);
  CHECK(p[2] > p[0]);

  /* the frame label: dark text in the bottom-left corner only */
  ipcc_image *lb = ipcc_image_create(200, 150, white);
  ipc_image_frame_label(lb, 12, 0.24);
  int dark_low = 0, dark_high = 0;
  for (int y = 0; y < 150; ++y)
    for (int xx = 0; xx < 200; ++xx)
      if (px(lb, xx, y)[0] < 100) ++*(y > 120 && xx < 160 ? &dark_low : &dark_high);
  CHECK_MSG(dark_low > 40 && dark_high == 0, "frame label: %d dark pixels in its corner, %d else",
            dark_low, dark_high);
  ipcc_image_destroy(lb);

  /* text and plots draw something, inside the image */
  ipcc_image *t = ipcc_image_create(64, 16, white);
  int tw = ipc_image_text(t, 1, 1, "1E-3 OK", (const unsigned char[3]){0, 0, 0}, 1);
  CHECK(tw == ipc_text_width("1E-3 OK", 1));
  int dark = 0;
  for (int i = 0; i < 64 * 16; ++i) dark += t->rgb[3 * i] == 0;
  CHECK(dark > 20 && dark < 200);
  ipcc_image_destroy(t);
  double xs[50], ys[50];
  for (int i = 0; i < 50; ++i) xs[i] = 0.1 * i, ys[i] = i == 20 ? NAN : sin(xs[i]);
  ipc_plot_series s = {"sine", xs, ys, 50, {200, 0, 0}};
  ipcc_image *pl = ipcc_image_create(320, 200, white);
  ipc_plot_lines(pl, "TEST", "x", "y", &s, 1, 0);
  int red = 0;
  for (int i = 0; i < 320 * 200; ++i) red += pl->rgb[3 * i] == 200 && pl->rgb[3 * i + 1] == 0;
  CHECK_MSG(red > 100, "plot line drawn (%d red pixels)", red);

  /* PNG: signature and size */
  char path[96];
  snprintf(path, sizeof path, "/tmp/ipcc_test_render_%d.png", (int)getpid());
  CHECK(ipcc_image_write_png(a, path, &err) == IPCC_OK);
  FILE *f = fopen(path, "rb");
  unsigned char hdr[24] = {0};
  CHECK(f && fread(hdr, 1, 24, f) == 24);
  if (f) fclose(f);
  CHECK(!memcmp(hdr, "\x89PNG\r\n\x1a\n", 8));
  CHECK(hdr[16] == 0 && hdr[17] == 0 && hdr[18] == 0 && hdr[19] == W);
  CHECK(hdr[20] == 0 && hdr[21] == 0 && hdr[22] == 0 && hdr[23] == H);
  remove(path);
  CHECK(ipcc_image_write_png(a, "/nonexistent/dir/x.png", &err) == IPCC_ERR_INPUT);

  ipcc_image_destroy(pl);
  ipcc_image_destroy(a);
  ipcc_image_destroy(b);
  ipc_world_destroy(w);
  ipcc_scene_def_free(&def);
  TEST_MAIN_END();
}
