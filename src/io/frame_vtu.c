/* ParaView XML UnstructuredGrid (.vtu, ascii) frame writer: every vertex of the world
   as points, tets of deformable bodies and the surface (triangles, lines, vertex cells) of
   bodies without tets as cells; velocity, object id and obstacle flag per point, elastic
   energy density and object id per cell, the simulated time as FieldData TimeValue */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "io/path.h"
#include "ipc/world_internal.h"
#include "ipcc/lcp_world.h"
#include "ipcc/output.h"
#include "lcp/lcp_world_internal.h"

enum { VTK_VERTEX = 1, VTK_LINE = 3, VTK_TRIANGLE = 5, VTK_TETRA = 10 };

/* one cell: its body and where its vertex ids are */
typedef struct cell_list {
  int n;
  int *body;           /* (n) */
  unsigned char *type; /* (n) */
  int *start, *count;  /* (n) offset into ids, vertex count */
  int *ids;            /* concatenated vertex ids (global) */
  int nids;
} cell_list;

static void cells_add(cell_list *c, int body, unsigned char type, const int *ids, int k) {
  c->body[c->n] = body;
  c->type[c->n] = type;
  c->start[c->n] = c->nids;
  c->count[c->n] = k;
  memcpy(c->ids + c->nids, ids, (size_t)k * sizeof(int));
  c->nids += k;
  c->n++;
}

static void cells_build(cell_list *c, const ipc_model *m) {
  int cap = 0, capids = 0;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt > 0) {
      cap += bd->nt;
      capids += 4 * bd->nt;
    } else {
      int pts = bd->nf == 0 && bd->ns == 0 ? bd->nv : 0;
      cap += bd->nf + bd->ns + pts;
      capids += 3 * bd->nf + 2 * bd->ns + pts;
    }
  }
  c->n = c->nids = 0;
  c->body = IPC_NEW(int, (size_t)cap + 1);
  c->type = IPC_NEW(unsigned char, (size_t)cap + 1);
  c->start = IPC_NEW(int, (size_t)cap + 1);
  c->count = IPC_NEW(int, (size_t)cap + 1);
  c->ids = IPC_NEW(int, (size_t)capids + 1);
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt > 0) {
      for (int t = bd->t0; t < bd->t0 + bd->nt; ++t)
        cells_add(c, b, VTK_TETRA, m->tets + 4 * (size_t)t, 4);
      continue;
    }
    for (int k = bd->f0; k < bd->f0 + bd->nf; ++k)
      cells_add(c, b, VTK_TRIANGLE, m->surface.faces + 3 * (size_t)k, 3);
    for (int k = bd->s0; k < bd->s0 + bd->ns; ++k)
      cells_add(c, b, VTK_LINE, m->segs + 2 * (size_t)k, 2);
    if (bd->nf == 0 && bd->ns == 0)
      for (int i = bd->v0; i < bd->v0 + bd->nv; ++i) cells_add(c, b, VTK_VERTEX, &i, 1);
  }
}

static void cells_free(cell_list *c) {
  ipc_free(c->body);
  ipc_free(c->type);
  ipc_free(c->start);
  ipc_free(c->count);
  ipc_free(c->ids);
}

/* doubles, three or one per line */
static void put_doubles(FILE *f, const double *a, size_t n, int per_line) {
  for (size_t i = 0; i < n; ++i)
    fprintf(f, "%.17g%c", a[i], (int)((i + 1) % (size_t)per_line) == 0 ? '\n' : ' ');
}

/* the frame of model m at positions xs, velocities vs and time t; psi (ntets) the energy
   density of every tet at xs */
static ipc_status write_vtu(const ipc_model *m, const double *xs, const double *vs, double time,
                            const double *psi, const char *path, ipc_error *err) {
  cell_list c;
  cells_build(&c, m);
  ipc_atomic_file af;
  ipc_status st_open = ipc_atomic_open(&af, path, err);
  if (st_open != IPC_OK) {
    cells_free(&c);
    return st_open;
  }
  FILE *f = af.f;
  fputs(
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n<UnstructuredGrid>\n<FieldData>\n"
      "<DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">\n",
      f);
  fprintf(f, "%.17g\n</DataArray>\n</FieldData>\n", time);
  fprintf(f, "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n", m->nverts, c.n);
  fputs(
      "<PointData Vectors=\"velocity\" Scalars=\"object_id\">\n"
      "<DataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\" "
      "format=\"ascii\">\n",
      f);
  put_doubles(f, vs, 3 * (size_t)m->nverts, 3);
  fputs("</DataArray>\n<DataArray type=\"Int32\" Name=\"object_id\" format=\"ascii\">\n", f);
  for (int i = 0; i < m->nverts; ++i) fprintf(f, "%d\n", m->surface.vert_body[i]);
  /* kinematic obstacles, so that `ipcc check` skips obstacle-obstacle pairs (vtu.c) */
  fputs("</DataArray>\n<DataArray type=\"UInt8\" Name=\"obstacle\" format=\"ascii\">\n", f);
  for (int i = 0; i < m->nverts; ++i) fprintf(f, "%d\n", m->surface.vert_obstacle[i]);
  fputs(
      "</DataArray>\n</PointData>\n<CellData Scalars=\"energy_density\">\n"
      "<DataArray type=\"Float64\" Name=\"energy_density\" format=\"ascii\">\n",
      f);
  int t = 0;
  for (int k = 0; k < c.n; ++k) {
    double e = 0.0;
    if (c.type[k] == VTK_TETRA) {
      e = psi[t++];
      if (!isfinite(e)) e = -1.0; /* inverted tet: never in an IPC frame, possible in LCP */
    }
    fprintf(f, "%.17g\n", e);
  }
  fputs("</DataArray>\n<DataArray type=\"Int32\" Name=\"object_id\" format=\"ascii\">\n", f);
  for (int k = 0; k < c.n; ++k) fprintf(f, "%d\n", c.body[k]);
  fputs(
      "</DataArray>\n</CellData>\n<Points>\n"
      "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"ascii\">\n",
      f);
  put_doubles(f, xs, 3 * (size_t)m->nverts, 3);
  fputs(
      "</DataArray>\n</Points>\n<Cells>\n"
      "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n",
      f);
  for (int k = 0; k < c.n; ++k)
    for (int j = 0; j < c.count[k]; ++j)
      fprintf(f, "%d%c", c.ids[c.start[k] + j], j + 1 == c.count[k] ? '\n' : ' ');
  fputs("</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", f);
  for (int k = 0; k < c.n; ++k) fprintf(f, "%d\n", c.start[k] + c.count[k]);
  fputs("</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n", f);
  for (int k = 0; k < c.n; ++k) fprintf(f, "%d\n", c.type[k]);
  fputs("</DataArray>\n</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n", f);
  cells_free(&c);
  return ipc_atomic_commit(&af, err);
}

ipc_status ipc_world_write_vtu(const ipc_world *w, const char *path, ipc_error *err) {
  double *psi = IPC_NEW(double, (size_t)w->m.ntets + 1);
  ipc_world_tet_energy_density(w, psi);
  ipc_status st = write_vtu(&w->m, w->x, w->v, w->time, psi, path, err);
  ipc_free(psi);
  return st;
}

ipc_status ipc_lcp_world_write_vtu(const ipc_lcp_world *w, const char *path, ipc_error *err) {
  const ipc_model *m = ipc_lcp_world_model(w);
  double *psi = IPC_NEW(double, (size_t)m->ntets + 1);
  ipc_lcp_world_tet_energy_density(w, psi);
  ipc_status st = write_vtu(m, ipc_lcp_world_positions(w), ipc_lcp_world_velocities(w),
                            ipc_lcp_world_time(w), psi, path, err);
  ipc_free(psi);
  return st;
}
