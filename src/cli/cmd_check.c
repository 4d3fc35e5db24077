#include <stdio.h>

#include "cli/commands.h"

int ipc_cmd_check(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("ipcc check: not implemented yet\n", stderr);
  return 1;
}
