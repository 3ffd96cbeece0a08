// BoundExpr: a resolved, typed expression over the named fields of an operator's input.
//
// The analyzer builds these from the syntax tree. Column references name the input field by its
// internal (unique) name, so operators can be rewired without renumbering. Calls are named by
// Spark-style function names ("=", "AND", "IS_NULL", "+", "CAST", "CASE_WHEN", "UPPER"...); the
// same tree is lowered to Arrow compute for execution (exec/expression_lowering.h) and
// translated to connector predicates for pushdown (plan/predicate_translation.h).
// Immutable once built; shared freely.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"

namespace parley {

class ScalarFunction;
struct BoundExpr;
using BoundExprPtr = std::shared_ptr<const BoundExpr>;

struct BoundExpr {
  enum class Kind { kColumn, kLiteral, kCall };

  Kind kind;
  /// Result type.
  std::shared_ptr<arrow::DataType> type;
  /// kColumn: the input field's internal name; display: the name users see.
  std::string field;
  std::string display;
  /// kLiteral: the value (a null scalar of `type` for NULL).
  std::shared_ptr<arrow::Scalar> literal;
  /// kCall: the function and its arguments. CASE_WHEN args are cond, value pairs then an
  /// optional else value (has_else). IN args are the value then the list.
  std::string function;
  std::vector<BoundExprPtr> args;
  bool has_else = false;
  /// kCall of a connector's function: the bound function (`function` is then its name).
  std::shared_ptr<const ScalarFunction> connector_function;

  /// \brief SQL-like rendering for EXPLAIN, e.g. `(i > 6)`.
  std::string ToString() const;
  /// \brief Internal names of every column this expression reads, appended to `out` once each.
  void CollectFields(std::vector<std::string>* out) const;
};

BoundExprPtr MakeColumnRef(std::string field, std::string display,
                           std::shared_ptr<arrow::DataType> type);
BoundExprPtr MakeBoundLiteral(std::shared_ptr<arrow::Scalar> value);
BoundExprPtr MakeCall(std::string function, std::vector<BoundExprPtr> args,
                      std::shared_ptr<arrow::DataType> type);

/// \brief The SQL name of an Arrow type, as Spark prints it ("INT", "DECIMAL(10,2)").
std::string SqlTypeName(const arrow::DataType& type);

/// \brief A type in Spark's catalog form, as DESCRIBE and typeof() print it: lower-case names,
/// nested types as array<t>, map<k,v> and struct<name:t,...>.
std::string DescribeTypeName(const arrow::DataType& type);

/// \brief The column references `expr` reads, one per field, in the order first read.
std::vector<BoundExprPtr> ColumnRefs(const BoundExprPtr& expr);

/// \brief Split a condition on AND into its conjuncts.
std::vector<BoundExprPtr> SplitConjuncts(const BoundExprPtr& condition);
/// \brief Join conjuncts with AND; nullptr when there are none.
BoundExprPtr CombineConjuncts(const std::vector<BoundExprPtr>& conjuncts);

/// \brief `expr` with each column whose field is named in `replacements` replaced by its
/// expression.
BoundExprPtr ReplaceColumns(const BoundExprPtr& expr,
                            const std::map<std::string, BoundExprPtr>& replacements);

}  // namespace parley
