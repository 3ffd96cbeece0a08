// WindowBinder: binds the window function calls of a SELECT (in its select list and ORDER BY)
// and builds the Window node that computes them.
//
// A call is `function(args) OVER window`, the window written inline, by name (OVER w, from the
// WINDOW clause) or both. Arguments, PARTITION BY and ORDER BY keys are bound over the window's
// input (the FROM clause, or the grouped rows in an aggregate query); those that are not plain
// columns are computed by a projection below the Window node. The call becomes a reference to
// its result column. Without a frame, Spark's default applies: RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW with ORDER BY, the whole partition without.
#pragma once

#include <set>

#include <functional>
#include <string>
#include <vector>

#include "plan/logical_plan.h"
#include "sql/ast.h"

namespace parley {

/// \brief Whether `name` (any case) is a function that exists only as a window function
/// (row_number, rank, lag, ...): a call of it without OVER is
/// WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE.
bool IsWindowOnlyFunction(const std::string& name);
/// \brief The names of the functions that exist only over a window (lower case).
std::set<std::string> WindowOnlyFunctionNames();

class WindowBinder {
 public:
  /// \brief Binds an expression over the window's input.
  using InputBinder = std::function<Result<BoundExprPtr>(const sql::Expr&)>;

  /// \brief `named` is the query's WINDOW clause.
  WindowBinder(InputBinder bind_input, const std::vector<sql::NamedWindow>& named)
      : bind_input_(std::move(bind_input)), named_(named) {}

  /// \brief Bind `call`, a function call with a window. Errors: UNSUPPORTED_EXPR_FOR_WINDOW,
  /// MISSING_WINDOW_SPECIFICATION, WINDOW_FUNCTION_FRAME_NOT_ORDERED,
  /// DISTINCT_WINDOW_FUNCTION_UNSUPPORTED, WRONG_NUM_ARGS.*, DATATYPE_MISMATCH.* (arguments and
  /// frames), UNSUPPORTED_FEATURE.NESTED_WINDOW_FUNCTION.
  Result<BoundExprPtr> BindCall(const sql::Expr& call);

  bool empty() const { return calls_.empty(); }

  /// \brief The Window node over `input` computing every call bound so far; its output is the
  /// input's fields (and computed arguments) then one field per call.
  PlanNodePtr MakeNode(PlanNodePtr input) const;

 private:
  Result<const sql::WindowSpec*> Resolve(const sql::WindowSpec& spec, SourcePosition pos) const;
  Result<BoundExprPtr> BindCallOnce(const sql::Expr& call);
  Result<BoundExprPtr> BindColumn(const sql::Expr& expr);
  Status BindArguments(const sql::Expr& call, WindowCall* out);
  Status BindFrame(const sql::Expr& call, const sql::WindowSpec& spec, WindowCall* out);

  InputBinder bind_input_;
  const std::vector<sql::NamedWindow>& named_;
  bool binding_ = false;
  std::vector<WindowCall> calls_;
  std::vector<OutputField> computed_fields_;
  std::vector<BoundExprPtr> computed_exprs_;
};

}  // namespace parley
