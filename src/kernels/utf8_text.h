// UTF-8 text as code points: what the per-character string functions (translate, levenshtein,
// mask, soundex...) need that Arrow's kernels do not expose.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley::kernels {

/// \brief The code points of valid UTF-8 `text`.
std::vector<uint32_t> CodePoints(std::string_view text);

/// \brief Append the UTF-8 encoding of code point `code` to `out`.
void AppendCodePoint(uint32_t code, std::string* out);

/// \brief `bytes` with each invalid UTF-8 sequence replaced by U+FFFD, as Spark's
/// make_valid_utf8 does.
std::string MakeValidUtf8(std::string_view bytes);

}  // namespace parley::kernels
