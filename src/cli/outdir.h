/* what ipcc writes into a run's output folder, and how a new run claims the folder: a run
   never mixes its frames and statistics with an earlier run's (`ipcc check` would check
   both), so a folder holding one is refused unless --overwrite clears it first */
#ifndef IPCC_CLI_OUTDIR_H
#define IPCC_CLI_OUTDIR_H

/* which file names of a folder are ipcc's own (a temporary "NAME.tmp.PID" counts as NAME) */
typedef int (*ipc_outdir_ours)(const char *name);

/* the first file of folder dir that ours accepts, as "dir/name" (ipc_free it); NULL if none (or
   no such folder) */
char *ipc_outdir_find(const char *dir, ipc_outdir_ours ours);

/* removes the files of folder dir that ours accepts, nothing else: 0, or 2 with a message
   (cmd, e.g. "ipcc run", first) naming a file that could not be removed */
int ipc_outdir_remove(const char *cmd, const char *dir, ipc_outdir_ours ours);

/* the first output of an earlier run or plot in dir (frame, preview or plot files,
   stats.json, checkpoint.bin), as a path (ipc_free it); NULL when there is none */
char *ipc_outdir_earlier_run(const char *dir);

/* the message that dir holds an earlier run (found, from ipc_outdir_earlier_run, is freed):
   returns 2 */
int ipc_outdir_refuse(const char *cmd, const char *dir, char *found);

/* a new run's claim on dir: 0 when it holds no earlier run. Otherwise, without overwrite,
   ipc_outdir_refuse; with overwrite, removes the earlier run's outputs (the files that
   ipc_outdir_earlier_run looks for, their temporary files, then frames/, preview/ and
   plots/ if left empty) and returns 0, or 2 naming a file that could not be removed */
int ipc_outdir_claim(const char *cmd, const char *dir, int overwrite);

/* a writer's exclusive lock on an output folder: flock(2) on the folder's file .ipcc.lock,
   which holds the writer's pid and command ("1234 ipcc run") for the message a second
   writer gets. ipcc's listings never see it: a dot file, not a frame, preview, plot or run
   file, so it is no earlier run and --overwrite leaves it; it goes when the writer is done.
   The kernel releases a flock when its process exits, however it exits: a crashed or killed
   run leaves no locked folder (its .ipcc.lock stays, stale, and the next writer takes it
   over). flock is not POSIX; Linux has it on every local file system and emulates it on NFS;
   where a file system refuses it, the run goes on without a lock, with a warning. */
typedef struct ipc_outdir_lock {
  int fd;     /* the locked .ipcc.lock, -1 when none is held */
  char *path; /* its path */
  char *made; /* dir, when ipc_outdir_lock_take created it; else NULL */
} ipc_outdir_lock;

/* takes the lock of folder dir before anything looks into it or writes there (the
   earlier-run check included), for the whole run; with create, makes dir first (a new run;
   a resumed run's folder must exist). 0 (held, or nothing to lock: no such folder without
   create, or one ipcc cannot write, which the run's own writes report; a file system
   without flock gets a warning and no lock), or 2 when another process holds it: the
   message (cmd first) names dir and that process. ipc_outdir_lock_release releases it */
int ipc_outdir_lock_take(ipc_outdir_lock *lk, const char *cmd, const char *dir, int create);

/* releases the lock (if held) and removes .ipcc.lock, and the folder if the lock created
   it and it stayed empty (a run that failed first) */
void ipc_outdir_lock_release(ipc_outdir_lock *lk);

/* removes the trailing slashes of a folder given on the command line ("out/" -> "out", "/"
   stays), so that the paths ipcc prints and builds ("out/frames") never double them */
char *ipc_path_trim(char *dir);

#endif
