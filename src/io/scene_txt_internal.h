/* what the parts of the .txt script reader share (src/io/scene_txt.c: lines, keywords,
   placement, finalize; src/io/scene_txt_scenarios.c: IPC's AnimScripter scenarios and mesh
   sequences): the parser's state and its helpers. internal to src/io. */
#ifndef IPCC_IO_SCENE_TXT_INTERNAL_H
#define IPCC_IO_SCENE_TXT_INTERNAL_H

#include "ipcc/error.h"
#include "ipcc/mesh.h"
#include "ipcc/scene.h"

static const double pi = 3.14159265358979323846;
/* the time step IPC's Optimizer constructor sets (setTime(10, 0.025)) before main() sets the
   script's: what the constructor derives from it keeps it for any dt (the friction slip
   threshold fricDHat0, mirrored in the scene's epsv; also CN_MBC, the Dirichlet pull
   tolerance, not mirrored: no script measured depends on it); also IPC's default dt */
#define IPC_TXT_CONSTRUCTOR_DT 0.025

enum { KIND_TET, KIND_TRI, KIND_SEG, KIND_PT };
enum {
  SCRIPT_NULL,
  SCRIPT_FALL,
  SCRIPT_FALL_NOSHIFT,
  SCRIPT_DRAGRIGHT,
  SCRIPT_TWIST,
  SCRIPT_STRETCH_PAUSE,
  SCRIPT_DCO_FIX,
  SCRIPT_DCO_ROT_CYLINDERS,
  SCRIPT_DCO_SEGBED_SQUASH,
  SCRIPT_DCO_SQUASH6,
  /* the others of IPC's AnimScripter, mapped in more_scenarios */
  SCRIPT_HANG,
  SCRIPT_HANG2,
  SCRIPT_HANG_TOP_LEFT,
  SCRIPT_HANG_LEFT,
  SCRIPT_SWING,
  SCRIPT_STAMP,
  SCRIPT_STAMP_TOP_LEFT,
  SCRIPT_STAMP_BOTH,
  SCRIPT_UNDSTAMP,
  SCRIPT_STAND,
  SCRIPT_TOP_BOTTOM_FIX,
  SCRIPT_FIX_LOWER_HALF,
  SCRIPT_CORNER,
  SCRIPT_PUSH,
  SCRIPT_TEAR,
  SCRIPT_UPNDOWN,
  SCRIPT_STRETCH,
  SCRIPT_SQUASH,
  SCRIPT_STRETCH_SQUASH,
  SCRIPT_BEND,
  SCRIPT_TWIST_STRETCH,
  SCRIPT_TWIST_SNS,
  SCRIPT_TWIST_SNS_OLD,
  SCRIPT_RUBBER_BAND_PULL,
  SCRIPT_FOUR_LEG_PULL,
  SCRIPT_HEAD_TAIL_PULL,
  SCRIPT_DRAGDOWN,
  SCRIPT_TOGGLE_TOP,
  SCRIPT_LEFT_HIT_RIGHT,
  SCRIPT_DROP,
  SCRIPT_CURTAIN,
  SCRIPT_FIX_RIGHTMOST1,
  SCRIPT_PUSH_RIGHTMOST1,
  SCRIPT_NM_DRAG_LEFT,
  SCRIPT_NM_DRAG_FORWARD,
  SCRIPT_MCO_SQUASH,
  SCRIPT_MCO_ROT_SQUASH,
  SCRIPT_MCO_ROT_CYLINDERS,
  SCRIPT_DCO_SQUASH,
  SCRIPT_DCO_BALL_HIT_WALL,
  SCRIPT_DCO_SQUEEZE_OUT,
  SCRIPT_DCO_VERSCHOOR_ROLLER,
  SCRIPT_DCO_HAMMER_WALNUT,
  SCRIPT_DCO_CUT,
  SCRIPT_UTOPIA,
  SCRIPT_MESH_SEQ_FROM_FILE,
};

/* the scenario names, indexed by the SCRIPT_ values (NULL-terminated) */
extern const char *const ipc_txt_script_names[];

typedef struct txt_bc {
  int line;
  double lo[3], hi[3]; /* relative box */
  double v[3], w[3];   /* DBC: m/s, rad/s; NBC: v is the acceleration */
  double t0, t1;
} txt_bc;

typedef struct txt_shape {
  int line;
  char *path; /* resolved file that is read */
  int kind, codim;
  double t[3], r[3], s[3]; /* translation, rotation (degrees), scale */
  double mat[3];           /* density, E, nu; NAN unless given */
  double lin_vel[3], ang_vel[3];
  int has_lin_vel, has_ang_vel;
  double init_v[3], init_w[3];
  int has_init_vel;
  int nbc[2];
  txt_bc *bc[2]; /* [0] DBC, [1] NBC */
  int co;        /* meshCO obstacle */
  int mesh;      /* index into the mesh cache */
  char *seq;     /* meshSeq folder as written, or NULL */
  int seq_line;  /* its line */
} txt_shape;

typedef struct txt_line {
  int no;
  int n;
  char **t;
} txt_line;

typedef struct cached_mesh {
  char *path;
  int codim;
  ipcc_mesh m;
  unsigned char *surf; /* (nverts) on the boundary (all vertices when there is no triangle) */
} cached_mesh;

typedef struct txt {
  const char *file;
  ipcc_error *err;
  unsigned flags;
  int failed;
  char *dir;
  char *buf;
  txt_line *lines;
  int nlines, cur;
  int section_line; /* line of the open 'section' whose lines are read, 0 if none */
  /* collected */
  txt_shape *shapes;
  int nshapes, cap_shapes;
  ipcc_plane_def *planes;
  int nplanes, cap_planes;
  cached_mesh *meshes;
  int nmeshes, cap_meshes;
  /* settings */
  ipcc_material_kind energy;
  double density, young, poisson;
  double size, rot_axis[3], rot_deg;
  int script, script_line;
  double script_param; /* the first scenario parameter, NAN if none */
  char *seq_folder;    /* meshSeqFromFile's folder, or NULL */
  double handle_ratio;
  double dbc_range[2], nbc_range[2];
  double tuning[6];
  double tol;
  int use_abs;
  double self_fric;
  const char *solver;
  ipcc_time_integrator integrator;
  ipcc_warm_start warm_start;
  int gravity_off;
  double damping_stiff, damping_ratio; /* IPC's dampingStiff k, dampingRatio r */
  int damping_line, epsv_line;         /* lines that set them (0: none) */
  int self_collision_off; /* line of selfCollisionOff (the last of On/Off wins), 0 if none */
  double duration, dt;
  int friction_iterations;
  /* finalize's scratch, here so that txt_free releases it on every error path */
  int *order; /* (nshapes) shapes, then meshCO obstacles */
  int *off;   /* (shapes + 1) first vertex of each shape in X */
  double *X;  /* (vertices x 3) world positions of the shapes */
  double *Rb; /* (shapes x 9) rotation of each shape */
} txt;

/* world positions of the shapes (not meshCO), index of shape -> offset into X */
typedef struct placed {
  double *X; /* (total x 3) */
  int *off;  /* (nshapes + 1) */
  double lo[3], hi[3];
} placed;

/* FILE:LINE: message into p->err (line 0: no line); returns 0 */
int ipc_txt_bad(txt *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* an IPC keyword ipcc does not implement: error, or a warning with --lenient */
int ipc_txt_unsupported(txt *p, int line, const char *kw, const char *why);
/* grows the box [lo, hi] by n points x */
void ipc_txt_bbox_grow(double lo[3], double hi[3], const double *x, int n);
/* appends a Dirichlet region of n vertices (verts, owned by it) over [t0, t1) to b */
ipcc_dirichlet_def *ipc_txt_add_dirichlet(ipcc_body_def *b, int *verts, int n, double t0,
                                          double t1);
/* 0 .. n-1 */
int *ipc_txt_all_verts(int n);
/* the time at which a script switches after k steps of dt */
double ipc_txt_switch_time(int k, double dt);
/* rel resolved against dir and its parent folders, or NULL */
char *ipc_txt_find_up(const char *dir, const char *rel);

/* a copy of s (ipc_free) */
char *ipc_txt_dup_str(const char *s);
/* 1 when s ends with suffix */
int ipc_txt_ends_with(const char *s, const char *suffix);
/* the mesh file of shape s named rel at line (keyword kw), resolved as IPC does, into
   s->path and s->kind; 0 (p->err) when no such file exists */
int ipc_txt_resolve_mesh(txt *p, int line, const char *kw, const char *rel, txt_shape *s);

/* the parsed script p placed and mapped onto s (scene_txt_build.c); 0 on error (p->err) */
int ipc_txt_finalize(txt *p, ipcc_scene_def *s);

/* IPC's other scenarios (SCRIPT_HANG and later) on the placed shapes; 0 on error (p->err) */
int ipc_txt_more_scenarios(txt *p, ipcc_scene_def *s, const placed *pl, int nsh, int nX);
/* body b moved through the meshes of folder (IPC's meshSeq: first frame 0;
   meshSeqFromFile: first frame 1), named at line of the script */
int ipc_txt_mesh_sequence(txt *p, ipcc_body_def *b, const txt_shape *sh, const char *folder,
                          int line, int start);

#endif
