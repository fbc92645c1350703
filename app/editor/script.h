// Scripted editor runs (tressel --script steps.json): a JSON array of steps the editor performs one
// after another while it keeps drawing frames, as an artist would. Steps:
//   {"open": "scene.json" | "mesh.fbx", "expect_error": false}   opening a mesh adds it to the scene
//   {"set": "hair_groups[0].simulation.local_stiffness", "value": 0.5}   one undoable edit
//   {"play": 60}                  exactly N simulation frames, one per drawn frame
//   {"frames": 10}                draw N frames without simulating (let the UI settle)
//   {"orbit": 60, "degrees": 360} turn the camera by "degrees" of yaw over N frames, as a drag does
//   {"stats": "stats.json"}       what the Stats panel shows (fps over the last 30 frames, viewport size and
//                                 whether it is coarsened while moving, the hair level of detail, GPU ms)
//   {"action": "regrow" | "rebuild_sdf" | "reset" | "undo" | "redo" | "save" | "recover" | "frame_all" |
//              "view_front" | "view_side" | "view_top" | "play" | "pause" | "step" | "new" | "cancel" |
//              "reset_layout" | "show_lighting" | "frame_selected"}
//   {"select_group": 0}           select hair group N as a click on its header in the Groom panel does
//                                 (-1: none); "frame_selected" (F) frames it
//   {"seek": 10}                  show simulation frame N (the timeline's scrub bar): an earlier frame than
//                                 the current one is simulated again from the start; waits until it is shown
//   {"screenshot": "out.png"}     the whole window, read back from the swapchain
//   {"save": "path.json"}         save as
//   {"export": "out.tfx", "format": "tfx", "follows": false}
//   {"dump": "positions.f32"}     the simulated positions, float32 xyz (the layout of `tressel-cli bake --dump`)
//   {"expect_busy": true}         fails unless work (import, regrow, rebuild, export) is running now
//   {"inject_gpu_fault": "buffer_memory" | "image_memory" | "descriptor_pool" | "device_lost"}
//                                 the GPU's next call of that kind fails once, as a driver would fail it
//   {"turntable": "dir", "count": 24}  "capture turntable": N images around the character into dir
//                                 (turntable_000.png ...), one per drawn frame; waits until all are written
//   {"place_window": "Stats", "rect": [x, y, w, h]}  moves and sizes a window as a drag would
//   {"apply_fix": "follows_far_from_guides"}  the first fix of the advice with that code (the button over
//                                 the viewport), as an undoable edit
//   {"stroke": {"brush": "comb", "points_px": [[x, y], ...], "radius_px": 40, "strength": 0.5,
//               "falloff": "smooth", "invert": false, "symmetry_x": false, "front_faces_only": true,
//               "group": 0}}          a brush stroke in the viewport (pixels from its top left; or "points":
//                                 fractions of its size), fed two points a frame as a mouse drag is, one
//                                 undo step; waits until the hair has regrown from the brushed guides
//   {"release_guides": 0}         give group N's guides edited by hand back to growth (undoable)
//   {"part": {"points": [[fx, fy], [fx, fy]], "group": 0}}  the part tool: a line drawn on the scalp from
//                                 the first point to the second becomes the group's parting (or "points_px")
//   {"stop_after_seconds": 600}   quit here (skipping the rest) once the script has run this long: soaks
//   {"quit": true}
// Any step may say "expect_error": true (it fails unless the editor reports an error) or "allow_error":
// true (an error it causes, a refused "set" included, is reported but does not fail the script). A "set" may give "value_special":
// "nan" | "inf" | "-inf" (what JSON cannot spell) and "expect_refused": true: the value must be refused
// with a message that names the parameter's JSON path.
// Each step waits until the work the previous one started has finished, unless that step has
// "async": true: then the next step begins at once, while the work runs (edits during a rebuild).
// Relative paths resolve against the current working directory. Any failing step prints its error and
// the editor exits with status 5 (an "open" with "expect_error": true fails when the file opens).
#pragma once

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace tressel::editor {

// Reads and checks the shape of every step (so a typo fails before the editor does anything). Errors
// name the file and the step index.
Result<std::vector<nlohmann::json>> load_script(const std::filesystem::path& file);

}  // namespace tressel::editor
