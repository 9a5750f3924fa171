// SHA-256 of a campaign file's bytes, so `flashmark sweep --resume` can
// tell a changed file from the one the campaign was started with. A small
// self-contained FIPS 180-4 implementation: the build links no crypto
// library (OpenSSL's EVP_Digest would do the same if it ever is). Pure;
// thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace flashmark {

// 64 lowercase hex digits.
std::string Sha256Hex(std::string_view bytes);

}  // namespace flashmark
