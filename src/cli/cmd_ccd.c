/* ipcc ccd PATH... [--json]: runs the conservative CCD on benchmark query files and compares
   with their ground truth (exact CCD, zero minimum separation) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/commands.h"
#include "core/alloc.h"
#include "geometry/ccd.h"
#include "io/ccd_queries.h"

typedef struct ccd_files {
  char **path;
  size_t n, cap;
} ccd_files;

/* the folders one walk has read, by device and inode: a folder reached again (a symlink
   loop, or a second link to it) is skipped, so the walk ends and no query counts twice */
typedef struct ccd_dir {
  dev_t dev;
  ino_t ino;
  char *path;
} ccd_dir;

typedef struct ccd_visited {
  ccd_dir *dir;
  size_t n, cap;
} ccd_visited;

typedef struct ccd_counts {
  long queries, tp, fn, fp;
  double seconds;
} ccd_counts;

static void files_add(ccd_files *f, const char *path) {
  ipc_reserve((void **)&f->path, &f->cap, f->n + 1, sizeof(char *));
  size_t len = strlen(path) + 1;
  f->path[f->n] = IPC_NEW(char, len);
  memcpy(f->path[f->n++], path, len);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_csv_suffix(const char *name) {
  size_t n = strlen(name);
  return n >= 4 && !strcmp(name + n - 4, ".csv");
}

/* records dir (st: its stat) as read: 1, or 0 with a note on stderr when it was read already */
static int visit(ccd_visited *v, const char *dir, const struct stat *st) {
  for (size_t i = 0; i < v->n; ++i) {
    if (v->dir[i].dev == st->st_dev && v->dir[i].ino == st->st_ino) {
      fprintf(stderr,
              "ipcc ccd: skipping %s: the folder %s again (a symlink loop or a second link)\n", dir,
              v->dir[i].path);
      return 0;
    }
  }
  ipc_reserve((void **)&v->dir, &v->cap, v->n + 1, sizeof *v->dir);
  size_t len = strlen(dir) + 1;
  v->dir[v->n].dev = st->st_dev;
  v->dir[v->n].ino = st->st_ino;
  v->dir[v->n].path = IPC_NEW(char, len);
  memcpy(v->dir[v->n++].path, dir, len);
  return 1;
}

static void visited_free(ccd_visited *v) {
  for (size_t i = 0; i < v->n; ++i) ipc_free(v->dir[i].path);
  ipc_free(v->dir);
}

/* adds the query files below dir (st: its stat) in sorted order, skipping folders read
   already; returns 0 if dir cannot be read */
static int walk(const char *dir, const struct stat *dst, ccd_visited *seen, ccd_files *out) {
  if (!visit(seen, dir, dst)) return 1;
  DIR *d = opendir(dir);
  if (!d) return 0;
  ccd_files names = {NULL, 0, 0};
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
    files_add(&names, ent->d_name);
  }
  closedir(d);
  if (names.n > 1) qsort(names.path, names.n, sizeof(char *), cmp_names);
  int ok = 1;
  for (size_t i = 0; i < names.n; ++i) {
    size_t len = strlen(dir) + strlen(names.path[i]) + 2;
    char *full = IPC_NEW(char, len);
    snprintf(full, len, "%s/%s", dir, names.path[i]);
    struct stat st;
    if (stat(full, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        if (!walk(full, &st, seen, out)) ok = 0;
      } else if (S_ISREG(st.st_mode) && has_csv_suffix(names.path[i])) {
        if (ipc_ccd_kind_from_path(full) != IPC_CCD_KIND_FROM_PATH)
          files_add(out, full);
        else
          fprintf(stderr,
                  "ipcc ccd: skipping %s: not in a vertex-face/edge-edge folder and "
                  "not named *vf.csv/*ee.csv\n",
                  full);
      }
    }
    ipc_free(full);
    ipc_free(names.path[i]);
  }
  ipc_free(names.path);
  return ok;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* runs every query of q; fills c */
static void run_queries(const ipc_ccd_queries *q, ccd_counts *c) {
  ipc_ccd_params prm = ipc_ccd_default_params();
  unsigned char *hit = IPC_NEW0(unsigned char, q->n > 0 ? q->n : 1);
  double t0 = now_seconds();
  for (int i = 0; i < q->n; ++i) {
    const double *v = q->x + 24 * (size_t)i;
    double toi;
    if (q->kind == IPC_CCD_KIND_VF)
      hit[i] = (unsigned char)ipc_ccd_vf(v, v + 3, v + 6, v + 9, v + 12, v + 15, v + 18, v + 21,
                                         &prm, &toi);
    else
      hit[i] = (unsigned char)ipc_ccd_ee(v, v + 3, v + 6, v + 9, v + 12, v + 15, v + 18, v + 21,
                                         &prm, &toi);
  }
  c->seconds = now_seconds() - t0;
  c->queries = q->n;
  c->tp = c->fn = c->fp = 0;
  for (int i = 0; i < q->n; ++i) {
    if (hit[i] && q->truth[i]) ++c->tp;
    if (!hit[i] && q->truth[i]) ++c->fn;
    if (hit[i] && !q->truth[i]) ++c->fp;
  }
  ipc_free(hit);
}

static double ns_per_query(const ccd_counts *c) {
  return c->queries > 0 ? 1e9 * c->seconds / (double)c->queries : 0.0;
}

static void print_counts(const char *label, const ccd_counts *c) {
  printf(
      "%s: queries %ld, true positives %ld, false negatives %ld, false positives %ld, "
      "ns per query %.1f\n",
      label, c->queries, c->tp, c->fn, c->fp, ns_per_query(c));
}

static void ccd_usage(FILE *f) {
  fputs(
      "usage: ipcc ccd PATH... [--json]\n"
      "  PATH    a CCD benchmark query file (*.csv: queries and their ground truth) or a\n"
      "          folder of them (searched recursively)\n"
      "  --json  only the totals, as one JSON object\n"
      "  prints per file and in total the queries, true positives, false negatives, false\n"
      "  positives and the time per query; exit 1 on a false negative, 2 on bad input\n",
      f);
}

int ipc_cmd_ccd(int argc, char **argv) {
  for (int i = 0; i < argc; ++i)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      ccd_usage(stdout);
      return 0;
    }
  int json = 0;
  ccd_files files = {NULL, 0, 0};
  int status = 0;
  for (int i = 0; i < argc && status == 0; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--json")) {
      json = 1;
      continue;
    }
    if (a[0] == '-' && a[1] == '-') {
      fprintf(stderr, "ipcc ccd: unknown option '%s' (expected PATH... [--json])\n", a);
      status = 2;
      break;
    }
    struct stat st;
    if (stat(a, &st) != 0) {
      fprintf(stderr, "ipcc ccd: %s: no such file or folder\n", a);
      status = 2;
    } else if (S_ISDIR(st.st_mode)) {
      size_t before = files.n;
      ccd_visited seen = {NULL, 0, 0}; /* per PATH: two PATHs may overlap, as before */
      int ok = walk(a, &st, &seen, &files);
      visited_free(&seen);
      if (!ok) {
        fprintf(stderr, "ipcc ccd: %s: cannot read the folder\n", a);
        status = 2;
      } else if (files.n == before) {
        fprintf(stderr, "ipcc ccd: %s: no query files (*.csv) found\n", a);
        status = 2;
      }
    } else {
      files_add(&files, a);
    }
  }
  if (status == 0 && files.n == 0) {
    ccd_usage(stderr);
    status = 2;
  }

  ccd_counts total = {0, 0, 0, 0, 0.0};
  for (size_t i = 0; i < files.n && status == 0; ++i) {
    ipc_ccd_queries q;
    ipcc_error err;
    ipcc_error_clear(&err);
    if (ipc_ccd_queries_read(files.path[i], IPC_CCD_KIND_FROM_PATH, &q, &err) != IPCC_OK) {
      fprintf(stderr, "ipcc ccd: %s\n", err.msg);
      status = 2;
      break;
    }
    if (!q.has_truth) {
      fprintf(stderr,
              "ipcc ccd: %s: no ground truth: expected a 7th column or the file "
              "../mma_bool/<name>_mma_bool.json beside its folder\n",
              files.path[i]);
      ipc_ccd_queries_free(&q);
      status = 2;
      break;
    }
    ccd_counts c;
    run_queries(&q, &c);
    ipc_ccd_queries_free(&q);
    if (!json) print_counts(files.path[i], &c);
    total.queries += c.queries;
    total.tp += c.tp;
    total.fn += c.fn;
    total.fp += c.fp;
    total.seconds += c.seconds;
  }
  if (status == 0) {
    if (json)
      printf(
          "{\"queries\": %ld, \"true_positives\": %ld, \"false_negatives\": %ld, "
          "\"false_positives\": %ld, \"ns_per_query\": %.1f}\n",
          total.queries, total.tp, total.fn, total.fp, ns_per_query(&total));
    else
      print_counts("total", &total);
    status = total.fn > 0 ? 1 : 0;
  }
  for (size_t i = 0; i < files.n; ++i) ipc_free(files.path[i]);
  ipc_free(files.path);
  return status;
}
