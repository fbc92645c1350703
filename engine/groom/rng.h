// Deterministic random numbers for grooming. The same (seed, stream, index) gives the same bits on every
// compiler and machine: splitmix64 (Steele, Lea, Flood 2014) for seeding and PCG32 (O'Neill 2014,
// XSH-RR variant) for streams. Never use <random> distributions here: their output is
// implementation-defined.
#pragma once

#include <cstdint>

namespace tressel::groom_rng {

inline uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Mixes a user seed, a stream tag (which operation draws) and an item index (strand, sample) into a
// 64-bit state, so every item's numbers are independent of the order items are processed in.
inline uint64_t hash_seed(uint64_t seed, uint64_t stream, uint64_t index) {
    return splitmix64(splitmix64(splitmix64(seed) ^ stream) ^ index);
}

class Pcg32 {
public:
    explicit Pcg32(uint64_t seed, uint64_t sequence = 0x14057B7EF767814Full) {
        inc_ = (sequence << 1u) | 1u;
        state_ = 0;
        next_u32();
        state_ += seed;
        next_u32();
    }
    uint32_t next_u32() {
        uint64_t old = state_;
        state_ = old * 6364136223846793005ull + inc_;
        uint32_t xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
        uint32_t rot = static_cast<uint32_t>(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
    }
    // Uniform in [0, 1): 24 random bits, exactly representable as float.
    float next_float() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }
    // Uniform in [0, 1): 53 random bits.
    double next_double() {
        uint64_t hi = next_u32() >> 5, lo = next_u32() >> 6;
        return static_cast<double>((hi << 26) | lo) * (1.0 / 9007199254740992.0);
    }
    // Uniform integer in [0, bound) without modulo bias (Lemire's rejection on the low bits).
    uint32_t next_below(uint32_t bound) {
        if (bound <= 1) return 0;
        uint32_t threshold = (0u - bound) % bound;
        for (;;) {
            uint32_t r = next_u32();
            if (r >= threshold) return r % bound;
        }
    }

private:
    uint64_t state_ = 0;
    uint64_t inc_ = 0;
};

// Stream tags: one per kind of draw, so adding a draw to one operation never shifts another's numbers.
enum Stream : uint64_t {
    kStreamPlacement = 0x706C6163ull,
    kStreamPoisson = 0x706F6973ull,
    kStreamShape = 0x73686170ull,
    kStreamFollowTressFX = 0x74667866ull,
    kStreamFollowBary = 0x62617279ull,
    kStreamBrush = 0x62727368ull,
    kStreamPainted = 0x706E7464ull,
};

inline Pcg32 item_rng(uint64_t seed, Stream stream, uint64_t index) { return Pcg32(hash_seed(seed, stream, index)); }

}  // namespace tressel::groom_rng
