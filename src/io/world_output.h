/* the outputs of a world (core/world.h), whichever its contact model: frames in each format,
   cameras and previews. The public functions of both handles (ipcc/output.h, render.h,
   lcp_world.h) call these (src/ipc/world_api.c) */
#ifndef IPCC_IO_WORLD_OUTPUT_H
#define IPCC_IO_WORLD_OUTPUT_H

#include "core/world.h"
#include "io/frame_vtu.h"
#include "ipcc/render.h"

/* (ipcc_world_write_obj: ipcc/world_unified.h) */
ipc_status ipcc_world_write_ply(const ipcc_world *w, const char *path, ipc_error *err);
ipc_status ipcc_world_write_vtu(const ipcc_world *w, const char *path, ipc_error *err);
ipc_status ipcc_world_write_vtu_encoded(const ipcc_world *w, const char *path, ipc_vtu_encoding enc,
                                        ipc_error *err);
ipc_status ipcc_world_write_pc2(const ipcc_world *w, const char *dir, int frame, ipc_error *err);
/* frame number `frame` in every format of `formats` (as ipc_world_write_frame) */
ipc_status ipcc_world_write_frame(const ipcc_world *w, const char *dir, int frame, unsigned formats,
                                  ipc_error *err);
ipc_camera ipcc_world_default_camera(const ipcc_world *w);
ipc_camera ipcc_world_follow_camera(const ipcc_world *w);
void ipcc_world_render(ipc_image *im, const ipcc_world *w, const ipc_camera *cam);

#endif
