// The viewport's grooming brushes (groom/brush.h, the code the CLI and the tests run). A stroke runs on a
// copy of the hair group's guides while the mouse is down: begin() projects every guide once, each frame
// extend() runs the dabs the mouse's travel made due, and the guides the stroke changed are drawn over
// the viewport as it goes. finish() hands back the new guides, which the editor takes into the scene as one
// undoable edit (placement "edited"); the hair then regrows from them (follows and the simulation's rest
// shape) as after any groom edit.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "core/result.h"
#include "groom/brush.h"
#include "groom/guides_file.h"
#include "groom/scalp_paint.h"
#include "render/camera.h"
#include "runtime/scene_content.h"
#include "scene/scene_types.h"

namespace tressel::editor {

class BrushTool {
public:
    std::optional<BrushType> tool;   // null: the camera tools (left drag orbits)
    BrushSettings settings;          // radius, strength, falloff, symmetry, front faces (invert: Ctrl, per stroke)
    // Scalp paint (groom/scalp_paint.h): the layer painted instead of a guide brush, with the same settings,
    // and the value painted per layer (mask unused, density 2, length 0.5, comb amount 1 by default).
    std::optional<PaintLayer> paint;
    float paint_value[4] = {1.0f, 2.0f, 0.5f, 1.0f};

    bool active() const { return tool.has_value() || paint.has_value(); }
    bool stroking() const { return stroke_ != nullptr || paint_stroke_.has_value(); }
    bool painting() const { return paint_stroke_.has_value(); }
    int group() const { return group_; }
    // Starts a stroke of the current tool on hair group `group` of `content` at viewport point `p` (pixels
    // from the viewport's top left). The content is kept alive until the stroke ends.
    Status begin(const Scene& scene, std::shared_ptr<const runtime::SceneContent> content, int group, const render::OrbitCamera& camera,
                 ImVec2 viewport_size, glm::vec2 p, bool invert);
    Status extend(glm::vec2 p);
    // Ends the stroke: the guides it made, or null when it changed nothing; `stats` gets its figures.
    std::shared_ptr<const EditedGuides> finish(StrokeStats* stats);
    // Paint strokes (begin() starts one when `paint` is set): the paint made, or null when it changed
    // nothing; `stats` gets its figures. The stroke is repainted from its start each frame (the whole path).
    std::shared_ptr<const ScalpPaint> finish_paint(PaintStats* stats);
    std::shared_ptr<const GroomResult> stroke_groom() const;
    void cancel();
    // While a paint tool is chosen: the painted layer's vertices over the viewport (dots coloured by value,
    // the working paint during a stroke), for `scalp` seen through `view`.
    void draw_paint(ImDrawList* list, ImVec2 origin, const Mesh* scalp, const ScalpPaint* paint, const BrushView& view) const;

    // The strands the stroke has changed so far and the stroke's path, over the viewport at `origin`.
    void draw_stroke(ImDrawList* list, ImVec2 origin) const;
    // The brush circle at the mouse (or the script's point), with the radius as it is being adjusted: laid
    // on the scalp under it (`scalp`, seen through `view` from the viewport at `origin`) when the point is
    // over the mesh, else flat on the screen.
    void draw_cursor(ImDrawList* list, ImVec2 at, ImVec2 origin = {0, 0}, const Mesh* scalp = nullptr, const BrushView* view = nullptr) const;

private:
    std::unique_ptr<BrushStroke> stroke_;
    std::shared_ptr<const runtime::SceneContent> content_;
    std::shared_ptr<EditedGuides> working_;
    Strands start_;                  // the guides as the stroke found them (drawing: what changed)
    Growth growth_;                  // the group's growth, for add (the target points here)
    BrushTarget target_;
    BrushView view_;
    BrushSettings stroke_settings_;
    std::vector<glm::vec2> path_;
    int group_ = -1;
    struct PaintStroke {
        const Mesh* scalp = nullptr;
        ScalpPaint start, working;
        PaintSettings settings;
        float plane_x = 0.0f;
        PaintStats stats;
    };
    std::optional<PaintStroke> paint_stroke_;
};

}  // namespace tressel::editor
