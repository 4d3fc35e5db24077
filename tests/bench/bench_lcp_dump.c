/* LCP mode on a scene, as `ipcc run SCENE --mode lcp` (the scene's lcp options), printing one
 * line per step (contacts, regions, largest region, sweeps, seconds) and writing the region
 * LCPs of chosen steps only (`--dump-lcp` writes every step, too much for a long run of a
 * pile of bodies). The LCPs of step K go to DIR/stepK/ as `ipcc lcp` reads them; used by
 * tools/measure_pool_lcp.sh for PGS vs AMGS on a settled pool (Miyamoto et al.).
 * usage: bench_lcp_dump SCENE STEPS DIR [K ...]
 * The world writes to DIR/cur only in the steps to dump (ipc_lcp_world_set_dump_dir), so the
 * other steps cost nothing extra; DIR/cur is then renamed DIR/stepK. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ipcc/scene.h"
#include "lcp/lcp_world.h"

static int wanted(int step, int argc, char **argv) {
  for (int i = 4; i < argc; ++i)
    if (atoi(argv[i]) == step) return 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_lcp_dump SCENE STEPS DIR [K ...]\n");
    return 2;
  }
  int steps = atoi(argv[2]);
  const char *dir = argv[3];
  ipcc_scene_def sc;
  ipcc_error err;
  if (ipcc_scene_load(argv[1], &sc, &err) != IPCC_OK) {
    fprintf(stderr, "bench_lcp_dump: %s\n", err.msg);
    return 2;
  }
  ipcc_lcp_world_def d = ipcc_default_lcp_world_def();
  if (ipcc_lcp_scene_load(argv[1], &d, NULL, &err) != IPCC_OK) {
    fprintf(stderr, "bench_lcp_dump: %s\n", err.msg);
    ipcc_scene_def_free(&sc);
    return 2;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "bench_lcp_dump: cannot create %s\n", dir);
    ipcc_scene_def_free(&sc);
    return 2;
  }
  size_t len = strlen(dir) + 32;
  char *cur = malloc(len), *done = malloc(len);
  snprintf(cur, len, "%s/cur", dir);
  ipc_lcp_world *w = ipc_lcp_world_create(&sc, &d, &err);
  int rc = 0;
  if (!w) {
    fprintf(stderr, "bench_lcp_dump: %s\n", err.msg);
    rc = 2;
  }
  if (w)
    printf("step contacts regions region_max sweeps rel_residual min_distance energy seconds\n");
  for (int k = 1; w && k <= steps; ++k) {
    int dump = wanted(k, argc, argv);
    if (dump && mkdir(cur, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "bench_lcp_dump: cannot create %s\n", cur);
      rc = 2;
      break;
    }
    ipc_lcp_world_set_dump_dir(w, dump ? cur : NULL);
    ipcc_lcp_step_stats st;
    if (ipc_lcp_world_step(w, &st, &err) != IPCC_OK) {
      fprintf(stderr, "bench_lcp_dump: step %d: %s\n", k, err.msg);
      rc = 1;
      break;
    }
    if (dump) {
      snprintf(done, len, "%s/step%d", dir, k);
      if (rename(cur, done) != 0) {
        fprintf(stderr, "bench_lcp_dump: cannot rename %s to %s\n", cur, done);
        rc = 2;
        break;
      }
    }
    printf("%d %d %d %d %ld %.3g %.4g %.6g %.3f%s\n", k, st.contacts, st.regions, st.region_max,
           st.lcp_iterations, st.rel_residual, st.min_distance, st.energy, st.t_total,
           dump ? " dumped" : "");
    fflush(stdout);
  }
  ipc_lcp_world_destroy(w);
  ipcc_scene_def_free(&sc);
  free(cur);
  free(done);
  return rc;
}
