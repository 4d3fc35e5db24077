/* writing frames: OBJ, PLY, VTU, and the PC2 point cache */
#ifndef IPCC_OUTPUT_H
#define IPCC_OUTPUT_H

#include "ipcc/error.h"
#include "ipcc/export.h"
#include "ipcc/world.h"

/* writes the surfaces of all bodies and obstacles at the current state as one OBJ
   file, one named object each, atomically (temporary file, then rename) */
IPCC_API ipc_status ipc_world_write_obj(const ipc_world *w, const char *path, ipc_error *err)
    IPC_NONNULL(1, 2);

/* binary little-endian PLY of the same surfaces: vertex x, y, z (double) and object_id (int,
   the body index; names in header comments), faces (uchar count, int indices) and, when
   there are segments, an edge element (vertex1, vertex2); written atomically */
IPCC_API ipc_status ipc_world_write_ply(const ipc_world *w, const char *path, ipc_error *err)
    IPC_NONNULL(1, 2);

/* ParaView XML UnstructuredGrid of every vertex (binary zlib-compressed appended arrays;
   IPC_VTU_ENCODING=raw or ascii chooses another encoding): tets of deformable bodies,
   triangles / lines / vertex cells of obstacles; point data velocity (m/s) and object_id,
   cell data energy_density (Psi in J/m^3, 0 on surface cells) and object_id; the time in
   FieldData TimeValue. written atomically */
IPCC_API ipc_status ipc_world_write_vtu(const ipc_world *w, const char *path, ipc_error *err)
    IPC_NONNULL(1, 2);

/* the point cache of a run for renderers (docs/rendering.md): frame 0 writes dir/rest.obj
   (the surfaces as the OBJ frame, the same objects and vertex order, with vertex normals) and
   starts dir/motion.pc2 (PC2: one sample of those vertices' positions, float32); frame k > 0
   appends sample k to it, in place: samples k and later are replaced, so dir/motion.pc2 must
   hold at least k samples of the same vertex count (IPC_ERR_INPUT otherwise). the file is a
   valid cache after every call (the sample is synced before the header counts it) */
IPCC_API ipc_status ipc_world_write_pc2(const ipc_world *w, const char *dir, int frame,
                                        ipc_error *err) IPC_NONNULL(1, 2);

/* frame formats from a comma list such as "obj,vtu" (names: obj, ply, vtu, pc2) into
   IPC_FORMAT_* bits (scene.h); 0 on success, -1 for an unknown or empty name */
IPCC_API int ipc_output_formats_parse(const char *list, unsigned *formats) IPC_NONNULL(1, 2);

/* writes the current state as frame number `frame` in every format of `formats`
   (no frame format bit = OBJ) to dir/NNNNNN.obj, .ply, .vtu (six digits); with VTU also
   dir/frames.pvd (ipc_frames_pvd_add), with PC2 sample `frame` of dir/motion.pc2
   (ipc_world_write_pc2); with IPC_FORMAT_PLANES dir/planes.obj: the analytic planes as
   squares (two triangles, normal as "vn") around the bounding box of every vertex of this
   and, read back from the planes.obj there, the earlier frames, with a margin of half its
   diagonal: rewritten with every frame, it covers all frames so far */
IPCC_API ipc_status ipc_world_write_frame(const ipc_world *w, const char *dir, int frame,
                                          unsigned formats, ipc_error *err) IPC_NONNULL(1, 2);

/* the ParaView collection dir/frames.pvd of the VTU frames in dir: its entries for frames
   before `frame` are kept (a resumed run rewrites the frames after its checkpoint), then
   dir/NNNNNN.vtu at simulated time `time` is added; written atomically, so ParaView opens
   the frames written so far as one animation at any moment */
IPCC_API ipc_status ipc_frames_pvd_add(const char *dir, int frame, double time, ipc_error *err)
    IPC_NONNULL(1);

#endif
