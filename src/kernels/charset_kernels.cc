// Spark's encode and decode between strings and the bytes of a character set: US-ASCII,
// ISO-8859-1, UTF-8, UTF-16 (big-endian with a byte-order mark when encoding; the mark read, if
// any, when decoding), UTF-16BE, UTF-16LE and UTF-32 (big-endian), named in any case. A
// character the set cannot hold, or bytes that are not a valid encoding, fail with
// MALFORMED_CHARACTER_CODING; another name with INVALID_PARAMETER_VALUE.CHARSET.
//   parley_encode(utf8, utf8 charset) -> binary
//   parley_decode(binary, utf8 charset) -> utf8
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "arrow/util/utf8.h"
#include "kernels/kernel_support.h"
#include "kernels/row_kernel.h"
#include "kernels/utf8_text.h"

namespace parley {
namespace {

enum class Charset { kUsAscii, kIso88591, kUtf8, kUtf16, kUtf16Be, kUtf16Le, kUtf32 };

Result<Charset> CharsetNamed(std::string_view given, const char* function) {
  std::string name(given);
  std::transform(name.begin(), name.end(), name.begin(), ::tolower);
  if (name == "us-ascii") return Charset::kUsAscii;
  if (name == "iso-8859-1") return Charset::kIso88591;
  if (name == "utf-8") return Charset::kUtf8;
  if (name == "utf-16") return Charset::kUtf16;
  if (name == "utf-16be") return Charset::kUtf16Be;
  if (name == "utf-16le") return Charset::kUtf16Le;
  if (name == "utf-32") return Charset::kUtf32;
  return MakeError(arrow::StatusCode::Invalid, "INVALID_PARAMETER_VALUE.CHARSET",
                   fmt::format("The value of parameter(s) `charset` in `{}` is invalid: expects "
                               "one of the iso-8859-1, us-ascii, utf-16, utf-16be, utf-16le, "
                               "utf-32, utf-8, but got {}.",
                               function, given));
}

Status Malformed(const char* function, std::string_view charset) {
  return MakeError(
      arrow::StatusCode::Invalid, "MALFORMED_CHARACTER_CODING",
      fmt::format("Invalid value found when performing `{}` with {}", function, charset));
}

void AppendUnit(uint32_t unit, int bytes, bool big_endian, std::string* out) {
  for (int i = 0; i < bytes; ++i) {
    int shift = big_endian ? 8 * (bytes - 1 - i) : 8 * i;
    out->push_back(static_cast<char>((unit >> shift) & 0xFF));
  }
}

Result<std::optional<kernels::Bytes>> Encode(std::string_view text, std::string_view name) {
  ARROW_ASSIGN_OR_RAISE(auto charset, CharsetNamed(name, "encode"));
  if (charset == Charset::kUtf8) return kernels::Bytes{std::string(text)};
  std::string out;
  if (charset == Charset::kUtf16) AppendUnit(0xFEFF, 2, true, &out);
  for (uint32_t code : kernels::CodePoints(text)) {
    switch (charset) {
      case Charset::kUsAscii:
      case Charset::kIso88591:
        if (code > (charset == Charset::kUsAscii ? 0x7Fu : 0xFFu)) {
          return Malformed("encode", name);
        }
        out.push_back(static_cast<char>(code));
        break;
      case Charset::kUtf32: AppendUnit(code, 4, true, &out); break;
      default: {
        bool big_endian = charset != Charset::kUtf16Le;
        if (code >= 0x10000) {
          uint32_t offset = code - 0x10000;
          AppendUnit(0xD800 + (offset >> 10), 2, big_endian, &out);
          AppendUnit(0xDC00 + (offset & 0x3FF), 2, big_endian, &out);
        } else {
          AppendUnit(code, 2, big_endian, &out);
        }
      }
    }
  }
  return kernels::Bytes{std::move(out)};
}

uint32_t ReadUnit(std::string_view bytes, size_t at, int width, bool big_endian) {
  uint32_t unit = 0;
  for (int i = 0; i < width; ++i) {
    auto byte = static_cast<uint8_t>(bytes[at + i]);
    unit |= static_cast<uint32_t>(byte) << (big_endian ? 8 * (width - 1 - i) : 8 * i);
  }
  return unit;
}

Result<std::optional<std::string>> Decode(kernels::BytesView input, std::string_view name) {
  ARROW_ASSIGN_OR_RAISE(auto charset, CharsetNamed(name, "decode"));
  std::string_view bytes = input.bytes;
  std::string out;
  switch (charset) {
    case Charset::kUtf8:
      if (!arrow::util::ValidateUTF8(bytes)) return Malformed("decode", name);
      return std::string(bytes);
    case Charset::kUsAscii:
    case Charset::kIso88591:
      for (char c : bytes) {
        auto byte = static_cast<uint8_t>(c);
        if (charset == Charset::kUsAscii && byte > 0x7F) return Malformed("decode", name);
        kernels::AppendCodePoint(byte, &out);
      }
      return out;
    case Charset::kUtf32:
      if (bytes.size() % 4 != 0) return Malformed("decode", name);
      for (size_t at = 0; at < bytes.size(); at += 4) {
        uint32_t code = ReadUnit(bytes, at, 4, true);
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          return Malformed("decode", name);
        }
        kernels::AppendCodePoint(code, &out);
      }
      return out;
    default: {
      bool big_endian = charset != Charset::kUtf16Le;
      size_t at = 0;
      if (charset == Charset::kUtf16 && bytes.size() >= 2) {
        uint32_t mark = ReadUnit(bytes, 0, 2, true);
        if (mark == 0xFEFF || mark == 0xFFFE) {
          big_endian = mark == 0xFEFF;
          at = 2;
        }
      }
      if ((bytes.size() - at) % 2 != 0) return Malformed("decode", name);
      for (; at < bytes.size(); at += 2) {
        uint32_t unit = ReadUnit(bytes, at, 2, big_endian);
        if (unit >= 0xDC00 && unit <= 0xDFFF) return Malformed("decode", name);
        if (unit >= 0xD800 && unit <= 0xDBFF) {
          if (at + 4 > bytes.size()) return Malformed("decode", name);
          uint32_t low = ReadUnit(bytes, at + 2, 2, big_endian);
          if (low < 0xDC00 || low > 0xDFFF) return Malformed("decode", name);
          unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
          at += 2;
        }
        kernels::AppendCodePoint(unit, &out);
      }
      return out;
    }
  }
}

}  // namespace

namespace kernels {

Status RegisterCharsetKernels(arrow::compute::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK((RegisterRowFunction<Bytes, std::string_view, std::string_view>(
      registry, "parley_encode",
      [](std::string_view text, std::string_view name) { return Encode(text, name); },
      "Spark's encode")));
  return RegisterRowFunction<std::string, BytesView, std::string_view>(
      registry, "parley_decode",
      [](BytesView bytes, std::string_view name) { return Decode(bytes, name); },
      "Spark's decode of bytes in a character set");
}

}  // namespace kernels
}  // namespace parley
