// tressel-cli preset save|apply|check: section presets (simulation, shading, growth, collision, cloth) as
// partial JSON documents, merged over a scene by engine/scene/presets.h.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "core/file_io.h"
#include "scene/presets.h"
#include "scene/scene_io.h"

namespace tressel::cli {

const char* const kPresetUsage =
    "usage: tressel-cli preset save <scene.json> --kind simulation|shading|growth|collision|cloth [--group NAME] --out preset.json\n"
    "       tressel-cli preset apply <scene.json> <preset.json>... [--group NAME] [--out scene.json]\n"
    "       tressel-cli preset check <preset.json>...\n\n"
    "save   writes the current values of one section of hair group NAME (default: the first group), or of\n"
    "       the first collision mesh, or the first accessory's cloth, as a preset\n"
    "apply  merges the presets, in order, over hair group NAME (default: every group; collision presets change\n"
    "       every collision mesh, cloth presets every accessory's cloth) and saves the scene to --out (default: over the scene file)\n"
    "check  validates preset files (format, kind, value types and ranges)\n"
    "Shipped presets: presets/sim/*.json and presets/shading/*.json (see presets/README.md).\n";

namespace {

void print_warnings(const Diagnostics& d) {
    for (const auto& item : d.items) std::fprintf(stderr, "%s\n", format(item).c_str());
}

Result<int> group_index(const Scene& scene, const std::optional<std::string>& name) {
    if (!name) return scene.hair_groups.empty() ? -1 : 0;
    for (size_t i = 0; i < scene.hair_groups.size(); ++i)
        if (scene.hair_groups[i].name == *name) return int(i);
    return make_error(ErrorCode::NotFound, "no hair group named '" + *name + "'");
}

}  // namespace

int run_preset(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"kind", true}, {"group", true}, {"out", true}});
    if (!args) return fail(args.error().message, 2);
    const auto& pos = args->positionals();
    if (pos.empty()) return fail("preset needs an action: save, apply or check (see tressel-cli preset --help)", 2);
    const std::string action = pos[0];

    if (action == "check") {
        if (pos.size() < 2) return fail("preset check needs at least one preset file", 2);
        for (size_t i = 1; i < pos.size(); ++i) {
            Diagnostics diag;
            auto p = load_section_preset(pos[i], diag);
            if (!p) return fail(p.error().message);
            print_warnings(diag);
            std::printf("%s: %s preset, %zu values\n", pos[i].c_str(), std::string(enum_to_string(p->kind)).c_str(), p->values.size());
        }
        return 0;
    }
    if (action == "save") {
        if (pos.size() != 2) return fail("preset save takes one scene file", 2);
        if (!args->has("kind")) return fail("preset save needs --kind simulation|shading|growth|collision|cloth", 2);
        if (!args->has("out")) return fail("preset save needs --out preset.json", 2);
        auto kind = enum_from_string<PresetKind>(*args->get("kind"));
        if (!kind) return fail("--kind must be simulation, shading, growth, collision or cloth", 2);
        auto loaded = load_scene(pos[1]);
        if (!loaded) return fail(loaded.error().message);
        auto group = group_index(loaded->scene, args->get("group"));
        if (!group) return fail(group.error().message);
        if (*kind != PresetKind::Collision && *kind != PresetKind::Cloth && *group < 0) return fail("the scene has no hair group to take a " + *args->get("kind") + " preset from");
        const auto doc = make_section_preset(loaded->scene, *kind, *group);
        auto st = write_file_atomic(*args->get("out"), std::string_view(doc.dump(2) + "\n"));
        if (!st) return fail(st.error().message);
        std::printf("wrote %s\n", args->get("out")->c_str());
        return 0;
    }
    if (action == "apply") {
        if (pos.size() < 3) return fail("preset apply takes a scene file and at least one preset file", 2);
        auto loaded = load_scene(pos[1]);
        if (!loaded) return fail(loaded.error().message);
        Scene scene = loaded->scene;
        print_warnings(loaded->diagnostics);
        std::vector<int> groups;
        if (args->has("group")) {
            auto g = group_index(scene, args->get("group"));
            if (!g) return fail(g.error().message);
            groups.push_back(*g);
        } else {
            for (size_t i = 0; i < scene.hair_groups.size(); ++i) groups.push_back(int(i));
        }
        for (size_t i = 2; i < pos.size(); ++i) {
            Diagnostics diag;
            auto doc = read_json_file(pos[i]);
            if (!doc) return fail(doc.error().message);
            auto p = parse_section_preset(*doc, diag);
            if (!p) return fail(pos[i] + ": " + p.error().message);
            // Collision and cloth presets merge over every collision mesh / every accessory.
            const bool every = p->kind == PresetKind::Collision || p->kind == PresetKind::Cloth;
            const std::vector<int> targets = every ? std::vector<int>{-1} : groups;
            if (targets.empty()) return fail(pos[i] + ": the scene has no hair group to apply it to");
            for (int g : targets) {
                auto st = apply_section_preset(scene, p->kind, g, *doc, diag);
                if (!st) return fail(pos[i] + ": " + st.error().message);
            }
            print_warnings(diag);
        }
        const std::string out = args->get_or("out", pos[1]);
        auto st = save_scene(scene, out);
        if (!st) return fail(st.error().message);
        std::printf("wrote %s\n", out.c_str());
        return 0;
    }
    return fail("unknown preset action '" + action + "' (save, apply or check)", 2);
}

}  // namespace tressel::cli
