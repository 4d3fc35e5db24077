/* what `ipcc run` writes besides the frames: the output folder, stats.json (both modes) and
   the checkpoint that `ipcc run --resume` continues from. internal to the command line (not
   installed): their formats follow the CLI's options, not a library contract. */
#ifndef IPCC_IO_RUN_OUTPUT_H
#define IPCC_IO_RUN_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "ipc/world.h"
#include "ipcc/error.h"
#include "lcp/lcp_world.h"

/* creates the output folder (and parents) */
ipcc_status ipc_output_prepare(const char *dir, ipcc_error *err);

/* summary of a run, as stats.json's "summary" */
typedef struct ipc_run_summary {
  const char *mode; /* "ipc" or "lcp" */
  const char *scene;
  int steps;
  double wall_seconds;
  double min_distance;
  int intersection_checked; /* 1 when intersection_free holds a result */
  int intersection_free;
  int frames_checked;
  long newton_iterations;
  long newton_capped_steps;
  long lcp_iterations;
  int contacts_max;
  int dirichlet_unmet_steps;
  double dhat;
  /* the scene's planes, 6 numbers each (point, unit normal), written as "planes" (`ipcc check`
     reads them back); NULL writes no key. set when stats.json is written, not stored in
     checkpoints */
  int nplanes;
  const double *planes;
  /* the frame interval, written as "time_step" (s) and "every" (steps per frame) when every
   > 0 (frame k is the state at time k every time_step); set when stats.json is written, not
   stored in checkpoints */
  double time_step;
  int every;
} ipc_run_summary;

/* ---- stats.json (stats_json.c, one writer for both modes): the keys every run has, and
   those of the run's mode from its layout (stats_layouts.c): tables of keys over its step
   records (kind: the field's type; from: where the value comes from) ---- */
typedef enum ipc_stats_kind {
  IPC_STATS_INT,   /* int */
  IPC_STATS_LONG,  /* long */
  IPC_STATS_BOOL,  /* int written as true / false */
  IPC_STATS_NUM,   /* double (null when not finite) */
  IPC_STATS_INTS6, /* int[6] written as an array */
} ipc_stats_kind;

typedef enum ipc_stats_from {
  IPC_STATS_RECORD,         /* a step record's field (as seconds: not part of time_split) */
  IPC_STATS_FROM_SUMMARY,   /* the summary's field (offset in ipc_run_summary) */
  IPC_STATS_PER_STEP,       /* the summary's field over its steps */
  IPC_STATS_PENETRATION,    /* -min_distance when negative, else 0 */
  IPC_STATS_SUM,            /* summed over the step records (as seconds: part of time_split) */
  IPC_STATS_MAX,            /* their largest (at least 0) */
  IPC_STATS_COUNT_POSITIVE, /* the records where it is > 0 */
} ipc_stats_from;

typedef struct ipc_stats_key {
  const char *name; /* NULL ends a table */
  ipc_stats_kind kind;
  ipc_stats_from from;
  size_t off;
} ipc_stats_key;

struct cJSON;

/* what a mode adds to stats.json */
typedef struct ipc_stats_layout {
  const char *mode;                    /* the summary's "mode" */
  size_t record_size;                  /* one step record (ipcc_step_stats, ipcc_lcp_step_stats) */
  size_t step, time, energy;           /* offsets of the fields every record has */
  const ipc_stats_key *summary_head;   /* right after the common first keys (may be NULL) */
  const ipc_stats_key *summary_counts; /* after the intersection check (may be NULL) */
  const ipc_stats_key *summary_tail;   /* after the energy history (may be NULL) */
  /* the mode's options as summary keys, after the tail (NULL: none) */
  void (*options)(struct cJSON *summary, const void *options);
  const ipc_stats_key *record;  /* a step record's keys after step and time */
  const ipc_stats_key *seconds; /* its "seconds": "total" first */
} ipc_stats_layout;

extern const ipc_stats_layout ipc_stats_layout_ipc, ipc_stats_layout_lcp;

/* writes {"summary": {...}, "steps": [{...}, ...]} atomically: nsteps records of layout L,
   options (may be NULL) for L->options */
ipcc_status ipc_write_stats_json(const char *path, const ipc_run_summary *sum,
                                 const ipc_stats_layout *L, const void *records, size_t nsteps,
                                 const void *options, ipcc_error *err);

/* the world of either mode (core/world.h) */
struct ipcc_world;

/* the LCP mode's world, step statistics and options (lcp_world.h) */
struct ipc_lcp_world;
struct ipcc_lcp_step_stats;
struct ipcc_lcp_world_def;

/* what `ipcc run` needs to continue an interrupted run (OUTDIR/checkpoint.bin): the run's
   mode and options, its progress, the per-step statistics so far and the world's state */
typedef struct ipc_run_checkpoint {
  char *scene;           /* scene file the run reads (ipc_checkpoint_free frees it) */
  uint64_t scene_hash;   /* ipc_file_hash of the scene file when the run started */
  int nmesh_files;       /* mesh files the scene reads (ipc_checkpoint_hash_meshes) */
  uint64_t *mesh_hashes; /* their ipc_file_hash, in body order */
  uint64_t frame_hash;   /* ipc_file_hash of the last frame's file, or of its motion.pc2 sample
                            when the run writes the point cache alone
                            (ipc_checkpoint_hash_frame) */
  long steps_total;      /* steps the run was asked for */
  int every;             /* a frame every Nth step */
  unsigned formats;      /* IPCC_FORMAT_* bits */
  int preview_every;     /* a PNG preview every Nth frame; 0 none */
  int check;             /* exact intersection check of every frame */
  int frame;             /* last frame written */
  ipc_run_summary sum;   /* accumulated so far (mode and scene are not stored) */
  size_t nsteps;         /* completed steps: statistics in steps (nsteps) */
  ipcc_step_stats *steps;
  size_t steps_cap; /* records allocated in steps (lcp_steps in LCP mode) */
  int lcp;          /* an LCP-mode run (ipc_checkpoint_set_lcp): its statistics are in
                       lcp_steps, steps stays NULL */
  struct ipcc_lcp_step_stats *lcp_steps;
  struct ipcc_lcp_world_def *lcp_def; /* LCP mode: the run's options (dump_dir NULL) */
  unsigned char *world_state; /* ipc_world_save_state record, filled by ipc_checkpoint_read */
  size_t world_state_len;
} ipc_run_checkpoint;

/* sets the scene path (copied) of a new run */
void ipc_checkpoint_set_scene(ipc_run_checkpoint *c, const char *scene);
/* sets steps_total; the step records are allocated as the run goes (a huge total costs
   nothing up front) */
void ipc_checkpoint_set_total(ipc_run_checkpoint *c, long total);
/* the zeroed record for the next step, c->steps[c->nsteps] (c->steps grows by doubling);
   NULL when out of memory (c unchanged) */
ipcc_step_stats *ipc_checkpoint_next_step(ipc_run_checkpoint *c);
/* makes c the checkpoint of an LCP-mode run with options def (copied, without dump_dir) */
void ipc_checkpoint_set_lcp(ipc_run_checkpoint *c, const struct ipcc_lcp_world_def *def);
/* LCP mode: the zeroed record for the next step, c->lcp_steps[c->nsteps]; NULL when out of
   memory */
struct ipcc_lcp_step_stats *ipc_checkpoint_next_lcp_step(ipc_run_checkpoint *c);
/* the zeroed record for the next step of the run's mode (ipc_checkpoint_next_step or
   ipc_checkpoint_next_lcp_step); NULL when out of memory */
void *ipc_checkpoint_next_record(ipc_run_checkpoint *c);
/* writes c (its world_state fields ignored) and the state of w to path, atomically */
ipcc_status ipc_checkpoint_write_world(const char *path, const ipc_run_checkpoint *c,
                                       const struct ipcc_world *w, ipcc_error *err);
/* the same for the public handles */
ipcc_status ipc_checkpoint_write(const char *path, const ipc_run_checkpoint *c, const ipc_world *w,
                                 ipcc_error *err);
/* the same for an LCP-mode run (c->lcp) and its world */
ipcc_status ipc_checkpoint_write_lcp(const char *path, const ipc_run_checkpoint *c,
                                     const struct ipc_lcp_world *w, ipcc_error *err);
/* reads a checkpoint into c (owned arrays; free with ipc_checkpoint_free); IPCC_ERR_INPUT
   naming the file when it is missing, truncated, corrupted (checksum, lengths) or from
   another ipcc version. every length is checked against what is left of the file before
   anything is allocated. */
ipcc_status ipc_checkpoint_read(const char *path, ipc_run_checkpoint *c, ipcc_error *err);
/* hashes every mesh file def reads (a new run) into c */
ipcc_status ipc_checkpoint_hash_meshes(ipc_run_checkpoint *c, const ipcc_scene_def *def,
                                       ipcc_error *err);
/* the mesh files of def against the hashes in c (a resumed run); IPCC_ERR_INPUT naming the
   first file that changed */
ipcc_status ipc_checkpoint_check_meshes(const ipc_run_checkpoint *c, const ipcc_scene_def *def,
                                        ipcc_error *err);
/* hashes frame c->frame in frames_dir (its file in the first of c->formats; with the point
   cache alone its sample in motion.pc2) into c */
ipcc_status ipc_checkpoint_hash_frame(ipc_run_checkpoint *c, const char *frames_dir,
                                      ipcc_error *err);
/* that frame file against c->frame_hash: a checkpoint belongs to the folder whose frames it
   recorded; IPCC_ERR_INPUT naming the frame file when it is missing or differs */
ipcc_status ipc_checkpoint_check_frame(const ipc_run_checkpoint *c, const char *frames_dir,
                                       ipcc_error *err);
/* removes the temporary files ("NAME.tmp.PID", ipc_atomic_open) in dir whose process is
   gone: a killed run leaves them behind. returns how many were removed. */
int ipc_remove_stale_tmp(const char *dir);
/* loads the saved world state into w, a world created from the checkpoint's scene (and
   options); IPCC_ERR_INPUT when it does not fit w, or when its positions intersect (the exact
   check of ipcc_world_intersection_free; not in a mode that allows penetration) */
ipcc_status ipc_checkpoint_restore(const ipc_run_checkpoint *c, struct ipcc_world *w,
                                   ipcc_error *err);
/* the same for the public handles: loads the saved world state into w, a world created from
   the checkpoint's scene;
   IPCC_ERR_INPUT when it does not fit w or its positions intersect (the exact check of
   ipc_world_intersection_free) */
ipcc_status ipc_checkpoint_restore_world(const ipc_run_checkpoint *c, ipc_world *w,
                                         ipcc_error *err);
/* the same for an LCP-mode run, into w created from the checkpoint's scene and c->lcp_def;
   IPCC_ERR_INPUT when the state does not fit w (sizes, contact vertices, the rebuilt factor).
   no intersection check: LCP mode allows small penetrations, so a saved state may
   intersect */
ipcc_status ipc_checkpoint_restore_lcp_world(const ipc_run_checkpoint *c, struct ipc_lcp_world *w,
                                             ipcc_error *err);
/* frees what ipc_checkpoint_read allocated; c may be NULL */
void ipc_checkpoint_free(ipc_run_checkpoint *c);
/* 64-bit FNV-1a hash of a file's bytes into *hash; IPCC_ERR_INPUT if it cannot be read */
ipcc_status ipc_file_hash(const char *path, uint64_t *hash, ipcc_error *err);

#endif
