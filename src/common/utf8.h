// UTF-8 validity, byte by byte: what the text escapers (terminal, shell
// quoting) need to tell a character from a stray byte. Strict (RFC 3629):
// no overlong forms, no surrogates, nothing above U+10FFFF. Pure.
#pragma once

#include <cstddef>
#include <string_view>

namespace flashmark {

// The length (1..4) of the valid UTF-8 sequence starting at text[i]; 0
// when the bytes there are not one. i < text.size().
size_t Utf8SequenceLength(std::string_view text, size_t i);

bool IsValidUtf8(std::string_view text);

}  // namespace flashmark
