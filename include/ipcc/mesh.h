/* meshes as read from files: tetrahedral volumes and triangle/segment/point surfaces */
#ifndef IPCC_MESH_H
#define IPCC_MESH_H

#include "ipcc/error.h"
#include "ipcc/export.h"

/* a mesh read from one file; all arrays owned, freed by ipcc_mesh_free */
typedef struct ipcc_mesh {
  int nverts;
  double *x; /* (nverts x 3) positions */
  int ntets;
  int *tets; /* (ntets x 4) positive orientation; NULL for surface meshes */
  int ntris;
  int *tris; /* (ntris x 3) triangles, outward counter-clockwise */
  int nsegs;
  int *segs;                    /* (nsegs x 2) line segments not on triangles (OBJ 'l') */
  int nobjects;                 /* named objects (OBJ 'o'/'g'); at least 1 when ntris > 0 */
  char **object_names;          /* (nobjects) */
  int *object_tri_start;        /* (nobjects + 1) triangle ranges per object */
  unsigned char *vert_obstacle; /* (nverts) 1 for the vertices of objects an ipcc frame
                                   marks as kinematic obstacles (OBJ: "# ipcc obstacle" after
                                   their 'o' line; PLY: "comment obstacle K" for object_id K;
                                   VTU: point data 'obstacle'); NULL when the file marks none */
  int *vert_object; /* (nverts) object index of each vertex, -1 on none; NULL when the file has
                       no per-vertex objects. OBJ: the object (index into object_names) of the
                       first f, l or p statement referencing the vertex; PLY: the vertex
                       property object_id as written, VTU: the point data 'object_id' (names
                       unknown: nobjects stays 1); NULL for Gmsh and TetGen */
} ipcc_mesh;

/* reads .msh (Gmsh 2.2/4.1 ASCII), .obj, .seg, .node/.ele (TetGen) by extension;
   tet meshes get their boundary triangles; returns IPCC_ERR_INPUT naming file and line.
   - .msh: linear tetrahedra (type 4) are the volume; other element types and unknown
     $Sections (IPC's $Surface) are skipped; node numbers become 0-based indices in file order.
   - .node or .ele (or a path without extension when PATH.node exists): TetGen; the other file
     of the pair is found by replacing the extension; point numbers may start at 0 or 1.
   - tets: volume <= 0 is an error naming the element, except that a file whose tets are ALL
     negative is taken to use the opposite convention and every tet is flipped (corners 2 and
     3 swapped). tris are the faces of exactly one tet, outward; a face shared by three tets,
     or by two on the same side, is an error.
   - .obj: v, f (polygons fan-triangulated; i, i/t, i//n, i/t/n and negative indices), l
     (polylines become segments; segments on a triangle edge or repeated are dropped), o/g
     (object ranges; faces before the first o/g form an object named after the file; an
     o/g line before any f, l or p renames the current object, so an object of lines or
     points keeps its name with an empty triangle range); p gives vertices their object;
     other statements are skipped. a vertex on no triangle or segment is an isolated point.
   - .seg (IPC): the OBJ syntax with 's i j' a segment.
   - .ply: ascii or binary_little_endian; vertex x, y, z (any numeric type), face
     vertex_indices (fan-triangulated), edge vertex1/vertex2 as segments; other elements
     and properties skipped.
   - .vtu: VTK XML UnstructuredGrid, one Piece, arrays ascii, base64 or appended (raw or
     base64), optionally zlib-compressed; cells vertex, line, polyline,
     triangle, polygon, quad, tetra (tets as for .msh, their boundary first in tris).
   - every mesh has nobjects >= 1; without names the one object is named after the file.
   on failure *out is zeroed. path and out are required; err may be NULL. */
IPCC_API ipcc_status ipcc_mesh_read(const char *path, ipcc_mesh *out, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* frees arrays and zeroes the struct; m may be NULL */
IPCC_API void ipcc_mesh_free(ipcc_mesh *m);

#endif
