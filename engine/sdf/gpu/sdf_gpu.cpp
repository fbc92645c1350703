#include "sdf/gpu/sdf_gpu.h"

#include <algorithm>
#include <string>

#include "shared/embedded_shaders.h"
#include "shared/sdf_gpu.h"
#include "shared/sdf_refit.h"

namespace tressel {

namespace sp = sdf_passes;
using gpu_shared::SdfPush;

static_assert(gpu_shared::kSdfFinalizeBlockThreads ==
                  uint32_t(gpu_shared::kSdfCoarseFactor * gpu_shared::kSdfCoarseFactor * gpu_shared::kSdfCoarseFactor),
              "finalize runs one thread per fine cell of a coarse block");
static_assert(gpu_shared::kSdfCoarseSeedWorkgroupSize ==
                  uint32_t(gpu_shared::kSdfCoarseFactor * gpu_shared::kSdfCoarseFactor * gpu_shared::kSdfCoarseFactor),
              "the coarse seed runs one thread per fine cell of a coarse block");
static_assert(gpu_shared::kSdfJfaWorkgroupSize % gpu_shared::kSdfJfaLanes == 0,
              "jump flooding runs kSdfJfaLanes invocations per cell");
static_assert(gpu_shared::kSdfFinalizeBlockThreads >= uint32_t(gpu_shared::kSdfCoarseNeighbours),
              "finalize loads the 27 coarse candidates with one thread each");
static_assert(gpu_shared::kSdfCoarseFactor == 4, "sdf_block_cell_offset orders a block of 4^3 cells");

namespace {

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

Result<gpu::ComputePipeline> make(gpu::Device& device, const char* shader, std::vector<uint32_t> specialization) {
    std::vector<VkDescriptorType> bindings(gpu_shared::kSdfBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    return device.create_compute_pipeline(
        {embedded_spirv(shader), bindings, sizeof(SdfPush), shader, std::move(specialization)});
}

template <class T>
Result<gpu::Buffer> upload(gpu::Device& device, const std::vector<T>& data, const char* name) {
    return device.create_buffer_with(std::span<const T>(data), 0, name);
}

// Whole 16-byte units (readers may take four cells at a time).
Result<gpu::Buffer> cells_buffer(gpu::Device& device, uint64_t count, const char* name) {
    return device.create_buffer({(std::max<uint64_t>(count, 1) * 4 + 15) / 16 * 16, kStorage, gpu::MemoryIntent::DeviceLocal, name});
}

uint32_t sign_mode(sp::CellSign s) { return static_cast<uint32_t>(s); }

struct Recorder {
    gpu::CommandBuffer& cmd;
    gpu::TimestampQueries* ts;
    const gpu::Device& device;

    void dispatch(const gpu::ComputePipeline& p, const gpu::DescriptorSet& set, const SdfPush& push,
                  uint32_t invocations_per_item = 1, uint32_t workgroup_size = gpu_shared::kSdfWorkgroupSize) {
        cmd.bind(p, set);
        cmd.push(p, push);
        gpu::DispatchSize d = gpu::dispatch_size(device, uint64_t(push.count) * invocations_per_item, workgroup_size);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
    }
    // `per_group` items per workgroup (split over y past the x limit).
    void dispatch_groups(const gpu::ComputePipeline& p, const gpu::DescriptorSet& set, const SdfPush& push,
                         uint32_t items, uint32_t per_group = 1) {
        cmd.bind(p, set);
        cmd.push(p, push);
        gpu::DispatchSize d = gpu::dispatch_size(device, items, per_group);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
    }
    void begin(const char* name) {
        if (ts) ts->begin(cmd, name);
    }
    void end() {
        if (ts) ts->end(cmd);
    }
};

}  // namespace

Result<SdfGpuPipelines> SdfGpuPipelines::create(gpu::Device& device, SdfGpuTuning tuning) {
    // Within the device's limits: fewer triangles or blocks per workgroup (same results) where it is small.
    const uint32_t max_inv = std::max(device.info().max_workgroup_invocations, 64u);
    tuning.band_lanes = std::clamp(tuning.band_lanes, 1u, max_inv);
    tuning.band_triangles = std::clamp(tuning.band_triangles, 1u, max_inv / tuning.band_lanes);
    tuning.finalize_blocks =
        std::clamp(tuning.finalize_blocks, 1u, max_inv / gpu_shared::kSdfFinalizeBlockThreads);
    tuning.jfa_workgroup = std::clamp(tuning.jfa_workgroup, 1u, max_inv);
    if (!device.info().int64_atomics)
        return make_error(ErrorCode::Unsupported, "the GPU SDF build needs 64-bit buffer atomics (shaderBufferInt64Atomics), which " +
                                                      device.info().name + " lacks; use the CPU build");
    // Jump flooding shares a coarse cell between kSdfJfaLanes invocations of one subgroup (xor shuffles).
    VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sub};
    vkGetPhysicalDeviceProperties2(device.physical_device(), &props);
    const uint32_t widest = tuning.jfa_lanes ? tuning.jfa_lanes : gpu_shared::kSdfJfaLanes;
    if (!(sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) || !(sub.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) ||
        sub.subgroupSize < widest || sub.subgroupSize % widest != 0 || tuning.jfa_workgroup % sub.subgroupSize != 0)
        return make_error(ErrorCode::Unsupported, "the GPU SDF build needs compute subgroups of a multiple of " +
                                                      std::to_string(widest) + " invocations (dividing " +
                                                      std::to_string(tuning.jfa_workgroup) +
                                                      ") with shuffles; " + device.info().name + " has " +
                                                      std::to_string(sub.subgroupSize) + "; use the CPU build");
    // Finalize's consensus shuffles within groups of 8 consecutive invocations of a subgroup.
    const uint32_t finalize_invocations = gpu_shared::kSdfFinalizeBlockThreads * tuning.finalize_blocks;
    if (!(sub.supportedOperations & VK_SUBGROUP_FEATURE_VOTE_BIT) || sub.subgroupSize < 8 || sub.subgroupSize % 8 != 0 ||
        finalize_invocations % sub.subgroupSize != 0)
        return make_error(ErrorCode::Unsupported, "the GPU SDF build needs compute subgroups of a multiple of 8 invocations "
                                                  "(dividing " + std::to_string(finalize_invocations) + ") with votes; " +
                                                      device.info().name + " has " + std::to_string(sub.subgroupSize) +
                                                      "; use the CPU build");
    SdfGpuPipelines p;
    p.tuning = tuning;
    struct Item {
        gpu::ComputePipeline* out;
        const char* shader;
        std::vector<uint32_t> specialization;
    } items[] = {{&p.init, "sdf/init.comp", {}},
                 {&p.band, "sdf/band.comp",
                  {tuning.band_lanes, tuning.band_triangles, tuning.band_lanes * tuning.band_triangles}},
                 {&p.coarse_seed, "sdf/coarse_seed.comp", {}},
                 {&p.parity_triangle, "sdf/parity_triangle.comp", {}},
                 {&p.parity_prefix, "sdf/parity_prefix.comp", {}},
                 {&p.winding, "sdf/winding.comp", {}},
                 {&p.finalize_band, "sdf/finalize_band.comp", {}},
                 {&p.finalize, "sdf/finalize.comp",
                  {tuning.finalize_blocks, gpu_shared::kSdfFinalizeBlockThreads * tuning.finalize_blocks}}};
    for (auto& it : items) {
        auto pipe = make(device, it.shader, it.specialization);
        if (!pipe) return pipe.error();
        *it.out = std::move(*pipe);
    }
    {
        std::vector<VkDescriptorType> bindings(gpu_shared::kSdfRefitBindingCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        auto pipe = device.create_compute_pipeline(
            {embedded_spirv("sdf/refit.comp"), bindings, sizeof(gpu_shared::SdfRefitPush), "sdf/refit.comp"});
        if (!pipe) return pipe.error();
        p.refit = std::move(*pipe);
    }
    const uint32_t lanes_choice[3] = {2, 4, 8};
    for (int i = 0; i < 3; ++i) {
        p.jfa_lanes[i] = tuning.jfa_lanes ? tuning.jfa_lanes : lanes_choice[i];
        if (i > 0 && tuning.jfa_lanes) {  // one pipeline when forced
            p.jfa_lanes[i] = 0;
            continue;
        }
        auto pipe = make(device, "sdf/jfa.comp", {tuning.jfa_workgroup, p.jfa_lanes[i]});
        if (!pipe) return pipe.error();
        p.jfa[i] = std::move(*pipe);
    }
    return p;
}

const gpu::ComputePipeline& SdfGpuPipelines::jfa_for(uint32_t coarse_cells, uint32_t& lanes) const {
    int pick = 0;
    if (jfa_lanes[1] != 0)  // automatic: the most invocations per cell within about 400,000 in all
        for (int i = 2; i > 0; --i)
            if (uint64_t(coarse_cells) * jfa_lanes[i] <= 400'000) {
                pick = i;
                break;
            }
    lanes = jfa_lanes[pick];
    return jfa[pick];
}

Result<SdfGpuField> prepare_sdf_gpu(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfBuildDesc& desc,
                                    Diagnostics& diag) {
    auto plan = plan_sdf_build(desc, diag);
    if (!plan) return plan.error();
    SdfGpuField f;
    f.plan = std::move(*plan);
    const sp::MeshData& m = f.plan.mesh;
    const uint64_t cells = f.plan.grid.cell_count();
    const bool winding = f.plan.cell_sign == sp::CellSign::Winding;
    if (!winding) f.winding_plan.stride = 0;  // not used

    gpu_shared::SdfGridParams params = f.plan.grid.gpu_params(f.plan.band_cells);
    const uint64_t coarse_cells = sp::coarse_cell_count(params);
    const uint64_t parity_words = gpu_shared::sdf_parity_word_count(params);
    auto pb = device.create_buffer_with(std::span<const gpu_shared::SdfGridParams>(&params, 1), 0, "sdf params");
    if (!pb) return pb.error();
    f.params = std::move(*pb);

    struct Up {
        gpu::Buffer* out;
        Result<gpu::Buffer> r;
    };
    std::vector<glm::vec4> packed(m.indices.size());
    for (size_t i = 0; i < m.indices.size(); ++i) packed[i] = m.positions_m[m.indices[i]];
    // (Never empty: a buffer of no bytes cannot be bound.)
    const std::vector<gpu_shared::SdfFwnNode> fwn_nodes = m.fwn_nodes.empty() ? std::vector<gpu_shared::SdfFwnNode>(1) : m.fwn_nodes;
    const std::vector<uint32_t> fwn_tris = m.fwn_tris.empty() ? std::vector<uint32_t>(1, 0u) : m.fwn_tris;
    Up ups[] = {{&f.positions, upload(device, m.positions_m, "sdf positions")},
                {&f.triangles, upload(device, packed, "sdf triangle vertices")},
                {&f.indices, upload(device, m.indices, "sdf indices")},
                {&f.tri_edges, upload(device, m.tri_edges, "sdf triangle edges")},
                {&f.face_normals, upload(device, m.face_normals, "sdf face normals")},
                {&f.vertex_normals, upload(device, m.vertex_pseudonormals, "sdf vertex pseudonormals")},
                {&f.edge_normals, upload(device, m.edge_pseudonormals, "sdf edge pseudonormals")},
                {&f.tri_neighbours, upload(device, m.tri_neighbours, "sdf triangle neighbours")},
                {&f.vertex_tri_offsets, upload(device, m.vertex_tri_offsets, "sdf vertex triangle offsets")},
                {&f.vertex_tris, upload(device, m.vertex_tris, "sdf vertex triangles")},
                {&f.tri_spheres, upload(device, m.tri_spheres, "sdf triangle spheres")},
                {&f.fwn_nodes, upload(device, fwn_nodes, "sdf fast winding nodes")},
                {&f.fwn_tris, upload(device, fwn_tris, "sdf fast winding triangles")}};
    for (auto& u : ups) {
        if (!u.r) return u.r.error();
        *u.out = std::move(*u.r);
    }
    struct Cells {
        gpu::Buffer* out;
        uint64_t count;
        const char* name;
    } grid_buffers[] = {{&f.band_key, 2 * cells, "sdf band key"},
                        {&f.band_tri, cells, "sdf band triangle"},
                        {&f.coarse_a, coarse_cells, "sdf coarse nearest a"},
                        {&f.coarse_b, coarse_cells, "sdf coarse nearest b"},
                        {&f.parity_toggles, parity_words, "sdf parity toggles"},
                        {&f.parity, parity_words, "sdf parity"},
                        {&f.winding, winding ? cells : 1, "sdf winding"},
                        {&f.winding_coarse, winding ? cells : 1, "sdf coarse winding"},
                        {&f.distance, cells, "sdf distance"},
                        {&f.flags, cells, "sdf flags"}};
    for (auto& c : grid_buffers) {
        auto b = cells_buffer(device, c.count, c.name);
        if (!b) return b.error();
        f.gpu_bytes += b->size();
        *c.out = std::move(*b);
    }

    for (int which = 0; which < 2; ++which) {
        auto set = device.create_descriptor_set(pipelines.init);
        if (!set) return set.error();
        const gpu::Buffer* bufs[gpu_shared::kSdfBindingCount] = {
            &f.params,         &f.positions,    &f.indices,  &f.tri_edges, &f.face_normals,
            &f.vertex_normals, &f.edge_normals, &f.band_key,
            which == 0 ? &f.coarse_a : &f.coarse_b, which == 0 ? &f.coarse_b : &f.coarse_a,
            &f.parity_toggles, &f.winding,      &f.winding_coarse, &f.distance, &f.flags, &f.triangles, &f.parity,
            &f.tri_neighbours, &f.vertex_tri_offsets, &f.vertex_tris, &f.band_tri, &f.tri_spheres, &f.fwn_nodes, &f.fwn_tris};
        for (uint32_t b = 0; b < gpu_shared::kSdfBindingCount; ++b) set->bind_buffer(b, *bufs[b]);
        (which == 0 ? f.set_ab : f.set_ba) = std::move(*set);
    }

    // Scratch cleared once; every build leaves it cleared again (coarse seed, parity prefix).
    auto cmd = device.begin_commands();
    if (!cmd) return cmd.error();
    Recorder r{*cmd, nullptr, device};
    SdfPush push{};
    push.parity_words = uint32_t(parity_words);
    push.count = uint32_t(std::max<uint64_t>(cells, parity_words));
    r.dispatch(pipelines.init, f.set_ab, push);
    auto serial = device.submit(std::move(*cmd));
    if (!serial) return serial.error();
    TRESSEL_TRY(device.wait(*serial));
    return f;
}

void record_sdf_place(gpu::CommandBuffer& cmd, SdfGpuField& f, glm::dvec3 origin_m) {
    f.plan.grid.origin_m = origin_m;
    const gpu_shared::SdfGridParams params = f.plan.grid.gpu_params(f.plan.band_cells);
    cmd.update(f.params, &params, sizeof(params));
    cmd.transfer_barrier();
}

bool record_sdf_build(gpu::CommandBuffer& cmd, const SdfGpuPipelines& P, SdfGpuField& f,
                      gpu::TimestampQueries* ts, bool second_half) {
    Recorder r{cmd, ts, cmd.device()};
    const SdfGridDesc& gd = f.plan.grid;
    const uint32_t cells = uint32_t(gd.cell_count());
    const uint32_t tris = uint32_t(f.plan.mesh.triangle_count());
    const bool winding = f.plan.cell_sign == sp::CellSign::Winding;
    SdfPush push{};
    push.orientation = f.plan.mesh.orientation;
    push.triangles = tris;

    const gpu_shared::SdfGridParams g = gd.gpu_params(f.plan.band_cells);
    auto band = [&] {
        push.count = tris;
        r.begin("sdf band");
        r.dispatch_groups(P.band, f.set_ab, push, tris, P.tuning.band_triangles);
        r.end();
    };
    auto ray_parity = [&] {
        r.begin("sdf ray parity");
        push.count = 3 * tris;
        r.dispatch(P.parity_triangle, f.set_ab, push);
        push.count = sp::parity_line_count(g);
        r.dispatch(P.parity_prefix, f.set_ab, push);
        r.end();
    };
    if (f.plan.band_only) {  // band, parity (not for a shell), then one pass over the cells (sdf/finalize_band.comp)
        band();
        if (f.plan.cell_sign != sp::CellSign::Shell) ray_parity();
        push.mode = sign_mode(f.plan.cell_sign);
        push.count = cells;
        r.begin("sdf finalize band");
        r.dispatch(P.finalize_band, f.set_ab, push);
        r.end();
        return true;
    }
    if (!second_half) {
        band();

        push.count = sp::coarse_cell_count(g);
        r.begin("sdf coarse seed");
        r.dispatch_groups(P.coarse_seed, f.set_ab, push, push.count);
        r.end();

        r.begin("sdf jump flooding");
        uint32_t jfa_lanes = 1;
        const gpu::ComputePipeline& jfa = P.jfa_for(push.count, jfa_lanes);
        bool in_a = true;
        for (int step : sp::jfa_steps(sp::coarse_dims(g))) {
            push.step = step;
            r.dispatch(jfa, in_a ? f.set_ab : f.set_ba, push, jfa_lanes, P.tuning.jfa_workgroup);
            in_a = !in_a;
        }
        f.result_in_a = in_a;
        r.end();

        if (f.plan.cell_sign == sp::CellSign::Parity || f.plan.cell_sign == sp::CellSign::PseudonormalBandParityElsewhere) ray_parity();
        if (winding && f.winding_plan.stride == 0) return false;  // the caller decides the stride first
    }
    const gpu::DescriptorSet& final_set = f.result_in_a ? f.set_ab : f.set_ba;
    if (winding) {
        const WindingPlan& w = f.winding_plan;
        push.coarse_dims = glm::ivec4(w.coarse_dims, w.exact_band ? w.stride : -w.stride);
        push.fast_winding = w.fast ? 1u : 0u;
        r.begin("sdf winding");
        push.mode = 0;
        push.count = uint32_t(w.coarse_dims.x) * uint32_t(w.coarse_dims.y) * uint32_t(w.coarse_dims.z);
        r.dispatch(P.winding, final_set, push);
        push.mode = 1;
        push.count = cells;
        r.dispatch(P.winding, final_set, push);
        r.end();
    }
    push.mode = sign_mode(f.plan.cell_sign);
    push.count = sp::coarse_cell_count(g);
    r.begin("sdf finalize");
    r.dispatch_groups(P.finalize, final_set, push, push.count, P.tuning.finalize_blocks);
    r.end();
    return true;
}

Status decide_winding_gpu(gpu::Device& device, SdfGpuField& f, Diagnostics& diag) {
    const uint64_t cells = f.plan.grid.cell_count();
    std::vector<uint32_t> band_tri(cells);
    TRESSEL_TRY(device.download(f.band_tri, band_tri.data(), cells * 4));
    uint64_t band = 0;
    for (uint32_t t : band_tri) band += t != gpu_shared::kSdfNoTriangle ? 1 : 0;  // the scatter writes band cells only
    f.winding_plan = plan_winding(f.plan, band, diag);
    return {};
}

Result<SdfGpuField> build_sdf_gpu(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfBuildDesc& desc,
                                  Diagnostics& diag, std::vector<gpu::PassTime>* pass_times) {
    auto field = prepare_sdf_gpu(device, pipelines, desc, diag);
    if (!field) return field.error();
    auto ts = gpu::TimestampQueries::create(device, 16);
    if (!ts) return ts.error();
    auto run = [&](bool second) -> Result<bool> {
        auto cmd = device.begin_commands();
        if (!cmd) return cmd.error();
        ts->reset(*cmd);
        bool complete = record_sdf_build(*cmd, pipelines, *field, &*ts, second);
        auto serial = device.submit(std::move(*cmd));
        if (!serial) return serial.error();
        TRESSEL_TRY(device.wait(*serial));
        if (pass_times) {
            auto t = ts->read();
            if (!t) return t.error();
            pass_times->insert(pass_times->end(), t->begin(), t->end());
        }
        return complete;
    };
    auto first = run(false);
    if (!first) return first.error();
    if (!*first) {
        TRESSEL_TRY(decide_winding_gpu(device, *field, diag));
        auto second = run(true);
        if (!second) return second.error();
    }
    return field;
}

Result<SdfRefitGpu> prepare_sdf_refit(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfGpuField& field,
                                      const gpu::Buffer& source, uint32_t source_vertices, uint32_t source_stride) {
    const sp::MeshData& m = field.plan.mesh;
    for (uint32_t v : m.weld_source)
        if (v >= source_vertices)
            return make_error(ErrorCode::InvalidArgument, "sdf refit of '" + field.plan.mesh_name + "': the deformed positions hold " +
                                                              std::to_string(source_vertices) + " vertices, the mesh at least " +
                                                              std::to_string(v + 1));
    if (source_stride < 1 || source.size() < VkDeviceSize(source_vertices) * source_stride * sizeof(glm::vec4))
        return make_error(ErrorCode::InvalidArgument, "sdf refit of '" + field.plan.mesh_name + "': the deformed positions buffer is too small");
    SdfRefitGpu r;
    r.source_vertices = source_vertices;
    std::vector<uint32_t> weld_source = m.weld_source;  // in vec4s of the source
    for (uint32_t& v : weld_source) v *= source_stride;
    auto ws = upload(device, weld_source, "sdf refit weld source");
    if (!ws) return ws.error();
    auto eo = upload(device, m.edge_tri_offsets, "sdf refit edge triangle offsets");
    if (!eo) return eo.error();
    auto et = upload(device, m.edge_tris, "sdf refit edge triangles");
    if (!et) return et.error();
    auto fo = upload(device, m.fwn_order.empty() ? std::vector<uint32_t>(1, 0u) : m.fwn_order, "sdf refit fast winding order");
    if (!fo) return fo.error();
    r.weld_source = std::move(*ws);
    r.edge_tri_offsets = std::move(*eo);
    r.edge_tris = std::move(*et);
    r.fwn_order = std::move(*fo);
    auto set = device.create_descriptor_set(pipelines.refit);
    if (!set) return set.error();
    r.set = std::move(*set);
    using namespace gpu_shared;
    const std::pair<uint32_t, const gpu::Buffer*> binds[] = {
        {kSdfRefitBindSource, &source},
        {kSdfRefitBindWeldSource, &r.weld_source},
        {kSdfRefitBindIndices, &field.indices},
        {kSdfRefitBindPositions, &field.positions},
        {kSdfRefitBindTriangles, &field.triangles},
        {kSdfRefitBindFaceNormals, &field.face_normals},
        {kSdfRefitBindTriSpheres, &field.tri_spheres},
        {kSdfRefitBindVertexTriOffsets, &field.vertex_tri_offsets},
        {kSdfRefitBindVertexTris, &field.vertex_tris},
        {kSdfRefitBindVertexNormals, &field.vertex_normals},
        {kSdfRefitBindEdgeTriOffsets, &r.edge_tri_offsets},
        {kSdfRefitBindEdgeTris, &r.edge_tris},
        {kSdfRefitBindEdgeNormals, &field.edge_normals},
        {kSdfRefitBindFwnNodes, &field.fwn_nodes},
        {kSdfRefitBindFwnTris, &field.fwn_tris},
        {kSdfRefitBindFwnOrder, &r.fwn_order}};
    for (const auto& [b, buf] : binds) r.set.bind_buffer(b, *buf);
    return r;
}

void record_sdf_refit(gpu::CommandBuffer& cmd, const SdfGpuPipelines& pipelines, const SdfGpuField& field, const SdfRefitGpu& refit,
                      gpu::TimestampQueries* ts) {
    const sp::MeshData& m = field.plan.mesh;
    gpu_shared::SdfRefitPush push{};
    push.vertices = uint32_t(m.weld_source.size());
    push.triangles = uint32_t(m.triangle_count());
    push.edges = uint32_t(m.edge_pseudonormals.size());
    if (ts) ts->begin(cmd, "sdf refit");
    for (uint32_t mode = 0; mode < 2; ++mode) {
        push.mode = mode;
        const uint64_t items = uint64_t(push.vertices) + (mode == 0 ? push.triangles : push.edges);
        cmd.bind(pipelines.refit, refit.set);
        cmd.push(pipelines.refit, push);
        const gpu::DispatchSize d = gpu::dispatch_size(cmd.device(), items, gpu_shared::kSdfWorkgroupSize);
        cmd.dispatch(d.x, d.y, d.z);
        cmd.compute_barrier();
    }
    // The fast winding hierarchy, when the sign walks it: the leaves, then one level a dispatch up to the root.
    if (field.winding_plan.fast && m.fwn_level_offsets.size() > 1) {
        push.mode = 2;
        for (size_t level = 0; level + 1 < m.fwn_level_offsets.size(); ++level) {
            push.first = m.fwn_level_offsets[level];
            push.count = m.fwn_level_offsets[level + 1] - push.first;
            cmd.bind(pipelines.refit, refit.set);
            cmd.push(pipelines.refit, push);
            const gpu::DispatchSize d = gpu::dispatch_size(cmd.device(), push.count, gpu_shared::kSdfWorkgroupSize);
            cmd.dispatch(d.x, d.y, d.z);
            cmd.compute_barrier();
        }
    }
    if (ts) ts->end(cmd);
}

Result<SdfGrid> read_back_sdf(gpu::Device& device, const SdfGpuField& f) {
    const uint64_t cells = f.plan.grid.cell_count();
    SdfGrid out;
    out.grid = f.plan.grid;
    out.band_cells = f.plan.band_cells;
    out.sign_used = f.plan.sign_used;
    out.distance_m.resize(cells);
    std::vector<uint32_t> flags(cells);
    TRESSEL_TRY(device.download(f.distance, out.distance_m.data(), cells * 4));
    TRESSEL_TRY(device.download(f.flags, flags.data(), cells * 4));
    out.flags.resize(cells);
    for (uint64_t c = 0; c < cells; ++c) out.flags[c] = uint8_t(flags[c]);
    fill_sdf_stats(f.plan, f.winding_plan, out);
    return out;
}

}  // namespace tressel
