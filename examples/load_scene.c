/* ipcc example: load a scene file (JSON or an IPC .txt script), list its bodies, take a
   number of steps and print where each body is: its vertex count, centroid and lowest y.

     cc load_scene.c $(pkg-config --cflags --libs ipcc) -o load_scene
     ./load_scene scenes/two_cubes.json 20

   exit code: 0, 1 when a step fails, 2 when the scene is rejected (as the ipcc CLI). */
#include <ipcc/ipcc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* one line per body: name, kind, vertex range, centroid and lowest y of its vertices */
static void print_bodies(const ipcc_world *w) {
  const double *x = ipcc_world_positions(w);
  for (int b = 0; b < ipcc_world_body_count(w); ++b) {
    ipcc_body_info info;
    ipcc_world_body(w, b, &info);
    double c[3] = {0, 0, 0}, lo = INFINITY;
    for (int i = info.vertex_begin; i < info.vertex_begin + info.vertex_count; ++i) {
      for (int d = 0; d < 3; ++d) c[d] += x[3 * i + d] / info.vertex_count;
      lo = fmin(lo, x[3 * i + 1]);
    }
    printf("  %-12s %-8s vertices [%d, %d) centroid (%.4f, %.4f, %.4f) lowest_y %.6f\n", info.name,
           info.obstacle ? "obstacle" : "body", info.vertex_begin,
           info.vertex_begin + info.vertex_count, c[0], c[1], c[2], lo);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: load_scene SCENE [STEPS]\n");
    return 2;
  }
  int steps = argc > 2 ? atoi(argv[2]) : 10;
  ipcc_scene_def scene;
  ipcc_error err;
  /* on failure the loader leaves scene empty: nothing to free */
  if (ipcc_scene_load_any(argv[1], 0, &scene, &err) != IPCC_OK) {
    fprintf(stderr, "load_scene: %s\n", err.msg);
    return err.status;
  }
  ipcc_world *w = ipcc_world_new(&scene, IPCC_MODE_IPC, NULL, &err);
  ipcc_scene_def_free(&scene);
  if (!w) {
    fprintf(stderr, "load_scene: %s\n", err.msg);
    return err.status;
  }
  int ntris;
  ipcc_world_surface_triangles(w, &ntris);
  printf("%s: %d bodies, %d vertices, %d surface triangles, dhat %.3g m\n", argv[1],
         ipcc_world_body_count(w), ipcc_world_vertex_count(w), ntris,
         ipcc_world_contact_distance(w));
  printf("t %.3f\n", ipcc_world_time(w));
  print_bodies(w);
  for (int s = 0; s < steps; ++s) {
    ipcc_step_stats st; /* the IPC mode's statistics (an LCP world fills ipcc_lcp_step_stats) */
    if (ipcc_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "load_scene: step %d: %s\n", s + 1, err.msg);
      ipcc_world_destroy(w);
      return 1;
    }
  }
  printf("t %.3f\n", ipcc_world_time(w));
  print_bodies(w);
  ipcc_world_destroy(w);
  return 0;
}
