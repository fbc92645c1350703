#version 450
// Compute hair rasterizer: exclusive scan of the cell counts into list offsets, in three phases
// (RasterPush::phase): block sums of kRasterScanBlock cells per workgroup; a scan of the block sums by
// one workgroup (which also writes the total, to the end of the offsets and to the stats); each block's
// cells scanned again, plus the block's offset, into the offsets and the scatter cursors.
#include "shared/render.h"
#include "shared/hair_raster.h"
layout(push_constant, std430) uniform PushBlock { RasterPush rp; };
#include "render/raster_common.glsl"

layout(local_size_x = 256) in;

shared uint s_sum[256];

void main() {
    uint lid = gl_LocalInvocationIndex;
    if (rp.phase == kRasterScanBlocks) {
        uint per = (rp.scan_blocks + 255u) / 256u;
        uint first = lid * per;
        uint sum = 0u;
        for (uint b = first; b < min(first + per, rp.scan_blocks); ++b) sum += scan_blocks[b];
        s_sum[lid] = sum;
        barrier();
        for (uint stride = 1u; stride < 256u; stride <<= 1u) {
            uint add = lid >= stride ? s_sum[lid - stride] : 0u;
            barrier();
            s_sum[lid] += add;
            barrier();
        }
        uint run = s_sum[lid] - sum;   // exclusive
        for (uint b = first; b < min(first + per, rp.scan_blocks); ++b) {
            uint c = scan_blocks[b];
            scan_blocks[b] = run;
            run += c;
        }
        if (lid == 255u) {
            cell_offsets[rp.cells] = s_sum[255];
            raster_stats[0] = s_sum[255];
        }
        return;
    }
    uint block = gl_WorkGroupID.x;
    uint first = block * kRasterScanBlock + lid * 4u;
    uint c[4];
    uint sum = 0u;
    for (uint q = 0u; q < 4u; ++q) {
        c[q] = first + q < rp.cells ? cell_counts[first + q] : 0u;
        sum += c[q];
    }
    s_sum[lid] = sum;
    barrier();
    if (rp.phase == kRasterScanReduce) {
        for (uint stride = 128u; stride > 0u; stride >>= 1u) {
            if (lid < stride) s_sum[lid] += s_sum[lid + stride];
            barrier();
        }
        if (lid == 0u) scan_blocks[block] = s_sum[0];
        return;
    }
    for (uint stride = 1u; stride < 256u; stride <<= 1u) {
        uint add = lid >= stride ? s_sum[lid - stride] : 0u;
        barrier();
        s_sum[lid] += add;
        barrier();
    }
    uint run = scan_blocks[block] + s_sum[lid] - sum;
    for (uint q = 0u; q < 4u; ++q) {
        if (first + q < rp.cells) {
            cell_offsets[first + q] = run;
            cell_cursors[first + q] = run;
        }
        run += c[q];
    }
}
