/* the public accessors of a world's bodies and surface (src/ipc/world_api.c), ipc_world_load,
   and scenes built in code (plane normals are normalised or rejected by the model builder,
   src/core/model.c) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"
#include "test.h"

/* body i has the name, kind and ranges given */
static void check_body(int have, const ipcc_body_info *b, const char *name, int obstacle, int v0,
                       int nv, int nt, int nf) {
  CHECK(have == 0);
  if (have != 0) return;
  CHECK_MSG(strcmp(b->name, name) == 0, "body %s, expected %s", b->name, name);
  CHECK(b->obstacle == obstacle);
  CHECK(b->vertex_begin == v0 && b->vertex_count == nv);
  CHECK(b->tet_count == nt);
  CHECK(b->triangle_count == nf);
}

static void two_cubes(void) {
  ipcc_error err;
  ipc_world *w = ipc_world_load("scenes/two_cubes.json", 0, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  ipcc_body_info b;
  CHECK(ipc_world_body_count(w) == 2);
  check_body(ipc_world_body(w, 0, &b), &b, "upper", 0, 0, 8, 6, 12);
  CHECK(b.tet_begin == 0 && b.triangle_begin == 0);
  check_body(ipc_world_body(w, 1, &b), &b, "lower", 0, 8, 8, 6, 12);
  CHECK(b.tet_begin == 6 && b.triangle_begin == 12);
  CHECK(ipc_world_body(w, 2, &b) == -1 && ipc_world_body(w, -1, &b) == -1);

  /* triangles body after body, each inside its body's vertex range */
  int nt = -1;
  const int *t = ipc_world_surface_triangles(w, &nt);
  CHECK(nt == 24 && ipc_world_surface_triangles(w, NULL) == t);
  for (int f = 0; f < nt; ++f)
    for (int k = 0; k < 3; ++k)
      CHECK(t[3 * f + k] >= (f < 12 ? 0 : 8) && t[3 * f + k] < (f < 12 ? 8 : 16));

  /* the positions pointer is fixed; its contents follow the steps */
  const double *x = ipc_world_positions(w);
  double y0 = x[1];
  ipcc_step_stats st;
  CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
  CHECK(ipc_world_positions(w) == x && x[1] < y0);
  ipc_world_destroy(w);

  /* the LCP world answers the same */
  ipcc_scene_def def;
  CHECK(ipcc_scene_load("scenes/two_cubes.json", &def, &err) == IPCC_OK);
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  ipc_lcp_world *lw = ipc_lcp_world_create(&def, &ld, &err);
  ipcc_scene_def_free(&def);
  CHECK_MSG(lw != NULL, "%s", err.msg);
  if (!lw) return;
  CHECK(ipc_lcp_world_body_count(lw) == 2);
  check_body(ipc_lcp_world_body(lw, 1, &b), &b, "lower", 0, 8, 8, 6, 12);
  CHECK(ipc_lcp_world_body(lw, 2, &b) == -1);
  double pt[3], nrm[3];
  CHECK(ipc_lcp_world_plane_count(lw) == 1);
  CHECK(ipc_lcp_world_plane(lw, 0, pt, nrm) == 0 && nrm[1] == 1 && pt[1] == 0);
  CHECK(ipc_lcp_world_plane(lw, 1, pt, nrm) == -1);
  CHECK(ipc_lcp_world_surface_triangles(lw, &nt) != NULL && nt == 24);
  ipc_lcp_world_destroy(lw);
}

static void obstacle(void) {
  ipcc_error err;
  ipc_world *w = ipc_world_load("scenes/incline_obstacle.json", 0, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  ipcc_body_info b;
  check_body(ipc_world_body(w, 0, &b), &b, "block", 0, 0, 8, 6, 12);
  check_body(ipc_world_body(w, 1, &b), &b, "ramp", 1, 8, 4, 0, 2);
  ipc_world_destroy(w);
}

static void load_errors(void) {
  ipcc_error err;
  CHECK(ipc_world_load("tests/no_such_scene.json", 0, &err) == NULL);
  CHECK(err.status == IPCC_ERR_INPUT && strstr(err.msg, "no_such_scene.json"));
  CHECK(ipc_world_load("tests/no_such_scene.json", 0, NULL) == NULL);
}

/* a cube at y in [0.5, 1.5] above the plane y >= 0 given by normal n, built in code (the
   definition's memory is the caller's: ipcc_scene_def_free is not called) */
static ipc_world *cube_on_plane(const double n[3], ipcc_error *err) {
  ipcc_scene_def def = ipcc_default_scene_def();
  ipcc_body_def body = ipcc_default_body_def();
  ipcc_plane_def plane = {{0, 0, 0}, {n[0], n[1], n[2]}, 0, 0};
  body.mesh = (char *)"scenes/meshes/cube.msh";
  body.translation[1] = 0.5;
  def.bodies = &body;
  def.nbodies = 1;
  def.planes = &plane;
  def.nplanes = 1;
  def.time_step = 0.02;
  return ipc_world_create(&def, err);
}

static void plane_normals(void) {
  ipcc_error err;
  ipc_world *unit = cube_on_plane((const double[3]){0, 1, 0}, &err);
  ipc_world *longer = cube_on_plane((const double[3]){0, 2, 0}, &err);
  CHECK(unit && longer);
  if (!unit || !longer) return;
  /* (0, 2, 0) is taken as (0, 1, 0): the same run, bit for bit (was: the barrier saw twice
     the distance and the cube sank to half of dhat) */
  ipcc_step_stats st;
  for (int s = 0; s < 30; ++s) {
    CHECK(ipc_world_step(unit, &st, &err) == IPCC_OK);
    CHECK(ipc_world_step(longer, &st, &err) == IPCC_OK);
  }
  CHECK(memcmp(ipc_world_positions(unit), ipc_world_positions(longer),
               3 * sizeof(double) * (size_t)ipc_world_vertex_count(unit)) == 0);
  /* the plane query gives the normal in use: unit length */
  double pt[3], nrm[3] = {0, 0, 0};
  CHECK(ipc_world_plane_count(longer) == 1);
  CHECK(ipc_world_plane(longer, 0, pt, nrm) == 0 && nrm[0] == 0 && nrm[1] == 1 && nrm[2] == 0);
  CHECK(pt[0] == 0 && pt[1] == 0 && pt[2] == 0);
  CHECK(ipc_world_plane(longer, 1, pt, nrm) == -1 && ipc_world_plane(longer, -1, pt, nrm) == -1);
  double lo = INFINITY;
  for (int i = 0; i < ipc_world_vertex_count(unit); ++i)
    lo = fmin(lo, ipc_world_positions(unit)[3 * i + 1]);
  CHECK_MSG(lo > 0 && lo < ipc_world_dhat(unit), "lowest y %g, dhat %g", lo, ipc_world_dhat(unit));
  ipc_world_destroy(unit);
  ipc_world_destroy(longer);

  CHECK(cube_on_plane((const double[3]){0, 0, 0}, &err) == NULL);
  CHECK_MSG(err.status == IPCC_ERR_INPUT && strstr(err.msg, "planes[0].normal"), "%s", err.msg);
  CHECK(cube_on_plane((const double[3]){0, NAN, 0}, &err) == NULL);
}

/* the unified world's frames, cameras, preview, tet data and checkpoints, in both modes (what
   the per-mode handles offered before stage 7) */
static void unified_outputs(ipcc_mode mode) {
  ipcc_error err;
  ipcc_world *w = ipcc_world_load("scenes/two_cubes.json", 0, mode, NULL, NULL, 0, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  int nt = ipcc_world_tet_count(w);
  CHECK(nt == 12);
  double psi[12];
  ipcc_world_tet_energy_density(w, psi);
  for (int t = 0; t < nt; ++t) CHECK(isfinite(psi[t]) && psi[t] >= 0);
  CHECK(ipcc_world_contact_distance(w) > 0);

  char dir[] = "/tmp/ipcc_unified_XXXXXX", path[96];
  CHECK(mkdtemp(dir) != NULL);
  unsigned formats = IPCC_FORMAT_OBJ | IPCC_FORMAT_PLY | IPCC_FORMAT_VTU | IPCC_FORMAT_PC2;
  CHECK_MSG(ipcc_world_write_frame(w, dir, 0, formats, &err) == IPCC_OK, "%s", err.msg);
  const char *files[] = {"000000.obj", "000000.ply", "000000.vtu", "frames.pvd", "motion.pc2"};
  for (int k = 0; k < 5; ++k) {
    snprintf(path, sizeof path, "%s/%s", dir, files[k]);
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f != NULL, "%s missing", path);
    if (f) fclose(f);
    remove(path);
  }
  snprintf(path, sizeof path, "%s/rest.obj", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/w.ply", dir);
  CHECK(ipcc_world_write_ply(w, path, &err) == IPCC_OK);
  remove(path);
  snprintf(path, sizeof path, "%s/w.vtu", dir);
  CHECK(ipcc_world_write_vtu(w, path, &err) == IPCC_OK);
  remove(path);
  rmdir(dir);

  ipcc_camera cam = ipcc_world_default_camera(w), follow = ipcc_world_follow_camera(w);
  CHECK(cam.fov > 0 && follow.fov > 0);
  ipcc_image *im = ipcc_image_create(32, 24, (const unsigned char[3]){0, 0, 0});
  ipcc_render_world(im, w, &cam);
  int lit = 0;
  for (int i = 0; i < 32 * 24 * 3; ++i) lit |= im->rgb[i] != 0;
  CHECK(lit);
  ipcc_image_destroy(im);

  /* a checkpoint after one step; two more steps, then back and the same two steps again */
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK);
  FILE *f = tmpfile();
  CHECK(f && ipcc_world_save_state(w, f, &err) == IPCC_OK);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK && ipcc_world_step(w, NULL, &err) == IPCC_OK);
  int nv = ipcc_world_vertex_count(w);
  double x[3 * 16];
  CHECK(nv == 16);
  memcpy(x, ipcc_world_positions(w), sizeof x);
  rewind(f);
  CHECK_MSG(ipcc_world_load_state(w, f, &err) == IPCC_OK, "%s", err.msg);
  CHECK(ipcc_world_step_count(w) == 1);
  CHECK(ipcc_world_step(w, NULL, &err) == IPCC_OK && ipcc_world_step(w, NULL, &err) == IPCC_OK);
  CHECK(memcmp(x, ipcc_world_positions(w), sizeof x) == 0);
  fclose(f);
  ipcc_world_destroy(w);
}

int main(void) {
  two_cubes();
  obstacle();
  load_errors();
  plane_normals();
  unified_outputs(IPCC_MODE_IPC);
  unified_outputs(IPCC_MODE_LCP);
  TEST_MAIN_END();
}
