/* saving and restoring the changing state of an IPC world (checkpoints for ipcc run --resume)
   as the record of core/state.h, both modes' format. Besides the state (step, time, x, v,
   script centres, affine q and qdot; with Newmark a and qddot) the IPC world saves
     kappa (tag 32)    the adaptive barrier stiffness (0 = not yet set)
     min_d2 (tag 33)   the smallest squared distance at the end of the last step (may be inf)
   everything else in the world is either fixed by the scene (model, rest shapes, kappa
   bounds) or recomputed at the start of each step (candidates, contacts, targets, masks).
   not saved: the Newton solver's sparse pattern. a running world keeps the off-diagonal
   blocks of the previous step's last assembly as explicit zeros until a new block forces a
   rebuild; a loaded world starts without them. the first assembly of a step is at the
   positions the previous step ended on (scripted vertices aside, which are not in the
   system), so it needs the same contact blocks and the patterns agree; resumed runs of every
   scene in scenes/ matched uninterrupted ones bit for bit (tests/test_resume.sh). should a
   scene show otherwise, save the block list of the sparse assembler here. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/state.h"
#include "ipc/world_internal.h"

enum { TAG_KAPPA = IPC_STATE_TAG_MODE, TAG_MIN_D2 };

const uint32_t ipc_world_state_tags[2] = {TAG_KAPPA, TAG_MIN_D2};

int ipc_world_state_fields(const ipcc_world *world, ipc_state_field *extra, void *scratch) {
  (void)scratch;
  const ipc_world *w = world->ws;
  extra[0] = (ipc_state_field){TAG_KAPPA, sizeof w->kappa, (void *)&w->kappa};
  extra[1] = (ipc_state_field){TAG_MIN_D2, sizeof w->min_d2, (void *)&w->min_d2};
  return 2;
}

ipcc_status ipc_world_state_apply(ipcc_world *world, const ipc_state_record *r,
                                  const ipc_state_shape *sh, ipcc_error *err) {
  ipc_world *w = world->ws;
  double kappa = 0, min_d2 = 0;
  uint64_t nk = 0, nd = 0;
  const void *pk = ipc_state_record_get(r, TAG_KAPPA, &nk);
  const void *pd = ipc_state_record_get(r, TAG_MIN_D2, &nd);
  if (!pk || !pd || nk != sizeof kappa || nd != sizeof min_d2)
    return ipc_error_set(err, IPCC_ERR_INPUT, "world state: field %u is missing or not one number",
                         !pk || nk != sizeof kappa ? TAG_KAPPA : TAG_MIN_D2);
  memcpy(&kappa, pk, sizeof kappa);
  memcpy(&min_d2, pd, sizeof min_d2);
  if (!isfinite(kappa) || !(isfinite(min_d2) || min_d2 == INFINITY))
    return ipc_error_set(err, IPCC_ERR_INPUT, "world state: field %u holds %g",
                         isfinite(kappa) ? TAG_MIN_D2 : TAG_KAPPA,
                         isfinite(kappa) ? min_d2 : kappa);
  /* the world changes only once every field has been read and checked (a refused record
     leaves it as it was) */
  ipc_state_record_apply(r, sh, &w->s);
  w->kappa = kappa;
  w->min_d2 = min_d2;
  w->drive_stale = 1;
  return IPCC_OK;
}
