/* ipcc plot OUTDIR: statistics of a run (OUTDIR/stats.json) over simulated time as PNG line
   plots in OUTDIR/plots: energy, contacts, Newton iterations, minimum distance, time per
   step */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/outdir.h"
#include "core/alloc.h"
#include "io/plot.h"
#include "io/run_output.h"
#include "io/stats_common.h"
#include "ipcc/ipcc.h"

static void plot_usage(FILE *f) {
  fputs(
      "usage: ipcc plot OUTDIR\n"
      "  draws OUTDIR/stats.json (from ipcc run) as PNG plots into OUTDIR/plots:\n"
      "  energy.png, contacts.png, newton.png, min_distance.png, time_per_step.png\n",
      f);
}

/* a per-step number at a key path ("seconds.total"); NAN when null or missing */
static double step_value(const cJSON *step, const char *key) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", key);
  char *dot = strchr(buf, '.');
  const cJSON *v = step;
  if (dot) {
    *dot = '\0';
    v = cJSON_GetObjectItemCaseSensitive(v, buf);
    key = dot + 1;
    if (!v) return NAN;
  }
  v = cJSON_GetObjectItemCaseSensitive(v, dot ? key : buf);
  if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? 1.0 : 0.0;
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

typedef struct plot_spec {
  const char *file, *title, *ylabel;
  int log_y;
  const char *keys[4], *labels[4];
} plot_spec;

static const plot_spec specs[] = {
    {"energy.png", "ENERGY", "J (kinetic + elastic + gravity)", 0, {"energy"}, {"energy"}},
    {"contacts.png",
     "CONTACTS",
     "active pairs",
     0,
     {"contacts", "contacts_max"},
     {"end of step", "max in step"}},
    {"newton.png",
     "NEWTON ITERATIONS",
     "per step",
     0,
     {"newton_iterations", "line_search_steps"},
     {"newton iterations", "line search steps"}},
    {"min_distance.png",
     "MINIMUM DISTANCE",
     "m, log scale (gaps: no pair within dhat)",
     1,
     {"min_distance"},
     {"min distance"}},
    {"time_per_step.png",
     "TIME PER STEP",
     "wall s",
     0,
     {"seconds.total", "seconds.assembly", "seconds.factorization", "seconds.ccd"},
     {"total", "assembly", "factorization", "ccd"}},
};

int ipc_plot_is_output(const char *name) {
  for (size_t p = 0; p < sizeof specs / sizeof specs[0]; ++p)
    if (!strcmp(name, specs[p].file)) return 1;
  return 0;
}

static const unsigned char colors[4][3] = {
    {214, 96, 40}, {40, 120, 190}, {60, 160, 80}, {150, 80, 170}};

int ipc_cmd_plot(int argc, char **argv) {
  if (argc == 1 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help"))) {
    plot_usage(stdout);
    return 0;
  }
  if (argc != 1 || argv[0][0] == '-') {
    plot_usage(stderr);
    return 2;
  }
  const char *dir = ipc_path_trim(argv[0]);
  size_t plen = strlen(dir) + 64;
  char *path = malloc(plen);
  snprintf(path, plen, "%s/stats.json", dir);
  ipcc_error err;
  ipcc_error_clear(&err);
  char *text = ipc_stats_read(path, &err);
  if (!text) {
    fprintf(stderr, "ipcc plot: %s (expected the folder of an ipcc run)\n", err.msg);
    free(path);
    return 2;
  }
  cJSON *root = cJSON_Parse(text);
  ipc_free(text);
  const cJSON *steps = root ? cJSON_GetObjectItemCaseSensitive(root, "steps") : NULL;
  if (!cJSON_IsArray(steps)) {
    fprintf(stderr, "ipcc plot: %s: expected a JSON object with a \"steps\" array\n", path);
    cJSON_Delete(root);
    free(path);
    return 2;
  }
  int ns = cJSON_GetArraySize(steps), rc = 0;
  double *t = calloc((size_t)ns + 1, sizeof *t);
  double *y = calloc(4 * ((size_t)ns + 1), sizeof *y);
  int i = 0;
  for (const cJSON *s = steps->child; s; s = s->next, ++i) t[i] = step_value(s, "time");
  snprintf(path, plen, "%s/plots", dir);
  if (ipc_output_prepare(path, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc plot: %s\n", err.msg);
    rc = 2;
  }
  static const unsigned char white[3] = {255, 255, 255};
  for (size_t p = 0; !rc && p < sizeof specs / sizeof specs[0]; ++p) {
    const plot_spec *sp = &specs[p];
    ipc_plot_series series[4];
    int nser = 0;
    for (; nser < 4 && sp->keys[nser]; ++nser) {
      double *col = y + (size_t)nser * ((size_t)ns + 1);
      i = 0;
      for (const cJSON *s = steps->child; s; s = s->next, ++i)
        col[i] = step_value(s, sp->keys[nser]);
      series[nser] = (ipc_plot_series){sp->labels[nser], t, col, ns, {0, 0, 0}};
      memcpy(series[nser].color, colors[nser], 3);
    }
    ipcc_image *im = ipcc_image_create(720, 400, white);
    ipc_plot_lines(im, sp->title, "simulated time (s)", sp->ylabel, series, nser, sp->log_y);
    snprintf(path, plen, "%s/plots/%s", dir, sp->file);
    if (ipcc_image_write_png(im, path, &err) != IPCC_OK) {
      fprintf(stderr, "ipcc plot: %s\n", err.msg);
      rc = (int)err.status;
    }
    ipcc_image_destroy(im);
  }
  if (!rc) printf("%zu plots of %d steps in %s/plots\n", sizeof specs / sizeof specs[0], ns, dir);
  free(t);
  free(y);
  free(path);
  cJSON_Delete(root);
  return rc;
}
