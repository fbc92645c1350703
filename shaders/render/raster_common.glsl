// Set kRenderSetHairRaster of the compute hair rasterizer (shared/hair_raster.h) and helpers its passes
// share. Include after shared/hair_raster.h.
layout(set = kRenderSetHairRaster, binding = kRasterBindVertices, std430) buffer Vertices { RasterVertex raster_vertices[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindTileDepth, std430) buffer TileDepth { float tile_depth[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindCounts, std430) buffer Counts { uint cell_counts[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindOffsets, std430) buffer Offsets { uint cell_offsets[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindCursors, std430) buffer Cursors { uint cell_cursors[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindBlocks, std430) buffer Blocks { uint scan_blocks[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindList, std430) buffer List { uint tile_list[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindImage, std430) buffer Image { uvec2 hair_image[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindMeshDepth) uniform sampler2D mesh_depth;
layout(set = kRenderSetHairRaster, binding = kRasterBindStats, std430) buffer Stats { uint raster_stats[]; };
layout(set = kRenderSetHairRaster, binding = kRasterBindVertexTexels) uniform usamplerBuffer vertex_texels;
layout(set = kRenderSetHairRaster, binding = kRasterBindListTexels) uniform usamplerBuffer list_texels;
