/* lower-dimensional views of a surface mesh, for kinematic obstacles given as IPC's
   .seg (segments) or .pt (points) when only the .obj exists */
#ifndef IPCC_CORE_CODIM_H
#define IPCC_CORE_CODIM_H

#include "ipcc/mesh.h"

/* codim 1: replaces the triangles by their unique edges (kept with any segments, sorted by
   vertex pair); codim 2: drops triangles and segments so every vertex is an isolated point.
   other values leave m unchanged */
void ipc_mesh_reduce_codim(ipcc_mesh *m, int codim);

#endif
