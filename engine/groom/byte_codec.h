// Little-endian byte writing and bounds-checked reading for the project's own binary files (.tguides,
// .tpaint), and the FNV-1a 64 checksum they end with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tressel::bytes {

inline uint64_t fnv1a(const uint8_t* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

struct Writer {
    std::vector<uint8_t>& out;
    template <class T>
    void put(const T& v) {
        const size_t at = out.size();
        out.resize(at + sizeof(T));
        std::memcpy(out.data() + at, &v, sizeof(T));
    }
    void floats(const float* f, size_t n) {
        if (n == 0) return;
        const size_t at = out.size();
        out.resize(at + 4 * n);
        std::memcpy(out.data() + at, f, 4 * n);
    }
    // Appends the checksum of every byte written so far.
    void seal() { put(fnv1a(out.data(), out.size())); }
};

struct Reader {
    const std::vector<uint8_t>& in;
    size_t at = 0;
    bool take(void* dst, size_t n) {
        if (n > in.size() - at) return false;
        if (n) std::memcpy(dst, in.data() + at, n);
        at += n;
        return true;
    }
};

// Whether the last 8 bytes are the checksum of the ones before them.
inline bool sealed(const std::vector<uint8_t>& b) {
    if (b.size() < 8) return false;
    uint64_t stored = 0;
    std::memcpy(&stored, b.data() + b.size() - 8, 8);
    return stored == fnv1a(b.data(), b.size() - 8);
}

}  // namespace tressel::bytes
