/* the LCP mode's options and statistics (a world of either mode: ipcc/world_unified.h). LCP
   mode steps the same model as IPC mode (bodies, materials,
   boundary conditions, planes), velocity-level complementarity contact instead of the
   barrier. Details and the choice of options: docs/lcp-mode.md. */
#ifndef IPCC_LCP_WORLD_H
#define IPCC_LCP_WORLD_H

#include "ipcc/error.h"
#include "ipcc/export.h"
#include "ipcc/scene.h"

/* friction formulations */
typedef enum ipcc_lcp_friction {
  IPCC_LCP_FRICTION_NONE = 0,
  IPCC_LCP_FRICTION_BOX = 1,     /* boxed LCP: |t_i| <= mu n on two orthogonal tangents */
  IPCC_LCP_FRICTION_PYRAMID = 2, /* polyhedral cone with k directions (LCP with slack) */
  IPCC_LCP_FRICTION_CONE = 3,    /* exact Coulomb disk by projection */
} ipcc_lcp_friction;

/* which inverse the contact impulses act through */
typedef enum ipcc_lcp_coupling {
  IPCC_LCP_LUMPED = 0,  /* W = J M^-1 J^T, M the lumped mass (sparse, regions per vertex) */
  IPCC_LCP_COUPLED = 1, /* W = J A^-1 J^T, A = M + h^2 K (CHOLMOD; regions per body) */
} ipcc_lcp_coupling;

/* statistics of one LCP time step (times in seconds) */
typedef struct ipcc_lcp_step_stats {
  int step;            /* 1-based index of the step just taken */
  double time;         /* simulated time at the end of the step */
  int contacts;        /* contacts solved in the step */
  int regions;         /* independent contact regions solved */
  int region_max;      /* contacts in the largest region */
  int region_hist[6];  /* regions of 1, 2-4, 5-16, 17-64, 65-256, > 256 contacts */
  long lcp_iterations; /* summed over regions */
  int unconverged;     /* regions whose solver stopped above tolerance */
  double residual;     /* largest natural-map residual ||min(z, Wz+q)||_2 over regions */
  double rel_residual; /* largest residual / ||q||_2 over regions */
  double min_distance; /* smallest signed gap within the contact gap at the end of the step
                          (negative: penetration depth); INFINITY when none */
  int contacts_after;  /* contacts within the gap at the end of the step */
  double energy;       /* kinetic + elastic + gravity potential at the end of the step */
  double t_velocity;   /* unconstrained velocity: assembly, factor, solve */
  double t_contacts;   /* broad phase and contact generation */
  double t_solve;      /* LCP assembly and solves */
  double t_total;
  int velocity_iterations; /* preconditioned CG iterations of the unconstrained velocity with
                              an earlier factor (0: factored this step) */
  int refactored;          /* A = M + h^2 K was factored this step */
  int prescribed_overlap;  /* contacts at the end of the step with a negative gap whose vertices
                              all move by prescription (scripted, pinned, obstacles): surfaces
                              that prescribed motions carried into or through each other, which
                              no contact impulse can separate */
} ipcc_lcp_step_stats;

/* which contact points the LCP mode solves */
typedef enum ipcc_lcp_manifold {
  IPCC_LCP_MANIFOLD_REDUCED = 0, /* at most four per touching pair (deformable: per patch) */
  IPCC_LCP_MANIFOLD_FULL = 1,    /* every point contact within the gap */
} ipcc_lcp_manifold;

/* options of the LCP mode. solver takes the values of the LCP solvers:
   0 pgs, 1 pcg-pgs, 2 amgs, 3 lemke (see ipcc_lcp_world_def_set for names) */
typedef struct ipcc_lcp_world_def {
  int solver;
  ipcc_lcp_friction friction;
  int pyramid_directions; /* k >= 3 for the pyramid (4) */
  ipcc_lcp_coupling coupling;
  double contact_gap;   /* contacts are generated below this distance (m); 0 = 0.1 x the
                           mean surface edge length, at most 1e-2 x the bbox diagonal */
  double baumgarte;     /* in [0, 1]: fraction of a penetration corrected per step (0.2) */
  double restitution;   /* in [0, 1] (0) */
  double tol;           /* relative residual tolerance of the iterative solvers (1e-8) */
  int max_iter;         /* sweeps (1000) */
  double omega;         /* PGS over-relaxation in (0, 2) (1) */
  int warm_start;       /* start from the previous step's impulses of the same contacts (1) */
  int split_regions;    /* solve each independent region separately (1) */
  const char *dump_dir; /* when set, each region's LCP is written there as Matrix Market */
  /* contact manifolds: at most four points per touching pair (reduced) or every point */
  ipcc_lcp_manifold manifold;
} ipcc_lcp_world_def;

/* defaults as listed above: PGS, no friction, coupled (stable on stiff, light bodies; lumped
   is the model of Lazarevych et al. and Erleben's notes: docs/lcp-mode.md) */
IPCC_API ipcc_lcp_world_def ipcc_default_lcp_world_def(void);

/* sets one option by name, as scenes and the command line spell them: "solver" (pgs,
   pcg-pgs, amgs, lemke), "friction" (none, box, pyramid, cone), "directions", "coupling"
   (lumped, coupled), "gap", "baumgarte", "restitution", "tolerance", "max_iterations",
   "omega", "warm_start" (true/false), "regions" (true/false), "manifold" (reduced, full).
   IPCC_ERR_INPUT names the key and what was expected. */
IPCC_API ipcc_status ipcc_lcp_world_def_set(ipcc_lcp_world_def *d, const char *key,
                                            const char *value, ipcc_error *err)
    IPCC_NONNULL(1, 2, 3);

/* reads a scene file's "mode" ("ipc" or "lcp", *lcp_mode 1 for lcp) and its "lcp" object of
   options (keys as ipcc_lcp_world_def_set) into d; d keeps its values for missing keys.
   lcp_mode may be NULL. */
IPCC_API ipcc_status ipcc_lcp_scene_load(const char *path, ipcc_lcp_world_def *d, int *lcp_mode,
                                         ipcc_error *err) IPCC_NONNULL(1, 2);

/* names of a friction formulation and a coupling as ipcc_lcp_world_def_set spells them */
IPCC_API const char *ipcc_lcp_friction_name(ipcc_lcp_friction f);
IPCC_API const char *ipcc_lcp_coupling_name(ipcc_lcp_coupling c);

#endif
