/* scripted vertices on the Newton solve's side (newton.c): IPC's moving boundary conditions
   for the scripted vertices of deformable bodies on IPC's Newton path (its AnimScripter's
   move at a step's start and its augmented Lagrangian's penalty schedule after each line
   search), and the direct placement of scripted vertices and affine bodies on their targets
   elsewhere. Internal to src/ipc */
#ifndef IPCC_IPC_SCRIPTED_H
#define IPCC_IPC_SCRIPTED_H

#include "ipc/world_internal.h"

/* 1 when vertex i is one of IPC's Dirichlet nodes: scripted, of a deformable body or of an
   IPC codimensional shape (a mass in w->mbc.mass), not of an affine body */
int ipc_mbc_vertex(const ipc_world *w, int i);

/* holds IPC's Dirichlet nodes where they are (held) or lets them go under the pull of
   stiffness w->mbc.rho per unit mass; the solver's DOF mask follows */
void ipc_mbc_hold(ipc_world *w, int held);

/* IPC's moving boundary conditions after a line search, pmax the search direction's largest
   entry; 1 when the potential changed (its terms or unknowns) */
int ipc_mbc_update(ipc_world *w, double pmax);

/* IPC's scripted move at a step's start; w->mbc.on when something moves */
void ipc_mbc_begin(ipc_world *w, ipcc_step_stats *st);

/* places the scripted vertices not fixed yet (obstacles_only: those of kinematic obstacles)
   on their targets when the move is collision-free, then fixes them; 1 on success */
int ipc_place_scripted(ipc_world *w, ipcc_step_stats *st, int obstacles_only);

/* places each scripted affine body not fixed yet on its script's q when collision-free, then
   fixes it; 1 when every such body is placed */
int ipc_place_affine_scripted(ipc_world *w, ipcc_step_stats *st);

/* 1 when vertex i has a script it does not follow yet */
int ipc_script_unplaced(const ipc_world *w, int i);

#endif
