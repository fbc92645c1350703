#include "sdf/gpu/sdf_bench.h"

#include <algorithm>

#include "core/stats.h"
#include "gpu/warm_up.h"

namespace tressel {


Result<SdfBenchResult> bench_sdf_gpu(gpu::Device& device, const SdfGpuPipelines& pipelines, const SdfBenchCase& c,
                                     int frames) {
    SdfBuildDesc desc;
    desc.mesh = c.mesh;
    desc.cells_x = c.cells_x;
    desc.padding = c.padding;
    desc.sign = c.sign;
    desc.memory_cap_bytes = 8ull << 30;
    Diagnostics diag;
    auto field = prepare_sdf_gpu(device, pipelines, desc, diag);
    if (!field) return field.error();
    if (field->plan.cell_sign == sdf_passes::CellSign::Winding)
        return make_error(ErrorCode::Unsupported, c.name + ": the benchmark covers closed meshes (parity sign) only");
    auto ts = gpu::TimestampQueries::create(device, 16);
    if (!ts) return ts.error();
    if (!ts->supported()) return make_error(ErrorCode::Unsupported, "the GPU has no timestamp queries");

    std::map<std::string, std::vector<double>> per_pass;
    std::vector<double> totals;
    auto build_once = [&]() -> Result<std::vector<gpu::PassTime>> {
        auto cmd = device.begin_commands();
        if (!cmd) return cmd.error();
        ts->reset(*cmd);
        record_sdf_build(*cmd, pipelines, *field, &*ts);
        auto serial = device.submit(std::move(*cmd));
        if (!serial) return serial.error();
        TRESSEL_TRY(device.wait(*serial));
        return ts->read();
    };
    Status warm = gpu::warm_up([&]() -> Status {
        auto times = build_once();
        if (!times) return times.error();
        return {};
    });
    if (!warm) return warm.error();
    for (int f = 0; f < frames; ++f) {
        auto times = build_once();
        if (!times) return times.error();
        double sum = 0.0;
        for (auto& t : *times) {
            per_pass[t.name].push_back(t.ms);
            sum += t.ms;
        }
        totals.push_back(sum);
    }
    SdfBenchResult r;
    r.name = c.name;
    r.dims = field->plan.grid.dims;
    r.cells = field->plan.grid.cell_count();
    r.triangles = field->plan.mesh.triangle_count();
    r.frames = frames;
    for (auto& [name, v] : per_pass) r.median_ms[name] = median(v);
    r.narrow_band_ms = r.median_ms["sdf band"];
    r.total_ms = median(totals);
    auto grid = read_back_sdf(device, *field);
    if (!grid) return grid.error();
    r.inside_cells = grid->stats.inside_cells;
    return r;
}

}  // namespace tressel
