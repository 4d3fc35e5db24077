/* filling an ipcc_error inside ipcc: library code reports failures with ipc_error_set; users
   of the library read errors (ipcc/error.h) and do not set them, so it is not exported */
#ifndef IPCC_CORE_ERROR_H
#define IPCC_CORE_ERROR_H

#include "ipcc/error.h"

/* sets err (may be NULL) and returns status */
ipcc_status ipc_error_set(ipcc_error *err, ipcc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
