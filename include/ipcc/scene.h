/* scene definitions: what a scene file says, before anything is simulated.
   build one with ipcc_scene_load (JSON) or fill the defs by hand.

   Ownership: an ipcc_scene_def owns every pointer in it (path, bodies, planes, and in each
   body name, mesh, dirichlet, neumann and their regions' verts); ipcc_scene_def_free
   releases them all with free(). A scene built in code therefore allocates them with
   malloc / calloc / realloc (never string literals or stack arrays) and calls
   ipcc_scene_def_free once; or it keeps its own memory and never calls it. Start from
   ipcc_default_scene_def / ipcc_default_body_def (they allocate nothing). ipcc_world_new
   and ipcc_world_load copy what they need, so the definition may be freed right after
   (examples/build_scene.c). */
#ifndef IPCC_SCENE_H
#define IPCC_SCENE_H

#include "ipcc/error.h"
#include "ipcc/export.h"

typedef enum ipcc_material_kind {
  IPCC_MAT_NEO_HOOKEAN = 0,
  IPCC_MAT_FIXED_COROTATED = 1,
  IPCC_MAT_STVK = 2,
} ipcc_material_kind;

/* how the coefficients of two touching surfaces combine into the contact's coefficient */
typedef enum ipcc_friction_combine {
  IPCC_FRICTION_GEOMETRIC_MEAN = 0, /* sqrt(a b), the default */
  IPCC_FRICTION_MEAN = 1,           /* (a + b) / 2 */
  IPCC_FRICTION_MIN = 2,
  IPCC_FRICTION_MAX = 3,
  /* IPC's rule, the default for .txt scripts: a contact with an obstacle (a kinematic
     body, a collision mesh, the ground or a half space) takes the obstacle's coefficient
     alone; two bodies combine by the geometric mean (in IPC both carry selfFric) */
  IPCC_FRICTION_OBSTACLE = 4,
} ipcc_friction_combine;

/* which surfaces may touch: every pair (the default), only surfaces of different bodies
   (contact.self_collision false), or only a body against an obstacle (a kinematic body,
   a collision mesh, a plane): the bodies pass through each other (IPC's selfCollisionOff).
   pairs without contact get no barrier, no friction, no CCD bound and no intersection
   check: the filter sits in the broad phase (ipc_surface.body_contact) */
typedef enum ipcc_body_contact {
  IPCC_BODY_CONTACT_ALL = 0,
  IPCC_BODY_CONTACT_BETWEEN_BODIES = 1,
  IPCC_BODY_CONTACT_OBSTACLES_ONLY = 2,
} ipcc_body_contact;

typedef enum ipcc_time_integrator {
  IPCC_IMPLICIT_EULER = 0,
  IPCC_NEWMARK = 1, /* average acceleration (beta 1/4, gamma 1/2) */
} ipcc_time_integrator;

/* where each step's Newton solve starts (IPC's warmStart 0, 1, 2); a start other than the
   previous positions is taken only as far as CCD allows and only if it lowers the
   incremental potential */
typedef enum ipcc_warm_start {
  IPCC_WARM_PREVIOUS = 0, /* x^n, IPC's default */
  IPCC_WARM_VELOCITY = 1, /* x^n + h v^n */
  IPCC_WARM_INERTIAL = 2, /* the inertial prediction x~ (with gravity and Neumann forces) */
} ipcc_warm_start;

/* the solver of the Newton systems (newton.linear_solver; docs/scene-format.md). The PETSc
   ones need a build with PETSc (meson option petsc); a scene asking for one in a build
   without it is rejected at load */
typedef enum ipcc_linear_solver_kind {
  IPCC_LINEAR_SOLVER_CHOLMOD = 0,       /* CHOLMOD supernodal Cholesky (the default) */
  IPCC_LINEAR_SOLVER_PETSC_MUMPS = 1,   /* PETSc: MUMPS Cholesky (LDL^T), direct like CHOLMOD */
  IPCC_LINEAR_SOLVER_PETSC_CG_GAMG = 2, /* PETSc: CG preconditioned by GAMG */
  IPCC_LINEAR_SOLVER_PETSC = 3,         /* PETSc: only PETSc's options (-ksp_type, -pc_type) */
} ipcc_linear_solver_kind;

/* a region of vertices: a box in coordinates relative to the body's rest bounding
   box (0 = min, 1 = max; values outside [0,1] give slack), or an explicit list */
typedef struct ipcc_region_def {
  double box_min[3], box_max[3]; /* relative box; used when nverts == 0 */
  int nverts;
  int *verts; /* (nverts) body-local vertex ids, or NULL */
} ipcc_region_def;

/* scripted motion of a region: x(t) = c + R(omega (t - t0)) (x0 - c) + v (t - t0),
   c the center of the region's bounding box at activation */
typedef struct ipcc_dirichlet_def {
  ipcc_region_def region;
  double velocity[3];         /* m/s */
  double angular_velocity[3]; /* rad/s, about the region center */
  double t_begin, t_end;      /* active while t_begin <= t < t_end */
  int has_center;             /* 1: rotate about center (world coordinates at t = 0) */
  double center[3];
  /* 1: the script also ends (for good) at the start of the first step at which every
     vertex of its body lies at x > release_x (IPC's dragright: the body has passed the
     meshCO obstacles and is let go). Not a JSON key; set by the .txt reader */
  int has_release_x;
  double release_x;
  int source_line; /* line of the scene script (IPC .txt) that declared it, for messages;
                      0: named by its JSON key */
} ipcc_dirichlet_def;

/* extra acceleration (force per unit mass) on a region, during [t_begin, t_end) */
typedef struct ipcc_neumann_def {
  ipcc_region_def region;
  double acceleration[3]; /* m/s^2 */
  double t_begin, t_end;
  int source_line; /* as in ipcc_dirichlet_def */
} ipcc_neumann_def;

/* one body: a tet mesh (deformable) or a surface mesh (kinematic obstacle) */
typedef struct ipcc_body_def {
  char *name;            /* object name in outputs; NULL = from the file name */
  char *mesh;            /* path of .msh / .node / .ele / .obj */
  double scale[3];       /* applied first */
  double rotation[3];    /* degrees, R = Rx Ry Rz, applied after scale */
  double translation[3]; /* applied last */
  int obstacle;          /* 1: kinematic surface, no mass, moves by script only */
  ipcc_material_kind material;
  double density; /* kg/m^3 */
  double young;   /* Pa */
  double poisson;
  double friction;            /* kinetic friction coefficient (0 = frictionless) */
  double velocity[3];         /* initial linear velocity, m/s */
  double angular_velocity[3]; /* initial angular velocity, rad/s, about the bbox center */
  int ndirichlet;
  ipcc_dirichlet_def *dirichlet;
  int nneumann;
  ipcc_neumann_def *neumann;
  double friction_static; /* static coefficient; below friction (e.g. 0) = same as friction */
  int codim; /* obstacles: 0 as read; 1 keep only the triangles' edges; 2 only the vertices */
  /* obstacles moved through a sequence of meshes (IPC's meshSeq): the step with index k
     (0 = the first) ends with the vertices where file mesh_sequence/N + mesh_sequence_ext
     has them, N = k + mesh_sequence_start, in world coordinates (the body's transform is not
     applied), read when the step starts. NULL: none */
  char *mesh_sequence;
  int mesh_sequence_start;
  char mesh_sequence_ext[8]; /* ".obj", ".seg" */
  /* affine body (Affine Body Dynamics, Lan et al. 2022; IPC and LCP mode): the body moves as
     x = A xbar + p (12 DOFs), its tets give only the mass properties, and the orthogonality
     potential affine_stiffness V |A A^T - I|^2 keeps A near a rotation. affine_stiffness
     (Pa) <= 0: 1e3 x young */
  int affine;
  double affine_stiffness;
  /* 1: a shape of an IPC script that the original IPC code meshes as a codimensional component
     (triangles, segments or points): its nodes carry IPC's lumped mass (triangle corners area/3
     x mean edge length/3, segment ends length^3 pi/12, points the mean node mass of the tet
     shapes; times density), which they have while IPC's moving boundary conditions let them go
     (ipcc_scene_def.ipc_newton_path). Not a JSON key; set by the .txt reader */
  int ipc_codim_mass;
  /* line of the scene script (IPC .txt) that declared the body, for messages: the errors
     found when the scene is built then name FILE:LINE instead of a JSON key; 0 for JSON */
  int source_line;
} ipcc_body_def;

/* an analytic half-space {x : n.(x - p) >= 0} that bodies stay in */
typedef struct ipcc_plane_def {
  double point[3];
  double normal[3];       /* outward of the allowed side; any non-zero length (normalised) */
  double friction;        /* kinetic friction coefficient */
  double friction_static; /* static coefficient; below friction (e.g. 0) = same as friction */
} ipcc_plane_def;

/* frame file formats: bits of ipcc_scene_def.output_formats (PC2: the point cache
   frames/rest.obj + frames/motion.pc2 instead of a file per frame; PLANES: not a format of
   its own but, beside the frames, the analytic planes as squares in frames/planes.obj) */
enum {
  IPCC_FORMAT_OBJ = 1,
  IPCC_FORMAT_PLY = 2,
  IPCC_FORMAT_VTU = 4,
  IPCC_FORMAT_PC2 = 8,
  IPCC_FORMAT_PLANES = 16
};
/* the bits that choose frame files */
#define IPCC_FORMAT_FRAMES (IPCC_FORMAT_OBJ | IPCC_FORMAT_PLY | IPCC_FORMAT_VTU | IPCC_FORMAT_PC2)
/* every bit */
#define IPCC_FORMAT_ALL (IPCC_FORMAT_FRAMES | IPCC_FORMAT_PLANES)

typedef struct ipcc_scene_def {
  char *path;        /* the scene file, for messages; may be NULL */
  double time_step;  /* s */
  double duration;   /* s */
  double gravity[3]; /* m/s^2 */
  ipcc_time_integrator integrator;
  /* Rayleigh stiffness damping (IPC's dampingStiff / dampingRatio): the damping force is
     -damping_stiffness K v with K the (PSD-projected) elasticity Hessian at the start of
     each step; 0 = none. s */
  double damping_stiffness;
  /* contact */
  double dhat; /* barrier activation distance; relative to the bbox diagonal unless dhat_absolute */
  int dhat_absolute;
  double kappa; /* barrier stiffness; 0 = adaptive (IPC's rule) */
  /* with kappa 0: the adaptive kappa's value at a step's start before the balance rule (IPC's
     tuning[0]); it stays when no contact at the start sets kappa, and is raised to kappa's
     lower bound; 0 = the lower bound */
  double kappa_initial;
  ipcc_body_contact body_contact; /* which surface pairs touch (IPCC_BODY_CONTACT_ALL) */
  double ccd_scale;               /* line search starts at ccd_scale * time of impact (0.8) */
  /* newton */
  double newton_tol; /* stop when ||p||_inf / h < newton_tol * bbox diagonal (1e-2) */
  int newton_max_iterations;
  ipcc_warm_start warm_start; /* Newton's start each step (IPCC_WARM_PREVIOUS) */
  /* 0: one step size for every body, IPC's line search (default); 1: a step size per
     contact island, bodies that cannot touch along the step searched apart, converged
     islands frozen (newton.c, islands.h) */
  int island_line_search;
  /* with the global line search: once an accepted step's direction moves at most half of
     the bodies by more than a fifth of the tolerance, the others (unless a pair ties them to
     one of those) leave the system until every body is checked again (0, body_freezing.c) */
  int body_freezing;
  ipcc_linear_solver_kind linear_solver; /* (IPCC_LINEAR_SOLVER_CHOLMOD) */
  /* output */
  int output_every; /* write every Nth step */
  int nbodies;
  ipcc_body_def *bodies;
  int nplanes;
  ipcc_plane_def *planes;
  /* friction (lagged, mollified; see docs/scene-format.md) */
  double epsv;               /* slip speed below which friction is mollified (static); relative to
                                the bbox diagonal per second unless epsv_absolute (1e-3) */
  int epsv_absolute;         /* epsv in m/s */
  int friction_iterations;   /* at most this many Newton solves per step, each with the normal
                                forces and tangent bases lagged from the previous one (1); <= 0: until
                                friction_tolerance is met, at most 20 (IPC's fricIterAmt 0) */
  double friction_tolerance; /* stop updating earlier when the lagged friction force changes
                                by less than this velocity (relative to the bbox diagonal per
                                second, as newton_tol; 1e-2) */
  ipcc_friction_combine friction_combine;
  /* dhat continuation (IPC's tuning[2], relative as dhat): after a converged solve, while some
     contact is farther than dhat_target, dhat halves (not below dhat_target), kappa is chosen
     again and the solve repeats; 0 or >= dhat = none (the default) */
  double dhat_target;
  /* 1: scripted rotations as in the original IPC's scripts: every step rotates a region by
     Rx(wx h) Ry(wy h) Rz(wz h) about the centre of its bounding box at the step's start
     (regions without a given centre); 0 (default): by the axis-angle w h about the region's
     own centre, carried along by its velocity */
  int script_rotation_bbox;
  /* 1: friction against planes is mollified as IPC's half spaces are (f1 = s / eps below the
     slip threshold; the C1 mollifier otherwise). Not a JSON key; set by the .txt reader */
  int plane_friction_quadratic;
  /* 1: Newton takes the original IPC's own path, so that its iterations (not only its
     converged answer) are IPC's: the elastic Hessian's flip / twist blocks projected as IPC's
     makePD2d does (ipc_pair_project in elastic/tet.c: exact eigenvector, a different clamped
     eigenvalue) and the line search's first step from IPC's CTCD rule (ipc_ctcd_pair_step).
     Not a JSON key; set by the .txt reader */
  int ipc_newton_path;
  /* > 0: the length that relative parameters (dhat, epsv, newton_tol, kappa bounds) refer to,
     instead of the bounding-box diagonal of all bodies (IPC scripts: the shapes only) */
  double bbox_diag;
  /* output formats and previews */
  unsigned output_formats; /* IPCC_FORMAT_* bits; 0 = OBJ only */
  int preview_every;       /* render every Nth frame to PNG; 0 = only on request */
  int camera_set;          /* 1: camera_eye / camera_target / camera_fov given */
  double camera_eye[3], camera_target[3];
  double camera_fov; /* vertical field of view, degrees */
  /* lines of the scene script (IPC .txt) that set epsv and the damping, for the messages of
     the checks at world creation (0: named by their JSON keys) */
  int source_line_epsv, source_line_damping;
} ipcc_scene_def;

/* defaults (IPC's where it has them); no pointer set, nothing to free. The scene has no
   bodies and no planes: nbodies / bodies and nplanes / planes are the caller's to fill. */
IPCC_API ipcc_scene_def ipcc_default_scene_def(void);
IPCC_API ipcc_body_def ipcc_default_body_def(void);

/* reads a JSON scene (format in docs/scene-format.md; an IPC .txt script is passed to
   ipcc_scene_load_txt); mesh paths resolve relative to the scene file. on error returns
   IPCC_ERR_INPUT naming the file and key. */
IPCC_API ipcc_status ipcc_scene_load(const char *path, ipcc_scene_def *out, ipcc_error *err)
    IPCC_NONNULL(1, 2);

/* flags of ipcc_scene_load_any / ipcc_scene_load_txt */
#define IPCC_SCENE_LENIENT 1u /* unsupported script keywords: warning on stderr, not an error */

/* reads one of IPC's .txt scene scripts (keywords in README.md, "IPC scripts"): mesh paths
   resolve against the script's folder, then its parent folders (IPC's repository root).
   every keyword is implemented or rejected with IPCC_ERR_INPUT "FILE:LINE: keyword 'X' ...". */
IPCC_API ipcc_status ipcc_scene_load_txt(const char *path, unsigned flags, ipcc_scene_def *out,
                                         ipcc_error *err) IPCC_NONNULL(1, 3);

/* a scene file of either kind: IPC script when the name ends in .txt, or does not end in
   .json and the text does not start like a JSON value ({ [ " - or a digit), else JSON */
IPCC_API ipcc_status ipcc_scene_load_any(const char *path, unsigned flags, ipcc_scene_def *out,
                                         ipcc_error *err) IPCC_NONNULL(1, 3);

/* checks every number of def against the ranges the JSON reader accepts (and the counts,
   pointers and enums): a positive time step, density and Young's modulus, a Poisson ratio in
   [0, 0.5), positive scales, finite vectors, regions with min <= max, windows with start <= end,
   non-zero plane normals, a mesh path for every body, at least one body, .... IPCC_ERR_INPUT
   names the first bad field as the JSON reader does, "FILE: key 'bodies[1].material.young':
   expected a positive Young's modulus (Pa), got -5" (FILE: def->path, else "(scene)"), or
   "FILE:LINE: young: ..." for what an IPC script's line declared (the defs' source_line).
   ipcc_world_new calls it first. def NULL: IPCC_ERR_INPUT. */
IPCC_API ipcc_status ipcc_scene_def_check(const ipcc_scene_def *def, ipcc_error *err);

/* frees every pointer the scene owns (see the top of this file) with free() and zeroes *s,
   whether a loader or the caller filled it; s may be NULL. A loader that fails leaves *s
   holding nothing to free, so calling this after a failed load is harmless. */
IPCC_API void ipcc_scene_def_free(ipcc_scene_def *s);

#endif
