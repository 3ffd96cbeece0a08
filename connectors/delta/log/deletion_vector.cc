// Deletion vectors: Z85, DV files and RoaringBitmapArray decoding (see deletion_vector.h).
#include "connectors/delta/log/deletion_vector.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "arrow/buffer.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/io/interfaces.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

constexpr uint32_t kPortableMagic = 1681511377;
constexpr uint32_t kNativeMagic = 1681511376;
constexpr uint32_t kRoaringSerialCookieNoRuns = 12346;
constexpr uint32_t kRoaringSerialCookie = 12347;
constexpr int kRoaringNoOffsetThreshold = 4;
constexpr uint32_t kArrayContainerMaxCardinality = 4096;

Status SizeMismatch(const std::string& source, const std::string& detail) {
  return InvalidError("DELTA_DELETION_VECTOR_SIZE_MISMATCH",
                      "Deletion vector integrity check failed for " + source + ": " + detail + ".");
}

// Reads fixed-width integers from a byte range, failing on overrun.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, bool little_endian)
      : bytes_(bytes), little_endian_(little_endian) {}

  bool Read(int width, uint64_t* value) {
    if (bytes_.size() - position_ < static_cast<size_t>(width)) return false;
    uint64_t out = 0;
    for (int i = 0; i < width; ++i) {
      uint64_t byte = static_cast<uint8_t>(bytes_[position_ + i]);
      out |= little_endian_ ? byte << (8 * i) : byte << (8 * (width - 1 - i));
    }
    position_ += width;
    *value = out;
    return true;
  }
  bool Skip(size_t count) {
    if (bytes_.size() - position_ < count) return false;
    position_ += count;
    return true;
  }
  size_t position() const { return position_; }
  std::string_view rest() const { return bytes_.substr(position_); }

 private:
  std::string_view bytes_;
  size_t position_ = 0;
  bool little_endian_;
};

// Decode one standard 32-bit Roaring bitmap (portable serialization, always little-endian)
// from the start of `reader`, adding `high | value` for each value.
Status DecodeRoaring32(ByteReader* reader, uint64_t high, const std::string& source,
                       std::vector<uint64_t>* out) {
  auto truncated = [&] { return SizeMismatch(source, "a Roaring bitmap ends early"); };
  uint64_t cookie = 0;
  if (!reader->Read(4, &cookie)) return truncated();
  uint64_t containers = 0;
  std::string run_flags;
  bool has_runs = (cookie & 0xFFFF) == kRoaringSerialCookie;
  if (has_runs) {
    containers = (cookie >> 16) + 1;
    size_t flag_bytes = (containers + 7) / 8;
    std::string_view rest = reader->rest();
    if (rest.size() < flag_bytes) return truncated();
    run_flags = std::string(rest.substr(0, flag_bytes));
    reader->Skip(flag_bytes);
  } else if (cookie == kRoaringSerialCookieNoRuns) {
    if (!reader->Read(4, &containers)) return truncated();
  } else {
    return SizeMismatch(source,
                        "a Roaring bitmap has the unknown cookie " + std::to_string(cookie));
  }
  std::vector<std::pair<uint64_t, uint64_t>> header;  // key, cardinality
  for (uint64_t i = 0; i < containers; ++i) {
    uint64_t key = 0, cardinality_minus_one = 0;
    if (!reader->Read(2, &key) || !reader->Read(2, &cardinality_minus_one)) return truncated();
    header.emplace_back(key, cardinality_minus_one + 1);
  }
  if (!has_runs || containers >= static_cast<uint64_t>(kRoaringNoOffsetThreshold)) {
    if (!reader->Skip(4 * containers)) return truncated();
  }
  for (uint64_t i = 0; i < containers; ++i) {
    uint64_t base = high | (header[i].first << 16);
    bool is_run = has_runs && (static_cast<uint8_t>(run_flags[i / 8]) >> (i % 8)) & 1;
    if (is_run) {
      uint64_t runs = 0;
      if (!reader->Read(2, &runs)) return truncated();
      for (uint64_t r = 0; r < runs; ++r) {
        uint64_t start = 0, length = 0;
        if (!reader->Read(2, &start) || !reader->Read(2, &length)) return truncated();
        for (uint64_t v = start; v <= start + length; ++v) out->push_back(base | v);
      }
    } else if (header[i].second <= kArrayContainerMaxCardinality) {
      for (uint64_t n = 0; n < header[i].second; ++n) {
        uint64_t value = 0;
        if (!reader->Read(2, &value)) return truncated();
        out->push_back(base | value);
      }
    } else {
      for (uint64_t word_index = 0; word_index < 1024; ++word_index) {
        uint64_t word = 0;
        if (!reader->Read(8, &word)) return truncated();
        while (word != 0) {
          int bit = __builtin_ctzll(word);
          out->push_back(base | (word_index * 64 + static_cast<uint64_t>(bit)));
          word &= word - 1;
        }
      }
    }
  }
  return Status::OK();
}

std::string UuidText(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[static_cast<uint8_t>(bytes[i]) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(bytes[i]) & 0xF]);
  }
  return out;
}

}  // namespace

uint32_t DeletionVectorChecksum(std::string_view bytes) {
  static const std::array<uint32_t, 256> kTable = [] {
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    return table;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (char byte : bytes) crc = kTable[(crc ^ static_cast<uint8_t>(byte)) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

Result<std::string> DecodeZ85(std::string_view text) {
  static const char kAlphabet[] =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  static const std::array<int, 256> kDigits = [] {
    std::array<int, 256> digits{};
    digits.fill(-1);
    for (int i = 0; i < 85; ++i) digits[static_cast<uint8_t>(kAlphabet[i])] = i;
    return digits;
  }();
  if (text.size() % 5 != 0) {
    return Status::Invalid("Z85 text of length ", text.size(), " is not a multiple of 5");
  }
  std::string out;
  out.reserve(text.size() / 5 * 4);
  for (size_t i = 0; i < text.size(); i += 5) {
    uint64_t value = 0;
    for (size_t k = 0; k < 5; ++k) {
      int digit = kDigits[static_cast<uint8_t>(text[i + k])];
      if (digit < 0) return Status::Invalid("'", text[i + k], "' is not a Z85 character");
      value = value * 85 + static_cast<uint64_t>(digit);
    }
    if (value > 0xFFFFFFFFu) return Status::Invalid("a Z85 group exceeds 32 bits");
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
  }
  return out;
}

Result<std::vector<uint64_t>> DecodeRoaringBitmapArray(std::string_view bytes,
                                                       const std::string& source) {
  std::vector<uint64_t> values;
  if (bytes.size() < 4) return SizeMismatch(source, "the bitmap has no magic number");
  ByteReader little(bytes, /*little_endian=*/true);
  ByteReader big(bytes, /*little_endian=*/false);
  uint64_t magic_le = 0, magic_be = 0;
  little.Read(4, &magic_le);
  big.Read(4, &magic_be);
  if (magic_le == kPortableMagic) {
    uint64_t buckets = 0;
    if (!little.Read(8, &buckets)) return SizeMismatch(source, "the bucket count is missing");
    for (uint64_t i = 0; i < buckets; ++i) {
      uint64_t key = 0;
      if (!little.Read(4, &key)) return SizeMismatch(source, "a bucket key is missing");
      ARROW_RETURN_NOT_OK(DecodeRoaring32(&little, key << 32, source, &values));
    }
  } else if (magic_le == kNativeMagic || magic_be == kNativeMagic) {
    ByteReader& framing = magic_le == kNativeMagic ? little : big;
    uint64_t bitmaps = 0;
    if (!framing.Read(4, &bitmaps)) return SizeMismatch(source, "the bitmap count is missing");
    for (uint64_t key = 0; key < bitmaps; ++key) {
      uint64_t length = 0;
      if (!framing.Read(4, &length)) return SizeMismatch(source, "a bitmap length is missing");
      std::string_view body = framing.rest().substr(0, length);
      if (body.size() != length) return SizeMismatch(source, "a bitmap ends early");
      ByteReader bitmap(body, /*little_endian=*/true);
      ARROW_RETURN_NOT_OK(DecodeRoaring32(&bitmap, key << 32, source, &values));
      framing.Skip(length);
    }
  } else {
    return SizeMismatch(
        source, "the magic number " + std::to_string(magic_le) + " is not a RoaringBitmapArray's");
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

Result<std::string> DeletionVectorPath(const std::string& table_root,
                                       const DeletionVectorDescriptor& descriptor) {
  if (descriptor.storage_type == "p")
    return ResolveDataPath(table_root, descriptor.path_or_inline_dv);
  const std::string& text = descriptor.path_or_inline_dv;
  if (descriptor.storage_type != "u" || text.size() < 20) {
    return Status::Invalid("the deletion vector descriptor '", descriptor.UniqueId(),
                           "' does not name a file");
  }
  std::string prefix = text.substr(0, text.size() - 20);
  ARROW_ASSIGN_OR_RAISE(std::string uuid, DecodeZ85(text.substr(text.size() - 20)));
  std::string dir = prefix.empty() ? table_root : table_root + "/" + prefix;
  return dir + "/deletion_vector_" + UuidText(uuid) + ".bin";
}

Result<std::vector<uint64_t>> LoadDeletionVector(arrow::fs::FileSystem& filesystem,
                                                 const std::string& table_root,
                                                 const DeletionVectorDescriptor& descriptor) {
  if (descriptor.storage_type == "i") {
    ARROW_ASSIGN_OR_RAISE(std::string bytes, DecodeZ85(descriptor.path_or_inline_dv));
    if (bytes.size() < static_cast<size_t>(descriptor.size_in_bytes)) {
      return SizeMismatch("the inline deletion vector", "it is shorter than sizeInBytes");
    }
    bytes.resize(static_cast<size_t>(descriptor.size_in_bytes));
    return DecodeRoaringBitmapArray(bytes, "the inline deletion vector");
  }
  ARROW_ASSIGN_OR_RAISE(std::string path, DeletionVectorPath(table_root, descriptor));
  std::string source = "the deletion vector file " + DisplayPath(path);
  ARROW_ASSIGN_OR_RAISE(auto file, filesystem.OpenInputFile(path));
  int64_t offset = descriptor.offset.value_or(0);
  int64_t frame = 4 + static_cast<int64_t>(descriptor.size_in_bytes) + 4;
  ARROW_ASSIGN_OR_RAISE(auto buffer, file->ReadAt(offset, frame));
  std::string_view bytes(reinterpret_cast<const char*>(buffer->data()),
                         static_cast<size_t>(buffer->size()));
  ByteReader framing(bytes, /*little_endian=*/false);
  uint64_t size = 0, checksum = 0;
  if (!framing.Read(4, &size) || size != static_cast<uint64_t>(descriptor.size_in_bytes)) {
    return SizeMismatch(source, "the stored size differs from sizeInBytes " +
                                    std::to_string(descriptor.size_in_bytes));
  }
  std::string_view body = framing.rest().substr(0, size);
  framing.Skip(size);
  if (body.size() != size || !framing.Read(4, &checksum)) {
    return SizeMismatch(source, "the file ends inside the deletion vector");
  }
  if (DeletionVectorChecksum(body) != static_cast<uint32_t>(checksum)) {
    return InvalidError("DELTA_DELETION_VECTOR_CHECKSUM_MISMATCH",
                        "Could not verify deletion vector integrity, CRC checksum verification "
                        "failed for " +
                            source + ".");
  }
  return DecodeRoaringBitmapArray(body, source);
}

}  // namespace parley::delta
