/* the analytic planes as frame geometry (src/io/frame_planes.c, --write-planes): every
   plane becomes a square of two triangles lying in it, wound counter-clockwise seen from the
   allowed side, with the plane's normal as "vn", covering every vertex of every frame written
   so far (read back from the file before, so a resumed run continues it); frame 0 starts
   over. Through the library in both modes and, with argv[1] (the ipcc binary), through the
   command line: --write-planes and output.planes, --overwrite removes planes.obj, ipcc check
   skips it, a scene without planes is refused, a resumed run's file equals an uninterrupted
   run's */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/frame_planes.h"
#include "io/path.h"
#include "io/run_output.h"
#include "ipcc/ipcc.h"
#include "test.h"

/* a square of planes.obj */
typedef struct square {
  double v[4][3], vn[3];
  int f[2][3], fn[2][3];
} square;

/* the squares of a planes.obj (at most max), or -1 when unreadable or malformed */
static int read_squares(const char *path, square *sq, int max) {
  ipcc_error err;
  char *t = ipc_read_file_max(path, IPC_READ_MAX_MESH, NULL, &err);
  if (!t) return -1;
  int n = -1, nv = 0, nf = 0, ok = 1;
  for (char *l = strtok(t, "\n"); l && ok; l = strtok(NULL, "\n")) {
    if (!strncmp(l, "o ", 2)) {
      ok = ++n < max && nv == 4 * n && nf == 2 * n;
    } else if (!strncmp(l, "v ", 2) && n >= 0 && nv < 4 * (n + 1)) {
      double *v = sq[n].v[nv++ - 4 * n];
      ok = sscanf(l + 2, "%lf %lf %lf", &v[0], &v[1], &v[2]) == 3;
    } else if (!strncmp(l, "vn ", 3) && n >= 0) {
      ok = sscanf(l + 3, "%lf %lf %lf", &sq[n].vn[0], &sq[n].vn[1], &sq[n].vn[2]) == 3;
    } else if (!strncmp(l, "f ", 2) && n >= 0 && nf < 2 * (n + 1)) {
      int *f = sq[n].f[nf - 2 * n], *fn = sq[n].fn[nf - 2 * n];
      ++nf;
      ok = sscanf(l + 2, "%d//%d %d//%d %d//%d", &f[0], &fn[0], &f[1], &fn[1], &f[2], &fn[2]) == 6;
    } else if (l[0] != '#') {
      ok = 0;
    }
  }
  free(t);
  return ok && nv == 4 * (n + 1) && nf == 2 * (n + 1) ? n + 1 : -1;
}

static double dot(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* square k against plane (p, n), and the points x (npts) inside it: in the plane, triangles
   along n, the corners in global OBJ numbering, every point's projection inside */
static void check_square(const square *s, int k, const double p[3], const double n[3],
                         const double *x, int npts, const char *what) {
  double scale = 0;
  for (int c = 0; c < 4; ++c) {
    double d[3] = {s->v[c][0] - p[0], s->v[c][1] - p[1], s->v[c][2] - p[2]};
    CHECK_MSG(fabs(dot(d, n)) <= 1e-12 * (1 + sqrt(dot(s->v[c], s->v[c]))),
              "%s: plane %d: corner %d is %.3g off the plane", what, k, c, dot(d, n));
    scale = fmax(scale, sqrt(dot(d, d)));
  }
  CHECK_MSG(fabs(dot(s->vn, n) - 1) < 1e-12, "%s: plane %d: vn is not its normal", what, k);
  for (int t = 0; t < 2; ++t) {
    for (int c = 0; c < 3; ++c)
      CHECK(s->f[t][c] >= 4 * k + 1 && s->f[t][c] <= 4 * k + 4 && s->fn[t][c] == k + 1);
    const double *a = s->v[s->f[t][0] - 1 - 4 * k], *b = s->v[s->f[t][1] - 1 - 4 * k],
                 *c = s->v[s->f[t][2] - 1 - 4 * k];
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0]};
    CHECK_MSG(dot(cr, n) > 0.99 * sqrt(dot(cr, cr)) && dot(cr, cr) > 0,
              "%s: plane %d: triangle %d is not counter-clockwise seen from the normal", what, k,
              t);
  }
  /* the corners 0, 1, 3 span the square: every point's projection has coordinates in [0, 1] */
  double e1[3], e2[3];
  for (int d = 0; d < 3; ++d) {
    e1[d] = s->v[1][d] - s->v[0][d];
    e2[d] = s->v[3][d] - s->v[0][d];
  }
  CHECK(fabs(dot(e1, e2)) < 1e-12 * dot(e1, e1) &&
        fabs(dot(e1, e1) - dot(e2, e2)) < 1e-9 * dot(e1, e1));
  int outside = 0;
  for (int i = 0; i < npts; ++i) {
    double r[3] = {x[3 * i] - s->v[0][0], x[3 * i + 1] - s->v[0][1], x[3 * i + 2] - s->v[0][2]};
    double a = dot(r, e1) / dot(e1, e1), b = dot(r, e2) / dot(e2, e2);
    outside += !(a >= 0 && a <= 1 && b >= 0 && b <= 1);
  }
  CHECK_MSG(outside == 0, "%s: plane %d: %d of %d points beyond its square (side %.3g)", what, k,
            outside, npts, sqrt(dot(e1, e1)));
  (void)scale;
}

/* the square's side */
static double side(const square *s) {
  double e[3] = {s->v[1][0] - s->v[0][0], s->v[1][1] - s->v[0][1], s->v[1][2] - s->v[0][2]};
  return sqrt(dot(e, e));
}

/* ipc_planes_write_obj alone: two planes (one tilted), a box of points, a second frame with
   points elsewhere covers both, frame 0 starts over */
static void test_writer(const char *dir) {
  ipcc_error err;
  double pts[6] = {0, 0, 0, 1, 2, 3};
  double nrm[6] = {0, 1, 0, 0.6, 0, 0.8};
  double a[3 * 8], b[3 * 8], ab[3 * 16];
  for (int c = 0; c < 8; ++c)
    for (int d = 0; d < 3; ++d) {
      a[3 * c + d] = (c >> d & 1) ? 1.0 + d : -0.5;        /* box [-0.5, 1..3] */
      b[3 * c + d] = a[3 * c + d] + (d == 0 ? 10.0 : 0.0); /* moved 10 m along x */
    }
  memcpy(ab, a, sizeof a);
  memcpy(ab + 24, b, sizeof b);
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, IPC_PLANES_FILE);
  square sq[2];
  CHECK(ipc_planes_write_obj(dir, 0, 2, pts, nrm, a, 8, &err) == IPCC_OK);
  CHECK(read_squares(path, sq, 2) == 2);
  for (int k = 0; k < 2; ++k) check_square(&sq[k], k, pts + 3 * k, nrm + 3 * k, a, 8, "frame 0");
  double side0 = side(&sq[0]);
  /* half the box's diagonal of margin: the ground square of box a is 1.5 + 2 x 1.5 wide at
     least along z (box 3.5 deep, margin 0.5 x sqrt(1.5^2 + 2.5^2 + 3.5^2)) */
  CHECK(side0 >= 3.5 + sqrt(1.5 * 1.5 + 2.5 * 2.5 + 3.5 * 3.5) - 1e-12);
  CHECK(ipc_planes_write_obj(dir, 1, 2, pts, nrm, b, 8, &err) == IPCC_OK);
  CHECK(read_squares(path, sq, 2) == 2);
  for (int k = 0; k < 2; ++k) check_square(&sq[k], k, pts + 3 * k, nrm + 3 * k, ab, 16, "frame 1");
  CHECK(side(&sq[0]) > side0 + 9);
  CHECK(ipc_planes_write_obj(dir, 0, 2, pts, nrm, a, 8, &err) == IPCC_OK);
  CHECK(read_squares(path, sq, 2) == 2 && fabs(side(&sq[0]) - side0) < 1e-12 * side0);
  /* unwritable: the folder is missing */
  char missing[600];
  snprintf(missing, sizeof missing, "%s/none", dir);
  CHECK(ipc_planes_write_obj(missing, 0, 2, pts, nrm, a, 8, &err) != IPCC_OK && err.msg[0]);
}

/* frames 0..12 of a scene with a ground plane in one mode: the square covers every frame */
static void library_run(const char *scene, const char *dir, int lcp) {
  ipcc_scene_def def;
  ipcc_error err;
  CHECK(ipcc_scene_load(scene, &def, &err) == IPCC_OK);
  ipc_world *w = lcp ? NULL : ipc_world_create(&def, &err);
  ipc_lcp_world *lw = lcp ? ipc_lcp_world_create(&def, NULL, &err) : NULL;
  CHECK(w || lw);
  if (!w && !lw) {
    ipcc_scene_def_free(&def);
    return;
  }
  CHECK(ipc_output_prepare(dir, &err) == IPCC_OK);
  int nv = lw ? ipc_lcp_world_vertex_count(lw) : ipc_world_vertex_count(w);
  double *all = malloc(sizeof(double) * 3 * (size_t)nv * 13);
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, IPC_PLANES_FILE);
  for (int k = 0; k <= 12; ++k) {
    if (k > 0) {
      ipcc_step_stats st;
      ipcc_lcp_step_stats lst;
      CHECK(lw ? ipc_lcp_world_step(lw, &lst, &err) == IPCC_OK
               : ipc_world_step(w, &st, &err) == IPCC_OK);
    }
    unsigned formats = IPCC_FORMAT_PLANES; /* no frame format: OBJ frames */
    ipcc_status s = lw ? ipc_lcp_world_write_frame(lw, dir, k, formats, &err)
                       : ipc_world_write_frame(w, dir, k, formats, &err);
    CHECK_MSG(s == IPCC_OK, "frame %d: %s", k, err.msg);
    memcpy(all + 3 * (size_t)nv * (size_t)k,
           lw ? ipc_lcp_world_positions(lw) : ipc_world_positions(w),
           sizeof(double) * 3 * (size_t)nv);
    snprintf(path, sizeof path, "%s/%06d.obj", dir, k);
    CHECK(access(path, F_OK) == 0);
  }
  snprintf(path, sizeof path, "%s/%s", dir, IPC_PLANES_FILE);
  square sq[1];
  CHECK(read_squares(path, sq, 1) == 1);
  double p[3], n[3];
  CHECK((lw ? ipc_lcp_world_plane(lw, 0, p, n) : ipc_world_plane(w, 0, p, n)) == 0);
  check_square(&sq[0], 0, p, n, all, nv * 13, lcp ? "LCP mode" : "IPC mode");
  free(all);
  ipc_world_destroy(w);
  ipc_lcp_world_destroy(lw);
  ipcc_scene_def_free(&def);
}

/* the command line in sh, output to log; its exit code */
static int sh(const char *log, const char *fmt, ...) {
  char cmd[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n + 16 + strlen(log) >= sizeof cmd) return -1;
  snprintf(cmd + n, sizeof cmd - (size_t)n, " >%s 2>&1", log);
  int rc = system(cmd);
  return rc == -1 ? -1 : WEXITSTATUS(rc);
}

static int contains(const char *path, const char *what) {
  ipcc_error err;
  char *t = ipc_read_file_max(path, IPC_READ_MAX_MESH, NULL, &err);
  int found = t && strstr(t, what);
  free(t);
  return found;
}

static int files_equal(const char *a, const char *b) {
  ipcc_error err;
  size_t la = 0, lb = 0;
  char *x = ipc_read_file_max(a, IPC_READ_MAX_MESH, &la, &err);
  char *y = ipc_read_file_max(b, IPC_READ_MAX_MESH, &lb, &err);
  int eq = x && y && la == lb && !memcmp(x, y, la);
  free(x);
  free(y);
  return eq;
}

static void cli(const char *ipcc, const char *tmp, const char *scene_json) {
  char log[256], a[512], b[512];
  snprintf(log, sizeof log, "%s/log", tmp);
  for (int lcp = 0; lcp < 2; ++lcp) {
    const char *mode = lcp ? "lcp" : "ipc";
    CHECK(sh(log,
             "%s run scenes/two_cubes.json -o %s/full_%s --mode %s --steps 16 --every 2 "
             "--write-planes --quiet",
             ipcc, tmp, mode, mode) == 0);
    snprintf(a, sizeof a, "%s/full_%s/frames/%s", tmp, mode, IPC_PLANES_FILE);
    square sq[1];
    CHECK_MSG(read_squares(a, sq, 1) == 1, "%s mode: %s", mode, a);
    /* ipcc check skips it (a square is no frame) and the run's frames are OK */
    /* (LCP runs resting on a plane may penetrate it by 1e-12 m: exit 1) */
    int rc = sh(log, "%s check %s/full_%s", ipcc, tmp, mode);
    CHECK(rc == 0 || (lcp && rc == 1));
    CHECK(!contains(log, IPC_PLANES_FILE) && contains(log, "9 frames checked"));
    /* interrupted at step 10, resumed: the same file */
    CHECK(sh(log,
             "%s run scenes/two_cubes.json -o %s/cut_%s --mode %s --steps 10 --every 2 "
             "--write-planes --quiet",
             ipcc, tmp, mode, mode) == 0);
    CHECK(sh(log, "%s run --resume %s/cut_%s --steps 16 --quiet", ipcc, tmp, mode) == 0);
    snprintf(b, sizeof b, "%s/cut_%s/frames/%s", tmp, mode, IPC_PLANES_FILE);
    CHECK_MSG(files_equal(a, b), "%s mode: the resumed run's planes.obj differs", mode);
    /* --resume takes the planes from the checkpoint: giving the option again is refused */
    CHECK(sh(log, "%s run --resume %s/cut_%s --write-planes", ipcc, tmp, mode) == 2);
    /* --overwrite without it removes the file */
    CHECK(sh(log,
             "%s run scenes/two_cubes.json -o %s/full_%s --mode %s --steps 2 --overwrite "
             "--quiet",
             ipcc, tmp, mode, mode) == 0);
    CHECK_MSG(access(a, F_OK) != 0, "%s mode: --overwrite left %s", mode, a);
  }
  /* the scene key, and a scene without planes */
  CHECK(sh(log, "%s run %s -o %s/key --steps 2 --quiet", ipcc, scene_json, tmp) == 0);
  snprintf(a, sizeof a, "%s/key/frames/%s", tmp, IPC_PLANES_FILE);
  CHECK(access(a, F_OK) == 0);
  CHECK(sh(log, "%s run scenes/mat_twist.json -o %s/none --steps 1 --write-planes", ipcc, tmp) ==
        2);
  CHECK(contains(log, "--write-planes: the scene has no analytic planes"));
}

int main(int argc, char **argv) {
  char tmp[128], scene[192], cwd[512], path[256];
  snprintf(tmp, sizeof tmp, "/tmp/ipcc_test_planes_%d", (int)getpid());
  snprintf(scene, sizeof scene, "%s.json", tmp);
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  ipcc_error err;
  CHECK(ipc_mkdir_p(tmp, &err) == 0);
  test_writer(tmp);
  FILE *f = fopen(scene, "w");
  fprintf(f,
          "{\"time_step\": 0.02, \"gravity\": [0, -9.8, 0], \"output\": {\"planes\": true},\n"
          " \"planes\": [{\"point\": [0, 0, 0], \"normal\": [0.2, 1, 0]}],\n"
          " \"bodies\": [{\"name\": \"box\", \"mesh\": \"%s/scenes/meshes/cube.msh\", "
          "\"translation\": [0, 0.3, 0], \"velocity\": [2, 0, 0]}]}\n",
          cwd);
  fclose(f);
  snprintf(path, sizeof path, "%s/ipc", tmp);
  library_run(scene, path, 0);
  snprintf(path, sizeof path, "%s/lcp", tmp);
  library_run(scene, path, 1);
  if (argc > 1)
    cli(argv[1], tmp, scene);
  else
    CHECK_MSG(0, "usage: test_frame_planes path/to/ipcc (the command-line checks need it)");
  snprintf(path, sizeof path, "find %s -name '*.tmp.*' | grep -q .", tmp);
  CHECK(system(path) != 0);
  snprintf(path, sizeof path, "rm -rf %s %s", tmp, scene);
  CHECK(system(path) == 0);
  TEST_MAIN_END();
}
