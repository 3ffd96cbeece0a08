// Translation of the engine's V2 predicates (parley/connector/expressions.h) into Arrow compute
// expressions, which the built-in connectors use to prune files, Parquet row groups and rows.
//
// The translation keeps SQL's three-valued logic: AND/OR are Kleene, NOT of NULL is NULL,
// comparisons with NULL are NULL, `a <=> b` is never NULL, and `a IN (...)` follows SQL when
// the list or the value holds NULL. It accepts only children that are single-part column
// references and literals; anything else (arithmetic, functions, nested fields) is reported as
// untranslatable and the caller leaves that predicate to the engine. Pure functions; thread-safe.
#pragma once

#include <optional>

#include "arrow/compute/expression.h"
#include "parley/connector/expressions.h"

namespace parley {

/// \brief Translate `predicate` into an unbound Arrow expression, or return nullopt when some
/// part of it has no exact Arrow counterpart. The result still has to be bound to a schema;
/// binding fails when operand types do not fit, which callers also treat as untranslatable.
std::optional<arrow::compute::Expression> ToArrowExpression(const Predicate& predicate);

}  // namespace parley
