/* stats.json: {"summary": {...}, "steps": [{...}, ...]} (keys in docs/stats.md and
   docs/lcp-mode.md), one writer for both modes: the keys every run has are written here, a
   mode adds its own from the tables of its layout (stats_layouts.c) */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

#include "io/run_output.h"
#include "io/stats_common.h"

/* field `off` of record rec as a number */
static double field(const void *rec, ipc_stats_kind kind, size_t off) {
  const char *p = (const char *)rec + off;
  int i;
  long l;
  double d;
  switch (kind) {
    case IPC_STATS_INT:
    case IPC_STATS_BOOL:
    case IPC_STATS_INTS6:
      memcpy(&i, p, sizeof i);
      return i;
    case IPC_STATS_LONG:
      memcpy(&l, p, sizeof l);
      return (double)l;
    default:
      memcpy(&d, p, sizeof d);
      return d;
  }
}

/* a summary key's value: from the run's summary, or reduced over the step records */
static double summary_value(const ipc_stats_key *k, const ipc_run_summary *sum,
                            const ipc_stats_layout *L, const char *steps, size_t nsteps) {
  double v = 0;
  switch (k->from) {
    case IPC_STATS_RECORD: /* (not a summary key) */
    case IPC_STATS_FROM_SUMMARY:
      return field(sum, k->kind, k->off);
    case IPC_STATS_PER_STEP:
      return sum->steps ? field(sum, k->kind, k->off) / sum->steps : 0.0;
    case IPC_STATS_PENETRATION:
      return sum->min_distance < 0 ? -sum->min_distance : 0.0;
    case IPC_STATS_SUM:
      for (size_t i = 0; i < nsteps; ++i) v += field(steps + i * L->record_size, k->kind, k->off);
      return v;
    case IPC_STATS_COUNT_POSITIVE:
      for (size_t i = 0; i < nsteps; ++i)
        v += field(steps + i * L->record_size, k->kind, k->off) > 0;
      return v;
    case IPC_STATS_MAX:
      for (size_t i = 0; i < nsteps; ++i) {
        double x = field(steps + i * L->record_size, k->kind, k->off);
        if (x > v) v = x;
      }
      return v;
  }
  return v;
}

static void add_summary_keys(cJSON *s, const ipc_stats_key *keys, const ipc_run_summary *sum,
                             const ipc_stats_layout *L, const char *steps, size_t nsteps) {
  for (const ipc_stats_key *k = keys; k && k->name; ++k)
    ipc_stats_add_num(s, k->name, summary_value(k, sum, L, steps, nsteps));
}

/* the keys of one step record */
static void add_record_keys(cJSON *o, const ipc_stats_key *keys, const void *rec) {
  for (const ipc_stats_key *k = keys; k->name; ++k) {
    if (k->kind == IPC_STATS_BOOL) {
      cJSON_AddBoolToObject(o, k->name, field(rec, k->kind, k->off) != 0);
    } else if (k->kind == IPC_STATS_INTS6) {
      cJSON *h = cJSON_AddArrayToObject(o, k->name);
      for (int j = 0; j < 6; ++j)
        cJSON_AddItemToArray(h, cJSON_CreateNumber(field(rec, k->kind, k->off + j * sizeof(int))));
    } else {
      ipc_stats_add_num(o, k->name, field(rec, k->kind, k->off));
    }
  }
}

ipcc_status ipc_write_stats_json(const char *path, const ipc_run_summary *sum,
                                 const ipc_stats_layout *L, const void *records, size_t nsteps,
                                 const void *options, ipcc_error *err) {
  const char *steps = records;
  cJSON *root = cJSON_CreateObject();
  cJSON *s = cJSON_AddObjectToObject(root, "summary");
  ipc_stats_summary_begin(s, sum, L->mode);
  add_summary_keys(s, L->summary_head, sum, L, steps, nsteps);
  ipc_stats_summary_check(s, sum);
  add_summary_keys(s, L->summary_counts, sum, L, steps, nsteps);
  cJSON *energy = cJSON_AddArrayToObject(s, "energy");
  for (size_t i = 0; i < nsteps; ++i)
    ipc_stats_energy_push(energy, field(steps + i * L->record_size, IPC_STATS_NUM, L->energy));
  add_summary_keys(s, L->summary_tail, sum, L, steps, nsteps);
  if (L->options && options) L->options(s, options);
  /* the wall clock of the steps' phases: the seconds keys marked split, and the rest of the
     total (the first seconds key) as "other" */
  const char *names[16];
  double split[16];
  int nsplit = 0;
  for (const ipc_stats_key *k = L->seconds + 1; k->name; ++k)
    if (k->from == IPC_STATS_SUM) names[nsplit++] = k->name;
  names[nsplit] = "other";
  for (int j = 0; j <= nsplit; ++j) split[j] = 0;
  for (size_t i = 0; i < nsteps; ++i) {
    const char *rec = steps + i * L->record_size;
    int j = 0;
    for (const ipc_stats_key *k = L->seconds + 1; k->name; ++k)
      if (k->from == IPC_STATS_SUM) split[j++] += field(rec, IPC_STATS_NUM, k->off);
    split[nsplit] += field(rec, IPC_STATS_NUM, L->seconds[0].off);
  }
  for (int j = 0; j < nsplit; ++j) split[nsplit] -= split[j];
  ipc_stats_add_nums(s, "time_split", names, split, nsplit + 1);
  cJSON *arr = cJSON_AddArrayToObject(root, "steps");
  for (size_t i = 0; i < nsteps; ++i) {
    const char *rec = steps + i * L->record_size;
    cJSON *o = ipc_stats_step_begin(arr, (int)field(rec, IPC_STATS_INT, L->step),
                                    field(rec, IPC_STATS_NUM, L->time));
    add_record_keys(o, L->record, rec);
    add_record_keys(cJSON_AddObjectToObject(o, "seconds"), L->seconds, rec);
  }
  return ipc_stats_write(root, path, err);
}
