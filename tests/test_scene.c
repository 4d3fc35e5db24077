/* scene JSON reader: every shipped scene loads; bad scenes give errors naming the key */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipcc/scene.h"
#include "test.h"

static const char *write_tmp(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/ipcc_test_scene_%d.json", (int)getpid());
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

/* loads text, expects failure whose message contains every needle */
static void expect_error(const char *text, const char *n1, const char *n2) {
  ipcc_scene_def s;
  ipcc_error err;
  const char *path = write_tmp(text);
  ipcc_status st = ipcc_scene_load(path, &s, &err);
  CHECK_MSG(st == IPCC_ERR_INPUT, "scene should be rejected: %s", text);
  if (st == IPCC_ERR_INPUT) {
    CHECK_MSG(strstr(err.msg, path) != NULL, "message names the file: %s", err.msg);
    CHECK_MSG(!n1 || strstr(err.msg, n1), "message '%s' lacks '%s'", err.msg, n1);
    CHECK_MSG(!n2 || strstr(err.msg, n2), "message '%s' lacks '%s'", err.msg, n2);
  } else {
    ipcc_scene_def_free(&s);
  }
  remove(path);
}

int main(void) {
  const char *scenes[] = {
      "scenes/two_cubes.json",        "scenes/mat_twist.json",  "scenes/torus_stack.json",
      "scenes/squeeze_ball.json",     "scenes/bunny_drop.json", "scenes/incline_plane.json",
      "scenes/incline_obstacle.json", "scenes/card_frame.json", "scenes/spinning_cube.json"};
  for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i) {
    ipcc_scene_def s;
    ipcc_error err;
    ipcc_status st = ipcc_scene_load(scenes[i], &s, &err);
    CHECK_MSG(st == IPCC_OK, "%s: %s", scenes[i], err.msg);
    if (st == IPCC_OK) {
      CHECK(s.nbodies >= 1);
      CHECK(s.time_step > 0);
      CHECK(strstr(s.bodies[0].mesh, "scenes/meshes/") != NULL);
      ipcc_scene_def_free(&s);
    }
  }
  /* contact.body_contact and its older form self_collision; damping */
  {
#define BODY "{\"bodies\": [{\"mesh\": \"a.msh\"}], "
    static const struct {
      const char *json;
      ipcc_body_contact mode;
      double beta;
    } ok[] = {
        {BODY "\"contact\": {\"self_collision\": false}}", IPCC_BODY_CONTACT_BETWEEN_BODIES, 0},
        {BODY "\"contact\": {\"body_contact\": \"obstacles_only\"}}",
         IPCC_BODY_CONTACT_OBSTACLES_ONLY, 0},
        {BODY "\"contact\": {\"body_contact\": \"all\"}, \"damping\": {\"stiffness\": 0.5}}",
         IPCC_BODY_CONTACT_ALL, 0.5},
        {BODY "\"time_step\": 0.02, \"damping\": {\"ratio\": 0.5}}", IPCC_BODY_CONTACT_ALL,
         0.75 * 0.5 * 0.02},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
      ipcc_scene_def s;
      ipcc_error err;
      const char *path = write_tmp(ok[i].json);
      ipcc_status st = ipcc_scene_load(path, &s, &err);
      CHECK_MSG(st == IPCC_OK, "%s: %s", ok[i].json, err.msg);
      if (st == IPCC_OK) {
        CHECK(s.body_contact == ok[i].mode);
        CHECK_NEAR(s.damping_stiffness, ok[i].beta, 1e-15);
        ipcc_scene_def_free(&s);
      }
      remove(path);
    }
    expect_error("{\"contact\": {\"body_contact\": \"none\"}}", "contact.body_contact",
                 "obstacles_only");
    expect_error("{\"contact\": {\"body_contact\": \"all\", \"self_collision\": true}}",
                 "contact.self_collision", "older form");
    expect_error("{\"damping\": {\"ratio\": 2}}", "damping.ratio", "[0, 1]");
    expect_error("{\"damping\": {\"ratio\": 0.1, \"stiffness\": 1}}", "damping.ratio", NULL);
    expect_error("{\"damping\": {\"mass\": 1}}", "damping.mass", NULL);
#undef BODY
  }
  /* values parsed as written */
  {
    ipcc_scene_def s;
    ipcc_error err;
    const char *path = write_tmp(
        "{\"time_step\": 0.01, \"duration\": 0.5, \"gravity\": [0, 0, -1],"
        " \"integrator\": \"newmark\", \"contact\": {\"dhat\": 0.002, \"dhat_absolute\": true,"
        " \"kappa\": 1e5}, \"newton\": {\"tolerance\": 1e-3, \"max_iterations\": 7},"
        " \"bodies\": [{\"mesh\": \"a.msh\", \"scale\": 2, \"material\": {\"model\": \"stvk\","
        " \"young\": 3e6, \"poisson\": 0.3, \"density\": 500}, \"dirichlet\": [{\"vertices\":"
        " [0, 3], \"velocity\": [1, 0, 0], \"start\": 0.1, \"end\": 0.2}]}],"
        " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0, 0, 2]}]}");
    CHECK(ipcc_scene_load(path, &s, &err) == IPCC_OK);
    CHECK(s.time_step == 0.01 && s.duration == 0.5 && s.gravity[2] == -1);
    CHECK(s.integrator == IPCC_NEWMARK);
    CHECK(s.dhat == 0.002 && s.dhat_absolute == 1 && s.kappa == 1e5);
    CHECK(s.newton_tol == 1e-3 && s.newton_max_iterations == 7);
    CHECK(s.bodies[0].scale[1] == 2 && s.bodies[0].material == IPCC_MAT_STVK);
    CHECK(s.bodies[0].young == 3e6 && s.bodies[0].poisson == 0.3 && s.bodies[0].density == 500);
    CHECK(s.bodies[0].ndirichlet == 1 && s.bodies[0].dirichlet[0].region.nverts == 2);
    CHECK(s.bodies[0].dirichlet[0].t_begin == 0.1 && s.bodies[0].dirichlet[0].t_end == 0.2);
    CHECK(s.nplanes == 1 && s.planes[0].normal[2] == 1.0);
    ipcc_scene_def_free(&s);
    remove(path);
  }
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\"}], \"tme_step\": 1}", "tme_step", "unknown");
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\", \"material\": {\"young\": -1}}]}",
               "bodies[0].material.young", "positive");
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\", \"material\": {\"poisson\": 0.5}}]}",
               "bodies[0].material.poisson", NULL);
  expect_error("{\"bodies\": [{\"mesh\": 3}]}", "bodies[0].mesh", "string");
  expect_error("{\"bodies\": [{}]}", "bodies[0].mesh", NULL);
  expect_error("{\"bodies\": []}", "bodies", "at least one");
  expect_error("{\"time_step\": -0.1, \"bodies\": [{\"mesh\": \"a.msh\"}]}", "time_step", NULL);
  expect_error("{\"time_step\": \"fast\", \"bodies\": [{\"mesh\": \"a.msh\"}]}", "time_step", NULL);
  expect_error("{\"gravity\": [0, 1], \"bodies\": [{\"mesh\": \"a.msh\"}]}", "gravity",
               "3 numbers");
  expect_error(
      "{\"bodies\": [{\"mesh\": \"a.msh\", \"dirichlet\": [{\"box\": [[1,0,0],[0,1,1]]}]}]}",
      "bodies[0].dirichlet[0].box", NULL);
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\", \"dirichlet\": [{\"velocity\": [0,0,0]}]}]}",
               "bodies[0].dirichlet[0]", "region");
  expect_error("{\"planes\": [{\"normal\": [0, 0, 0]}], \"bodies\": [{\"mesh\": \"a.msh\"}]}",
               "planes[0].normal", NULL);
  expect_error("{\"integrator\": \"rk4\", \"bodies\": [{\"mesh\": \"a.msh\"}]}", "integrator",
               NULL);
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\"}],\n \"duration\": 1,\n oops}", ":3:", "JSON");
  /* friction keys: defaults, a number, static/kinetic, the combine rule */
  {
    ipcc_scene_def s;
    ipcc_error err;
    const char *path = write_tmp(
        "{\"contact\": {\"epsv\": 0.02, \"epsv_absolute\": true, \"friction_iterations\": 3,"
        " \"friction_tolerance\": 0, \"friction_combine\": \"max\"},"
        " \"bodies\": [{\"mesh\": \"a.msh\", \"friction\": 0.4},"
        " {\"mesh\": \"b.msh\", \"friction\": {\"static\": 0.6, \"kinetic\": 0.2}},"
        " {\"mesh\": \"c.msh\"}],"
        " \"planes\": [{\"friction\": {\"kinetic\": 0.3}}]}");
    CHECK(ipcc_scene_load(path, &s, &err) == IPCC_OK);
    CHECK(s.epsv == 0.02 && s.epsv_absolute && s.friction_iterations == 3);
    CHECK(s.friction_tolerance == 0 && s.friction_combine == IPCC_FRICTION_MAX);
    CHECK(s.bodies[0].friction == 0.4 && s.bodies[0].friction_static == 0.4);
    CHECK(s.bodies[1].friction == 0.2 && s.bodies[1].friction_static == 0.6);
    CHECK(s.bodies[2].friction == 0 && s.bodies[2].friction_static == 0);
    CHECK(s.planes[0].friction == 0.3 && s.planes[0].friction_static == 0.3);
    ipcc_scene_def_free(&s);
    remove(path);
    ipcc_scene_def d = ipcc_default_scene_def();
    CHECK(d.epsv == 1e-3 && !d.epsv_absolute && d.friction_iterations == 1);
    CHECK(d.friction_combine == IPCC_FRICTION_GEOMETRIC_MEAN);
  }
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\", \"friction\": -1}]}", "bodies[0].friction",
               ">= 0");
  expect_error(
      "{\"bodies\": [{\"mesh\": \"a.msh\", \"friction\": {\"static\": 0.1, \"kinetic\": 0.5}}]}",
      "bodies[0].friction.static", "kinetic");
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\", \"friction\": {\"dynamic\": 0.5}}]}",
               "bodies[0].friction.dynamic", NULL);
  expect_error("{\"contact\": {\"friction_iterations\": 0}, \"bodies\": [{\"mesh\": \"a.msh\"}]}",
               "contact.friction_iterations", NULL);
  expect_error(
      "{\"contact\": {\"friction_combine\": \"avg\"}, \"bodies\": [{\"mesh\": \"a.msh\"}]}",
      "contact.friction_combine", "geometric_mean");
  /* strict JSON: nothing after the object, each key once, a clear word on deep nesting,
     the scene an object */
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\"}]}\n\n garbage\n",
               ":3:", "after the JSON object");
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\"}]} {}", ":1:", "after the JSON object");
  expect_error("{\"bodies\": [{\"mesh\": \"a.msh\", \"name\": \"x\", \"mesh\": \"b.msh\"}]}",
               "key 'bodies[0].mesh'", "twice");
  expect_error("{\"duration\": 1, \"bodies\": [{\"mesh\": \"a.msh\"}], \"duration\": 2}",
               "key 'duration'", "twice");
  {
    char deep[2600];
    size_t k = (size_t)snprintf(deep, sizeof deep, "{\"a\": ");
    for (int i = 0; i < 1200; ++i) deep[k++] = '[';
    for (int i = 0; i < 1200; ++i) deep[k++] = ']';
    snprintf(deep + k, sizeof deep - k, "}");
    expect_error(deep, "nested too deeply", ":1:");
  }
  expect_error("\"abc\"", "must be a JSON object", "a string");
  expect_error("[{\"bodies\": []}]", "must be a JSON object", "an array");
  expect_error("42", "must be a JSON object", "a number");
  /* a file not named .json that holds a JSON string is JSON, not an IPC script */
  {
    char path[64];
    snprintf(path, sizeof path, "/tmp/ipcc_test_scene_%d.scene", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs("  \"abc\"\n", f);
    fclose(f);
    ipcc_scene_def s;
    ipcc_error err;
    CHECK(ipcc_scene_load_any(path, 0, &s, &err) == IPCC_ERR_INPUT);
    CHECK_MSG(strstr(err.msg, "must be a JSON object") != NULL, "%s", err.msg);
    remove(path);
  }
  /* 200000 Dirichlet vertices: arrays are walked in one pass (cJSON_GetArrayItem in a loop
     took 30 s) */
  {
    const int n = 200000;
    size_t cap = 16 * (size_t)n + 256, k = 0;
    char *text = malloc(cap);
    k += (size_t)snprintf(text + k, cap - k,
                          "{\"bodies\": [{\"mesh\": \"a.msh\", \"dirichlet\": [{\"vertices\": [");
    for (int i = 0; i < n; ++i) k += (size_t)snprintf(text + k, cap - k, "%s%d", i ? "," : "", i);
    snprintf(text + k, cap - k, "]}]}]}");
    const char *path = write_tmp(text);
    free(text);
    ipcc_scene_def s;
    ipcc_error err;
    CHECK(ipcc_scene_load(path, &s, &err) == IPCC_OK);
    CHECK(s.bodies[0].dirichlet[0].region.nverts == n);
    CHECK(s.bodies[0].dirichlet[0].region.verts[n - 1] == n - 1);
    ipcc_scene_def_free(&s);
    remove(path);
  }
  /* a missing file names it */
  {
    ipcc_scene_def s;
    ipcc_error err;
    CHECK(ipcc_scene_load("/nonexistent/scene.json", &s, &err) == IPCC_ERR_INPUT);
    CHECK(strstr(err.msg, "/nonexistent/scene.json") != NULL);
  }
  TEST_MAIN_END();
}
