// Deterministic mutation test of the mesh loaders: real files with seeded byte flips, truncations,
// spliced garbage and count fields overwritten with huge values. Every import must either fail with an
// Error or succeed with finite, in-range data; a crash, hang or runaway allocation fails the run.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <random>

#include "core/file_io.h"
#include "io/mesh_import.h"
#include "io/tfxmesh.h"
#include "test_paths.h"

namespace tressel {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> read(const fs::path& p) {
    auto r = read_file_bytes(p);
    EXPECT_TRUE(r.ok()) << p;
    return r.ok() ? r.value() : std::vector<uint8_t>{};
}

// A minimal binary PLY (a closed octahedron) so the PLY path has a valid seed.
std::vector<uint8_t> octahedron_ply() {
    const float v[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    const int f[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    std::string h = "ply\nformat binary_little_endian 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
                    "element face 8\nproperty list uchar int vertex_indices\nend_header\n";
    std::vector<uint8_t> out(h.begin(), h.end());
    const auto* vb = reinterpret_cast<const uint8_t*>(v);
    out.insert(out.end(), vb, vb + sizeof v);
    for (const auto& t : f) {
        out.push_back(3);
        const auto* tb = reinterpret_cast<const uint8_t*>(t);
        out.insert(out.end(), tb, tb + sizeof t);
    }
    return out;
}

void check_scene(const ImportedScene& s) {
    for (const auto& m : s.meshes) {
        for (const auto& p : m.positions) ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
        for (const auto& n : m.normals) ASSERT_TRUE(std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z));
        ASSERT_EQ(m.indices.size() % 3, 0u);
        for (uint32_t i : m.indices) ASSERT_LT(i, m.positions.size());
        ASSERT_TRUE(m.normals.empty() || m.normals.size() == m.positions.size());
    }
}

// One mutation of `src`, chosen and placed by `rng`.
std::vector<uint8_t> mutate(const std::vector<uint8_t>& src, std::mt19937& rng, bool text) {
    std::vector<uint8_t> b = src;
    if (b.empty()) return b;
    auto pos = [&] { return std::uniform_int_distribution<size_t>(0, b.size() - 1)(rng); };
    // Mutations concentrate in the first 4 KiB half of the time: that is where headers and counts live.
    auto head_pos = [&] { return std::uniform_int_distribution<size_t>(0, std::min<size_t>(b.size(), 4096) - 1)(rng); };
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
        case 0: {  // byte flips
            int n = std::uniform_int_distribution<int>(1, 16)(rng);
            for (int i = 0; i < n; ++i) b[(rng() & 1) ? head_pos() : pos()] ^= uint8_t(1u << (rng() % 8));
            break;
        }
        case 1:  // truncation
            b.resize(pos());
            break;
        case 2: {  // a 32-bit field overwritten with a huge value
            size_t at = head_pos() & ~size_t(3);
            const uint32_t values[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x10000000u, 0};
            uint32_t v = values[rng() % 5];
            if (at + 4 <= b.size()) std::memcpy(b.data() + at, &v, 4);
            break;
        }
        case 3: {  // a decimal number in text replaced by a huge or negative one
            if (!text) {
                b[pos()] = uint8_t(rng());
                break;
            }
            size_t at = (rng() & 1) ? head_pos() : pos();
            while (at < b.size() && !std::isdigit(b[at])) ++at;
            const char* repl[] = {"4294967295", "99999999999999999999", "-1", "1e39", "nan", "-2147483648"};
            std::string r = repl[rng() % 6];
            size_t end = at;
            while (end < b.size() && std::isdigit(b[end])) ++end;
            if (at < b.size()) {
                b.erase(b.begin() + long(at), b.begin() + long(end));
                b.insert(b.begin() + long(at), r.begin(), r.end());
            }
            break;
        }
        case 4: {  // a block duplicated or deleted
            size_t a = pos(), n = std::min<size_t>(b.size() - a, 1 + rng() % 256);
            if (rng() & 1) b.insert(b.begin() + long(a), src.begin() + long(a), src.begin() + long(a + n));
            else b.erase(b.begin() + long(a), b.begin() + long(a + n));
            break;
        }
        default: {  // random garbage spliced in
            size_t a = pos();
            for (size_t i = 0; i < 64 && a + i < b.size(); ++i) b[a + i] = uint8_t(rng());
            break;
        }
    }
    return b;
}

struct Seed {
    std::string name;  // file name written to the scratch dir (the extension picks the loader)
    std::vector<uint8_t> bytes;
    bool text;
    int iterations;
};

TEST(FuzzLoaders, MutatedRealFilesNeverCrash) {
    const fs::path dir = test::scratch_dir("fuzz_loaders");
    std::vector<Seed> seeds;
    seeds.push_back({"m.glb", read(test::testdata("gltf/RiggedFigure.glb")), false, 150});
    seeds.push_back({"m.ply", octahedron_ply(), false, 120});
    seeds.push_back({"m.obj", read(test::testdata("meshes/icosphere.obj")), true, 120});
    seeds.push_back({"m.tfxmesh", read(test::testdata("tressfx/Ratboy_left_hand.tfxmesh")), true, 60});
    std::mt19937 rng(20240611u);
    for (const auto& seed : seeds) {
        ASSERT_FALSE(seed.bytes.empty());
        // The unmutated seed imports.
        ASSERT_TRUE(write_file_atomic(dir / seed.name, std::span<const uint8_t>(seed.bytes)).ok());
        auto base = import_mesh_file(dir / seed.name);
        ASSERT_TRUE(base.ok()) << seed.name << ": " << base.error().describe();
        size_t accepted = 0, rejected = 0;
        for (int it = 0; it < seed.iterations; ++it) {
            SCOPED_TRACE(seed.name + " mutation " + std::to_string(it));
            std::vector<uint8_t> m = mutate(seed.bytes, rng, seed.text);
            if (rng() % 4 == 0) m = mutate(m, rng, seed.text);
            ASSERT_TRUE(write_file_atomic(dir / seed.name, std::span<const uint8_t>(m)).ok());
            auto r = import_mesh_file(dir / seed.name);
            if (r.ok()) {
                ++accepted;
                check_scene(*r);
            } else {
                ++rejected;
                ASSERT_FALSE(r.error().message.empty());
                ASSERT_NE(r.error().message.find(seed.name), std::string::npos) << r.error().message;
            }
        }
        EXPECT_GT(rejected, 0u) << seed.name;
        RecordProperty(seed.name + "_accepted", int(accepted));
    }
}

}  // namespace
}  // namespace tressel
