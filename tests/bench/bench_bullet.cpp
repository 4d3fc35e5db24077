// the scene of bench_engines in Bullet 3.24 (Debian's libbullet-dev, pkg-config 'bullet':
// single precision, as most users build it).
// - bodies: btRigidBody with a btConvexHullShape of the surface's vertices in the body frame
//   (centre of mass, principal axes; the principal moments as local inertia). Bullet grows a
//   hull by its collision margin, 0.04 m by default, more than the ellipsoids' 1-2 cm: here
//   --bullet-margin (0.5 mm, ipcc's dhat). So Bullet's surfaces stand 0.5 mm proud of the
//   scene's; the gap reported adds the margins back (the surfaces' own gap);
// - tube (any static obstacle): btBvhTriangleMeshShape of the world's triangles (margin 0)
//   on a static body; ground: btStaticPlaneShape;
// - friction: the scene's coefficients, combined by its rule through
//   gCalculateCombinedFrictionCallback (Bullet's own rule is the product); restitution 0,
//   no damping, no rolling friction, deactivation (sleeping) off, as in ipcc;
// - collision: btDefaultCollisionConfiguration (GJK/EPA, persistent manifolds of at most 4
//   points per pair, gContactBreakingThreshold 0.02 m as its default), no continuous collision
//   detection. Broad phase btAxisSweep3 over the scene's box grown by 2 m: Bullet's default
//   btDbvtBroadphase fattens every box by 5 cm (DBVT_BP_MARGIN, fixed at compile time, meant
//   for metre-sized objects) and keeps pairs while the fat boxes overlap, so at this scale
//   nearly every pair of the 125 pour reaches GJK (7,089 of 7,750 pairs, about 1,540 with
//   sweep and prune); --bullet-broadphase dbvt restores it;
// - world: btDiscreteDynamicsWorld, one step of h per stepSimulation(h, 0);
// - solver: btSequentialImpulseConstraintSolver (projected Gauss-Seidel), m_numIterations =
//   --iterations, m_solverMode SOLVER_USE_WARMSTARTING | SOLVER_SIMD |
//   SOLVER_USE_2_FRICTION_DIRECTIONS (two friction rows per contact, each clamped by
//   mu lambda_n: a friction pyramid, as ODE's dContactApprox1; Bullet's default is one row
//   along the slip), and Bullet's defaults otherwise: ERP 0.2, CFM 0, residual threshold 0
//   (every sweep is taken), islands batched up to 128 constraints, split impulse on; but
//   Bullet splits only penetrations deeper than m_splitImpulsePenetrationThreshold (-0.04 m),
//   so the pour's contacts get the Baumgarte term with ERP 0.2 (a run with split impulse off
//   gives the same trajectories);
// - one thread (no task scheduler).
// Reported per step: points of all persistent manifolds after the step, the sweeps taken
// (solveSingleIteration calls, summed over the solver's batches), the time of
// stepSimulation, and the most negative getDistance() plus margins over those points (found
// in the state the step starts from).
#include <btBulletDynamicsCommon.h>

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "bench_engines.h"

namespace {

// the scene whose rule gCalculateCombinedFrictionCallback applies (one run at a time)
const bench_scene *g_scene = nullptr;

// a collision object's user index: 1 for static geometry (obstacles, the ground)
btScalar combined_friction(const btCollisionObject *a, const btCollisionObject *b) {
  if (a->getUserIndex() == 1) std::swap(a, b);
  return static_cast<btScalar>(
      bench_combine_friction(g_scene, a->getFriction(), b->getFriction(), b->getUserIndex() == 1));
}

// counts the Gauss-Seidel sweeps the solver takes
class CountingSolver : public btSequentialImpulseConstraintSolver {
 public:
  long sweeps = 0;

 protected:
  btScalar solveSingleIteration(int iteration, btCollisionObject **bodies, int numBodies,
                                btPersistentManifold **manifolds, int numManifolds,
                                btTypedConstraint **constraints, int numConstraints,
                                const btContactSolverInfo &info, btIDebugDraw *draw) override {
    ++sweeps;
    return btSequentialImpulseConstraintSolver::solveSingleIteration(
        iteration, bodies, numBodies, manifolds, numManifolds, constraints, numConstraints, info,
        draw);
  }
};

}  // namespace

extern "C" int bench_run_bullet(const bench_scene *s, const bench_options *o, bench_report *r) {
  g_scene = s;
  CalculateCombinedCallback old_friction = gCalculateCombinedFrictionCallback;
  gCalculateCombinedFrictionCallback = combined_friction;

  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  // broad phase: sweep and prune over the scene's box grown by 2 m (bodies that leave it are
  // still handled, only slower), or Bullet's default dynamic AABB tree
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  auto grow = [&](const double *p) {
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::fmin(lo[d], p[d]);
      hi[d] = std::fmax(hi[d], p[d]);
    }
  };
  for (int b = 0; b < s->nbodies; ++b) grow(s->bodies[b].pos);
  for (int k = 0; k < s->nstatic; ++k)
    for (int i = 0; i < s->statics[k].nverts; ++i) grow(s->statics[k].x + 3 * i);
  for (int k = 0; k < s->nplanes; ++k) grow(s->planes[k].point);
  std::unique_ptr<btBroadphaseInterface> broadphase;
  if (o->bullet_dbvt)
    broadphase = std::make_unique<btDbvtBroadphase>();
  else
    broadphase = std::make_unique<btAxisSweep3>(btVector3(lo[0] - 2, lo[1] - 2, lo[2] - 2),
                                                btVector3(hi[0] + 2, hi[1] + 2, hi[2] + 2));
  CountingSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, broadphase.get(), &solver, &config);
  world.setGravity(btVector3(s->gravity[0], s->gravity[1], s->gravity[2]));
  btContactSolverInfo &si = world.getSolverInfo();
  si.m_numIterations = o->iterations;
  si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;

  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> statics;
  std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;
  std::vector<std::vector<int>> mesh_tris;
  std::vector<std::vector<btScalar>> mesh_x;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::vector<std::unique_ptr<btDefaultMotionState>> states;

  for (int b = 0; b < s->nbodies; ++b) {
    const bench_body &bb = s->bodies[b];
    auto shape = std::make_unique<btConvexHullShape>();
    for (int i = 0; i < bb.nverts; ++i) {
      const double *p = bb.local + 3 * i;
      shape->addPoint(btVector3(p[0], p[1], p[2]), false);
    }
    shape->setMargin(static_cast<btScalar>(o->bullet_margin));
    shape->recalcLocalAabb();
    btTransform start;
    start.setBasis(btMatrix3x3(bb.rot[0], bb.rot[1], bb.rot[2], bb.rot[3], bb.rot[4], bb.rot[5],
                               bb.rot[6], bb.rot[7], bb.rot[8]));
    start.setOrigin(btVector3(bb.pos[0], bb.pos[1], bb.pos[2]));
    auto state = std::make_unique<btDefaultMotionState>(start);
    btVector3 inertia(bb.inertia[0], bb.inertia[1], bb.inertia[2]);
    btRigidBody::btRigidBodyConstructionInfo ci(bb.mass, state.get(), shape.get(), inertia);
    ci.m_friction = static_cast<btScalar>(bb.friction);
    ci.m_restitution = 0;
    auto body = std::make_unique<btRigidBody>(ci);
    body->setLinearVelocity(btVector3(bb.vel[0], bb.vel[1], bb.vel[2]));
    body->setAngularVelocity(btVector3(bb.omega[0], bb.omega[1], bb.omega[2]));
    body->setActivationState(DISABLE_DEACTIVATION);
    body->setUserIndex(0);
    world.addRigidBody(body.get());
    shapes.push_back(std::move(shape));
    states.push_back(std::move(state));
    bodies.push_back(std::move(body));
  }
  auto add_static = [&](std::unique_ptr<btCollisionShape> shape, double friction) {
    btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, shape.get());
    ci.m_friction = static_cast<btScalar>(friction);
    ci.m_restitution = 0;
    auto body = std::make_unique<btRigidBody>(ci);
    body->setUserIndex(1);
    world.addRigidBody(body.get());
    shapes.push_back(std::move(shape));
    statics.push_back(std::move(body));
  };
  for (int k = 0; k < s->nstatic; ++k) {
    const bench_static_mesh &sm = s->statics[k];
    mesh_x.emplace_back(sm.x, sm.x + 3 * sm.nverts);
    mesh_tris.emplace_back(sm.tris, sm.tris + 3 * sm.ntris);
    meshes.push_back(std::make_unique<btTriangleIndexVertexArray>(
        sm.ntris, mesh_tris.back().data(), 3 * static_cast<int>(sizeof(int)), sm.nverts,
        mesh_x.back().data(), 3 * static_cast<int>(sizeof(btScalar))));
    add_static(std::make_unique<btBvhTriangleMeshShape>(meshes.back().get(), true), sm.friction);
  }
  for (int k = 0; k < s->nplanes; ++k) {
    const bench_plane &p = s->planes[k];
    btVector3 n(p.normal[0], p.normal[1], p.normal[2]);
    btScalar d = n.dot(btVector3(p.point[0], p.point[1], p.point[2]));
    add_static(std::make_unique<btStaticPlaneShape>(n, d), p.friction);
  }

  std::vector<double> centres(3 * static_cast<size_t>(s->nbodies));
  for (int k = 1; k <= o->steps; ++k) {
    solver.sweeps = 0;
    double t0 = bench_now(), c0 = bench_cpu_now();
    world.stepSimulation(static_cast<btScalar>(s->h), 0);
    double t = bench_now() - t0, tc = bench_cpu_now() - c0;
    long contacts = 0;
    double gap = INFINITY;
    for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
      const btPersistentManifold *pm = dispatcher.getManifoldByIndexInternal(m);
      contacts += pm->getNumContacts();
      // getDistance is between the margin-grown shapes; the surfaces' own gap adds the margins
      double margins = static_cast<double>(pm->getBody0()->getCollisionShape()->getMargin() +
                                           pm->getBody1()->getCollisionShape()->getMargin());
      for (int i = 0; i < pm->getNumContacts(); ++i)
        gap = std::fmin(gap, pm->getContactPoint(i).getDistance() + margins);
    }
    bench_report_step(r, k, contacts, solver.sweeps, t, tc, gap);
    if (bench_report_wants_centres(r, k)) {
      for (int b = 0; b < s->nbodies; ++b) {
        const btVector3 &c = bodies[b]->getCenterOfMassPosition();
        for (int d = 0; d < 3; ++d) centres[3 * b + d] = c[d];
      }
      bench_report_centres(r, k, centres.data());
    }
  }
  for (auto &b : bodies) world.removeRigidBody(b.get());
  for (auto &b : statics) world.removeRigidBody(b.get());
  gCalculateCombinedFrictionCallback = old_friction;
  g_scene = nullptr;
  return 0;
}
