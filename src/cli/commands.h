/* the ipcc sub-commands; each takes argc/argv after the sub-command name and
   returns the process exit code (0 ok, 1 simulation failed, 2 bad input) */
#ifndef IPCC_CLI_COMMANDS_H
#define IPCC_CLI_COMMANDS_H

int ipc_cmd_run(int argc, char **argv);
int ipc_cmd_ccd(int argc, char **argv);
int ipc_cmd_check(int argc, char **argv);
int ipc_cmd_lcp(int argc, char **argv);
/* ipcc compare SCENE [-o DIR] [--steps N] [--overwrite]: both modes, side-by-side table; exit code
 * as run */
int ipc_cmd_compare(int argc, char **argv);
int ipc_cmd_plot(int argc, char **argv);
/* ipcc render RUNDIR [--scene S] [--every N] [--frame K]... [-o DIR] [--size WxH]: PNG
   previews of a run's frames */
int ipc_cmd_render(int argc, char **argv);
/* whether name is one of the PNG files ipc_cmd_plot writes into OUTDIR/plots */
int ipc_plot_is_output(const char *name);
/* ipcc fclib FILE [--tol T] [--max-iter N]: solves an FCLIB frictional-contact problem */
int ipc_cmd_fclib(int argc, char **argv);

#endif
