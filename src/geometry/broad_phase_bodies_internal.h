/* the body-by-body broad phase's internals shared by its search (broad_phase_bodies.c) and its
   superset across a Newton solve (broad_phase_superset.c) */
#ifndef IPCC_GEOMETRY_BROAD_PHASE_BODIES_INTERNAL_H
#define IPCC_GEOMETRY_BROAD_PHASE_BODIES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "geometry/broad_phase_bodies.h"

/* min and max without libm's NaN rules (fmin/fmax are calls on x86-64); the inputs are
   finite coordinates */
static inline double mn(double a, double b) {
  return b < a ? b : a;
}
static inline double mx(double a, double b) {
  return b > a ? b : a;
}

enum { CHUNK = 16, FLUSH = 512 };

/* ipc_broad_phase_bodies_narrowed's superset: the pairs a search with grown vertex boxes
   found, with the body pair (its index in kab then) of each; what the search was for; the
   narrowing's keys and the odometers they are carried by */
typedef struct bodies_superset {
  int valid;
  uint64_t hash;
  int nb, has_passive;
  double r0;
  unsigned char *bpassive; /* (nb) the body had a passive vertex in the search */
  size_t cap_bpassive;
  ipc_candidates cand; /* its pairs */
  int *bp[4];          /* per pair of each list: its body pair, an index in kab */
  size_t cap_bp[4];
  double *key; /* per pair (the lists end to end): a lower bound on its distance plus the
                  odometers of its sides and of its body pair then, or -inf */
  unsigned char *keep;
  size_t cap_key, cap_keep;
  /* the search's positions and grows (per vertex), margins and world boxes (per body), body
     pairs (a < b) and a table of them by (a, b) */
  double *x0, *x1, *g, *G;
  size_t cap_x0, cap_x1, cap_g, cap_G;
  int *kab, *tab;
  size_t nkab, cap_kab, cap_tab, tmask;
  /* per body pair: its odometer (the path of the difference of the two bodies' mean
     positions) and its index in this call's kab (-1: not kept); per body its mean move this
     call, its deviation, and its mean moves since the search at x0 and x1; per surface vertex
     its odometer (its path relative to its body's mean) and position at the last call and
     this call's step length */
  double *odo_ab, *dob, *dev, *ob, *ub, *odo, *xlast, *step;
  size_t cap_odo_ab, cap_dob, cap_dev, cap_ob, cap_ub, cap_odo, cap_xlast, cap_step;
  int *cur;
  size_t cap_cur;
  double *growp; /* the search's grown boxes' grow */
  size_t cap_growp;
  /* per body: its motion this call, searched into the superset (calm then), its world box
     inside its box then; the body pairs searched directly this call (indices in kab) */
  double *mb;
  unsigned char *calm;
  int *sel;
  size_t nsel, cap_mb, cap_calm, cap_sel;
  double M; /* the largest |coordinate| of a surface vertex this call */
  /* per body: the largest |coordinate| of its surface vertices and the call it is from (kept
     for still bodies, see ipc_bodies_ws) */
  double *Mb;
  unsigned long *t_Mb;
  size_t cap_Mb, cap_t_Mb;
  /* per body: its surface vertices' largest odometer and step length this call, and the call
     the steps are from; per body pair kept by the superset: the largest odometer of its two
     bodies and a bound on what the key test asks of its pairs (sup_range) */
  double *bodo, *bstep, *qodo, *qfar;
  unsigned long *t_step;
  size_t cap_bodo, cap_bstep, cap_qodo, cap_qfar, cap_t_step;
  /* the last calls that ran the odometers and the deviations for every body (0: none since the
     superset's search) */
  unsigned long odo_call, dev_call;
} bodies_superset;

/* one thread's scratch for the pairs of bodies it takes: per pair of bodies, the chunks of
   each side and kind that meet its region, with their boxes in the pair's frame; the
   primitive boxes of the chunks met (stamped per pair) */
typedef struct pair_scratch {
  int *lch[2][3];
  double *lbox[2][3];
  size_t nl[2][3], cap_lch[2][3], cap_lbox[2][3];
  unsigned *chstamp[3], stamp;
  int *meet; /* chunk_pairs: the chunks of one side that meet a chunk of the other */
  size_t cap_meet;
  int *choff[3], *pid[3];
  double *pbox[3];
  size_t npb[3], cap_chstamp[3], cap_choff[3], cap_pid[3], cap_pbox[3];
  /* the pairs the thread found last, vf, ee, ve, vv, on their way to the candidates' lists,
     and their body pairs (for the superset) */
  int buf[4][2 * FLUSH], bbuf[4][FLUSH];
  int nbuf[4];
} pair_scratch;

struct ipc_bodies_ws {
  int nb;
  double r0;           /* prepared for: half the inflation */
  int points, codim;   /* isolated points, codimensional edges on the surface */
  uint64_t flags_hash; /* the surface_hash they were found for */
  int *pos[3]; /* position of each vertex (-1 off the surface), edge, face in vid / eid / fid */
  size_t cap_pos[3];
  bodies_superset sup;
  double *box0, *box1, *c, *gmax; /* per body: boxes at x0 and x1, mean displacement, grow */
  size_t cap_box0, cap_box1, cap_c, cap_gmax;
  unsigned char *bpass; /* per body: every surface vertex passive */
  size_t cap_bpass;
  unsigned char *inpair; /* per body: in a pair of bodies kept (its chunk boxes computed) */
  size_t cap_inpair;
  int *rep; /* per body: one surface vertex (for ipc_surface_pair_touches), -1: none */
  size_t cap_rep;
  /* primitives by body (CSR): surface vertices, edges, faces */
  int *vs, *vid, *es, *eid, *fs, *fid;
  size_t cap_vs, cap_vid, cap_es, cap_eid, cap_fs, cap_fid;
  double *bb; /* body boxes for the body pairs */
  size_t cap_bb;
  int *bpairs;
  size_t nbp, cap_bp;
  ipc_box_ws *bw;
  /* the body pairs whose frame boxes overlap: bodies, frame, region */
  int *kab;
  double *kcf, *kR;
  size_t nkept, cap_kab, cap_kcf, cap_kR;
  /* the body-pair loop's scratch and pair lists, one per thread (core/parallel.h) */
  struct pair_scratch *scr;
  int nscr;
  /* chunks of CHUNK consecutive primitives of one body and kind (positions in vid / eid /
     fid), with their boxes in the body's own frame (swept over x0 -> x1 - c_b) */
  double *chbox[3], *grpbox[3]; /* and of groups of CHUNK chunks */
  size_t cap_chbox[3], cap_grpbox[3];
  int *chs[3]; /* (nb + 1) first chunk of each body */
  size_t cap_chs[3];
  uint64_t grouped_hash; /* surface_hash of the surface the lists by body are for */
  int grouped_nb;
  struct keyed *keyed;
  size_t cap_keyed;
  double *vob; /* (nverts x 6) surface vertices' boxes in their body's own frame */
  size_t cap_vob;
  /* the vertices of the edges and faces in their lists' order (eid, fid): read in sequence
     where the surface's own arrays would be read at the lists' Morton-scattered ids */
  int *ev, *fv;
  size_t cap_ev, cap_fv;
  /* per kind (1 edges, 2 faces) the distinct vertices of each chunk (CSR: body b's chunk j
     is entry cvb[k][b] + j of cvs[k]), whose boxes' union is the chunk's box */
  int *cvb[3], *cvs[3], *cvid[3];
  size_t cap_cvb[3], cap_cvs[3], cap_cvid[3];
  int *sort_tmp; /* sort_pairs */
  size_t *sort_count;
  size_t cap_sort_tmp, cap_sort_count;
  /* still bodies: a body whose surface vertices have x1 == x0 and no grow, at the same x0 as
     at the call `since` (all of it bitwise: its range of vertex indices compared with cx),
     keeps what was computed for it at or after that call (its summary, chunk boxes, motions,
     odometer runs and deviations), which are the same doubles: in a Newton iteration with
     most bodies frozen, most bodies are still. calls counts the preparations */
  unsigned long calls;
  int still_ok;   /* the bodies' vertex ranges are disjoint (else nothing is kept) */
  int *vlo, *vhi; /* per body the range of its surface vertices' indices */
  double *cx;     /* (3 nverts) x0 where since > 0 */
  unsigned long *since, *t_chunks; /* per body: 0 or the call its x0 was kept at; the call
                                      its chunk boxes are from */
  unsigned char *still;            /* per body, this call */
  double chunks_r0;                /* the half inflation of the chunk boxes kept */
  size_t cap_vlo, cap_vhi, cap_cx, cap_since, cap_t_chunks, cap_still;
  /* with IPCC_BODIES_STILL_CHECK=1 in the environment (tests), what a still body keeps is
     computed anyway and compared: the differences found (a kept value that is not what a
     computation gives) are counted here until the superset's statistics take them */
  int check;
  size_t still_bad;
};

static inline void box_union(double *u, const double *b) {
  for (int k = 0; k < 3; ++k) {
    u[k] = mn(u[k], b[k]);
    u[k + 3] = mx(u[k + 3], b[k + 3]);
  }
}

/* vertex v's box over x0 -> x1 - c, grown by r0 plus its grow */
static inline void vertex_box(const double *x0, const double *x1, const double *grow, size_t v,
                              const double c[3], double r0, double *bx) {
  double r = grow ? r0 + grow[v] : r0;
  for (int k = 0; k < 3; ++k) {
    double p = x0[3 * v + k], q = x1[3 * v + k] - c[k];
    bx[k] = mn(p, q) - r;
    bx[k + 3] = mx(p, q) + r;
  }
}

/* the boxes of the nv vertices of elem (their union) in the frame c */
static inline void elem_box(const double *x0, const double *x1, const double *grow, const int *ev,
                            int nv, const double c[3], double r0, double *u) {
  vertex_box(x0, x1, grow, (size_t)ev[0], c, r0, u);
  for (int k = 1; k < nv; ++k) {
    double b[6];
    vertex_box(x0, x1, grow, (size_t)ev[k], c, r0, b);
    box_union(u, b);
  }
}

/* what a search needs for this call, into *wsp (created on first use): the lists by body, the
   bodies' summaries, the body pairs kept (kab, with their frames and regions), the chunks'
   boxes. With wide >= 0 the body pairs come from boxes in the bodies' own frames (see there)
   instead of world-swept ones. Returns 0 when the body-by-body phase does not apply */
int ipc_bodies_prepare(struct ipc_bodies_ws **wsp, const ipc_surface *s, const double *x0,
                       const double *x1, double inflation, const double *grow,
                       const unsigned char *passive, double wide);

/* the prepared search over the body pairs sel[0 .. nsel) (NULL: all kept): their pairs of
   primitives appended to c's lists, in no particular order; with rec, each pair's body pair
   into rec->bp alongside */
void ipc_bodies_search(struct ipc_bodies_ws *w, ipc_candidates *c, const ipc_surface *s,
                       const double *x0, const double *x1, const double *grow,
                       const unsigned char *passive, double narrow_dist, bodies_superset *rec,
                       const int *sel, size_t nsel);

/* c's lists sorted by (first, second) */
void ipc_bodies_sort_lists(struct ipc_bodies_ws *w, ipc_candidates *c, const ipc_surface *s);

/* with w->check: one more difference between what a still body kept and what computing it
   gives, counted from any thread */
static inline void still_differs(struct ipc_bodies_ws *w) {
#pragma omp atomic
  ++w->still_bad;
}

/* frees the superset's arrays (broad_phase_superset.c) */
void ipc_bodies_superset_free(bodies_superset *u);

#endif
