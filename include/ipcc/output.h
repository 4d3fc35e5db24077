/* writing frames and statistics */
#ifndef IPCC_OUTPUT_H
#define IPCC_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "ipcc/error.h"
#include "ipcc/world.h"

/* writes the surfaces of all bodies and obstacles at the current state as one OBJ
   file, one named object each, atomically (temporary file, then rename) */
ipc_status ipc_world_write_obj(const ipc_world *w, const char *path, ipc_error *err);

/* binary little-endian PLY of the same surfaces: vertex x, y, z (double) and object_id (int,
   the body index; names in header comments), faces (uchar count, int indices) and, when
   there are segments, an edge element (vertex1, vertex2); written atomically */
ipc_status ipc_world_write_ply(const ipc_world *w, const char *path, ipc_error *err);

/* ParaView XML UnstructuredGrid (ascii) of every vertex: tets of deformable bodies,
   triangles / lines / vertex cells of obstacles; point data velocity (m/s) and object_id,
   cell data energy_density (Psi in J/m^3, 0 on surface cells) and object_id; the time in
   FieldData TimeValue. written atomically */
ipc_status ipc_world_write_vtu(const ipc_world *w, const char *path, ipc_error *err);

/* frame formats from a comma list such as "obj,vtu" (names: obj, ply, vtu) into
   IPC_FORMAT_* bits (scene.h); 0 on success, -1 for an unknown or empty name */
int ipc_output_formats_parse(const char *list, unsigned *formats);

/* writes the current state as frame number `frame` in every format of `formats`
   (0 = OBJ) to dir/NNNNNN.obj, .ply, .vtu (six digits); with VTU also dir/frames.pvd
   (ipc_frames_pvd_add) */
ipc_status ipc_world_write_frame(const ipc_world *w, const char *dir, int frame, unsigned formats,
                                 ipc_error *err);

/* the ParaView collection dir/frames.pvd of the VTU frames in dir: its entries for frames
   before `frame` are kept (a resumed run rewrites the frames after its checkpoint), then
   dir/NNNNNN.vtu at simulated time `time` is added; written atomically, so ParaView opens
   the frames written so far as one animation at any moment */
ipc_status ipc_frames_pvd_add(const char *dir, int frame, double time, ipc_error *err);

/* creates the output folder (and parents) */
ipc_status ipc_output_prepare(const char *dir, ipc_error *err);

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
} ipc_run_summary;

/* writes {"summary": {...}, "steps": [{...}, ...]} atomically */
ipc_status ipc_write_stats_json(const char *path, const ipc_run_summary *sum,
                                const ipc_step_stats *steps, size_t nsteps, ipc_error *err);

/* what `ipcc run` needs to continue an interrupted run (OUTDIR/checkpoint.bin): the run's
   options, its progress, the per-step statistics so far and the world's state */
typedef struct ipc_run_checkpoint {
  char *scene;           /* scene file the run reads (ipc_checkpoint_free frees it) */
  uint64_t scene_hash;   /* ipc_file_hash of the scene file when the run started */
  int nmesh_files;       /* mesh files the scene reads (ipc_checkpoint_hash_meshes) */
  uint64_t *mesh_hashes; /* their ipc_file_hash, in body order */
  uint64_t frame_hash;   /* ipc_file_hash of the last frame's file (ipc_checkpoint_hash_frame) */
  long steps_total;      /* steps the run was asked for */
  int every;             /* a frame every Nth step */
  unsigned formats;      /* IPC_FORMAT_* bits */
  int preview_every;     /* a PNG preview every Nth frame; 0 none */
  int check;             /* exact intersection check of every frame */
  int frame;             /* last frame written */
  ipc_run_summary sum;   /* accumulated so far (mode and scene are not stored) */
  size_t nsteps;         /* completed steps: statistics in steps (nsteps) */
  ipc_step_stats *steps;
  size_t steps_cap;           /* records allocated in steps */
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
ipc_step_stats *ipc_checkpoint_next_step(ipc_run_checkpoint *c);
/* writes c (its world_state fields ignored) and the state of w to path, atomically */
ipc_status ipc_checkpoint_write(const char *path, const ipc_run_checkpoint *c, const ipc_world *w,
                                ipc_error *err);
/* reads a checkpoint into c (owned arrays; free with ipc_checkpoint_free); IPC_ERR_INPUT
   naming the file when it is missing, truncated, corrupted (checksum, lengths) or from
   another ipcc version. every length is checked against what is left of the file before
   anything is allocated. */
ipc_status ipc_checkpoint_read(const char *path, ipc_run_checkpoint *c, ipc_error *err);
/* hashes every mesh file def reads (a new run) into c */
ipc_status ipc_checkpoint_hash_meshes(ipc_run_checkpoint *c, const ipc_scene_def *def,
                                      ipc_error *err);
/* the mesh files of def against the hashes in c (a resumed run); IPC_ERR_INPUT naming the
   first file that changed */
ipc_status ipc_checkpoint_check_meshes(const ipc_run_checkpoint *c, const ipc_scene_def *def,
                                       ipc_error *err);
/* hashes frame c->frame in frames_dir (its file in the first of c->formats) into c */
ipc_status ipc_checkpoint_hash_frame(ipc_run_checkpoint *c, const char *frames_dir, ipc_error *err);
/* that frame file against c->frame_hash: a checkpoint belongs to the folder whose frames it
   recorded; IPC_ERR_INPUT naming the frame file when it is missing or differs */
ipc_status ipc_checkpoint_check_frame(const ipc_run_checkpoint *c, const char *frames_dir,
                                      ipc_error *err);
/* removes the temporary files ("NAME.tmp.PID", ipc_atomic_open) in dir whose process is
   gone: a killed run leaves them behind. returns how many were removed. */
int ipc_remove_stale_tmp(const char *dir);
/* loads the saved world state into w, a world created from the checkpoint's scene;
   IPC_ERR_INPUT when it does not fit w or its positions intersect (the exact check of
   ipc_world_intersection_free) */
ipc_status ipc_checkpoint_restore_world(const ipc_run_checkpoint *c, ipc_world *w, ipc_error *err);
/* frees what ipc_checkpoint_read allocated; c may be NULL */
void ipc_checkpoint_free(ipc_run_checkpoint *c);
/* 64-bit FNV-1a hash of a file's bytes into *hash; IPC_ERR_INPUT if it cannot be read */
ipc_status ipc_file_hash(const char *path, uint64_t *hash, ipc_error *err);

#endif
