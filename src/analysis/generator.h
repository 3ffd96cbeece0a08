// Generators (explode, explode_outer, posexplode, posexplode_outer, inline, inline_outer,
// stack, and json_tuple as a stack of one row) as the select list, LATERAL VIEW and FROM bind them:
// the columns a call makes, and the Generate node that makes them (exec/generate.h).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "parley/connector/status.h"
#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief Whether `name` (lower case) is a generator function.
bool IsGeneratorName(const std::string& name);

/// \brief A generator call: the function, its arguments (stack's row count an INT literal) and
/// the columns it makes (Spark's default names and their types).
struct BoundGenerator {
  std::string function;
  std::vector<BoundExprPtr> args;
  std::vector<std::pair<std::string, std::shared_ptr<arrow::DataType>>> columns;
};

/// \brief The generator `name` called as `expr` with `args` bound; Spark's errors for a wrong
/// argument (DATATYPE_MISMATCH.*, WRONG_NUM_ARGS).
Result<BoundGenerator> BindGenerator(const sql::Expr& expr, const std::string& name,
                                     std::vector<BoundExprPtr> args);

/// \brief A Generate node of `generator` over `input`, making `outputs` (one per column); its
/// arguments are computed below it as fields named `argument_prefix` followed by a number.
PlanNodePtr MakeGenerateNode(PlanNodePtr input, const BoundGenerator& generator,
                             const std::vector<OutputField>& outputs,
                             const std::string& argument_prefix);

}  // namespace parley
