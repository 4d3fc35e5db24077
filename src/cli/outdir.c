/* a run's output folder: ipcc's own files in it, found or removed (outdir.h) */
#include "cli/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/alloc.h"
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
  return ext && !strchr(ext, ',') && ipc_output_formats_parse(ext, &formats) == 0;
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

char *ipc_path_trim(char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
  return dir;
}
