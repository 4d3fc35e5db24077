/* the checks of a scene definition at world creation (src/core/scene_check.c): a scene built
   in code with a value the JSON reader refuses is refused by both worlds, with the JSON
   reader's key path and wording */
#include <math.h>
#include <string.h>

#include "ipcc/ipcc.h"
#include "lcp/lcp_world.h"
#include "test.h"

/* a cube resting above the ground, in memory the test owns (ipcc_scene_def_free not called) */
typedef struct fixture {
  ipcc_scene_def def;
  ipcc_body_def body;
  ipcc_plane_def plane;
  ipcc_dirichlet_def dir;
} fixture;

static void fixture_init(fixture *f) {
  f->def = ipcc_default_scene_def();
  f->def.time_step = 0.02;
  f->body = ipcc_default_body_def();
  f->body.mesh = (char *)"scenes/meshes/cube.msh";
  f->body.translation[1] = 0.5;
  memset(&f->dir, 0, sizeof f->dir);
  f->dir.region.box_max[0] = f->dir.region.box_max[1] = f->dir.region.box_max[2] = 1.0;
  f->dir.region.box_min[1] = 0.9; /* the top face */
  f->dir.t_end = INFINITY;
  f->body.dirichlet = &f->dir;
  f->body.ndirichlet = 1;
  f->plane = (ipcc_plane_def){{0, 0, 0}, {0, 1, 0}, 0, 0};
  f->def.bodies = &f->body;
  f->def.nbodies = 1;
  f->def.planes = &f->plane;
  f->def.nplanes = 1;
}

/* both worlds refuse the definition with IPCC_ERR_INPUT, a message holding each fragment */
static void refused(const char *name, const ipcc_scene_def *def, const char *frag1,
                    const char *frag2) {
  ipcc_error err;
  memset(&err, 0, sizeof err);
  ipc_world *w = ipc_world_create(def, &err);
  CHECK_MSG(w == NULL, "%s: IPC world created", name);
  ipc_world_destroy(w);
  CHECK_MSG(err.status == IPCC_ERR_INPUT && strstr(err.msg, frag1) && strstr(err.msg, frag2),
            "%s: IPC: status %d, '%s'", name, err.status, err.msg);

  memset(&err, 0, sizeof err);
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  ipc_lcp_world *lw = ipc_lcp_world_create(def, &ld, &err);
  CHECK_MSG(lw == NULL, "%s: LCP world created", name);
  ipc_lcp_world_destroy(lw);
  CHECK_MSG(err.status == IPCC_ERR_INPUT && strstr(err.msg, frag1) && strstr(err.msg, frag2),
            "%s: LCP: status %d, '%s'", name, err.status, err.msg);
}

static void valid_scene(void) {
  fixture f;
  fixture_init(&f);
  ipcc_error err;
  CHECK(ipcc_scene_def_check(&f.def, &err) == IPCC_OK);
  ipc_world *w = ipc_world_create(&f.def, &err);
  CHECK_MSG(w != NULL, "%s", err.msg);
  ipcc_step_stats st;
  if (w) CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
  ipc_world_destroy(w);
  ipcc_lcp_world_def ld = ipcc_default_lcp_world_def();
  ipc_lcp_world *lw = ipc_lcp_world_create(&f.def, &ld, &err);
  CHECK_MSG(lw != NULL, "%s", err.msg);
  ipcc_lcp_step_stats lst;
  if (lw) CHECK(ipc_lcp_world_step(lw, &lst, &err) == IPCC_OK);
  ipc_lcp_world_destroy(lw);
}

static void bad_values(void) {
  fixture f;
  /* the cases: each stepped with IPCC_OK, or failed later with "the Newton direction
     is not finite" */
  fixture_init(&f);
  f.def.time_step = -0.01;
  refused("time_step -0.01", &f.def,
          "(scene): key 'time_step': expected a positive time step (s), got -0.01", "");
  fixture_init(&f);
  f.def.time_step = 0;
  refused("time_step 0", &f.def, "key 'time_step'", "expected a positive time step");
  fixture_init(&f);
  f.body.density = 0;
  refused("density 0", &f.def, "key 'bodies[0].material.density'", "expected a positive density");
  fixture_init(&f);
  f.body.young = -5;
  refused("young -5", &f.def,
          "key 'bodies[0].material.young': expected a positive Young's modulus (Pa), got -5", "");
  fixture_init(&f);
  f.body.poisson = 0.5;
  refused("poisson 0.5", &f.def, "key 'bodies[0].material.poisson'",
          "expected a Poisson ratio in [0, 0.5), got 0.5");
  fixture_init(&f);
  f.body.scale[2] = 0;
  refused("scale 0", &f.def, "key 'bodies[0].scale'", "expected a positive number");
  fixture_init(&f);
  f.def.gravity[0] = NAN;
  refused("NaN gravity", &f.def, "key 'gravity'", "expected an array of 3 numbers");
  fixture_init(&f);
  f.dir.region.box_min[1] = 1.5;
  refused("box min > max", &f.def, "key 'bodies[0].dirichlet[0].box'",
          "expected min corner <= max corner");
  fixture_init(&f);
  f.dir.t_begin = 2;
  f.dir.t_end = 1;
  refused("t_begin > t_end", &f.def, "key 'bodies[0].dirichlet[0].end'",
          "expected an end time >= start");
  fixture_init(&f);
  f.plane.normal[1] = 0;
  refused("zero plane normal", &f.def, "key 'planes[0].normal'",
          "expected a non-zero normal vector");
  fixture_init(&f);
  f.body.mesh = NULL;
  refused("NULL mesh", &f.def, "key 'bodies[0].mesh'",
          "expected the path of the body's mesh file, got NULL");

  /* more of the JSON reader's ranges */
  fixture_init(&f);
  f.body.young = 1e16;
  refused("young 1e16", &f.def, "key 'bodies[0].material.young'", "(accepted: 1e-12 to 1e+15)");
  fixture_init(&f);
  f.body.friction = -0.1;
  refused("negative friction", &f.def, "key 'bodies[0].friction'", "expected a friction");
  fixture_init(&f);
  f.body.material = (ipcc_material_kind)7;
  refused("material 7", &f.def, "key 'bodies[0].material.model'", "expected \"neo_hookean\"");
  fixture_init(&f);
  f.body.velocity[2] = INFINITY;
  refused("infinite velocity", &f.def, "key 'bodies[0].velocity'", "expected an array of 3");
  fixture_init(&f);
  f.def.dhat = 0;
  refused("dhat 0", &f.def, "key 'contact.dhat'", "expected a positive barrier distance");
  fixture_init(&f);
  f.def.epsv = -1;
  refused("epsv -1", &f.def, "key 'contact.epsv'", "expected a positive friction slip speed");
  fixture_init(&f);
  f.def.newton_max_iterations = 0;
  refused("newton 0 iterations", &f.def, "key 'newton.max_iterations'", "expected a positive");
  fixture_init(&f);
  f.def.integrator = (ipcc_time_integrator)2;
  refused("integrator 2", &f.def, "key 'integrator'", "expected \"implicit_euler\"");
  fixture_init(&f);
  f.def.duration = NAN;
  refused("NaN duration", &f.def, "key 'duration'", "expected a duration >= 0 (s), got nan");
  fixture_init(&f);
  f.dir.t_begin = -1;
  refused("negative start", &f.def, "key 'bodies[0].dirichlet[0].start'", "expected a start");
  fixture_init(&f);
  int verts[2] = {0, -3};
  f.dir.region.verts = verts;
  f.dir.region.nverts = 2;
  refused("negative vertex", &f.def, "key 'bodies[0].dirichlet[0].vertices'",
          "expected non-negative integer vertex indices");
  fixture_init(&f);
  f.body.dirichlet = NULL;
  refused("NULL dirichlet array", &f.def, "key 'bodies[0].dirichlet'",
          "expected an array, got ndirichlet 1, dirichlet NULL");
  fixture_init(&f);
  f.def.nbodies = 0;
  refused("no body", &f.def, "key 'bodies'", "expected at least one body");
  fixture_init(&f);
  f.def.path = (char *)"my_scene.json";
  f.plane.friction_static = NAN;
  refused("NaN static friction", &f.def, "my_scene.json: key 'planes[0].friction.static'",
          "expected a friction coefficient >= 0");
}

/* what an IPC script's line declared is named by FILE:LINE */
static void script_lines(void) {
  fixture f;
  fixture_init(&f);
  f.def.path = (char *)"s.txt";
  f.body.source_line = 3;
  f.body.young = -5;
  refused("script young", &f.def,
          "s.txt:3: young: expected a positive Young's modulus (Pa), got -5", "");
  fixture_init(&f);
  f.def.path = (char *)"s.txt";
  f.dir.source_line = 4;
  f.dir.t_begin = -1; /* a script's DBC may start before 0: the same as 0 */
  ipcc_error err;
  CHECK_MSG(ipcc_scene_def_check(&f.def, &err) == IPCC_OK, "%s", err.msg);
  f.dir.t_end = -2;
  refused("script window", &f.def, "s.txt:4: end: expected an end time >= start", "");
  fixture_init(&f);
  f.def.path = (char *)"s.txt";
  f.def.source_line_epsv = 9;
  f.def.epsv = 0;
  refused("script epsv", &f.def, "s.txt:9: epsv: expected a positive friction slip speed", "");

  /* a script's extent overflows when a shape lies out of range: left to the model builder,
     which names the shape's line (tests/bad_input/txt_shape_out_of_range.case) */
  fixture_init(&f);
  f.def.bbox_diag = INFINITY;
  f.def.dhat = 0; /* an absolute dhat over the infinite extent */
  refused("infinite bbox_diag", &f.def, "key 'contact.dhat'", "expected a positive barrier");
  f.def.dhat = 1e-3;
  refused("infinite bbox_diag", &f.def, "key 'bbox_diag'", "got inf");
  f.body.source_line = 2;
  f.def.dhat = 0;
  CHECK_MSG(ipcc_scene_def_check(&f.def, &err) == IPCC_OK, "%s", err.msg);
}

static void null_def(void) {
  ipcc_error err;
  CHECK(ipc_world_create(NULL, &err) == NULL && err.status == IPCC_ERR_INPUT);
  CHECK(ipc_lcp_world_create(NULL, NULL, &err) == NULL && err.status == IPCC_ERR_INPUT);
  CHECK(strstr(err.msg, "expected a scene definition") != NULL);
  CHECK(ipcc_scene_def_check(NULL, NULL) == IPCC_ERR_INPUT);
}

int main(void) {
  valid_scene();
  bad_values();
  script_lines();
  null_def();
  TEST_MAIN_END();
}
