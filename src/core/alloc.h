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

#define IPC_NEW(type, n) ((type *)ipc_malloc(sizeof(type) * (size_t)(n)))
#define IPC_NEW0(type, n) ((type *)ipc_calloc((size_t)(n), sizeof(type)))

#endif
