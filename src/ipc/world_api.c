/* the functions of both internal handles (ipc_world_* of ipc/world.h, ipc_lcp_world_* of
   lcp/lcp_world.h) and the unified world's accessors (ipcc/world_unified.h), written once over the
   world the two strategies' workspaces hold (core/world.h): each handle's `world` member */
#include "core/alloc.h"
#include "core/error.h"
#include "io/path.h"
#include "io/scene_txt.h"
#include "io/world_output.h"
#include "ipc/world_internal.h"
#include "ipcc/output.h"
#include "lcp/lcp_world_internal.h"

static int body_info(const ipc_model *m, int i, ipcc_body_info *info) {
  if (i < 0 || i >= m->nbodies) return -1;
  const ipc_body *b = &m->bodies[i];
  *info = (ipcc_body_info){
      .name = b->name,
      .obstacle = b->obstacle,
      .vertex_begin = b->v0,
      .vertex_count = b->nv,
      .tet_begin = b->t0,
      .tet_count = b->nt,
      .triangle_begin = b->f0,
      .triangle_count = b->nf,
  };
  return 0;
}

static int plane_info(const ipc_model *m, int k, double point[3], double normal[3]) {
  if (k < 0 || k >= m->nplanes) return -1;
  for (int d = 0; d < 3; ++d) {
    point[d] = m->planes[k].point[d];
    normal[d] = m->planes[k].normal[d];
  }
  return 0;
}

static const int *surface_triangles(const ipc_model *m, int *ntris) {
  if (ntris) *ntris = m->surface.nfaces;
  return m->surface.faces;
}

/* the functions of handle type T under the prefix P (S: its step statistics) */
#define IPCC_WORLD_API(P, T, S)                                                         \
  void P##_destroy(T *w) {                                                              \
    if (w) ipcc_world_destroy(&w->world);                                               \
  }                                                                                     \
  ipcc_status P##_step(T *w, S *st, ipcc_error *err) {                                  \
    return ipcc_world_step(&w->world, st, err);                                         \
  }                                                                                     \
  ipcc_status P##_save_state(const T *w, FILE *f, ipcc_error *err) {                    \
    return ipcc_world_save_state(&w->world, f, err);                                    \
  }                                                                                     \
  ipcc_status P##_load_state(T *w, FILE *f, ipcc_error *err) {                          \
    return ipcc_world_load_state(&w->world, f, err);                                    \
  }                                                                                     \
  const double *P##_positions(const T *w) {                                             \
    return ipcc_world_positions(&w->world);                                             \
  }                                                                                     \
  const double *P##_velocities(const T *w) {                                            \
    return ipcc_world_velocities(&w->world);                                            \
  }                                                                                     \
  int P##_vertex_count(const T *w) {                                                    \
    return ipcc_world_vertex_count(&w->world);                                          \
  }                                                                                     \
  double P##_time(const T *w) {                                                         \
    return ipcc_world_time(&w->world);                                                  \
  }                                                                                     \
  int P##_scene_steps(const T *w) {                                                     \
    return ipcc_world_scene_steps(&w->world);                                           \
  }                                                                                     \
  void P##_tet_energy_density(const T *w, double *psi) {                                \
    ipcc_world_tet_energy_density(&w->world, psi);                                      \
  }                                                                                     \
  int P##_intersection_free(const T *w, char *what, size_t n) {                         \
    return ipcc_world_intersection_free(&w->world, what, n);                            \
  }                                                                                     \
  int P##_body_count(const T *w) {                                                      \
    return w->world.m->nbodies;                                                         \
  }                                                                                     \
  int P##_body(const T *w, int i, ipcc_body_info *info) {                               \
    return body_info(w->world.m, i, info);                                              \
  }                                                                                     \
  int P##_plane_count(const T *w) {                                                     \
    return w->world.m->nplanes;                                                         \
  }                                                                                     \
  int P##_plane(const T *w, int k, double point[3], double normal[3]) {                 \
    return plane_info(w->world.m, k, point, normal);                                    \
  }                                                                                     \
  const int *P##_surface_triangles(const T *w, int *ntris) {                            \
    return surface_triangles(w->world.m, ntris);                                        \
  }                                                                                     \
  ipcc_status P##_write_obj(const T *w, const char *path, ipcc_error *err) {            \
    return ipcc_world_write_obj(&w->world, path, err);                                  \
  }                                                                                     \
  ipcc_status P##_write_ply(const T *w, const char *path, ipcc_error *err) {            \
    return ipcc_world_write_ply(&w->world, path, err);                                  \
  }                                                                                     \
  ipcc_status P##_write_vtu(const T *w, const char *path, ipcc_error *err) {            \
    return ipcc_world_write_vtu(&w->world, path, err);                                  \
  }                                                                                     \
  ipcc_status P##_write_vtu_encoded(const T *w, const char *path, ipc_vtu_encoding enc, \
                                    ipcc_error *err) {                                  \
    return ipcc_world_write_vtu_encoded(&w->world, path, enc, err);                     \
  }                                                                                     \
  ipcc_status P##_write_pc2(const T *w, const char *dir, int frame, ipcc_error *err) {  \
    return ipcc_world_write_pc2(&w->world, dir, frame, err);                            \
  }                                                                                     \
  ipcc_status P##_write_frame(const T *w, const char *dir, int frame, unsigned formats, \
                              ipcc_error *err) {                                        \
    return ipcc_world_write_frame(&w->world, dir, frame, formats, err);                 \
  }                                                                                     \
  ipcc_camera P##_default_camera(const T *w) {                                          \
    return ipcc_world_default_camera(&w->world);                                        \
  }                                                                                     \
  ipcc_camera P##_follow_camera(const T *w) {                                           \
    return ipcc_world_follow_camera(&w->world);                                         \
  }

IPCC_WORLD_API(ipc_world, ipc_world, ipcc_step_stats)
IPCC_WORLD_API(ipc_lcp_world, ipc_lcp_world, ipcc_lcp_step_stats)

ipc_world *ipc_world_create(const ipcc_scene_def *def, ipcc_error *err) {
  ipcc_world *w = ipcc_world_create(def, &ipcc_strategy_ipc, NULL, err);
  return w ? w->ws : NULL;
}
ipc_lcp_world *ipc_lcp_world_create(const ipcc_scene_def *scene, const ipcc_lcp_world_def *def,
                                    ipcc_error *err) {
  ipcc_world *w = ipcc_world_create(scene, &ipcc_strategy_lcp, def, err);
  return w ? w->ws : NULL;
}

/* the same for the unified world of either mode (ipcc/world_unified.h) */
int ipcc_world_body_count(const ipcc_world *w) {
  return w->m->nbodies;
}
int ipcc_world_body(const ipcc_world *w, int i, ipcc_body_info *info) {
  return body_info(w->m, i, info);
}
int ipcc_world_plane_count(const ipcc_world *w) {
  return w->m->nplanes;
}
int ipcc_world_plane(const ipcc_world *w, int k, double point[3], double normal[3]) {
  return plane_info(w->m, k, point, normal);
}
const int *ipcc_world_surface_triangles(const ipcc_world *w, int *ntris) {
  return surface_triangles(w->m, ntris);
}

ipcc_world *ipc_world_unified(ipc_world *w) {
  return &w->world;
}
ipcc_world *ipc_lcp_world_unified(ipc_lcp_world *w) {
  return &w->world;
}

/* the distance contacts act below: IPC's dhat, LCP's contact gap */
double ipc_world_dhat(const ipc_world *w) {
  return ipcc_world_contact_distance(&w->world);
}
double ipc_lcp_world_gap(const ipc_lcp_world *w) {
  return ipcc_world_contact_distance(&w->world);
}

void ipc_render_world(ipcc_image *im, const ipc_world *w, const ipcc_camera *cam) {
  ipcc_render_world(im, &w->world, cam);
}
void ipc_render_lcp_world(ipcc_image *im, const ipc_lcp_world *w, const ipcc_camera *cam) {
  ipcc_render_world(im, &w->world, cam);
}

int ipc_world_tet_count(const ipc_world *w) {
  return ipcc_world_tet_count(&w->world);
}
int ipc_world_step_count(const ipc_world *w) {
  return ipcc_world_step_count(&w->world);
}

ipc_world *ipc_world_load(const char *path, unsigned flags, ipcc_error *err) {
  ipcc_scene_def def;
  if (ipcc_scene_load_any(path, flags, &def, err) != IPCC_OK) return NULL;
  ipc_world *w = ipc_world_create(&def, err);
  ipcc_scene_def_free(&def);
  return w;
}

/* a scene file's mode and LCP options as `ipcc run` reads them (src/cli/cmd_run_lcp.c): a
   .txt script has neither */
static ipcc_status load_lcp_options(const char *path, int *mode, const char *const *keys,
                                    const char *const *values, int nopts, ipcc_lcp_world_def *d,
                                    ipcc_error *err) {
  *d = ipcc_default_lcp_world_def();
  size_t len = 0;
  char *text = ipc_read_file(path, &len, err);
  if (!text) return IPCC_ERR_INPUT;
  int script = ipc_scene_text_is_txt(path, text);
  ipc_free(text);
  int scene_lcp = 0;
  if (!script && ipcc_lcp_scene_load(path, d, &scene_lcp, err) != IPCC_OK) return IPCC_ERR_INPUT;
  if (*mode == IPCC_MODE_SCENE) *mode = scene_lcp ? IPCC_MODE_LCP : IPCC_MODE_IPC;
  if (nopts < 0 || (nopts > 0 && (!keys || !values)))
    return ipc_error_set(err, IPCC_ERR_INPUT, "ipcc_world_load: %d LCP options but no %s", nopts,
                         !keys ? "keys" : "values");
  if (nopts > 0 && *mode == IPCC_MODE_IPC)
    return ipc_error_set(err, IPCC_ERR_INPUT,
                         "%s: LCP options (%s, ...) given for a world in IPC mode", path, keys[0]);
  for (int k = 0; k < nopts; ++k) {
    if (!keys[k] || !values[k])
      return ipc_error_set(err, IPCC_ERR_INPUT, "ipcc_world_load: LCP option %d: no %s", k,
                           !keys[k] ? "key" : "value");
    if (ipcc_lcp_world_def_set(d, keys[k], values[k], err) != IPCC_OK) return IPCC_ERR_INPUT;
  }
  return IPCC_OK;
}

ipcc_world *ipcc_world_load(const char *path, unsigned flags, int mode, const char *const *keys,
                            const char *const *values, int nopts, ipcc_error *err) {
  if (mode != IPCC_MODE_IPC && mode != IPCC_MODE_LCP && mode != IPCC_MODE_SCENE) {
    ipc_error_set(err, IPCC_ERR_INPUT,
                  "ipcc_world_load: mode %d: expected IPCC_MODE_IPC (0), IPCC_MODE_LCP (1) or "
                  "IPCC_MODE_SCENE (-1)",
                  mode);
    return NULL;
  }
  ipcc_lcp_world_def d;
  if (load_lcp_options(path, &mode, keys, values, nopts, &d, err) != IPCC_OK) return NULL;
  ipcc_scene_def def;
  if (ipcc_scene_load_any(path, flags, &def, err) != IPCC_OK) return NULL;
  ipcc_world *w = ipcc_world_new(&def, (ipcc_mode)mode, &d, err);
  ipcc_scene_def_free(&def);
  return w;
}
