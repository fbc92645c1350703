// Little-endian byte writing and bounds-checked reading shared by the binary exporters and their
// readers (.tfx, .tfxbone). Internal to engine/io.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace tressel::io_bytes {

inline void put_u32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_i32(std::vector<uint8_t>& out, int32_t v) { put_u32(out, static_cast<uint32_t>(v)); }
inline void put_f32(std::vector<uint8_t>& out, float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    put_u32(out, u);
}
inline void patch_u32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Sequential reader: every read checks the remaining size first; `ok` turns false (and stays false) on
// the first read past the end, and the reads then return 0.
class Reader {
public:
    explicit Reader(std::span<const uint8_t> bytes) : b_(bytes) {}
    bool ok() const { return ok_; }
    size_t offset() const { return at_; }
    size_t remaining() const { return b_.size() - at_; }
    uint32_t u32() {
        if (!take(4)) return 0;
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(b_[at_ - 4 + i]) << (8 * i);
        return v;
    }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    float f32() {
        const uint32_t u = u32();
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    std::string chars(size_t n) {
        if (!take(n)) return {};
        return std::string(reinterpret_cast<const char*>(b_.data() + at_ - n), n);
    }

private:
    bool take(size_t n) {
        if (!ok_ || n > remaining()) {
            ok_ = false;
            return false;
        }
        at_ += n;
        return true;
    }
    std::span<const uint8_t> b_;
    size_t at_ = 0;
    bool ok_ = true;
};

}  // namespace tressel::io_bytes
