// SHA-256 of a campaign file's bytes, so `flashmark sweep --resume` can
// tell a changed file from the one the campaign was started with. A small
// self-contained FIPS 180-4 implementation: the build links no crypto
// library (OpenSSL's EVP_Digest would do the same if it ever is). Pure;
// thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace flashmark {

// 64 lowercase hex digits.
std::string Sha256Hex(std::string_view bytes);

// The same digest over bytes given piece by piece (a file read in blocks):
// Update() any number of times, then Hex(). A value type; not thread-safe.
class Sha256 {
 public:
  void Update(std::string_view bytes);
  std::string Hex() const;  // of everything so far

 private:
  std::array<uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                 0xa54ff53a, 0x510e527f, 0x9b05688c,
                                 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> block_{};
  size_t buffered_ = 0;
  uint64_t length_ = 0;
};

}  // namespace flashmark
