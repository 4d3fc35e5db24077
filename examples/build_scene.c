/* ipcc example: a scene built in code. A soft unit cube (the tet mesh given on the command
   line, default scenes/meshes/cube.msh) is dropped from 0.5 m onto the ground plane y = 0;
   every 10 steps the program prints the lowest y of the cube, and at the end whether the
   state is intersection-free.

     cc build_scene.c $(pkg-config --cflags --libs ipcc) -o build_scene
     ./build_scene scenes/meshes/cube.msh

   exit code: 0, 1 when a step fails, 2 when the scene is rejected (as the ipcc CLI). */
#include <ipcc/ipcc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a malloc'd copy: ipcc_scene_def_free frees the scene's strings with free() */
static char *copy_string(const char *s) {
  char *c = malloc(strlen(s) + 1);
  if (c) strcpy(c, s);
  return c;
}

/* the scene owns bodies, planes and the body's strings (all from malloc) until
   ipcc_scene_def_free */
static int make_scene(ipcc_scene_def *scene, const char *mesh) {
  *scene = ipcc_default_scene_def();
  scene->time_step = 0.02;
  scene->duration = 1.0;
  scene->bodies = calloc(1, sizeof *scene->bodies);
  scene->planes = calloc(1, sizeof *scene->planes);
  if (!scene->bodies || !scene->planes) return -1;

  scene->nbodies = 1;
  ipcc_body_def *cube = &scene->bodies[0];
  *cube = ipcc_default_body_def(); /* Neo-Hookean, 1000 kg/m^3, E 1e5 Pa, nu 0.4 */
  cube->name = copy_string("cube");
  cube->mesh = copy_string(mesh);
  if (!cube->name || !cube->mesh) return -1;
  cube->translation[1] = 0.5;

  scene->nplanes = 1;
  scene->planes[0].normal[1] = 1.0; /* the half space y >= 0 */
  return 0;
}

static double lowest_y(const ipcc_world *w, const ipcc_body_info *body) {
  const double *x = ipcc_world_positions(w);
  double lo = INFINITY;
  for (int i = body->vertex_begin; i < body->vertex_begin + body->vertex_count; ++i)
    lo = fmin(lo, x[3 * i + 1]);
  return lo;
}

int main(int argc, char **argv) {
  const char *mesh = argc > 1 ? argv[1] : "scenes/meshes/cube.msh";
  ipcc_scene_def scene;
  if (make_scene(&scene, mesh) != 0) {
    fprintf(stderr, "build_scene: out of memory\n");
    ipcc_scene_def_free(&scene);
    return 2;
  }
  ipcc_error err;
  ipcc_world *w = ipcc_world_new(&scene, IPCC_MODE_IPC, NULL, &err);
  ipcc_scene_def_free(&scene); /* the world keeps copies of what it needs */
  if (!w) {
    fprintf(stderr, "build_scene: %s\n", err.msg);
    return err.status;
  }

  ipcc_body_info cube;
  ipcc_world_body(w, 0, &cube);
  printf("body %s: %d vertices, %d tets, %d surface triangles\n", cube.name, cube.vertex_count,
         cube.tet_count, cube.triangle_count);
  printf("step 0 t 0.000 lowest_y %.6f\n", lowest_y(w, &cube));
  int steps = ipcc_world_scene_steps(w);
  for (int s = 1; s <= steps; ++s) {
    ipcc_step_stats st;
    if (ipcc_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "build_scene: step %d: %s\n", s, err.msg);
      ipcc_world_destroy(w);
      return 1;
    }
    if (s % 10 == 0)
      printf("step %d t %.3f lowest_y %.6f newton %d contacts %d\n", s, st.time, lowest_y(w, &cube),
             st.newton_iterations, st.contacts);
  }
  char what[256];
  int ok = ipcc_world_intersection_free(w, what, sizeof what);
  printf("intersection-free: %s\n", ok ? "yes" : what);
  ipcc_world_destroy(w);
  return ok ? 0 : 1;
}
