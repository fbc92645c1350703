// USD text layers (`.usda`) holding hair as BasisCurves (shared/FORMATS.md "USD curves"), with Unreal's
// groom attribute names as primvars. The writer produces what Unity's hair package, Houdini, Blender
// and Unreal's USD importer read; the reader parses the subset the writer produces (layer metadata,
// nested `def` prims, attributes with array / tuple values and metadata) so exports can be checked by
// round trip. Coordinates are written as given (engine space: metres, Y up, so upAxis "Y",
// metersPerUnit 1).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"

namespace tressel {

// A primvar or custom attribute: "primvars:<name>" with interpolation metadata when `interpolation` is
// set, else a plain attribute named `name`.
struct UsdPrimvar {
    std::string name;            // e.g. "groom_guide" (written as primvars:groom_guide)
    std::string type;            // USD value type: int, int[], float, float[], float2[], float3[], int3[], color3f[]
    std::string interpolation;   // constant, uniform (per curve), vertex (per point); "" = not a primvar
    std::vector<double> values;  // components flattened (float2[] of n items: 2n values); exact for int32 and float
};

struct UsdCurves {
    std::string path;                        // prim path, e.g. "/Groom/main/guides" (reader); name part used by the writer
    std::string type = "linear";             // linear or cubic
    std::string basis;                       // cubic: bspline or catmullRom; "" for linear
    std::string wrap = "nonperiodic";
    std::vector<int> vertex_counts;          // curveVertexCounts, one per curve
    std::vector<glm::vec3> points;           // metres (times metersPerUnit), sum(vertex_counts) of them
    std::vector<float> widths;               // metres; one per point ("vertex") or one in total ("constant")
    std::vector<glm::vec3> display_color;    // primvars:displayColor, linear RGB, one per point; may be empty
    std::vector<UsdPrimvar> primvars;        // every other primvar / attribute (groom_* names)
    // A cache (points.timeSamples): per time code, every point at that time; `points` stays the default
    // value (what a reader shows without a time). Empty: no time samples.
    std::vector<double> sample_times;
    std::vector<std::vector<glm::vec3>> point_samples;

    const UsdPrimvar* find(std::string_view name) const;
};

// A polygon mesh (def Mesh), e.g. an accessory's baked animation: points time-sampled like a curves cache.
struct UsdMesh {
    std::string path;                        // prim path (reader); name part used by the writer
    std::vector<int> face_vertex_counts;     // faceVertexCounts, >= 3 each
    std::vector<int> face_vertex_indices;    // faceVertexIndices into points
    std::vector<glm::vec3> points;           // metres; the default value
    std::optional<glm::vec3> display_color;  // primvars:displayColor (constant), linear RGB
    std::vector<double> sample_times;        // points.timeSamples, as UsdCurves
    std::vector<std::vector<glm::vec3>> point_samples;
};

struct UsdCurvesGroup {          // an Xform holding a hair group's curves prims, or meshes (writer only)
    std::string name;
    std::vector<UsdCurves> curves;
    std::vector<UsdMesh> meshes;
};

struct UsdStage {
    std::string up_axis = "Y";
    double meters_per_unit = 1.0;
    std::string default_prim = "Groom";      // the root Xform's name
    std::string doc;                         // layer doc string
    // Time codes of a cache (written when time_codes_per_second > 0): startTimeCode, endTimeCode,
    // timeCodesPerSecond (framesPerSecond is written equal to it).
    double start_time_code = 0.0, end_time_code = 0.0, time_codes_per_second = 0.0;
    std::vector<UsdPrimvar> root_attributes; // on the root Xform (e.g. groom_version_major)
    std::vector<UsdCurvesGroup> groups;      // writer: /<default_prim>/<group>/<curves>
    std::vector<UsdCurves> curves;           // reader: every BasisCurves prim found, in file order
    std::vector<UsdMesh> meshes;             // reader: every Mesh prim found, in file order
};

// Checks every curves prim (names are USD identifiers, counts >= 2 that sum to the point count, widths
// one per point or one, colours one per point, primvar sizes matching their interpolation, finite
// values); InvalidArgument naming the prim and attribute otherwise.
Result<std::string> write_usda_text(const UsdStage& stage);
// write_usda_text + write_file_atomic; errors name the path.
Status write_usda_file(const std::filesystem::path& path, const UsdStage& stage);

// Parses a `.usda` layer: requires the "#usda 1.0" header; errors are Parse with "<name>:<line>: <problem>".
// Every BasisCurves prim becomes an entry of `curves` with its full path; root_attributes holds the
// attributes of the default prim.
Result<UsdStage> parse_usda(std::string_view text, const std::string& name);
Result<UsdStage> read_usda_file(const std::filesystem::path& path, uint64_t max_file_bytes = 1ull << 31);

}  // namespace tressel
