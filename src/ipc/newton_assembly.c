/* the Newton system's assembly (newton.c's projected Newton): the gradient of the
   incremental potential and its projected Hessian, term by term: inertia and scripted
   penalties, tets (elasticity and damping), contacts' barriers, lagged friction and the
   affine bodies' own terms. Contacts' local derivatives are computed on the threads, and
   contacts' and friction's Hessians are mapped onto the system's vertices on the threads in
   blocks; every block is then added in the terms' order, so the sums are those of one term
   after another for any number of threads. Over MPI ranks the assembly is split
   (newton_split.c). */
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "core/timer.h"
#include "ipc/damping.h"
#include "ipc/newton_internal.h"
#include "ipc/world_internal.h"
#include "linalg/dense.h"
#include "linalg/linear_solver.h"
#include "linalg/mpi_run.h"
#include "linalg/sparse.h"

/* the contacts' local derivatives; a contact between frozen bodies only has none (its rows
   are out of the system) */
static double contact_range(void *vw, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  ipc_world *w = vw;
  const ipc_newton_solver *s = w->solver;
  contact_local *cl = s->cl;
  for (size_t k = begin; k < end; ++k) {
    if (s->nfrozen > 0 && ipc_newton_contact_frozen(s, &w->contacts.c[k])) {
      cl[k].nv = 0;
      continue;
    }
    ipc_contact_local(&w->contacts.c[k], &w->cm, w->s.x, w->kappa, 1, &cl[k].nv, cl[k].verts,
                      cl[k].g, cl[k].H);
  }
  return 0.0;
}

/* every contact's local gradient and projected Hessian at x into solver->cl */
static void contact_derivatives(ipc_world *w) {
  ipc_newton_solver *s = w->solver;
  ipc_reserve((void **)&s->cl, &s->cap_cl, w->contacts.n, sizeof(contact_local));
  ipc_parallel_sum(w->contacts.n, 64, contact_range, w);
}

/* the assembly adds contacts' and friction's terms in blocks of ASSEMBLY_BLOCK: each block's
   Hessians mapped onto the system's vertices on the threads (map_range), then added, with
   the gradients, in the terms' order on one thread (the same sums as one term after
   another) while the other threads map the next block into the other half of s->ml */
enum { ASSEMBLY_BLOCK = 256 };

typedef struct map_job {
  ipc_world *w;
  int friction;     /* 0: the contacts (s->cl), 1: lagged friction (w->fric) */
  size_t k0, nb;    /* the block to map: its first term and count */
  mapped_local *ml; /* where it goes */
  size_t a0, na;    /* the block mapped before (a0: its first term), to add (na 0: none) */
  mapped_local *ma; /* where it is */
} map_job;

/* the mapped terms ml[0 .. n), terms k0 .. k0 + n, added: gradients into w->g, Hessians into
   the assembly, in order */
static void add_block(ipc_world *w, int friction, size_t k0, size_t n, const mapped_local *ml) {
  ipc_newton_solver *s = w->solver;
  for (size_t i = 0; i < n; ++i, ++ml) {
    if (ml->nu == -2) continue;
    const contact_local *cl = friction ? NULL : &s->cl[k0 + i];
    const ipc_friction_contact *fc = friction ? &w->fric.c[k0 + i] : NULL;
    int nv = cl ? cl->nv : fc->nv;
    const int *v = cl ? cl->verts : fc->v;
    const double *g = cl ? cl->g : ml->g;
    for (int a = 0; a < nv; ++a)
      for (int d = 0; d < 3; ++d) w->g[3 * v[a] + d] += g[3 * a + d];
    if (ml->nu == 0)
      ipc_sparse_add(s->asm_, ml->nv, ml->ids, ml->H);
    else if (ml->nu < 0)
      ipc_affine_world_sparse_add(w, s->asm_, ml->nv, ml->ids, ml->H);
    else
      ipc_sparse_add(s->asm_, ml->nu, ml->ids, ml->H);
  }
}

/* items [begin, end) of a block's job: item 0 the block mapped before, added (add_block); item
   i > 0 term k0 + i - 1 mapped into ml[i - 1]: a friction term's gradient and projected
   Hessian computed, then the Hessian mapped (or, when not, over its real vertices) */
static double map_range(void *vj, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const map_job *j = vj;
  ipc_world *w = j->w;
  ipc_newton_solver *s = w->solver;
  double Hl[144];
  if (begin == 0) {
    if (j->na > 0) add_block(w, j->friction, j->a0, j->na, j->ma);
    begin = 1;
  }
  for (size_t i = begin - 1; i < end - 1; ++i) {
    size_t k = j->k0 + i;
    mapped_local *ml = &j->ml[i];
    int nv;
    const int *v;
    const double *H;
    ml->nu = -2;
    if (!j->friction) {
      const contact_local *cl = &s->cl[k];
      if (cl->nv == 0) continue;
      nv = cl->nv;
      v = cl->verts;
      H = cl->H;
    } else {
      const ipc_friction_contact *fc = &w->fric.c[k];
      /* a term of passive vertices alone: its rows are out of the system */
      if (s->nfrozen > 0 && ipc_newton_all_passive(s, fc->v, fc->nv)) continue;
      ipc_friction_contact_local(fc, w->s.x, w->xn, w->fric.eps_v * w->fric.h, 1, ml->g, Hl);
      nv = fc->nv;
      v = fc->v;
      H = Hl;
    }
    ml->nu = ipc_affine_world_map(w, nv, v, H, MAPPED_TARGETS, ml->ids, ml->H);
    if (ml->nu <= 0) { /* added over the real vertices */
      ml->nv = nv;
      memcpy(ml->ids, v, (size_t)nv * sizeof(int));
      memcpy(ml->H, H, 9 * (size_t)(nv * nv) * sizeof(double));
    }
  }
  return 0.0;
}

/* the n contacts' (s->cl) or friction terms' gradients into w->g and their Hessians into the
   assembly, block by block: one job per block maps it and adds the block before */
static void add_terms(ipc_world *w, size_t n, int friction) {
  ipc_newton_solver *s = w->solver;
  if (n == 0) return;
  if (!s->ml) s->ml = IPC_NEW(mapped_local, 2 * ASSEMBLY_BLOCK);
  map_job j = {w, friction, 0, 0, NULL, 0, 0, NULL};
  for (size_t k0 = 0, half = 0;; k0 += ASSEMBLY_BLOCK, half ^= 1) {
    j.k0 = k0;
    j.nb = k0 < n ? (n - k0 < ASSEMBLY_BLOCK ? n - k0 : ASSEMBLY_BLOCK) : 0;
    j.ml = s->ml + half * ASSEMBLY_BLOCK;
    if (j.nb == 0 && j.na == 0) break;
    ipc_parallel_sum(1 + j.nb, 16, map_range, &j);
    j.a0 = j.k0;
    j.na = j.nb;
    j.ma = j.ml;
  }
}

/* tet t's elastic gradient (w->tet_g, scaled by h2) into w->g and its projected Hessian,
   scaled by h2, into the assembly (s->tet_set), with the Rayleigh damping's constant Hessian
   C, which shares the tet's blocks (damping.h) */
void ipc_newton_add_tet(ipc_world *w, int t, double h2) {
  const int *tt = w->m.tets + 4 * (size_t)t;
  const double *gt = w->tet_g + 12 * (size_t)t, *Ht = w->tet_H + 144 * (size_t)t;
  double Hs[144];
  for (int k = 0; k < 4; ++k)
    for (int d = 0; d < 3; ++d) w->g[3 * tt[k] + d] += h2 * gt[3 * k + d];
  for (int k = 0; k < 144; ++k) Hs[k] = h2 * Ht[k];
  if (w->damp_H)
    for (int k = 0; k < 144; ++k) Hs[k] += w->damp_H[144 * (size_t)t + k];
  ipc_sparse_add_element(w->solver->asm_, w->solver->tet_set, t, Hs);
}

/* the vertices' inertia and scripted-vertex penalty terms: their Hessian diagonal into
   s->diag, and with `gradient` their gradient into w->g (vertex entries, which it sets). A
   node of an IPC codimensional shape let go by its moving boundary conditions has IPC's mass
   (w->mbc.mass) */
typedef struct inertia_job {
  ipc_world *w;
  int gradient;
} inertia_job;

static double inertia_range(void *ctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const inertia_job *j = ctx;
  ipc_world *w = j->w;
  const ipc_model *m = &w->m;
  double *diag = w->solver->diag;
  int gradient = j->gradient;
  for (int i = (int)begin; i < (int)end; ++i) {
    const double mi = w->fixed[i] ? 0.0 : m->mass[i] > 0 ? m->mass[i] : w->mbc.mass[i];
    for (int d = 0; d < 3; ++d) {
      diag[3 * i + d] = mi + w->penalty[i];
      if (!gradient) continue;
      double gi = 0;
      if (mi > 0) gi += mi * (w->s.x[3 * i + d] - w->xt[3 * i + d]);
      if (w->penalty[i] > 0)
        gi +=
            w->penalty[i] * (w->s.x[3 * i + d] - w->pre.target[3 * i + d]) - w->mbc.pull[3 * i + d];
      w->g[3 * i + d] = gi;
    }
  }
  return 0.0;
}

/* vertex by vertex on the threads */
void ipc_newton_inertia_terms(ipc_world *w, int gradient) {
  inertia_job j = {w, gradient};
  ipc_parallel_sum((size_t)w->m.nverts, 4096, inertia_range, &j);
}

/* 1 when the next assembly is split among the MPI ranks (stage 2, docs/scaling.md): the
   step's loops are split (mpi_run.h) and the linear solver adds the ranks' matrices */
static int assembly_split(const ipc_world *w) {
  const ipc_newton_solver *s = w->solver;
  return ipc_mpi_splitting() && s->ls && ipc_linear_solver_sums_partial(s->ls);
}

/* gradient (full layout, into w->g) and the assembled, projected Hessian */
void ipc_newton_assemble(ipc_world *w, ipcc_step_stats *st) {
  if (assembly_split(w)) {
    ipc_newton_assemble_split(w, st);
    return;
  }
  w->solver->split = 0;
  double cpu0 = ipc_mpi_cpu_now();
  const ipc_model *m = &w->m;
  ipc_newton_solver *s = w->solver;
  int n = m->nverts;
  double h2 = w->c_elastic * w->h * w->h;
  double t0 = ipc_now();
  ipc_dense_threads(1);
  ipc_newton_elastic_derivatives(w, w->s.x);
  ipc_sparse_begin(s->asm_);
  /* the vertices' entries are set by their inertia terms below */
  memset(w->g + 3 * (size_t)n, 0, 3 * (size_t)(w->nsys - n) * sizeof(double));
  /* the pseudo-vertices' inertia is in their elements (ipc_affine_world_add) */
  memset(s->diag + 3 * (size_t)n, 0, 3 * (size_t)(w->nsys - n) * sizeof(double));
  ipc_newton_inertia_terms(w, 1);
  ipc_sparse_add_diagonal(s->asm_, s->diag);
  for (int t = 0; t < m->ntets; ++t) ipc_newton_add_tet(w, t, h2);
  ipc_damping_gradient(w, w->s.x, w->g);
  /* contacts: local gradients and projected Hessians in parallel, then added in order */
  contact_derivatives(w);
  add_terms(w, w->contacts.n, 0);
  if (w->rest.naff == 0) {
    ipc_friction_add(&w->fric, w->s.x, w->xn, w->g, s->asm_);
  } else {
    /* friction's gradients (real vertices) and projected Hessians, the affine vertices
       mapped to their pseudo-vertices */
    add_terms(w, w->fric.n, 1);
    /* every gradient over real vertices is in: move the affine ones to their bodies */
    /* a frozen body's rows are out of the system: its gradient is not pulled */
    ipc_affine_world_pull_skip(w, w->g, s->nfrozen > 0 ? s->frozen : NULL);
    /* a frozen body's rows are out of the system */
    for (int a = 0; a < w->rest.naff; ++a)
      if (!(s->nfrozen > 0 && s->frozen[w->rest.aff_body[a]]))
        ipc_affine_world_add_body(w, w->g, s->asm_, s->aff_set, a);
  }
  ipc_dense_threads(0);
  st->t_assembly += ipc_now() - t0;
  ipc_mpi_count(IPC_WORK_ASM_TETS, (size_t)m->ntets);
  ipc_mpi_count(IPC_WORK_ASM_CONTACTS, w->contacts.n);
  ipc_mpi_count(IPC_WORK_ASM_FRICTION, w->fric.n);
  ipc_mpi_count(IPC_WORK_ASSEMBLY, 1);
  ipc_mpi_count_cpu(IPC_WORK_ASSEMBLY, ipc_mpi_cpu_now() - cpu0);
}
