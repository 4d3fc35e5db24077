/* the shared pieces of the stats.json writers (stats_common.h) */
#include "io/stats_common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "io/path.h"

void ipc_stats_add_num(cJSON *o, const char *key, double v) {
  if (isfinite(v))
    cJSON_AddNumberToObject(o, key, v);
  else
    cJSON_AddNullToObject(o, key);
}

void ipc_stats_add_nums(cJSON *o, const char *key, const char *const *names, const double *values,
                        int n) {
  cJSON *g = cJSON_AddObjectToObject(o, key);
  for (int i = 0; i < n; ++i) ipc_stats_add_num(g, names[i], values[i]);
}

void ipc_stats_summary_begin(cJSON *s, const ipc_run_summary *sum, const char *default_mode) {
  cJSON_AddStringToObject(s, "mode", sum->mode ? sum->mode : default_mode);
  if (sum->scene) cJSON_AddStringToObject(s, "scene", sum->scene);
  cJSON_AddNumberToObject(s, "steps", sum->steps);
  ipc_stats_add_num(s, "wall_seconds", sum->wall_seconds);
  ipc_stats_add_num(s, "seconds_per_step", sum->steps ? sum->wall_seconds / sum->steps : 0.0);
  ipc_stats_add_num(s, "min_distance", sum->min_distance);
  /* the ground planes, which frame files lack: `ipcc check RUNFOLDER` tests the frames
     against them */
  if (sum->planes) {
    cJSON *planes = cJSON_AddArrayToObject(s, "planes");
    for (int p = 0; p < sum->nplanes; ++p) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddItemToObject(o, "point", cJSON_CreateDoubleArray(sum->planes + 6 * p, 3));
      cJSON_AddItemToObject(o, "normal", cJSON_CreateDoubleArray(sum->planes + 6 * p + 3, 3));
      cJSON_AddItemToArray(planes, o);
    }
  }
  if (sum->every > 0) {
    ipc_stats_add_num(s, "time_step", sum->time_step);
    cJSON_AddNumberToObject(s, "every", sum->every);
  }
}

void ipc_stats_summary_check(cJSON *s, const ipc_run_summary *sum) {
  if (sum->intersection_checked) {
    cJSON_AddBoolToObject(s, "intersection_free", sum->intersection_free);
    cJSON_AddNumberToObject(s, "frames_checked", sum->frames_checked);
  } else {
    cJSON_AddNullToObject(s, "intersection_free");
  }
}

void ipc_stats_energy_push(cJSON *history, double energy) {
  cJSON_AddItemToArray(history, cJSON_CreateNumber(isfinite(energy) ? energy : 0));
}

cJSON *ipc_stats_step_begin(cJSON *steps, int step, double time) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToArray(steps, o);
  cJSON_AddNumberToObject(o, "step", step);
  ipc_stats_add_num(o, "time", time);
  return o;
}

ipcc_status ipc_stats_write(cJSON *root, const char *path, ipcc_error *err) {
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  ipc_atomic_file af;
  ipcc_status st = IPCC_OK;
  if ((st = ipc_atomic_open(&af, path, err)) == IPCC_OK) {
    fputs(text, af.f);
    fputc('\n', af.f);
    st = ipc_atomic_commit(&af, err);
  }
  cJSON_free(text);
  return st;
}

char *ipc_stats_read(const char *path, ipcc_error *err) {
  struct stat st;
  if (stat(path, &st) != 0) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  /* a folder opens, but its size is meaningless and reading it fails */
  if (!S_ISREG(st.st_mode)) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: not a regular file", path);
    return NULL;
  }
  return ipc_read_file(path, NULL, err);
}
