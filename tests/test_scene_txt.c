/* IPC .txt scene scripts (src/io/scene_txt.c): keywords map onto the scene definition,
   malformed or unsupported input is rejected naming file, line and keyword, mesh paths
   resolve against the script's folder and its parents, IPC's scripts (tests/data/ipc-input)
   load */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipcc/ipcc.h"
#include "ipcc/scene.h"
#include "lcp/lcp_world.h"
#include "test.h"

/* IPC's examples vendored in the repository (the input/ folder) */
#define IPC_IN "tests/data/ipc-input/input/"

static char dir[256];       /* temporary root: dir/input/meshes, dir/input/scripts */
static char cube[PATH_MAX]; /* absolute path of IPC's cube.msh */

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static const char *script(const char *text) {
  static char path[512];
  snprintf(path, sizeof path, "%s/input/scripts/s.txt", dir);
  write_file(path, text);
  return path;
}

/* loads text, expects rejection whose message contains every needle */
static void expect_error(unsigned flags, const char *text, const char *n1, const char *n2) {
  ipcc_scene_def s;
  ipcc_error err;
  const char *path = script(text);
  ipcc_status st = ipcc_scene_load_any(path, flags, &s, &err);
  CHECK_MSG(st == IPCC_ERR_INPUT, "script should be rejected: %s", text);
  if (st == IPCC_ERR_INPUT) {
    CHECK_MSG(strstr(err.msg, path) != NULL, "message names the file: %s", err.msg);
    CHECK_MSG(!n1 || strstr(err.msg, n1), "message '%s' lacks '%s'", err.msg, n1);
    CHECK_MSG(!n2 || strstr(err.msg, n2), "message '%s' lacks '%s'", err.msg, n2);
  } else {
    ipcc_scene_def_free(&s);
  }
}

static int load(const char *text, unsigned flags, ipcc_scene_def *s) {
  ipcc_error err;
  ipcc_status st = ipcc_scene_load_any(script(text), flags, s, &err);
  CHECK_MSG(st == IPCC_OK, "script should load: %s", st == IPCC_OK ? "" : err.msg);
  return st == IPCC_OK;
}

static void test_keywords(void) {
  char text[4096];
  snprintf(
      text, sizeof text,
      "# comment\n"
      "energy FCR\n"
      "time 2 0.01\n"
      "density 500\n"
      "stiffness 2e6 0.3\n"
      "shapes input 2\n"
      "%s 0 2 0  0 0 90  1 2 1  material 800 1e7 0.25 initVel 1 0 0  0 90 0\n"
      "\n"
      "# not a shape\n"
      "%s 0 0 0  0 0 0  1 1 1 \\\n"
      "   DBC -0.1 -0.1 -0.1  1.1 0.1 1.1  0 0 0  0 0 0  0.5 1.5 NBC 0 0.9 0  1 1.1 1  0 -5 0\n"
      "selfFric 0.2\n"
      "ground 0.3 -1\n"
      "halfSpace 0 0 -3  0 0 2  50 0.1\n"
      "dHat 2e-3\n"
      "epsv 1e-4\n"
      "fricIterAmt -1\n"
      "tol 1\n1e-3\n"
      "turnOffGravity\n"
      "timeIntegration NM 0.25 0.5\n"
      "view orthographic\n"
      "zoom 0.5\n"
      "section SQP QP\n"
      "time 9 9\n"
      "bogusKeyword 1\n"
      "section end\n"
      "warmStart 0\n",
      cube, cube);
  ipcc_scene_def s;
  if (!load(text, 0, &s)) return;
  CHECK(s.nbodies == 2 && s.nplanes == 2);
  CHECK_NEAR(s.duration, 2.0, 0);
  CHECK_NEAR(s.time_step, 0.01, 0);
  CHECK(s.integrator == IPCC_NEWMARK);
  CHECK(s.gravity[1] == 0.0);
  CHECK_NEAR(s.dhat, 2e-3, 0);
  /* IPC's slip threshold is epsv x 0.025 s (its constructor's time step) at any dt: ipcc's
     epsv h then needs epsv 0.025 / h */
  CHECK_NEAR(s.epsv * s.time_step, 1e-4 * 0.025, 1e-19);
  CHECK(s.friction_iterations == -1);
  CHECK_NEAR(s.newton_tol, 1e-3, 0);
  /* cube.msh is [0,1]^3: the first, scaled 1 x 2 x 1 and turned 90 degrees about z, spans
     x in [-2, 0], y in [2, 3]; with the second: [-2,1] x [0,3] x [0,1] */
  CHECK_NEAR(s.bbox_diag, sqrt(9.0 + 9.0 + 1.0), 1e-12);
  const ipcc_body_def *a = &s.bodies[0], *b = &s.bodies[1];
  CHECK(a->material == IPCC_MAT_FIXED_COROTATED && !a->obstacle);
  CHECK_NEAR(a->density, 800, 0);
  CHECK_NEAR(a->young, 1e7, 0);
  CHECK_NEAR(a->poisson, 0.25, 0);
  CHECK_NEAR(b->density, 500, 0);
  CHECK_NEAR(b->young, 2e6, 0);
  CHECK_NEAR(a->rotation[2], 90, 0);
  CHECK_NEAR(a->scale[1], 2, 0);
  CHECK_NEAR(a->translation[1], 2, 0);
  CHECK_NEAR(a->velocity[0], 1, 0);
  CHECK_NEAR(a->angular_velocity[1], 3.14159265358979323846 / 2, 1e-15);
  CHECK_NEAR(a->friction, 0.2, 0);
  /* DBC: the cube's bottom face (4 vertices), window [0.5, 1.5); NBC: the top face */
  CHECK(b->ndirichlet == 1 && b->dirichlet[0].region.nverts == 4);
  if (b->ndirichlet == 1) {
    CHECK_NEAR(b->dirichlet[0].t_begin, 0.5, 0);
    CHECK_NEAR(b->dirichlet[0].t_end, 1.5, 0);
  }
  CHECK(b->nneumann == 1 && b->neumann[0].region.nverts == 4);
  if (b->nneumann == 1) CHECK_NEAR(b->neumann[0].acceleration[1], -5, 0);
  CHECK_NEAR(s.planes[0].point[1], -1, 0);
  CHECK_NEAR(s.planes[0].friction, 0.3, 0);
  CHECK_NEAR(s.planes[1].normal[2], 1, 1e-15);
  CHECK_NEAR(s.planes[1].friction, 0.1, 0);
  ipcc_scene_def_free(&s);
}

/* useAbsParameters: IPC's dHat is in metres, its slip threshold (fricDHat0) is epsv times the
   0.025 s its Optimizer's constructor sets before the script's dt, and its Newton tolerance
   (targetGRes, the largest entry of the Newton direction) is tol itself, not tol x dt
   (Optimizer.cpp: updateTargetGRes). A cube sliding on the ground at dt 0.01 with IPC's default
   tol 1e-2 then stops within 3 steps, as in IPC (ipcc scaled tol by dt: 0.7 s later) */
static void test_abs_parameters(void) {
  char text[2048];
  const double dts[2] = {0.01, 0.001};
  for (int k = 0; k < 2; ++k) {
    for (int tight = 0; tight < 2; ++tight) {
      snprintf(text, sizeof text,
               "time 1 %g\nshapes input 1\n%s 0 0.0011 0  0 0 0  2 1 1  initVel 2 0 0  0 0 0\n"
               "ground 0.3 0\ndHat 1e-3\nepsv 0.01\n%suseAbsParameters\n",
               dts[k], cube, tight ? "tol 1\n1e-5\n" : "");
      ipcc_scene_def s;
      if (!load(text, 0, &s)) return;
      CHECK_NEAR(s.bbox_diag, sqrt(6.0), 1e-12);
      CHECK(s.epsv_absolute);
      CHECK_NEAR(s.dhat * s.bbox_diag, 1e-3, 1e-18);
      CHECK_NEAR(s.epsv * s.time_step, 0.01 * 0.025, 1e-18);
      CHECK_NEAR(s.newton_tol * s.bbox_diag * s.time_step, tight ? 1e-5 : 1e-2, 1e-17);
      ipcc_scene_def_free(&s);
      /* relative: the tolerance is tol x diagonal x dt, as before */
      snprintf(text, sizeof text, "time 1 %g\nshapes input 1\n%s 0 0 0  0 0 0  1 1 1\nepsv 0.01\n",
               dts[k], cube);
      if (!load(text, 0, &s)) return;
      CHECK_NEAR(s.newton_tol, 1e-2, 0);
      CHECK(!s.epsv_absolute);
      CHECK_NEAR(s.epsv * s.time_step, 0.01 * 0.025, 1e-18);
      ipcc_scene_def_free(&s);
    }
  }
}

/* size rescales the shapes (largest extent -> L, minimum -> origin), fall lifts them by half
   the diagonal; meshCO is placed unscaled by its mean */
static void test_size_fall_meshco(void) {
  char text[2048];
  snprintf(text, sizeof text,
           "script fall\nsize 2\nshapes input 2\n%s 0 0 0  0 0 0  1 1 1\n%s 3 0 0  0 0 0  1 1 1\n"
           "meshCO input/meshes/tri.obj 1 -1 0  4  50 0.5 rotate 0 90 0\n",
           cube, cube);
  ipcc_scene_def s;
  if (!load(text, 0, &s)) return;
  CHECK(s.nbodies == 3);
  double k = 0.5; /* extent 4 in x -> 2 */
  double diag = sqrt(2.0 * 2.0 + 0.5 * 0.5 + 0.5 * 0.5);
  CHECK_NEAR(s.bbox_diag, diag, 1e-12);
  if (s.nbodies == 3) {
    CHECK_NEAR(s.bodies[0].scale[0], k, 1e-15);
    /* cube.msh spans [0,1]^3: the shapes span [0,4] x [0,1] x [0,1] before scaling */
    CHECK_NEAR(s.bodies[0].translation[0], 0.0, 1e-12);
    CHECK_NEAR(s.bodies[1].translation[0], 1.5, 1e-12);
    CHECK_NEAR(s.bodies[0].translation[1], 0.5 * diag, 1e-12);
    const ipcc_body_def *co = &s.bodies[2];
    CHECK(co->obstacle);
    CHECK_NEAR(co->friction, 0.0, 0);           /* IPC adds no friction term for a meshCO */
    CHECK_NEAR(co->scale[0], 4.0 / 2.0, 1e-15); /* tri.obj has extent 2 */
    CHECK_NEAR(co->rotation[1], 90, 0);
  }
  ipcc_scene_def_free(&s);
}

/* dampingStiff k and dampingRatio r become beta = k / h^2, or 3/4 r h when r > 0 (IPC:
   k = 3/4 r h^3 overrides dampingStiff), with the script's final time step;
   selfCollisionOff: contact with collision objects only, refused with kinematic shapes */
static void test_damping_self_collision(void) {
  char text[1024];
  ipcc_scene_def s;
  snprintf(text, sizeof text,
           "dampingStiff 2e-4\nshapes input 1\n%s 0 0 0 0 0 0 1 1 1\n"
           "time 1 0.01\n",
           cube);
  if (load(text, 0, &s)) {
    CHECK_NEAR(s.damping_stiffness, 2e-4 / 1e-4, 1e-14);
    CHECK(s.body_contact == IPCC_BODY_CONTACT_ALL);
    ipcc_scene_def_free(&s);
  }
  snprintf(text, sizeof text,
           "dampingStiff 2e-4\ndampingRatio 3\ntime 1 0.02\n"
           "shapes input 1\n%s 0 0 0 0 0 0 1 1 1\nselfCollisionOff\nground 0 -1\n",
           cube);
  if (load(text, 0, &s)) {
    CHECK_NEAR(s.damping_stiffness, 0.75 * 1.0 * 0.02, 1e-15); /* ratio clamped to 1 */
    CHECK(s.body_contact == IPCC_BODY_CONTACT_OBSTACLES_ONLY);
    ipcc_scene_def_free(&s);
  }
  snprintf(text, sizeof text,
           "dampingRatio -1\nselfCollisionOff\nselfCollisionOn\n"
           "shapes input 1\n%s 0 0 0 0 0 0 1 1 1\n",
           cube);
  if (load(text, 0, &s)) {
    CHECK(s.damping_stiffness == 0 && s.body_contact == IPCC_BODY_CONTACT_ALL);
    ipcc_scene_def_free(&s);
  }
  snprintf(text, sizeof text,
           "selfCollisionOff\nshapes input 2\n%s 0 0 0 0 0 0 1 1 1\n"
           "input/meshes/tri.obj 0 3 0 0 0 0 1 1 1\n",
           cube);
  expect_error(0, text, "s.txt:1: keyword 'selfCollisionOff' is not supported", "kinematic shapes");
}

/* loads "script NAME" (+ extra lines) on one cube [0,1]^3, or NULL-safe failure */
static int load_script(const char *name, const char *extra, ipcc_scene_def *s) {
  char text[2048];
  snprintf(text, sizeof text, "time 5 0.01\nshapes input 1\n%s 0 0 0  0 0 0  1 1 1\nscript %s\n%s",
           cube, name, extra ? extra : "");
  return load(text, 0, s);
}

/* the Dirichlet windows of IPC's scenarios (AnimScripter.cpp) on the unit cube: its 8
   vertices are the corners, border 0 the 4 at x = 0, border 1 the 4 at x = 1 */
static void test_scenarios(void) {
  ipcc_scene_def s;
  const double inf = INFINITY;
  if (load_script("stand", NULL, &s)) { /* bottom 1 %: the 4 corners at y = 0, held */
    const ipcc_body_def *b = &s.bodies[0];
    CHECK(b->ndirichlet == 1 && b->dirichlet[0].region.nverts == 4);
    CHECK(b->dirichlet[0].t_begin == 0 && b->dirichlet[0].t_end == inf);
    CHECK(b->dirichlet[0].velocity[1] == 0 && b->dirichlet[0].angular_velocity[0] == 0);
    ipcc_scene_def_free(&s);
  }
  if (load_script("hang", NULL, &s)) { /* the last vertex of each border */
    CHECK(s.bodies[0].ndirichlet == 1 && s.bodies[0].dirichlet[0].region.nverts == 2);
    ipcc_scene_def_free(&s);
  }
  if (load_script("push", NULL, &s)) { /* bottom held; top down at 1 m/s for 0.5, then held */
    const ipcc_body_def *b = &s.bodies[0];
    CHECK(b->ndirichlet == 3);
    if (b->ndirichlet == 3) {
      CHECK(b->dirichlet[0].t_end == inf && b->dirichlet[0].region.nverts == 4);
      CHECK(b->dirichlet[1].velocity[1] == -1.0 && b->dirichlet[1].t_begin == 0);
      CHECK_MSG(fabs(b->dirichlet[1].t_end - 0.5) < 0.01, "%g", b->dirichlet[1].t_end);
      CHECK(b->dirichlet[2].t_begin == b->dirichlet[1].t_end && b->dirichlet[2].t_end == inf);
      CHECK(b->dirichlet[2].velocity[1] == 0);
    }
    ipcc_scene_def_free(&s);
  }
  if (load_script("upndown", NULL, &s)) { /* +-1.8 m/s, reversing 0.6 from the start: flips
                                             at 1/3 s, then every 2/3 s (7 within 5 s) */
    const ipcc_body_def *b = &s.bodies[0];
    CHECK_MSG(b->ndirichlet == 16, "%d windows", b->ndirichlet);
    if (b->ndirichlet == 16) {
      CHECK(b->dirichlet[0].velocity[1] == 1.8 && b->dirichlet[1].velocity[1] == -1.8);
      CHECK(fabs(b->dirichlet[0].t_end - 1.0 / 3) < 0.01);
      CHECK(fabs(b->dirichlet[1].t_end - 1.0) < 0.02); /* whole steps: 34 up, 68 down */
      CHECK(b->dirichlet[8].velocity[1] == -1.8 && b->dirichlet[7].t_end == inf);
    }
    ipcc_scene_def_free(&s);
  }
  if (load_script("twistnsns", NULL, &s)) { /* rotation constant, x velocity reversing */
    const ipcc_body_def *b = &s.bodies[0];
    CHECK(b->ndirichlet > 2);
    if (b->ndirichlet > 2) {
      CHECK(b->dirichlet[0].has_center && b->dirichlet[0].center[0] == 0.5);
      CHECK(b->dirichlet[0].angular_velocity[0] == b->dirichlet[1].angular_velocity[0]);
      CHECK(b->dirichlet[0].velocity[0] == -1.2 && b->dirichlet[1].velocity[0] == 1.2);
    }
    ipcc_scene_def_free(&s);
  }
  if (load_script("NMFixBottomDragLeft", "NBCTimeRange 0 2\n", &s)) {
    const ipcc_body_def *b = &s.bodies[0];
    CHECK(b->ndirichlet == 1 && b->nneumann == 1);
    if (b->nneumann == 1) {
      CHECK(b->neumann[0].acceleration[0] == -600 && b->neumann[0].region.nverts == 4);
      CHECK(b->neumann[0].t_end == 2);
    }
    ipcc_scene_def_free(&s);
  }
  if (load_script("DCOBallHitWall 1 500", NULL, &s)) {
    CHECK(s.bodies[0].velocity[0] == 500);
    ipcc_scene_def_free(&s);
  }
  if (load_script("drop", NULL, &s)) {
    CHECK(s.bodies[0].velocity[1] == -1 && s.bodies[0].ndirichlet == 0);
    ipcc_scene_def_free(&s);
  }
  char text[2048];
  snprintf(text, sizeof text,
           "shapes input 2\n%s 0 0 0 0 0 0 1 1 1\n%s 3 0 0 0 0 0 1 1 1\n"
           "script leftHitRight\n",
           cube, cube);
  if (load(text, 0, &s)) {
    CHECK(s.bodies[0].velocity[0] == 1 && s.bodies[1].velocity[0] == 0);
    ipcc_scene_def_free(&s);
  }
  snprintf(text, sizeof text,
           "shapes input 1\n%s 0 0 0 0 0 0 1 1 1\n"
           "meshCO input/meshes/tri.obj 0 -1 0 1 0 0\nmeshCO input/meshes/tri.obj 0 3 0 1 0 0\n"
           "script MCORotSquash\n",
           cube);
  if (load(text, 0, &s)) { /* each meshCO turns at pi about z through origin +- scale/2 y */
    CHECK(s.nbodies == 3 && s.bodies[1].ndirichlet == 1 && s.bodies[2].ndirichlet == 1);
    if (s.nbodies == 3 && s.bodies[2].ndirichlet == 1) {
      CHECK_NEAR(s.bodies[1].dirichlet[0].center[1], -0.5, 1e-15);
      CHECK_NEAR(s.bodies[2].dirichlet[0].center[1], 2.5, 1e-15);
      CHECK_NEAR(s.bodies[2].dirichlet[0].angular_velocity[2], 3.14159265358979323846, 1e-15);
    }
    ipcc_scene_def_free(&s);
  }
  /* rejected with IPC's reason, or needing more than the script has */
  expect_error(0, "script scaleF\n",
               "s.txt:1: keyword 'script': scenario 'scaleF' is not supported", "rest shape");
  expect_error(0, "script ACOSquash\n", "scenario 'ACOSquash' is not supported", "planes");
  expect_error(0, "script frob\n", "scenario 'frob' is not supported", "not a scenario of IPC");
  expect_error(0, "script hang x\n", "s.txt:1: keyword 'script'", "N p1");
  snprintf(text, sizeof text, "shapes input 1\n%s 0 0 0 0 0 0 1 1 1\nscript MCORotCylinders\n",
           cube);
  expect_error(0, text, "s.txt:3: keyword 'script': scenario 'MCORotCylinders' needs",
               "four meshCO");
  snprintf(text, sizeof text, "shapes input 1\n%s 0 0 0 0 0 0 3 1 1\nscript leftHitRight\n", cube);
  expect_error(0, text, "scenario 'leftHitRight' is not supported", "straddles");
}

/* physics of a turning point: push moves the top of a cube down 0.5 m and holds it */
static void test_push_physics(void) {
  ipcc_scene_def s;
  if (!load_script("push", "turnOffGravity\nstiffness 1e6 0.3\n", &s)) return;
  ipcc_error err;
  ipc_world *w = ipc_world_create(&s, &err);
  ipcc_scene_def_free(&s);
  CHECK_MSG(w != NULL, "%s", err.msg);
  if (!w) return;
  double top0 = -INFINITY;
  const double *x = ipc_world_positions(w);
  for (int i = 0; i < 8; ++i) top0 = fmax(top0, x[3 * i + 1]);
  for (int step = 0; step < 70; ++step) {
    ipcc_step_stats st;
    CHECK(ipc_world_step(w, &st, &err) == IPCC_OK && st.dirichlet_unmet == 0);
  }
  double top = -INFINITY, bottom = INFINITY;
  x = ipc_world_positions(w);
  for (int i = 0; i < 8; ++i) {
    top = fmax(top, x[3 * i + 1]);
    bottom = fmin(bottom, x[3 * i + 1]);
  }
  CHECK_NEAR(top, top0 - 0.5, 1e-9);
  CHECK_NEAR(bottom, 0.0, 1e-9);
  ipc_world_destroy(w);
}

/* dragright (IPC's AnimScripter): the right 4 % of the body move at 0.5 m/s until the body
   lies right of every meshCO, then it is let go; without a meshCO IPC never drags. The
   cube (gravity off) with a meshCO to its left is let go at the first step and stays where
   it is; with one to its right (not in the way) it is dragged h * 0.5 per step */
static void test_dragright_release(void) {
  static const struct {
    const char *co; /* meshCO line, or "" */
    double release_x, moved;
  } cases[] = {
      /* tri.obj, centred on its vertex mean (2/3, 0, 2/3) and scaled to extent 0.5, reaches
         x = t + 0.25 (2 - 2/3) */
      {"meshCO input/meshes/tri.obj -2 1.4 0.5  0.5  50 0\n", -2 + 1.0 / 3.0, 0.0},
      {"meshCO input/meshes/tri.obj 2.5 0.2 0.5  0.5  50 0\n", 2.5 + 1.0 / 3.0, 3 * 0.01 * 0.5},
      {"", -INFINITY, 0.0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    ipcc_scene_def s;
    char extra[256];
    snprintf(extra, sizeof extra, "turnOffGravity\n%s", cases[c].co);
    if (!load_script("dragright", extra, &s)) continue;
    const ipcc_body_def *b = &s.bodies[0];
    CHECK(b->ndirichlet == 1);
    if (b->ndirichlet == 1) {
      CHECK(b->dirichlet[0].has_release_x);
      CHECK_MSG(b->dirichlet[0].release_x == cases[c].release_x ||
                    fabs(b->dirichlet[0].release_x - cases[c].release_x) < 1e-12,
                "case %zu: release_x %g, expected %g", c, b->dirichlet[0].release_x,
                cases[c].release_x);
    }
    ipcc_error err;
    ipc_world *w = ipc_world_create(&s, &err);
    ipcc_scene_def_free(&s);
    CHECK_MSG(w != NULL, "%s", err.msg);
    if (!w) continue;
    double right0 = -INFINITY, right = -INFINITY;
    const double *x = ipc_world_positions(w);
    for (int i = 0; i < 8; ++i) right0 = fmax(right0, x[3 * i]);
    for (int step = 0; step < 3; ++step) {
      ipcc_step_stats st;
      CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
    }
    x = ipc_world_positions(w);
    for (int i = 0; i < 8; ++i) right = fmax(right, x[3 * i]);
    CHECK_MSG(fabs(right - right0 - cases[c].moved) < 1e-9, "case %zu: moved %g, expected %g", c,
              right - right0, cases[c].moved);
    ipc_world_destroy(w);
  }
}

/* IPC's relative dHat, tolerance and kappa refer to the diagonal of the tet shapes alone
   (Mesh::matSpaceBBoxSize2(3)): a segment shape far away does not change it */
static void test_tet_diagonal(void) {
  char text[2048];
  snprintf(text, sizeof text,
           "shapes input 2\n%s 0 0 0  0 0 0  1 1 1\n"
           "input/meshes/seg.seg 10 0 0  0 0 0  1 1 1\n",
           cube);
  ipcc_scene_def s;
  if (!load(text, 0, &s)) return;
  CHECK_NEAR(s.bbox_diag, sqrt(3.0), 1e-12);
  ipcc_scene_def_free(&s);
}

/* meshSeq: a triangle (.obj shape) follows input/seq/N.obj, the step with index k ending at
   frame k (meshSeqFromFile: frame k + 1); frames are world coordinates, read per step; a
   missing frame stops the run naming the file */
static void test_mesh_seq(void) {
  char p[600], text[1024];
  snprintf(p, sizeof p, "%s/input/seq", dir);
  mkdir(p, 0755);
  for (int f = 0; f < 4; ++f) { /* the triangle (2 wide at y = 3) moving up 0.1 per frame */
    char frame[256];
    snprintf(p, sizeof p, "%s/input/seq/%d.obj", dir, f);
    snprintf(frame, sizeof frame, "v 0 %g 0\nv 2 %g 0\nv 0 %g 2\nf 1 2 3\n", 3 + 0.1 * f,
             3 + 0.1 * f, 3 + 0.1 * f);
    write_file(p, frame);
  }
  snprintf(text, sizeof text,
           "shapes input 2\n%s 0 0 0 0 0 0 1 1 1\n"
           "input/meshes/tri.obj 0 3 0 0 0 0 1 1 1 meshSeq input/seq\nturnOffGravity\n",
           cube);
  ipcc_scene_def s;
  if (load(text, 0, &s)) {
    const ipcc_body_def *b = &s.bodies[1];
    CHECK(b->mesh_sequence && strstr(b->mesh_sequence, "input/seq") &&
          b->mesh_sequence_start == 0 && !strcmp(b->mesh_sequence_ext, ".obj"));
    ipcc_error err;
    ipc_world *w = ipc_world_create(&s, &err);
    CHECK_MSG(w != NULL, "%s", err.msg);
    for (int step = 0; w && step < 4; ++step) {
      ipcc_step_stats st;
      CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
      const double *x = ipc_world_positions(w) + 3 * 8; /* after the cube's 8 vertices */
      CHECK_NEAR(x[1], 3 + 0.1 * step, 1e-15);
      CHECK_NEAR(x[3], 2, 1e-15);
    }
    if (w) {
      ipcc_step_stats st;
      CHECK(ipc_world_step(w, &st, &err) == IPCC_ERR_INPUT && strstr(err.msg, "seq/4.obj"));
    }
    ipc_world_destroy(w);
    ipcc_scene_def_free(&s);
  }
  snprintf(text, sizeof text,
           "shapes input 2\n%s 0 0 0 0 0 0 1 1 1\n"
           "input/meshes/tri.obj 0 3 0 0 0 0 1 1 1\nscript meshSeqFromFile input/seq\n",
           cube);
  if (load(text, 0, &s)) {
    CHECK(s.bodies[1].mesh_sequence && s.bodies[1].mesh_sequence_start == 1);
    ipcc_scene_def_free(&s);
  }
  snprintf(text, sizeof text, "shapes input 1\n%s 0 0 0 0 0 0 1 1 1 meshSeq input/seq\n", cube);
  expect_error(0, text, "s.txt:2: keyword 'meshSeq' is not supported", "tet-mesh");
  expect_error(0, "shapes input 1\ninput/meshes/tri.obj 0 0 0 0 0 0 1 1 1 meshSeq nowhere\n",
               "s.txt:2: meshSeq: 'nowhere/0.obj' not found", NULL);
  expect_error(0,
               "shapes input 1\ninput/meshes/tri.obj 0 0 0 0 0 0 1 1 1 meshSeq input/seq\n"
               "script fall\n",
               "s.txt:2: keyword 'shapes' is not supported", "meshSeq");
}

/* rotateModel turns every shape about IPC's pivot (max - min) / 2; folded into the body */
static void test_rotate_model(void) {
  char text[1024];
  snprintf(text, sizeof text, "shapes input 1\n%s 0 0 0  0 0 0  1 1 1\nrotateModel 1 0 0 90\n",
           cube);
  ipcc_scene_def s;
  if (!load(text, 0, &s)) return;
  CHECK_NEAR(s.bodies[0].rotation[0], 90, 1e-12);
  CHECK_NEAR(s.bodies[0].rotation[1], 0, 1e-12);
  CHECK_NEAR(s.bodies[0].translation[0], 0, 1e-12);
  CHECK_NEAR(s.bodies[0].translation[1], 1, 1e-12);
  CHECK_NEAR(s.bodies[0].translation[2], 0, 1e-12);
  ipcc_scene_def_free(&s);
}

static void test_errors(void) {
  expect_error(0, "time 1 0.01\nfrobnicate 3\n", "s.txt:2: keyword 'frobnicate' is not supported",
               NULL);
  expect_error(0, "time 1 x\n", "s.txt:1: keyword 'time'", "x");
  expect_error(0, "\n\ndampingRatio x\n", "s.txt:3: keyword 'dampingRatio'", "x");
  expect_error(0, "constraintSolver SQP\n", ":1: keyword 'constraintSolver' is not supported",
               NULL);
  expect_error(0, "shapes input 2\ninput/meshes/tri.obj 0 0 0 0 0 0 1 1 1\n",
               "s.txt:1: keyword 'shapes'", "expected 2 shape lines");
  expect_error(0, "shapes input 1\nnowhere/x.msh 0 0 0 0 0 0 1 1 1\n", "s.txt:2:", "nowhere/x.msh");
  expect_error(0, "shapes input 1\ninput/meshes/tri.obj 0 0 0 0 0 0 1 1\n",
               "s.txt:2:", "shape line");
  expect_error(0, "shapes input 1\ninput/meshes/tri.obj 0 0 0 0 0 0 1 1 1 spin 3\n",
               "s.txt:2:", "unknown extra 'spin'");
  expect_error(0, "tol 2\n1e-2\n", "s.txt:1: keyword 'tol'", "expected 2 numbers");
  expect_error(0, "ground 0.1\n", "s.txt:1: keyword 'ground'", NULL);
  expect_error(0, "selfFric 0.1 0.2\n", "s.txt:1: keyword 'selfFric'", "unexpected argument");
  expect_error(0, "time 1 0.1\n", "no shapes", NULL);
  /* absurd counts are bad counts naming file:line */
  expect_error(0, "shapes input 1e300\ninput/meshes/tri.obj 0 0 0 0 0 0 1 1 1\n",
               "s.txt:1: keyword 'shapes': count 1e300 is too large", NULL);
  expect_error(0,
               "time 1 0.1\nshapeMatrix input 10000 10000 10000\n"
               "input/meshes/tri.obj 1 1 1 0 0 0 1 1 1\n",
               "s.txt:2: keyword 'shapeMatrix'", "too many");
  /* a section needs its end, whether its lines are skipped or read */
  expect_error(0, "time 1 0.01\nsection QP\ntime 1 0.02\n",
               "s.txt:2: section 'QP' has no 'section end' line", NULL);
  expect_error(0, "section interiorPoint\ntime 1 0.01\n",
               "s.txt:1: section 'interiorPoint' has no 'section end' line", NULL);
  /* a NUL byte does not end the script silently */
  {
    static const char nul[] = "time 1 0.01\n\nsize\0 1\nfrobnicate\n";
    char path[512];
    snprintf(path, sizeof path, "%s/input/scripts/nul.txt", dir);
    FILE *f = fopen(path, "wb");
    fwrite(nul, 1, sizeof nul - 1, f);
    fclose(f);
    ipcc_scene_def sd;
    ipcc_error err;
    CHECK(ipcc_scene_load_any(path, 0, &sd, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "nul.txt:3: NUL byte") != NULL, "%s", err.msg);
    remove(path);
  }
  /* lenient: unsupported keywords become warnings; malformed input stays an error */
  char text[1024];
  snprintf(text, sizeof text,
           "frobnicate 3\ndampingRatio 0.5\nshapes input 1\n%s 0 0 0 0 0 0 1 1 1\n", cube);
  ipcc_scene_def s;
  if (load(text, IPCC_SCENE_LENIENT, &s)) ipcc_scene_def_free(&s);
  expect_error(IPCC_SCENE_LENIENT, "time 1 x\n", ":1: keyword 'time'", NULL);
}

/* mesh paths: the script's folder first, then its parent folders (IPC's repository root) */
static void test_paths(void) {
  ipcc_scene_def s;
  char want[600];
  if (load("shapes input 2\ntri.obj 0 0 0 0 0 0 1 1 1\ninput/meshes/tri.obj 0 0 3 0 0 0 1 1 1\n", 0,
           &s)) {
    snprintf(want, sizeof want, "%s/input/scripts/tri.obj", dir);
    CHECK_MSG(!strcmp(s.bodies[0].mesh, want), "%s", s.bodies[0].mesh);
    snprintf(want, sizeof want, "%s/input/meshes/tri.obj", dir);
    CHECK_MSG(strstr(s.bodies[1].mesh, "input/meshes/tri.obj") != NULL, "%s", s.bodies[1].mesh);
    CHECK(s.bodies[0].obstacle && s.bodies[0].codim == 0);
    ipcc_scene_def_free(&s);
  }
  /* .seg / .pt that do not exist fall back to the .obj, as segments / points */
  if (load("shapes input 2\ntri.seg 0 0 0 0 0 0 1 1 1\ntri.pt 0 0 3 0 0 0 1 1 1\n", 0, &s)) {
    CHECK(s.bodies[0].codim == 1 && s.bodies[1].codim == 2);
    CHECK(strstr(s.bodies[0].mesh, "tri.obj") != NULL);
    ipcc_scene_def_free(&s);
  }
  /* an alias script: one line naming another script */
  char path[600], alias[600];
  snprintf(path, sizeof path, "%s/input/scripts/t.txt", dir);
  write_file(path, "shapes input 1\ntri.obj 0 0 0 0 0 0 1 1 1\n");
  snprintf(alias, sizeof alias, "%s/input/alias.txt", dir);
  write_file(alias, "scripts/t.txt\n");
  ipcc_error err;
  CHECK(ipcc_scene_load_any(alias, 0, &s, &err) == IPCC_OK);
  if (s.nbodies == 1) ipcc_scene_def_free(&s);
  remove(path);
  remove(alias);
}

/* IPC's scripts vendored in tests/data load (shapes placed, meshes found from the input/ root) */
static void test_ipc_scripts(void) {
  static const char *const files[] = {
      "tutorialExamples/2cubesFall.txt",
      "tutorialExamples/MCO/2cubesFall_rotateCO_points.txt",
      "paperExamples/11_erleben/spikeCrackCO.txt",
      "paperExamples/supplementB/SQPBenchmark/04_pointTriangle.txt",
      "paperExamples/supplementB/SQPBenchmark/17_ErlebenSpikes.txt",
      "paperExamples/supplementB/SQPBenchmark/30_matTwist.txt",
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
    char path[512];
    snprintf(path, sizeof path, IPC_IN "%s", files[i]);
    ipcc_scene_def s;
    ipcc_error err;
    ipcc_status st = ipcc_scene_load_any(path, 0, &s, &err);
    CHECK_MSG(st == IPCC_OK, "%s: %s", files[i], st == IPCC_OK ? "" : err.msg);
    if (st != IPCC_OK) continue;
    CHECK(s.nbodies >= 1 && s.bbox_diag > 0);
    if (i == 0) CHECK(s.nplanes == 1 && s.bodies[0].friction == 0.1);
    if (i == 2) { /* dragright: the right 4 % of the spike dragged at 0.5 m/s */
      CHECK(s.bodies[0].ndirichlet == 1);
      if (s.bodies[0].ndirichlet) CHECK(s.bodies[0].dirichlet[0].velocity[0] == 0.5);
    }
    if (i == 5) { /* twist: two handles rotating about x in opposite directions */
      CHECK(s.bodies[0].ndirichlet == 2);
      if (s.bodies[0].ndirichlet == 2)
        CHECK(s.bodies[0].dirichlet[0].angular_velocity[0] ==
              -s.bodies[0].dirichlet[1].angular_velocity[0]);
    }
    ipcc_scene_def_free(&s);
  }
}

int main(void) {
  if (!realpath(IPC_IN "tetMeshes/cube.msh", cube)) {
    fprintf(stderr, "cube.msh not found\n");
    return 1;
  }
  snprintf(dir, sizeof dir, "/tmp/ipcc_test_txt_%d", (int)getpid());
  char p[512];
  mkdir(dir, 0755);
  snprintf(p, sizeof p, "%s/input", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/input/meshes", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/input/scripts", dir);
  mkdir(p, 0755);
  const char *tri = "v 0 0 0\nv 2 0 0\nv 0 0 2\nf 1 2 3\n";
  snprintf(p, sizeof p, "%s/input/meshes/tri.obj", dir);
  write_file(p, tri);
  snprintf(p, sizeof p, "%s/input/scripts/tri.obj", dir);
  write_file(p, tri);
  snprintf(p, sizeof p, "%s/input/meshes/seg.seg", dir);
  write_file(p, "v 0 0 0\nv 1 0 0\ns 1 2\n");
  test_keywords();
  test_size_fall_meshco();
  test_rotate_model();
  test_damping_self_collision();
  test_scenarios();
  test_push_physics();
  test_dragright_release();
  test_tet_diagonal();
  test_abs_parameters();
  test_mesh_seq();
  test_errors();
  test_paths();
  test_ipc_scripts();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  TEST_MAIN_END();
}
