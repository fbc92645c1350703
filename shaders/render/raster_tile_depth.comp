#version 450
// Compute hair rasterizer: the farthest opaque-mesh depth (NDC) in each tile, so binning drops segments
// that lie behind the meshes over a whole tile (hair behind the head). One workgroup per tile.
#include "shared/render.h"
#include "shared/hair_raster.h"
layout(push_constant, std430) uniform PushBlock { RasterPush rp; };
#include "render/raster_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

shared float s_depth[64];

void main() {
    uvec2 px = gl_WorkGroupID.xy * kRasterTile + gl_LocalInvocationID.xy;
    uint lid = gl_LocalInvocationIndex;
    float d = 0.0;
    if (px.x < rp.width && px.y < rp.height) d = texelFetch(mesh_depth, ivec2(px), 0).r;
    s_depth[lid] = d;
    barrier();
    for (uint stride = 32u; stride > 0u; stride >>= 1u) {
        if (lid < stride) s_depth[lid] = max(s_depth[lid], s_depth[lid + stride]);
        barrier();
    }
    if (lid == 0u) tile_depth[gl_WorkGroupID.y * rp.tiles_x + gl_WorkGroupID.x] = s_depth[0];
}
