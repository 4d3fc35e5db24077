#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

ipc_status ipc_error_set(ipc_error *err, ipc_status status, const char *fmt, ...) {
  if (err) {
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return status;
}

void ipc_error_clear(ipc_error *err) {
  if (err) {
    err->status = IPC_OK;
    err->msg[0] = '\0';
  }
}
