// Spark's hash(e1, e2, ...) and xxhash64(e1, e2, ...): each row's values folded into one hash,
// the seed 42 hashing the first value and each value's hash the seed of the next, a NULL value
// leaving the hash as it was. hash is Spark's 32-bit Murmur3 (kernels/spark_hash.h), xxhash64
// the 64-bit xxHash. Values hash as Spark hashes them: integers of up to 32 bits and dates as
// 4 bytes, longs and timestamps as 8, -0.0 as 0.0, decimals of up to 18 digits by their
// unscaled long and wider ones by the big-endian bytes of their unscaled value, strings and
// binary by their bytes, arrays element by element, maps key then value, structs field by
// field.
//   parley_hash(any...) -> int32
//   parley_xxhash64(any...) -> int64
#include <cmath>
#include <cstring>
#include <limits>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/compute/registry.h"
#include "arrow/util/checked_cast.h"
#include "kernels/kernel_support.h"
#include "kernels/spark_hash.h"

// xxHash as Arrow vendors it, compiled into this file.
#define XXH_INLINE_ALL
#include "arrow/vendored/xxhash/xxhash.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using arrow::internal::checked_cast;

struct Murmur3 {
  using Hash = int32_t;
  static Hash Int(int32_t value, Hash seed) { return kernels::Murmur3Int(value, seed); }
  static Hash Long(int64_t value, Hash seed) { return kernels::Murmur3Long(value, seed); }
  static Hash Bytes(std::string_view bytes, Hash seed) {
    return kernels::Murmur3Bytes(bytes, seed);
  }
};

struct XxHash64 {
  using Hash = int64_t;
  static Hash Int(int32_t value, Hash seed) {
    return Bytes(std::string_view(reinterpret_cast<const char*>(&value), 4), seed);
  }
  static Hash Long(int64_t value, Hash seed) {
    return Bytes(std::string_view(reinterpret_cast<const char*>(&value), 8), seed);
  }
  static Hash Bytes(std::string_view bytes, Hash seed) {
    return static_cast<Hash>(XXH64(bytes.data(), bytes.size(), static_cast<uint64_t>(seed)));
  }
};

// The unscaled value of a decimal as Java's BigInteger.toByteArray writes it: big-endian two's
// complement in the fewest bytes.
std::string BigEndianUnscaled(const arrow::Decimal128& value) {
  std::string bytes(16, '\0');
  auto high = static_cast<uint64_t>(value.high_bits());
  uint64_t low = value.low_bits();
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<char>(high >> (56 - 8 * i));
    bytes[8 + i] = static_cast<char>(low >> (56 - 8 * i));
  }
  size_t start = 0;
  while (start + 1 < bytes.size()) {
    auto lead = static_cast<uint8_t>(bytes[start]);
    auto next = static_cast<uint8_t>(bytes[start + 1]);
    bool redundant = (lead == 0x00 && next < 0x80) || (lead == 0xFF && next >= 0x80);
    if (!redundant) break;
    ++start;
  }
  return bytes.substr(start);
}

template <typename Hasher>
Result<typename Hasher::Hash> HashValue(const arrow::Array& array, int64_t row,
                                        typename Hasher::Hash seed) {
  if (array.IsNull(row)) return seed;
  switch (array.type_id()) {
    case arrow::Type::NA: return seed;
    case arrow::Type::BOOL:
      return Hasher::Int(checked_cast<const arrow::BooleanArray&>(array).Value(row) ? 1 : 0, seed);
    case arrow::Type::INT8:
      return Hasher::Int(checked_cast<const arrow::Int8Array&>(array).Value(row), seed);
    case arrow::Type::INT16:
      return Hasher::Int(checked_cast<const arrow::Int16Array&>(array).Value(row), seed);
    case arrow::Type::INT32:
      return Hasher::Int(checked_cast<const arrow::Int32Array&>(array).Value(row), seed);
    case arrow::Type::DATE32:
      return Hasher::Int(checked_cast<const arrow::Date32Array&>(array).Value(row), seed);
    case arrow::Type::INT64:
      return Hasher::Long(checked_cast<const arrow::Int64Array&>(array).Value(row), seed);
    case arrow::Type::TIMESTAMP:
      return Hasher::Long(checked_cast<const arrow::TimestampArray&>(array).Value(row), seed);
    case arrow::Type::DURATION:
      return Hasher::Long(checked_cast<const arrow::DurationArray&>(array).Value(row), seed);
    case arrow::Type::INTERVAL_MONTHS:
      return Hasher::Int(checked_cast<const arrow::MonthIntervalArray&>(array).Value(row), seed);
    case arrow::Type::FLOAT: {
      float value = checked_cast<const arrow::FloatArray&>(array).Value(row);
      if (value == 0.0f) value = 0.0f;
      if (std::isnan(value)) value = std::numeric_limits<float>::quiet_NaN();
      int32_t bits;
      std::memcpy(&bits, &value, sizeof(bits));
      return Hasher::Int(bits, seed);
    }
    case arrow::Type::DOUBLE: {
      double value = checked_cast<const arrow::DoubleArray&>(array).Value(row);
      if (value == 0.0) value = 0.0;
      if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
      int64_t bits;
      std::memcpy(&bits, &value, sizeof(bits));
      return Hasher::Long(bits, seed);
    }
    case arrow::Type::DECIMAL128: {
      const auto& decimals = checked_cast<const arrow::Decimal128Array&>(array);
      arrow::Decimal128 value(decimals.GetValue(row));
      if (checked_cast<const arrow::Decimal128Type&>(*array.type()).precision() <= 18) {
        return Hasher::Long(static_cast<int64_t>(value.low_bits()), seed);
      }
      return Hasher::Bytes(BigEndianUnscaled(value), seed);
    }
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      return Hasher::Bytes(checked_cast<const arrow::BinaryArray&>(array).GetView(row), seed);
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY:
      return Hasher::Bytes(checked_cast<const arrow::LargeBinaryArray&>(array).GetView(row), seed);
    case arrow::Type::STRING_VIEW:
    case arrow::Type::BINARY_VIEW:
      return Hasher::Bytes(checked_cast<const arrow::BinaryViewArray&>(array).GetView(row), seed);
    case arrow::Type::LIST: {
      const auto& lists = checked_cast<const arrow::ListArray&>(array);
      auto hash = seed;
      for (int64_t i = lists.value_offset(row); i < lists.value_offset(row + 1); ++i) {
        ARROW_ASSIGN_OR_RAISE(hash, HashValue<Hasher>(*lists.values(), i, hash));
      }
      return hash;
    }
    case arrow::Type::MAP: {
      const auto& maps = checked_cast<const arrow::MapArray&>(array);
      auto hash = seed;
      for (int64_t i = maps.value_offset(row); i < maps.value_offset(row + 1); ++i) {
        ARROW_ASSIGN_OR_RAISE(hash, HashValue<Hasher>(*maps.keys(), i, hash));
        ARROW_ASSIGN_OR_RAISE(hash, HashValue<Hasher>(*maps.items(), i, hash));
      }
      return hash;
    }
    case arrow::Type::STRUCT: {
      const auto& structs = checked_cast<const arrow::StructArray&>(array);
      auto hash = seed;
      for (int f = 0; f < structs.num_fields(); ++f) {
        ARROW_ASSIGN_OR_RAISE(hash, HashValue<Hasher>(*structs.field(f), row, hash));
      }
      return hash;
    }
    default: return Status::TypeError("no hash for values of ", array.type()->ToString());
  }
}

template <typename Hasher, typename Builder>
Status HashExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  std::vector<std::shared_ptr<arrow::Array>> args;
  for (int i = 0; i < batch.num_values(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto array, kernels::ArgumentArray(batch, i));
    args.push_back(std::move(array));
  }
  Builder builder(ctx->memory_pool());
  ARROW_RETURN_NOT_OK(builder.Reserve(batch.length));
  for (int64_t row = 0; row < batch.length; ++row) {
    typename Hasher::Hash hash = 42;
    for (const auto& arg : args) {
      ARROW_ASSIGN_OR_RAISE(hash, HashValue<Hasher>(*arg, row, hash));
    }
    builder.UnsafeAppend(hash);
  }
  ARROW_ASSIGN_OR_RAISE(auto result, builder.Finish());
  out->value = result->data();
  return Status::OK();
}

}  // namespace

namespace kernels {

Status RegisterHashKernels(cp::FunctionRegistry* registry) {
  ARROW_RETURN_NOT_OK(AddAnyInputFunction(
      registry, "parley_hash", cp::Arity::VarArgs(1), cp::OutputType(arrow::int32()),
      HashExec<Murmur3, arrow::Int32Builder>, "Spark's Murmur3 hash of the arguments",
      cp::NullHandling::OUTPUT_NOT_NULL));
  return AddAnyInputFunction(
      registry, "parley_xxhash64", cp::Arity::VarArgs(1), cp::OutputType(arrow::int64()),
      HashExec<XxHash64, arrow::Int64Builder>, "Spark's xxHash64 of the arguments",
      cp::NullHandling::OUTPUT_NOT_NULL);
}

}  // namespace kernels
}  // namespace parley
