/* frame writers (src/io/frame_ply.c, frame_vtu.c, frames.c): what is written parses back
   with the counts, coordinates, velocities and energy densities of the world, bit for bit */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/path.h"
#include "io/run_output.h"
#include "ipcc/ipcc.h"
#include "test.h"

/* the whole file (ipc_read_file_max, the library's reader), NULL when unreadable */
static char *slurp(const char *path, size_t *len) {
  ipcc_error err;
  return ipc_read_file_max(path, IPC_READ_MAX_MESH, len, &err);
}

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static double le64(const unsigned char *p) {
  uint64_t u = 0;
  for (int k = 7; k >= 0; --k) u = u << 8 | p[k];
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* the numbers of the DataArray named name (the first after `after`, if given) */
static double *vtu_array(const char *text, const char *after, const char *name, int *n) {
  const char *p = after ? strstr(text, after) : text;
  char key[96];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  p = p ? strstr(p, key) : NULL;
  *n = 0;
  if (!p) return NULL;
  p = strchr(p, '>') + 1;
  const char *end = strstr(p, "</DataArray>");
  double *v = malloc(sizeof(double) * (size_t)(end - p));
  char *q;
  for (;;) {
    double x = strtod(p, &q);
    if (q == p || q > end) break;
    v[(*n)++] = x;
    p = q;
  }
  return v;
}

int main(void) {
  char scene[128], dir[128], path[192];
  /* the VTU checks below read ascii arrays (binary frames: test_frame_read.c) */
  setenv("IPC_VTU_ENCODING", "ascii", 1);
  snprintf(dir, sizeof dir, "/tmp/ipcc_test_frames_%d", (int)getpid());
  snprintf(scene, sizeof scene, "%s.json", dir);
  FILE *f = fopen(scene, "w");
  fprintf(f,
          "{\"time_step\": 0.02, \"gravity\": [0, -9.8, 0],\n"
          " \"output\": {\"format\": [\"ply\", \"vtu\"], \"camera\": {\"eye\": [3, 3, 3], "
          "\"target\": [0, 0, 0]}},\n"
          " \"bodies\": [{\"name\": \"box\", \"mesh\": \"%s/scenes/meshes/cube.msh\", "
          "\"translation\": [0, 0.6, 0], \"velocity\": [0.5, 0, 0], \"angular_velocity\": [0, 1, "
          "0]},\n"
          "  {\"name\": \"floor\", \"mesh\": \"%s/scenes/meshes/plane.obj\", \"obstacle\": true, "
          "\"scale\": 4, \"translation\": [-2, -0.05, -2]}]}\n",
          getcwd(path, sizeof path), path);
  fclose(f);
  ipcc_scene_def def;
  ipcc_error err;
  CHECK(ipcc_scene_load(scene, &def, &err) == IPCC_OK);
  CHECK(def.output_formats == (IPCC_FORMAT_PLY | IPCC_FORMAT_VTU));
  CHECK(def.camera_set && def.camera_eye[0] == 3 && def.camera_fov == 35.0);
  ipc_world *w = ipc_world_create(&def, &err);
  CHECK(w != NULL);
  if (!w) TEST_MAIN_END();

  /* format lists */
  unsigned bits = 0;
  CHECK(ipcc_output_formats_parse("obj,vtu", &bits) == 0 &&
        bits == (IPCC_FORMAT_OBJ | IPCC_FORMAT_VTU));
  CHECK(ipcc_output_formats_parse("ply", &bits) == 0 && bits == IPCC_FORMAT_PLY);
  CHECK(ipcc_output_formats_parse("obj,", &bits) != 0);
  CHECK(ipcc_output_formats_parse("stl", &bits) != 0);
  CHECK(ipcc_output_formats_parse("", &bits) != 0);

  /* at rest: zero energy density; after steps, moving and deformed */
  int nt = ipc_world_tet_count(w), n = ipc_world_vertex_count(w);
  CHECK(nt > 0);
  double *psi = calloc(nt > 0 ? (size_t)nt : 1, sizeof *psi);
  ipc_world_tet_energy_density(w, psi);
  for (int t = 0; t < nt; ++t) CHECK(fabs(psi[t]) < 1e-9);
  ipcc_step_stats st;
  for (int k = 0; k < 3; ++k) CHECK(ipc_world_step(w, &st, &err) == IPCC_OK);
  ipc_world_tet_energy_density(w, psi);
  double psum = 0;
  for (int t = 0; t < nt; ++t) psum += psi[t];
  CHECK(psum > 0);

  CHECK(ipc_output_prepare(dir, &err) == IPCC_OK);
  CHECK(ipc_world_write_frame(w, dir, 7, IPCC_FORMAT_PLY | IPCC_FORMAT_VTU, &err) == IPCC_OK);
  snprintf(path, sizeof path, "%s/000007.obj", dir);
  CHECK(access(path, F_OK) != 0); /* only the formats asked for */
  const double *x = ipc_world_positions(w), *v = ipc_world_velocities(w);

  /* PLY: every vertex of the cube and the plate is on a surface */
  size_t len = 0;
  snprintf(path, sizeof path, "%s/000007.ply", dir);
  char *ply = slurp(path, &len);
  CHECK(ply != NULL);
  if (ply) {
    int nv = -1, nf = -1;
    const char *p = strstr(ply, "element vertex ");
    if (p) nv = atoi(p + 15);
    p = strstr(ply, "element face ");
    if (p) nf = atoi(p + 13);
    CHECK(!strncmp(ply, "ply\nformat binary_little_endian 1.0\n", 36));
    CHECK(strstr(ply, "comment object 1 floor") != NULL);
    CHECK(nv == n); /* the cube's vertices all lie on its surface */
    const char *hdr_end = strstr(ply, "end_header\n");
    CHECK(hdr_end != NULL && nf > 0);
    if (hdr_end && nv == n && nf > 0) {
      const unsigned char *b = (const unsigned char *)hdr_end + 11;
      size_t body = len - (size_t)(b - (const unsigned char *)ply);
      CHECK(body == (size_t)nv * 28 + (size_t)nf * 13);
      int same = 1, ids_ok = 1;
      for (int i = 0; i < nv; ++i) {
        for (int d = 0; d < 3; ++d) same &= le64(b + 28 * i + 8 * d) == x[3 * i + d];
        ids_ok &= le32(b + 28 * i + 24) == (uint32_t)(i < n - 4 ? 0 : 1);
      }
      CHECK_MSG(same, "PLY coordinates are the world's, bit for bit");
      CHECK(ids_ok);
      const unsigned char *fb = b + 28 * (size_t)nv;
      int faces_ok = 1, floor_faces = 0;
      for (int k = 0; k < nf; ++k) {
        faces_ok &= fb[13 * k] == 3;
        int all_floor = 1;
        for (int c = 0; c < 3; ++c) {
          uint32_t id = le32(fb + 13 * k + 1 + 4 * c);
          faces_ok &= id < (uint32_t)nv;
          all_floor &= id >= (uint32_t)(n - 4);
        }
        floor_faces += all_floor;
      }
      CHECK(faces_ok);
      CHECK(floor_faces == 2);
    }
    free(ply);
  }

  /* VTU */
  snprintf(path, sizeof path, "%s/000007.vtu", dir);
  char *vtu = slurp(path, &len);
  CHECK(vtu != NULL);
  if (vtu) {
    char piece[96];
    snprintf(piece, sizeof piece, "NumberOfPoints=\"%d\" NumberOfCells=\"%d\"", n, nt + 2);
    CHECK_MSG(strstr(vtu, piece) != NULL, "%s", piece);
    int k;
    double *tv = vtu_array(vtu, NULL, "TimeValue", &k);
    CHECK(k == 1 && tv[0] == ipc_world_time(w));
    free(tv);
    double *pts = vtu_array(vtu, "<Points>", "Points", &k);
    CHECK(k == 3 * n && !memcmp(pts, x, sizeof(double) * 3 * (size_t)n));
    free(pts);
    double *vel = vtu_array(vtu, NULL, "velocity", &k);
    CHECK(k == 3 * n && !memcmp(vel, v, sizeof(double) * 3 * (size_t)n));
    double vmax = 0;
    for (int i = 0; i < k; ++i) vmax = fmax(vmax, fabs(vel[i]));
    CHECK(vmax > 0.1);
    free(vel);
    double *ed = vtu_array(vtu, NULL, "energy_density", &k);
    CHECK(k == nt + 2);
    if (k == nt + 2) {
      CHECK(!memcmp(ed, psi, sizeof(double) * (size_t)nt));
      CHECK(ed[nt] == 0 && ed[nt + 1] == 0);
    }
    free(ed);
    double *types = vtu_array(vtu, NULL, "types", &k);
    CHECK(k == nt + 2);
    if (k == nt + 2) {
      int ok = 1;
      for (int t = 0; t < nt; ++t) ok &= types[t] == 10;
      CHECK(ok && types[nt] == 5 && types[nt + 1] == 5);
    }
    free(types);
    double *off = vtu_array(vtu, NULL, "offsets", &k);
    CHECK(k == nt + 2 && off[k - 1] == 4 * nt + 6);
    free(off);
    double *conn = vtu_array(vtu, NULL, "connectivity", &k);
    CHECK(k == 4 * nt + 6);
    int ok = 1;
    for (int i = 0; i < k; ++i) ok &= conn[i] >= 0 && conn[i] < n;
    for (int i = 4 * nt; i < k; ++i) ok &= conn[i] >= n - 4; /* floor triangles */
    CHECK(ok);
    free(conn);
    double *cid = vtu_array(vtu, "<CellData", "object_id", &k);
    CHECK(k == nt + 2 && cid[0] == 0 && cid[nt] == 1);
    free(cid);
    free(vtu);
  }
  /* no temporary files left behind */
  snprintf(path, sizeof path, "ls %s | grep -c tmp > /dev/null", dir);
  CHECK(system(path) != 0);
  snprintf(path, sizeof path, "rm -rf %s %s", dir, scene);
  CHECK(system(path) == 0);
  free(psi);
  ipc_world_destroy(w);
  ipcc_scene_def_free(&def);
  TEST_MAIN_END();
}
