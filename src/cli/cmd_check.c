/* ipcc check PATH: exact intersection check of every frame. PATH is a run's
   output folder (its frames/), a folder of mesh files (one frame each), or one
   mesh file (OBJ, PLY, VTU, Gmsh, TetGen); a frame written in several formats is checked
   once. exit 0 only if no frame intersects; 1 if one does; 2 on bad input. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/outdir.h"
#include "core/surface.h"
#include "geometry/intersect_surface.h"
#include "ipcc/ipcc.h"

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 0: not a mesh; 1, 2, 3: a frame format in the order of preference (OBJ, PLY, VTU) when
   a frame is written in several; 4: another mesh format */
static int mesh_rank(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot) return 0;
  static const char *const exts[] = {".obj", ".ply", ".vtu", ".msh", ".ele"};
  for (int k = 0; k < 5; ++k)
    if (!strcmp(dot, exts[k])) return k < 3 ? k + 1 : 4;
  return 0;
}

/* length of name without its extension */
static size_t stem_len(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot ? (size_t)(dot - name) : strlen(name);
}

/* one file per frame: where names (sorted) hold a frame in several formats, the OBJ, else
   the PLY, else the VTU is kept (the others are freed); counts the dropped ones per format.
   returns the new count */
static size_t one_format_per_frame(char **names, size_t n, size_t dropped[4]) {
  size_t kept = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1, len = stem_len(names[i]);
    while (j < n && stem_len(names[j]) == len && !strncmp(names[i], names[j], len)) ++j;
    int best = 4;
    for (size_t k = i; k < j; ++k)
      if (mesh_rank(names[k]) < best) best = mesh_rank(names[k]);
    for (size_t k = i; k < j; ++k) {
      int rank = mesh_rank(names[k]);
      if (rank <= 3 && rank > best) {
        dropped[rank]++;
        free(names[k]);
      } else {
        names[kept++] = names[k];
      }
    }
    i = j;
  }
  return kept;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 0 clean, 1 intersecting, 2 bad input */
static int check_file(const char *path, int verbose) {
  ipc_error err;
  ipc_error_clear(&err);
  ipc_mesh m;
  if (ipc_mesh_read(path, &m, &err) != IPC_OK) {
    fprintf(stderr, "ipcc check: %s\n", err.msg);
    return 2;
  }
  /* a file of triangles or segments checks those; a file of bare vertices checks them as
     isolated points */
  int np = 0;
  int *pts = malloc(sizeof(int) * ((size_t)m.nverts + 1));
  if (m.ntris == 0 && m.nsegs == 0)
    for (int i = 0; i < m.nverts; ++i) pts[np++] = i;
  ipc_surface s;
  int rc = 0;
  /* ipcc's frames mark kinematic obstacles: two of them meeting (walls closing on a corner)
     is the script's doing, not an intersection of the run, and is not counted */
  if (ipc_surface_build(&s, m.nverts, m.tris, m.ntris, m.segs, m.nsegs, pts, np, NULL,
                        m.vert_obstacle, &err) != IPC_OK) {
    fprintf(stderr, "ipcc check: %s: %s\n", path, err.msg);
    rc = 2;
  } else {
    ipc_intersection hits[4];
    size_t n = ipc_surface_intersections(&s, m.x, m.vert_obstacle != NULL, hits, 4);
    if (n == 0) {
      if (verbose) printf("%s: ok (%d triangles)\n", path, m.ntris);
    } else {
      rc = 1;
      printf("%s: INTERSECTING: %zu pair%s\n", path, n, n == 1 ? "" : "s");
      for (size_t k = 0; k < n && k < 4; ++k) {
        char what[256];
        ipc_intersection_describe(what, sizeof what, &s, &hits[k]);
        printf("  %s\n", what);
      }
    }
    ipc_surface_free(&s);
  }
  free(pts);
  ipc_mesh_free(&m);
  return rc;
}

int ipc_cmd_check(int argc, char **argv) {
  const char *path = NULL;
  int quiet = 0;
  for (int i = 0; i < argc; ++i) {
    if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
      quiet = 1;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      puts(
          "usage: ipcc check PATH [--quiet]\n"
          "  PATH: a run's output folder, a folder of mesh files, or one mesh file\n"
          "        (.obj, .ply, .vtu, .msh, .ele); a frame in several formats is checked\n"
          "        once: its .obj, else its .ply, else its .vtu\n"
          "  exit 0 if no frame intersects, 1 if one does, 2 on bad input");
      return 0;
    } else if (argv[i][0] == '-' || path) {
      fprintf(stderr, "ipcc check: unexpected argument '%s'\n", argv[i]);
      return 2;
    } else {
      path = ipc_path_trim(argv[i]);
    }
  }
  if (!path) {
    fputs("usage: ipcc check PATH [--quiet]\n", stderr);
    return 2;
  }
  if (!is_dir(path)) {
    struct stat st;
    if (stat(path, &st) != 0) {
      fprintf(stderr, "ipcc check: %s: no such file or folder\n", path);
      return 2;
    }
    return check_file(path, !quiet);
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/frames", path);
  if (!is_dir(dir)) snprintf(dir, sizeof dir, "%s", path);
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "ipcc check: %s: cannot open folder\n", dir);
    return 2;
  }
  size_t n = 0, cap = 64;
  char **names = malloc(cap * sizeof *names);
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.' || !mesh_rank(de->d_name) || strstr(de->d_name, ".tmp.")) continue;
    if (n == cap) names = realloc(names, (cap *= 2) * sizeof *names);
    size_t len = strlen(dir) + strlen(de->d_name) + 2;
    names[n] = malloc(len);
    snprintf(names[n], len, "%s/%s", dir, de->d_name);
    ++n;
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  size_t dropped[4] = {0, 0, 0, 0};
  n = one_format_per_frame(names, n, dropped);
  if (dropped[2] + dropped[3] > 0 && !quiet)
    printf(
        "frames in several formats: checking one file per frame (.obj, else .ply, else "
        ".vtu); %zu .ply and %zu .vtu files not checked\n",
        dropped[2], dropped[3]);
  int bad = 0, input = 0;
  for (size_t i = 0; i < n; ++i) {
    int r = check_file(names[i], !quiet);
    if (r == 1) ++bad;
    if (r == 2) ++input;
    free(names[i]);
  }
  free(names);
  if (n == 0) {
    fprintf(stderr, "ipcc check: %s: no mesh files (.obj, .ply, .vtu, .msh, .ele) found\n", dir);
    return 2;
  }
  printf("%zu frames checked: %d intersecting, %d unreadable\n", n, bad, input);
  return input ? 2 : bad ? 1 : 0;
}
