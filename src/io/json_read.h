/* strict JSON for the scene readers (internal to src/io) */
#ifndef IPCC_IO_JSON_READ_H
#define IPCC_IO_JSON_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "ipcc/error.h"

/* parses text (len bytes, text[len] == '\0') of the file path as one JSON object: anything
   but blanks after it, a key twice in one object, nesting deeper than cJSON's limit or a
   top level that is not an object are errors. NULL + err naming the file (and the line, or
   the key path such as bodies[0].mesh) otherwise; cJSON_Delete the result */
cJSON *ipc_json_parse_object(const char *path, const char *text, size_t len, ipcc_error *err);

#endif
