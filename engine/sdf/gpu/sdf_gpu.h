// GPU build of a collision mesh's signed distance field: the passes of the CPU reference
// (engine/sdf/README.md) as compute shaders (shaders/sdf/*.comp), one timestamp per pass. The scratch
// buffers (band keys, parity toggles) are cleared once when the field is prepared and left cleared by
// every build, so a recorded build must be submitted before the next one is recorded on the same field.
//
//   auto pipelines = SdfGpuPipelines::create(device);
//   auto field = prepare_sdf_gpu(device, *pipelines, desc, diag);    // plan, upload mesh, allocate grid
//   record_sdf_build(cmd, *pipelines, *field, &timestamps);           // all passes into one command buffer
//   ... submit, wait ...
//   auto grid = read_back_sdf(device, *field);                        // SdfGrid, comparable with build_sdf_cpu
//
// The field's `distance` buffer (float per cell, signed metres) and `params` buffer (SdfGridParams, a
// buffer of its own per collision mesh) are what the hair collision pass binds.
#pragma once

#include <vector>

#include "gpu/device.h"
#include "gpu/timestamps.h"
#include "sdf/sdf.h"
#include "sdf/sdf_passes.h"
#include "shared/sdf_gpu.h"

namespace tressel {

// How the band scatter, jump flooding and finalize group their work into workgroups (specialization
// constants; no result depends on it). The defaults are the fastest measured on an H100 (engine/sdf/README.md);
// create() lowers them where the device's workgroups are smaller.
struct SdfGpuTuning {
    uint32_t band_lanes = gpu_shared::kSdfBandLanes;            // invocations per triangle in the band scatter
    uint32_t band_triangles = gpu_shared::kSdfBandTriangles;    // triangles per band workgroup
    uint32_t finalize_blocks = gpu_shared::kSdfFinalizeBlocks;  // coarse blocks per finalize workgroup
    uint32_t jfa_workgroup = gpu_shared::kSdfJfaWorkgroupSize;  // jump flooding invocations per workgroup
    // Jump flooding invocations per coarse cell: 0 picks per build, by the coarse grid's size (below).
    uint32_t jfa_lanes = 0;
};

class SdfGpuPipelines {
public:
    static Result<SdfGpuPipelines> create(gpu::Device& device, SdfGpuTuning tuning = {});

    gpu::ComputePipeline init, band, coarse_seed, parity_triangle, parity_prefix, winding, finalize;
    gpu::ComputePipeline finalize_band;  // sdf/finalize_band.comp: a band-only build's last pass
    gpu::ComputePipeline refit;  // sdf/refit.comp: a deforming mesh's positions and normals (its own layout)
    // Jump flooding with 2, 4 and 8 invocations per coarse cell (or only tuning.jfa_lanes when set). The
    // passes are a chain of dependent loads per cell: on a small coarse grid more invocations per cell
    // shorten it, on a large one they only add instructions. jfa_lanes_for() aims at about 400,000
    // invocations per pass, the best measured on an H100 (engine/sdf/README.md).
    gpu::ComputePipeline jfa[3];
    uint32_t jfa_lanes[3] = {0, 0, 0};
    SdfGpuTuning tuning;
    // The jump flooding pipeline for a coarse grid of `coarse_cells` cells, and its invocations per cell.
    const gpu::ComputePipeline& jfa_for(uint32_t coarse_cells, uint32_t& lanes) const;
};

struct SdfGpuField {
    SdfBuildPlan plan;                  // grid, prepared mesh, sign (from plan_sdf_build, shared with the CPU build)
    gpu::Buffer params;                 // SdfGridParams
    gpu::Buffer positions, indices, tri_edges, face_normals, vertex_normals, edge_normals, triangles;
    gpu::Buffer tri_neighbours, vertex_tri_offsets, vertex_tris;  // mesh adjacency for the far-field walk
    gpu::Buffer tri_spheres;            // vec4 per triangle: bounding sphere (far-field candidate pruning)
    gpu::Buffer fwn_nodes, fwn_tris;    // the fast winding numbers' hierarchy (shared/sdf.h SdfFwnNode)
    gpu::Buffer band_key;               // uint64 per cell (scratch, left cleared)
    gpu::Buffer band_tri;               // uint per cell: band triangle or none (from the band keys)
    gpu::Buffer coarse_a, coarse_b;     // uint per coarse cell: coarse JFA ping-pong
    gpu::Buffer parity_toggles, parity; // parity bit planes: crossings (scratch, left cleared), running xor
    gpu::Buffer winding, winding_coarse;
    gpu::Buffer distance;               // float per cell, signed metres: the result
    gpu::Buffer flags;                  // uint per cell, kSdfFlag*
    gpu::DescriptorSet set_ab, set_ba;  // jfa_in/out = coarse a/b and b/a
    WindingPlan winding_plan;           // decided after the band pass when the sign uses winding numbers
    uint64_t gpu_bytes = 0;
    // After record_sdf_build: which set holds the coarse JFA result in binding kSdfBindJfaIn.
    bool result_in_a = true;
};

// Plans the build (the same validation, grid and sign choice as build_sdf_cpu), uploads the mesh and
// allocates the grid buffers. Errors as build_sdf_cpu, plus GPU allocation failures (OutOfMemory).
Result<SdfGpuField> prepare_sdf_gpu(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfBuildDesc& desc,
                                    Diagnostics& diag);

// Records every pass (with barriers) into `cmd`; `timestamps` (optional, >= 8 passes, reset by the caller)
// gets one entry per pass: "sdf band", "sdf coarse seed" (band triangles unpacked, keys cleared, coarse seeds), "sdf jump
// flooding" (coarse grid), "sdf ray parity" (crossings and prefix, parity signs only), "sdf winding"
// (winding sign only), "sdf finalize" (far-field nearest triangle, flags, sign, distance). For the winding sign the stride depends on the band size: when field.winding_plan is not yet
// decided, this records only up to the band flags and returns false — submit, call
// decide_winding_gpu(), then call record_sdf_build again for the rest.
bool record_sdf_build(gpu::CommandBuffer& cmd, const SdfGpuPipelines& pipelines, SdfGpuField& field,
                      gpu::TimestampQueries* timestamps, bool second_half = false);

// Winding sign only: reads the band keys back and fixes field.winding_plan (as build_sdf_cpu does).
Status decide_winding_gpu(gpu::Device& device, SdfGpuField& field, Diagnostics& diag);

// Whole build, synchronously: prepare, record, submit, wait (twice for the winding sign). Pass times go to
// `pass_times` when given.
Result<SdfGpuField> build_sdf_gpu(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfBuildDesc& desc,
                                  Diagnostics& diag, std::vector<gpu::PassTime>* pass_times = nullptr);

// A field whose mesh deforms (a skinned body): the topology prepared once, the positions read before every
// build from `source`, a device buffer of vec4 per vertex of the mesh the field was prepared from (before
// welding; the skinning pass's output). The grid (SdfBuildDesc::fixed_grid), the sign method, the winding
// plan and the orientation stay as prepared: build the field once with build_sdf_gpu, then per frame
// record_sdf_refit and record_sdf_build.
struct SdfRefitGpu {
    gpu::Buffer weld_source, edge_tri_offsets, edge_tris;
    gpu::Buffer fwn_order;  // the fast winding hierarchy's refit order (sdf_passes::MeshData::fwn_order)
    gpu::DescriptorSet set;
    uint32_t source_vertices = 0;
};

// `source`: the deformed positions, a vec4 per vertex every source_stride vec4s (2: the renderer's
// MeshVertex, position then normal). InvalidArgument when it holds fewer vertices than the mesh the field
// was prepared from.
Result<SdfRefitGpu> prepare_sdf_refit(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfGpuField& field,
                                      const gpu::Buffer& source, uint32_t source_vertices, uint32_t source_stride = 1);

// Records the refit's dispatches (with barriers) under the timestamp "sdf refit": positions and triangles,
// pseudonormals, and, when the field's sign walks the fast winding hierarchy, its nodes one level a
// dispatch (leaves first); then record_sdf_build.
void record_sdf_refit(gpu::CommandBuffer& cmd, const SdfGpuPipelines& pipelines, const SdfGpuField& field, const SdfRefitGpu& refit,
                      gpu::TimestampQueries* timestamps);

// Moves a prepared field's grid to `origin_m` (the centre of cell (0,0,0)): the same cells and cell count
// elsewhere, for a deforming mesh's field placed around each pose. Records the update of the field's
// params buffer (and a barrier) before the next record_sdf_refit / record_sdf_build; field.plan.grid
// (what read_back_sdf reports) takes the new origin now.
void record_sdf_place(gpu::CommandBuffer& cmd, SdfGpuField& field, glm::dvec3 origin_m);

// Downloads distances and flags into the CPU type (stats filled the same way as build_sdf_cpu).
Result<SdfGrid> read_back_sdf(gpu::Device& device, const SdfGpuField& field);

}  // namespace tressel
