#include "kernels/spark_hash.h"

#include <cstring>

#include "arrow/type.h"
#include "arrow/util/checked_cast.h"

namespace parley::kernels {
namespace {

using arrow::internal::checked_cast;

constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;

uint32_t RotateLeft(uint32_t x, int bits) { return (x << bits) | (x >> (32 - bits)); }

uint32_t MixK1(uint32_t k1) { return RotateLeft(k1 * kC1, 15) * kC2; }

uint32_t MixH1(uint32_t h1, uint32_t k1) { return RotateLeft(h1 ^ k1, 13) * 5 + 0xe6546b64; }

int32_t Finish(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6b;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

// Java's Long.hashCode.
int32_t JavaLongHash(int64_t value) {
  auto bits = static_cast<uint64_t>(value);
  return static_cast<int32_t>(static_cast<uint32_t>(bits ^ (bits >> 32)));
}

int32_t JavaDoubleHash(double value) {
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return JavaLongHash(bits);
}

int32_t JavaFloatHash(float value) {
  int32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// Scala's mutable.HashSet spreads a hash code's high bits into its low ones.
int32_t ImproveHash(int32_t hash) {
  auto bits = static_cast<uint32_t>(hash);
  return static_cast<int32_t>(bits ^ (bits >> 16));
}

}  // namespace

int32_t Murmur3Int(int32_t value, int32_t seed) {
  return Finish(MixH1(static_cast<uint32_t>(seed), MixK1(static_cast<uint32_t>(value))), 4);
}

int32_t Murmur3Long(int64_t value, int32_t seed) {
  auto bits = static_cast<uint64_t>(value);
  uint32_t h1 = MixH1(static_cast<uint32_t>(seed), MixK1(static_cast<uint32_t>(bits)));
  h1 = MixH1(h1, MixK1(static_cast<uint32_t>(bits >> 32)));
  return Finish(h1, 8);
}

int32_t Murmur3Bytes(std::string_view bytes, int32_t seed) {
  uint32_t h1 = static_cast<uint32_t>(seed);
  size_t aligned = bytes.size() - bytes.size() % 4;
  for (size_t i = 0; i < aligned; i += 4) {
    uint32_t block;
    std::memcpy(&block, bytes.data() + i, 4);  // little-endian, as Spark reads it
    h1 = MixH1(h1, MixK1(block));
  }
  for (size_t i = aligned; i < bytes.size(); ++i) {
    auto byte = static_cast<int32_t>(static_cast<int8_t>(bytes[i]));
    h1 = MixH1(h1, MixK1(static_cast<uint32_t>(byte)));
  }
  return Finish(h1, static_cast<uint32_t>(bytes.size()));
}

std::optional<int32_t> CollectionHashOf(const arrow::Scalar& value, CollectionHash kind) {
  std::optional<int32_t> code;
  switch (value.type->id()) {
    case arrow::Type::INT8: code = checked_cast<const arrow::Int8Scalar&>(value).value; break;
    case arrow::Type::INT16: code = checked_cast<const arrow::Int16Scalar&>(value).value; break;
    case arrow::Type::INT32: code = checked_cast<const arrow::Int32Scalar&>(value).value; break;
    case arrow::Type::DATE32: code = checked_cast<const arrow::Date32Scalar&>(value).value; break;
    case arrow::Type::INT64:
    case arrow::Type::TIMESTAMP: {
      int64_t v = value.type->id() == arrow::Type::INT64
                      ? checked_cast<const arrow::Int64Scalar&>(value).value
                      : checked_cast<const arrow::TimestampScalar&>(value).value;
      bool fits_int = v == static_cast<int32_t>(v);
      code = kind == CollectionHash::kScalaHashSet && fits_int ? static_cast<int32_t>(v)
                                                               : JavaLongHash(v);
      break;
    }
    case arrow::Type::FLOAT:
      code = JavaFloatHash(checked_cast<const arrow::FloatScalar&>(value).value);
      break;
    case arrow::Type::DOUBLE:
      code = JavaDoubleHash(checked_cast<const arrow::DoubleScalar&>(value).value);
      break;
    case arrow::Type::BOOL:
      code = checked_cast<const arrow::BooleanScalar&>(value).value ? 1231 : 1237;
      break;
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW: {
      auto view = checked_cast<const arrow::BaseBinaryScalar&>(value).view();
      code = Murmur3Bytes(view, 42);  // UTF8String's hashCode
      break;
    }
    default: return std::nullopt;
  }
  if (kind == CollectionHash::kScalaHashSet) return ImproveHash(*code);
  return Murmur3Int(*code, 0);
}

}  // namespace parley::kernels
