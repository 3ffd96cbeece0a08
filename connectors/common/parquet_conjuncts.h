// The simple conjuncts of a row filter that Parquet readers and planners decide on raw
// integer values: `column <op> literal` and NULL tests, for columns stored as INT32 or INT64
// and read as int32, date32, int64 or decimal128. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/scalar.h"
#include "arrow/type_fwd.h"
#include "parquet/types.h"

namespace parley {

enum class RawOp {
  kEqual,
  kNotEqual,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kIsNull,
  kIsValid,
};

/// \brief A top-level conjunct `column <op> literal` (the literal a non-NULL scalar; a
/// literal written first is moved second, flipping the operator) or `column IS [NOT] NULL`
/// (op kIsNull / kIsValid, no literal), over a column named by a single-name field reference.
struct ColumnConjunct {
  std::string column;
  RawOp op = RawOp::kIsValid;
  std::shared_ptr<arrow::Scalar> literal;
};

/// \brief Splits `filter`, an Arrow expression bound or not, at its ANDs ("and", "and_kleene")
/// into the conjuncts of the form above (`simple`) and all others (`rest`), so that `filter`
/// is TRUE exactly where every conjunct of both lists is.
void SplitConjuncts(const arrow::compute::Expression& filter, std::vector<ColumnConjunct>* simple,
                    std::vector<arrow::compute::Expression>* rest);

/// \brief `literal` as a raw value of a column of Arrow type `type` stored as Parquet
/// `physical` (INT32 or INT64), when the literal has exactly that type (int32, date32, int64 or
/// decimal128 of the same precision and scale) and the raw type holds its value. Raw values
/// compare as the column's values do: signed integers, days, unscaled decimals.
std::optional<int64_t> RawIntegerLiteral(const arrow::Scalar& literal, const arrow::DataType& type,
                                         parquet::Type::type physical);

/// \brief Whether some value in [min, max] passes `op literal` (a comparison op).
bool RangeMayPass(RawOp op, int64_t literal, int64_t min, int64_t max);

}  // namespace parley
