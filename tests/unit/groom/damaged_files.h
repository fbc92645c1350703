// What every decoder of the project's own binary files (.tguides, .tpaint) must refuse, naming the file:
// the file cut in half, one too short for its header, a byte flipped after writing, a count in the header
// inflated past the file.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tressel::test {

// `decode(bytes)` returns a Result; `name` is the file name it was given; `not_a_file` the words of its
// wrong-header message; `count_offset` where a u32 count sits in the header.
template <class Decode>
void expect_damaged_files_refused(const std::vector<uint8_t>& bytes, const std::string& name, const std::string& not_a_file, size_t count_offset,
                                  Decode decode) {
    auto expect_error = [&](const std::vector<uint8_t>& b, const std::string& word) {
        auto r = decode(b);
        ASSERT_FALSE(r.ok()) << word;
        EXPECT_NE(r.error().message.find(name), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find(word), std::string::npos) << r.error().message;
    };
    expect_error(std::vector<uint8_t>(bytes.begin(), bytes.begin() + long(bytes.size() / 2)), "truncated");
    expect_error(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 10), not_a_file);
    std::vector<uint8_t> flipped = bytes;
    flipped[bytes.size() / 2] ^= 0x10;
    expect_error(flipped, "checksum");
    std::vector<uint8_t> huge = bytes;
    huge[count_offset] = 0xff, huge[count_offset + 1] = 0xff, huge[count_offset + 2] = 0xff, huge[count_offset + 3] = 0x7f;
    expect_error(huge, "truncated");
}

}  // namespace tressel::test
