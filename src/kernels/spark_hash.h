// Spark's 32-bit Murmur3 (x86 variant, with Spark's handling of the bytes past the last whole
// 4-byte block: each one mixed on its own, sign-extended) and the hash codes its hash-based
// collections give a value, which fix the order in which those collections hand values back
// (collect_set's result, mode's choice among equally frequent values).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "arrow/scalar.h"

namespace parley::kernels {

/// \brief Murmur3 of a 4-byte integer with `seed`, as Spark's Murmur3_x86_32.hashInt.
int32_t Murmur3Int(int32_t value, int32_t seed);
/// \brief Murmur3 of an 8-byte integer with `seed`, as Spark's Murmur3_x86_32.hashLong.
int32_t Murmur3Long(int64_t value, int32_t seed);
/// \brief Murmur3 of `bytes` with `seed`, as Spark's Murmur3_x86_32.hashUnsafeBytes.
int32_t Murmur3Bytes(std::string_view bytes, int32_t seed);

/// \brief Which of Spark's collections the value is hashed for.
enum class CollectionHash {
  kScalaHashSet,  ///< collect_set's buffer: an integer-valued long hashes as that int
  kOpenHashMap,   ///< mode's buffer: Java's hashCode of the boxed value, then Murmur3 of it
};

/// \brief The hash `kind` gives the (normalized, non-null) value, or nullopt for a type whose
/// hash Parley does not reproduce (decimals, binary, nested values): those keep the order in
/// which they were first seen.
std::optional<int32_t> CollectionHashOf(const arrow::Scalar& value, CollectionHash kind);

}  // namespace parley::kernels
