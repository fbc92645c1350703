// Cloth and soft-body accessories on the GPU against the CPU reference (engine/sim/cloth.h, soft_body.h):
// the same passes over the same shared formulas, fed the same per-step constants, on a sheet draped over
// the real head (and a bun on it) while it turns, in wind, against the head's SDF and a sphere collider.
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

#include "gpu_test.h"
#include "groom/groom_bench.h"
#include "hair_cloth_world.h"
#include "real_head.h"
#include "sim/cloth_tiles.h"
#include "sim/gpu/sim_gpu.h"
#include "sim/mesh_oracle.h"
#include "sim/sim_metrics.h"
#include "sim/soft_body.h"
#include "test_paths.h"

namespace tressel {
namespace {

struct Fixture {
    Mesh head;
    SdfGrid field;
    Mesh sheet;
    std::vector<bool> pins;
};

const Fixture& fixture() {
    static const std::unique_ptr<Fixture> f = [] {
        auto h = std::make_unique<Fixture>();
        h->head = test::load_real_head();
        SdfBuildDesc d;
        d.mesh = &h->head;
        d.cells_x = 40;
        d.padding = 0.3;
        Diagnostics diag;
        auto field = build_sdf_cpu(d, diag);
        EXPECT_TRUE(field.ok());
        h->field = std::move(*field);
        glm::vec3 lo(1e9f), hi(-1e9f);
        for (const glm::vec3& p : h->head.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
        const glm::vec3 c = (lo + hi) * 0.5f;
        const float side = 1.2f * std::max(hi.x - lo.x, hi.z - lo.z);
        h->sheet = make_cloth_sheet("scarf", glm::vec3(c.x - side / 2, hi.y + 0.01f, c.z - side / 2), glm::vec3(side, 0, 0),
                                    glm::vec3(0, 0, side), 20, 20);
        for (const glm::vec3& p : h->sheet.positions)
            h->pins.push_back(std::abs(p.x - c.x) < 0.1f * side && std::abs(p.z - c.z) < 0.1f * side);
        return h;
    }();
    return *f;
}

SimWorld make_world(int iterations = 20, const Mesh* sheet = nullptr, const std::vector<bool>* pins = nullptr) {
    const Fixture& f = fixture();
    SimWorldInputs in;
    in.sdfs.push_back({"head", &f.field, 0.004});
    Collider ball;
    ball.name = "ball";
    ball.p0_m = {0.12, 0.2, 0.0};
    ball.radius_m = 0.06;
    ball.friction = 0.5;
    in.colliders = {ball};
    in.environment.wind.speed_mps = 2.0;
    in.environment.wind.turbulence = 0.5;
    in.environment.wind.direction = {1.0, 0.0, 0.3};
    in.motion.type = MotionType::Procedural;
    in.motion.turn_deg = 30.0;
    in.motion.frequency_hz = 1.0;
    auto w = build_sim_world(in);
    EXPECT_TRUE(w.ok()) << w.error().describe();
    ClothBuildInputs cb;
    cb.name = "scarf";
    cb.mesh = sheet ? sheet : &f.sheet;
    cb.pinned = pins ? *pins : f.pins;
    cb.params.iterations = iterations;
    cb.attach_mesh = "head";
    auto cloth = build_cloth(cb);
    EXPECT_TRUE(cloth.ok()) << cloth.error().describe();
    cloth->sdf_indices = {0};
    cloth->collider_indices = {0};
    w->cloths.push_back(std::move(*cloth));
    return std::move(*w);
}

double max_diff(const ClothState& a, const ClothState& b) {
    double d = 0.0;
    for (size_t i = 0; i < a.positions.size(); ++i) d = std::max<double>(d, glm::length(glm::vec3(a.positions[i] - b.positions[i])));
    return d;
}

class ClothGpuTest : public test::GpuTest {};

void run_gpu(gpu::Device& dev, SimGpu& sim, SimWorld& world, uint32_t steps) {
    while (steps > 0) {
        const uint32_t n = std::min<uint32_t>(steps, 8);
        auto cmd = dev.begin_commands();
        ASSERT_TRUE(cmd.ok());
        ASSERT_TRUE(sim.record_steps(*cmd, world, n, nullptr).ok());
        auto serial = dev.submit(std::move(*cmd));
        ASSERT_TRUE(serial.ok());
        ASSERT_TRUE(dev.wait(*serial).ok());
        steps -= n;
    }
}

TEST_F(ClothGpuTest, MatchesTheCpuStepOnATurningHeadInWind) {
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok()) << pipelines.error().describe();
    SimWorld cpu = make_world(), gpu_world = make_world();
    auto sim = SimGpu::create(device(), *pipelines, gpu_world);
    ASSERT_TRUE(sim.ok()) << sim.error().describe();
    ASSERT_EQ(sim->cloth_count(), 1u);
    double after[3] = {0, 0, 0};
    const uint32_t marks[3] = {1, 10, 100};
    uint32_t done = 0;
    for (int m = 0; m < 3; ++m) {
        for (; done < marks[m]; ++done) ASSERT_TRUE(step_once(cpu).ok());
        run_gpu(device(), *sim, gpu_world, marks[m] - (m ? marks[m - 1] : 0));
        ASSERT_TRUE(sim->download(device(), gpu_world).ok());
        after[m] = max_diff(cpu.cloths[0], gpu_world.cloths[0]);
    }
    // It moved: the head turned, the sheet fell onto it and the wind blew.
    double moved = 0.0;
    const ClothState& c = cpu.cloths[0];
    for (size_t v = 0; v < c.positions.size(); ++v)
        moved = std::max<double>(moved, glm::length(glm::vec3(c.positions[v]) - glm::vec3(c.vertices[v].rest_os)));
    std::printf("cloth GPU vs CPU: %.2e m after 1 step, %.2e after 10, %.2e after 100 (largest move %.3f m, strain %.3f, KE %.3f)\n", after[0], after[1], after[2],
                moved, measure_cloth_stretch(c).max_strain, cloth_kinetic_energy(c, cpu.step_dt_s()));
    EXPECT_GT(moved, 0.03);
    EXPECT_LT(after[0], 1e-5);
    EXPECT_LT(after[1], 1e-4);
    // After 100 steps the sheet (1.1 m across the bust) has buckled over the shoulders; rounding decides
    // which way a fold goes, so the two may rest in different folds (0.49 m apart at one corner on the CPU
    // driver): printed, not bounded.
}

TEST_F(ClothGpuTest, OddAndEvenSmallStepCountsEndInTheState) {
    // The state alternates between two buffer pairs; an odd count of passes per step must still leave the
    // state where download and the renderer read it.
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok());
    for (int iterations : {3, 4}) {
        SimWorld cpu = make_world(iterations), gpu_world = make_world(iterations);
        auto sim = SimGpu::create(device(), *pipelines, gpu_world);
        ASSERT_TRUE(sim.ok());
        for (int i = 0; i < 5; ++i) ASSERT_TRUE(step_once(cpu).ok());
        run_gpu(device(), *sim, gpu_world, 5);
        ASSERT_TRUE(sim->download(device(), gpu_world).ok());
        EXPECT_LT(max_diff(cpu.cloths[0], gpu_world.cloths[0]), 1e-4) << iterations << " small steps";
        std::vector<glm::vec4> drawn(gpu_world.cloths[0].positions.size());
        ASSERT_TRUE(device().download(sim->cloth_positions(0), drawn.data(), drawn.size() * sizeof(glm::vec4)).ok());
        EXPECT_EQ(drawn, gpu_world.cloths[0].positions);
    }
}

TEST_F(ClothGpuTest, LargerClothsStepInTilesAndMatchTheCpu) {
    // 71 x 71 and 131 x 131 vertices: many tiles (cloth_tile.comp), each solving its edges and bending in
    // shared memory and adding each vertex's corrections in the order the CPU adds them.
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok());
    ASSERT_TRUE(pipelines->cloth_tile.valid()) << "the CPU driver gives a workgroup the tiles' shared memory";
    for (uint32_t cells : {70u, 130u}) {
        const Fixture& f = fixture();
        const glm::vec3 corner(f.sheet.positions.front());
        const glm::vec3 far(f.sheet.positions.back());
        const Mesh sheet = make_cloth_sheet("big", corner, glm::vec3(far.x - corner.x, 0, 0), glm::vec3(0, 0, far.z - corner.z), cells, cells);
        const glm::vec3 c = 0.5f * (corner + far);
        std::vector<bool> pins;
        for (const glm::vec3& p : sheet.positions) pins.push_back(std::abs(p.x - c.x) < 0.05f && std::abs(p.z - c.z) < 0.05f);
        SimWorld cpu = make_world(20, &sheet, &pins), gpu_world = make_world(20, &sheet, &pins);
        const ClothTiles tiles = build_cloth_tiles(cpu.cloths[0]);
        EXPECT_GT(tiles.tiles.size(), cpu.cloths[0].vertex_count() / gpu_shared::kClothTileThreads - 1);
        auto sim = SimGpu::create(device(), *pipelines, gpu_world);
        ASSERT_TRUE(sim.ok());
        for (int i = 0; i < 3; ++i) ASSERT_TRUE(step_once(cpu).ok());
        run_gpu(device(), *sim, gpu_world, 3);
        ASSERT_TRUE(sim->download(device(), gpu_world).ok());
        const double d = max_diff(cpu.cloths[0], gpu_world.cloths[0]);
        std::printf("cloth of %zu vertices in %zu tiles: GPU vs CPU %.2e m after 3 steps\n", cpu.cloths[0].vertex_count(), tiles.tiles.size(), d);
        EXPECT_LT(d, 1e-5);
    }
}

// A skin under every vertex of a cloth, each turning and lifting on its own (the transform of a pin on the
// skin, SimWorld::cloth_pin_driver), so that pins on neighbouring triangles move differently.
glm::mat4 wobbling_skin(const glm::vec4& rest, double t) {
    const float phase = 20.0f * rest.x + 13.0f * rest.z;
    const float lift = 0.03f * float(std::sin(6.0 * t + double(phase)));
    const float turn = 0.4f * float(t) * std::cos(phase);
    const glm::vec3 at(rest);
    return glm::translate(glm::mat4(1.0f), at + glm::vec3(0.0f, lift, 0.0f)) * glm::rotate(glm::mat4(1.0f), turn, glm::vec3(0, 0, 1)) *
           glm::translate(glm::mat4(1.0f), -at);
}

void pin_to_a_wobbling_skin(SimWorld& w) {
    w.cloths[0].pins_on_skin = true;
    const std::vector<gpu_shared::ClothVertex> vertices = w.cloths[0].vertices;
    w.cloth_pin_driver = [vertices](size_t, double t, std::vector<glm::mat4>& out) {
        out.resize(vertices.size());
        for (size_t v = 0; v < vertices.size(); ++v) out[v] = wobbling_skin(vertices[v].rest_os, t);
        return true;
    };
}

// Largest distance of a pinned vertex from where its skin carries it at the cloth's time.
double pins_off_their_skin(const ClothState& c, double t, size_t* pins = nullptr) {
    double off = 0.0;
    for (size_t v = 0; v < c.vertex_count(); ++v) {
        if (c.positions[v].w > 0.0f) continue;
        if (pins) ++*pins;
        const glm::vec3 want(wobbling_skin(c.vertices[v].rest_os, t) * glm::vec4(glm::vec3(c.vertices[v].rest_os), 1.0f));
        off = std::max(off, double(glm::length(glm::vec3(c.positions[v]) - want)));
    }
    return off;
}

TEST_F(ClothGpuTest, AVertexTooConnectedForATileStepsOnThePerVertexPass) {
    // A disc of 600 thin triangles around one vertex: its 600 edges reach more vertices than a tile holds,
    // so the cloth has no tiles and every small step takes the per-vertex pass (cloth_substep.comp).
    const uint32_t n = 600;
    Mesh disc;
    disc.name = "fan";
    const Fixture& f = fixture();  // the fan lies where the fixture's sheet does: 1 cm over the head
    const glm::vec3 centre = 0.5f * (glm::vec3(f.sheet.positions.front()) + glm::vec3(f.sheet.positions.back()));
    disc.positions.push_back(centre);
    for (uint32_t i = 0; i < n; ++i) {
        const float a = 2.0f * 3.14159265f * float(i) / float(n);
        disc.positions.push_back(centre + glm::vec3(0.08f * std::cos(a), 0.0f, 0.08f * std::sin(a)));
    }
    for (uint32_t i = 0; i < n; ++i) disc.indices.insert(disc.indices.end(), {0u, 1u + (i + 1) % n, 1u + i});
    std::vector<bool> pins(disc.positions.size(), false);
    for (uint32_t i = 0; i < n; i += 50) pins[1 + i] = true;
    SimWorld cpu = make_world(10, &disc, &pins), gpu_world = make_world(10, &disc, &pins);
    const ClothTiles tiles = build_cloth_tiles(cpu.cloths[0]);
    EXPECT_TRUE(tiles.empty());
    EXPECT_NE(tiles.why.find("600 edges"), std::string::npos) << tiles.why;
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok());
    // One step: the fan's 600 sliver triangles make it chaotic (rounding differences grow a hundredfold a
    // step after the first), so the passes are compared where they start from one state.
    auto step_both = [&](SimWorld& on_cpu, SimWorld& on_gpu) {
        auto sim = SimGpu::create(device(), *pipelines, on_gpu);
        ASSERT_TRUE(sim.ok());
        ASSERT_TRUE(step_once(on_cpu).ok());
        run_gpu(device(), *sim, on_gpu, 1);
        ASSERT_TRUE(sim->download(device(), on_gpu).ok());
    };
    step_both(cpu, gpu_world);
    if (HasFatalFailure()) return;
    double moved = 0.0;
    for (size_t i = 0; i < disc.positions.size(); ++i)
        moved = std::max(moved, double(glm::length(glm::vec3(cpu.cloths[0].positions[cpu.cloths[0].welded_of_source[i]]) - disc.positions[i])));
    const double d = max_diff(cpu.cloths[0], gpu_world.cloths[0]);
    std::printf("fan of %u triangles, per-vertex pass: GPU vs CPU %.2e m after a step (largest move %.5f m)\n", n, d, moved);
    EXPECT_GT(moved, 1e-4);
    EXPECT_LT(d, 1e-6);

    // Its pins on a skin: the per-vertex pass places them from their own transforms as the tiled pass does.
    SimWorld skin_cpu = make_world(10, &disc, &pins), skin_gpu = make_world(10, &disc, &pins);
    pin_to_a_wobbling_skin(skin_cpu);
    pin_to_a_wobbling_skin(skin_gpu);
    step_both(skin_cpu, skin_gpu);
    if (HasFatalFailure()) return;
    size_t pinned = 0;
    const double off_cpu = pins_off_their_skin(skin_cpu.cloths[0], skin_cpu.time_s(), &pinned);
    const double off_gpu = pins_off_their_skin(skin_gpu.cloths[0], skin_cpu.time_s());
    const double skin_d = max_diff(skin_cpu.cloths[0], skin_gpu.cloths[0]);
    std::printf("the fan's %zu pins on a skin, per-vertex pass: GPU vs CPU %.2e m after a step; pins off their skin %.2e (CPU), %.2e m (GPU)\n",
                pinned, skin_d, off_cpu, off_gpu);
    EXPECT_EQ(pinned, 12u);
    EXPECT_LT(skin_d, 1e-6);
    EXPECT_LT(off_cpu, 1e-6);
    EXPECT_LT(off_gpu, 1e-6);
    EXPECT_GT(max_diff(skin_cpu.cloths[0], cpu.cloths[0]), 1e-3) << "the skin must move the pins for the test to mean anything";
}

// A soft bun (a ball of 5 cm, particles 1 cm apart) on top of the turning head, pinned where it touches
// it, against the head's SDF and the sphere collider.
// Hair against a cloth on the device: the sheet's shell field refitted and rebuilt from its positions before
// every step and copied into the hair's fields (SimGpu), the same step as the CPU reference. The sheet's
// pins travel along x at 0.3 m/s, 10 cm in the 40 steps, which moves the field's grid by whole cells
// (accessory_field_placement) on both.
TEST_F(ClothGpuTest, HairUnderAClothMatchesTheCpuStep) {
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok()) << pipelines.error().describe();
    auto travel = [](SimWorld& w) {
        w.cloth_driver = [](size_t, double t, glm::mat4& out) {
            out = glm::translate(glm::mat4(1.0f), glm::vec3(float(0.3 * t), 0.0f, 0.0f));
            return true;
        };
    };
    auto h_cpu = test::make_hair_under_cloth(true);
    travel(h_cpu->world);
    for (int i = 0; i < 40; ++i) ASSERT_TRUE(step_once(h_cpu->world).ok());
    const SimAccessoryField& af = h_cpu->world.accessory_fields[0];
    EXPECT_GE(h_cpu->world.sdfs[af.sdf].placement_m.x, float(af.plan.grid.cell_size_m) * (kAccessoryFieldRecentreCells - 0.5f)) << "the grid moved";
    for (SimGpuMode mode : {SimGpuMode::Split, SimGpuMode::Fused}) {
        auto h_gpu = test::make_hair_under_cloth(true);
        travel(h_gpu->world);
        auto sim = SimGpu::create(device(), *pipelines, h_gpu->world, 16, mode);
        ASSERT_TRUE(sim.ok()) << sim.error().describe();
        run_gpu(device(), *sim, h_gpu->world, 40);
        ASSERT_TRUE(sim->download(device(), h_gpu->world).ok());
        double hair = 0.0, moved = 0.0;
        const SimGroupState& a = h_cpu->world.groups[0];
        for (size_t v = 0; v < a.positions.size(); ++v) {
            hair = std::max<double>(hair, glm::length(glm::vec3(a.positions[v] - h_gpu->world.groups[0].positions[v])));
            moved = std::max<double>(moved, double(a.positions[v].y) - 0.05);
        }
        const double cloth = max_diff(h_cpu->world.cloths[0], h_gpu->world.cloths[0]);
        // The hair met the sheet in these 40 steps: some vertex is within the cloth's reach.
        const HairUnderClothStats st = measure_hair_under_cloth(h_gpu->world, h_gpu->world.accessory_fields[0], 0.001, 0.01);
        std::printf("hair under a cloth, GPU (%s) vs CPU after 40 steps: hair %.2e m, cloth %.2e m (hair rose %.3f m, %llu vertices within 1 cm of the sheet, %llu over it)\n",
                    mode == SimGpuMode::Split ? "split" : "fused", hair, cloth, moved, (unsigned long long)st.near, (unsigned long long)st.wrong_side);
        EXPECT_GT(st.near, 20u);
        EXPECT_EQ(st.wrong_side, 0u);
        EXPECT_LT(hair, 1e-4);
        EXPECT_LT(cloth, 1e-4);
    }
}

// Hair against a soft body on the device: the field of its drawn surface (written by the draw pass after
// each of its steps) refitted and rebuilt before every step, the same step as the CPU reference.
TEST_F(ClothGpuTest, HairAgainstASoftBodyMatchesTheCpuStep) {
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok()) << pipelines.error().describe();
    // The ball over the swinging strands, and over their roots (the strands rooted inside it exempt from
    // its field: SimGroupState::sdf_exempt), split and fused.
    // The field at its margin from the start (its ease-in is the host's: the step's margin).
    auto no_ease = [](SimWorld& w) { w.sdfs.back().ease_in_s = 0.0, w.sdfs.back().margin_offset_m = 0.0; };
    for (glm::vec3 centre : {glm::vec3(0.0f, 0.12f, 0.0f), glm::vec3(-0.07f, 0.07f, 0.0f)}) {
        auto h_cpu = test::make_hair_against_soft_ball(true, centre);
        no_ease(h_cpu->world);
        for (int i = 0; i < 40; ++i) ASSERT_TRUE(step_once(h_cpu->world).ok());
        const bool over_roots = centre.y < 0.1f;
        EXPECT_EQ(h_cpu->world.groups[0].sdf_exempt.empty(), !over_roots);
        for (SimGpuMode mode : {SimGpuMode::Split, SimGpuMode::Fused}) {
            if (!over_roots && mode == SimGpuMode::Fused) continue;  // the fused step's exemption: over the roots
            auto h_gpu = test::make_hair_against_soft_ball(true, centre);
            no_ease(h_gpu->world);
            auto sim = SimGpu::create(device(), *pipelines, h_gpu->world, 16, mode);
            ASSERT_TRUE(sim.ok()) << sim.error().describe();
            run_gpu(device(), *sim, h_gpu->world, 40);
            ASSERT_TRUE(sim->download(device(), h_gpu->world).ok());
            double hair = 0.0, deepest = -1.0;
            const MeshDistanceOracle ball(cloth_mesh(h_gpu->world.cloths[0]));
            const SimGroupState& a = h_cpu->world.groups[0];
            const SimGroupState& b = h_gpu->world.groups[0];
            for (size_t v = 0; v < a.positions.size(); ++v) {
                hair = std::max<double>(hair, glm::length(glm::vec3(a.positions[v] - b.positions[v])));
                const bool exempt = !b.sdf_exempt.empty() && b.sdf_exempt[v / b.n] != 0u;
                if (!exempt && v % b.n >= gpu_shared::kSimPinnedVertices)
                    deepest = std::max<double>(deepest, -ball.signed_distance_m(glm::vec3(b.positions[v])));
            }
            const double body = max_diff(h_cpu->world.cloths[0], h_gpu->world.cloths[0]);
            std::printf("hair against a soft ball (%s, %s), GPU vs CPU after 40 steps: hair %.2e m, body %.2e m; deepest free vertex of a strand "
                        "rooted outside %.4f m inside its surface\n",
                        over_roots ? "over the roots" : "over the swing", mode == SimGpuMode::Split ? "split" : "fused", hair, body, deepest);
            EXPECT_GT(deepest, -0.01) << "the hair reached the ball";
            EXPECT_LT(deepest, b.params.particle_radius_m);
            EXPECT_LT(hair, 1e-4);
            EXPECT_LT(body, 1e-4);
        }
    }
}

SimWorld make_soft_world(int iterations) {
    const Fixture& f = fixture();
    SimWorld w = make_world(iterations);
    w.cloths.clear();
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const glm::vec3& p : f.head.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    Mesh bun = make_sphere_mesh(0.05f, 16, 24);
    for (glm::vec3& p : bun.positions) p += glm::vec3(0.5f * (lo.x + hi.x), hi.y + 0.03f, 0.5f * (lo.z + hi.z) - 0.04f);
    static const MeshDistanceOracle head(f.head);
    SoftBodyBuildInputs in;
    in.name = "bun";
    in.mesh = &bun;
    in.params.iterations = iterations;
    in.params.stiffness = 0.3;
    in.pins.mode = PinMode::NearMesh;
    in.pins.distance_m = 0.005;
    in.attach = &head;
    in.attach_mesh = "head";
    auto body = build_soft_body(in);
    EXPECT_TRUE(body.ok()) << body.error().describe();
    body->sdf_indices = {0};
    body->collider_indices = {0};
    w.cloths.push_back(std::move(*body));
    return w;
}

TEST_F(ClothGpuTest, SoftBodyMatchesTheCpuStepAndDrawsItsMeshFromTheClusters) {
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok()) << pipelines.error().describe();
    for (int iterations : {3, 10}) {
        SimWorld cpu = make_soft_world(iterations), gpu_world = make_soft_world(iterations);
        auto sim = SimGpu::create(device(), *pipelines, gpu_world);
        ASSERT_TRUE(sim.ok()) << sim.error().describe();
        const ClothState& c = cpu.cloths[0];
        gpu::BufferDesc bd;
        bd.size = c.render_vertices.size() * 2 * sizeof(glm::vec4);
        bd.name = "bun mesh vertices";
        auto target = device().create_buffer(bd);
        ASSERT_TRUE(target.ok());
        ASSERT_TRUE(sim->set_cloth_draw_target(0, &*target).ok());
        for (int i = 0; i < 10; ++i) ASSERT_TRUE(step_once(cpu).ok());
        run_gpu(device(), *sim, gpu_world, 10);
        ASSERT_TRUE(sim->download(device(), gpu_world).ok());
        const double d = max_diff(c, gpu_world.cloths[0]);
        double q = 0.0;
        for (size_t i = 0; i < c.clusters.size(); ++i) q = std::max<double>(q, glm::length(c.clusters[i] - gpu_world.cloths[0].clusters[i]));
        // The render mesh drawn on the device against the CPU's.
        auto cmd = device().begin_commands();
        ASSERT_TRUE(cmd.ok());
        sim->record_cloth_draws(*cmd);
        auto serial = device().submit(std::move(*cmd));
        ASSERT_TRUE(serial.ok());
        ASSERT_TRUE(device().wait(*serial).ok());
        std::vector<glm::vec4> drawn(c.render_vertices.size() * 2);
        ASSERT_TRUE(device().download(*target, drawn.data(), drawn.size() * sizeof(glm::vec4)).ok());
        const Mesh cpu_mesh = cloth_mesh(c);
        double dm = 0.0, dn = 0.0;
        for (size_t r = 0; r < cpu_mesh.positions.size(); ++r) {
            dm = std::max<double>(dm, glm::length(glm::vec3(drawn[2 * r]) - cpu_mesh.positions[r]));
            dn = std::max<double>(dn, glm::length(glm::vec3(drawn[2 * r + 1]) - cpu_mesh.normals[r]));
        }
        double moved = 0.0;
        for (size_t v = 0; v < c.positions.size(); ++v)
            moved = std::max<double>(moved, glm::length(glm::vec3(c.positions[v]) - glm::vec3(c.vertices[v].rest_os)));
        std::printf("soft body of %zu particles, %d iterations: GPU vs CPU %.2e m after 10 steps, clusters %.2e, drawn mesh %.2e m, normals %.2e "
                    "(largest move %.4f m)\n",
                    c.vertex_count(), iterations, d, q, dm, dn, moved);
        EXPECT_GT(moved, 0.005);
        EXPECT_LT(d, 1e-5);
        EXPECT_LT(dm, 1e-5);
        EXPECT_LT(dn, 1e-4);
    }
}

// Pins on a skin (ClothState::pins_on_skin): every pinned vertex has a transform of its own each step
// (SimWorld::cloth_pin_driver), here one that lifts and turns each pin by its own amount, as a bending skin
// does. The device reads the step's pin places from their buffer as the CPU reads them from the state, in
// a cloth's tiled small steps and a soft body's particle passes: the same step within 1e-5 m after 1 step
// and 1e-4 after 10, and every pin ends each step where its transform carries it.
TEST_F(ClothGpuTest, PinsOnASkinMatchTheCpuStep) {
    auto pipelines = SimGpuPipelines::create(device());
    ASSERT_TRUE(pipelines.ok()) << pipelines.error().describe();
    for (bool soft : {false, true}) {
        auto skin_world = [&] {
            SimWorld w = soft ? make_soft_world(10) : make_world();
            pin_to_a_wobbling_skin(w);
            return w;
        };
        SimWorld cpu = skin_world(), gpu_world = skin_world();
        auto sim = SimGpu::create(device(), *pipelines, gpu_world);
        ASSERT_TRUE(sim.ok()) << sim.error().describe();
        double after[2] = {0, 0}, pin_off = 0.0, pin_moved = 0.0;
        size_t pins = 0;
        const uint32_t marks[2] = {1, 10};
        uint32_t done = 0;
        for (int m = 0; m < 2; ++m) {
            for (; done < marks[m]; ++done) {
                ASSERT_TRUE(step_once(cpu).ok());
                const ClothState& c = cpu.cloths[0];
                pins = 0;
                pin_off = std::max(pin_off, pins_off_their_skin(c, cpu.time_s(), &pins));
                for (size_t v = 0; v < c.vertex_count(); ++v)
                    if (c.positions[v].w <= 0.0f)
                        pin_moved = std::max(pin_moved, double(glm::length(glm::vec3(c.positions[v]) - glm::vec3(c.vertices[v].rest_os))));
            }
            run_gpu(device(), *sim, gpu_world, marks[m] - (m ? marks[m - 1] : 0));
            ASSERT_TRUE(sim->download(device(), gpu_world).ok());
            after[m] = max_diff(cpu.cloths[0], gpu_world.cloths[0]);
        }
        std::printf("%s, %zu pins on a skin, GPU vs CPU: %.2e m after 1 step, %.2e after 10; pins within %.2e m of their own transforms "
                    "(moved %.3f m)\n",
                    soft ? "soft body" : "cloth", pins, after[0], after[1], pin_off, pin_moved);
        EXPECT_GT(pins, 0u);
        EXPECT_LT(after[0], 1e-5);
        EXPECT_LT(after[1], 1e-4);
        EXPECT_LT(pin_off, 1e-6);
        EXPECT_GT(pin_moved, 0.01);
    }
}

}  // namespace
}  // namespace tressel
