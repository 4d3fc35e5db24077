/* options shared by the two modes of `ipcc run` (run_args.h) */
#include "cli/run_args.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/ipcc.h"

void ipc_run_args_init(ipc_run_args *o) {
  memset(o, 0, sizeof *o);
  o->steps = -1;
}

int ipc_run_parse_count(const char *opt, const char *val, long lo, long *out) {
  char *end;
  long v = strtol(val, &end, 10);
  if (!val[0] || *end || v < lo || v > INT_MAX) {
    fprintf(stderr, "ipcc run: %s: expected a %s integer, got '%s'\n", opt,
            lo > 0 ? "positive" : "non-negative", val);
    return 2;
  }
  *out = v;
  return 0;
}

int ipc_run_args_common(ipc_run_args *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
    o->quiet = 1;
    return 1;
  }
  if (!strcmp(a, "--check")) {
    o->check = 1;
    return 1;
  }
  int out = !strcmp(a, "-o") || !strcmp(a, "--out");
  int steps = !strcmp(a, "--steps"), threads = !strcmp(a, "--threads");
  if (!out && !steps && !threads) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "ipcc run: %s: expected a value\n", a);
    return 2;
  }
  const char *val = argv[++*i];
  if (out) {
    o->outdir = val;
  } else if (steps) {
    if (ipc_run_parse_count(a, val, 0, &o->steps)) return 2;
  } else {
    long n = 0;
    if (ipc_run_parse_count(a, val, 1, &n)) return 2;
    ipc_set_threads((int)n);
  }
  return 1;
}

int ipc_run_args_positional(ipc_run_args *o, int argc, char **argv, int i) {
  const char *a = argv[i];
  if (a[0] == '-' || o->scene) {
    fprintf(stderr, "ipcc run: unexpected argument '%s'%s\n", a,
            a[0] == '-' && i + 1 >= argc ? " (or its value is missing)" : "");
    return 2;
  }
  o->scene = a;
  return 0;
}

char *ipc_run_default_outdir(const char *scene, const char *suffix) {
  const char *b = strrchr(scene, '/');
  b = b ? b + 1 : scene;
  size_t n = strlen("out/") + strlen(b) + strlen(suffix) + 1;
  char *out = malloc(n);
  snprintf(out, n, "out/%s", b);
  char *dot = strrchr(out, '.');
  if (dot && dot > out + 4) *dot = '\0';
  strcat(out, suffix);
  return out;
}
