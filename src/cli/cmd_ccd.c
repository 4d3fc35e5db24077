#include <stdio.h>

#include "cli/commands.h"

int ipc_cmd_ccd(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("ipcc ccd: not implemented yet\n", stderr);
  return 1;
}
