#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>

static void out_of_memory(size_t bytes) {
  fprintf(stderr, "ipcc: out of memory (requested %zu bytes)\n", bytes);
  abort();
}

void *ipc_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) out_of_memory(bytes);
  return p;
}

void *ipc_calloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) out_of_memory(count * size);
  return p;
}

void *ipc_realloc(void *p, size_t bytes) {
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q) out_of_memory(bytes);
  return q;
}

void ipc_free(void *p) {
  free(p);
}

void ipc_reserve(void **buf, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return;
  size_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  *buf = ipc_realloc(*buf, c * elem);
  *cap = c;
}

void ipc_shrink(void **buf, size_t *cap, size_t need, size_t elem) {
  if (*cap / 8 <= need || *cap * elem <= ((size_t)16 << 20)) return;
  size_t c = 2 * need > 16 ? 2 * need : 16;
  *buf = ipc_realloc(*buf, c * elem);
  *cap = c;
}
