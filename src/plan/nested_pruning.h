// Nested schema pruning (Spark's spark.sql.optimizer.nestedSchemaPruning.enabled): when the
// projection or aggregate over a scan (through filters) reads a struct column only through
// field accesses (`s.a`, `s.b.c`), the required schema offered through
// SupportsPushDownRequiredColumns::PruneColumns types that column as the struct narrowed to
// the fields read, in table order. Any other use of the column (the column itself, an argument
// of anything but a field access, a predicate the source applies on it) needs it whole. The
// source may narrow or read the whole struct; Scan::ReadSchema() says which.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "plan/logical_plan.h"

namespace parley {

/// \brief The fields read from each column by `expr`: one path of struct field names per
/// access, an empty path where the column is used whole.
void CollectFieldPaths(const BoundExpr& expr,
                       std::map<std::string, std::vector<std::vector<std::string>>>* out);

/// \brief `type` keeping only the fields that `paths` lead into (a field reached by a path
/// that ends at it is kept whole), in `type`'s order; `type` itself when some path is empty.
std::shared_ptr<arrow::DataType> NarrowType(const std::shared_ptr<arrow::DataType>& type,
                                            const std::vector<std::vector<std::string>>& paths);

/// \brief Record in ScanNegotiation::narrowed_types, for every scan of `plan` read as above,
/// the struct columns that can be narrowed and their narrowed types.
void PlanNestedPruning(const PlanNodePtr& plan);

}  // namespace parley
