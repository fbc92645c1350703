// Exporting the running scene's hair: the one place that turns a SceneContent into an ExportDesc, for
// `tressel-cli export`, the editor's Export panel and scripts, so an export carries exactly the strands
// the viewport shows and `tressel-cli groom --out` writes (grown with the scalp clearance and all).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/result.h"
#include "export/export_groom.h"
#include "runtime/scene_content.h"

namespace tressel::runtime {

struct SceneExportRequest {
    ExportFormat format = ExportFormat::Tfx;
    std::filesystem::path out;
    std::optional<std::string> group;      // only this hair group (NotFound when none has the name)
    bool include_follows = false;
    double gravity_scale = 1.0;            // preset: gravityMagnitude = -gravity.y x scale
};

// The writers' description of `scene` running on `content` (SceneRuntime::scene() and content(): the
// content's structure with every value edit since, e.g. simulation and shading for the TressFX settings).
// Both must outlive the description. InvalidArgument when there is no hair group to export.
Result<ExportDesc> scene_export_desc(const Scene& scene, const SceneContent& content, const SceneExportRequest& request);

// scene_export_desc + export_groom.
Result<ExportReport> export_scene(const Scene& scene, const SceneContent& content, const SceneExportRequest& request);

}  // namespace tressel::runtime
