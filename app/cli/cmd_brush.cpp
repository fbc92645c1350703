// tressel-cli brush <scene.json> <strokes.json> [--out scene.json]: applies recorded brush strokes to a
// hair group's guides (groom/brush.h, the code the editor's viewport runs) and saves the guides taken into
// hand beside the scene. tressel-cli bench brush: the cost of one stroke on 10,000 guides x 32 vertices.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "commands.h"
#include "core/file_io.h"
#include "groom/brush.h"
#include "groom/guides_file.h"
#include "groom/placement.h"
#include "groom/scalp_paint.h"
#include "sdf/sdf.h"
#include "sim/mesh_oracle.h"
#include "runtime/scene_runtime.h"
#include "scene/scene_io.h"
#include "scene/scene_json.h"

namespace tressel::cli {

const char* const kBrushUsage =
    "usage: tressel-cli brush <scene.json> <strokes.json> [--out scene.json]\n\n"
    "Applies the strokes of a stroke file to one hair group's guides, as the editor's brushes do, and takes\n"
    "the guides into hand: the group's placement becomes \"edited\" and its guides are written to\n"
    "<scene>.<group>.tguides beside the scene written (--out, default: the scene itself; in the scene's folder).\n"
    "Both files are written atomically; on any error in the strokes neither is.\n"
    "The stroke file (JSON):\n"
    "  {\"format\": \"tressel-strokes\", \"version\": 1, \"group\": \"crown\",\n"
    "   \"view\": {\"eye_m\": [x,y,z], \"target_m\": [x,y,z], \"up\": [0,1,0], \"fov_y_deg\": 35,\n"
    "            \"viewport_px\": [w,h]},\n"
    "   \"strokes\": [{\"brush\": \"comb\", \"points_px\": [[x,y], ...], \"radius_px\": 40, \"strength\": 0.5,\n"
    "                \"falloff\": \"smooth\", \"invert\": false, \"symmetry_x\": false, \"front_faces_only\": true}]}\n"
    "brush: comb, smooth, grow, cut, puff, clump, add, delete; falloff: smooth, linear, constant, sharp.\n"
    "A stroke file may instead paint the scalp: strokes with \"paint\": \"mask\" | \"density\" | \"length\" | \"comb\"\n"
    "and \"value\" (density 0 to 8, length 0.01 to 4, comb amount 0 to 1; invert erases) instead of \"brush\".\n"
    "The paint is written to <scene>.<group>.tpaint beside the scene written, the group regrown from it, and\n"
    "the guide counts before and after printed.\n"
    "Screen points are pixels from the top left of the viewport. Guides are kept out of the group's collision\n"
    "fields (at their margins); symmetry mirrors across x = 0 of the scalp mesh's bounds centre.\n"
    "Prints per stroke the dabs and the strands changed, added and removed, and for the guides written the\n"
    "deepest point inside a collision field (m, the roots excepted) of the guides the strokes changed and of\n"
    "the others, the deepest point of all inside the exact collision meshes, and the largest root offset from\n"
    "its scalp attachment (m), as JSON.\n";

namespace {

using nlohmann::json;

Result<glm::vec3> vec3_of(const json& j, const std::string& what) {
    if (!j.is_array() || j.size() != 3 || !j[0].is_number() || !j[1].is_number() || !j[2].is_number())
        return make_error(ErrorCode::Parse, what + " must be an array of 3 numbers");
    const glm::vec3 v(j[0].get<float>(), j[1].get<float>(), j[2].get<float>());
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return make_error(ErrorCode::Parse, what + " is not finite");
    return v;
}

Result<BrushView> view_of(const json& v) {
    if (!v.is_object()) return make_error(ErrorCode::Parse, "\"view\" must be an object");
    auto eye = vec3_of(v.value("eye_m", json()), "view.eye_m");
    if (!eye) return eye.error();
    auto target = vec3_of(v.value("target_m", json()), "view.target_m");
    if (!target) return target.error();
    auto up = vec3_of(v.value("up", json::array({0, 1, 0})), "view.up");
    if (!up) return up.error();
    const json vp = v.value("viewport_px", json());
    if (!vp.is_array() || vp.size() != 2 || !vp[0].is_number() || !vp[1].is_number())
        return make_error(ErrorCode::Parse, "view.viewport_px must be [width, height]");
    const glm::vec2 size(vp[0].get<float>(), vp[1].get<float>());
    if (!(size.x >= 1.0f && size.y >= 1.0f && size.x <= 16384.0f && size.y <= 16384.0f))
        return make_error(ErrorCode::Parse, "view.viewport_px must be 1 to 16384 pixels each way");
    const json fov = v.value("fov_y_deg", json(35.0));
    if (!fov.is_number() || !(fov.get<double>() > 1.0 && fov.get<double>() < 170.0))
        return make_error(ErrorCode::Parse, "view.fov_y_deg must be a number in (1, 170) degrees");
    if (glm::length(*target - *eye) < 1e-6f) return make_error(ErrorCode::Parse, "view.eye_m and view.target_m must differ");
    return BrushView::look_at(*eye, *target, *up, fov.get<float>(), size);
}

Result<std::pair<BrushSettings, std::vector<glm::vec2>>> stroke_of(const json& s, size_t index) {
    const std::string at = "strokes[" + std::to_string(index) + "]";
    if (!s.is_object()) return make_error(ErrorCode::Parse, at + " must be an object");
    BrushSettings b;
    const std::string name = s.value("brush", std::string());
    auto type = brush_type_from_name(name);
    if (!type) return make_error(ErrorCode::Parse, at + ".brush \"" + name + "\" is not one of comb, smooth, grow, cut, puff, clump, add, delete");
    b.type = *type;
    auto number = [&](const char* key, float fallback, float& out) -> Status {
        const json v = s.value(key, json(fallback));
        if (!v.is_number()) return make_error(ErrorCode::Parse, at + "." + key + " must be a number");
        out = v.get<float>();
        return {};
    };
    auto flag = [&](const char* key, bool fallback, bool& out) -> Status {
        const json v = s.value(key, json(fallback));
        if (!v.is_boolean()) return make_error(ErrorCode::Parse, at + "." + key + " must be true or false");
        out = v.get<bool>();
        return {};
    };
    TRESSEL_TRY(number("radius_px", b.radius_px, b.radius_px));
    TRESSEL_TRY(number("strength", b.strength, b.strength));
    TRESSEL_TRY(number("spacing", b.spacing, b.spacing));
    TRESSEL_TRY(flag("invert", b.invert, b.invert));
    TRESSEL_TRY(flag("symmetry_x", b.symmetry_x, b.symmetry_x));
    TRESSEL_TRY(flag("front_faces_only", b.front_faces_only, b.front_faces_only));
    const std::string falloff = s.value("falloff", std::string("smooth"));
    auto f = brush_falloff_from_name(falloff);
    if (!f) return make_error(ErrorCode::Parse, at + ".falloff \"" + falloff + "\" is not one of smooth, linear, constant, sharp");
    b.falloff = *f;
    b.seed = uint32_t(index + 1);
    const json pts = s.value("points_px", json());
    if (!pts.is_array() || pts.empty() || pts.size() > 100000)
        return make_error(ErrorCode::Parse, at + ".points_px must be an array of 1 to 100000 [x, y] points");
    std::vector<glm::vec2> points;
    for (const json& p : pts) {
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
            return make_error(ErrorCode::Parse, at + ".points_px holds something other than [x, y]");
        points.push_back({p[0].get<float>(), p[1].get<float>()});
    }
    return std::make_pair(b, points);
}

Result<std::pair<PaintSettings, std::vector<glm::vec2>>> paint_stroke_of(const json& s, size_t index) {
    const std::string at = "strokes[" + std::to_string(index) + "]";
    const std::string name = s.value("paint", std::string());
    auto layer = paint_layer_from_name(name);
    if (!layer) return make_error(ErrorCode::Parse, at + ".paint \"" + name + "\" is not one of mask, density, length, comb");
    // The settings the brushes share, read by the same code.
    json as_brush = s;
    as_brush.erase("paint");
    as_brush.erase("value");
    as_brush["brush"] = "comb";
    auto b = stroke_of(as_brush, index);
    if (!b) return b.error();
    PaintSettings p;
    p.layer = *layer;
    p.radius_px = b->first.radius_px;
    p.strength = b->first.strength;
    p.spacing = b->first.spacing;
    p.falloff = b->first.falloff;
    p.invert = b->first.invert;
    p.symmetry_x = b->first.symmetry_x;
    p.front_faces_only = b->first.front_faces_only;
    p.value = *layer == PaintLayer::Length ? 0.5f : *layer == PaintLayer::Comb ? 1.0f : 2.0f;
    const json v = s.value("value", json(p.value));
    if (!v.is_number()) return make_error(ErrorCode::Parse, at + ".value must be a number");
    p.value = v.get<float>();
    return std::make_pair(p, std::move(b->second));
}

// The scene's meshes, grooms and collision fields on the CPU (no device): what the brushes act on.
Result<std::unique_ptr<runtime::SceneRuntime>> headless_content(const Scene& scene) {
    runtime::RuntimeOptions options;
    options.sdf = runtime::SdfBackend::Cpu;  // the collision fields the brushes keep guides out of
    auto rt = runtime::SceneRuntime::create(nullptr, options);
    if (!rt) return rt.error();
    TRESSEL_TRY((*rt)->apply(scene));
    return rt;
}

}  // namespace

int run_brush(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"out", true}});
    if (!args) return fail(args.error().message, 2);
    if (args->positionals().size() != 2) return fail("brush takes a scene file and a stroke file (see tressel-cli brush --help)", 2);
    const std::filesystem::path scene_path = std::filesystem::absolute(args->positionals()[0]);
    const std::filesystem::path stroke_path = args->positionals()[1];
    auto loaded = load_scene(scene_path);
    if (!loaded) return fail(loaded.error().message);
    Scene scene = loaded->scene;

    auto text = read_file_text(stroke_path, 64ull << 20);
    if (!text) return fail(text.error().message);
    json doc = json::parse(*text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return fail(stroke_path.string() + ": not a JSON object");
    if (doc.value("format", json()) != json("tressel-strokes")) return fail(stroke_path.string() + ": \"format\" must be \"tressel-strokes\"");
    if (!doc.value("version", json()).is_number_integer() || doc["version"].get<long long>() != 1)
        return fail(stroke_path.string() + ": \"version\" must be 1");
    auto view = view_of(doc.value("view", json()));
    if (!view) return fail(stroke_path.string() + ": " + view.error().message);
    const std::string group_name = doc.value("group", json()).is_string() ? doc["group"].get<std::string>() : std::string();
    size_t gi = scene.hair_groups.size();
    for (size_t i = 0; i < scene.hair_groups.size(); ++i)
        if (scene.hair_groups[i].name == group_name || (group_name.empty() && scene.hair_groups.size() == 1)) gi = i;
    if (gi == scene.hair_groups.size()) return fail(stroke_path.string() + ": \"group\" names no hair group of the scene: '" + group_name + "'");
    const json strokes = doc.value("strokes", json());
    if (!strokes.is_array() || strokes.empty()) return fail(stroke_path.string() + ": \"strokes\" must be a non-empty array");

    auto rt = headless_content(scene);
    if (!rt) return fail(rt.error().message);
    const runtime::SceneContent& content = *(*rt)->content();
    const std::filesystem::path out = args->get("out") ? std::filesystem::absolute(*args->get("out")) : scene_path;
    // The scene's relative paths (meshes, masks, maps) resolve from its folder: the scene written stays there.
    if (out.parent_path().lexically_normal() != scene_path.parent_path().lexically_normal())
        return fail("--out must be in the scene's folder (" + scene_path.parent_path().string() + "), where its relative paths resolve");
    size_t painting = 0;
    for (const json& s : strokes) painting += s.is_object() && s.contains("paint");
    if (painting > 0) {
        if (painting != strokes.size()) return fail(stroke_path.string() + ": a stroke file either paints the scalp or brushes guides, not both");
        const SceneMesh* scalp = content.find_mesh(scene.hair_groups[gi].scalp.mesh);
        if (!scalp || !content.grooms[gi]) return fail("hair group '" + scene.hair_groups[gi].name + "' has no scalp mesh or groom");
        const GroomResult* groom = content.grooms[gi].get();
        const float plane_x = runtime::brush_target(scene, content, gi).symmetry_plane_x;
        // Layers start as the strokes need them (the mask from the group's region).
        ScalpPaint paint = groom->paint ? *groom->paint : blank_paint(scalp->mesh);
        json report = json::array();
        for (size_t i = 0; i < strokes.size(); ++i) {
            auto stroke = paint_stroke_of(strokes[i], i);
            if (!stroke) return fail(stroke_path.string() + ": " + stroke.error().message);
            start_layer(paint, stroke->first.layer, &groom->region);
            auto st = apply_paint_stroke(paint, scalp->mesh, *view, stroke->first, stroke->second, plane_x);
            if (!st) return fail(stroke_path.string() + ": strokes[" + std::to_string(i) + "]: " + st.error().message);
            report.push_back({{"paint", paint_layer_name(stroke->first.layer)}, {"dabs", st->dabs}, {"dabs_off_scalp", st->dabs_off_scalp},
                              {"vertices_changed", st->vertices_changed}});
        }
        HairGroup& g = scene.hair_groups[gi];
        const size_t before = groom->guides.strand_count();
        const std::string changed = runtime::take_paint_into_hand(g, std::make_shared<const ScalpPaint>(paint), groom, out.stem().string());
        if (Status st = (*rt)->apply(scene); !st) return fail(st.error().message);
        const GroomResult* regrown = (*rt)->content()->grooms[gi].get();
        const std::filesystem::path paint_path =
            std::filesystem::path(g.scalp.paint).is_absolute() ? std::filesystem::path(g.scalp.paint) : out.parent_path() / g.scalp.paint;
        if (Status st = save_paint_file(paint_path, paint); !st) return fail(st.error().message);
        if (Status st = save_scene(scene, out); !st) return fail(st.error().message);
        std::printf("%s\n", json{{"group", g.name}, {"paint_file", paint_path.string()}, {"guides_before", before},
                                 {"guides_after", regrown ? regrown->guides.strand_count() : 0}, {"scene_changes", changed}, {"strokes", report}}
                                .dump(2)
                                .c_str());
        return 0;
    }
    const BrushTarget target = runtime::brush_target(scene, content, gi);
    if (!target.scalp) return fail("hair group '" + scene.hair_groups[gi].name + "' has no scalp mesh");
    Strands guides = content.grooms[gi]->guides;
    const Strands start = guides;
    if (guides.uniform_point_count() == 0) return fail("hair group '" + scene.hair_groups[gi].name + "': guides of different point counts cannot be brushed");

    json report = json::array();
    for (size_t i = 0; i < strokes.size(); ++i) {
        auto stroke = stroke_of(strokes[i], i);
        if (!stroke) return fail(stroke_path.string() + ": " + stroke.error().message);
        auto st = apply_stroke(guides, target, *view, stroke->first, stroke->second);
        if (!st) return fail(stroke_path.string() + ": strokes[" + std::to_string(i) + "]: " + st.error().message);
        report.push_back({{"brush", brush_type_name(stroke->first.type)},
                          {"dabs", st->dabs},
                          {"strands_changed", st->strands_changed},
                          {"strands_added", st->strands_added},
                          {"strands_removed", st->strands_removed},
                          {"points_pushed_out", st->points_pushed_out}});
    }
    if (guides.strand_count() == 0) return fail("the strokes removed every guide of hair group '" + scene.hair_groups[gi].name + "'; nothing was written");
    const HairGroup& g0 = scene.hair_groups[gi];
    // What the brushes promise: no point (but the roots) of a guide they changed deeper than a tenth of
    // the margin inside a collision field, every root where its attachment puts it on the scalp. Guides no
    // stroke touched are as they were grown (kept out of the exact mesh, which the field approximates), and
    // are measured apart.
    std::map<uint32_t, size_t> by_seed;
    for (size_t s = 0; s < start.strand_count(); ++s) by_seed.emplace(start.seeds[s], s);
    // Measured against the exact collision meshes (the bake's oracle), not only the fields the brushes push with.
    std::vector<std::unique_ptr<MeshDistanceOracle>> exact;
    for (const CollisionMesh& cm : scene.collision_meshes)
        if (std::find(g0.simulation.sdf.begin(), g0.simulation.sdf.end(), cm.mesh) != g0.simulation.sdf.end())
            if (const SceneMesh* m = content.find_mesh(cm.mesh)) exact.push_back(std::make_unique<MeshDistanceOracle>(m->mesh));
    double deepest = 0.0, deepest_untouched = 0.0, deepest_mesh = 0.0, root_offset = 0.0;
    for (size_t s = 0; s < guides.strand_count(); ++s) {
        const auto p = guides.strand(s);
        root_offset = std::max(root_offset, double(glm::length(p[0] - attachment_point(*target.scalp, guides.roots[s]))));
        const auto was = by_seed.find(guides.seeds[s]);
        const bool untouched = was != by_seed.end() && start.points_in(was->second) == p.size() &&
                               std::memcmp(start.strand(was->second).data(), p.data(), p.size_bytes()) == 0;
        double& worst = untouched ? deepest_untouched : deepest;
        for (size_t k = 1; k < p.size(); ++k) {
            for (const BrushCollider& c : target.colliders)
                worst = std::max(worst, -double(c.grid->sample_m(glm::vec3(c.grid_from_object * glm::vec4(p[k], 1.0f)))));
            for (const auto& o : exact) deepest_mesh = std::max(deepest_mesh, -double(o->signed_distance_m(p[k])));
        }
    }

    // Take the guides into hand: written beside the scene that is written, then the scene that names them.
    HairGroup& g = scene.hair_groups[gi];
    const uint32_t triangles = uint32_t(target.scalp->triangle_count());
    runtime::take_guides_into_hand(g, std::make_shared<const EditedGuides>(EditedGuides{guides, triangles}), out.stem().string());
    const std::string file = g.growth.guide_file;
    const std::filesystem::path guides_path = std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : out.parent_path() / file;
    if (Status st = save_guides_file(guides_path, guides, triangles); !st) return fail(st.error().message);
    if (Status st = save_scene(scene, out); !st) return fail(st.error().message);
    std::printf("%s\n", json{{"group", g.name}, {"guides", guides.strand_count()}, {"guide_file", guides_path.string()},
                             {"deepest_inside_m", deepest}, {"deepest_inside_untouched_m", deepest_untouched},
                             {"deepest_inside_mesh_m", deepest_mesh}, {"root_offset_max_m", root_offset},
                             {"collision_fields", target.colliders.size()}, {"strokes", report}}
                            .dump(2)
                            .c_str());
    return 0;
}

// bench brush [--scene FILE] [--guides N] [--repeats N] [--out FILE]: grows the scene's first hair group
// with N guides of 32 vertices (default 10,000, the size the editor must brush within a frame), frames it
// from the side its roots face, and times a 300-pixel stroke of every brush (radius 60 px, strength 0.5,
// X symmetry on) with the group's collision fields: the median wall ms per stroke and per dab, and as the
// editor runs it: the stroke's begin (every guide projected) and each frame's 10 pixels of mouse travel.
int run_bench_brush(const std::vector<std::string>& argv) {
    auto args = Args::parse(argv, {{"scene", true}, {"guides", true}, {"repeats", true}, {"out", true}});
    if (!args) return fail(args.error().message, 2);
    auto guides_n = args->get_int("guides", 10000);
    if (!guides_n) return fail(guides_n.error().message, 2);
    if (*guides_n < 1 || *guides_n > 200000) return fail("--guides must be in 1..200000", 2);
    auto repeats = args->get_int("repeats", 9);
    if (!repeats) return fail(repeats.error().message, 2);
    if (*repeats < 1 || *repeats > 1000) return fail("--repeats must be in 1..1000", 2);
    const std::string scene_file = args->get("scene").value_or("presets/scenes/default.json");
    auto loaded = load_scene(scene_file);
    if (!loaded) return fail(loaded.error().message);
    Scene scene = loaded->scene;
    if (scene.hair_groups.empty()) return fail(scene_file + " has no hair group");
    scene.hair_groups.resize(1);
    HairGroup& g = scene.hair_groups[0];
    g.growth.placement = Placement::Random;
    g.growth.guides = int(*guides_n);
    g.growth.density_per_cm2 = 0.0;
    g.growth.vertices_per_strand = 32;
    auto rt = headless_content(scene);
    if (!rt) return fail(rt.error().message);
    const runtime::SceneContent& content = *(*rt)->content();
    const BrushTarget target = runtime::brush_target(scene, content, 0);
    const Strands grown = content.grooms[0]->guides;

    // The camera: from the side the roots face on average, 2.5 head radii out, the whole scalp in view.
    glm::vec3 lo(1e30f), hi(-1e30f), facing(0.0f);
    for (const glm::vec3& p : target.scalp->positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    for (size_t i = 0; i < grown.strand_count(); ++i) facing += grown.strand(i)[1] - grown.strand(i)[0];
    const glm::vec3 centre = 0.5f * (lo + hi);
    const float radius = 0.5f * glm::length(hi - lo);
    facing = glm::length(facing) > 0.0f ? glm::normalize(facing) : glm::vec3(0.0f, 0.0f, 1.0f);
    const glm::vec3 up = std::abs(facing.y) > 0.9f ? glm::vec3(0.0f, 0.0f, -1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    const glm::vec2 size(1920.0f, 1080.0f);
    const BrushView view = BrushView::look_at(centre + facing * (2.5f * radius), centre, up, 40.0f, size);
    // Across the roots' centre on screen, so that root brushes (puff, delete) find strands too.
    glm::vec3 root_centre(0.0f);
    for (size_t i = 0; i < grown.strand_count(); ++i) root_centre += grown.strand(i)[0] / float(grown.strand_count());
    glm::vec2 mid;
    float depth = 0.0f;
    if (!view.project(root_centre, mid, depth)) mid = 0.5f * size;
    std::vector<glm::vec2> stroke;
    for (int i = 0; i <= 30; ++i) stroke.push_back({mid.x - 150.0f + 10.0f * float(i), mid.y + 20.0f * std::sin(0.2f * float(i))});

    json brushes = json::object();
    for (BrushType type : kAllBrushTypes) {
        BrushSettings b;
        b.type = type;
        b.radius_px = 60.0f;
        b.strength = 0.5f;
        b.symmetry_x = true;
        std::vector<double> ms;
        StrokeStats last;
        for (long long r = 0; r < *repeats; ++r) {
            Strands work = grown;
            const auto t0 = std::chrono::steady_clock::now();
            auto st = apply_stroke(work, target, view, b, stroke);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            if (!st) return fail(st.error().message);
            last = *st;
        }
        // What the editor does while the mouse moves: begin() on the button (every guide projected once),
        // then extend() each frame with the point the mouse reached (10 pixels on), finish() on release.
        std::vector<double> frame_ms, begin_ms;
        for (long long r = 0; r < *repeats; ++r) {
            Strands work = grown;
            auto t0 = std::chrono::steady_clock::now();
            auto live = BrushStroke::begin(work, target, view, b);
            if (!live) return fail(live.error().message);
            begin_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            for (const glm::vec2& p : stroke) {
                t0 = std::chrono::steady_clock::now();
                if (Status st = (*live)->extend(std::span<const glm::vec2>(&p, 1)); !st) return fail(st.error().message);
                frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            }
            (*live)->finish();
        }
        std::sort(frame_ms.begin(), frame_ms.end());
        std::sort(begin_ms.begin(), begin_ms.end());
        std::sort(ms.begin(), ms.end());
        const double median = ms[ms.size() / 2];
        brushes[std::string(brush_type_name(type))] = {{"stroke_ms_median", median},
                                                       {"stroke_ms_min", ms.front()},
                                                       {"begin_ms_median", begin_ms[begin_ms.size() / 2]},
                                                       {"frame_ms_median", frame_ms[frame_ms.size() / 2]},
                                                       {"frame_ms_p95", frame_ms[frame_ms.size() * 95 / 100]},
                                                       {"dabs", last.dabs},
                                                       {"dab_ms_median", last.dabs ? median / double(last.dabs) : 0.0},
                                                       {"strands_changed", last.strands_changed},
                                                       {"strands_added", last.strands_added},
                                                       {"strands_removed", last.strands_removed}};
    }
    const json out = {{"workload", "brush"},
                      {"scene", scene_file},
                      {"guides", grown.strand_count()},
                      {"vertices_per_strand", grown.uniform_point_count()},
                      {"collision_fields", target.colliders.size()},
                      {"stroke", {{"points", stroke.size()}, {"length_px", 300}, {"radius_px", 60}, {"viewport_px", {1920, 1080}}}},
                      {"repeats", *repeats},
                      {"brushes", brushes}};
    const std::string text = out.dump(2) + "\n";
    if (auto path = args->get("out")) {
        if (Status st = write_file_atomic(*path, std::string_view(text)); !st) return fail(st.error().message);
    } else {
        std::printf("%s", text.c_str());
    }
    return 0;
}

}  // namespace tressel::cli
