/* what the public API tells about a world's bodies and surface: read from the model that
   both the IPC and the LCP world are built on */
#include "ipc/world_internal.h"
#include "lcp/lcp_world_internal.h"

static int body_info(const ipc_model *m, int i, ipc_body_info *info) {
  if (i < 0 || i >= m->nbodies) return -1;
  const ipc_body *b = &m->bodies[i];
  *info = (ipc_body_info){
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

static const int *surface_triangles(const ipc_model *m, int *ntris) {
  if (ntris) *ntris = m->surface.nfaces;
  return m->surface.faces;
}

static int plane_info(const ipc_model *m, int k, double point[3], double normal[3]) {
  if (k < 0 || k >= m->nplanes) return -1;
  for (int d = 0; d < 3; ++d) {
    point[d] = m->planes[k].point[d];
    normal[d] = m->planes[k].normal[d];
  }
  return 0;
}

int ipc_world_plane_count(const ipc_world *w) {
  return w->m.nplanes;
}
int ipc_world_plane(const ipc_world *w, int k, double point[3], double normal[3]) {
  return plane_info(&w->m, k, point, normal);
}
int ipc_lcp_world_plane_count(const ipc_lcp_world *w) {
  return w->m.nplanes;
}
int ipc_lcp_world_plane(const ipc_lcp_world *w, int k, double point[3], double normal[3]) {
  return plane_info(&w->m, k, point, normal);
}

int ipc_world_body_count(const ipc_world *w) {
  return w->m.nbodies;
}
int ipc_world_body(const ipc_world *w, int i, ipc_body_info *info) {
  return body_info(&w->m, i, info);
}
const int *ipc_world_surface_triangles(const ipc_world *w, int *ntris) {
  return surface_triangles(&w->m, ntris);
}

int ipc_lcp_world_body_count(const ipc_lcp_world *w) {
  return w->m.nbodies;
}
int ipc_lcp_world_body(const ipc_lcp_world *w, int i, ipc_body_info *info) {
  return body_info(&w->m, i, info);
}
const int *ipc_lcp_world_surface_triangles(const ipc_lcp_world *w, int *ntris) {
  return surface_triangles(&w->m, ntris);
}

ipc_world *ipc_world_load(const char *path, unsigned flags, ipc_error *err) {
  ipc_scene_def def;
  if (ipc_scene_load_any(path, flags, &def, err) != IPC_OK) return NULL;
  ipc_world *w = ipc_world_create(&def, err);
  ipc_scene_def_free(&def);
  return w;
}
