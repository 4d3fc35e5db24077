/* ipcc: intersection-free contact simulation (IPC) beside an LCP contact mode.
   The public API: include this one header and link with `pkg-config --libs ipcc`
   (docs/using-ipcc-from-c.md). The world, one handle for both contact models (IPC barrier,
   LCP): ipcc_world of ipcc/world_unified.h. Every public name starts with ipcc_ (constants
   and macros: IPCC_). Every function reports failure through an ipcc_status and an
   optional ipcc_error (ipcc/error.h). The library does not exit; it aborts when memory runs
   out or an internal assertion fails, and prints only the warnings of
   ipcc_scene_load_txt's IPCC_SCENE_LENIENT mode (stderr). */
#ifndef IPCC_IPCC_H
#define IPCC_IPCC_H

#include "ipcc/error.h"
#include "ipcc/lcp_world.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"
#include "ipcc/world_unified.h"

#define IPCC_VERSION_STRING "0.1.0"

#endif
