/* the state of a world (docs/one-world.md): everything a step changes that the next step
   starts from, the same in both modes. What a mode keeps besides (IPC: kappa, the last
   distance; LCP: the last contacts, warm-start impulses, the stale factor's point) stays in
   its world, and workspaces are rebuilt from these. */
#ifndef IPCC_CORE_STATE_H
#define IPCC_CORE_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "core/model.h"
#include "core/rest.h"

typedef struct ipc_state {
  int step;
  double time;
  double *x, *v;        /* (nverts x 3) positions, velocities */
  double *a;            /* (nverts x 3) Newmark's accelerations (0 under implicit Euler, LCP) */
  double *q, *qd, *qdd; /* (naff x 12) affine bodies' q, qdot and Newmark's qddot; NULL if none */
  double *center;       /* (ndirichlet x 3) centres of the scripted regions */
} ipc_state;

/* the state at the model's start: step 0, time 0, x = x0, v = v0, a = 0, q = qd = qdd = 0
   (ipc_rest_affine_start sets the affine bodies' start), the regions' centres at rest */
void ipc_state_init(ipc_state *s, const ipc_model *m, int naff);

/* frees and zeroes */
void ipc_state_free(ipc_state *s);

/* kinetic + gravitational energy of the state: the affine bodies of r from their exact mass
   matrices, with their orthogonality energy (ipc_affine_body_energy), the other vertices from
   their lumped masses; elastic energy not included */
double ipc_state_mechanical_energy(const ipc_state *s, const ipc_model *m, const ipc_rest *r);

/* ---- the state record (checkpoints, ipc_world_save_state / ipc_lcp_world_save_state): one
   serialisation for both modes. Layout (host byte order; read back by the same build):
     "IPCSTATE"  8 bytes magic
     u32 version IPC_STATE_VERSION, u32 mode (ipc_state_mode)
     u32 nverts, ntets, ndirichlet, naff   must match the world it is loaded into
     u32 nfields, then per field: u32 tag, u64 byte count, the bytes
   The state's own fields (tags below 32, ipc_state_fields) are the same in both modes; a
   mode adds its own (tags from 32: IPC's kappa and last distance, LCP's contacts, warm start
   and factor reuse). A reader refuses unknown tags, missing fields and other versions. ---- */

#define IPC_STATE_VERSION 1u

typedef enum ipc_state_mode { IPC_STATE_IPC = 0, IPC_STATE_LCP = 1 } ipc_state_mode;

enum {
  IPC_STATE_TAG_STEP = 1,
  IPC_STATE_TAG_TIME = 2,
  IPC_STATE_TAG_X = 5,
  IPC_STATE_TAG_V = 6,
  IPC_STATE_TAG_A = 7,
  IPC_STATE_TAG_CENTER = 8,
  IPC_STATE_TAG_Q = 9,
  IPC_STATE_TAG_QD = 10,
  IPC_STATE_TAG_QDD = 11,
  IPC_STATE_TAG_MODE = 32 /* the modes' fields start here */
};

typedef struct ipc_state_field {
  uint32_t tag;
  uint64_t bytes;
  void *data;
} ipc_state_field;

/* the sizes a record is made for */
typedef struct ipc_state_shape {
  ipc_state_mode mode;
  int nverts, ntets, ndirichlet, naff;
  int accel; /* 1: a (and qdd) are part of the state (Newmark) */
} ipc_state_shape;

/* the state's fields of shape sh, pointing into s: step, time, x, v, centres; a when
   sh->accel; q, qd (and qdd when sh->accel) when sh->naff > 0. Returns their count (<= 9) */
int ipc_state_fields(const ipc_state *s, const ipc_state_shape *sh, ipc_state_field *out);

/* writes a record of shape sh: the state's fields, then the mode's nextra fields */
ipcc_status ipc_state_save(const ipc_state *s, const ipc_state_shape *sh,
                           const ipc_state_field *extra, int nextra, FILE *f, ipcc_error *err);

/* a record read into memory */
typedef struct ipc_state_record {
  int n;
  ipc_state_field f[32]; /* data owned */
} ipc_state_record;

/* reads a whole record from f (the rest of f is the record) that must fit shape sh: magic,
   version, mode and sizes checked, every field read (each once; no more bytes than f holds).
   IPCC_ERR_INPUT with a message ("world state: ...") otherwise; r is then empty */
ipcc_status ipc_state_record_read(ipc_state_record *r, FILE *f, const ipc_state_shape *sh,
                                  ipcc_error *err);

/* the field with this tag or NULL; its byte count into *bytes */
const void *ipc_state_record_get(const ipc_state_record *r, uint32_t tag, uint64_t *bytes);

/* checks the record's state fields against shape sh (each present with its size, finite, the
   step >= 0) and that it holds no field outside them and the mode's tags (nmode of them);
   IPCC_OK, or IPCC_ERR_INPUT naming the field */
ipcc_status ipc_state_record_check(const ipc_state_record *r, const ipc_state_shape *sh,
                                   const uint32_t *mode_tags, int nmode, ipcc_error *err);

/* copies the record's state fields (checked) into s */
void ipc_state_record_apply(const ipc_state_record *r, const ipc_state_shape *sh, ipc_state *s);

void ipc_state_record_free(ipc_state_record *r);

#endif
