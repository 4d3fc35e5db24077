/* ipcc render RUNDIR: PNG previews of the frames a run wrote, drawn as `ipcc run --preview`
   draws them (the scene's colors, floor planes and camera), for runs made without previews
   or to draw them again at another size. the scene comes from the run's stats.json or
   checkpoint.bin (or --scene); each frame file's vertices are put back on the scene's model
   in the order the frame writers use (io/frame_numbering.h). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "cli/commands.h"
#include "core/alloc.h"
#include "core/model.h"
#include "io/frame_numbering.h"
#include "io/path.h"
#include "io/plot.h"
#include "io/render_model.h"
#include "io/run_output.h"
#include "io/stats_common.h"
#include "ipcc/mesh.h"
#include "ipcc/scene.h"

static void usage(FILE *f) {
  fputs(
      "usage: ipcc render RUNDIR [--scene SCENE] [--every N] [--frame K]... [-o DIR]\n"
      "                   [--size WxH] [--camera E,T] [--lenient]\n"
      "PNG previews of the frames of an ipcc run (RUNDIR/frames), drawn as ipcc run\n"
      "--preview draws them, into RUNDIR/preview/NNNNNN.png\n"
      "  --scene SCENE  the scene the run read (default: the one RUNDIR/stats.json or\n"
      "                 RUNDIR/checkpoint.bin names)\n"
      "  --every N      every Nth frame and the last (default: every frame)\n"
      "  --frame K      frame K only; may be given several times\n"
      "  -o DIR         write the images into DIR instead\n"
      "  --size WxH     image size in pixels (default 640x480)\n"
      "  --camera EX,EY,EZ,TX,TY,TZ[,FOV]  eye, target and vertical field of view in degrees\n"
      "                 (default: the scene's output.camera, else one view that frames the\n"
      "                 moving bodies in every frame drawn)\n"
      "  --camera follow  the view ipcc run draws its previews with: it follows the bodies,\n"
      "                 framing them where they started and where they are in each frame\n"
      "  --lenient      read the scene as ipcc run --lenient does\n",
      f);
}

/* the scene the run in dir read (malloc'd), from stats.json, else checkpoint.bin; NULL with
   a message when neither names one */
static char *run_scene(const char *dir) {
  ipcc_error err;
  ipcc_error_clear(&err);
  char *path = ipc_path_join(dir, "stats.json");
  char *text = ipc_stats_read(path, &err);
  char *scene = NULL;
  if (text) {
    cJSON *root = cJSON_Parse(text);
    const cJSON *sum = root ? cJSON_GetObjectItemCaseSensitive(root, "summary") : NULL;
    const cJSON *s = sum ? cJSON_GetObjectItemCaseSensitive(sum, "scene") : NULL;
    if (cJSON_IsString(s)) scene = strdup(s->valuestring);
    cJSON_Delete(root);
    ipc_free(text);
  }
  ipc_free(path);
  if (scene) return scene;
  path = ipc_path_join(dir, "checkpoint.bin");
  ipc_run_checkpoint ck;
  memset(&ck, 0, sizeof ck);
  ipcc_error_clear(&err);
  if (ipc_checkpoint_read(path, &ck, &err) == IPCC_OK && ck.scene) scene = strdup(ck.scene);
  ipc_checkpoint_free(&ck);
  if (!scene)
    fprintf(stderr,
            "ipcc render: %s: no stats.json or checkpoint.bin naming the run's scene (expected "
            "the folder of an ipcc run, or give --scene)\n",
            dir);
  ipc_free(path);
  return scene;
}

/* a frame file: frame number and the rank of its format (obj before ply before vtu) */
typedef struct frame_file {
  int frame;
  int rank;
  char name[32];
} frame_file;

/* the frame number of "NNNNNN.ext" with ext obj, ply or vtu; -1 otherwise */
static int frame_of(const char *name, int *rank) {
  static const char *ext[] = {".obj", ".ply", ".vtu"};
  size_t n = strlen(name);
  if (n != 10) return -1;
  for (int k = 0; k < 6; ++k)
    if (name[k] < '0' || name[k] > '9') return -1;
  for (int r = 0; r < 3; ++r)
    if (!strcmp(name + 6, ext[r])) {
      *rank = r;
      return atoi(name);
    }
  return -1;
}

static int cmp_frame(const void *a, const void *b) {
  const frame_file *x = a, *y = b;
  if (x->frame != y->frame) return x->frame < y->frame ? -1 : 1;
  return x->rank - y->rank;
}

/* the frames in dir, one file per frame number, sorted; NULL with a message on error */
static frame_file *list_frames(const char *dir, int *n) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "ipcc render: %s: %s (expected the frames folder of an ipcc run)\n", dir,
            strerror(errno));
    return NULL;
  }
  size_t cap = 0;
  frame_file *f = NULL;
  ipc_reserve((void **)&f, &cap, 1, sizeof *f); /* never NULL, even without frames */
  *n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    int rank, k = frame_of(e->d_name, &rank);
    if (k < 0) continue;
    ipc_reserve((void **)&f, &cap, (size_t)*n + 1, sizeof *f);
    f[*n].frame = k;
    f[*n].rank = rank;
    snprintf(f[*n].name, sizeof f[*n].name, "%s", e->d_name);
    ++*n;
  }
  closedir(d);
  qsort(f, (size_t)*n, sizeof *f, cmp_frame);
  int m = 0;
  for (int i = 0; i < *n; ++i)
    if (m == 0 || f[m - 1].frame != f[i].frame) f[m++] = f[i];
  *n = m;
  return f;
}

/* the simulated time a frame file records ("ipcc frame: t = T s" in its first lines, as
   ipcc's OBJ and PLY frames, or TimeValue in a VTU), NAN when none */
static double frame_time(const char *path) {
  char head[1024];
  FILE *f = fopen(path, "rb");
  if (!f) return NAN;
  size_t n = fread(head, 1, sizeof head - 1, f);
  fclose(f);
  head[n] = '\0';
  const char *p = strstr(head, "ipcc frame: t = ");
  if (p) return strtod(p + 16, NULL);
  p = strstr(head, "TimeValue");
  if (p && (p = strchr(p, '>'))) return strtod(p + 1, NULL);
  return NAN;
}

/* pos (m->nverts x 3, holding the initial positions) gets the vertices of the frame file;
   0, or 2 with a message when the file does not fit the scene's model */
static int load_frame(const char *path, const ipc_model *m, const int *file_of, int nfile,
                      double *pos) {
  ipcc_error err;
  ipcc_error_clear(&err);
  ipcc_mesh mesh;
  if (ipcc_mesh_read(path, &mesh, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc render: %s\n", err.msg);
    return 2;
  }
  int rc = 0;
  if (mesh.ntris != m->surface.nfaces) {
    fprintf(stderr,
            "ipcc render: %s: %d triangles, but the scene's surfaces have %d (is it a frame of "
            "this scene?)\n",
            path, mesh.ntris, m->surface.nfaces);
    rc = 2;
  } else if (mesh.nverts == nfile) { /* OBJ, PLY: the surface vertices */
    for (int i = 0; i < m->nverts; ++i)
      if (file_of[i] >= 0) memcpy(pos + 3 * (size_t)i, mesh.x + 3 * (size_t)file_of[i], 24);
  } else if (mesh.nverts == m->nverts) { /* VTU: every vertex */
    memcpy(pos, mesh.x, sizeof(double) * 3 * (size_t)m->nverts);
  } else {
    fprintf(stderr,
            "ipcc render: %s: %d vertices, but the scene's frames have %d (is it a frame of "
            "this scene?)\n",
            path, mesh.nverts, nfile);
    rc = 2;
  }
  ipcc_mesh_free(&mesh);
  return rc;
}

static int parse_int(const char *opt, const char *s, int lo, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > 1000000000) {
    fprintf(stderr, "ipcc render: %s: expected an integer >= %d, got '%s'\n", opt, lo, s);
    return 2;
  }
  *out = (int)v;
  return 0;
}

int ipc_cmd_render(int argc, char **argv) {
  const char *rundir = NULL, *scene_opt = NULL, *out_opt = NULL;
  int every = 1, width = 640, height = 480, lenient = 0;
  double camera[7];
  int ncamera = 0, follow = 0;
  int nwant = 0, *want = IPC_NEW(int, (size_t)argc + 1);
  int rc = 0;
  for (int i = 0; i < argc && !rc; ++i) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      ipc_free(want);
      return 0;
    } else if (!strcmp(a, "--lenient")) {
      lenient = 1;
    } else if ((!strcmp(a, "--scene") || !strcmp(a, "-o") || !strcmp(a, "--every") ||
                !strcmp(a, "--frame") || !strcmp(a, "--size") || !strcmp(a, "--camera")) &&
               !more) {
      fprintf(stderr, "ipcc render: %s needs a value\n", a);
      rc = 2;
    } else if (!strcmp(a, "--scene")) {
      scene_opt = argv[++i];
    } else if (!strcmp(a, "-o")) {
      out_opt = argv[++i];
    } else if (!strcmp(a, "--every")) {
      rc = parse_int(a, argv[++i], 1, &every);
    } else if (!strcmp(a, "--frame")) {
      rc = parse_int(a, argv[++i], 0, &want[nwant]);
      ++nwant;
    } else if (!strcmp(a, "--size")) {
      const char *s = argv[++i];
      char tail;
      if (sscanf(s, "%dx%d%c", &width, &height, &tail) != 2 || width < 16 || height < 16 ||
          width > 8192 || height > 8192) {
        fprintf(stderr, "ipcc render: --size: expected WxH, 16 to 8192 pixels each, got '%s'\n", s);
        rc = 2;
      }
    } else if (!strcmp(a, "--camera") && !strcmp(argv[i + 1], "follow")) {
      follow = 1;
      ncamera = 0;
      ++i;
    } else if (!strcmp(a, "--camera")) {
      const char *s = argv[++i];
      char *end = (char *)s;
      follow = 0;
      ncamera = 0;
      while (ncamera < 7) {
        camera[ncamera++] = strtod(end, &end);
        if (*end != ',') break;
        ++end;
      }
      int finite = 1;
      for (int k = 0; k < ncamera; ++k) finite &= isfinite(camera[k]);
      if (*end || !finite || (ncamera != 6 && ncamera != 7) ||
          (ncamera == 7 && !(camera[6] > 1 && camera[6] < 179))) {
        fprintf(stderr,
                "ipcc render: --camera: expected EX,EY,EZ,TX,TY,TZ (eye apart from target), "
                "or with FOV (1 to 179 degrees) after them, got '%s'\n",
                s);
        rc = 2;
      } else if (!ipcc_camera_eye_apart(camera, camera + 3)) {
        fprintf(stderr,
                "ipcc render: --camera: expected an eye apart from target (by more than 1e-12 "
                "times their coordinates), got '%s'\n",
                s);
        rc = 2;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "ipcc render: unknown option '%s'\n", a);
      rc = 2;
    } else if (rundir) {
      fprintf(stderr, "ipcc render: one run folder expected, got '%s' and '%s'\n", rundir, a);
      rc = 2;
    } else {
      rundir = a;
    }
  }
  if (!rc && !rundir) {
    usage(stderr);
    rc = 2;
  }
  if (rc) {
    ipc_free(want);
    return rc;
  }
  char *scene = scene_opt ? strdup(scene_opt) : run_scene(rundir);
  char *frames_dir = ipc_path_join(rundir, "frames");
  char *out = out_opt ? ipc_path_join("", out_opt) : ipc_path_join(rundir, "preview");
  int nframes = 0;
  frame_file *frames = scene ? list_frames(frames_dir, &nframes) : NULL;
  ipcc_scene_def def;
  ipc_model m;
  memset(&def, 0, sizeof def);
  memset(&m, 0, sizeof m);
  ipcc_error err;
  ipcc_error_clear(&err);
  if (!scene || !frames) {
    rc = 2;
  } else if (nframes == 0) {
    fprintf(stderr, "ipcc render: %s: no frames (NNNNNN.obj, .ply or .vtu)\n", frames_dir);
    rc = 2;
  } else if (ipcc_scene_load_any(scene, lenient ? IPCC_SCENE_LENIENT : 0, &def, &err) != IPCC_OK ||
             ipc_model_build(&m, &def, &err) != IPCC_OK ||
             ipc_output_prepare(out, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc render: %s\n", err.msg);
    rc = 2;
  }
  for (int k = 0; k < nwant && !rc; ++k) {
    int found = 0;
    for (int i = 0; i < nframes; ++i) found |= frames[i].frame == want[k];
    if (!found) {
      fprintf(stderr, "ipcc render: --frame %d: %s has no such frame (frames %d to %d)\n", want[k],
              frames_dir, frames[0].frame, frames[nframes - 1].frame);
      rc = 2;
    }
  }
  int drawn = 0;
  if (!rc) {
    int *file_of = IPC_NEW(int, (size_t)m.nverts + 1);
    int nfile = ipc_frame_numbering(&m, file_of);
    double *pos = IPC_NEW(double, 3 * (size_t)m.nverts + 1);
    unsigned char *take = IPC_NEW0(unsigned char, (size_t)nframes + 1);
    for (int i = 0; i < nframes; ++i) {
      int k = frames[i].frame;
      if (nwant)
        for (int j = 0; j < nwant; ++j) take[i] |= want[j] == k;
      else
        take[i] = k % every == 0 || i == nframes - 1;
    }
    ipcc_camera cam = ipc_model_camera(&m);
    if (follow) {
      /* per frame, below */
    } else if (ncamera) {
      memcpy(cam.eye, camera, sizeof cam.eye);
      memcpy(cam.target, camera + 3, sizeof cam.target);
      if (ncamera == 7) cam.fov = camera[6];
    } else {
      /* one camera for the whole sequence that frames the moving bodies in every frame drawn
         (framing the first frame only lost bodies that travel: spinning_cube from frame 60) */
      double *boxes = IPC_NEW(double, 6 * (size_t)nframes + 6);
      int nb = 0;
      for (int i = 0; i < nframes && !rc; ++i) {
        if (!take[i]) continue;
        char *path = ipc_path_join(frames_dir, frames[i].name);
        memcpy(pos, m.x0, sizeof(double) * 3 * (size_t)m.nverts);
        rc = load_frame(path, &m, file_of, nfile, pos);
        ipc_free(path);
        if (!rc) ipc_model_dynamic_box(&m, pos, boxes + 6 * (size_t)nb++);
      }
      cam = ipc_model_camera_boxes(&m, boxes, nb);
      ipc_free(boxes);
    }
    static const unsigned char white[3] = {255, 255, 255};
    for (int i = 0; i < nframes && !rc; ++i) {
      int k = frames[i].frame;
      if (!take[i]) continue;
      char *path = ipc_path_join(frames_dir, frames[i].name);
      memcpy(pos, m.x0, sizeof(double) * 3 * (size_t)m.nverts);
      rc = load_frame(path, &m, file_of, nfile, pos);
      double t = frame_time(path);
      ipc_free(path);
      if (rc) break;
      ipcc_image *im = ipcc_image_create(width, height, white);
      if (follow) cam = ipc_model_follow_camera(&m, pos);
      ipc_render_model(im, &m, pos, &cam);
      ipc_image_frame_label(im, k, t);
      char name[32];
      snprintf(name, sizeof name, "%06d.png", k);
      char *png = ipc_path_join(out, name);
      if (ipcc_image_write_png(im, png, &err) != IPCC_OK) {
        fprintf(stderr, "ipcc render: %s\n", err.msg);
        rc = (int)err.status;
      } else {
        ++drawn;
      }
      ipcc_image_destroy(im);
      ipc_free(png);
    }
    ipc_free(pos);
    ipc_free(take);
    ipc_free(file_of);
  }
  if (!rc) printf("%d preview%s in %s\n", drawn, drawn == 1 ? "" : "s", out);
  ipc_model_free(&m);
  ipcc_scene_def_free(&def);
  ipc_free(frames);
  ipc_free(out);
  ipc_free(frames_dir);
  free(scene);
  ipc_free(want);
  return rc;
}
