// WindowBinder: window function calls, their windows and frames, and the Window node.
#include "analysis/window_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "plan/expression_equality.h"

namespace parley {
namespace {

const std::set<std::string>& RankingFunctions() {
  static const std::set<std::string> kNames = {"row_number",   "rank",      "dense_rank",
                                               "percent_rank", "cume_dist", "ntile"};
  return kNames;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), ::tolower);
  return text;
}

Status WrongArgs(const sql::Expr& call, std::string_view expected) {
  return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                       fmt::format("The `{}` requires {} parameters but the actual number is {}.",
                                   call.name_parts.back(), expected, call.children.size()),
                       call.pos);
}

// A constant numeric value: a frame offset, a lag/lead offset or ntile's buckets.
Result<std::shared_ptr<arrow::Scalar>> Constant(const sql::Expr& expr, const sql::Expr& call) {
  ARROW_ASSIGN_OR_RAISE(auto bound, BindExpression(expr, {}));
  if (bound->kind != BoundExpr::Kind::kLiteral || !bound->literal->is_valid) {
    return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: the input "
                                     "\"{}\" should be a foldable non-null expression.",
                                     call.source_text, expr.source_text),
                         expr.pos);
  }
  return bound->literal;
}

Result<int64_t> IntegerConstant(const sql::Expr& expr, const sql::Expr& call) {
  ARROW_ASSIGN_OR_RAISE(auto value, Constant(expr, call));
  if (!IsIntegral(*value->type)) {
    return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: \"{}\" "
                                     "has the type \"{}\", but an integer is required.",
                                     call.source_text, expr.source_text, SqlTypeName(*value->type)),
                         expr.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto as_int64, value->CastTo(arrow::int64()));
  return static_cast<const arrow::Int64Scalar&>(*as_int64).value;
}

}  // namespace

std::set<std::string> WindowOnlyFunctionNames() {
  std::set<std::string> names = RankingFunctions();
  names.insert({"lag", "lead"});
  return names;
}

bool IsWindowOnlyFunction(const std::string& name) {
  std::string lower = Lower(name);
  return RankingFunctions().count(lower) > 0 || lower == "lag" || lower == "lead";
}

Result<const sql::WindowSpec*> WindowBinder::Resolve(const sql::WindowSpec& spec,
                                                     SourcePosition pos) const {
  const sql::WindowSpec* current = &spec;
  // A named window may itself name another; the WINDOW clause is small, so a bounded walk.
  for (size_t hops = 0; !current->name.empty() && hops <= named_.size(); ++hops) {
    auto found = std::find_if(named_.begin(), named_.end(), [&](const sql::NamedWindow& w) {
      return EqualsIgnoreCase(w.name, current->name);
    });
    if (found == named_.end()) {
      return AnalysisError("MISSING_WINDOW_SPECIFICATION",
                           fmt::format("Window specification {} is not defined in the WINDOW "
                                       "clause.",
                                       QuoteIdentifier(current->name)),
                           pos);
    }
    current = &found->spec;
  }
  return current;
}

// An argument or key over the input, as a column: expressions are computed below the window.
Result<BoundExprPtr> WindowBinder::BindColumn(const sql::Expr& expr) {
  ARROW_ASSIGN_OR_RAISE(auto bound, bind_input_(expr));
  if (bound->kind == BoundExpr::Kind::kColumn) return bound;
  for (size_t i = 0; i < computed_exprs_.size(); ++i) {
    if (SameExpression(*computed_exprs_[i], *bound)) {
      const auto& field = computed_fields_[i];
      return MakeColumnRef(field.name, field.display, field.type);
    }
  }
  computed_fields_.push_back({fmt::format("#window_input{}", computed_fields_.size()),
                              expr.source_text, bound->type, true});
  computed_exprs_.push_back(bound);
  const auto& field = computed_fields_.back();
  return MakeColumnRef(field.name, field.display, field.type);
}

Status WindowBinder::BindArguments(const sql::Expr& call, WindowCall* out) {
  const std::string& f = out->function;
  const size_t n = call.children.size();
  if (RankingFunctions().count(f) > 0) {
    if (f == "ntile") {
      if (n != 1) return WrongArgs(call, "1");
      ARROW_ASSIGN_OR_RAISE(out->offset, IntegerConstant(*call.children[0], call));
      if (out->offset <= 0) {
        return AnalysisError("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: The "
                                         "`buckets` must be greater than 0, but got {}.",
                                         call.source_text, out->offset),
                             call.pos);
      }
      out->type = arrow::int32();
    } else {
      // rank, dense_rank and percent_rank take any arguments and rank by the ORDER BY alone.
      bool takes_any = f == "rank" || f == "dense_rank" || f == "percent_rank";
      if (n != 0 && !takes_any) return WrongArgs(call, "0");
      for (const auto& child : call.children) ARROW_RETURN_NOT_OK(bind_input_(*child).status());
      bool fraction = f == "percent_rank" || f == "cume_dist";
      out->type = fraction ? arrow::float64() : arrow::int32();
    }
    return Status::OK();
  }
  if (f == "lag" || f == "lead") {
    if (n < 1 || n > 3) return WrongArgs(call, "[1, 2, 3]");
    ARROW_ASSIGN_OR_RAISE(auto value, BindColumn(*call.children[0]));
    out->args.push_back(value);
    out->type = value->type;
    out->ignore_nulls = call.ignore_nulls.value_or(false);
    if (n >= 2) {
      ARROW_ASSIGN_OR_RAISE(out->offset, IntegerConstant(*call.children[1], call));
    }
    if (n == 3) {
      ARROW_ASSIGN_OR_RAISE(auto fallback, bind_input_(*call.children[2]));
      auto common = CommonType(value->type, fallback->type);
      if (common == nullptr || !common->Equals(*value->type)) {
        return AnalysisError(
            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: the default value "
                        "\"{}\" of type \"{}\" does not match the input type \"{}\".",
                        call.source_text, call.children[2]->source_text,
                        SqlTypeName(*fallback->type), SqlTypeName(*value->type)),
            call.children[2]->pos);
      }
      ARROW_ASSIGN_OR_RAISE(auto column, BindColumn(*call.children[2]));
      out->args.push_back(CastTo(column, value->type));
    }
    return Status::OK();
  }
  if (f == "nth_value") {
    if (n < 2 || n > 3) return WrongArgs(call, "[2, 3]");
    ARROW_ASSIGN_OR_RAISE(auto value, BindColumn(*call.children[0]));
    out->args.push_back(value);
    out->type = value->type;
    ARROW_ASSIGN_OR_RAISE(auto offset, bind_input_(*call.children[1]));
    if (offset->kind != BoundExpr::Kind::kLiteral || !IsNumeric(*offset->type)) {
      return AnalysisError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                           fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                       "input `offset` should be a foldable \"INT\" expression; "
                                       "however, got \"{}\".",
                                       call.source_text, call.children[1]->source_text),
                           call.children[1]->pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto as_int64, offset->literal->CastTo(arrow::int64()));
    out->offset = as_int64->is_valid ? static_cast<const arrow::Int64Scalar&>(*as_int64).value : 0;
    if (out->offset <= 0) {
      return AnalysisError("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                           fmt::format("Cannot resolve \"{}\" due to data type mismatch: The "
                                       "offset must be between (0, 9223372036854775807] (current "
                                       "value = {}L).",
                                       call.source_text, out->offset),
                           call.pos);
    }
    out->ignore_nulls = call.ignore_nulls.value_or(false);
    if (n == 3) {
      ARROW_ASSIGN_OR_RAISE(auto flag, Constant(*call.children[2], call));
      if (flag->type->id() != arrow::Type::BOOL) {
        return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                         "third argument must be a BOOLEAN constant.",
                                         call.source_text),
                             call.pos);
      }
      out->ignore_nulls = static_cast<const arrow::BooleanScalar&>(*flag).value;
    }
    return Status::OK();
  }
  if (f == "first_value" || f == "last_value" || f == "first" || f == "last") {
    if (n < 1 || n > 2) return WrongArgs(call, "[1, 2]");
    out->function = f == "first" ? "first_value" : f == "last" ? "last_value" : f;
    ARROW_ASSIGN_OR_RAISE(auto value, BindColumn(*call.children[0]));
    out->args.push_back(value);
    out->type = value->type;
    out->ignore_nulls = call.ignore_nulls.value_or(false);
    if (n == 2) {
      ARROW_ASSIGN_OR_RAISE(auto flag, Constant(*call.children[1], call));
      if (flag->type->id() != arrow::Type::BOOL) {
        return AnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                             fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                         "second argument must be a BOOLEAN constant.",
                                         call.source_text),
                             call.pos);
      }
      out->ignore_nulls = static_cast<const arrow::BooleanScalar&>(*flag).value;
    }
    return Status::OK();
  }
  // An aggregate over the frame.
  if (call.distinct) {
    return AnalysisError(
        "DISTINCT_WINDOW_FUNCTION_UNSUPPORTED",
        fmt::format("Distinct window functions are not supported: {}.", call.source_text),
        call.pos);
  }
  if (call.filter) {
    return AnalysisError("UNSUPPORTED_FEATURE.AGGREGATE_FILTER",
                         fmt::format("FILTER (WHERE ...) on the window function \"{}\" is not "
                                     "supported.",
                                     call.source_text),
                         call.pos);
  }
  if (f == "mean") out->function = "avg";
  if (call.star) {
    if (f != "count") {
      return AnalysisError("INVALID_USAGE_OF_STAR_OR_REGEX",
                           fmt::format("Invalid usage of '*' in {}.", call.source_text), call.pos);
    }
    out->star = true;
    out->type = arrow::int64();
    return Status::OK();
  }
  if (n != 1) return WrongArgs(call, "1");
  ARROW_ASSIGN_OR_RAISE(auto value, BindColumn(*call.children[0]));
  out->args.push_back(value);
  std::string upper = out->function;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  ARROW_ASSIGN_OR_RAISE(out->type, AggregateResultType(upper, call, value));
  return Status::OK();
}

Status WindowBinder::BindFrame(const sql::Expr& call, const sql::WindowSpec& spec,
                               WindowCall* out) {
  WindowFrame& frame = out->frame;
  if (!spec.frame) {
    frame.rows = out->order_by.empty();
    frame.start.type = WindowBound::Type::kUnboundedPreceding;
    frame.end.type = out->order_by.empty() ? WindowBound::Type::kUnboundedFollowing
                                           : WindowBound::Type::kCurrentRow;
    return Status::OK();
  }
  const sql::WindowFrame& written = *spec.frame;
  frame.rows = written.type == sql::FrameType::kRows;
  auto mismatch = [&](std::string_view condition, std::string_view what) {
    return AnalysisError(
        condition,
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: {}", call.source_text, what),
        written.pos);
  };
  bool has_offset = false;
  auto bind_bound = [&](const sql::FrameBound& in, WindowBound* bound) -> Status {
    switch (in.type) {
      case sql::FrameBoundType::kUnboundedPreceding:
        bound->type = WindowBound::Type::kUnboundedPreceding;
        return Status::OK();
      case sql::FrameBoundType::kCurrentRow:
        bound->type = WindowBound::Type::kCurrentRow;
        return Status::OK();
      case sql::FrameBoundType::kUnboundedFollowing:
        bound->type = WindowBound::Type::kUnboundedFollowing;
        return Status::OK();
      case sql::FrameBoundType::kPreceding:
      case sql::FrameBoundType::kFollowing: break;
    }
    has_offset = true;
    bound->type = in.type == sql::FrameBoundType::kPreceding ? WindowBound::Type::kPreceding
                                                             : WindowBound::Type::kFollowing;
    ARROW_ASSIGN_OR_RAISE(auto value, Constant(*in.offset, call));
    if (frame.rows ? !IsIntegral(*value->type) : !IsNumeric(*value->type)) {
      return mismatch("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE",
                      fmt::format("the data type of the frame boundary \"{}\" is \"{}\", which "
                                  "the {} frame does not accept.",
                                  in.offset->source_text, SqlTypeName(*value->type),
                                  frame.rows ? "ROWS" : "RANGE"));
    }
    ARROW_ASSIGN_OR_RAISE(auto as_double, value->CastTo(arrow::float64()));
    bound->offset = static_cast<const arrow::DoubleScalar&>(*as_double).value;
    return Status::OK();
  };
  ARROW_RETURN_NOT_OK(bind_bound(written.start, &frame.start));
  ARROW_RETURN_NOT_OK(bind_bound(written.end, &frame.end));
  if (frame.start.type == WindowBound::Type::kUnboundedFollowing ||
      frame.end.type == WindowBound::Type::kUnboundedPreceding) {
    return mismatch("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND",
                    "window frame bound UNBOUNDED FOLLOWING cannot start a frame, nor UNBOUNDED "
                    "PRECEDING end one.");
  }
  auto position = [](const WindowBound& bound) {
    switch (bound.type) {
      case WindowBound::Type::kPreceding: return -bound.offset;
      case WindowBound::Type::kFollowing: return bound.offset;
      default: return 0.0;
    }
  };
  auto bounded = [](const WindowBound& bound) {
    return bound.type != WindowBound::Type::kUnboundedPreceding &&
           bound.type != WindowBound::Type::kUnboundedFollowing;
  };
  if (bounded(frame.start) && bounded(frame.end) && position(frame.start) > position(frame.end)) {
    return mismatch("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
                    "the lower bound of the window frame must be less than or equal to its "
                    "upper bound.");
  }
  if (!frame.rows && has_offset) {
    if (out->order_by.empty()) {
      return mismatch("DATATYPE_MISMATCH.RANGE_FRAME_WITHOUT_ORDER",
                      "a range window frame cannot be used in an unordered window "
                      "specification.");
    }
    if (out->order_by.size() > 1) {
      return mismatch("DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER",
                      "a range window frame with value boundaries cannot be used in a window "
                      "specification with multiple order by expressions.");
    }
    const auto& key_type = *out->order_by[0].expr->type;
    if (!IsNumeric(key_type) && key_type.id() != arrow::Type::DATE32) {
      return mismatch("DATATYPE_MISMATCH.RANGE_FRAME_INVALID_TYPE",
                      fmt::format("the data type \"{}\" used in the order specification does "
                                  "not support a range frame with value boundaries.",
                                  SqlTypeName(key_type)));
    }
  }
  return Status::OK();
}

Result<BoundExprPtr> WindowBinder::BindCall(const sql::Expr& call) {
  if (binding_) {
    return AnalysisError("UNSUPPORTED_FEATURE.NESTED_WINDOW_FUNCTION",
                         fmt::format("The feature is not supported: a window function inside "
                                     "another window function: \"{}\".",
                                     call.source_text),
                         call.pos);
  }
  binding_ = true;
  auto result = BindCallOnce(call);
  binding_ = false;
  return result;
}

Result<BoundExprPtr> WindowBinder::BindCallOnce(const sql::Expr& call) {
  WindowCall out;
  out.function = Lower(call.name_parts.back());
  static const std::set<std::string> kKnown = {
      "row_number", "rank",        "dense_rank", "percent_rank", "cume_dist", "ntile",     "lag",
      "lead",       "first_value", "last_value", "first",        "last",      "nth_value", "count",
      "sum",        "avg",         "mean",       "min",          "max"};
  if (call.name_parts.size() != 1 || kKnown.count(out.function) == 0) {
    return AnalysisError(
        "UNSUPPORTED_EXPR_FOR_WINDOW",
        fmt::format("Expression \"{}\" not supported within a window function.", call.source_text),
        call.pos);
  }
  ARROW_ASSIGN_OR_RAISE(const sql::WindowSpec* spec, Resolve(*call.window, call.pos));
  for (const auto& key : spec->partition_by) {
    ARROW_ASSIGN_OR_RAISE(auto column, BindColumn(*key));
    out.partition_by.push_back(column);
  }
  for (const auto& item : spec->order_by) {
    ARROW_ASSIGN_OR_RAISE(auto column, BindColumn(*item.expr));
    out.order_by.push_back({column, item.ascending, item.nulls_first.value_or(item.ascending)});
  }
  const bool ranking = RankingFunctions().count(out.function) > 0;
  if ((ranking || out.function == "lag" || out.function == "lead") && out.order_by.empty()) {
    return AnalysisError("WINDOW_FUNCTION_FRAME_NOT_ORDERED",
                         fmt::format("Window function \"{}\" requires the window to be ordered. "
                                     "You need to add an ORDER BY clause.",
                                     call.source_text),
                         call.pos);
  }
  ARROW_RETURN_NOT_OK(BindArguments(call, &out));
  ARROW_RETURN_NOT_OK(BindFrame(call, *spec, &out));
  calls_.push_back(std::move(out));
  return MakeColumnRef(fmt::format("#window{}", calls_.size() - 1), call.source_text,
                       calls_.back().type);
}

PlanNodePtr WindowBinder::MakeNode(PlanNodePtr input) const {
  if (!computed_exprs_.empty()) {
    auto project = std::make_shared<PlanNode>();
    project->kind = PlanNode::Kind::kProject;
    project->children = {input};
    for (const auto& field : input->output) {
      project->output.push_back(field);
      project->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
    }
    for (size_t i = 0; i < computed_exprs_.size(); ++i) {
      project->output.push_back(computed_fields_[i]);
      project->exprs.push_back(computed_exprs_[i]);
    }
    input = project;
  }
  auto window = std::make_shared<PlanNode>();
  window->kind = PlanNode::Kind::kWindow;
  window->output = input->output;
  for (size_t i = 0; i < calls_.size(); ++i) {
    window->output.push_back(
        {fmt::format("#window{}", i), calls_[i].ToString(), calls_[i].type, true});
  }
  window->window_calls = calls_;
  window->children = {std::move(input)};
  return window;
}

}  // namespace parley
