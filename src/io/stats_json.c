/* stats.json: {"summary": {...}, "steps": [{...}, ...]} (keys in docs/stats.md) */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "io/path.h"
#include "ipcc/output.h"

/* JSON has no infinity: non-finite numbers become null */
static void add_num(cJSON *o, const char *k, double v) {
  if (isfinite(v))
    cJSON_AddNumberToObject(o, k, v);
  else
    cJSON_AddNullToObject(o, k);
}

ipc_status ipc_write_stats_json(const char *path, const ipc_run_summary *sum,
                                const ipc_step_stats *steps, size_t nsteps, ipc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *s = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddStringToObject(s, "mode", sum->mode);
  if (sum->scene) cJSON_AddStringToObject(s, "scene", sum->scene);
  cJSON_AddNumberToObject(s, "steps", sum->steps);
  add_num(s, "wall_seconds", sum->wall_seconds);
  add_num(s, "seconds_per_step", sum->steps ? sum->wall_seconds / sum->steps : 0.0);
  add_num(s, "min_distance", sum->min_distance);
  if (sum->intersection_checked) {
    cJSON_AddBoolToObject(s, "intersection_free", sum->intersection_free);
    cJSON_AddNumberToObject(s, "frames_checked", sum->frames_checked);
  } else {
    cJSON_AddNullToObject(s, "intersection_free");
  }
  cJSON_AddNumberToObject(s, "newton_iterations", (double)sum->newton_iterations);
  add_num(s, "newton_iterations_per_step",
          sum->steps ? (double)sum->newton_iterations / sum->steps : 0.0);
  cJSON_AddNumberToObject(s, "newton_capped_steps", (double)sum->newton_capped_steps);
  cJSON_AddNumberToObject(s, "lcp_iterations", (double)sum->lcp_iterations);
  cJSON_AddNumberToObject(s, "contacts_max", sum->contacts_max);
  cJSON_AddNumberToObject(s, "dirichlet_unmet_steps", sum->dirichlet_unmet_steps);
  add_num(s, "dhat", sum->dhat);
  double ta = 0, tf = 0, tc = 0, tb = 0, tt = 0;
  cJSON *energy = cJSON_AddArrayToObject(s, "energy");
  for (size_t i = 0; i < nsteps; ++i) {
    cJSON_AddItemToArray(energy,
                         cJSON_CreateNumber(isfinite(steps[i].energy) ? steps[i].energy : 0));
    ta += steps[i].t_assembly;
    tf += steps[i].t_factor;
    tc += steps[i].t_ccd;
    tb += steps[i].t_broad_phase;
    tt += steps[i].t_total;
  }
  cJSON *split = cJSON_AddObjectToObject(s, "time_split");
  add_num(split, "assembly", ta);
  add_num(split, "factorization", tf);
  add_num(split, "ccd", tc);
  add_num(split, "broad_phase", tb);
  add_num(split, "other", tt - ta - tf - tc - tb);
  cJSON *arr = cJSON_AddArrayToObject(root, "steps");
  for (size_t i = 0; i < nsteps; ++i) {
    const ipc_step_stats *p = &steps[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "step", p->step);
    add_num(o, "time", p->time);
    cJSON_AddNumberToObject(o, "newton_iterations", p->newton_iterations);
    cJSON_AddBoolToObject(o, "newton_capped", p->newton_capped);
    cJSON_AddNumberToObject(o, "line_search_steps", p->line_search_steps);
    add_num(o, "ccd_step", p->ccd_alpha_min);
    cJSON_AddNumberToObject(o, "contacts", p->contacts);
    cJSON_AddNumberToObject(o, "contacts_max", p->contacts_max);
    add_num(o, "min_distance", p->min_distance);
    add_num(o, "energy", p->energy);
    add_num(o, "kappa", p->kappa);
    add_num(o, "residual", p->residual);
    cJSON_AddNumberToObject(o, "dirichlet_unmet", p->dirichlet_unmet);
    cJSON_AddNumberToObject(o, "analyses", p->analyses);
    cJSON_AddNumberToObject(o, "friction_contacts", p->friction_contacts);
    cJSON_AddNumberToObject(o, "friction_iterations", p->friction_iterations);
    add_num(o, "max_slip_speed", p->max_slip_speed);
    cJSON *t = cJSON_AddObjectToObject(o, "seconds");
    add_num(t, "total", p->t_total);
    add_num(t, "assembly", p->t_assembly);
    add_num(t, "factorization", p->t_factor);
    add_num(t, "analysis", p->t_analyze);
    add_num(t, "ccd", p->t_ccd);
    add_num(t, "broad_phase", p->t_broad_phase);
    cJSON_AddItemToArray(arr, o);
  }
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  ipc_atomic_file af;
  ipc_status st = IPC_OK;
  if (ipc_atomic_open(&af, path, err) != 0) {
    st = IPC_ERR_INPUT;
  } else {
    fputs(text, af.f);
    fputc('\n', af.f);
    if (ipc_atomic_commit(&af, err) != 0) st = IPC_ERR_INPUT;
  }
  cJSON_free(text);
  return st;
}
