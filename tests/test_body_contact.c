/* contact.body_contact (ipc_surface_pair_touches, applied in the broad phase): two unit
   cubes (scenes/meshes/cube.msh), the upper thrown down onto the lower, over a ground plane.
   - obstacles_only (IPC's selfCollisionOff): the upper cube passes through the lower one
     and both come to rest on the ground, overlapping; the run's intersection check and the
     start-state check accept that, and the LCP mode does the same
   - all (the default): the upper cube stops on the lower one
   - a start state where the two cubes already overlap is refused under "all" and accepted
     under obstacles_only */
#include <math.h>
#include <string.h>

#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"
#include "test.h"

/* lowest and highest y of the vertices [v0, v0 + 8) */
static void y_range(const double *x, int v0, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int i = v0; i < v0 + 8; ++i) {
    *lo = fmin(*lo, x[3 * i + 1]);
    *hi = fmax(*hi, x[3 * i + 1]);
  }
}

static ipcc_scene_def two_cubes(ipcc_body_def body[2], ipcc_plane_def *ground, double upper_y,
                                ipcc_body_contact mode) {
  ipcc_scene_def def = ipcc_default_scene_def();
  for (int b = 0; b < 2; ++b) {
    body[b] = ipcc_default_body_def();
    body[b].mesh = (char *)"scenes/meshes/cube.msh";
    body[b].young = 1e6;
  }
  body[0].translation[1] = upper_y; /* vertices 0..7 */
  body[0].velocity[1] = -6.0;
  body[1].translation[1] = 0.05; /* vertices 8..15 */
  memset(ground, 0, sizeof *ground);
  ground->normal[1] = 1.0;
  def.bodies = body;
  def.nbodies = 2;
  def.planes = ground;
  def.nplanes = 1;
  def.time_step = 0.02;
  def.body_contact = mode;
  return def;
}

/* 60 steps (1.2 s) of the IPC world; y ranges of both cubes at the end */
static void run_ipc(ipcc_body_contact mode, double up[2], double low[2]) {
  ipcc_body_def body[2];
  ipcc_plane_def ground;
  ipcc_scene_def def = two_cubes(body, &ground, 1.6, mode);
  ipcc_error err;
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  int ok = 1;
  for (int s = 0; s < 60 && ok; ++s) {
    ipcc_step_stats st;
    ok = ipc_world_step(w, &st, &err) == IPCC_OK;
    CHECK_MSG(ok, "step %d: %s", s + 1, err.msg);
    char what[256];
    ok &= ipc_world_intersection_free(w, what, sizeof what);
    CHECK_MSG(ok, "step %d: %s", s + 1, what);
  }
  y_range(ipc_world_positions(w), 0, &up[0], &up[1]);
  y_range(ipc_world_positions(w), 8, &low[0], &low[1]);
  ipc_world_destroy(w);
}

static void ipc_mode(void) {
  double up[2], low[2];
  run_ipc(IPCC_BODY_CONTACT_OBSTACLES_ONLY, up, low);
  /* both on the ground (within dhat-scale gaps and elastic sag) */
  CHECK_MSG(up[0] > 0 && up[0] < 0.01, "upper cube bottom %g", up[0]);
  CHECK_MSG(low[0] > 0 && low[0] < 0.01, "lower cube bottom %g", low[0]);
  run_ipc(IPCC_BODY_CONTACT_ALL, up, low);
  /* resting on the lower cube (whose top deforms a little under it) */
  CHECK_MSG(up[0] > 0.95 && up[0] > low[1] - 0.05, "upper cube bottom %g, lower cube top %g", up[0],
            low[1]);
  CHECK_MSG(low[0] > 0 && low[0] < 0.01, "lower cube bottom %g", low[0]);
}

static void lcp_mode(void) {
  ipcc_body_def body[2];
  ipcc_plane_def ground;
  ipcc_scene_def def = two_cubes(body, &ground, 1.6, IPCC_BODY_CONTACT_OBSTACLES_ONLY);
  ipcc_error err;
  ipc_lcp_world *w = ipc_lcp_world_create(&def, NULL, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  int ok = 1;
  for (int s = 0; s < 60 && ok; ++s) {
    ipcc_lcp_step_stats st;
    ok = ipc_lcp_world_step(w, &st, &err) == IPCC_OK;
    CHECK_MSG(ok, "step %d: %s", s + 1, err.msg);
  }
  CHECK(ipc_lcp_world_intersection_free(w, NULL, 0));
  double up[2], low[2];
  y_range(ipc_lcp_world_positions(w), 0, &up[0], &up[1]);
  y_range(ipc_lcp_world_positions(w), 8, &low[0], &low[1]);
  CHECK_MSG(up[0] > -0.02 && up[0] < 0.05, "LCP: upper cube bottom %g", up[0]);
  CHECK_MSG(low[0] > -0.02 && low[0] < 0.1, "LCP: lower cube bottom %g", low[0]);
  ipc_lcp_world_destroy(w);
}

/* overlapping cubes at the start */
static void overlapping_start(void) {
  ipcc_body_def body[2];
  ipcc_plane_def ground;
  ipcc_scene_def def = two_cubes(body, &ground, 0.5, IPCC_BODY_CONTACT_ALL);
  ipcc_error err;
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK(w == NULL && strstr(err.msg, "intersects"));
  ipc_world_destroy(w);
  def.body_contact = IPCC_BODY_CONTACT_OBSTACLES_ONLY;
  w = ipc_world_create(&def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  ipc_world_destroy(w);
}

int main(void) {
  ipc_mode();
  lcp_mode();
  overlapping_start();
  TEST_MAIN_END();
}
