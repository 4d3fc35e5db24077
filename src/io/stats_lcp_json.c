/* stats.json of an LCP run: {"summary": {...}, "steps": [{...}, ...]} (docs/lcp-mode.md) */
#include <cjson/cJSON.h>

#include "io/stats_common.h"
#include "ipcc/lcp_world.h"

static const char *const solver_names[] = {"pgs", "pcg-pgs", "amgs", "lemke"};

ipc_status ipc_write_lcp_stats_json(const char *path, const ipc_run_summary *sum,
                                    const ipc_lcp_world_def *def, const ipc_lcp_step_stats *steps,
                                    size_t nsteps, ipc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *s = cJSON_AddObjectToObject(root, "summary");
  ipc_stats_summary_begin(s, sum, "lcp");
  ipc_stats_add_num(s, "max_penetration", sum->min_distance < 0 ? -sum->min_distance : 0.0);
  ipc_stats_summary_check(s, sum);
  cJSON_AddNumberToObject(s, "newton_iterations", 0);
  cJSON_AddNumberToObject(s, "lcp_iterations", (double)sum->lcp_iterations);
  ipc_stats_add_num(s, "lcp_iterations_per_step",
                    sum->steps ? (double)sum->lcp_iterations / sum->steps : 0.0);
  cJSON_AddNumberToObject(s, "contacts_max", sum->contacts_max);
  ipc_stats_add_num(s, "contact_gap", sum->dhat);
  double rmax = 0, rrel = 0, tv = 0, tc = 0, ts = 0, tt = 0;
  int regions_max = 0, region_size_max = 0;
  long unconverged = 0, vel_iters = 0, factorizations = 0, prescribed_steps = 0;
  for (size_t i = 0; i < nsteps; ++i) prescribed_steps += steps[i].prescribed_overlap > 0;
  cJSON_AddNumberToObject(s, "prescribed_overlap_steps", (double)prescribed_steps);
  cJSON *energy = cJSON_AddArrayToObject(s, "energy");
  for (size_t i = 0; i < nsteps; ++i) {
    const ipc_lcp_step_stats *p = &steps[i];
    ipc_stats_energy_push(energy, p->energy);
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
  ipc_stats_add_num(s, "residual_max", rmax);
  ipc_stats_add_num(s, "rel_residual_max", rrel);
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
  ipc_stats_add_num(o, "baumgarte", def->baumgarte);
  ipc_stats_add_num(o, "restitution", def->restitution);
  ipc_stats_add_num(o, "tolerance", def->tol);
  cJSON_AddNumberToObject(o, "max_iterations", def->max_iter);
  ipc_stats_add_num(o, "omega", def->omega);
  cJSON_AddBoolToObject(o, "warm_start", def->warm_start);
  cJSON_AddBoolToObject(o, "regions", def->split_regions);
  static const char *const split_names[] = {"velocity", "contacts", "lcp", "other"};
  const double split[] = {tv, tc, ts, tt - tv - tc - ts};
  ipc_stats_add_nums(s, "time_split", split_names, split, 4);
  static const char *const time_names[] = {"total", "velocity", "contacts", "lcp"};
  cJSON *arr = cJSON_AddArrayToObject(root, "steps");
  for (size_t i = 0; i < nsteps; ++i) {
    const ipc_lcp_step_stats *p = &steps[i];
    cJSON *e = ipc_stats_step_begin(arr, p->step, p->time);
    cJSON_AddNumberToObject(e, "contacts", p->contacts);
    cJSON_AddNumberToObject(e, "regions", p->regions);
    cJSON_AddNumberToObject(e, "region_max", p->region_max);
    cJSON *h = cJSON_AddArrayToObject(e, "region_sizes");
    for (int k = 0; k < 6; ++k) cJSON_AddItemToArray(h, cJSON_CreateNumber(p->region_hist[k]));
    cJSON_AddNumberToObject(e, "lcp_iterations", (double)p->lcp_iterations);
    cJSON_AddNumberToObject(e, "unconverged", p->unconverged);
    ipc_stats_add_num(e, "residual", p->residual);
    ipc_stats_add_num(e, "rel_residual", p->rel_residual);
    ipc_stats_add_num(e, "min_distance", p->min_distance);
    cJSON_AddNumberToObject(e, "prescribed_overlap", p->prescribed_overlap);
    ipc_stats_add_num(e, "energy", p->energy);
    cJSON_AddNumberToObject(e, "velocity_iterations", p->velocity_iterations);
    cJSON_AddBoolToObject(e, "refactored", p->refactored);
    const double times[] = {p->t_total, p->t_velocity, p->t_contacts, p->t_solve};
    ipc_stats_add_nums(e, "seconds", time_names, times, 4);
  }
  return ipc_stats_write(root, path, err);
}
