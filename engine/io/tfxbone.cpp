#include "io/tfxbone.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/file_io.h"
#include "io/export_bytes.h"

namespace tressel {
namespace {

Error bad(const std::string& name, const std::string& what) { return make_error(ErrorCode::Parse, name + ": " + what); }

constexpr size_t kStrandRecordBytes = 36;  // int32 strand + 4 x (int32 bone, float32 weight)

// Shared by the parser and the encoder: what TressFX's loader asserts, plus index range.
std::string check_skin(const TfxStrandSkin& s, size_t bone_count) {
    float sum = 0.0f;
    for (int k = 0; k < 4; ++k) {
        const int32_t b = s.bones[k] < 0 ? 0 : s.bones[k];
        if (s.bones[k] < -1 || size_t(b) >= bone_count)
            return "bone index " + std::to_string(s.bones[k]) + " is outside the " + std::to_string(bone_count) + " bones";
        if (!std::isfinite(s.weights[k]) || s.weights[k] < 0.0f) return "weight " + std::to_string(k) + " is negative or not finite";
        sum += s.weights[k];
    }
    if (s.weights[0] == 0.0f) return "the first weight is 0 (TressFX requires a non-zero first weight)";
    if (!(sum > 0.0f)) return "the weights do not sum above 0";
    return {};
}

}  // namespace

Result<TfxBoneData> parse_tfxbone(std::span<const uint8_t> bytes, const std::string& name) {
    io_bytes::Reader r(bytes);
    const int32_t bones = r.i32();
    if (!r.ok()) return bad(name, "file is " + std::to_string(bytes.size()) + " bytes, too short for the bone count");
    // Each bone needs at least 8 bytes of header plus a 1-byte name.
    if (bones <= 0 || uint64_t(bones) * 9 > r.remaining())
        return bad(name, "numBones " + std::to_string(bones) + " is not positive or more than the file can hold");
    TfxBoneData d;
    d.bone_ids.reserve(size_t(bones));
    d.bone_names.reserve(size_t(bones));
    for (int32_t i = 0; i < bones; ++i) {
        const int32_t id = r.i32();
        const int32_t len = r.i32();
        if (!r.ok()) return bad(name, "bone " + std::to_string(i) + " runs past the end of the file");
        if (len <= 0 || size_t(len) > kTfxBoneMaxNameChars + 1)
            return bad(name, "bone " + std::to_string(i) + " has a name length of " + std::to_string(len) + " (1 to 128 expected)");
        std::string s = r.chars(size_t(len));
        if (!r.ok()) return bad(name, "the name of bone " + std::to_string(i) + " runs past the end of the file");
        if (s.back() != '\0') return bad(name, "the name of bone " + std::to_string(i) + " is not NUL-terminated");
        s.pop_back();
        if (s.find('\0') != std::string::npos) return bad(name, "the name of bone " + std::to_string(i) + " holds a NUL");
        d.bone_ids.push_back(id);
        d.bone_names.push_back(std::move(s));
    }
    const int32_t strands = r.i32();
    if (!r.ok()) return bad(name, "the file ends before numStrands");
    if (strands < 0 || uint64_t(strands) * kStrandRecordBytes != r.remaining())
        return bad(name, "numStrands " + std::to_string(strands) + " needs " + std::to_string(int64_t(strands) * 36) +
                             " bytes of records but " + std::to_string(r.remaining()) + " remain");
    d.strands.resize(size_t(strands));
    for (int32_t i = 0; i < strands; ++i) {
        TfxStrandSkin& s = d.strands[size_t(i)];
        s.strand = r.i32();
        for (int k = 0; k < 4; ++k) {
            s.bones[k] = r.i32();
            s.weights[k] = r.f32();
        }
        if (std::string why = check_skin(s, d.bone_names.size()); !why.empty())
            return bad(name, "strand record " + std::to_string(i) + ": " + why);
        // -1 (written by some exporters for an unused slot) is read as bone 0, so that every index the
        // data holds names a bone.
        for (int k = 0; k < 4; ++k) s.bones[k] = std::max(s.bones[k], 0);
    }
    return d;
}

Result<TfxBoneData> read_tfxbone_file(const std::filesystem::path& path, uint64_t max_file_bytes) {
    auto bytes = read_file_bytes(path, max_file_bytes);
    if (!bytes.ok()) return bytes.error();
    return parse_tfxbone(*bytes, path.string());
}

Result<std::vector<uint8_t>> encode_tfxbone(const TfxBoneData& d) {
    auto invalid = [](const std::string& what) { return make_error(ErrorCode::InvalidArgument, "tfxbone: " + what); };
    if (d.bone_names.empty()) return invalid("at least one bone is needed");
    if (!d.bone_ids.empty() && d.bone_ids.size() != d.bone_names.size())
        return invalid("bone_ids must be empty or one per bone name");
    if (d.bone_names.size() > 0x7FFFFFFF || d.strands.size() > 0x7FFFFFFF) return invalid("too many bones or strands");
    std::vector<uint8_t> out;
    out.reserve(8 + d.bone_names.size() * 40 + d.strands.size() * kStrandRecordBytes);
    io_bytes::put_i32(out, int32_t(d.bone_names.size()));
    for (size_t i = 0; i < d.bone_names.size(); ++i) {
        const std::string& n = d.bone_names[i];
        if (n.size() > kTfxBoneMaxNameChars || n.find('\0') != std::string::npos)
            return invalid("bone name \"" + n + "\" is longer than 127 characters or holds a NUL");
        io_bytes::put_i32(out, d.bone_ids.empty() ? int32_t(i) : d.bone_ids[i]);
        io_bytes::put_i32(out, int32_t(n.size() + 1));
        out.insert(out.end(), n.begin(), n.end());
        out.push_back(0);
    }
    io_bytes::put_i32(out, int32_t(d.strands.size()));
    for (size_t i = 0; i < d.strands.size(); ++i) {
        const TfxStrandSkin& s = d.strands[i];
        if (std::string why = check_skin(s, d.bone_names.size()); !why.empty())
            return invalid("strand record " + std::to_string(i) + ": " + why);
        io_bytes::put_i32(out, s.strand);
        for (int k = 0; k < 4; ++k) {
            io_bytes::put_i32(out, s.bones[k]);
            io_bytes::put_f32(out, s.weights[k]);
        }
    }
    return out;
}

Status write_tfxbone_file(const std::filesystem::path& path, const TfxBoneData& data) {
    auto bytes = encode_tfxbone(data);
    if (!bytes.ok()) return make_error(bytes.error().code, path.string() + ": " + bytes.error().message);
    return write_file_atomic(path, std::span<const uint8_t>(*bytes));
}

std::vector<std::string> tressfx_bone_names(std::span<const std::string> joint_names, size_t count, Diagnostics& diag) {
    std::vector<std::string> out;
    std::vector<std::string> changed;
    for (size_t j = 0; j < count; ++j) {
        const std::string original = j < joint_names.size() ? joint_names[j] : std::string();
        std::string n = original;
        for (char& c : n)
            if (std::isspace(static_cast<unsigned char>(c)) || std::iscntrl(static_cast<unsigned char>(c))) c = '_';
        if (n.empty()) n = "joint_" + std::to_string(j);
        if (n.size() > kTfxBoneMaxNameChars) n.resize(kTfxBoneMaxNameChars);
        if (std::find(out.begin(), out.end(), n) != out.end()) {
            const std::string suffix = "_" + std::to_string(j);
            n = n.substr(0, kTfxBoneMaxNameChars - suffix.size()) + suffix;
        }
        if (n != original && !original.empty()) changed.push_back("'" + original.substr(0, 40) + (original.size() > 40 ? "...'" : "'") + " -> '" + n.substr(0, 40) + (n.size() > 40 ? "...'" : "'"));
        out.push_back(std::move(n));
    }
    if (!changed.empty()) {
        std::string list;
        for (size_t i = 0; i < changed.size() && i < 5; ++i) list += (i ? ", " : "") + changed[i];
        if (changed.size() > 5) list += ", ...";
        diag.warn("tressfx bones", std::to_string(changed.size()) + " joint name(s) changed for TressFX files (.tfxbone and .tfxmesh alike): " + list);
    }
    return out;
}

Result<TfxBoneData> tfxbone_from_scalp(const TfxBoneFromScalp& in, Diagnostics& diag) {
    TRESSEL_ASSERT(in.scalp != nullptr, "TfxBoneFromScalp::scalp is required");
    const Mesh& m = *in.scalp;
    if (in.root_triangles.size() != in.root_barycentrics.size())
        return make_error(ErrorCode::InvalidArgument, "tfxbone: root_triangles and root_barycentrics differ in size");
    const bool skinned = !m.joints.empty() && m.joints.size() == m.positions.size() && m.weights.size() == m.positions.size();
    TfxBoneData d;
    if (!skinned) {
        d.bone_ids = {0};
        d.bone_names = {"root"};
    } else {
        uint32_t joints = 0;
        for (const auto& j : m.joints) joints = std::max({joints, uint32_t(j.x) + 1, uint32_t(j.y) + 1, uint32_t(j.z) + 1, uint32_t(j.w) + 1});
        joints = std::max<uint32_t>(joints, uint32_t(in.joint_names.size()));
        d.bone_names = tressfx_bone_names(in.joint_names, joints, diag);
        for (uint32_t j = 0; j < joints; ++j) d.bone_ids.push_back(int32_t(j));
    }
    d.strands.resize(in.root_triangles.size());
    size_t unweighted = 0;
    for (size_t s = 0; s < d.strands.size(); ++s) {
        TfxStrandSkin& out = d.strands[s];
        out.strand = int32_t(s);
        out.bones = {0, 0, 0, 0};
        out.weights = {1.0f, 0.0f, 0.0f, 0.0f};
        const uint32_t t = in.root_triangles[s];
        if (size_t(t) * 3 + 2 >= m.indices.size())
            return make_error(ErrorCode::InvalidArgument, "tfxbone: strand " + std::to_string(s) + " is attached to triangle " +
                                                              std::to_string(t) + ", beyond the scalp's " +
                                                              std::to_string(m.triangle_count()) + " triangles");
        if (!skinned) continue;
        std::map<uint32_t, double> acc;
        for (int c = 0; c < 3; ++c) {
            const uint32_t v = m.indices[size_t(t) * 3 + size_t(c)];
            for (int k = 0; k < 4; ++k) {
                const double w = double(in.root_barycentrics[s][c]) * double(m.weights[v][k]);
                if (w > 0.0) acc[m.joints[v][k]] += w;
            }
        }
        std::vector<std::pair<double, uint32_t>> sorted;
        for (const auto& [j, w] : acc) sorted.push_back({w, j});
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
        if (sorted.size() > 4) sorted.resize(4);
        double total = 0.0;
        for (const auto& p : sorted) total += p.first;
        if (!(total > 0.0)) {
            ++unweighted;
            continue;
        }
        for (size_t k = 0; k < sorted.size(); ++k) {
            out.bones[k] = int32_t(sorted[k].second);
            out.weights[k] = float(sorted[k].first / total);
        }
    }
    if (unweighted > 0)
        diag.warn("tfxbone", std::to_string(unweighted) + " root(s) sit on scalp vertices without skin weights; bound to bone 0 (" +
                                 d.bone_names[0] + ")");
    return d;
}

}  // namespace tressel
