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

/* removes the trailing slashes of a folder given on the command line ("out/" -> "out", "/"
   stays), so that the paths ipcc prints and builds ("out/frames") never double them */
char *ipc_path_trim(char *dir);

#endif
