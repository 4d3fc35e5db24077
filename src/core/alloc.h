/* the one allocation path: aborts with a message when memory runs out */
#ifndef IPCC_CORE_ALLOC_H
#define IPCC_CORE_ALLOC_H

#include <stddef.h>

void *ipc_malloc(size_t bytes);
void *ipc_calloc(size_t count, size_t size);
void *ipc_realloc(void *p, size_t bytes);
void ipc_free(void *p);

/* grows *buf (element size elem) so it holds at least need elements; *cap updated */
void ipc_reserve(void **buf, size_t *cap, size_t need, size_t elem);

/* gives back the memory of a buffer grown for a spike: when it holds over 8 times `need`
   elements and over 16 MiB, reallocates it to 2 * need elements (at least 16), keeping the
   first `need`. Buffers reused from one Newton iteration to the next keep no more than a
   few times what the current iterations use. */
void ipc_shrink(void **buf, size_t *cap, size_t need, size_t elem);

#define IPC_NEW(type, n) ((type *)ipc_malloc(sizeof(type) * (size_t)(n)))
#define IPC_NEW0(type, n) ((type *)ipc_calloc((size_t)(n), sizeof(type)))

#endif
