/* the CCD benchmark query files (tests/data/ccd-queries, or the full set in ../shared/data,
   read with src/io/ccd_queries.c) for test_ccd.c and bench/bench_ccd.c: every .csv file below
   a folder, in a fixed order */
#ifndef IPCC_TESTS_CCD_QUERY_FILES_H
#define IPCC_TESTS_CCD_QUERY_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"

static int ccd_query_cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* calls fn(path, ctx) for every file ending in .csv below dir, descending into sub-folders,
   names sorted within each folder (so the order does not depend on the file system);
   returns the number of folders that could not be opened (0 when all were read) */
static int ccd_query_files_walk(const char *dir, void (*fn)(const char *path, void *ctx),
                                void *ctx) {
  DIR *d = opendir(dir);
  if (!d) return 1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (ent->d_name[0] == '.') continue;
    ipc_reserve((void **)&names, &cap, n + 1, sizeof(char *));
    size_t len = strlen(dir) + strlen(ent->d_name) + 2;
    names[n] = IPC_NEW(char, len);
    snprintf(names[n++], len, "%s/%s", dir, ent->d_name);
  }
  closedir(d);
  if (n > 1) qsort(names, n, sizeof(char *), ccd_query_cmp_str);
  int failed = 0;
  for (size_t i = 0; i < n; ++i) {
    struct stat st;
    size_t len = strlen(names[i]);
    if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
      failed += ccd_query_files_walk(names[i], fn, ctx);
    else if (len > 4 && !strcmp(names[i] + len - 4, ".csv"))
      fn(names[i], ctx);
    ipc_free(names[i]);
  }
  ipc_free(names);
  return failed;
}

#endif
