// Exporting grown hair groups for engines: TressFX (.tfx + .tfxbone + one .tfxmesh per collision mesh),
// cyHair (.hair), USD (.usda BasisCurves with Unreal's groom primvars), glTF 2.0 (.gltf / .glb with the
// head meshes) and the TressFX settings document ("preset"). The glue between the groom
// (engine/groom), the SDF grid sizing (engine/sdf) and the file writers of engine/io; its own library
// (tressel_export) because it depends on the groom and the SDF modules, which depend on tressel_io.
//
// Space: the groom's scalp-mesh space is the scene's world space (scene meshes are loaded with their
// transforms applied), metres, Y up: the convention of TressFX, USD (upAxis Y, metersPerUnit 1) and
// glTF alike, so positions are written unchanged.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "groom/grow.h"
#include "io/mesh.h"
#include "scene/scene_types.h"
#include "scene/tressfx_preset.h"

namespace tressel {

enum class ExportFormat { Tfx, Hair, Usda, Gltf, Preset };

// "tfx", "hair", "usda", "gltf", "preset"; InvalidArgument naming the accepted names otherwise.
Result<ExportFormat> parse_export_format(const std::string& name);

struct ExportGroup {
    const HairGroup* group = nullptr;        // required: name, simulation, shading, follow parameters
    const GroomResult* groom = nullptr;      // required: guides, frames and follow descriptors
    const Mesh* scalp = nullptr;             // required: the mesh the roots are attached to (UVs, skin weights)
    std::vector<std::string> joint_names;    // names of the scalp's skin joints (Mesh::joints index), if skinned
    // Hook for exporting a simulated frame: guide positions at that frame (same strands and point counts
    // as groom->guides), or nullptr for the groomed rest pose.
    const Strands* posed_guides = nullptr;
};

struct ExportCollisionMesh {
    CollisionMesh params;                    // cells_x, padding, margin_m
    const Mesh* mesh = nullptr;              // world space
    std::vector<std::string> joint_names;    // skin joint names, if skinned
};

struct ExportDesc {
    ExportFormat format = ExportFormat::Tfx;
    std::filesystem::path out;               // the file; per-group and side files are named from its stem
    std::vector<ExportGroup> groups;         // at least one
    bool include_follows = false;            // also write the follow hairs (evaluated from the guides)
    std::vector<const Mesh*> meshes;         // gltf: triangle meshes written beside the hair (not owned)
    std::vector<ExportCollisionMesh> collision;  // tfx: .tfxmesh files; preset: margins in cells
    Environment environment;                 // preset: gravity and wind
    TressFXConvertOptions tressfx;           // preset: gravity scale
};

struct ExportReport {
    std::vector<std::filesystem::path> files;  // every file written, in order
    Diagnostics diagnostics;                   // e.g. "resampled from 3 to 4 vertices per strand"
};

// One hair group ready for the writers: guides (and follows) in world metres with per-point widths
// (diameters, metres) and linear colours, root UVs and follow descriptors.
struct ExportCurves {
    std::string name;
    Strands guides;
    Strands follows;                                  // empty unless include_follows
    std::vector<glm::vec2> guide_root_uvs, follow_root_uvs;  // empty when the scalp has no UVs
};

// Evaluates follows when asked (resampling the guides to the group's gpu_vertices_per_strand first when
// their counts differ, as the GPU does), root UVs from the scalp's UVs (barycentric at each root), widths
// (the groom's, else 2 x fiber_radius tapered to fiber_ratio at the tip when thin_tip) and colours (root
// colour blending into the tip colour over the first tip_percentage of the strand).
Result<ExportCurves> prepare_export_curves(const ExportGroup& group, bool include_follows, Diagnostics& diag);

// Writes the files. Errors: InvalidArgument for an empty groom or a bad request (message names it), Io
// for paths that cannot be written. Every file is written atomically; when one of several files fails,
// those already written are removed again, so an export never leaves a partial result.
Result<ExportReport> export_groom(const ExportDesc& desc);

}  // namespace tressel
