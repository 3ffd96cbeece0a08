// FunctionRegistry: Parley's built-in scalar functions by their Spark names.
//
// One entry per function holds both halves of its meaning: the type rule the analyzer applies to
// a call (argument count, argument types with Spark's implicit casts, result type) and the
// lowering the executor applies to the bound call (an Arrow compute expression). A type rule may
// also build its call from other entries or from the engine's operators ("CAST", "+",
// "CASE_WHEN"...), as Spark's aliases and replacement expressions do; then it needs no lowering
// of its own. Families register themselves from their own files (string_functions.cc,
// datetime_functions.cc, ...). The registry is built once and read-only after; safe to share
// between threads.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "parley/connector/status.h"
#include "plan/bound_expression.h"
#include "sql/ast.h"

namespace parley {

/// \brief A call as written, with its arguments bound: what a type rule sees.
struct FunctionCall {
  /// The call in the syntax tree; its source text and position name it in errors.
  const sql::Expr& expr;
  /// The function name as called, lower case.
  std::string name;
  std::vector<BoundExprPtr> args;
  /// Binds `left op right` as the binary operator `op` of the call's position would ("+",
  /// "/", "=", "<=>"...), for functions defined by an operator: try_add is `+` whose failures
  /// are NULL, equal_null is `<=>`.
  std::function<Result<BoundExprPtr>(const std::string& op, BoundExprPtr left, BoundExprPtr right)>
      bind_operator;
  /// For a higher-order function (TakesLambdas): args[index] is null where the argument is a
  /// lambda, and this binds that lambda with parameters of `types` (one per parameter it must
  /// declare), giving LambdaFunction's form (plan/lambda_function.h).
  std::function<Result<BoundExprPtr>(size_t index,
                                     const std::vector<std::shared_ptr<arrow::DataType>>& types)>
      bind_lambda;
  /// The type a schema text names (`a INT, b STRING`, `ARRAY<INT>`), as from_json and from_csv
  /// take it; Spark's parse or type error when it names none.
  std::function<Result<std::shared_ptr<arrow::DataType>>(std::string_view text)> parse_schema;
};

/// \brief Whether `name` (lower case) is a higher-order function, whose arguments may be
/// lambdas.
bool TakesLambdas(const std::string& name);

/// \brief Checks a call and builds its bound form; an analysis error (WRONG_NUM_ARGS.*,
/// DATATYPE_MISMATCH.*, ...) naming the call when it is wrong.
using TypeRule = std::function<Result<BoundExprPtr>(const FunctionCall& call)>;

/// \brief The Arrow compute expression of a bound call, given its arguments already lowered.
using Lowering = std::function<Result<arrow::compute::Expression>(
    const BoundExpr& call, std::vector<arrow::compute::Expression> args)>;

class FunctionRegistry {
 public:
  /// \brief The registry of every built-in function.
  static const FunctionRegistry& Builtin();

  /// \brief Register `rule` under each of `names` (lower case; Spark's aliases share a rule).
  void AddTypeRule(const std::vector<std::string>& names, TypeRule rule);
  /// \brief Register how bound calls named `name` lower.
  void AddLowering(const std::string& name, Lowering lowering);

  /// \brief The names of every function with a type rule, sorted.
  std::vector<std::string> Names() const;
  /// \brief The type rule for a lower-case name, or nullptr when no function has that name.
  const TypeRule* FindTypeRule(const std::string& name) const;
  /// \brief The lowering of bound calls named `name`, or nullptr.
  const Lowering* FindLowering(const std::string& name) const;

 private:
  std::map<std::string, TypeRule> type_rules_;
  std::map<std::string, Lowering> lowerings_;
};

void RegisterArrayFunctions(FunctionRegistry* registry);
/// \brief After RegisterStringFunctions: it extends reverse to arrays.
void RegisterArrayRowFunctions(FunctionRegistry* registry);
void RegisterConditionalFunctions(FunctionRegistry* registry);
/// \brief After RegisterArrayRowFunctions: it extends array_sort with a comparator.
void RegisterHigherOrderFunctions(FunctionRegistry* registry);
void RegisterDatetimeFunctions(FunctionRegistry* registry);
void RegisterEpochFunctions(FunctionRegistry* registry);
void RegisterDatetimePatternFunctions(FunctionRegistry* registry);
void RegisterJsonFunctions(FunctionRegistry* registry);
void RegisterRegexpFunctions(FunctionRegistry* registry);
void RegisterVectorFunctions(FunctionRegistry* registry);
void RegisterIntegralFunctions(FunctionRegistry* registry);
void RegisterMapFunctions(FunctionRegistry* registry);
void RegisterMathFunctions(FunctionRegistry* registry);
void RegisterMathDoubleFunctions(FunctionRegistry* registry);
void RegisterStringFunctions(FunctionRegistry* registry);
void RegisterTextFunctions(FunctionRegistry* registry);

}  // namespace parley
