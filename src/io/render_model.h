/* the renderer over a model and positions, for `ipcc render`, which draws the frames of a
   run without a world (render.h draws a world's current state) */
#ifndef IPCC_IO_RENDER_MODEL_H
#define IPCC_IO_RENDER_MODEL_H

#include "core/model.h"
#include "ipcc/render.h"

/* as ipc_world_default_camera, from the model alone */
ipc_camera ipc_model_camera(const ipc_model *m);

/* as ipc_render_world, with the vertices of m at pos (m->nverts x 3) */
void ipc_render_model(ipc_image *im, const ipc_model *m, const double *pos, const ipc_camera *cam);

#endif
