// Spark's per-row string functions that Arrow's kernels do not provide: ascii, chr,
// find_in_set, levenshtein, luhn_check, mask, quote, soundex, space, split_part,
// substring_index, translate, url_encode / url_decode, the UTF-8 checks, base64 / unbase64 and
// the digests (md5, sha1, sha2, crc32).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <clocale>
#include <cwctype>
#include <string>
#include <vector>

#include "arrow/util/base64.h"
#include "arrow/util/crc32.h"
#include "arrow/util/utf8.h"
#include "kernels/kernels.h"
#include "kernels/row_kernel.h"
#include "kernels/utf8_text.h"
#include "openssl/evp.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using kernels::Bytes;
using kernels::BytesView;
using kernels::CodePoints;
using kernels::RegisterRowFunction;
using Text = std::optional<std::string>;

std::string FromCodePoints(const std::vector<uint32_t>& codes) {
  std::string out;
  for (uint32_t code : codes) kernels::AppendCodePoint(code, &out);
  return out;
}

int32_t Levenshtein(std::string_view left, std::string_view right) {
  auto a = CodePoints(left);
  auto b = CodePoints(right);
  std::vector<int32_t> previous(b.size() + 1);
  std::vector<int32_t> current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int32_t>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int32_t>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int32_t substitute = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

// Spark's soundex: a letter then three digits; text not led by a letter is returned as it is.
std::string Soundex(std::string_view text) {
  static constexpr char kCodes[] = "01230120022455012623010202";  // A..Z
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0])) ||
      static_cast<unsigned char>(text[0]) >= 0x80) {
    return std::string(text);
  }
  std::string out(1, static_cast<char>(std::toupper(static_cast<unsigned char>(text[0]))));
  char last = kCodes[out[0] - 'A'];
  for (size_t i = 1; i < text.size() && out.size() < 4; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80 || !std::isalpha(c)) {
      last = '0';
      continue;
    }
    char upper = static_cast<char>(std::toupper(c));
    char code = kCodes[upper - 'A'];
    if (code != '0' && code != last) out.push_back(code);
    // H and W do not separate letters of one code.
    if (upper != 'H' && upper != 'W') last = code;
  }
  out.resize(4, '0');
  return out;
}

// Character classes as Java's Character.isUpperCase / isLowerCase / isDigit see them, from the
// C library's Unicode tables.
locale_t UnicodeLocale() {
  static locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  return locale;
}

// mask(text, upper, lower, digit, other): each replacement is one character, or "" to keep.
std::string Mask(std::string_view text, std::string_view upper, std::string_view lower,
                 std::string_view digit, std::string_view other) {
  std::string out;
  for (uint32_t code : CodePoints(text)) {
    auto wide = static_cast<wint_t>(code);
    std::string_view replacement = iswupper_l(wide, UnicodeLocale())   ? upper
                                   : iswlower_l(wide, UnicodeLocale()) ? lower
                                   : iswdigit_l(wide, UnicodeLocale()) ? digit
                                                                       : other;
    if (replacement.empty()) {
      kernels::AppendCodePoint(code, &out);
    } else {
      out.append(replacement);
    }
  }
  return out;
}

std::string Translate(std::string_view text, std::string_view from, std::string_view to) {
  auto sources = CodePoints(from);
  auto targets = CodePoints(to);
  std::vector<uint32_t> out;
  for (uint32_t code : CodePoints(text)) {
    auto found = std::find(sources.begin(), sources.end(), code);
    if (found == sources.end()) {
      out.push_back(code);
      continue;
    }
    size_t index = static_cast<size_t>(found - sources.begin());
    if (index < targets.size()) out.push_back(targets[index]);
  }
  return FromCodePoints(out);
}

std::string SubstringIndex(std::string_view text, std::string_view delimiter, int32_t count) {
  if (count == 0 || delimiter.empty()) return "";
  if (count > 0) {
    size_t at = 0;
    for (int32_t seen = 0; seen < count; ++seen) {
      size_t found = text.find(delimiter, seen == 0 ? 0 : at + delimiter.size());
      if (found == std::string_view::npos) return std::string(text);
      at = found;
    }
    return std::string(text.substr(0, at));
  }
  size_t at = text.size();
  for (int32_t seen = 0; seen < -count; ++seen) {
    if (at == 0) return std::string(text);
    size_t found = text.rfind(delimiter, at - 1);
    if (found == std::string_view::npos) return std::string(text);
    at = found;
  }
  return std::string(text.substr(at + delimiter.size()));
}

Result<Text> SplitPart(std::string_view text, std::string_view delimiter, int32_t index) {
  if (index == 0) {
    return MakeError(arrow::StatusCode::Invalid, "INVALID_INDEX_OF_ZERO",
                     "The index 0 is invalid. An index shall be either < 0 or > 0 (the first "
                     "element has index 1).");
  }
  std::vector<std::string_view> parts;
  if (delimiter.empty()) {
    parts.push_back(text);
  } else {
    size_t start = 0;
    while (true) {
      size_t found = text.find(delimiter, start);
      parts.push_back(text.substr(start, found == std::string_view::npos ? found : found - start));
      if (found == std::string_view::npos) break;
      start = found + delimiter.size();
    }
  }
  auto count = static_cast<int64_t>(parts.size());
  int64_t at = index > 0 ? index - 1 : count + index;
  if (at < 0 || at >= count) return Text("");
  return Text(std::string(parts[at]));
}

bool LuhnCheck(std::string_view digits) {
  if (digits.empty()) return false;
  int sum = 0;
  bool twice = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (!std::isdigit(static_cast<unsigned char>(*it))) return false;
    int digit = *it - '0';
    if (twice) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
    twice = !twice;
  }
  return sum % 10 == 0;
}

// java.net.URLEncoder with UTF-8: letters, digits and . - * _ stay, a space is '+'.
std::string UrlEncode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) && c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c == '.' || c == '-' || c == '*' || c == '_') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<Text> UrlDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] == '%') {
      int high = i + 1 < text.size() ? HexDigit(text[i + 1]) : -1;
      int low = i + 2 < text.size() ? HexDigit(text[i + 2]) : -1;
      if (high < 0 || low < 0) {
        return MakeError(arrow::StatusCode::Invalid, "CANNOT_DECODE_URL",
                         fmt::format("The provided URL cannot be decoded: {}. Please ensure that "
                                     "the URL is properly formatted and try again.",
                                     text));
      }
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return Text(std::move(out));
}

Result<std::optional<Bytes>> Unbase64(std::string_view text) {
  // As Java's MIME decoder: characters outside the alphabet are skipped, '=' ends the data.
  std::string kept;
  for (char c : text) {
    if (c == '=') break;
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/') kept.push_back(c);
  }
  if (kept.size() % 4 == 1) {
    return MakeError(arrow::StatusCode::Invalid, "CONVERSION_INVALID_INPUT",
                     fmt::format("The value '{}' (\"BASE64\") cannot be converted to \"BINARY\" "
                                 "because it is malformed: its last unit does not have enough "
                                 "valid bits.",
                                 text));
  }
  kept.append((4 - kept.size() % 4) % 4, '=');
  ARROW_ASSIGN_OR_RAISE(auto bytes, arrow::util::base64_decode(kept));
  return std::optional<Bytes>(Bytes{std::move(bytes)});
}

// base64 as Spark writes it: MIME lines of 76 characters separated by CRLF.
std::string Base64(std::string_view bytes) {
  std::string encoded = arrow::util::base64_encode(bytes);
  std::string out;
  for (size_t i = 0; i < encoded.size(); i += 76) {
    if (i > 0) out += "\r\n";
    out += encoded.substr(i, 76);
  }
  return out;
}

std::string Digest(const EVP_MD* algorithm, std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, algorithm, nullptr);
  std::string out;
  for (unsigned int i = 0; i < length; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

Text Sha2(std::string_view bytes, int32_t bits) {
  switch (bits) {
    case 0:
    case 256: return Digest(EVP_sha256(), bytes);
    case 224: return Digest(EVP_sha224(), bytes);
    case 384: return Digest(EVP_sha384(), bytes);
    case 512: return Digest(EVP_sha512(), bytes);
    default: return std::nullopt;
  }
}

Result<Text> ValidateUtf8(BytesView value) {
  if (arrow::util::ValidateUTF8(value.bytes)) return Text(std::string(value.bytes));
  std::string shown;
  for (unsigned char c : value.bytes) {
    shown += c < 0x80 ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02X}", c);
  }
  return MakeError(arrow::StatusCode::Invalid, "INVALID_UTF8_STRING",
                   fmt::format("Invalid UTF8 byte sequence found in string: {}.", shown));
}

}  // namespace

namespace kernels {

Status RegisterTextKernels(cp::FunctionRegistry* registry) {
  using SV = std::string_view;
  arrow::util::InitializeUTF8();
  // Template arguments have commas, which a macro argument cannot: register, then check.
  const Status registered[] = {
      RegisterRowFunction<int32_t, SV>(
          registry, "parley_ascii",
          [](SV text) {
            auto codes = CodePoints(text.substr(0, std::min<size_t>(text.size(), 4)));
            return std::optional<int32_t>(codes.empty() ? 0 : static_cast<int32_t>(codes[0]));
          },
          "Spark's ascii"),
      RegisterRowFunction<std::string, int64_t>(
          registry, "parley_chr",
          [](int64_t code) {
            std::string out;
            if (code >= 0) AppendCodePoint(static_cast<uint32_t>(code & 0xFF), &out);
            return std::optional(out);
          },
          "Spark's chr"),
      RegisterRowFunction<int32_t, SV, SV>(
          registry, "parley_find_in_set",
          [](SV needle, SV list) -> std::optional<int32_t> {
            if (needle.find(',') != SV::npos) return 0;
            int32_t index = 1;
            size_t start = 0;
            while (true) {
              size_t comma = list.find(',', start);
              if (list.substr(start, comma == SV::npos ? comma : comma - start) == needle) {
                return index;
              }
              if (comma == SV::npos) return 0;
              start = comma + 1;
              ++index;
            }
          },
          "Spark's find_in_set"),
      RegisterRowFunction<int32_t, SV, SV>(
          registry, "parley_levenshtein",
          [](SV left, SV right) { return std::optional(Levenshtein(left, right)); },
          "Edit distance in characters"),
      RegisterRowFunction<int32_t, SV, SV, int32_t>(
          registry, "parley_levenshtein_within",
          [](SV left, SV right, int32_t threshold) {
            int32_t distance = Levenshtein(left, right);
            return std::optional(distance > threshold ? -1 : distance);
          },
          "Edit distance in characters, -1 past a threshold"),
      RegisterRowFunction<bool, SV>(
          registry, "parley_luhn_check", [](SV text) { return std::optional(LuhnCheck(text)); },
          "The Luhn checksum of digits"),
      RegisterRowFunction<std::string, SV, SV, SV, SV, SV>(
          registry, "parley_mask",
          [](SV text, SV upper, SV lower, SV digit, SV other) {
            return std::optional(Mask(text, upper, lower, digit, other));
          },
          "Spark's mask"),
      RegisterRowFunction<std::string, SV>(
          registry, "parley_quote",
          [](SV text) {
            std::string out = "'";
            for (char c : text) {
              if (c == '\'') out.push_back('\\');
              out.push_back(c);
            }
            return std::optional(out + "'");
          },
          "Spark's quote"),
      RegisterRowFunction<std::string, SV>(
          registry, "parley_soundex", [](SV text) { return std::optional(Soundex(text)); },
          "Spark's soundex"),
      RegisterRowFunction<std::string, int32_t>(
          registry, "parley_space",
          [](int32_t count) { return std::optional(std::string(std::max(count, 0), ' ')); },
          "Spaces"),
      RegisterRowFunction<std::string, SV, SV, int32_t>(
          registry, "parley_split_part",
          [](SV text, SV delimiter, int32_t index) { return SplitPart(text, delimiter, index); },
          "Spark's split_part"),
      RegisterRowFunction<std::string, SV, SV, int32_t>(
          registry, "parley_substring_index",
          [](SV text, SV delimiter, int32_t count) {
            return std::optional(SubstringIndex(text, delimiter, count));
          },
          "Spark's substring_index"),
      RegisterRowFunction<std::string, SV, SV, SV>(
          registry, "parley_translate",
          [](SV text, SV from, SV to) { return std::optional(Translate(text, from, to)); },
          "Spark's translate"),
      RegisterRowFunction<std::string, SV>(
          registry, "parley_url_encode", [](SV text) { return std::optional(UrlEncode(text)); },
          "URL encoding as java.net.URLEncoder"),
      RegisterRowFunction<std::string, SV>(
          registry, "parley_url_decode", [](SV text) { return UrlDecode(text); }, "URL decoding"),
      RegisterRowFunction<bool, BytesView>(
          registry, "parley_is_valid_utf8",
          [](BytesView value) { return std::optional(arrow::util::ValidateUTF8(value.bytes)); },
          "Whether bytes are valid UTF-8"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_make_valid_utf8",
          [](BytesView value) { return std::optional(MakeValidUtf8(value.bytes)); },
          "Invalid UTF-8 replaced"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_validate_utf8", [](BytesView value) { return ValidateUtf8(value); },
          "Valid UTF-8 or INVALID_UTF8_STRING"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_try_validate_utf8",
          [](BytesView value) -> Text {
            if (!arrow::util::ValidateUTF8(value.bytes)) return std::nullopt;
            return std::string(value.bytes);
          },
          "Valid UTF-8 or NULL"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_base64",
          [](BytesView value) { return std::optional(Base64(value.bytes)); }, "Spark's base64"),
      RegisterRowFunction<Bytes, SV>(
          registry, "parley_unbase64", [](SV text) { return Unbase64(text); }, "Spark's unbase64"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_md5",
          [](BytesView value) { return std::optional(Digest(EVP_md5(), value.bytes)); }, "MD5"),
      RegisterRowFunction<std::string, BytesView>(
          registry, "parley_sha1",
          [](BytesView value) { return std::optional(Digest(EVP_sha1(), value.bytes)); }, "SHA-1"),
      RegisterRowFunction<std::string, BytesView, int32_t>(
          registry, "parley_sha2",
          [](BytesView value, int32_t bits) { return Sha2(value.bytes, bits); }, "SHA-2"),
      RegisterRowFunction<int64_t, BytesView>(
          registry, "parley_crc32",
          [](BytesView value) {
            return std::optional<int64_t>(
                arrow::internal::crc32(0, value.bytes.data(), value.bytes.size()));
          },
          "CRC-32"),
  };
  for (const auto& status : registered) ARROW_RETURN_NOT_OK(status);
  return Status::OK();
}

}  // namespace kernels
}  // namespace parley
