/* meshes as read from files: tetrahedral volumes and triangle/segment/point surfaces */
#ifndef IPCC_MESH_H
#define IPCC_MESH_H

#include "ipcc/error.h"

/* a mesh read from one file; all arrays owned, freed by ipc_mesh_free */
typedef struct ipc_mesh {
  int nverts;
  double *x;        /* (nverts x 3) positions */
  int ntets;
  int *tets;        /* (ntets x 4) positive orientation; NULL for surface meshes */
  int ntris;
  int *tris;        /* (ntris x 3) triangles, outward counter-clockwise */
  int nsegs;
  int *segs;        /* (nsegs x 2) line segments not on triangles (OBJ 'l') */
  int nobjects;     /* named objects (OBJ 'o'/'g'); at least 1 when ntris > 0 */
  char **object_names;   /* (nobjects) */
  int *object_tri_start; /* (nobjects + 1) triangle ranges per object */
} ipc_mesh;

/* reads .msh (Gmsh 2.2/4.1 ASCII), .obj, .node/.ele (TetGen) by extension;
   tet meshes get their boundary triangles; returns IPC_ERR_INPUT naming file and line */
ipc_status ipc_mesh_read(const char *path, ipc_mesh *out, ipc_error *err);

/* frees arrays and zeroes the struct; m may be NULL */
void ipc_mesh_free(ipc_mesh *m);

#endif
