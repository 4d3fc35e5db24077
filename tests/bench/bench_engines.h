/* the shared part of bench_engines (bench_engines.c): a scene of ipcc's read through its public
   API and turned into rigid bodies for other engines (Bullet in bench_bullet.cpp, ODE in
   bench_ode.c), and the per-step report every engine fills. C17, callable from C++. */
#ifndef BENCH_ENGINES_H
#define BENCH_ENGINES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* one free body as a rigid body: its surface in its principal frame */
typedef struct bench_body {
  int nverts;
  double *local; /* (nverts x 3) surface vertices in the body frame: origin at the centre of
                    mass, axes along the principal axes of inertia */
  int ntris;
  int *tris;         /* (ntris x 3) outward, counter-clockwise seen from outside */
  double mass;       /* kg: density x the volume the surface encloses */
  double inertia[3]; /* kg m^2: principal moments about the centre of mass */
  double pos[3];     /* m: centre of mass at t = 0 */
  double rot[9];     /* body frame to world, row-major, det +1 */
  double vel[3];     /* m/s: velocity of the centre of mass at t = 0 */
  double omega[3];   /* rad/s */
  double friction;   /* the scene's coefficient of the body */
} bench_body;

/* a kinematic obstacle that does not move: triangles in world coordinates */
typedef struct bench_static_mesh {
  int nverts;
  double *x; /* (nverts x 3) */
  int ntris;
  int *tris; /* (ntris x 3) */
  double friction;
} bench_static_mesh;

typedef struct bench_plane {
  double point[3], normal[3]; /* normal unit, pointing to the allowed side */
  double friction;
} bench_plane;

typedef struct bench_scene {
  const char *path;
  double h;             /* s */
  double gravity[3];    /* m/s^2 */
  int friction_combine; /* ipcc_friction_combine of the scene */
  int nbodies;
  bench_body *bodies;
  int nstatic;
  bench_static_mesh *statics;
  int nplanes;
  bench_plane *planes;
} bench_scene;

/* the coefficient of a contact between surfaces of coefficients a and b (obstacle: 1 when b is
   an obstacle's or a plane's), by the scene's rule */
double bench_combine_friction(const bench_scene *s, double a, double b, int b_obstacle);

/* the options every engine reads */
typedef struct bench_options {
  int steps;    /* steps to run */
  int window_a; /* summary over steps window_a..window_b (1-based) */
  int window_b;
  int every;                  /* one report line per block of this many steps */
  int iterations;             /* solver sweeps per island (Bullet numIterations, ODE QuickStep) */
  int ode_max_contacts;       /* contact points per geom pair in ODE */
  double bullet_margin;       /* Bullet's collision margin of the hulls (m) */
  int bullet_dbvt;            /* 1: Bullet's btDbvtBroadphase instead of btAxisSweep3 */
  int ode_static_prisms;      /* 1: ODE gets static meshes as convex prisms, 0 as dGeomTriMesh */
  double ode_prism_thickness; /* m */
} bench_options;

/* what one engine reports while it runs a scene */
typedef struct bench_report bench_report;

/* one step taken: contacts and solver iterations as the engine counts them, its wall and CPU
   time, and the smallest signed gap the engine saw (negative: penetration depth; INFINITY: none) */
void bench_report_step(bench_report *r, int step, long contacts, long iterations, double seconds,
                       double cpu_seconds, double min_gap);
/* true when the report wants the body centres after this step (then bench_report_centres) */
int bench_report_wants_centres(const bench_report *r, int step);
/* the centres of mass of the free bodies after the step, (nbodies x 3) */
void bench_report_centres(bench_report *r, int step, const double *centres);

/* wall clock and the process's CPU time, s */
double bench_now(void);
double bench_cpu_now(void);

/* the engines: run the scene for o->steps steps and report each; 0 on success, else a message
   on stderr. Built in only when the engine is found (BENCH_HAVE_BULLET, BENCH_HAVE_ODE). */
int bench_run_bullet(const bench_scene *s, const bench_options *o, bench_report *r);
int bench_run_ode(const bench_scene *s, const bench_options *o, bench_report *r);

#ifdef __cplusplus
}
#endif

#endif
