// What a change of the scene document made the runtime redo, and how long each part took. The editor
// logs it and tests read it: a shading edit must regrow nothing, a stiffness edit must rebuild no field.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tressel::runtime {

struct RebuildReport {
    bool meshes = false;                        // every mesh imported again
    std::vector<std::string> grooms;            // hair groups grown again
    std::vector<std::string> sdfs;              // collision meshes whose field was built again
    bool simulation = false;                    // the simulation rebuilt at rest (structure changed)
    bool simulation_params = false;             // simulation, environment, collider or margin values set in place
    bool sag_free = false;                      // the sag-free rest state solved again (sim/sag_free.h)
    bool shading = false;                       // hair shading changed in the renderer
    std::vector<std::string> restyled;          // groups whose guide widths followed a fibre radius edit (no regrow)
    bool drawn_meshes = false;                  // the drawn meshes or colliders replaced
    bool slice = false;                         // the SDF slice image made again
    std::vector<std::pair<std::string, double>> ms;  // part ("import meshes", "grow 'main'", ...) -> wall ms

    // Whether anything costly was redone: import, growth, fields or the simulation's state.
    bool rebuilt_anything() const { return meshes || !grooms.empty() || !sdfs.empty() || simulation; }
    void add_time(std::string part, double ms_taken) { ms.emplace_back(std::move(part), ms_taken); }
    void merge(const RebuildReport& o);
    // One line for the log: "regrew 'main' (412 ms); rebuilt the field of 'head' (26 ms); ..." or "nothing".
    std::string summary() const;
};

}  // namespace tressel::runtime
