/* ipcc: intersection-free contact simulation (IPC) beside an LCP contact mode */
#ifndef IPCC_IPCC_H
#define IPCC_IPCC_H

#include "ipcc/error.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/render.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

#define IPC_VERSION_STRING "0.1.0"

#endif
