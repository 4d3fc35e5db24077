/* scripted (Dirichlet) motion shared by the IPC and LCP worlds: each active region moves
   rigidly over a step of length h, rotating about its moving centre by the axis-angle
   angular_velocity * h (Rodrigues) and translating by velocity * h. */
#ifndef IPCC_CORE_DIRICHLET_H
#define IPCC_CORE_DIRICHLET_H

#include "core/model.h"

/* out = r rotated by the angle |omega| h about omega (Rodrigues) */
void ipc_dirichlet_rotate(double out[3], const double omega[3], double h, const double r[3]);

/* the script d's rigid motion over a step of h applied to an affine state q (12, as
   affine/affine.h orders it) about the region centre c: p' = c + R (p - c) + v h and
   A' = R A (R the step's rotation), so J_i qs is the script's motion of x_i = J_i q */
void ipc_dirichlet_affine_target(const ipc_dirichlet *d, const double c[3], double h,
                                 const double q[12], double qs[12]);

/* the target qs of an affine body at q whose scripts are the model's entries d0 .. d0 + nd - 1
   (centres in center, ndirichlet x 3), for the step of h starting at t: the last entry
   active at t wins, as for vertex targets. Returns 1 when one is active (qs set), else 0 */
int ipc_dirichlet_affine_scripted(const ipc_model *m, const double *center, int d0, int nd,
                                  double t, double h, const double q[12], double qs[12]);

/* 1 when the region's script applies to the step starting at time t */
int ipc_dirichlet_active(const ipc_dirichlet *d, double t);

/* targets at the end of the step starting at time t for the vertices of every region active
   at t: target (nverts x 3) from the positions x and the region centres center
   (ndirichlet x 3); sets scripted[v] = 1 for each of them (other entries untouched) */
void ipc_dirichlet_targets(const ipc_model *m, const double *center, double h, double t,
                           const double *x, double *target, unsigned char *scripted);

/* ends (t_end = t) every entry active at t with a release_x that its body has passed: all
   of the body's vertices at x > release_x (IPC's dragright lets the body go once it is to
   the right of every meshCO). Called at a step's start, before ipc_dirichlet_targets; the
   end is kept in the model, so a run resumed from a checkpoint decides it again */
void ipc_dirichlet_release(ipc_model *m, double t, const double *x);

/* moves the centres of the regions active at t on by velocity * h (after the step) */
void ipc_dirichlet_advance_centers(const ipc_model *m, double *center, double h, double t);

/* the targets of the bodies moved through mesh sequences for the step with index `step`
   (0 = the first): reads each body's file of that step (ipc_mesh_seq) and sets target and
   scripted for its vertices. IPCC_ERR_INPUT naming the file when it is missing, unreadable
   or has another number of vertices than the body */
ipcc_status ipc_mesh_seq_targets(const ipc_model *m, int step, double *target,
                                 unsigned char *scripted, ipcc_error *err);

#endif
