/* the encodings of the VTU frame writer (frame_vtu.c): ascii text, raw binary appended data,
   zlib-compressed appended data (VTK's vtkZLibDataCompressor). ipc_world_write_vtu and
   ipc_lcp_world_write_vtu take the one IPC_VTU_ENCODING names (ascii, raw or zlib), else
   IPC_VTU_DEFAULT_ENCODING; the functions here take it as a parameter */
#ifndef IPCC_IO_FRAME_VTU_H
#define IPCC_IO_FRAME_VTU_H

#include "ipc/world.h"
#include "ipcc/error.h"
#include "lcp/lcp_world.h"

typedef enum ipc_vtu_encoding {
  IPC_VTU_ASCII = 1, /* every array as text (%.17g: the doubles read back bit for bit) */
  IPC_VTU_RAW,       /* <AppendedData encoding="raw">: UInt64 byte count, little-endian bytes */
  IPC_VTU_ZLIB       /* the same, each array in zlib-compressed blocks of 32 KiB */
} ipc_vtu_encoding;

#define IPC_VTU_DEFAULT_ENCODING IPC_VTU_ZLIB

/* the encoding named s ("ascii", "raw" or "zlib") into *out: 0, or -1 for another name */
int ipc_vtu_encoding_parse(const char *s, ipc_vtu_encoding *out);

/* "ascii", "raw" or "zlib" */
const char *ipc_vtu_encoding_name(ipc_vtu_encoding e);

/* the encoding the environment asks for: IPC_VTU_ENCODING when set and not empty, else
   IPC_VTU_DEFAULT_ENCODING; IPCC_ERR_INPUT naming the variable for another value */
ipcc_status ipc_vtu_encoding_from_env(ipc_vtu_encoding *out, ipcc_error *err);

/* ipc_world_write_vtu and ipc_lcp_world_write_vtu in encoding enc (IPC_VTU_ENCODING is not
   read) */
ipcc_status ipc_world_write_vtu_encoded(const ipc_world *w, const char *path, ipc_vtu_encoding enc,
                                        ipcc_error *err);
ipcc_status ipc_lcp_world_write_vtu_encoded(const ipc_lcp_world *w, const char *path,
                                            ipc_vtu_encoding enc, ipcc_error *err);

#endif
