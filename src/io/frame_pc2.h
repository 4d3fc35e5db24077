/* the point cache of a run (frame_pc2.c): DIR/rest.obj, the surfaces of frame 0 with vertex
   normals, and DIR/motion.pc2, every frame's positions of the same vertices. the writers are
   ipc_world_write_pc2 (output.h) and ipc_lcp_world_write_pc2 (lcp_world.h); these are what
   `ipcc run --resume`, the checkpoint and the tests need besides */
#ifndef IPCC_IO_FRAME_PC2_H
#define IPCC_IO_FRAME_PC2_H

#include <stddef.h>

#include "ipcc/error.h"

#define IPC_PC2_REST "rest.obj"
#define IPC_PC2_CACHE "motion.pc2"
#define IPC_PC2_HEADER_BYTES 32

/* the header of a PC2 file */
typedef struct ipc_pc2_header {
  int points;  /* numPoints */
  int samples; /* numSamples */
  float start; /* startFrame */
  float rate;  /* sampleRate */
} ipc_pc2_header;

/* reads and checks the header of the PC2 file at path: the signature, version 1, counts that
   are not negative and a file long enough for its samples (longer is fine: a run stopped
   between appending a sample and counting it). IPCC_ERR_INPUT naming the file otherwise */
ipcc_status ipc_pc2_read_header(const char *path, ipc_pc2_header *h, ipcc_error *err);

/* the bytes of sample k (points x 3 little-endian float32) of dir/motion.pc2 into a new
   buffer (ipc_free it), its length in *len; NULL with err naming the file when the cache is
   missing, damaged or holds no sample k */
unsigned char *ipc_pc2_read_sample(const char *dir, int k, size_t *len, ipcc_error *err);

/* cuts dir/motion.pc2 to its first `samples` samples (a resumed run continues after its
   checkpointed frame), count in the header and fsync; IPCC_ERR_INPUT when it is missing,
   damaged or holds fewer samples */
ipcc_status ipc_pc2_truncate(const char *dir, int samples, ipcc_error *err);

#endif
