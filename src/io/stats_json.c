/* stats.json: {"summary": {...}, "steps": [{...}, ...]} (keys in docs/stats.md) */
#include <cjson/cJSON.h>

#include "io/run_output.h"
#include "io/stats_common.h"

ipc_status ipc_write_stats_json(const char *path, const ipc_run_summary *sum,
                                const ipc_step_stats *steps, size_t nsteps, ipc_error *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *s = cJSON_AddObjectToObject(root, "summary");
  ipc_stats_summary_begin(s, sum, "ipc");
  ipc_stats_summary_check(s, sum);
  cJSON_AddNumberToObject(s, "newton_iterations", (double)sum->newton_iterations);
  ipc_stats_add_num(s, "newton_iterations_per_step",
                    sum->steps ? (double)sum->newton_iterations / sum->steps : 0.0);
  cJSON_AddNumberToObject(s, "newton_capped_steps", (double)sum->newton_capped_steps);
  long floor_steps = 0;
  double linear = 0;
  for (size_t i = 0; i < nsteps; ++i) {
    floor_steps += steps[i].newton_floor;
    linear += (double)steps[i].linear_iterations;
  }
  cJSON_AddNumberToObject(s, "newton_floor_steps", (double)floor_steps);
  cJSON_AddNumberToObject(s, "lcp_iterations", (double)sum->lcp_iterations);
  cJSON_AddNumberToObject(s, "linear_iterations", linear);
  cJSON_AddNumberToObject(s, "contacts_max", sum->contacts_max);
  cJSON_AddNumberToObject(s, "dirichlet_unmet_steps", sum->dirichlet_unmet_steps);
  ipc_stats_add_num(s, "dhat", sum->dhat);
  double ta = 0, tf = 0, tc = 0, tb = 0, tt = 0;
  cJSON *energy = cJSON_AddArrayToObject(s, "energy");
  for (size_t i = 0; i < nsteps; ++i) {
    ipc_stats_energy_push(energy, steps[i].energy);
    ta += steps[i].t_assembly;
    tf += steps[i].t_factor;
    tc += steps[i].t_ccd;
    tb += steps[i].t_broad_phase;
    tt += steps[i].t_total;
  }
  static const char *const split_names[] = {"assembly", "factorization", "ccd", "broad_phase",
                                            "other"};
  const double split[] = {ta, tf, tc, tb, tt - ta - tf - tc - tb};
  ipc_stats_add_nums(s, "time_split", split_names, split, 5);
  static const char *const time_names[] = {"total",    "assembly", "factorization",
                                           "analysis", "ccd",      "broad_phase"};
  cJSON *arr = cJSON_AddArrayToObject(root, "steps");
  for (size_t i = 0; i < nsteps; ++i) {
    const ipc_step_stats *p = &steps[i];
    cJSON *o = ipc_stats_step_begin(arr, p->step, p->time);
    cJSON_AddNumberToObject(o, "newton_iterations", p->newton_iterations);
    cJSON_AddBoolToObject(o, "newton_capped", p->newton_capped);
    cJSON_AddBoolToObject(o, "newton_floor", p->newton_floor);
    cJSON_AddNumberToObject(o, "line_search_steps", p->line_search_steps);
    ipc_stats_add_num(o, "ccd_step", p->ccd_alpha_min);
    cJSON_AddNumberToObject(o, "contacts", p->contacts);
    cJSON_AddNumberToObject(o, "contacts_max", p->contacts_max);
    ipc_stats_add_num(o, "min_distance", p->min_distance);
    ipc_stats_add_num(o, "energy", p->energy);
    ipc_stats_add_num(o, "kappa", p->kappa);
    ipc_stats_add_num(o, "residual", p->residual);
    cJSON_AddNumberToObject(o, "dirichlet_unmet", p->dirichlet_unmet);
    cJSON_AddNumberToObject(o, "analyses", p->analyses);
    cJSON_AddNumberToObject(o, "factor_shifts", p->factor_shifts);
    cJSON_AddNumberToObject(o, "linear_iterations", (double)p->linear_iterations);
    cJSON_AddNumberToObject(o, "friction_contacts", p->friction_contacts);
    cJSON_AddNumberToObject(o, "friction_iterations", p->friction_iterations);
    cJSON_AddNumberToObject(o, "dhat_halvings", p->dhat_halvings);
    ipc_stats_add_num(o, "max_slip_speed", p->max_slip_speed);
    const double times[] = {p->t_total,   p->t_assembly, p->t_factor,
                            p->t_analyze, p->t_ccd,      p->t_broad_phase};
    ipc_stats_add_nums(o, "seconds", time_names, times, 6);
  }
  return ipc_stats_write(root, path, err);
}
