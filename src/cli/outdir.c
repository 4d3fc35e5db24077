/* a run's output folder: ipcc's own files in it, found or removed (outdir.h) */
#include "cli/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/alloc.h"
#include "io/frame_pc2.h"
#include "io/frame_planes.h"
#include "io/path.h"
#include "ipcc/output.h"

/* dir/name, or a copy of dir when name is NULL (ipc_free it) */
static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + (name ? strlen(name) : 0) + 2;
  char *p = IPC_NEW(char, n);
  snprintf(p, n, name ? "%s/%s" : "%s", dir, name ? name : "");
  return p;
}

/* name without a ".tmp.PID" suffix (ipc_atomic_open's temporary files) into buf */
static const char *without_temp_suffix(const char *name, char *buf, size_t n) {
  const char *t = strstr(name, ".tmp.");
  if (!t || !t[5] || strspn(t + 5, "0123456789") != strlen(t + 5) || (size_t)(t - name) >= n)
    return name;
  memcpy(buf, name, (size_t)(t - name));
  buf[t - name] = '\0';
  return buf;
}

/* the extension after a frame number (%06d: six digits or more and a dot), or NULL */
static const char *after_frame_number(const char *name) {
  size_t d = strspn(name, "0123456789");
  return d >= 6 && name[d] == '.' ? name + d + 1 : NULL;
}

static int is_frame(const char *name) {
  const char *ext = after_frame_number(name);
  unsigned formats;
  if (!strcmp(name, "frames.pvd")) return 1; /* the VTU frames' ParaView collection */
  /* the point cache (--format pc2) */
  if (!strcmp(name, IPC_PC2_REST) || !strcmp(name, IPC_PC2_CACHE)) return 1;
  if (!strcmp(name, IPC_PLANES_FILE)) return 1; /* --write-planes */
  return ext && !strchr(ext, ',') && ipcc_output_formats_parse(ext, &formats) == 0;
}

static int is_preview(const char *name) {
  const char *ext = after_frame_number(name);
  return ext && !strcmp(ext, "png");
}

static int is_run_file(const char *name) {
  return !strcmp(name, "stats.json") || !strcmp(name, "checkpoint.bin");
}

/* where a run (and `ipcc plot`) writes: sub-folder (NULL: the folder itself), its files */
static const struct {
  const char *sub;
  ipc_outdir_ours ours;
} outputs[] = {
    {NULL, is_run_file},
    {"frames", is_frame},
    {"preview", is_preview},
    {"plots", ipc_plot_is_output},
};

/* the files of dir that ours accepts: with found, the first one's path into *found;
   without, each is removed (0, or 2 with a message) */
static int each_ours(const char *cmd, const char *dir, ipc_outdir_ours ours, char **found) {
  DIR *d = opendir(dir);
  if (!d) return 0; /* no folder, nothing of ours; another error shows when the run writes */
  int rc = 0;
  const struct dirent *e;
  while (!rc && (e = readdir(d)) != NULL) {
    char buf[256];
    if (!ours(without_temp_suffix(e->d_name, buf, sizeof buf))) continue;
    char *path = join(dir, e->d_name);
    if (found) {
      *found = path;
      break;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
      fprintf(stderr, "%s: %s: cannot remove it: %s\n", cmd, path, strerror(errno));
      rc = 2;
    }
    ipc_free(path);
  }
  closedir(d);
  return rc;
}

char *ipc_outdir_find(const char *dir, ipc_outdir_ours ours) {
  char *found = NULL;
  each_ours(NULL, dir, ours, &found);
  return found;
}

int ipc_outdir_remove(const char *cmd, const char *dir, ipc_outdir_ours ours) {
  return each_ours(cmd, dir, ours, NULL);
}

char *ipc_outdir_earlier_run(const char *dir) {
  char *found = NULL;
  for (size_t k = 0; !found && k < sizeof outputs / sizeof outputs[0]; ++k) {
    char *d = join(dir, outputs[k].sub);
    found = ipc_outdir_find(d, outputs[k].ours);
    ipc_free(d);
  }
  return found;
}

int ipc_outdir_refuse(const char *cmd, const char *dir, char *found) {
  fprintf(stderr,
          "%s: %s holds an earlier run (%s); pass --overwrite to replace it, or choose "
          "another folder with -o\n",
          cmd, dir, found);
  ipc_free(found);
  return 2;
}

int ipc_outdir_claim(const char *cmd, const char *dir, int overwrite) {
  char *found = ipc_outdir_earlier_run(dir);
  if (!found) return 0;
  if (!overwrite) return ipc_outdir_refuse(cmd, dir, found);
  ipc_free(found);
  int rc = 0;
  for (size_t k = 0; !rc && k < sizeof outputs / sizeof outputs[0]; ++k) {
    char *d = join(dir, outputs[k].sub);
    rc = ipc_outdir_remove(cmd, d, outputs[k].ours);
    /* the folder goes too unless it holds files of the user's */
    if (!rc && outputs[k].sub) rmdir(d);
    ipc_free(d);
  }
  return rc;
}

/* the writer holding the lock file fd, from its "PID CMD\n" into *pid and who (n bytes); 0
   when it says none (a file written by something else) */
static int lock_holder(int fd, long *pid, char *who, size_t n) {
  /* the holder writes it just after taking the lock: a moment for that */
  for (int tries = 0; tries < 50; ++tries) {
    char buf[128];
    ssize_t len = pread(fd, buf, sizeof buf - 1, 0);
    if (len > 0 && buf[len - 1] == '\n') {
      buf[len - 1] = '\0';
      char *end;
      *pid = strtol(buf, &end, 10);
      const char *name = end + 1;
      if (*pid <= 0 || *end != ' ' || strncmp(name, "ipcc ", 5) != 0 ||
          strspn(name, "abcdefghijklmnopqrstuvwxyz ") != strlen(name))
        return 0;
      snprintf(who, n, "%s", name);
      return 1;
    }
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  return 0;
}

/* the message that dir is locked by another writer (fd: its lock file): returns 2 */
static int refuse_locked(const char *cmd, const char *dir, int fd, int create) {
  long pid = 0;
  char who[64], what[96];
  if (lock_holder(fd, &pid, who, sizeof who))
    snprintf(what, sizeof what, "%s (pid %ld)", who, pid);
  else
    snprintf(what, sizeof what, "ipcc process");
  fprintf(stderr, "%s: %s is in use by another %s; wait for it%s\n", cmd, dir, what,
          create ? " or choose another folder with -o" : " to finish");
  return 2;
}

int ipc_outdir_lock_take(ipc_outdir_lock *lk, const char *cmd, const char *dir, int create) {
  lk->fd = -1;
  lk->path = lk->made = NULL;
  ipcc_error err;
  struct stat st;
  if (create && stat(dir, &st) != 0) {
    if (ipc_mkdir_p(dir, &err) != 0) return 0; /* the run's first write says why */
    lk->made = join(dir, NULL);
  }
  char *path = join(dir, ".ipcc.lock");
  for (int tries = 0; tries < 100; ++tries) {
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EACCES) fd = open(path, O_RDONLY | O_CLOEXEC); /* another user's */
    if (fd < 0) break; /* no folder (--resume says so) or not writable (the run's writes do) */
    /* not flock's blocking form: a second writer is told at once, not made to wait. The
       lock belongs to the open file, so it lasts until ipc_outdir_lock_release or the
       process's end (a crash included: nothing stays locked); no child inherits it */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int e = errno;
      int rc = e == EWOULDBLOCK ? refuse_locked(cmd, dir, fd, create) : 0;
      /* a file system without flock (ENOLCK, EOPNOTSUPP: some network file systems): the
         run goes on unguarded, as it would without the lock */
      if (!rc)
        fprintf(stderr,
                "%s: warning: cannot lock %s (%s): nothing stops another ipcc run from "
                "writing into it at the same time\n",
                cmd, dir, strerror(e));
      close(fd);
      ipc_free(path);
      return rc;
    }
    /* a writer that was done removed the file after this open (ipc_outdir_lock_release):
       the lock is on a file no longer in the folder, again with the folder's own */
    struct stat a, b;
    if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
      char id[64];
      int len = snprintf(id, sizeof id, "%ld %s\n", (long)getpid(), cmd);
      /* the pid for a second writer's message (another user's read-only file keeps its own:
         held all the same) */
      int written = ftruncate(fd, 0) == 0 && pwrite(fd, id, (size_t)len, 0) == len;
      (void)written;
      lk->fd = fd;
      lk->path = path;
      return 0;
    }
    close(fd);
  }
  ipc_free(path);
  return 0;
}

void ipc_outdir_lock_release(ipc_outdir_lock *lk) {
  if (lk->fd >= 0) {
    /* removed while still held, so that a writer which opened it meanwhile sees it gone */
    unlink(lk->path);
    close(lk->fd);
  }
  if (lk->made) rmdir(lk->made); /* only when empty */
  ipc_free(lk->path);
  ipc_free(lk->made);
  lk->fd = -1;
  lk->path = lk->made = NULL;
}

char *ipc_path_trim(char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
  return dir;
}
