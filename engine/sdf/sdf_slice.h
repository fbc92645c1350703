// Axis-aligned slices of a finished SDF for the viewport and the 2D panel: raw values, then a colour
// image (diverging map, isolines, zero and margin contours, unwritten cells flagged, cavities and sign jumps
// striped: sdf/sdf_check.h) and a PNG.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"
#include "sdf/sdf.h"

namespace tressel {

// SliceAxis (X, Y, Z) comes from scene/scene_types.h (the view stores it).

// A plane of cells perpendicular to `axis`. Image axes: X slice -> (u, v) = (z, y); Y -> (x, z);
// Z -> (x, y). Row v = 0 is stored first (the PNG puts it at the bottom).
struct SdfSlice {
    SliceAxis axis = SliceAxis::Z;
    int index = 0;                  // cell index along `axis`
    int width = 0, height = 0;      // cells along u, v
    double cell_size_m = 0.0;
    std::vector<float> values_m;    // signed distance, metres; width * height, u fastest
    std::vector<uint8_t> unwritten; // 1 where the cell has no distance (drawn flagged)
    std::vector<uint8_t> marks;     // SdfCellMark per cell (sdf/sdf_check.h); empty: not checked
};

// position in [0, 1] across the grid along `axis` (clamped), rounded to the nearest cell plane.
// With `check` (check_sdf_field of the same grid) the slice carries its cells' marks.
struct SdfFieldCheck;
SdfSlice make_slice(const SdfGrid& grid, SliceAxis axis, double position, const SdfFieldCheck* check = nullptr);

struct SliceStyle {
    double range_m = 0.0;           // |distance| at full colour saturation; 0 = the slice's largest |distance|
    int isoline_cells = 2;          // an isoline every N cells of distance; 0 = none
    double margin_m = -1.0;         // collision margin contour (metres); negative = none
    int upscale = 1;                // pixels per cell, [1, 16]; values interpolated bilinearly
    glm::vec3 inside_rgb{0.16f, 0.35f, 0.85f};
    glm::vec3 outside_rgb{0.85f, 0.30f, 0.12f};
    glm::vec3 zero_rgb{0.0f, 0.0f, 0.0f};
    glm::vec3 margin_rgb{1.0f, 0.85f, 0.0f};
    glm::vec3 unwritten_rgb{1.0f, 0.0f, 1.0f};
    glm::vec3 cavity_rgb{0.15f, 0.75f, 0.35f};     // stripes over enclosed outside cells (a cavity)
    glm::vec3 sign_jump_rgb{0.95f, 0.05f, 0.35f};  // stripes the other way over a sign with no surface
};

// The |distance| shown at full colour: style.range_m, or where that is 0 the slice's largest written
// |distance| (1 m for a slice with none).
double slice_range_m(const SdfSlice& slice, const SliceStyle& style);

// The colour of a distance away from the contours (linear RGB): near white at 0, toward inside_rgb below and
// outside_rgb above, saturated at |distance| = range_m. The viewport's legend draws its bar with it.
glm::vec3 slice_colour(double distance_m, double range_m, const SliceStyle& style);

// RGBA8, (width * upscale) x (height * upscale), top row first (v increasing upwards).
std::vector<uint8_t> slice_to_rgba(const SdfSlice& slice, const SliceStyle& style, int* width_px = nullptr,
                                   int* height_px = nullptr);

// PNG bytes of an RGBA8 image (stb_image_write).
Result<std::vector<uint8_t>> encode_png_rgba(const std::vector<uint8_t>& rgba, int width, int height);

// Renders and writes a slice PNG atomically. Errors: Io naming the path.
Status write_slice_png(const std::filesystem::path& path, const SdfSlice& slice, const SliceStyle& style);

}  // namespace tressel
