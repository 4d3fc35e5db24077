/* the Newton systems' assembly split among MPI ranks by ownership (stage 2 of mpi_run.h,
 * docs/scaling.md "Built: each rank assembles the terms of its rows"): every term is computed by
 * the lowest rank owning one of its vertices' rows, the pattern stays whole on every rank, and
 * the linear solver sends the entries of the terms across the cut to their rows' owners. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "core/timer.h"
#include "ipc/damping.h"
#include "ipc/newton_internal.h"
#include "linalg/dense.h"
#include "linalg/mpi_run.h"

/* the points of contact c its local terms cl take (cl->verts: c->v[p] for every bit p set,
   in order), as a bit mask: 0 when it has none */
static unsigned char contact_mask(const ipc_contact *c, const contact_local *cl) {
  unsigned char mask = 0;
  for (int a = 0, p = 0; a < cl->nv; ++a, ++p) {
    while (p < 3 && c->v[p] != cl->verts[a]) ++p;
    mask |= (unsigned char)(1u << p);
  }
  return mask;
}

/* the rank that assembles a term over vertices v (nv): the lowest rank whose rows hold one of
   their unknowns (vrank), rank 0 for a term of fixed vertices only */
static int term_rank(const int *vrank, int nv, const int *v) {
  int r = -1;
  for (int a = 0; a < nv; ++a)
    if (vrank[v[a]] >= 0 && (r < 0 || vrank[v[a]] < r)) r = vrank[v[a]];
  return r < 0 ? 0 : r;
}

/* marks the unknowns of vertices v (nv) in s->touched: their rows and columns may hold this
   rank's values */
static void touch_unknowns(ipc_newton_solver *s, const int *map, int nv, const int *v) {
  for (int a = 0; a < nv; ++a)
    for (int d = 0; d < 3; ++d)
      if (map[3 * v[a] + d] >= 0) s->touched[map[3 * v[a] + d]] = 1;
}

/* a local Hessian H over real vertices v (nv) into the matrix (an affine body's vertices
   mapped to its pseudo-vertices) with its unknowns marked, or with H NULL only its blocks
   into the pattern (another rank's term) */
static void add_mapped(ipc_world *w, const int *map, int nv, const int *v, const double *H) {
  ipc_newton_solver *s = w->solver;
  int ids[16], nu = ipc_affine_world_targets(w, nv, v, ids);
  if (!H) {
    ipc_sparse_touch(s->asm_, nu, ids);
    return;
  }
  ipc_affine_world_sparse_add(w, s->asm_, nv, v, H);
  touch_unknowns(s, map, nu, ids);
}

typedef struct owned_tets_job {
  elastic_job e;
  const int *list; /* global tet numbers, ascending */
} owned_tets_job;

/* derivatives of the tets list[begin, end), a run of consecutive numbers at a time */
static double owned_tets_range(void *vctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const owned_tets_job *j = vctx;
  for (size_t i = begin; i < end;) {
    size_t k = i + 1;
    while (k < end && j->list[k] == j->list[k - 1] + 1) ++k;
    ipc_newton_elastic_tets(&j->e, (size_t)j->list[i], (int)(k - i));
    i = k;
  }
  return 0.0;
}

typedef struct owned_contacts_job {
  ipc_world *w;
  const int *list;
} owned_contacts_job;

static double owned_contacts_range(void *vctx, size_t chunk, size_t begin, size_t end) {
  (void)chunk;
  const owned_contacts_job *j = vctx;
  ipc_world *w = j->w;
  contact_local *cl = w->solver->cl;
  for (size_t i = begin; i < end; ++i) {
    int k = j->list[i];
    ipc_contact_local(&w->contacts.c[k], &w->cm, w->s.x, w->kappa, 1, &cl[k].nv, cl[k].verts,
                      cl[k].g, cl[k].H);
  }
  return 0.0;
}

/* assemble with its work split among the MPI ranks (stage 2, docs/scaling.md): each term (a
   tet, a contact, a lagged friction pair, a vertex's mass and penalty, an affine body's
   inertia and orthogonality) is computed by the rank of its vertices' rows (term_rank: the
   lowest of them, by the linear solver's layout of the last factorization; an affine body's
   vertices count as its pseudo-vertices), which adds it into its own matrix and gradient and
   marks its unknowns (s->touched). Every rank still adds every term's blocks to the pattern (as
   zeros when they are another rank's: ipc_sparse_touch; a contact's points from one byte per
   contact gathered from the rank that computed it), so all ranks hold the serial run's pattern. The
   linear solver sends each rank's values in other ranks' rows, those of the terms across the cut,
   to their owners (ipc_linear_solver_set_partial), and the gradient is summed over the ranks,
   the same bits on every rank */
void ipc_newton_assemble_split(ipc_world *w, ipcc_step_stats *st) {
  const ipc_model *m = &w->m;
  ipc_newton_solver *s = w->solver;
  int me = ipc_rank(), nranks = ipc_rank_count(), nv = m->nverts, nsys = w->nsys;
  double h2 = w->c_elastic * w->h * w->h;
  double t0 = ipc_now(), cpu0 = ipc_mpi_cpu_now(), comm = 0;
  ipc_dense_threads(1);
  ipc_sparse_begin(s->asm_);
  memset(w->g, 0, 3 * (size_t)w->nsys * sizeof(double));
  const int *map = ipc_sparse_dof_map(s->asm_);
  int nf = ipc_sparse_num_free(s->asm_);
  ipc_reserve((void **)&s->vrank, &s->cap_vrank, (size_t)nsys + 1, sizeof(int));
  ipc_reserve((void **)&s->touched, &s->cap_touched, (size_t)nf + 1, 1);
  ipc_reserve((void **)&s->diag_mine, &s->cap_diag_mine, 3 * (size_t)nsys + 1, sizeof(double));
  memset(s->touched, 0, (size_t)nf + 1);
  for (int v = 0; v < nsys; ++v) {
    int u = -1;
    for (int d = 0; d < 3 && u < 0; ++d) u = map[3 * v + d];
    s->vrank[v] = u < 0 ? -1 : ipc_linear_solver_unknown_rank(s->ls, nf, u);
  }
  for (int v = 0; v < nv && w->rest.naff > 0; ++v) /* an affine body's vertices: its rank */
    if (w->rest.vert_aff[v] >= 0) s->vrank[v] = s->vrank[w->aff_pv[4 * w->rest.vert_aff[v]]];
  /* the vertices' mass and penalties: the diagonal whole on every rank (the iterative solvers'
     bound), each vertex's terms on the rank of its rows (those of fixed vertices on rank 0);
     the pseudo-vertices' inertia is in their bodies' elements */
  memset(s->diag + 3 * (size_t)nv, 0, 3 * (size_t)(nsys - nv) * sizeof(double));
  memset(s->diag_mine + 3 * (size_t)nv, 0, 3 * (size_t)(nsys - nv) * sizeof(double));
  ipc_newton_inertia_terms(w, 1);
  for (int v = 0; v < nv; ++v) {
    int mine = s->vrank[v] == me || (s->vrank[v] < 0 && me == 0);
    for (int d = 0; d < 3; ++d) {
      s->diag_mine[3 * v + d] = mine ? s->diag[3 * v + d] : 0.0;
      if (!mine) w->g[3 * v + d] = 0.0;
    }
    if (mine) touch_unknowns(s, map, 1, &v);
  }
  ipc_sparse_add_diagonal(s->asm_, s->diag_mine);
  /* tets: this rank's of each body (the others' blocks are in the pattern: element sets) */
  double c0 = ipc_mpi_cpu_now();
  size_t count = 0;
  for (int b = 0; b < m->nbodies; ++b) {
    const ipc_body *bd = &m->bodies[b];
    if (bd->nt == 0 || bd->affine) continue;
    ipc_reserve((void **)&s->own, &s->cap_own, (size_t)bd->nt + 1, sizeof(int));
    size_t no = 0;
    for (int t = bd->t0; t < bd->t0 + bd->nt; ++t)
      if (term_rank(s->vrank, 4, m->tets + 4 * (size_t)t) == me) s->own[no++] = t;
    owned_tets_job j = {{w, w->s.x, b, 1}, s->own};
    ipc_parallel_sum(no, 256, owned_tets_range, &j);
    count += no;
    for (size_t i = 0; i < no; ++i) {
      int t = s->own[i];
      ipc_newton_add_tet(w, t, h2);
      ipc_damping_gradient_tets(w, w->s.x, t, t + 1, w->g);
      touch_unknowns(s, map, 4, m->tets + 4 * (size_t)t);
    }
  }
  ipc_mpi_count(IPC_WORK_ASM_TETS, count);
  ipc_mpi_count_cpu(IPC_WORK_ASM_TETS, ipc_mpi_cpu_now() - c0);
  /* contacts: this rank's computed, the points of every contact's terms gathered */
  c0 = ipc_mpi_cpu_now();
  size_t nc = w->contacts.n, no = 0;
  ipc_reserve((void **)&s->cl, &s->cap_cl, nc, sizeof(contact_local));
  ipc_reserve((void **)&s->crank, &s->cap_crank, nc + 1, sizeof(int));
  ipc_reserve((void **)&s->own, &s->cap_own, nc + 1, sizeof(int));
  for (size_t k = 0; k < nc; ++k) {
    const ipc_contact *c = &w->contacts.c[k];
    s->crank[k] = term_rank(s->vrank, ipc_contact_vertices(c), c->v);
    if (s->crank[k] == me) s->own[no++] = (int)k;
  }
  owned_contacts_job cj = {w, s->own};
  ipc_parallel_sum(no, 64, owned_contacts_range, &cj);
  if (nc > 0) { /* every contact's byte: each rank's contacts in order, the ranks in order */
    ipc_reserve((void **)&s->mine, &s->cap_mine, no + 1, 1);
    for (size_t i = 0; i < no; ++i)
      s->mine[i] = contact_mask(&w->contacts.c[s->own[i]], &s->cl[s->own[i]]);
    void *all = s->masks;
    double cc = ipc_mpi_cpu_now();
    size_t got = ipc_mpi_allgather(s->mine, no, &all, &s->cap_masks);
    comm += ipc_mpi_cpu_now() - cc;
    s->masks = all;
    /* from rank order to contact order (into mine): rank r's bytes start after the contacts
       of the ranks before it */
    ipc_reserve((void **)&s->mine, &s->cap_mine, nc + 1, 1);
    size_t *at = IPC_NEW0(size_t, (size_t)nranks + 1);
    for (size_t k = 0; k < nc; ++k) ++at[s->crank[k] + 1];
    for (int r = 0; r < nranks; ++r) at[r + 1] += at[r];
    if (at[nranks] != got) { /* the ranks disagree on the contacts' ranks: a bug */
      fprintf(stderr, "ipcc: ipc_newton_assemble_split: %zu contact bytes gathered, %zu expected\n",
              got, at[nranks]);
      abort();
    }
    for (size_t k = 0; k < nc; ++k) s->mine[k] = s->masks[at[s->crank[k]]++];
    ipc_free(at);
  }
  for (size_t k = 0; k < nc; ++k) {
    const ipc_contact *c = &w->contacts.c[k];
    if (s->crank[k] == me) {
      const contact_local *cl = &s->cl[k];
      if (cl->nv == 0) continue;
      for (int a = 0; a < cl->nv; ++a)
        for (int d = 0; d < 3; ++d) w->g[3 * cl->verts[a] + d] += cl->g[3 * a + d];
      add_mapped(w, map, cl->nv, cl->verts, cl->H);
    } else {
      int verts[4], np = 0;
      for (int p = 0; p < 4; ++p)
        if (s->mine[k] & (1u << p)) verts[np++] = c->v[p];
      if (np > 0) add_mapped(w, map, np, verts, NULL);
    }
  }
  ipc_mpi_count(IPC_WORK_ASM_CONTACTS, no);
  ipc_mpi_count_cpu(IPC_WORK_ASM_CONTACTS, ipc_mpi_cpu_now() - c0);
  /* lagged friction pairs (ipc_friction_add's terms): this rank's */
  c0 = ipc_mpi_cpu_now();
  const ipc_friction *f = &w->fric;
  double eps = f->eps_v * f->h, gl[12], Hl[144];
  size_t nfr = 0;
  for (size_t k = 0; k < f->n; ++k) {
    const ipc_friction_contact *fc = &f->c[k];
    if (term_rank(s->vrank, fc->nv, fc->v) != me) {
      add_mapped(w, map, fc->nv, fc->v, NULL);
      continue;
    }
    ++nfr;
    ipc_friction_contact_local(fc, w->s.x, w->xn, eps, 1, gl, Hl);
    for (int a = 0; a < fc->nv; ++a)
      for (int i = 0; i < 3; ++i) w->g[3 * (size_t)fc->v[a] + i] += gl[3 * a + i];
    add_mapped(w, map, fc->nv, fc->v, Hl);
  }
  ipc_mpi_count(IPC_WORK_ASM_FRICTION, nfr);
  ipc_mpi_count_cpu(IPC_WORK_ASM_FRICTION, ipc_mpi_cpu_now() - c0);
  /* affine bodies: this rank's bodies' Hessians (their elements' blocks are in the pattern) */
  c0 = ipc_mpi_cpu_now();
  size_t naff = 0;
  for (int a = 0; a < w->rest.naff; ++a) {
    const int *pv = w->aff_pv + 4 * (size_t)a;
    if (term_rank(s->vrank, 4, pv) != me) continue;
    ++naff;
    ipc_affine_world_add_body(w, NULL, s->asm_, s->aff_set, a);
    touch_unknowns(s, map, 4, pv);
  }
  ipc_mpi_count(IPC_WORK_ASM_AFFINE, naff);
  ipc_mpi_count_cpu(IPC_WORK_ASM_AFFINE, ipc_mpi_cpu_now() - c0);
  double cc = ipc_mpi_cpu_now();
  ipc_mpi_sum_same(w->g, 3 * (size_t)w->nsys);
  comm += ipc_mpi_cpu_now() - cc;
  if (w->rest.naff > 0) {
    /* the summed gradient over real vertices moved to the bodies, then the bodies' own
       gradients: O(bodies), the same bits on every rank */
    ipc_affine_world_pull(w, w->g);
    ipc_affine_world_add(w, w->g, NULL, -1);
  }
  ipc_dense_threads(0);
  s->split = 1;
  st->t_assembly += ipc_now() - t0;
  /* the CPU of the assembly's own work, and apart that of its collectives (the wait for the
     other ranks included: Open MPI polls) */
  ipc_mpi_count(IPC_WORK_ASSEMBLY, 1);
  ipc_mpi_count_cpu(IPC_WORK_ASSEMBLY, ipc_mpi_cpu_now() - cpu0 - comm);
  ipc_mpi_count(IPC_WORK_ASM_COMM, nc > 0 ? 2 : 1);
  ipc_mpi_count_cpu(IPC_WORK_ASM_COMM, comm);
}
