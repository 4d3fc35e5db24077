/* which vertices of a model an OBJ or PLY frame holds, and in what order: per body, those
   on its triangles or segments (all of them for a body of bare points), in index order.
   shared by the frame writers and by `ipcc render`, which reads frames back. */
#ifndef IPCC_IO_FRAME_NUMBERING_H
#define IPCC_IO_FRAME_NUMBERING_H

#include "core/model.h"

/* file_of (m->nverts): the 0-based index in the frame file of every model vertex, -1 for
   one the file leaves out (interior tet vertices); returns the number of file vertices */
int ipc_frame_numbering(const ipc_model *m, int *file_of);

#endif
