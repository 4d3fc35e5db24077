/* ipcc check PATH [--plane P,N]: exact intersection check of every frame. PATH is a run's
   output folder (its frames/), a folder of mesh files (one frame each), or one
   mesh file (OBJ, PLY, VTU, Gmsh, TetGen); a frame written in several formats is checked
   once. A frame intersects when two primitives cross (ipc_surface_intersections), when one
   body lies wholly inside another's closed surface (ipc_surface_first_containment; frames
   that know their bodies: ipcc's OBJ objects and PLY object_id), or when a vertex of a body
   that is not an obstacle lies behind a plane: those of the run's stats.json ("planes",
   the analytic ground that frame files lack) and of --plane. exit 0 only if no frame
   intersects; 1 if one does; 2 on bad input. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/outdir.h"
#include "core/model.h"
#include "core/surface.h"
#include "geometry/containment.h"
#include "geometry/intersect_surface.h"
#include "io/frame_pc2.h"
#include "io/frame_planes.h"
#include "io/stats_common.h"
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

/* what every frame is checked against */
typedef struct check_ctx {
  int verbose;
  int nplanes;
  ipc_plane *planes; /* (nplanes) unit normals: stats.json's, then --plane's */
  int no_bodies;     /* frames read without per-vertex objects (crossings only) */
} check_ctx;

/* n (finite, non-zero) scaled to unit length into u, as the model does (a normal within
   1e-12 of unit length is kept); 0 when n is zero or not finite */
static int unit_normal(const double n[3], double u[3]) {
  double big = fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
  if (!(big > 0) || !isfinite(big)) return 0;
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (isfinite(len) && fabs(len - 1.0) <= 1e-12) {
    memcpy(u, n, 3 * sizeof(double));
    return 1;
  }
  double v[3] = {n[0] / big, n[1] / big, n[2] / big}; /* no overflow in the length */
  len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int d = 0; d < 3; ++d) u[d] = v[d] / len;
  return 1;
}

static void add_plane(check_ctx *c, const double point[3], const double normal[3]) {
  c->planes = realloc(c->planes, sizeof *c->planes * (size_t)(c->nplanes + 1));
  ipc_plane *p = &c->planes[c->nplanes++];
  memset(p, 0, sizeof *p);
  memcpy(p->point, point, sizeof p->point);
  memcpy(p->normal, normal, sizeof p->normal);
}

/* --plane px,py,pz,nx,ny,nz; 0, or 2 after naming the problem */
static int parse_plane_option(check_ctx *c, const char *arg) {
  double v[6];
  const char *q = arg;
  int n = 0;
  while (n < 6) {
    char *e;
    v[n] = strtod(q, &e);
    if (e == q) break;
    ++n;
    q = e;
    if (*q != ',') break;
    ++q;
  }
  if (n != 6 || *q != '\0') {
    fprintf(stderr,
            "ipcc check: --plane '%s': expected px,py,pz,nx,ny,nz (a point and a normal, six "
            "numbers separated by commas)\n",
            arg);
    return 2;
  }
  double u[3];
  if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) {
    fprintf(stderr, "ipcc check: --plane '%s': the point must be finite\n", arg);
    return 2;
  }
  if (!unit_normal(v + 3, u)) {
    fprintf(stderr,
            "ipcc check: --plane '%s': the normal is zero or not finite, expected a "
            "non-zero finite vector nx,ny,nz\n",
            arg);
    return 2;
  }
  add_plane(c, v, u);
  return 0;
}

/* 1 when o is an array of 3 finite numbers, copied to v */
static int vec3(const cJSON *o, double v[3]) {
  if (!cJSON_IsArray(o) || cJSON_GetArraySize(o) != 3) return 0;
  for (int d = 0; d < 3; ++d) {
    const cJSON *x = cJSON_GetArrayItem(o, d);
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)) return 0;
    v[d] = x->valuedouble;
  }
  return 1;
}

/* the planes of a run folder's stats.json (summary.planes) into c; a run folder without
   stats.json, or a stats.json without planes (an older ipcc), is said once. 0, or 2 after
   naming the problem */
static int read_run_planes(check_ctx *c, const char *dir, int has_plane_option) {
  char path[4200];
  snprintf(path, sizeof path, "%s/stats.json", dir);
  const char *rest =
      has_plane_option ? "only the --plane planes are checked" : "crossings and containment only";
  struct stat st;
  if (stat(path, &st) != 0) {
    char frames[4200];
    snprintf(frames, sizeof frames, "%s/frames", dir);
    if (is_dir(frames)) printf("planes: %s has no stats.json (run not finished): %s\n", dir, rest);
    return 0;
  }
  ipcc_error err;
  ipcc_error_clear(&err);
  char *text = ipc_stats_read(path, &err);
  if (!text) {
    fprintf(stderr, "ipcc check: %s\n", err.msg);
    return 2;
  }
  cJSON *root = cJSON_Parse(text);
  free(text);
  const cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "summary");
  if (!cJSON_IsObject(sum)) {
    fprintf(stderr, "ipcc check: %s: not a run's statistics (no object 'summary')\n", path);
    cJSON_Delete(root);
    return 2;
  }
  const cJSON *planes = cJSON_GetObjectItemCaseSensitive(sum, "planes");
  int rc = 0;
  if (!planes) {
    printf("planes: not recorded in stats.json (run written by an older ipcc): %s\n", rest);
  } else if (!cJSON_IsArray(planes)) {
    fprintf(stderr, "ipcc check: %s: key 'summary.planes': expected an array\n", path);
    rc = 2;
  } else {
    int k = 0;
    for (const cJSON *p = planes->child; p && !rc; p = p->next, ++k) {
      double point[3], normal[3], u[3];
      if (!vec3(cJSON_GetObjectItemCaseSensitive(p, "point"), point)) {
        fprintf(stderr, "ipcc check: %s: key 'summary.planes[%d].point': expected 3 numbers\n",
                path, k);
        rc = 2;
      } else if (!vec3(cJSON_GetObjectItemCaseSensitive(p, "normal"), normal) ||
                 !unit_normal(normal, u)) {
        fprintf(stderr,
                "ipcc check: %s: key 'summary.planes[%d].normal': expected 3 numbers, not all "
                "zero\n",
                path, k);
        rc = 2;
      } else {
        add_plane(c, point, u);
      }
    }
  }
  cJSON_Delete(root);
  return rc;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* the bodies of m's vertices for the surface: its objects numbered 0..nb-1 in the order of
   their ids (ids[b] the object of body b, *ids allocated), then one body for each vertex of
   no object, which so joins no other. returns vert_body (nverts), NULL without objects */
static int *vertex_bodies(const ipcc_mesh *m, int **ids, int *nb) {
  *ids = NULL;
  *nb = 0;
  if (!m->vert_object) return NULL;
  int *sorted = malloc(sizeof(int) * ((size_t)m->nverts + 1)), n = 0;
  for (int i = 0; i < m->nverts; ++i)
    if (m->vert_object[i] >= 0) sorted[n++] = m->vert_object[i];
  qsort(sorted, (size_t)n, sizeof(int), cmp_int);
  int u = 0;
  for (int k = 0; k < n; ++k)
    if (u == 0 || sorted[k] != sorted[u - 1]) sorted[u++] = sorted[k];
  int *vb = malloc(sizeof(int) * ((size_t)m->nverts + 1)), extra = u;
  for (int i = 0; i < m->nverts; ++i) {
    int o = m->vert_object[i];
    vb[i] = o < 0 ? extra++
                  : (int)((int *)bsearch(&o, sorted, (size_t)u, sizeof(int), cmp_int) - sorted);
  }
  *ids = sorted;
  *nb = u;
  return vb;
}

/* the name of object id of m (path's format): OBJ names its objects, a PLY frame numbers
   them */
static void object_name(const char *path, const ipcc_mesh *m, int id, char *out, size_t n) {
  const char *dot = strrchr(path, '.');
  if (id >= 0 && id < m->nobjects && !(dot && !strcmp(dot, ".ply")))
    snprintf(out, n, "%s", m->object_names[id]);
  else
    snprintf(out, n, "object %d", id);
}

/* the deepest vertex of m behind one of the planes (obstacle vertices skipped); 1 and the
   message in what when there is one */
static int behind_planes(const check_ctx *c, const char *path, const ipcc_mesh *m, char *what,
                         size_t n) {
  double worst = 0.0;
  int wv = -1, wp = -1;
  for (int i = 0; i < m->nverts; ++i) {
    if (m->vert_obstacle && m->vert_obstacle[i]) continue;
    for (int p = 0; p < c->nplanes; ++p) {
      double s = ipc_plane_distance(&c->planes[p], m->x + 3 * (size_t)i);
      if (s < worst || (s != s && wv < 0)) {
        worst = s != s ? -INFINITY : s;
        wv = i;
        wp = p;
      }
    }
  }
  if (wv < 0) return 0;
  char body[300] = "";
  if (m->vert_object && m->vert_object[wv] >= 0) {
    char name[256];
    object_name(path, m, m->vert_object[wv], name, sizeof name);
    snprintf(body, sizeof body, " of body '%s'", name);
  }
  const ipc_plane *pl = &c->planes[wp];
  snprintf(what, n, "vertex %d%s is %.3g m behind plane %d (through %g %g %g)", wv, body, -worst,
           wp, pl->point[0], pl->point[1], pl->point[2]);
  return 1;
}

/* 0 clean, 1 intersecting, 2 bad input */
static int check_file(const char *path, check_ctx *c) {
  ipcc_error err;
  ipcc_error_clear(&err);
  ipcc_mesh m;
  if (ipcc_mesh_read(path, &m, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc check: %s\n", err.msg);
    return 2;
  }
  if (!m.vert_object) c->no_bodies++;
  /* a file of triangles or segments checks those; a file of bare vertices checks them as
     isolated points */
  int np = 0;
  int *pts = malloc(sizeof(int) * ((size_t)m.nverts + 1));
  if (m.ntris == 0 && m.nsegs == 0)
    for (int i = 0; i < m.nverts; ++i) pts[np++] = i;
  int *ids, nb;
  int *vert_body = vertex_bodies(&m, &ids, &nb);
  ipc_surface s;
  int rc = 0;
  /* ipcc's frames mark kinematic obstacles: two of them meeting (walls closing on a corner)
     is the script's doing, not an intersection of the run, and is not counted */
  if (ipc_surface_build(&s, m.nverts, m.tris, m.ntris, m.segs, m.nsegs, pts, np, vert_body,
                        m.vert_obstacle, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc check: %s: %s\n", path, err.msg);
    rc = 2;
  } else {
    ipc_intersection hits[4];
    size_t n = ipc_surface_intersections(&s, m.x, m.vert_obstacle != NULL, hits, 4);
    int inner, outer;
    char what[700];
    if (n > 0) {
      rc = 1;
      printf("%s: INTERSECTING: %zu pair%s\n", path, n, n == 1 ? "" : "s");
      for (size_t k = 0; k < n && k < 4; ++k) {
        ipc_intersection_describe(what, sizeof what, &s, &hits[k]);
        printf("  %s\n", what);
      }
    } else if (vert_body && m.ntris > 0 && ipc_surface_first_containment(&s, m.x, &inner, &outer)) {
      /* no face crosses, yet one body's volume holds another */
      rc = 1;
      char a[256] = "?", b[256] = "?";
      if (inner < nb) object_name(path, &m, ids[inner], a, sizeof a);
      if (outer < nb) object_name(path, &m, ids[outer], b, sizeof b);
      printf("%s: INTERSECTING: body '%s' lies inside the closed surface of body '%s'\n", path, a,
             b);
    }
    if (behind_planes(c, path, &m, what, sizeof what)) {
      rc = 1;
      printf("%s: INTERSECTING: %s\n", path, what);
    }
    if (rc == 0 && c->verbose) printf("%s: ok (%d triangles)\n", path, m.ntris);
    ipc_surface_free(&s);
  }
  free(vert_body);
  free(ids);
  free(pts);
  ipcc_mesh_free(&m);
  return rc;
}

static const char usage[] = "usage: ipcc check PATH [--plane px,py,pz,nx,ny,nz]... [--quiet]\n";

int ipc_cmd_check(int argc, char **argv) {
  const char *path = NULL;
  int quiet = 0, rc = 0, plane_options = 0;
  check_ctx c;
  memset(&c, 0, sizeof c);
  for (int i = 0; i < argc && !rc; ++i) {
    if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
      quiet = 1;
    } else if (!strcmp(argv[i], "--plane")) {
      if (i + 1 == argc) {
        fputs("ipcc check: --plane needs a value px,py,pz,nx,ny,nz\n", stderr);
        rc = 2;
      } else {
        rc = parse_plane_option(&c, argv[++i]);
        ++plane_options;
      }
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(usage, stdout);
      puts(
          "  PATH: a run's output folder, a folder of mesh files, or one mesh file\n"
          "        (.obj, .ply, .vtu, .msh, .ele); a frame in several formats is checked\n"
          "        once: its .obj, else its .ply, else its .vtu\n"
          "  a frame intersects when two faces, edges or points cross; when a body lies\n"
          "  wholly inside another's closed surface (frames that know their bodies: OBJ\n"
          "  objects 'o NAME', PLY vertex property object_id; other frames are checked for\n"
          "  crossings only); or when a vertex of a body that is not an obstacle lies behind\n"
          "  a plane (n.(x - p) < 0): the planes of a run folder's stats.json and of --plane\n"
          "  --plane px,py,pz,nx,ny,nz\n"
          "                    a plane through point p whose normal n (normalised) points to\n"
          "                    the side the bodies must stay on; repeatable\n"
          "  --quiet, -q       print only intersections and the totals\n"
          "  exit 0 if no frame intersects, 1 if one does, 2 on bad input");
      free(c.planes);
      return 0;
    } else if (argv[i][0] == '-' || path) {
      fprintf(stderr, "ipcc check: unexpected argument '%s'\n", argv[i]);
      rc = 2;
    } else {
      path = ipc_path_trim(argv[i]);
    }
  }
  if (!rc && !path) {
    fputs(usage, stderr);
    rc = 2;
  }
  if (rc) {
    free(c.planes);
    return rc;
  }
  c.verbose = !quiet;
  if (!is_dir(path)) {
    struct stat st;
    if (stat(path, &st) != 0) {
      fprintf(stderr, "ipcc check: %s: no such file or folder\n", path);
      free(c.planes);
      return 2;
    }
    rc = check_file(path, &c);
    if (c.no_bodies && !quiet && rc != 2)
      printf("%s: no bodies in the file (OBJ objects, PLY object_id): no containment check\n",
             path);
    free(c.planes);
    return rc;
  }
  /* a run folder's planes come first (plane k of the message is stats.json's k-th) */
  int given = c.nplanes;
  ipc_plane *opt = c.planes;
  c.planes = NULL;
  c.nplanes = 0;
  rc = read_run_planes(&c, path, plane_options > 0);
  for (int k = 0; k < given; ++k) add_plane(&c, opt[k].point, opt[k].normal);
  free(opt);
  if (rc) {
    free(c.planes);
    return rc;
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/frames", path);
  /* a run's frames/ also holds the point cache's rest shape (--format pc2): frame 0 again */
  int run_frames = is_dir(dir);
  if (!run_frames) snprintf(dir, sizeof dir, "%s", path);
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "ipcc check: %s: cannot open folder\n", dir);
    free(c.planes);
    return 2;
  }
  size_t n = 0, cap = 64;
  char **names = malloc(cap * sizeof *names);
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.' || !mesh_rank(de->d_name) || strstr(de->d_name, ".tmp.")) continue;
    if (run_frames && !strcmp(de->d_name, IPC_PC2_REST)) continue;
    /* the planes' squares (--write-planes): the planes are checked from stats.json */
    if (run_frames && !strcmp(de->d_name, IPC_PLANES_FILE)) continue;
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
    int r = check_file(names[i], &c);
    if (r == 1) ++bad;
    if (r == 2) ++input;
    free(names[i]);
  }
  free(names);
  free(c.planes);
  if (n == 0) {
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/%s", dir, IPC_PC2_CACHE);
    fprintf(stderr, "ipcc check: %s: no mesh files (.obj, .ply, .vtu, .msh, .ele) found%s\n", dir,
            run_frames && access(cache, F_OK) == 0
                ? " (the run wrote the point cache alone: check reads OBJ, PLY or VTU frames)"
                : "");
    return 2;
  }
  printf("%zu frames checked: %d intersecting, %d unreadable", n, bad, input);
  if (c.no_bodies)
    printf("; %d without bodies in the file (OBJ objects, PLY object_id): no containment check",
           c.no_bodies);
  printf("\n");
  return input ? 2 : bad ? 1 : 0;
}
