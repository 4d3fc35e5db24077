/* what each mode adds to stats.json (stats_json.c writes the keys every run has): its summary
   keys, its step records' keys and their timings, as tables over its step statistics
   (ipcc_step_stats, ipcc_lcp_step_stats) and the run's summary */
#include <cjson/cJSON.h>
#include <stddef.h>

#include "io/run_output.h"
#include "io/stats_common.h"

#define SUMMARY(key, kind, field) \
  { key, IPC_STATS_##kind, IPC_STATS_FROM_SUMMARY, offsetof(ipc_run_summary, field) }
#define PER_STEP(key, field) \
  { key, IPC_STATS_LONG, IPC_STATS_PER_STEP, offsetof(ipc_run_summary, field) }
#define OVER(T, key, from, kind, field) \
  { key, IPC_STATS_##kind, IPC_STATS_##from, offsetof(T, field) }
#define FIELD(T, key, kind, field) \
  { key, IPC_STATS_##kind, IPC_STATS_RECORD, offsetof(T, field) }

/* a layout over the step records of type T (ipc_stats_layout's fields from summary_head on) */
#define LAYOUT(mode, T, head, counts, tail, options, record, seconds)                         \
  {                                                                                           \
    mode, sizeof(T), offsetof(T, step), offsetof(T, time), offsetof(T, energy), head, counts, \
        tail, options, record, seconds                                                        \
  }
#define END \
  { NULL, IPC_STATS_NUM, IPC_STATS_RECORD, 0 }

/* ---- IPC mode (ipcc_step_stats) ---- */
#define R(key, kind, field) FIELD(ipcc_step_stats, key, kind, field)
#define S(key, field) OVER(ipcc_step_stats, key, SUM, NUM, field)

static const ipc_stats_key ipc_counts[] = {
    SUMMARY("newton_iterations", LONG, newton_iterations),
    PER_STEP("newton_iterations_per_step", newton_iterations),
    SUMMARY("newton_capped_steps", LONG, newton_capped_steps),
    OVER(ipcc_step_stats, "newton_floor_steps", SUM, INT, newton_floor),
    SUMMARY("lcp_iterations", LONG, lcp_iterations),
    OVER(ipcc_step_stats, "linear_iterations", SUM, LONG, linear_iterations),
    SUMMARY("contacts_max", INT, contacts_max),
    SUMMARY("dirichlet_unmet_steps", INT, dirichlet_unmet_steps),
    SUMMARY("dhat", NUM, dhat),
    END};

static const ipc_stats_key ipc_record[] = {R("newton_iterations", INT, newton_iterations),
                                           R("newton_capped", BOOL, newton_capped),
                                           R("newton_floor", BOOL, newton_floor),
                                           R("line_search_steps", INT, line_search_steps),
                                           R("ccd_cuts", INT, ccd_cuts),
                                           R("backtracks", INT, backtracks),
                                           R("frozen_iterations", INT, frozen_iterations),
                                           R("ccd_step", NUM, ccd_alpha_min),
                                           R("contacts", INT, contacts),
                                           R("contacts_max", INT, contacts_max),
                                           R("min_distance", NUM, min_distance),
                                           R("energy", NUM, energy),
                                           R("kappa", NUM, kappa),
                                           R("residual", NUM, residual),
                                           R("dirichlet_unmet", INT, dirichlet_unmet),
                                           R("analyses", INT, analyses),
                                           R("factor_shifts", INT, factor_shifts),
                                           R("linear_iterations", LONG, linear_iterations),
                                           R("friction_contacts", INT, friction_contacts),
                                           R("friction_iterations", INT, friction_iterations),
                                           R("dhat_halvings", INT, dhat_halvings),
                                           R("max_slip_speed", NUM, max_slip_speed),
                                           END};

/* "total" first; the keys summed into time_split (the rest of the total is "other") */
static const ipc_stats_key ipc_seconds[] = {R("total", NUM, t_total),
                                            S("assembly", t_assembly),
                                            S("factorization", t_factor),
                                            R("analysis", NUM, t_analyze),
                                            S("ccd", t_ccd),
                                            S("broad_phase", t_broad_phase),
                                            END};
#undef R
#undef S

const ipc_stats_layout ipc_stats_layout_ipc =
    LAYOUT("ipc", ipcc_step_stats, NULL, ipc_counts, NULL, NULL, ipc_record, ipc_seconds);

/* ---- LCP mode (ipcc_lcp_step_stats) ---- */
#define R(key, kind, field) FIELD(ipcc_lcp_step_stats, key, kind, field)
#define S(key, field) OVER(ipcc_lcp_step_stats, key, SUM, NUM, field)
#define MAX(key, kind, field) OVER(ipcc_lcp_step_stats, key, MAX, kind, field)

static const ipc_stats_key lcp_head[] = {
    {"max_penetration", IPC_STATS_NUM, IPC_STATS_PENETRATION, 0}, END};

static const ipc_stats_key lcp_counts[] = {
    SUMMARY("newton_iterations", LONG, newton_iterations),
    SUMMARY("lcp_iterations", LONG, lcp_iterations),
    PER_STEP("lcp_iterations_per_step", lcp_iterations),
    SUMMARY("contacts_max", INT, contacts_max),
    SUMMARY("contact_gap", NUM, dhat),
    OVER(ipcc_lcp_step_stats, "prescribed_overlap_steps", COUNT_POSITIVE, INT, prescribed_overlap),
    END};

static const ipc_stats_key lcp_tail[] = {
    MAX("residual_max", NUM, residual),
    MAX("rel_residual_max", NUM, rel_residual),
    OVER(ipcc_lcp_step_stats, "unconverged_regions", SUM, INT, unconverged),
    MAX("regions_max", INT, regions),
    MAX("region_size_max", INT, region_max),
    OVER(ipcc_lcp_step_stats, "factorizations", SUM, INT, refactored),
    OVER(ipcc_lcp_step_stats, "velocity_iterations", SUM, INT, velocity_iterations),
    END};

static const ipc_stats_key lcp_record[] = {R("contacts", INT, contacts),
                                           R("regions", INT, regions),
                                           R("region_max", INT, region_max),
                                           R("region_sizes", INTS6, region_hist),
                                           R("lcp_iterations", LONG, lcp_iterations),
                                           R("unconverged", INT, unconverged),
                                           R("residual", NUM, residual),
                                           R("rel_residual", NUM, rel_residual),
                                           R("min_distance", NUM, min_distance),
                                           R("prescribed_overlap", INT, prescribed_overlap),
                                           R("energy", NUM, energy),
                                           R("velocity_iterations", INT, velocity_iterations),
                                           R("refactored", BOOL, refactored),
                                           END};

static const ipc_stats_key lcp_seconds[] = {R("total", NUM, t_total), S("velocity", t_velocity),
                                            S("contacts", t_contacts), S("lcp", t_solve), END};
#undef R
#undef S
#undef MAX

/* the run's LCP options, as the "lcp" object of the summary */
static void lcp_options(cJSON *s, const void *options) {
  static const char *const solver_names[] = {"pgs", "pcg-pgs", "amgs", "lemke"};
  const ipcc_lcp_world_def *def = options;
  cJSON *o = cJSON_AddObjectToObject(s, "lcp");
  cJSON_AddStringToObject(o, "solver",
                          def->solver >= 0 && def->solver < 4 ? solver_names[def->solver] : "?");
  cJSON_AddStringToObject(o, "friction", ipcc_lcp_friction_name(def->friction));
  if (def->friction == IPCC_LCP_FRICTION_PYRAMID)
    cJSON_AddNumberToObject(o, "directions", def->pyramid_directions);
  cJSON_AddStringToObject(o, "coupling", ipcc_lcp_coupling_name(def->coupling));
  ipc_stats_add_num(o, "baumgarte", def->baumgarte);
  ipc_stats_add_num(o, "restitution", def->restitution);
  ipc_stats_add_num(o, "tolerance", def->tol);
  cJSON_AddNumberToObject(o, "max_iterations", def->max_iter);
  ipc_stats_add_num(o, "omega", def->omega);
  cJSON_AddBoolToObject(o, "warm_start", def->warm_start);
  cJSON_AddBoolToObject(o, "regions", def->split_regions);
}

const ipc_stats_layout ipc_stats_layout_lcp =
    LAYOUT("lcp", ipcc_lcp_step_stats, lcp_head, lcp_counts, lcp_tail, lcp_options, lcp_record,
           lcp_seconds);
