/* the world both contact models step (docs/one-world.md, stage 4): the model, its rest data,
   the state and the step's prescription, and the strategy that steps them (IPC's Newton on the
   incremental potential, or the velocity LCP). Internal: the handles ipc_world and
   ipc_lcp_world (src/ipc/world.h, src/lcp/lcp_world.h) are the two strategies' workspaces, each
   holding an ipcc_world as its first member `world`; their public functions are written once
   over it (src/ipc/world_api.c).

   where the data lives: the model (m), rest data (rest), state (s) and prescription (pre) are
   fields of the workspace, read there as w->m, w->s, ... by the strategy's code (newton.c,
   free_velocity.c, ...); the world points at them. Creation, the accessors, the state records
   and the checks shared by both modes read them through the world only. */
#ifndef IPCC_CORE_WORLD_H
#define IPCC_CORE_WORLD_H

#include <stdio.h>

#include "core/model.h"
#include "core/prescribe.h"
#include "core/rest.h"
#include "core/state.h"
#include "ipcc/scene.h"
#include "ipcc/world_unified.h"

/* a strategy's fields of a state record: at most this many, with this much scratch */
#define IPCC_STATE_EXTRA 16
#define IPCC_STATE_SCRATCH 64

/* a contact model: how a world is built beyond the model and how it steps */
typedef struct ipcc_strategy {
  const char *name;          /* "ipc" or "lcp" (stats.json's mode, messages) */
  ipc_rest_origin origin;    /* the affine bodies' rest coordinates (core/rest.h) */
  int allows_penetration;    /* 1: small overlaps at contacts are part of the model (LCP): the
                                exact check reports them without failing a run, and neither planes
                                nor affine maps are checked */
  size_t record_size;        /* bytes of one step's statistics (ipcc_step_stats, ...) */
  ipc_state_mode state_mode; /* the mode its state records name (core/state.h) */
  int newmark;               /* 1: follows the scene's integrator (Newmark's accelerations are
                                part of the state); 0: linearly implicit Euler always */
  /* the strategy's options, before anything is built (NULL: none to check) */
  ipcc_status (*check_options)(const void *options, ipcc_error *err);
  /* a zeroed workspace with its world (the `world` member) pointing at its model, rest data,
     state and prescription */
  ipcc_world *(*alloc)(void);
  /* what this strategy cannot step in a built model, before rest data (NULL: nothing) */
  ipcc_status (*check_model)(const ipc_model *m, const ipcc_scene_def *def, ipcc_error *err);
  /* the workspace, once model, rest data, state and prescription are built; on error the
     world is destroyed by the caller */
  ipcc_status (*init)(ipcc_world *w, const ipcc_scene_def *def, const void *options,
                      ipcc_error *err);
  /* frees what init allocated (any part of it may be missing), not the workspace itself */
  void (*release)(ipcc_world *w);
  /* one step; record: record_size bytes, overwritten */
  ipcc_status (*step)(ipcc_world *w, void *record, ipcc_error *err);
  /* the strategy's fields of the state record (core/state.h; its tags, from
     IPC_STATE_TAG_MODE): into extra (at most IPCC_STATE_EXTRA), pointing into the workspace
     or into scratch (IPCC_STATE_SCRATCH bytes, aligned for any number); returns how many */
  int (*state_fields)(const ipcc_world *w, ipc_state_field *extra, void *scratch);
  const uint32_t *state_tags; /* every tag it may write */
  int nstate_tags;
  /* a record read for w, its state's fields checked: checks the strategy's fields, then
     copies the state's (ipc_state_record_apply) and its own into w; a refused record
     (IPCC_ERR_INPUT, err naming the field) leaves w as it was */
  ipcc_status (*state_apply)(ipcc_world *w, const ipc_state_record *r, const ipc_state_shape *sh,
                             ipcc_error *err);
  /* the distance below which contacts act: IPC's dhat, LCP's contact gap (m) */
  double (*contact_distance)(const ipcc_world *w);
  /* after x (positions 1) or v (0) was set from outside (ipcc_world_set_positions, ...):
     rebuilds what the workspace cached from them; with positions, IPCC_ERR_INPUT when the
     strategy refuses the state (the caller then restores the old one and calls again) */
  ipcc_status (*state_changed)(ipcc_world *w, int positions, ipcc_error *err);
  /* the contacts at the current state (ipcc_world_contacts): fills out[0 .. cap-1], returns
     how many there are */
  int (*contacts)(const ipcc_world *w, ipcc_contact *out, int cap);
} ipcc_strategy;

extern const ipcc_strategy ipcc_strategy_ipc; /* src/ipc/world.c */
extern const ipcc_strategy ipcc_strategy_lcp; /* src/lcp/lcp_world.c */

struct ipcc_world {
  const ipcc_strategy *strategy;
  void *ws;              /* the strategy's workspace (ipc_world or ipc_lcp_world) */
  ipc_model *m;          /* immutable after creation */
  ipc_rest *rest;        /* rest shapes, affine bodies' list and moments */
  ipc_state *s;          /* time, step, x, v (a), affine q, qdot (qddot), script centres */
  ipc_prescription *pre; /* the step's scripted targets */
  double *force;         /* (nverts x 3) external forces set from outside, or NULL (none) */
};

/* builds a world: the scene's checks (ipcc_scene_def_check), the strategy's options, the model,
   the strategy's checks of it, rest data, state and prescription, then the strategy's
   workspace. NULL on error (err filled) */
ipcc_world *ipcc_world_create(const ipcc_scene_def *def, const ipcc_strategy *strategy,
                              const void *options, ipcc_error *err);
/* (ipcc_world_destroy, _step (record: strategy->record_size bytes or NULL), _positions,
   _velocities, _vertex_count, _time, _step_count, _contact_distance and the setters: the
   public ipcc/world_unified.h) */
/* (ipcc_world_tet_count, _tet_energy_density, _scene_steps, _intersection_free, _body,
   _save_state, _load_state (the state record of core/state.h: the state's fields, then the
   strategy's), ...: ipcc/world_unified.h; a strategy that allows penetration skips the planes
   and the affine maps in the intersection check) */

#endif
