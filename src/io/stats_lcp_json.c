/* stats.json of an LCP run: {"summary": {...}, "steps": [{...}, ...]} (docs/lcp-mode.md) */
#include <cjson/cJSON.h>
#include <math.h>

#include "io/path.h"
#include "ipcc/lcp_world.h"

/* JSON has no infinity: non-finite numbers become null */
static void add_num(cJSON *o, const char *k, double v) {
  if (isfinite(v))
    cJSON_AddNumberToObject(o, k, v);
  else
    cJSON_AddNullToObject(o, k);
}

static const char *const solver_names[] = {"pgs", "pcg-pgs", "amgs", "lemke"};

ipc_status ipc_write_lcp_stats_json(const char *path, const ipc_run_summary *sum,
                                    const ipc_lcp_world_def *def, const ipc_lcp_step_stats *steps,
                                    size_t nsteps, ipc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *s = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddStringToObject(s, "mode", sum->mode ? sum->mode : "lcp");
  if (sum->scene) cJSON_AddStringToObject(s, "scene", sum->scene);
  cJSON_AddNumberToObject(s, "steps", sum->steps);
  add_num(s, "wall_seconds", sum->wall_seconds);
  add_num(s, "seconds_per_step", sum->steps ? sum->wall_seconds / sum->steps : 0.0);
  add_num(s, "min_distance", sum->min_distance);
  add_num(s, "max_penetration", sum->min_distance < 0 ? -sum->min_distance : 0.0);
  if (sum->intersection_checked) {
    cJSON_AddBoolToObject(s, "intersection_free", sum->intersection_free);
    cJSON_AddNumberToObject(s, "frames_checked", sum->frames_checked);
  } else {
    cJSON_AddNullToObject(s, "intersection_free");
  }
  cJSON_AddNumberToObject(s, "newton_iterations", 0);
  cJSON_AddNumberToObject(s, "lcp_iterations", (double)sum->lcp_iterations);
  add_num(s, "lcp_iterations_per_step",
          sum->steps ? (double)sum->lcp_iterations / sum->steps : 0.0);
  cJSON_AddNumberToObject(s, "contacts_max", sum->contacts_max);
  add_num(s, "contact_gap", sum->dhat);
  double rmax = 0, rrel = 0, tv = 0, tc = 0, ts = 0, tt = 0;
  int regions_max = 0, region_size_max = 0;
  long unconverged = 0, vel_iters = 0, factorizations = 0;
  cJSON *energy = cJSON_AddArrayToObject(s, "energy");
  for (size_t i = 0; i < nsteps; ++i) {
    const ipc_lcp_step_stats *p = &steps[i];
    cJSON_AddItemToArray(energy, cJSON_CreateNumber(isfinite(p->energy) ? p->energy : 0));
    if (p->residual > rmax) rmax = p->residual;
    if (p->rel_residual > rrel) rrel = p->rel_residual;
    if (p->regions > regions_max) regions_max = p->regions;
    if (p->region_max > region_size_max) region_size_max = p->region_max;
    unconverged += p->unconverged;
    vel_iters += p->velocity_iterations;
    factorizations += p->refactored;
    tv += p->t_velocity;
    tc += p->t_contacts;
    ts += p->t_solve;
    tt += p->t_total;
  }
  add_num(s, "residual_max", rmax);
  add_num(s, "rel_residual_max", rrel);
  cJSON_AddNumberToObject(s, "unconverged_regions", (double)unconverged);
  cJSON_AddNumberToObject(s, "regions_max", regions_max);
  cJSON_AddNumberToObject(s, "region_size_max", region_size_max);
  cJSON_AddNumberToObject(s, "factorizations", (double)factorizations);
  cJSON_AddNumberToObject(s, "velocity_iterations", (double)vel_iters);
  cJSON *o = cJSON_AddObjectToObject(s, "lcp");
  cJSON_AddStringToObject(o, "solver",
                          def->solver >= 0 && def->solver < 4 ? solver_names[def->solver] : "?");
  cJSON_AddStringToObject(o, "friction", ipc_lcp_friction_name(def->friction));
  if (def->friction == IPC_LCP_FRICTION_PYRAMID)
    cJSON_AddNumberToObject(o, "directions", def->pyramid_directions);
  cJSON_AddStringToObject(o, "coupling", ipc_lcp_coupling_name(def->coupling));
  add_num(o, "baumgarte", def->baumgarte);
  add_num(o, "restitution", def->restitution);
  add_num(o, "tolerance", def->tol);
  cJSON_AddNumberToObject(o, "max_iterations", def->max_iter);
  add_num(o, "omega", def->omega);
  cJSON_AddBoolToObject(o, "warm_start", def->warm_start);
  cJSON_AddBoolToObject(o, "regions", def->split_regions);
  cJSON *split = cJSON_AddObjectToObject(s, "time_split");
  add_num(split, "velocity", tv);
  add_num(split, "contacts", tc);
  add_num(split, "lcp", ts);
  add_num(split, "other", tt - tv - tc - ts);
  cJSON *arr = cJSON_AddArrayToObject(root, "steps");
  for (size_t i = 0; i < nsteps; ++i) {
    const ipc_lcp_step_stats *p = &steps[i];
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "step", p->step);
    add_num(e, "time", p->time);
    cJSON_AddNumberToObject(e, "contacts", p->contacts);
    cJSON_AddNumberToObject(e, "regions", p->regions);
    cJSON_AddNumberToObject(e, "region_max", p->region_max);
    cJSON *h = cJSON_AddArrayToObject(e, "region_sizes");
    for (int k = 0; k < 6; ++k) cJSON_AddItemToArray(h, cJSON_CreateNumber(p->region_hist[k]));
    cJSON_AddNumberToObject(e, "lcp_iterations", (double)p->lcp_iterations);
    cJSON_AddNumberToObject(e, "unconverged", p->unconverged);
    add_num(e, "residual", p->residual);
    add_num(e, "rel_residual", p->rel_residual);
    add_num(e, "min_distance", p->min_distance);
    add_num(e, "energy", p->energy);
    cJSON_AddNumberToObject(e, "velocity_iterations", p->velocity_iterations);
    cJSON_AddBoolToObject(e, "refactored", p->refactored);
    cJSON *t = cJSON_AddObjectToObject(e, "seconds");
    add_num(t, "total", p->t_total);
    add_num(t, "velocity", p->t_velocity);
    add_num(t, "contacts", p->t_contacts);
    add_num(t, "lcp", p->t_solve);
    cJSON_AddItemToArray(arr, e);
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
