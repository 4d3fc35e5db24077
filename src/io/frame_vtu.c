/* ParaView XML UnstructuredGrid (.vtu) frame writer: every vertex of the world as points,
   tets of deformable bodies and the surface (triangles, lines, vertex cells) of bodies without
   tets as cells; velocity, object id and obstacle flag per point, elastic energy density and
   object id per cell, the simulated time as FieldData TimeValue (always ascii, inline).
   the arrays are ascii text, or binary in an <AppendedData encoding="raw"> section: each
   array a UInt64 byte count and its little-endian values, or (zlib) VTK's compressed layout
   [nblocks][block size][last block size][compressed size of each block] (UInt64 each) and the
   zlib streams of the blocks, with compressor="vtkZLibDataCompressor" on <VTKFile>. the
   encoding: frame_vtu.h (IPC_VTU_ENCODING) */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "io/frame_vtu.h"
#include "io/path.h"
#include "io/world_output.h"

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

/* the energy density of cell k: psi of its tet, 0 on surface cells */
static double cell_energy(const cell_list *c, int k, const double *psi, int *t) {
  if (c->type[k] != VTK_TETRA) return 0.0;
  double e = psi[(*t)++];
  return isfinite(e) ? e : -1.0; /* inverted tet: never in an IPC frame, possible in LCP */
}

/* the ascii frame of model m at positions xs, velocities vs and time t into f; psi (ntets)
   the energy density of every tet at xs */
static void write_ascii(FILE *f, const ipc_model *m, const cell_list *cl, const double *xs,
                        const double *vs, double time, const double *psi) {
  const cell_list c = *cl;
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
  for (int k = 0; k < c.n; ++k) fprintf(f, "%.17g\n", cell_energy(&c, k, psi, &t));
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
}

/* ---- binary: appended raw or zlib-compressed arrays ---- */

/* VTK's default block size; level 1: on the bunny's frames 2% larger than level 6 (zlib's
   default) in a third of the time */
enum { ZLIB_BLOCK = 32768, ZLIB_LEVEL = Z_BEST_SPEED };

/* one array of the appended data: its XML attributes, its little-endian values (b) and what
   the appended data holds for it: head (byte count, or the compression header) then body */
typedef struct bin_array {
  const char *type, *name;
  int ncomp; /* NumberOfComponents, written when above 1 */
  unsigned char *b;
  size_t nbytes;
  unsigned char *head, *body;
  size_t nhead, nbody;
} bin_array;

static void put_u64(unsigned char *dst, uint64_t v) {
  for (int k = 0; k < 8; ++k) dst[k] = (unsigned char)(v >> (8 * k));
}

static void put_i32(unsigned char *dst, int32_t v) {
  uint32_t u = (uint32_t)v;
  for (int k = 0; k < 4; ++k) dst[k] = (unsigned char)(u >> (8 * k));
}

static void put_f64(unsigned char *dst, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  put_u64(dst, u);
}

static bin_array *bin_add(bin_array *a, int *n, const char *type, const char *name, int ncomp,
                          size_t nvalues, size_t size) {
  bin_array *x = &a[(*n)++];
  memset(x, 0, sizeof *x);
  x->type = type;
  x->name = name;
  x->ncomp = ncomp;
  x->nbytes = nvalues * size;
  x->b = IPC_NEW(unsigned char, x->nbytes + 1);
  return x;
}

static void bin_doubles(bin_array *x, const double *v) {
  for (size_t i = 0; i < x->nbytes / 8; ++i) put_f64(x->b + 8 * i, v[i]);
}

/* x as VTK's compressed blocks: [nblocks][ZLIB_BLOCK][size of a last partial block, else 0]
   [compressed size of each block] and the zlib streams; 0, or -1 when zlib fails */
static int bin_compress(bin_array *x) {
  size_t nb = (x->nbytes + ZLIB_BLOCK - 1) / ZLIB_BLOCK;
  uLong bound = compressBound(ZLIB_BLOCK);
  unsigned char *out = IPC_NEW(unsigned char, (size_t)bound *nb + 1);
  uLongf *clen = IPC_NEW(uLongf, nb + 1);
  int bad = 0;
  /* blocks are independent: deterministic whatever the thread count */
#pragma omp parallel for schedule(dynamic) if (nb > 2) reduction(| : bad)
  for (size_t k = 0; k < nb; ++k) {
    size_t len = k + 1 < nb ? ZLIB_BLOCK : x->nbytes - (nb - 1) * ZLIB_BLOCK;
    clen[k] = bound;
    bad |= compress2(out + k * bound, &clen[k], x->b + k * ZLIB_BLOCK, len, ZLIB_LEVEL) != Z_OK;
  }
  x->nhead = 8 * (3 + nb);
  x->head = IPC_NEW(unsigned char, x->nhead);
  put_u64(x->head, nb);
  put_u64(x->head + 8, ZLIB_BLOCK);
  put_u64(x->head + 16, x->nbytes % ZLIB_BLOCK);
  x->nbody = 0;
  for (size_t k = 0; k < nb && !bad; ++k) {
    put_u64(x->head + 24 + 8 * k, clen[k]);
    memmove(out + x->nbody, out + k * bound, clen[k]);
    x->nbody += clen[k];
  }
  x->body = out;
  ipc_free(clen);
  return bad ? -1 : 0;
}

static void bin_free(bin_array *a, int n) {
  for (int k = 0; k < n; ++k) {
    ipc_free(a[k].b);
    ipc_free(a[k].head);
    if (a[k].body != a[k].b) ipc_free(a[k].body);
  }
}

/* the DataArray tag of x, its data at offset off of the appended data */
static void bin_tag(FILE *f, const bin_array *x, uint64_t off) {
  fprintf(f, "<DataArray type=\"%s\" Name=\"%s\"", x->type, x->name);
  if (x->ncomp > 1) fprintf(f, " NumberOfComponents=\"%d\"", x->ncomp);
  fprintf(f, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)off);
}

/* the frame as write_ascii's, its arrays in the appended data (compressed when zlib) */
static ipcc_status write_binary(FILE *f, const ipc_model *m, const cell_list *c, const double *xs,
                                const double *vs, double time, const double *psi, int zlib,
                                ipcc_error *err) {
  size_t nv = (size_t)m->nverts, nc = (size_t)c->n;
  bin_array a[9];
  int n = 0;
  /* the order of the XML: point data, cell data, points, cells */
  bin_doubles(bin_add(a, &n, "Float64", "velocity", 3, 3 * nv, 8), vs);
  bin_array *x = bin_add(a, &n, "Int32", "object_id", 1, nv, 4);
  for (size_t i = 0; i < nv; ++i)
    put_i32(x->b + 4 * i, m->surface.vert_body ? m->surface.vert_body[i] : 0);
  x = bin_add(a, &n, "UInt8", "obstacle", 1, nv, 1);
  for (size_t i = 0; i < nv; ++i)
    x->b[i] = m->surface.vert_obstacle ? m->surface.vert_obstacle[i] : 0;
  x = bin_add(a, &n, "Float64", "energy_density", 1, nc, 8);
  int t = 0;
  for (size_t k = 0; k < nc; ++k) put_f64(x->b + 8 * k, cell_energy(c, (int)k, psi, &t));
  x = bin_add(a, &n, "Int32", "object_id", 1, nc, 4);
  for (size_t k = 0; k < nc; ++k) put_i32(x->b + 4 * k, c->body[k]);
  bin_doubles(bin_add(a, &n, "Float64", "Points", 3, 3 * nv, 8), xs);
  x = bin_add(a, &n, "Int32", "connectivity", 1, (size_t)c->nids, 4);
  for (size_t i = 0; i < (size_t)c->nids; ++i) put_i32(x->b + 4 * i, c->ids[i]);
  x = bin_add(a, &n, "Int32", "offsets", 1, nc, 4);
  for (size_t k = 0; k < nc; ++k) put_i32(x->b + 4 * k, c->start[k] + c->count[k]);
  x = bin_add(a, &n, "UInt8", "types", 1, nc, 1);
  memcpy(x->b, c->type, nc);

  uint64_t off[9];
  uint64_t at = 0;
  for (int k = 0; k < n; ++k) {
    if (zlib) {
      if (bin_compress(&a[k])) {
        bin_free(a, n);
        return ipc_error_set(err, IPCC_ERR_IO, "zlib failed to compress the array '%s'", a[k].name);
      }
    } else {
      a[k].nhead = 8;
      a[k].head = IPC_NEW(unsigned char, 8);
      put_u64(a[k].head, a[k].nbytes);
      a[k].body = a[k].b;
      a[k].nbody = a[k].nbytes;
    }
    off[k] = at;
    at += a[k].nhead + a[k].nbody;
  }

  fprintf(f,
          "<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
          "header_type=\"UInt64\"%s>\n<UnstructuredGrid>\n<FieldData>\n"
          "<DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
          "format=\"ascii\">\n%.17g\n</DataArray>\n</FieldData>\n",
          zlib ? " compressor=\"vtkZLibDataCompressor\"" : "", time);
  fprintf(f, "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n", m->nverts, c->n);
  fputs("<PointData Vectors=\"velocity\" Scalars=\"object_id\">\n", f);
  for (int k = 0; k < 3; ++k) bin_tag(f, &a[k], off[k]);
  fputs("</PointData>\n<CellData Scalars=\"energy_density\">\n", f);
  for (int k = 3; k < 5; ++k) bin_tag(f, &a[k], off[k]);
  fputs("</CellData>\n<Points>\n", f);
  bin_tag(f, &a[5], off[5]);
  fputs("</Points>\n<Cells>\n", f);
  for (int k = 6; k < 9; ++k) bin_tag(f, &a[k], off[k]);
  fputs("</Cells>\n</Piece>\n</UnstructuredGrid>\n<AppendedData encoding=\"raw\">\n_", f);
  for (int k = 0; k < n; ++k) {
    fwrite(a[k].head, 1, a[k].nhead, f);
    fwrite(a[k].body, 1, a[k].nbody, f);
  }
  fputs("\n</AppendedData>\n</VTKFile>\n", f);
  bin_free(a, n);
  return IPCC_OK;
}

/* ---- encodings ---- */

static const char *const encoding_names[] = {"ascii", "raw", "zlib"};

int ipc_vtu_encoding_parse(const char *s, ipc_vtu_encoding *out) {
  for (int k = 0; k < 3; ++k)
    if (!strcmp(s, encoding_names[k])) {
      *out = (ipc_vtu_encoding)(IPC_VTU_ASCII + k);
      return 0;
    }
  return -1;
}

const char *ipc_vtu_encoding_name(ipc_vtu_encoding e) {
  return e >= IPC_VTU_ASCII && e <= IPC_VTU_ZLIB ? encoding_names[e - IPC_VTU_ASCII] : "?";
}

ipcc_status ipc_vtu_encoding_from_env(ipc_vtu_encoding *out, ipcc_error *err) {
  const char *s = getenv("IPC_VTU_ENCODING");
  *out = IPC_VTU_DEFAULT_ENCODING;
  if (!s || !*s || ipc_vtu_encoding_parse(s, out) == 0) return IPCC_OK;
  return ipc_error_set(err, IPCC_ERR_INPUT,
                       "IPC_VTU_ENCODING is '%.40s', expected ascii, raw or zlib (VTU frames)", s);
}

/* the frame of model m at positions xs, velocities vs and time t; psi (ntets) the energy
   density of every tet at xs */
static ipcc_status write_vtu(const ipc_model *m, const double *xs, const double *vs, double time,
                             const double *psi, const char *path, ipc_vtu_encoding enc,
                             ipcc_error *err) {
  if (enc < IPC_VTU_ASCII || enc > IPC_VTU_ZLIB)
    return ipc_error_set(err, IPCC_ERR_INPUT, "%s: unknown VTU encoding %d", path, (int)enc);
  cell_list c;
  cells_build(&c, m);
  ipc_atomic_file af;
  ipcc_status st = ipc_atomic_open(&af, path, err);
  if (st == IPCC_OK) {
    if (enc == IPC_VTU_ASCII)
      write_ascii(af.f, m, &c, xs, vs, time, psi);
    else
      st = write_binary(af.f, m, &c, xs, vs, time, psi, enc == IPC_VTU_ZLIB, err);
    if (st == IPCC_OK)
      st = ipc_atomic_commit(&af, err);
    else
      ipc_atomic_abort(&af);
  }
  cells_free(&c);
  return st;
}

ipcc_status ipcc_world_write_vtu_encoded(const ipcc_world *w, const char *path,
                                         ipc_vtu_encoding enc, ipcc_error *err) {
  double *psi = IPC_NEW(double, (size_t)w->m->ntets + 1);
  ipcc_world_tet_energy_density(w, psi);
  ipcc_status st = write_vtu(w->m, w->s->x, w->s->v, w->s->time, psi, path, enc, err);
  ipc_free(psi);
  return st;
}

ipcc_status ipcc_world_write_vtu(const ipcc_world *w, const char *path, ipcc_error *err) {
  ipc_vtu_encoding enc;
  ipcc_status st = ipc_vtu_encoding_from_env(&enc, err);
  return st ? st : ipcc_world_write_vtu_encoded(w, path, enc, err);
}
