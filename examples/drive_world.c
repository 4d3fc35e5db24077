/* driving a world from outside (docs/using-ipcc-from-c.md, "Driving a world from outside"):
   a control loop pushes the first body sideways with a force while it stays above a height,
   reads the contact list, and branches the run with a state snapshot.
   usage: drive_world SCENE [ipc|lcp] */
#include <ipcc/ipcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the controller: 2 m/s^2 along +x on body 0 while its lowest point is above 0.1 m, as
   forces m_i a into f (n x 3) */
static void control(const ipcc_world *w, double *f) {
  int n = ipcc_world_vertex_count(w);
  const double *x = ipcc_world_positions(w), *m = ipcc_world_masses(w);
  double lowest = 1e300;
  for (int i = 0; i < n; ++i)
    if (ipcc_world_vertex_body(w, i) == 0 && x[3 * i + 1] < lowest) lowest = x[3 * i + 1];
  for (int i = 0; i < n; ++i)
    f[3 * i] = ipcc_world_vertex_body(w, i) == 0 && lowest > 0.1 ? 2.0 * m[i] : 0.0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SCENE [ipc|lcp]\n", argv[0]);
    return 2;
  }
  ipcc_mode mode = argc > 2 && strcmp(argv[2], "lcp") == 0 ? IPCC_MODE_LCP : IPCC_MODE_IPC;
  ipcc_error err;
  ipcc_scene_def scene;
  if (ipcc_scene_load_any(argv[1], 0, &scene, &err) != IPCC_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  ipcc_world *w = ipcc_world_new(&scene, mode, NULL, &err);
  ipcc_scene_def_free(&scene);
  if (!w) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  int n = ipcc_world_vertex_count(w);
  double *f = calloc(3 * (size_t)n, sizeof(double));
  ipcc_contact *contacts = NULL;
  ipcc_state *branch = NULL;
  int status = 0;
  for (int step = 0; step < 40 && status == 0; ++step) {
    control(w, f);
    if (ipcc_world_set_forces(w, f, n, &err) != IPCC_OK ||
        ipcc_world_step(w, NULL, &err) != IPCC_OK) {
      fprintf(stderr, "step %d: %s\n", step + 1, err.msg);
      status = 1;
      break;
    }
    if (step == 19) branch = ipcc_state_create(w, &err); /* the branch point */
    /* the contact list: count, then fetch */
    int nc = ipcc_world_contacts(w, NULL, 0);
    contacts = realloc(contacts, sizeof *contacts * (size_t)(nc > 0 ? nc : 1));
    ipcc_world_contacts(w, contacts, nc);
    double fn = 0;
    for (int k = 0; k < nc; ++k) fn += contacts[k].normal_force;
    if ((step + 1) % 10 == 0)
      printf("t %.3f contacts %d normal force %.1f N\n", ipcc_world_time(w), nc, fn);
  }
  /* branch: back to step 20, the same 20 steps again give the same positions */
  if (status == 0 && branch) {
    size_t bytes = 3 * (size_t)n * sizeof(double);
    double *end = malloc(bytes);
    memcpy(end, ipcc_world_positions(w), bytes);
    ipcc_state_restore(w, branch, &err);
    for (int step = 20; step < 40 && status == 0; ++step) {
      control(w, f);
      ipcc_world_set_forces(w, f, n, &err);
      if (ipcc_world_step(w, NULL, &err) != IPCC_OK) status = 1;
    }
    printf("branch: %s\n",
           memcmp(end, ipcc_world_positions(w), bytes) == 0 ? "identical" : "different");
    free(end);
  }
  ipcc_state_free(branch);
  free(contacts);
  free(f);
  ipcc_world_destroy(w);
  return status;
}
