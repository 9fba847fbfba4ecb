// The harness's random numbers: SplitMix64, a 64-bit generator a few instructions long. Every
// state fills a 12 KiB arena, so the generator's speed is most of the harness's own cost
// (std::mt19937_64 made state generation slower than running both sides).
#pragma once

#include <cstdint>

namespace hoist::test {

class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }

  /// Uniform enough below `bound` for test inputs (the modulo bias is far below 2^-50).
  uint64_t below(uint64_t bound) { return next() % bound; }

private:
  uint64_t state_;
};

} // namespace hoist::test
