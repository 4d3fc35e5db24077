#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

ipcc_status ipc_error_set(ipcc_error *err, ipcc_status status, const char *fmt, ...) {
  if (err) {
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return status;
}

void ipcc_error_clear(ipcc_error *err) {
  if (err) {
    err->status = IPCC_OK;
    err->msg[0] = '\0';
  }
}
