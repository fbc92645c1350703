#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/units.h"
#include "test_paths.h"

namespace tressel {
namespace {

TEST(FileIo, AtomicWriteReplacesAndLeavesNoTemporary) {
    auto dir = test::scratch_dir("atomic_write");
    auto path = dir / "scene.json";
    ASSERT_TRUE(write_file_atomic(path, std::string_view("first")).ok());
    ASSERT_TRUE(write_file_atomic(path, std::string_view("second")).ok());
    auto text = read_file_text(path);
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(*text, "second");
    int entries = 0;
    for (auto& e : std::filesystem::directory_iterator(dir)) {
        (void)e;
        ++entries;
    }
    EXPECT_EQ(entries, 1) << "the temporary file must be renamed away";
}

TEST(FileIo, AtomicWriteToMissingDirectoryFailsAndKeepsNothing) {
    auto dir = test::scratch_dir("atomic_missing");
    auto r = write_file_atomic(dir / "no_such_dir" / "x.json", std::string_view("x"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::NotFound);
}

TEST(FileIo, ReadMissingAndOversized) {
    auto dir = test::scratch_dir("read_limits");
    auto missing = read_file_bytes(dir / "nope.bin");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
    ASSERT_TRUE(write_file_atomic(dir / "big.bin", std::string(1000, 'x')).ok());
    auto big = read_file_bytes(dir / "big.bin", 999);
    ASSERT_FALSE(big.ok());
    EXPECT_EQ(big.error().code, ErrorCode::LimitExceeded);
    EXPECT_NE(big.error().message.find("1000"), std::string::npos);
}

TEST(Units, ZUpToYUpAndCentimetres) {
    glm::dmat4 m = to_engine_space(LengthUnit::Centimetre, UpAxis::Z);
    glm::dvec4 up_in_file(0, 0, 100, 1);  // 1 m straight up in a Z-up cm file
    glm::dvec4 p = m * up_in_file;
    EXPECT_NEAR(p.x, 0.0, 1e-12);
    EXPECT_NEAR(p.y, 1.0, 1e-12);
    EXPECT_NEAR(p.z, 0.0, 1e-12);
    glm::dvec4 fwd = m * glm::dvec4(0, 100, 0, 1);  // +Y in a Z-up file points away: -Z in Y-up
    EXPECT_NEAR(fwd.z, -1.0, 1e-12);
    EXPECT_NEAR(glm::determinant(glm::dmat3(m)), 1e-6, 1e-12) << "must stay a proper rotation times scale^3";
}

}  // namespace
}  // namespace tressel
