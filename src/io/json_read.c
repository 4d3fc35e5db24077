/* strict JSON documents on cJSON: cJSON alone accepts text after the value, keeps the
   first of two equal keys (our lookups), and reports too deep nesting as a syntax error */
#include "io/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* 1-based line of the byte offset in text */
static int line_of(const char *text, size_t off) {
  int line = 1;
  for (size_t i = 0; i < off; ++i)
    if (text[i] == '\n') ++line;
  return line;
}

/* arrays and objects open at byte off (strings skipped) */
static int depth_at(const char *text, size_t off) {
  int depth = 0, in_string = 0;
  for (size_t i = 0; i < off; ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = 0;
    } else if (c == '"') {
      in_string = 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return depth;
}

static const char *kind_of(const cJSON *v) {
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsBool(v)) return "true or false";
  return "null";
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* a key present twice among the members of obj, or NULL (sorted: O(k log k)) */
static const char *repeated_key(const cJSON *obj) {
  size_t n = 0;
  for (const cJSON *it = obj->child; it; it = it->next) ++n;
  if (n < 2) return NULL;
  const char **names = IPC_NEW(const char *, n);
  n = 0;
  for (const cJSON *it = obj->child; it; it = it->next) names[n++] = it->string;
  qsort(names, n, sizeof *names, by_name);
  const char *dup = NULL;
  for (size_t i = 1; i < n && !dup; ++i)
    if (!strcmp(names[i - 1], names[i])) dup = names[i];
  ipc_free(names);
  return dup;
}

/* the key path (bodies[0].mesh) of the first repeated key under v into path; 0 if none */
static int find_repeated(const cJSON *v, char *path, size_t cap) {
  size_t len = strlen(path);
  if (cJSON_IsObject(v)) {
    const char *dup = repeated_key(v);
    if (dup) {
      snprintf(path + len, cap - len, "%s%s", len ? "." : "", dup);
      return 1;
    }
    for (const cJSON *it = v->child; it; it = it->next) {
      snprintf(path + len, cap - len, "%s%s", len ? "." : "", it->string);
      if (find_repeated(it, path, cap)) return 1;
    }
  } else if (cJSON_IsArray(v)) {
    int i = 0;
    for (const cJSON *it = v->child; it; it = it->next, ++i) {
      snprintf(path + len, cap - len, "[%d]", i);
      if (find_repeated(it, path, cap)) return 1;
    }
  }
  path[len] = '\0';
  return 0;
}

static int blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

cJSON *ipc_json_parse_object(const char *path, const char *text, size_t len, ipcc_error *err) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  size_t off = end ? (size_t)(end - text) : 0;
  if (!root) {
    if (depth_at(text, off) >= CJSON_NESTING_LIMIT)
      ipc_error_set(err, IPCC_ERR_INPUT,
                    "%s:%d: JSON nested too deeply (more than %d arrays and objects inside "
                    "each other)",
                    path, line_of(text, off), CJSON_NESTING_LIMIT);
    else
      ipc_error_set(err, IPCC_ERR_INPUT, "%s:%d: not valid JSON (near byte %zu)", path,
                    line_of(text, off), off);
    return NULL;
  }
  /* the check is ours rather than require_null_terminated's so that the message can say
     where the extra text starts (a NUL byte counts as extra text too) */
  while (off < len && blank(text[off])) ++off;
  if (off < len) {
    ipc_error_set(err, IPCC_ERR_INPUT,
                  "%s:%d: unexpected text after the JSON object (near byte %zu), expected the "
                  "end of the file",
                  path, line_of(text, off), off);
    cJSON_Delete(root);
    return NULL;
  }
  if (!cJSON_IsObject(root)) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: the scene must be a JSON object ({...}), found %s",
                  path, kind_of(root));
    cJSON_Delete(root);
    return NULL;
  }
  char key[512] = "";
  if (find_repeated(root, key, sizeof key)) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: key '%s' appears twice, expected each key once", path,
                  key);
    cJSON_Delete(root);
    return NULL;
  }
  return root;
}
