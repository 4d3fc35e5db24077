#include "io/path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/run_output.h"

static const char *file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

/* "64 MiB", "1 GiB": the caps are whole MiB */
static void format_cap(char *out, size_t n, size_t max) {
  size_t mib = max >> 20;
  if (mib >= 1024 && mib % 1024 == 0)
    snprintf(out, n, "%zu GiB", mib >> 10);
  else
    snprintf(out, n, "%zu MiB", mib);
}

static ipcc_status too_large(const char *path, size_t max, ipcc_error *err) {
  char cap[32];
  format_cap(cap, sizeof cap, max);
  return ipc_error_set(err, IPCC_ERR_INPUT, "%s: file too large, expected at most %s", path, cap);
}

FILE *ipc_open_input(const char *path, size_t max, size_t *size, ipcc_error *err) {
  /* stat before open: opening a FIFO would wait for a writer */
  struct stat st;
  if (stat(path, &st) != 0) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: is %s, expected a regular file", path,
                  file_kind(st.st_mode));
    return NULL;
  }
  if ((unsigned long long)st.st_size > max) {
    too_large(path, max, err);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    ipc_error_set(err, IPCC_ERR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  if (size) *size = (size_t)st.st_size;
  return f;
}

char *ipc_read_file_max(const char *path, size_t max, size_t *len, ipcc_error *err) {
  size_t size = 0;
  FILE *f = ipc_open_input(path, max, &size, err);
  if (!f) return NULL;
  /* read to the end rather than trust the size: files in /proc say 0, files can grow */
  size_t cap = size + 2, n = 0;
  char *buf = IPC_NEW(char, cap);
  for (;;) {
    if (n + 1 == cap) {
      cap *= 2;
      buf = ipc_realloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0 || n > max) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad || n > max) {
    ipc_free(buf);
    if (bad)
      ipc_error_set(err, IPCC_ERR_INPUT, "%s: read error", path);
    else
      too_large(path, max, err);
    return NULL;
  }
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

char *ipc_read_file(const char *path, size_t *len, ipcc_error *err) {
  return ipc_read_file_max(path, IPC_READ_MAX_SCENE, len, err);
}

static char *dup_n(const char *s, size_t n) {
  char *d = IPC_NEW(char, n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *ipc_path_join(const char *dir, const char *rel) {
  if (rel[0] == '/' || !dir || !dir[0]) return dup_n(rel, strlen(rel));
  size_t a = strlen(dir), b = strlen(rel);
  char *out = IPC_NEW(char, a + b + 2);
  memcpy(out, dir, a);
  size_t k = a;
  if (dir[a - 1] != '/') out[k++] = '/';
  memcpy(out + k, rel, b + 1);
  return out;
}

char *ipc_path_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return dup_n("", 0);
  if (slash == path) return dup_n("/", 1);
  return dup_n(path, (size_t)(slash - path));
}

int ipc_mkdir_p(const char *path, ipcc_error *err) {
  size_t n = strlen(path);
  char *p = dup_n(path, n);
  for (size_t i = 1; i <= n; ++i) {
    if (p[i] == '/' || p[i] == '\0') {
      char c = p[i];
      p[i] = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST) {
        ipc_error_set(err, IPCC_ERR_INPUT, "%s: cannot create folder: %s", p, strerror(errno));
        ipc_free(p);
        return -1;
      }
      p[i] = c;
    }
  }
  struct stat st;
  int ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
  if (!ok) ipc_error_set(err, IPCC_ERR_INPUT, "%s: not a folder", path);
  ipc_free(p);
  return ok ? 0 : -1;
}

ipcc_status ipc_atomic_open(ipc_atomic_file *af, const char *path, ipcc_error *err) {
  size_t n = strlen(path);
  af->path = dup_n(path, n);
  af->tmp = IPC_NEW(char, n + 32);
  snprintf(af->tmp, n + 32, "%s.tmp.%ld", path, (long)getpid());
  af->f = fopen(af->tmp, "wb");
  if (!af->f) {
    /* a path that cannot name a file is the user's; a device that cannot take it is not */
    int e = errno;
    int io = e == ENOSPC || e == EDQUOT || e == EIO || e == EROFS || e == EMFILE || e == ENFILE;
    /* the message names the file asked for, not the temporary one beside it */
    ipcc_status st = ipc_error_set(err, io ? IPCC_ERR_IO : IPCC_ERR_INPUT, "%s: cannot write: %s",
                                   af->path, strerror(e));
    ipc_free(af->path);
    ipc_free(af->tmp);
    af->path = af->tmp = NULL;
    return st;
  }
  return IPCC_OK;
}

ipcc_status ipc_atomic_commit(ipc_atomic_file *af, ipcc_error *err) {
  int bad = ferror(af->f);
  bad |= fflush(af->f) != 0;
  bad |= fsync(fileno(af->f)) != 0 && errno != EINVAL;
  bad |= fclose(af->f) != 0;
  af->f = NULL;
  if (!bad && rename(af->tmp, af->path) != 0) bad = 1;
  if (bad) {
    ipc_error_set(err, IPCC_ERR_IO, "%s: write failed: %s", af->path, strerror(errno));
    remove(af->tmp);
  }
  ipc_free(af->path);
  ipc_free(af->tmp);
  af->path = af->tmp = NULL;
  return bad ? IPCC_ERR_IO : IPCC_OK;
}

void ipc_atomic_abort(ipc_atomic_file *af) {
  if (af->f) fclose(af->f);
  if (af->tmp) remove(af->tmp);
  ipc_free(af->path);
  ipc_free(af->tmp);
  af->f = NULL;
  af->path = af->tmp = NULL;
}

ipcc_status ipc_output_prepare(const char *dir, ipcc_error *err) {
  return ipc_mkdir_p(dir, err) == 0 ? IPCC_OK : IPCC_ERR_INPUT;
}
