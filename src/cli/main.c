/* ipcc command-line front: dispatches to the sub-commands in cmd_*.c */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "ipcc/ipcc.h"
#include "linalg/mpi_run.h"

static void usage(FILE *f) {
  fputs(
      "usage: ipcc COMMAND [ARGS]\n"
      "\n"
      "commands:\n"
      "  run SCENE [-o OUTDIR] [--steps N] [--mode ipc|lcp] [--format obj,ply,vtu]\n"
      "            [--preview] [--check] [--quiet] [--overwrite] ...\n"
      "                         simulate a JSON scene or an IPC .txt script; frames in\n"
      "                         OUTDIR/frames, PNG previews in OUTDIR/preview, stats.json\n"
      "                         (OUTDIR must hold no earlier run, unless --overwrite;\n"
      "                         ipcc run -h for every option)\n"
      "  run --resume OUTDIR    continue an interrupted run from its checkpoint\n"
      "  mpirun -np N ipcc run SCENE --linear-solver petsc-mumps|petsc-cg-gamg\n"
      "                         one run over N MPI ranks (README, Beyond one machine)\n"
      "  check PATH             exact intersection check of every frame (run folder,\n"
      "                         folder of meshes, or one mesh: .obj, .ply, .vtu, .msh, .ele);\n"
      "                         exit 0 only if none intersect\n"
      "  render RUNDIR          PNG previews of a run's frames into RUNDIR/preview\n"
      "                         (ipcc render -h for options)\n"
      "  compare SCENE [-o DIR] [--steps N] [--overwrite]\n"
      "                         the scene in IPC and LCP mode; side-by-side table\n"
      "  ccd PATH... [--json]   run CCD on benchmark query files or folders\n"
      "  lcp M.mtx q.mtx [-o z.mtx] [--solver S]  solve one LCP (ipcc lcp -h for options)\n"
      "  fclib FILE.hdf5 [--tol T] [--max-iter N]  solve an FCLIB frictional-contact problem\n"
      "  plot OUTDIR            PNG plots of a run's stats.json into OUTDIR/plots\n"
      "  version                print the version\n"
      "  help                   this text; ipcc COMMAND -h for a command's options\n"
      "\n"
      "exit codes: 0 success, 1 simulation failed (check: an intersection), 2 bad input\n",
      f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "run")) {
    /* under mpirun (or srun) with several processes, one run over all of them
       (linalg/mpi_run.h); without a launcher nothing changes */
    ipcc_error err;
    ipcc_error_clear(&err);
    if (ipc_mpi_start(&err)) {
      fprintf(stderr, "ipcc run: %s\n", err.msg);
      return 2;
    }
    return ipc_cmd_run(argc - 2, argv + 2);
  }
  if (!strcmp(cmd, "ccd")) return ipc_cmd_ccd(argc - 2, argv + 2);
  if (!strcmp(cmd, "check")) return ipc_cmd_check(argc - 2, argv + 2);
  if (!strcmp(cmd, "lcp")) return ipc_cmd_lcp(argc - 2, argv + 2);
  if (!strcmp(cmd, "fclib")) return ipc_cmd_fclib(argc - 2, argv + 2);
  if (!strcmp(cmd, "plot")) return ipc_cmd_plot(argc - 2, argv + 2);
  if (!strcmp(cmd, "render")) return ipc_cmd_render(argc - 2, argv + 2);
  if (!strcmp(cmd, "compare")) return ipc_cmd_compare(argc - 2, argv + 2);
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
    printf("ipcc %s\n", IPCC_VERSION_STRING);
    return 0;
  }
  if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "ipcc: unknown command '%s'\n", cmd);
  usage(stderr);
  return 2;
}
