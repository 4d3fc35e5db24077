/* the PC2 point cache (src/io/frame_pc2.c, --format pc2): in both modes every sample of
   motion.pc2 is the float32 rounding of the same frame's OBJ vertices, the header counts the
   frames written after every frame, rest.obj is frame 0's OBJ with area-weighted vertex
   normals; appending out of order or onto another scene's cache is refused; and through the
   command line (argv[1]: the ipcc binary) a resumed run's cache, after a killed run left
   samples past its checkpoint, is byte for byte an uninterrupted run's, with the OBJ frames
   or the cache alone */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/frame_pc2.h"
#include "io/path.h"
#include "io/run_output.h"
#include "ipcc/ipcc.h"
#include "test.h"

/* the whole file (ipc_read_file_max, the library's reader), NULL when unreadable */
static char *slurp(const char *path, size_t *len) {
  ipcc_error err;
  return ipc_read_file_max(path, IPC_READ_MAX_MESH, len, &err);
}

static float le_f32(const unsigned char *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static int32_t le_i32(const unsigned char *p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24);
}

/* the "v" coordinates of an OBJ file (n x 3 into *v), or -1 */
static int obj_vertices(const char *path, double **v) {
  char *t = slurp(path, NULL);
  if (!t) return -1;
  int n = 0, cap = 64;
  *v = malloc(sizeof(double) * 3 * (size_t)cap);
  for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n")) {
    if (strncmp(l, "v ", 2) != 0) continue;
    if (n == cap) *v = realloc(*v, sizeof(double) * 3 * (size_t)(cap *= 2));
    char *e = l + 2;
    for (int d = 0; d < 3; ++d) (*v)[3 * n + d] = strtod(e, &e);
    ++n;
  }
  free(t);
  return n;
}

/* the lines of text starting with prefix, concatenated */
static char *lines_with(const char *text, const char *prefix) {
  size_t n = strlen(text);
  char *out = malloc(n + 1), *o = out;
  for (const char *l = text; *l;) {
    const char *e = strchr(l, '\n');
    size_t len = e ? (size_t)(e - l + 1) : strlen(l);
    if (!strncmp(l, prefix, strlen(prefix))) {
      memcpy(o, l, len);
      o += len;
    }
    l += len;
  }
  *o = '\0';
  return out;
}

/* dir/motion.pc2 against the OBJ frames 0 .. frames-1 in dir: the header and every
   coordinate as the float32 rounding of the OBJ's double */
static void check_cache(const char *dir, int frames) {
  char path[256];
  snprintf(path, sizeof path, "%s/motion.pc2", dir);
  size_t len = 0;
  unsigned char *b = (unsigned char *)slurp(path, &len);
  CHECK(b != NULL && len >= 32);
  if (!b || len < 32) return;
  int np = le_i32(b + 16), ns = le_i32(b + 28);
  CHECK(!memcmp(b, "POINTCACHE2\0", 12) && le_i32(b + 12) == 1);
  CHECK(le_f32(b + 20) == 0.0f && le_f32(b + 24) == 1.0f);
  CHECK_MSG(ns == frames, "%s: %d samples, %d frames written", path, ns, frames);
  CHECK(np > 0 && len == 32 + 12 * (size_t)np * (size_t)ns);
  int bad = 0;
  for (int k = 0; k < ns && 32 + 12 * (size_t)np * (size_t)(k + 1) <= len; ++k) {
    snprintf(path, sizeof path, "%s/%06d.obj", dir, k);
    double *v = NULL;
    int n = obj_vertices(path, &v);
    CHECK_MSG(n == np, "%s: %d vertices, the cache %d points", path, n, np);
    for (int i = 0; i < n && n == np; ++i)
      for (int d = 0; d < 3; ++d) {
        float got = le_f32(b + 32 + 12 * ((size_t)np * (size_t)k + (size_t)i) + 4 * (size_t)d);
        if (memcmp(&got, &(float){(float)v[3 * i + d]}, 4) != 0) ++bad;
      }
    free(v);
  }
  CHECK_MSG(bad == 0, "%s: %d coordinates differ from the OBJ frames' float32 rounding", dir, bad);
  free(b);
}

/* rest.obj against frame 0's OBJ: the same objects, vertices and faces ("f a//a ..."), and a
   unit normal per vertex along the sum of its triangles' cross products */
static void check_rest(const char *dir) {
  char path[256];
  snprintf(path, sizeof path, "%s/rest.obj", dir);
  char *rest = slurp(path, NULL);
  snprintf(path, sizeof path, "%s/000000.obj", dir);
  char *obj = slurp(path, NULL);
  CHECK(rest && obj);
  if (!rest || !obj) return;
  static const char *const same[] = {"o ", "v ", "# ipcc obstacle"};
  for (int k = 0; k < 3; ++k) {
    char *a = lines_with(rest, same[k]), *b = lines_with(obj, same[k]);
    CHECK_MSG(!strcmp(a, b), "rest.obj and 000000.obj differ in their '%s' lines", same[k]);
    free(a);
    free(b);
  }
  double *v = NULL;
  int nv = obj_vertices(path, &v);
  double *acc = calloc(3 * (size_t)nv, sizeof *acc);
  /* faces: "f a b c" in the frame, "f a//a b//b c//c" in rest.obj */
  char *fo = lines_with(obj, "f "), *fr = lines_with(rest, "f ");
  const char *p = fo, *q = fr;
  int nf = 0, faces_ok = 1;
  while (*p) {
    int a, b, c, a2, b2, c2, a3, b3, c3;
    faces_ok &= sscanf(p, "f %d %d %d", &a, &b, &c) == 3;
    faces_ok &= sscanf(q, "f %d//%d %d//%d %d//%d", &a2, &a3, &b2, &b3, &c2, &c3) == 6;
    faces_ok &= a == a2 && a == a3 && b == b2 && b == b3 && c == c2 && c == c3;
    if (!faces_ok) break;
    const double *x = v + 3 * (a - 1), *y = v + 3 * (b - 1), *z = v + 3 * (c - 1);
    double u[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};
    double w[3] = {z[0] - x[0], z[1] - x[1], z[2] - x[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    for (int d = 0; d < 3; ++d)
      acc[3 * (a - 1) + d] += n[d], acc[3 * (b - 1) + d] += n[d], acc[3 * (c - 1) + d] += n[d];
    p = strchr(p, '\n') + 1;
    q = strchr(q, '\n') + 1;
    ++nf;
  }
  CHECK_MSG(faces_ok && !*q && nf > 0, "rest.obj's faces are not the frame's (%d read)", nf);
  char *vn = lines_with(rest, "vn ");
  int nn = 0, normals_ok = 1;
  for (const char *l = vn; *l && nn < nv; l = strchr(l, '\n') + 1, ++nn) {
    double n[3];
    normals_ok &= sscanf(l, "vn %lf %lf %lf", &n[0], &n[1], &n[2]) == 3;
    const double *s = acc + 3 * nn;
    double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int d = 0; d < 3; ++d) normals_ok &= len > 0 && fabs(n[d] - s[d] / len) < 1e-7;
  }
  CHECK_MSG(nn == nv && normals_ok,
            "rest.obj: %d normals for %d vertices, or not the area-weighted "
            "normals",
            nn, nv);
  free(vn);
  free(fo);
  free(fr);
  free(acc);
  free(v);
  free(rest);
  free(obj);
}

/* a run of `steps` steps written through the library in both OBJ and PC2, checked after
   every frame; lcp: in LCP mode */
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
  unsigned formats = IPCC_FORMAT_OBJ | IPCC_FORMAT_PC2;
  char path[256];
  snprintf(path, sizeof path, "%s/motion.pc2", dir);
  for (int k = 0; k <= 12; ++k) {
    if (k > 0) {
      ipcc_step_stats st;
      ipcc_lcp_step_stats lst;
      CHECK(lw ? ipc_lcp_world_step(lw, &lst, &err) == IPCC_OK
               : ipc_world_step(w, &st, &err) == IPCC_OK);
    }
    ipcc_status s = lw ? ipc_lcp_world_write_frame(lw, dir, k, formats, &err)
                       : ipc_world_write_frame(w, dir, k, formats, &err);
    CHECK_MSG(s == IPCC_OK, "frame %d: %s", k, err.msg);
    /* a valid cache after every frame */
    ipc_pc2_header h;
    CHECK(ipc_pc2_read_header(path, &h, &err) == IPCC_OK && h.samples == k + 1);
  }
  check_cache(dir, 13);
  check_rest(dir);

  /* frames come in order: frame 14 cannot follow 13 samples */
  ipcc_status s =
      lw ? ipc_lcp_world_write_pc2(lw, dir, 14, &err) : ipc_world_write_pc2(w, dir, 14, &err);
  CHECK(s == IPCC_ERR_INPUT && strstr(err.msg, "holds 13 samples"));
  /* rewriting frame 10 cuts the cache after it */
  s = lw ? ipc_lcp_world_write_pc2(lw, dir, 10, &err) : ipc_world_write_pc2(w, dir, 10, &err);
  ipc_pc2_header h;
  CHECK(s == IPCC_OK && ipc_pc2_read_header(path, &h, &err) == IPCC_OK && h.samples == 11);
  CHECK(ipc_pc2_truncate(dir, 12, &err) == IPCC_ERR_INPUT && strstr(err.msg, "holds 11 samples"));
  CHECK(ipc_pc2_truncate(dir, 4, &err) == IPCC_OK);
  CHECK(ipc_pc2_read_header(path, &h, &err) == IPCC_OK && h.samples == 4);
  check_cache(dir, 4);
  size_t len = 0;
  unsigned char *b = ipc_pc2_read_sample(dir, 3, &len, &err);
  CHECK(b && len == 12 * (size_t)h.points);
  free(b);
  CHECK(ipc_pc2_read_sample(dir, 4, &len, &err) == NULL && strstr(err.msg, "no sample"));

  /* a cache of another vertex count is not appended to */
  FILE *f = fopen(path, "r+b");
  CHECK(f != NULL);
  if (f) {
    unsigned char one[4] = {1, 0, 0, 0};
    fseek(f, 16, SEEK_SET);
    fwrite(one, 1, 4, f);
    fclose(f);
  }
  s = lw ? ipc_lcp_world_write_pc2(lw, dir, 4, &err) : ipc_world_write_pc2(w, dir, 4, &err);
  CHECK(s == IPCC_ERR_INPUT && strstr(err.msg, "points per sample"));
  /* nor a file that is not one */
  f = fopen(path, "wb");
  if (f) {
    fputs("POINTCACHE3 and more bytes than a header", f);
    fclose(f);
  }
  s = lw ? ipc_lcp_world_write_pc2(lw, dir, 1, &err) : ipc_world_write_pc2(w, dir, 1, &err);
  CHECK(s == IPCC_ERR_INPUT && strstr(err.msg, "not a PC2"));
  ipc_world_destroy(w);
  ipc_lcp_world_destroy(lw);
  ipcc_scene_def_free(&def);
}

/* runs a shell command, its output into log; the exit code */
static int sh(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(const char *log, const char *fmt, ...) {
  char cmd[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(cmd, sizeof cmd - 64, fmt, ap);
  va_end(ap);
  snprintf(cmd + n, 64, " >%s 2>&1", log);
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int files_equal(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  char *x = slurp(a, &na), *y = slurp(b, &nb);
  int eq = x && y && na == nb && !memcmp(x, y, na);
  free(x);
  free(y);
  return eq;
}

/* the samples a killed run writes after its checkpoint: five more (more than the resumed run
   writes), of junk */
static void append_junk(const char *cache) {
  size_t len = 0;
  unsigned char *b = (unsigned char *)slurp(cache, &len);
  CHECK(b && len > 32);
  if (!b || len <= 32) return;
  int np = le_i32(b + 16), ns = le_i32(b + 28) + 5;
  FILE *f = fopen(cache, "r+b");
  fseek(f, 28, SEEK_SET);
  unsigned char c[4] = {(unsigned char)ns, (unsigned char)(ns >> 8), (unsigned char)(ns >> 16),
                        (unsigned char)(ns >> 24)};
  fwrite(c, 1, 4, f);
  fseek(f, 0, SEEK_END);
  for (size_t i = 0; i < 60 * (size_t)np; ++i) fputc((int)(i * 37 % 251), f);
  fclose(f);
  free(b);
}

/* through the command line: a resumed run's cache equals an uninterrupted one's */
static void cli_resume(const char *ipcc, const char *tmp, const char *mode) {
  char log[256], a[256], b[256];
  snprintf(log, sizeof log, "%s/log", tmp);
  const char *args = "--steps 10 --every 2 --quiet";
  CHECK(sh(log,
           "%s run scenes/two_cubes.json -o %s/full_%s --mode %s --steps 16 --every 2 "
           "--format obj,pc2 --quiet",
           ipcc, tmp, mode, mode) == 0);
  snprintf(a, sizeof a, "%s/full_%s/frames", tmp, mode);
  check_cache(a, 9);
  check_rest(a);
  snprintf(a, sizeof a, "%s/full_%s/stats.json", tmp, mode);
  char *stats = slurp(a, NULL);
  CHECK(stats && strstr(stats, "\"every\":\t2") && strstr(stats, "\"time_step\":\t0.025"));
  free(stats);
  snprintf(a, sizeof a, "%s/full_%s/frames/motion.pc2", tmp, mode);

  /* with OBJ frames, and with the cache alone (the checkpoint then hashes the sample) */
  static const char *const formats[] = {"obj,pc2", "pc2"};
  for (int k = 0; k < 2; ++k) {
    CHECK(sh(log, "%s run scenes/two_cubes.json -o %s/cut_%s%d --mode %s %s --format %s", ipcc, tmp,
             mode, k, mode, args, formats[k]) == 0);
    snprintf(b, sizeof b, "%s/cut_%s%d/frames/motion.pc2", tmp, mode, k);
    append_junk(b);
    int rc = sh(log, "%s run --resume %s/cut_%s%d --steps 16 --quiet", ipcc, tmp, mode, k);
    CHECK_MSG(rc == 0, "%s mode, --format %s: --resume exit %d", mode, formats[k], rc);
    CHECK_MSG(files_equal(a, b), "%s mode, --format %s: the resumed cache differs", mode,
              formats[k]);
    snprintf(b, sizeof b, "%s/cut_%s%d/frames/000001.obj", tmp, mode, k);
    CHECK(k == 0 || access(b, F_OK) != 0); /* pc2 alone: no file per frame */
  }

  /* refusals: a cache holding fewer frames than the checkpoint, a sample that changed */
  snprintf(b, sizeof b, "%s/short_%s", tmp, mode);
  CHECK(sh(log, "%s run scenes/two_cubes.json -o %s --mode %s %s --format obj,pc2", ipcc, b, mode,
           args) == 0);
  CHECK(sh(log, "%s run --resume %s --steps 16 --quiet", ipcc, b) == 0); /* once fine */
  snprintf(b, sizeof b, "%s/short_%s/frames", tmp, mode);
  ipcc_error err;
  CHECK(ipc_pc2_truncate(b, 3, &err) == IPCC_OK);
  CHECK(sh(log, "%s run --resume %s/short_%s --steps 18 --quiet", ipcc, tmp, mode) == 2);
  char *out = slurp(log, NULL);
  CHECK_MSG(out && strstr(out, "motion.pc2: holds 3 samples"), "%s", out ? out : "");
  free(out);
  snprintf(b, sizeof b, "%s/alone_%s", tmp, mode);
  CHECK(sh(log, "%s run scenes/two_cubes.json -o %s --mode %s %s --format pc2", ipcc, b, mode,
           args) == 0);
  snprintf(b, sizeof b, "%s/alone_%s/frames/motion.pc2", tmp, mode);
  FILE *f = fopen(b, "r+b");
  if (f) {
    fseek(f, -1, SEEK_END); /* the last byte of the checkpointed frame's sample */
    fputc(0x55, f);
    fclose(f);
  }
  CHECK(sh(log, "%s run --resume %s/alone_%s --steps 16 --quiet", ipcc, tmp, mode) == 2);
  out = slurp(log, NULL);
  CHECK_MSG(out && strstr(out, "motion.pc2: not the frame the checkpoint recorded"), "%s",
            out ? out : "");
  free(out);
}

int main(int argc, char **argv) {
  char tmp[128], scene[192], cwd[512], path[256];
  snprintf(tmp, sizeof tmp, "/tmp/ipcc_test_pc2_%d", (int)getpid());
  snprintf(scene, sizeof scene, "%s.json", tmp);
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  FILE *f = fopen(scene, "w");
  fprintf(f,
          "{\"time_step\": 0.02, \"gravity\": [0, -9.8, 0],\n"
          " \"bodies\": [{\"name\": \"box\", \"mesh\": \"%s/scenes/meshes/cube.msh\", "
          "\"translation\": [0, 0.3, 0], \"velocity\": [0.5, 0, 0], \"angular_velocity\": [0, 1, "
          "0.5]},\n"
          "  {\"name\": \"floor\", \"mesh\": \"%s/scenes/meshes/plane.obj\", \"obstacle\": true, "
          "\"scale\": 4, \"translation\": [-2, -0.05, -2]}]}\n",
          cwd, cwd);
  fclose(f);

  unsigned bits = 0;
  CHECK(ipcc_output_formats_parse("obj,pc2", &bits) == 0 &&
        bits == (IPCC_FORMAT_OBJ | IPCC_FORMAT_PC2));
  CHECK(ipcc_output_formats_parse("pc2", &bits) == 0 && bits == IPCC_FORMAT_PC2);
  CHECK(ipcc_output_formats_parse("pc", &bits) != 0);

  snprintf(path, sizeof path, "%s/ipc", tmp);
  library_run(scene, path, 0);
  snprintf(path, sizeof path, "%s/lcp", tmp);
  library_run(scene, path, 1);

  if (argc > 1) {
    cli_resume(argv[1], tmp, "ipc");
    cli_resume(argv[1], tmp, "lcp");
  } else {
    CHECK_MSG(0, "usage: test_pc2 path/to/ipcc (the command-line checks need it)");
  }
  /* no temporary files left behind */
  snprintf(path, sizeof path, "find %s -name '*.tmp.*' | grep -q .", tmp);
  CHECK(system(path) != 0);
  snprintf(path, sizeof path, "rm -rf %s %s", tmp, scene);
  CHECK(system(path) == 0);
  TEST_MAIN_END();
}
