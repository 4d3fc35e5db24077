/* mesh paths of .txt scripts, resolved as IPC resolves them: against the script's folder,
   then each parent folder (IPC's repository root holds input/); a missing .seg or .pt is
   read from the .obj beside it */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "io/path.h"
#include "io/scene_txt_internal.h"

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int ipc_txt_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

/* dir/rel if it exists, walking dir up to the root (IPC resolves against the folder that
   holds input/); NULL if not found anywhere */
char *ipc_txt_find_up(const char *dir, const char *rel) {
  if (rel[0] == '/') return file_exists(rel) ? ipc_txt_dup_str(rel) : NULL;
  char *d = ipc_txt_dup_str(dir);
  for (int pass = 0; pass < 2; ++pass) {
    for (;;) {
      char *c = ipc_path_join(d, rel);
      if (file_exists(c)) {
        ipc_free(d);
        return c;
      }
      ipc_free(c);
      const char *base = strrchr(d, '/');
      base = base ? base + 1 : d;
      if (!d[0] || !strcmp(d, "/") || !strcmp(base, "..") || !strcmp(base, ".")) break;
      char *up = ipc_path_dirname(d);
      ipc_free(d);
      d = up;
      if (!d[0] && pass == 1) break;
    }
    if (pass == 0) { /* lexical walk stopped at "..": continue from the real path */
      char real[PATH_MAX];
      ipc_free(d);
      if (!realpath(dir[0] ? dir : ".", real)) return NULL;
      d = ipc_txt_dup_str(real);
    }
  }
  ipc_free(d);
  return NULL;
}

/* with its extension replaced (ext includes the dot) */
static char *swap_ext(const char *path, const char *ext) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  char *o = IPC_NEW(char, n + strlen(ext) + 1);
  memcpy(o, path, n);
  strcpy(o + n, ext);
  return o;
}

/* resolves a shape's mesh path: kind by extension, IPC's .seg/.pt fallbacks to the .obj */
int ipc_txt_resolve_mesh(txt *p, int line, const char *kw, const char *rel, txt_shape *s) {
  s->codim = 0;
  const char *dot = strrchr(rel, '.'), *slash = strrchr(rel, '/');
  const char *ext = dot && (!slash || dot > slash) ? dot : "";
  char *want = ipc_txt_dup_str(rel);
  if (!strcmp(ext, ".msh") || !strcmp(ext, ".ele")) {
    s->kind = KIND_TET;
  } else if (!ext[0] || !strcmp(ext, ".node")) {
    s->kind = KIND_TET;
    ipc_free(want);
    want = ext[0] ? ipc_txt_dup_str(rel) : swap_ext(rel, ".node");
  } else if (!strcmp(ext, ".obj")) {
    s->kind = KIND_TRI;
  } else if (!strcmp(ext, ".seg")) {
    s->kind = KIND_SEG;
  } else if (!strcmp(ext, ".pt")) {
    s->kind = KIND_PT;
  } else {
    ipc_free(want);
    return ipc_txt_bad(p, line,
                       "keyword '%s': mesh '%s': unknown format '%s' (expected .msh, .ele, "
                       ".obj, .seg or .pt)",
                       kw, rel, ext);
  }
  char *found = ipc_txt_find_up(p->dir, want);
  if (!found && (s->kind == KIND_SEG || s->kind == KIND_PT)) {
    /* IPC: a missing .seg/.pt is read from the .obj of the same name */
    char *obj = swap_ext(rel, ".obj");
    found = ipc_txt_find_up(p->dir, obj);
    ipc_free(obj);
    if (found) s->codim = s->kind == KIND_SEG ? 1 : 2;
  } else if (found && s->kind == KIND_PT) {
    ipc_free(found);
    ipc_free(want);
    return ipc_txt_bad(p, line,
                       "keyword '%s': reading point files (%s) is not supported; IPC's "
                       "fallback is the .obj of the same name",
                       kw, rel);
  }
  ipc_free(want);
  if (!found)
    return ipc_txt_bad(p, line,
                       "keyword '%s': mesh '%s' not found (looked in %s and its parent folders)",
                       kw, rel, p->dir[0] ? p->dir : ".");
  s->path = found;
  return 1;
}
