/* ipcc run SCENE [-o OUTDIR] [options] | ipcc run --resume OUTDIR, in IPC or LCP mode.
   options are parsed by run_args.c (both modes) and cmd_run_lcp.c (LCP mode); the run
   itself is the same in both modes: run_open (new or resumed), run_steps (step, write
   frames and previews, checkpoint), run_finish (stats.json and the summary). The world is
   one of either mode (core/world.h); what differs between the modes is in their run_mode
   tables (below and cmd_run_lcp.c). */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/outdir.h"
#include "cli/progress.h"
#include "cli/run_args.h"
#include "cli/run_lcp.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/world.h"
#include "io/frame_pc2.h"
#include "io/frame_planes.h"
#include "io/plot.h"
#include "io/run_output.h"
#include "io/world_output.h"
#include "ipcc/ipcc.h"
#include "linalg/linear_solver.h"
#include "linalg/mpi_run.h"

static void run_usage(FILE *f) {
  fputs(
      "usage: ipcc run SCENE [-o OUTDIR] [--mode ipc|lcp] [--steps N] [--format LIST]\n"
      "                [--write-planes] [--every N] [--preview] [--preview-every N] [--check]\n"
      "                [--no-checkpoint] [--checkpoint-every N] [--quiet] [--lenient]\n"
      "                [--threads N] [--overwrite] [--linear-solver NAME] [--petsc-options S]\n"
      "                [LCP options]\n"
      "       ipcc run --resume OUTDIR [--steps N] [--quiet] [--lenient] [--threads N]\n"
      "                [--checkpoint-every N] [--linear-solver NAME] [--petsc-options S]\n"
      "  SCENE            a JSON scene (docs/scene-format.md) or an IPC .txt script (README.md)\n"
      "  -o OUTDIR        output folder (default: out/<scene name>, in LCP mode\n"
      "                   out/<scene name>_lcp); frames go to OUTDIR/frames\n"
      "  --mode ipc|lcp   the contact model (default: the scene's \"mode\", else ipc)\n"
      "  --overwrite      replace the earlier run in OUTDIR (its frames, previews, plots,\n"
      "                   stats.json, checkpoint); without it OUTDIR must hold no run\n"
      "  --steps N        simulate N steps instead of the scene's duration / time_step\n"
      "                   (at most 1000000000, as duration / time_step)\n"
      "  --format LIST    frame formats, comma separated: obj, ply, vtu, pc2 (default: the\n"
      "                   scene's output.format, else obj); vtu adds frames/frames.pvd\n"
      "                   (ParaView); pc2 writes one point cache for renderers instead of a\n"
      "                   file per frame: frames/rest.obj and frames/motion.pc2\n"
      "                   (docs/rendering.md)\n"
      "  --every N        write a frame every Nth step (default: the scene's output.every)\n"
      "  --preview        PNG previews of the frames in OUTDIR/preview (or output.preview)\n"
      "  --preview-every N  a preview of every Nth frame and the last (implies --preview)\n"
      "  --check          exact intersection check of every frame (sets intersection_free;\n"
      "                   an intersection fails an IPC run, an LCP run only records it)\n"
      "  --no-checkpoint  do not write OUTDIR/checkpoint.bin\n"
      "  --checkpoint-every N  a checkpoint at every Nth frame and the last (default: at a\n"
      "                   frame once 1 s, and 20 times the last checkpoint's write time,\n"
      "                   have passed since the last one, and at the last frame)\n"
      "  --resume OUTDIR  continue the interrupted run in OUTDIR (either mode) from its last\n"
      "                   checkpoint\n"
      "  --quiet          no progress bar and no summary\n"
      "  --lenient        IPC scripts: unsupported keywords are warnings, not errors\n"
      "  --threads N      threads for ipcc's own loops (default 1); results do not\n"
      "                   depend on it\n"
      "  --linear-solver NAME  the Newton systems' solver: cholmod (default), petsc-mumps,\n"
      "                   petsc-cg-gamg or petsc (or newton.linear_solver; README, Beyond one\n"
      "                   machine)\n"
      "  --petsc-options \"...\"  PETSc options for the petsc solvers (as PETSC_OPTIONS)\n",
      f);
  ipc_run_lcp_usage(f);
}

/* the command line into o (both modes) and lo (LCP mode); -1 to go on, or an exit code */
static int parse_args(ipc_run_args *o, ipc_run_lcp_opts *lo, int argc, char **argv) {
  ipc_run_args_init(o);
  memset(lo, 0, sizeof *lo);
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    int taken = ipc_run_args_common(o, argc, argv, &i);
    if (!taken) taken = ipc_run_lcp_option(lo, argc, argv, &i);
    if (taken == 2) return 2;
    if (taken) continue;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      run_usage(stdout);
      return 0;
    }
    if (ipc_run_args_positional(o, argc, argv, i)) {
      run_usage(stderr);
      return 2;
    }
  }
  int no_scene = 0;
  if (ipc_run_args_finish(o, lo->first != NULL, &no_scene)) {
    if (no_scene) run_usage(stderr);
    return 2;
  }
  if (lo->first && o->mode && !strcmp(o->mode, "ipc")) {
    fprintf(stderr, "ipcc run: %s is an option of LCP mode (--mode ipc was given)\n", lo->first);
    return 2;
  }
  return -1;
}

/* a run in progress */
typedef struct run {
  ipc_run_args o;
  ipc_run_lcp_opts lo;
  ipcc_scene_def def;
  const ipc_run_mode *mode; /* ipc_run_mode_ipc, or ipc_run_mode_lcp (r->ck.lcp) */
  ipcc_world *w;
  char *outdir;
  char *frames_dir;
  char *ckpt_path;
  char *preview_dir;
  ipc_run_checkpoint ck;  /* options, progress, accumulated statistics */
  double wall_before;     /* wall seconds of earlier sessions (resume) */
  double t_output;        /* wall seconds spent writing frames and previews (this session) */
  double t_preview;       /* of them, drawing and writing previews */
  double t_checkpoint;    /* wall seconds spent writing checkpoints (this session) */
  int checkpoints;        /* checkpoints written (this session) */
  double last_checkpoint; /* wall clock when the last checkpoint (or this session) began */
  double checkpoint_cost; /* wall seconds the last checkpoint took */
  ipc_progress bar;
} run;

static char *str_printf(const char *fmt, const char *a, const char *b) {
  size_t n = strlen(a) + (b ? strlen(b) : 0) + strlen(fmt) + 1;
  char *s = malloc(n);
  snprintf(s, n, fmt, a, b ? b : "");
  return s;
}

/* loads the scene and creates the world of the run's mode (r->ck.lcp; LCP options in
   r->ck.lcp_def); 0 or an exit code. a resumed run (ck: its checkpoint) first makes sure the
   mesh files are still those the run read. */
static int open_world(run *r, const char *scene, const ipc_run_checkpoint *ck) {
  ipcc_error err;
  ipcc_error_clear(&err);
  if (ipcc_scene_load_any(scene, r->o.lenient ? IPCC_SCENE_LENIENT : 0, &r->def, &err) != IPCC_OK) {
    /* a run started with --lenient resumes only with it: say so when that is the cause */
    ipcc_error e2;
    int hint = ck && !r->o.lenient &&
               ipcc_scene_load_any(scene, IPCC_SCENE_LENIENT, &r->def, &e2) == IPCC_OK;
    if (hint) ipcc_scene_def_free(&r->def);
    fprintf(
        stderr, "ipcc run: %s%s\n", err.msg,
        hint ? " (the script loads with --lenient: pass --lenient to --resume as to the run)" : "");
    return 2;
  }
  if (ck && ipc_checkpoint_check_meshes(ck, &r->def, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc run: --resume: %s (scene %s); start the run anew\n", err.msg, scene);
    return 2;
  }
  if (r->ck.lcp) {
    r->mode = &ipc_run_mode_lcp;
    r->w = ipc_run_lcp_world(&r->def, r->ck.lcp_def, ck ? NULL : r->lo.dump);
    return r->w ? 0 : 2;
  }
  r->mode = &ipc_run_mode_ipc;
  r->w = ipcc_world_create(&r->def, &ipcc_strategy_ipc, NULL, &err);
  if (!r->w) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return 2;
  }
  return 0;
}

/* warns when the barrier distance exceeds half the smallest body's size: contact then acts
   across most of that body (a relative dhat refers to the whole scene's diagonal, which a pile
   of small bodies spread far apart makes large), every pair of nearby bodies is in contact and
   a step can take minutes */
static void warn_dhat(const ipcc_world *w) {
  const double *x = ipcc_world_positions(w), dhat = ipcc_world_contact_distance(w);
  double smallest = INFINITY;
  const char *name = NULL;
  for (int b = 0; b < w->m->nbodies; ++b) {
    const ipc_body *bi = &w->m->bodies[b];
    if (bi->obstacle || bi->nv == 0) continue;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = bi->v0; i < bi->v0 + bi->nv; ++i)
      for (int d = 0; d < 3; ++d) {
        lo[d] = fmin(lo[d], x[3 * (size_t)i + d]);
        hi[d] = fmax(hi[d], x[3 * (size_t)i + d]);
      }
    double diag = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                       (hi[2] - lo[2]) * (hi[2] - lo[2]));
    if (diag < smallest) {
      smallest = diag;
      name = bi->name;
    }
  }
  if (name && dhat > 0.5 * smallest)
    fprintf(stderr,
            "ipcc run: warning: the barrier distance dhat = %.3g m exceeds half of body '%s' "
            "(%.3g m across): contact acts across most of it and steps may be slow; a relative "
            "dhat refers to the whole scene's diagonal: give a smaller or an absolute one "
            "(JSON contact.dhat with contact.dhat_absolute, scripts' dHat)\n",
            dhat, name, smallest);
}

/* a new run: options from the command line over the scene's; 0 or an exit code */
static int run_open_new(run *r) {
  ipc_run_checkpoint *c = &r->ck;
  const char *scene = r->o.scene;
  int lcp = r->o.mode ? !strcmp(r->o.mode, "lcp") : r->lo.first ? 1 : ipc_run_scene_is_lcp(scene);
  if (lcp < 0) return 2;
  if (lcp) {
    ipcc_lcp_world_def ld;
    if (ipc_run_lcp_def(&r->lo, scene, &ld)) return 2;
    ipc_checkpoint_set_lcp(c, &ld);
  }
  int rc = open_world(r, scene, NULL);
  if (rc) return rc;
  if (!lcp && ipc_rank() == 0) warn_dhat(r->w);
  ipcc_error err;
  ipcc_error_clear(&err);
  /* absolute, so that --resume works from any folder */
  char cwd[4096];
  if (r->o.scene[0] != '/' && getcwd(cwd, sizeof cwd)) {
    char *abs = str_printf("%s/%s", cwd, r->o.scene);
    ipc_checkpoint_set_scene(c, abs);
    free(abs);
  } else {
    ipc_checkpoint_set_scene(c, r->o.scene);
  }
  if (ipc_file_hash(c->scene, &c->scene_hash, &err) != IPCC_OK ||
      ipc_checkpoint_hash_meshes(c, &r->def, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return 2;
  }
  if (r->o.steps < 0 && ipc_run_check_scene_steps("ipcc run", r->o.scene, &r->def) != 0) return 2;
  c->steps_total = r->o.steps >= 0 ? r->o.steps : ipcc_world_scene_steps(r->w);
  c->every = r->o.every > 0 ? r->o.every : (r->def.output_every > 0 ? r->def.output_every : 1);
  c->formats = (r->o.formats ? r->o.formats : r->def.output_formats) & IPCC_FORMAT_FRAMES;
  if (!c->formats) c->formats = IPCC_FORMAT_OBJ;
  if (r->o.write_planes || (r->def.output_formats & IPCC_FORMAT_PLANES)) {
    if (!r->w->m->nplanes) {
      fprintf(stderr, "ipcc run: %s: %s: the scene has no analytic planes (\"planes\") to write\n",
              scene, r->o.write_planes ? "--write-planes" : "output.planes");
      return 2;
    }
    c->formats |= IPCC_FORMAT_PLANES;
  }
  c->preview_every = r->o.preview_every ? r->o.preview_every : r->def.preview_every;
  c->check = r->o.check;
  c->frame = -1;
  c->sum.min_distance = INFINITY;
  c->sum.intersection_free = 1;
  c->sum.intersection_checked = c->check;
  c->sum.dhat = ipcc_world_contact_distance(r->w);
  r->outdir = r->o.outdir ? str_printf("%s%s", r->o.outdir, NULL)
                          : ipc_run_default_outdir(scene, r->mode->outdir_suffix);
  return 0;
}

/* a resumed run, its world created from the checkpoint's (unchanged) scene and meshes: the
   folder's last frame must be the one the checkpoint recorded, the saved state must load (and
   in IPC mode be intersection-free); then the point cache is cut to the checkpoint's frames
   and the temporary files of the killed run go. 0 or 2 */
static int resume_checks(run *r) {
  ipcc_error err;
  ipcc_error_clear(&err);
  ipc_run_checkpoint *c = &r->ck;
  char *frames = str_printf("%s/frames", r->outdir, NULL);
  int rc = 0;
  /* over MPI every rank restores the state; rank 0 alone checks and tidies the folder */
  int root = ipc_rank() == 0;
  if ((root && ipc_checkpoint_check_frame(c, frames, &err) != IPCC_OK) ||
      ipc_checkpoint_restore(c, r->w, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc run: --resume: %s/checkpoint.bin: %s\n", r->outdir, err.msg);
    rc = 2;
  } else if (root && (c->formats & IPCC_FORMAT_PC2) &&
             ipc_pc2_truncate(frames, c->frame + 1, &err) != IPCC_OK) {
    /* the killed run's samples after the checkpoint go: the resumed run appends its own */
    fprintf(stderr, "ipcc run: --resume: %s\n", err.msg);
    rc = 2;
  } else if (root) {
    char *preview = str_printf("%s/preview", r->outdir, NULL);
    ipc_remove_stale_tmp(r->outdir);
    ipc_remove_stale_tmp(frames);
    ipc_remove_stale_tmp(preview);
    free(preview);
  }
  free(frames);
  return rc;
}

/* a resumed run: everything from OUTDIR/checkpoint.bin; 0, -1 (nothing left to do) or an
   exit code */
static int run_open_resume(run *r) {
  ipcc_error err;
  ipcc_error_clear(&err);
  r->outdir = str_printf("%s%s", r->o.resume, NULL);
  char *path = str_printf("%s/checkpoint.bin", r->outdir, NULL);
  ipcc_status st = ipc_checkpoint_read(path, &r->ck, &err);
  free(path);
  if (st != IPCC_OK) {
    fprintf(stderr, "ipcc run: --resume: %s\n", err.msg);
    return 2;
  }
  ipc_run_checkpoint *c = &r->ck;
  uint64_t h = 0;
  if (ipc_file_hash(c->scene, &h, &err) != IPCC_OK) {
    fprintf(stderr, "ipcc run: --resume: the run's scene: %s\n", err.msg);
    return 2;
  }
  if (h != c->scene_hash) {
    fprintf(stderr, "ipcc run: --resume: %s changed since the run started; start it anew\n",
            c->scene);
    return 2;
  }
  if (r->o.steps >= 0) {
    if (r->o.steps < (long)c->nsteps) {
      fprintf(stderr, "ipcc run: --steps %ld: the run in %s has already done %zu steps\n",
              r->o.steps, r->outdir, c->nsteps);
      return 2;
    }
    ipc_checkpoint_set_total(c, r->o.steps);
  } else if (c->steps_total > IPC_RUN_MAX_STEPS) {
    fprintf(stderr, "ipcc run: --resume: %s/checkpoint.bin: %ld steps, at most %ld\n", r->outdir,
            c->steps_total, IPC_RUN_MAX_STEPS);
    return 2;
  }
  int rc = open_world(r, c->scene, c);
  if (rc) return rc;
  rc = resume_checks(r);
  if (rc) return rc;
  r->wall_before = c->sum.wall_seconds;
  if (!r->o.quiet && ipc_rank() == 0)
    fprintf(stderr, "resuming %s (%s mode) at step %zu of %ld (frame %d)\n", c->scene,
            r->mode->label, c->nsteps, c->steps_total, c->frame);
  return 0;
}

/* the wall clock interval between checkpoints by default: at least this long, and at least
   CHECKPOINT_SHARE times what the last one took, so writing them costs at most about 5% of
   a run on any disk (a killed run then recomputes at most that much) */
#define CHECKPOINT_INTERVAL 1.0
#define CHECKPOINT_SHARE 20.0

/* whether the frame just written (the run's last when last) gets a checkpoint. resuming is
   exact either way: the frames after the checkpoint are computed again, the same bytes */
static int checkpoint_due(const run *r, int last) {
  if (!r->o.checkpoint) return 0;
  if (last) return 1; /* a resumed finished run has nothing left to do */
  if (r->o.checkpoint_every > 0) return r->ck.frame % r->o.checkpoint_every == 0;
  double since = ipc_progress_now() - r->last_checkpoint;
  return since >= CHECKPOINT_INTERVAL && since >= CHECKPOINT_SHARE * r->checkpoint_cost;
}

/* frame files (and the intersection check) of the current state, then the checkpoint when
   one is due */
static int write_frame(run *r) {
  ipcc_error err;
  ipcc_error_clear(&err);
  ipc_run_checkpoint *c = &r->ck;
  if (c->frame == INT_MAX) { /* a checkpoint can claim any frame; the next would overflow */
    ipc_progress_break(&r->bar);
    fprintf(stderr, "ipcc run: frame %d: no frame numbers left\n", c->frame);
    return 2;
  }
  int frame = c->frame + 1;
  if (ipc_rank() != 0) { /* over MPI rank 0 alone writes (and checks) frames */
    c->frame = frame;
    return 0;
  }
  double t0 = ipc_progress_now();
  ipcc_status st = ipcc_world_write_frame(r->w, r->frames_dir, frame, c->formats, &err);
  if (st != IPCC_OK) {
    ipc_progress_break(&r->bar);
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    return (int)st;
  }
  if (c->check) {
    char what[256];
    c->sum.frames_checked++;
    int apart = ipcc_world_intersection_free(r->w, what, sizeof what);
    /* LCP mode allows small penetrations: only its first intersecting frame is reported */
    if (!apart && (!r->w->strategy->allows_penetration || c->sum.intersection_free)) {
      ipc_progress_break(&r->bar);
      fprintf(stderr, "ipcc run: frame %d intersects: %s\n", frame, what);
    }
    if (!apart) c->sum.intersection_free = 0;
  }
  int last = (long)c->nsteps == c->steps_total;
  if (c->preview_every > 0 && (frame % c->preview_every == 0 || last)) {
    char *png = malloc(strlen(r->preview_dir) + 32);
    sprintf(png, "%s/%06d.png", r->preview_dir, frame);
    static const unsigned char white[3] = {255, 255, 255};
    double tp = ipc_progress_now();
    ipcc_image *im = ipcc_image_create(640, 480, white);
    /* the view follows the bodies (and stays put with the scene's own camera) */
    ipcc_camera cam = ipcc_world_follow_camera(r->w);
    ipcc_render_world(im, r->w, &cam);
    ipc_image_frame_label(im, frame, ipcc_world_time(r->w));
    st = ipcc_image_write_png(im, png, &err);
    r->t_preview += ipc_progress_now() - tp;
    ipcc_image_destroy(im);
    free(png);
    if (st != IPCC_OK) {
      ipc_progress_break(&r->bar);
      fprintf(stderr, "ipcc run: %s\n", err.msg);
      return (int)st;
    }
  }
  r->t_output += ipc_progress_now() - t0;
  c->frame = frame;
  if (checkpoint_due(r, last)) {
    t0 = ipc_progress_now();
    c->sum.wall_seconds = r->wall_before + t0 - r->bar.t_start;
    /* the checkpoint records the hash of this frame, the one it was written with */
    st = ipc_checkpoint_hash_frame(c, r->frames_dir, &err);
    if (st == IPCC_OK) st = ipc_checkpoint_write_world(r->ckpt_path, c, r->w, &err);
    r->checkpoint_cost = ipc_progress_now() - t0;
    r->last_checkpoint = t0;
    r->t_checkpoint += r->checkpoint_cost;
    r->checkpoints++;
    if (st != IPCC_OK) {
      ipc_progress_break(&r->bar);
      fprintf(stderr, "ipcc run: %s\n", err.msg);
      return (int)st;
    }
  }
  return 0;
}

/* one step: its record appended to c and summed into c->sum (the counters of both modes
   here, the mode's own by r->mode->fold); 0, 1 when the step failed, 2 when memory ran out
   or input read during the step was bad (err says which) */
static int step(run *r, long *iterations, int *contacts, ipcc_error *err) {
  ipc_run_checkpoint *c = &r->ck;
  ipc_run_summary *sum = &c->sum;
  long k = (long)c->nsteps;
  /* the records grow as steps run; out of memory is a clean error, not an abort */
  void *rec = ipc_checkpoint_next_record(c);
  if (!rec) {
    ipc_error_set(err, IPCC_ERR_INPUT, "out of memory for the statistics of step %ld", k + 1);
    return 2;
  }
  ipcc_status s = ipcc_world_step(r->w, rec, err);
  c->nsteps++;
  sum->steps = (int)c->nsteps;
  ipc_run_step_view v;
  s = r->mode->fold(sum, rec, &v, s, err);
  if (v.contacts_peak > sum->contacts_max) sum->contacts_max = v.contacts_peak;
  if (v.min_distance < sum->min_distance) sum->min_distance = v.min_distance;
  *iterations = v.iterations;
  *contacts = v.contacts;
  /* a step failing on input read per step (a mesh sequence's frame) is bad input */
  return s == IPCC_OK ? 0 : s == IPCC_ERR_INPUT ? 2 : 1;
}

/* over MPI (linalg/mpi_run.h): every rank takes rank 0's exit code (a frame it could not
   write stops all), and the ranks' positions must be the same bits (they run the same
   deterministic steps on the same gathered solutions); nothing without MPI */
static int run_agree(run *r, int rc) {
  if (ipc_rank_count() <= 1) return rc;
  int same = 1;
  const double *x = r->w ? ipcc_world_positions(r->w) : NULL;
  size_t n = r->w ? 3 * (size_t)ipcc_world_vertex_count(r->w) : 0;
  rc = ipc_mpi_agree(rc, x, n, &same);
  if (!same) {
    ipc_progress_break(&r->bar);
    fprintf(stderr,
            "ipcc run: rank %d: after step %zu the %d MPI ranks hold different positions "
            "(they should run identical steps: the same ipcc build and --threads on every "
            "rank?)\n",
            ipc_rank(), r->ck.nsteps, ipc_rank_count());
    if (!rc) rc = 1;
  }
  return rc;
}

/* 0, or 2 when the run's mode or linear solver cannot run on the MPI ranks there are (the
   Newton systems are what the ranks share: LCP mode and CHOLMOD would run N identical copies) */
static int mpi_supported(const run *r) {
  int n = ipc_rank_count();
  if (n <= 1) return 0;
  const char *why = NULL;
  ipcc_linear_solver_kind kind = ipc_linear_solver_pick(r->def.linear_solver);
  if (r->ck.lcp)
    why = "LCP mode runs on one process";
  else if (kind == IPCC_LINEAR_SOLVER_CHOLMOD)
    why =
        "the linear solver \"cholmod\" runs on one process: give --linear-solver petsc-mumps "
        "or petsc-cg-gamg (or newton.linear_solver)";
  if (!why) return 0;
  if (ipc_rank() == 0)
    fprintf(stderr, "ipcc run: started on %d MPI ranks, but %s (README, Beyond one machine)\n", n,
            why);
  return 2;
}

/* steps until the total; 0, or 1 when a step failed, 2 when output failed */
static int run_steps(run *r) {
  ipc_run_checkpoint *c = &r->ck;
  if (c->frame < 0) { /* frame 0: the initial state */
    int rc = run_agree(r, write_frame(r));
    if (rc) return rc;
  }
  while ((long)c->nsteps < c->steps_total) {
    ipcc_error err;
    ipcc_error_clear(&err);
    long k = (long)c->nsteps, iterations = 0;
    int contacts = 0;
    int rc = step(r, &iterations, &contacts, &err);
    if (rc) {
      ipc_progress_break(&r->bar);
      fprintf(stderr, "ipcc run: %s\n", err.msg);
      return rc;
    }
    if ((k + 1) % c->every == 0 || k + 1 == c->steps_total) rc = write_frame(r);
    rc = run_agree(r, rc);
    if (rc) return rc;
    ipc_progress_update(&r->bar, k + 1, ipcc_world_time(r->w), iterations, contacts);
  }
  return 0;
}

static const char *format_names(unsigned f, char *buf, size_t n) {
  snprintf(buf, n, "%s%s%s", f & IPCC_FORMAT_OBJ ? " obj" : "", f & IPCC_FORMAT_PLY ? " ply" : "",
           f & IPCC_FORMAT_VTU ? " vtu" : "");
  return buf[0] ? buf + 1 : buf;
}

/* IPC mode's part of the summary: the exact check and the steps whose scripts were not met */
static void ipc_summary(const ipc_run_checkpoint *c) {
  const ipc_run_summary *sum = &c->sum;
  if (c->check) printf(", %s", sum->intersection_free ? "intersection-free" : "INTERSECTING");
  if (sum->dirichlet_unmet_steps)
    printf(
        "\nscript not followed in %d steps: scripted vertices stopped short of their targets "
        "(dirichlet_unmet in stats.json)",
        sum->dirichlet_unmet_steps);
  printf("\n");
}

/* IPC mode's counters of one step (ipcc_step_stats); a step whose energy is not finite
   failed */
static ipcc_status ipc_fold(ipc_run_summary *sum, const void *record, ipc_run_step_view *v,
                            ipcc_status s, ipcc_error *err) {
  const ipcc_step_stats *st = record;
  sum->newton_iterations += st->newton_iterations;
  sum->newton_capped_steps += st->newton_capped;
  if (st->dirichlet_unmet) sum->dirichlet_unmet_steps++;
  *v = (ipc_run_step_view){st->newton_iterations, st->contacts, st->contacts_max, st->min_distance};
  if (s == IPCC_OK && !isfinite(st->energy))
    s = ipc_error_set(err, IPCC_ERR_SIM,
                      "step %d: the energy is not finite (%g): the simulation diverged "
                      "(gravity, loads or material out of range?)",
                      st->step, st->energy);
  return s;
}

const ipc_run_mode ipc_run_mode_ipc = {
    .label = "IPC",
    .outdir_suffix = "",
    .first_line =
        "%d steps in %.2f s (%.3f s/step, %.2f Newton iterations/step), min distance "
        "%.3g",
    .iterations = offsetof(ipc_run_summary, newton_iterations),
    .stats = &ipc_stats_layout_ipc,
    .fold = ipc_fold,
    .summary = ipc_summary,
};

/* stats.json and the closing summary; returns rc, or 2 if stats.json failed */
static int run_finish(run *r, int rc) {
  ipc_run_checkpoint *c = &r->ck;
  ipc_run_summary *sum = &c->sum;
  sum->mode = r->w->strategy->name;
  sum->scene = c->scene;
  const ipc_model *m = r->w->m;
  int np = m->nplanes;
  double *planes = malloc(sizeof(double) * (6 * (size_t)np + 1));
  for (int k = 0; k < np; ++k)
    for (int d = 0; d < 3; ++d) {
      planes[6 * k + d] = m->planes[k].point[d];
      planes[6 * k + 3 + d] = m->planes[k].normal[d];
    }
  sum->nplanes = np;
  sum->planes = planes;
  sum->time_step = r->def.time_step;
  sum->every = c->every;
  sum->wall_seconds = r->wall_before + ipc_progress_now() - r->bar.t_start;
  ipc_progress_break(&r->bar);
  char *stats = str_printf("%s/stats.json", r->outdir, NULL);
  ipcc_error err;
  ipcc_error_clear(&err);
  int root = ipc_rank() == 0; /* over MPI rank 0 alone writes and prints */
  const void *records = c->lcp ? (const void *)c->lcp_steps : (const void *)c->steps;
  ipcc_status sst = !root ? IPCC_OK
                          : ipc_write_stats_json(stats, sum, r->mode->stats, records, c->nsteps,
                                                 c->lcp_def, &err);
  if (sst != IPCC_OK) {
    fprintf(stderr, "ipcc run: %s\n", err.msg);
    if (!rc) rc = (int)sst;
  }
  if (!r->o.quiet && root) {
    char fmts[32];
    int n = sum->steps;
    long iterations;
    memcpy(&iterations, (const char *)sum + r->mode->iterations, sizeof iterations);
    printf(r->mode->first_line, n, sum->wall_seconds, n ? sum->wall_seconds / n : 0.0,
           n ? (double)iterations / n : 0.0, sum->min_distance);
    r->mode->summary(c);
    if (c->formats & (IPCC_FORMAT_FRAMES & ~(unsigned)IPCC_FORMAT_PC2))
      printf("frames: %s/NNNNNN.{%s} (%d), ", r->frames_dir,
             format_names(c->formats, fmts, sizeof fmts), c->frame + 1);
    if (c->formats & IPCC_FORMAT_PC2)
      printf("point cache: %s/%s (%d frames, rest shape %s), ", r->frames_dir, IPC_PC2_CACHE,
             c->frame + 1, IPC_PC2_REST);
    if (c->formats & IPCC_FORMAT_PLANES) printf("planes: %s/%s, ", r->frames_dir, IPC_PLANES_FILE);
    printf("statistics: %s\n", stats);
    if (c->preview_every > 0) printf("previews: %s/NNNNNN.png\n", r->preview_dir);
    printf("writing: frames %.2f s", r->t_output - r->t_preview);
    if (c->preview_every > 0) printf(", previews %.2f s", r->t_preview);
    if (r->checkpoints)
      printf(", %d checkpoint%s %.2f s (%.1f ms each)", r->checkpoints,
             r->checkpoints == 1 ? "" : "s", r->t_checkpoint,
             1e3 * r->t_checkpoint / r->checkpoints);
    printf("\n");
    if (rc && (r->checkpoints > 0 || r->o.resume))
      printf("continue with: ipcc run --resume %s\n", r->outdir);
  }
  free(stats);
  free(planes);
  sum->planes = NULL;
  /* LCP mode allows small penetrations: --check records them without failing the run */
  if (c->check && !sum->intersection_free && !rc && !r->w->strategy->allows_penetration) rc = 1;
  return rc;
}

int ipc_cmd_run(int argc, char **argv) {
  run r;
  memset(&r, 0, sizeof r);
  int rc = parse_args(&r.o, &r.lo, argc, argv);
  if (rc >= 0) return rc;
  /* the folder is locked before anything reads or writes there (outdir.h), a new run's
     once its scene loaded: bad input creates no folder */
  ipc_outdir_lock lock = {.fd = -1}; /* none held */
  /* over MPI (linalg/mpi_run.h) rank 0 alone locks, claims and fills the folder; the others
     read the scene and the checkpoint, and every rank learns rank 0's failures (run_agree) */
  int root = ipc_rank() == 0;
  rc = r.o.resume && root ? ipc_outdir_lock_take(&lock, "ipcc run", r.o.resume, 0) : 0;
  rc = run_agree(&r, rc);
  if (rc == 0) rc = r.o.resume ? run_open_resume(&r) : run_open_new(&r);
  if (rc == 0) rc = mpi_supported(&r);
  if (rc == 0 && !r.o.resume && root) rc = ipc_outdir_lock_take(&lock, "ipcc run", r.outdir, 1);
  /* after the scene loaded: bad input never clears an earlier run */
  if (rc == 0 && !r.o.resume && root) rc = ipc_outdir_claim("ipcc run", r.outdir, r.o.overwrite);
  rc = run_agree(&r, rc);
  if (rc == 0) {
    ipcc_error err;
    ipcc_error_clear(&err);
    r.frames_dir = str_printf("%s/frames", r.outdir, NULL);
    r.ckpt_path = str_printf("%s/checkpoint.bin", r.outdir, NULL);
    r.preview_dir = str_printf("%s/preview", r.outdir, NULL);
    if (root && (ipc_output_prepare(r.frames_dir, &err) != IPCC_OK ||
                 (r.ck.preview_every > 0 && ipc_output_prepare(r.preview_dir, &err) != IPCC_OK))) {
      fprintf(stderr, "ipcc run: %s\n", err.msg);
      rc = 2;
    }
    rc = run_agree(&r, rc);
  }
  if (rc == 0) {
    ipc_progress_begin(&r.bar, !r.o.quiet && root && isatty(fileno(stderr)), (long)r.ck.nsteps,
                       r.ck.steps_total);
    r.last_checkpoint = r.bar.t_start;
    if (r.ck.lcp) r.bar.solver = "lcp";
    rc = run_steps(&r);
    rc = run_finish(&r, rc);
    /* a debug statistic: the work each MPI rank did (linalg/mpi_run.h), one line per rank */
    const char *ws = getenv("IPCC_WORK_STATS");
    if (ws && *ws && strcmp(ws, "0") != 0) ipc_mpi_work_report(stderr);
  }
  ipc_outdir_lock_release(&lock);
  ipc_checkpoint_free(&r.ck);
  free(r.outdir);
  free(r.frames_dir);
  free(r.ckpt_path);
  free(r.preview_dir);
  ipcc_world_destroy(r.w);
  ipcc_scene_def_free(&r.def);
  return rc;
}
