// ExpressionBinder: name resolution, type checking and coercion of expressions.
#include "analysis/expression_binder.h"
#include "functions/builtin_aggregates.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/cast_rules.h"
#include "analysis/generator.h"
#include "analysis/name_suggestions.h"
#include "analysis/routine_binder.h"
#include "analysis/sql_function_binder.h"
#include "analysis/types.h"
#include "analysis/window_binder.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "functions/datetime_arithmetic.h"
#include "functions/function_registry.h"
#include "functions/interval_literal.h"
#include "plan/lambda_function.h"

namespace parley {
namespace {

bool NameEquals(const std::string& a, const std::string& b) {
  return ToLowerAscii(a) == ToLowerAscii(b);
}

std::string QuotedName(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += QuoteIdentifier(parts[i]);
  }
  return out;
}

Status TypeMismatch(const sql::Expr& expr, std::string_view detail) {
  return AnalysisError(
      "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: {}.", expr.source_text, detail),
      expr.pos);
}

Status UnexpectedType(const sql::Expr& expr, const sql::Expr& operand,
                      const arrow::DataType& actual, std::string_view required) {
  return AnalysisError(
      "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
      fmt::format("Cannot resolve \"{}\" due to data type mismatch: the input \"{}\" requires "
                  "{} type, however \"{}\" has the type \"{}\".",
                  expr.source_text, operand.source_text, required, operand.source_text,
                  SqlTypeName(actual)),
      expr.pos);
}

class Binder {
 public:
  Binder(const Scope& scope, const BindOptions& options) : scope_(scope), options_(options) {}

  Result<BoundExprPtr> Bind(const sql::Expr& expr) {
    if (expr.subquery_kind != sql::SubqueryKind::kNone && options_.subquery_hook) {
      return options_.subquery_hook(expr);
    }
    ARROW_RETURN_NOT_OK(CheckSupportedForm(expr));
    switch (expr.kind) {
      case sql::ExprKind::kColumn: return BindColumn(expr);
      case sql::ExprKind::kStar:
        return AnalysisError("INVALID_USAGE_OF_STAR_OR_REGEX",
                             "Invalid usage of '*' in an expression.", expr.pos);
      case sql::ExprKind::kLiteral: {
        ARROW_ASSIGN_OR_RAISE(auto value, LiteralValue(expr));
        return MakeBoundLiteral(std::move(value));
      }
      case sql::ExprKind::kUnary: return BindUnary(expr);
      case sql::ExprKind::kBinary: return BindBinary(expr);
      case sql::ExprKind::kFunction: return BindFunction(expr);
      case sql::ExprKind::kCast: {
        ARROW_ASSIGN_OR_RAISE(auto input, Bind(*expr.children[0]));
        ARROW_ASSIGN_OR_RAISE(auto type, TypeFromName(expr.type, expr.pos));
        ARROW_RETURN_NOT_OK(CheckAnsiCast(*input->type, *type, expr.is_try, expr));
        return MakeCall(expr.is_try ? "TRY_CAST" : "CAST", {input}, type);
      }
      case sql::ExprKind::kCase: return BindCase(expr);
      case sql::ExprKind::kIn: return BindIn(expr);
      case sql::ExprKind::kBetween: {
        ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children[0]));
        ARROW_ASSIGN_OR_RAISE(auto low, Bind(*expr.children[1]));
        ARROW_ASSIGN_OR_RAISE(auto high, Bind(*expr.children[2]));
        ARROW_ASSIGN_OR_RAISE(auto lower, Compare(expr, ">=", value, low));
        ARROW_ASSIGN_OR_RAISE(auto upper, Compare(expr, "<=", value, high));
        auto both = MakeCall("AND", {lower, upper}, arrow::boolean());
        return expr.negated ? MakeCall("NOT", {both}, arrow::boolean()) : both;
      }
      case sql::ExprKind::kLike: return BindLike(expr);
      case sql::ExprKind::kIsNull: {
        ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children[0]));
        return MakeCall(expr.negated ? "IS_NOT_NULL" : "IS_NULL", {value}, arrow::boolean());
      }
      case sql::ExprKind::kLambda:
        return AnalysisError("INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION",
                             fmt::format("Invalid lambda function call. A lambda function "
                                         "should only be used in a higher order function: "
                                         "\"{}\".",
                                         expr.source_text),
                             expr.pos);
      case sql::ExprKind::kIsBool: {
        ARROW_ASSIGN_OR_RAISE(auto value, BindBoolean(expr, *expr.children[0]));
        bool want_true = expr.text == "true";
        auto test = want_true ? value : MakeCall("NOT", {value}, arrow::boolean());
        auto definite = MakeCall(
            "COALESCE", {test, MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>(false))},
            arrow::boolean());
        return expr.negated ? MakeCall("NOT", {definite}, arrow::boolean()) : definite;
      }
    }
    return Status::Invalid("unknown expression kind");
  }

 private:
  // The parser reads Spark's whole expression grammar; these forms are named when met rather
  // than misread as unknown functions.
  static Status CheckSupportedForm(const sql::Expr& expr) {
    auto unsupported = [&](std::string_view condition, std::string_view what) {
      return AnalysisError(condition,
                           fmt::format("{} is not supported yet: \"{}\".", what, expr.source_text),
                           expr.pos);
    };
    if (expr.subquery_kind != sql::SubqueryKind::kNone) {
      return unsupported("UNSUPPORTED_FEATURE.SUBQUERY", "A subquery expression");
    }
    if (!expr.within_group.empty() &&
        !(expr.name_parts.size() == 1 && IsCollectingAggregate(ToLowerAscii(expr.name_parts[0])))) {
      return unsupported("UNSUPPORTED_FEATURE.WITHIN_GROUP", "WITHIN GROUP");
    }
    return Status::OK();
  }

  // A name resolves in the scope, else in the scopes of the enclosing queries, innermost first.
  Result<BoundExprPtr> BindColumn(const sql::Expr& expr) {
    // A lambda's parameters hide the columns of the same name.
    if (expr.name_parts.size() == 1) {
      for (const auto& variable : lambda_variables_) {
        if (NameEquals(variable.name, expr.name_parts[0])) {
          return MakeColumnRef(variable.field, variable.name, variable.type);
        }
      }
    }
    auto found = ResolveColumn(expr.name_parts, scope_, expr.pos);
    if (!found.ok() && ErrorCondition(found.status()) != "AMBIGUOUS_REFERENCE") {
      if (auto parameter = ResolveSqlFunctionParameter(expr.name_parts, &scope_, expr.pos)) {
        return *std::move(parameter);
      }
      const auto& outer = options_.outer_scopes;
      for (size_t level = 0; level < outer.size(); ++level) {
        auto outer_found = ResolveColumn(expr.name_parts, *outer[level], expr.pos);
        if (!outer_found.ok()) {
          if (ErrorCondition(outer_found.status()) == "AMBIGUOUS_REFERENCE") {
            return outer_found.status();
          }
          continue;
        }
        if (level > 0) {
          return AnalysisError(
              "UNSUPPORTED_FEATURE.SUBQUERY",
              fmt::format("A subquery referring to a query other than the one directly around "
                          "it is not supported yet: {}.",
                          QuotedName(expr.name_parts)),
              expr.pos);
        }
        found = outer_found;
        break;
      }
    }
    if (!found.ok() && IsNiladicFunction(expr)) return BindFunction(expr);
    if (!found.ok() && ErrorCondition(found.status()) != "AMBIGUOUS_REFERENCE") {
      for (size_t prefix = expr.name_parts.size() - 1; prefix >= 1; --prefix) {
        std::vector<std::string> column_parts(expr.name_parts.begin(),
                                              expr.name_parts.begin() + prefix);
        auto column = ResolveColumn(column_parts, scope_, expr.pos);
        if (!column.ok() || (*column)->type->id() != arrow::Type::STRUCT) continue;
        return BindFieldAccess(expr, **column, prefix);
      }
    }
    if (!found.ok() && ErrorCondition(found.status()) == "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION") {
      return WithParameterSuggestions(expr, found.status());
    }
    ARROW_ASSIGN_OR_RAISE(const ScopeColumn* column, found);
    return MakeColumnRef(column->field, column->name, column->type);
  }

  // Inside a SQL function's body, a name nothing resolves gets the parameters as suggestions.
  static Status WithParameterSuggestions(const sql::Expr& expr, Status unresolved) {
    const auto parameters = SqlFunctionParameterNames();
    if (parameters.empty()) return unresolved;
    std::vector<std::string> suggestions;
    for (const auto& nearest : NearestNames(expr.name_parts.back(), parameters, 5)) {
      suggestions.push_back(QuoteIdentifier(nearest));
    }
    return AnalysisError(
        "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        fmt::format("A column, variable, or function parameter with name {} cannot be resolved. "
                    "Did you mean one of the following? [{}].",
                    QuotedName(expr.name_parts), fmt::join(suggestions, ", ")),
        expr.pos);
  }

  // `column.field[.field...]` on a struct column: struct_field calls, one per field (matched
  // case-insensitively). A missing field fails with FIELD_NOT_FOUND naming the fields there are.
  Result<BoundExprPtr> BindFieldAccess(const sql::Expr& expr, const ScopeColumn& column,
                                       size_t first_field) {
    BoundExprPtr value = MakeColumnRef(column.field, column.name, column.type);
    for (size_t i = first_field; i < expr.name_parts.size(); ++i) {
      const std::string& name = expr.name_parts[i];
      if (value->type->id() != arrow::Type::STRUCT) {
        return AnalysisError("INVALID_EXTRACT_BASE_FIELD_TYPE",
                             fmt::format("Can't extract a value from {}. Need a complex type "
                                         "[STRUCT, ARRAY, MAP] but got \"{}\".",
                                         QuotedName(std::vector<std::string>(
                                             expr.name_parts.begin(), expr.name_parts.begin() + i)),
                                         SqlTypeName(*value->type)),
                             expr.pos);
      }
      std::shared_ptr<arrow::Field> field;
      std::vector<std::string> names;
      for (const auto& child : value->type->fields()) {
        names.push_back(QuoteIdentifier(child->name()));
        if (field == nullptr && NameEquals(child->name(), name)) field = child;
      }
      if (field == nullptr) {
        return AnalysisError("FIELD_NOT_FOUND",
                             fmt::format("No such struct field {} in {}.", QuoteIdentifier(name),
                                         fmt::join(names, ", ")),
                             expr.pos);
      }
      auto access = std::make_shared<BoundExpr>(
          *MakeCall("struct_field",
                    {value, MakeBoundLiteral(std::make_shared<arrow::StringScalar>(field->name()))},
                    field->type()));
      access->display = field->name();  // Spark names `s.f` after the field
      value = std::move(access);
    }
    return value;
  }

  // CURRENT_DATE and CURRENT_TIMESTAMP may be written without parentheses; as in Spark, a
  // column of that name wins.
  static bool IsNiladicFunction(const sql::Expr& expr) {
    if (expr.name_parts.size() != 1) return false;
    std::string name = ToLowerAscii(expr.name_parts[0]);
    return name == "current_date" || name == "current_timestamp";
  }

  Result<BoundExprPtr> BindBoolean(const sql::Expr& parent, const sql::Expr& operand) {
    ARROW_ASSIGN_OR_RAISE(auto bound, Bind(operand));
    if (bound->type->id() == arrow::Type::NA) return CastTo(bound, arrow::boolean());
    if (bound->type->id() != arrow::Type::BOOL) {
      return UnexpectedType(parent, operand, *bound->type, "\"BOOLEAN\"");
    }
    return bound;
  }

  Result<BoundExprPtr> BindUnary(const sql::Expr& expr) {
    if (expr.op == "NOT") {
      ARROW_ASSIGN_OR_RAISE(auto value, BindBoolean(expr, *expr.children[0]));
      return MakeCall("NOT", {value}, arrow::boolean());
    }
    ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children[0]));
    if (!IsNumeric(*value->type) && value->type->id() != arrow::Type::NA) {
      return UnexpectedType(expr, *expr.children[0], *value->type, "\"NUMERIC\"");
    }
    if (expr.op == "+") return value;
    if (expr.op == "~") return MakeCall("~", {value}, value->type);
    return MakeCall("NEGATE", {value}, value->type);
  }

  Result<BoundExprPtr> Compare(const sql::Expr& expr, const std::string& op, BoundExprPtr left,
                               BoundExprPtr right) {
    auto common = CommonType(left->type, right->type);
    if (common == nullptr) {
      return TypeMismatch(expr, fmt::format("the left and right operands of the binary operator "
                                            "have incompatible types (\"{}\" and \"{}\")",
                                            SqlTypeName(*left->type), SqlTypeName(*right->type)));
    }
    // NULL compared with NULL: any one type serves; Arrow needs a concrete one.
    if (common->id() == arrow::Type::NA) common = arrow::boolean();
    return MakeCall(op, {CastTo(left, common), CastTo(right, common)}, arrow::boolean());
  }

  Result<BoundExprPtr> BindBinary(const sql::Expr& expr) {
    const std::string& op = expr.op;
    if (op == "AND" || op == "OR") {
      ARROW_ASSIGN_OR_RAISE(auto left, BindBoolean(expr, *expr.children[0]));
      ARROW_ASSIGN_OR_RAISE(auto right, BindBoolean(expr, *expr.children[1]));
      return MakeCall(op, {left, right}, arrow::boolean());
    }
    ARROW_ASSIGN_OR_RAISE(auto left, Bind(*expr.children[0]));
    ARROW_ASSIGN_OR_RAISE(auto right, Bind(*expr.children[1]));
    static const std::set<std::string> kComparisons = {"=",  "==", "<>", "!=", "<",
                                                       "<=", ">",  ">=", "<=>"};
    if (kComparisons.count(op)) {
      std::string name = op == "==" ? "=" : op == "!=" ? "<>" : op;
      return Compare(expr, name, left, right);
    }
    if (op == "||") {
      return MakeCall("||", {CastTo(left, arrow::utf8()), CastTo(right, arrow::utf8())},
                      arrow::utf8());
    }
    if (op == "<<" || op == ">>" || op == ">>>") {
      // The shift operators are the functions shiftleft, shiftright and shiftrightunsigned.
      FunctionCall call{expr, op, {left, right}, nullptr, nullptr, nullptr};
      return (*FunctionRegistry::Builtin().FindTypeRule(op))(call);
    }
    return BindArithmetic(expr, op, left, right);
  }

  // DECIMAL(digits, 0) of a non-NULL integer literal, its digits those of its value.
  static std::optional<std::shared_ptr<arrow::DataType>> LiteralDecimalType(
      const BoundExpr& operand) {
    if (operand.kind != BoundExpr::Kind::kLiteral || !IsIntegral(*operand.type) ||
        operand.literal == nullptr || !operand.literal->is_valid) {
      return std::nullopt;
    }
    std::string digits = operand.literal->ToString();
    if (!digits.empty() && digits[0] == '-') digits.erase(0, 1);
    return arrow::decimal128(static_cast<int32_t>(std::max<size_t>(digits.size(), 1)), 0);
  }

  Result<BoundExprPtr> BindArithmetic(const sql::Expr& expr, const std::string& op,
                                      BoundExprPtr left, BoundExprPtr right) {
    if (IsDatetimeArithmetic(*left, *right)) {
      return BindDatetimeArithmetic(expr, op, std::move(left), std::move(right));
    }
    auto numeric_or_null = [](const arrow::DataType& t) {
      return IsNumeric(t) || t.id() == arrow::Type::NA || IsStringLike(t);
    };
    if (!numeric_or_null(*left->type) || !numeric_or_null(*right->type)) {
      return TypeMismatch(expr, fmt::format("the binary operator requires numeric operands, "
                                            "got \"{}\" and \"{}\"",
                                            SqlTypeName(*left->type), SqlTypeName(*right->type)));
    }
    // ANSI: a string beside an integer is read as a BIGINT, otherwise as a DOUBLE; two strings
    // are no numbers.
    if (IsStringLike(*left->type) && IsStringLike(*right->type)) {
      return AnalysisError("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE",
                           fmt::format("Cannot resolve \"{}\" due to data type mismatch: the "
                                       "binary operator requires the input type (\"NUMERIC\" or "
                                       "\"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO "
                                       "MONTH\" or \"INTERVAL\"), not \"STRING\".",
                                       expr.source_text),
                           expr.pos);
    }
    for (auto* operand : {&left, &right}) {
      if (!IsStringLike(*(*operand)->type)) continue;
      const auto& other = operand == &left ? right : left;
      *operand = CastTo(*operand, IsIntegral(*other->type) ? arrow::int64() : arrow::float64());
    }
    auto common = CommonType(left->type, right->type);
    if (common->id() == arrow::Type::NA) common = arrow::int32();
    if (op == "DIV") {
      // Decimals divide exactly (a decimal and an integer: the integer as a decimal); every
      // other operand is a BIGINT.
      if (common->id() == arrow::Type::DECIMAL128) {
        auto as_decimal = [](BoundExprPtr operand) {
          return operand->type->id() == arrow::Type::DECIMAL128
                     ? operand
                     : CastTo(operand, ExactDecimalOf(*operand->type));
        };
        return MakeCall("DIV", {as_decimal(left), as_decimal(right)}, arrow::int64());
      }
      return MakeCall("DIV", {CastTo(left, arrow::int64()), CastTo(right, arrow::int64())},
                      arrow::int64());
    }
    if (op == "&" || op == "|" || op == "^") {
      if (!IsIntegral(*common)) {
        return TypeMismatch(expr, "bitwise operators require integral operands");
      }
      return MakeCall(op, {CastTo(left, common), CastTo(right, common)}, common);
    }
    if (common->id() == arrow::Type::DECIMAL128) {
      // Each operand stays at its own precision and scale (a common type capped at 38 digits
      // could not hold both: DECIMAL(38,37) * 10); an integer becomes the decimal that holds
      // it exactly, an integer literal the narrowest one that holds its value, as in Spark
      // (DECIMAL(10,2) / 3 is a DECIMAL(14,6), not a DECIMAL(21,13)).
      auto as_decimal = [&common](BoundExprPtr operand) {
        if (operand->type->id() == arrow::Type::DECIMAL128) return operand;
        if (!IsIntegral(*operand->type)) return CastTo(operand, common);
        return CastTo(operand,
                      LiteralDecimalType(*operand).value_or(ExactDecimalOf(*operand->type)));
      };
      left = as_decimal(std::move(left));
      right = as_decimal(std::move(right));
      return MakeCall(op, {left, right}, DecimalResultType(op[0], *left->type, *right->type));
    }
    if (op == "/") common = arrow::float64();
    return MakeCall(op, {CastTo(left, common), CastTo(right, common)}, common);
  }

  Result<BoundExprPtr> BindCase(const sql::Expr& expr) {
    size_t index = 0;
    BoundExprPtr operand;
    if (expr.has_operand) {
      ARROW_ASSIGN_OR_RAISE(operand, Bind(*expr.children[index++]));
    }
    size_t end = expr.children.size() - (expr.has_else ? 1 : 0);
    std::vector<BoundExprPtr> conditions;
    std::vector<BoundExprPtr> values;
    for (; index + 1 < end; index += 2) {
      BoundExprPtr condition;
      if (operand) {
        ARROW_ASSIGN_OR_RAISE(auto when, Bind(*expr.children[index]));
        ARROW_ASSIGN_OR_RAISE(condition, Compare(expr, "=", operand, when));
      } else {
        ARROW_ASSIGN_OR_RAISE(condition, BindBoolean(expr, *expr.children[index]));
      }
      conditions.push_back(condition);
      ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children[index + 1]));
      values.push_back(value);
    }
    if (expr.has_else) {
      ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children.back()));
      values.push_back(value);
    }
    std::shared_ptr<arrow::DataType> type = arrow::null();
    for (const auto& value : values) {
      auto common = CommonType(type, value->type);
      if (common == nullptr) {
        return AnalysisError(
            "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: the branches of "
                        "CASE have different types (\"{}\" and \"{}\").",
                        expr.source_text, SqlTypeName(*type), SqlTypeName(*value->type)),
            expr.pos);
      }
      type = common;
    }
    if (type->id() == arrow::Type::NA) type = arrow::utf8();
    std::vector<BoundExprPtr> args;
    for (size_t i = 0; i < conditions.size(); ++i) {
      args.push_back(conditions[i]);
      args.push_back(CastTo(values[i], type));
    }
    if (expr.has_else) args.push_back(CastTo(values.back(), type));
    auto call = std::const_pointer_cast<BoundExpr>(MakeCall("CASE_WHEN", std::move(args), type));
    call->has_else = expr.has_else;
    return call;
  }

  Result<BoundExprPtr> BindIn(const sql::Expr& expr) {
    ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children[0]));
    std::vector<BoundExprPtr> items;
    auto type = value->type;
    for (size_t i = 1; i < expr.children.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto item, Bind(*expr.children[i]));
      auto common = CommonType(type, item->type);
      if (common == nullptr) {
        return AnalysisError(
            "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
            fmt::format("Cannot resolve \"{}\" due to data type mismatch: the values of IN "
                        "have different types (\"{}\" and \"{}\").",
                        expr.source_text, SqlTypeName(*value->type), SqlTypeName(*item->type)),
            expr.pos);
      }
      type = common;
      items.push_back(item);
    }
    std::vector<BoundExprPtr> args = {CastTo(value, type)};
    for (const auto& item : items) args.push_back(CastTo(item, type));
    auto in = MakeCall("IN", std::move(args), arrow::boolean());
    return expr.negated ? MakeCall("NOT", {in}, arrow::boolean()) : in;
  }

  Result<BoundExprPtr> BindLike(const sql::Expr& expr) {
    return BindLikeOf(expr, expr.op, expr.text, expr.negated);
  }

  // The type a cast function of that name makes: date(x) is CAST(x AS DATE); nullptr for
  // another name.
  static std::shared_ptr<arrow::DataType> CastFunctionType(const std::string& name) {
    static const std::map<std::string, std::shared_ptr<arrow::DataType>> kTypes = {
        {"date", arrow::date32()},
        {"timestamp", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")},
        {"boolean", arrow::boolean()},
        {"tinyint", arrow::int8()},
        {"smallint", arrow::int16()},
        {"int", arrow::int32()},
        {"bigint", arrow::int64()},
        {"float", arrow::float32()},
        {"double", arrow::float64()},
        {"decimal", arrow::decimal128(10, 0)},
        {"string", arrow::utf8()},
        {"binary", arrow::binary()}};
    auto it = kTypes.find(name);
    return it == kTypes.end() ? nullptr : it->second;
  }

  // like(value, pattern[, escape]) and ilike(...): the LIKE operator as a function.
  Result<BoundExprPtr> BindLikeCall(const sql::Expr& expr, const std::string& name) {
    if (expr.children.size() < 2 || expr.children.size() > 3) {
      return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           fmt::format("The `{}` requires [2, 3] parameters but the actual number "
                                       "is {}.",
                                       name, expr.children.size()),
                           expr.pos);
    }
    std::string escape;
    if (expr.children.size() == 3) {
      const auto& given = *expr.children[2];
      if (given.kind != sql::ExprKind::kLiteral ||
          given.literal_kind != sql::LiteralKind::kString || given.text.size() != 1) {
        return AnalysisError("INVALID_ESCAPE_CHAR",
                             fmt::format("`EscapeChar` should be a string literal of length one, "
                                         "but got \"{}\".",
                                         given.text),
                             expr.pos);
      }
      escape = given.text;
    }
    return BindLikeOf(expr, name == "ilike" ? "ILIKE" : "LIKE", escape, /*negated=*/false);
  }

  // `children[0] op children[1]` of `expr` (LIKE, ILIKE or RLIKE), with `escape` ("" for \\).
  Result<BoundExprPtr> BindLikeOf(const sql::Expr& expr, const std::string& op,
                                  const std::string& escape, bool negated) {
    ARROW_ASSIGN_OR_RAISE(auto value, Bind(*expr.children[0]));
    ARROW_ASSIGN_OR_RAISE(auto pattern, Bind(*expr.children[1]));
    if (!IsStringLike(*value->type) && value->type->id() != arrow::Type::NA) {
      return UnexpectedType(expr, *expr.children[0], *value->type, "\"STRING\"");
    }
    if (pattern->kind != BoundExpr::Kind::kLiteral || !IsStringLike(*pattern->type)) {
      return AnalysisError(
          "UNSUPPORTED_FEATURE.PATTERN",
          fmt::format("The pattern of \"{}\" must be a string literal.", expr.source_text),
          expr.pos);
    }
    value = CastTo(value, arrow::utf8());
    BoundExprPtr result;
    if (op == "RLIKE") {
      result = MakeCall("RLIKE", {value, pattern}, arrow::boolean());
    } else {
      std::string text = pattern->literal->is_valid
                             ? static_cast<const arrow::StringScalar&>(*pattern->literal).ToString()
                             : std::string();
      ARROW_ASSIGN_OR_RAISE(text, MatcherPattern(expr, escape, text));
      result = SimplifyLike(value, text, op == "ILIKE");
      if (result == nullptr) {
        auto matcher = MakeBoundLiteral(std::make_shared<arrow::StringScalar>(text));
        result = MakeCall(op, {value, matcher}, arrow::boolean());
      }
    }
    return negated ? MakeCall("NOT", {result}, arrow::boolean()) : result;
  }

  // A LIKE pattern with its ESCAPE character (default backslash) rewritten for Arrow's matcher,
  // whose escape is always \\. The escape may precede only %, _ or itself, as in Spark.
  static Result<std::string> MatcherPattern(const sql::Expr& expr, const std::string& given_escape,
                                            const std::string& pattern) {
    std::string escape = given_escape.empty() ? "\\" : given_escape;
    auto invalid = [&](std::string_view condition, std::string detail) {
      return AnalysisError(
          condition, fmt::format("The format is invalid: '{}'. {}", pattern, detail), expr.pos);
    };
    std::string out;
    for (size_t i = 0; i < pattern.size();) {
      if (pattern.compare(i, escape.size(), escape) != 0) {
        if (pattern[i] == '\\') out += '\\';
        out += pattern[i++];
        continue;
      }
      i += escape.size();
      if (i >= pattern.size()) {
        return invalid("INVALID_FORMAT.ESC_AT_THE_END",
                       "The escape character is not allowed to end with.");
      }
      if (pattern[i] == '%' || pattern[i] == '_') {
        out += '\\';
        out += pattern[i++];
      } else if (pattern.compare(i, escape.size(), escape) == 0) {
        if (escape == "\\") out += '\\';
        out += escape;
        i += escape.size();
      } else {
        return invalid(
            "INVALID_FORMAT.ESC_IN_THE_MIDDLE",
            fmt::format("The escape character is not allowed to precede '{}'.", pattern[i]));
      }
    }
    return out;
  }

  // LIKE 'abc%' -> STARTS_WITH, '%abc' -> ENDS_WITH, '%abc%' -> CONTAINS, 'abc' -> =, as
  // Spark's LikeSimplification does; nullptr when the pattern needs the general matcher.
  static BoundExprPtr SimplifyLike(const BoundExprPtr& value, const std::string& pattern,
                                   bool case_insensitive) {
    if (case_insensitive) return nullptr;
    bool leading = !pattern.empty() && pattern.front() == '%';
    bool trailing = pattern.size() > (leading ? 1u : 0u) && pattern.back() == '%';
    std::string core = pattern.substr(leading ? 1 : 0);
    if (trailing) core.pop_back();
    if (core.find_first_of("%_\\") != std::string::npos) return nullptr;
    auto literal = MakeBoundLiteral(std::make_shared<arrow::StringScalar>(core));
    const char* name = leading && trailing ? "CONTAINS"
                       : leading           ? "ENDS_WITH"
                       : trailing          ? "STARTS_WITH"
                                           : "=";
    return MakeCall(name, {value, literal}, arrow::boolean());
  }

  Result<BoundExprPtr> BindFunction(const sql::Expr& expr) {
    std::string name = ToLowerAscii(expr.name_parts.back());
    if (!expr.argument_names.empty()) ARROW_RETURN_NOT_OK(CheckNamedArgumentsAllowed(expr, name));
    // Window calls go to the hook, which knows whether the clause allows them.
    if (expr.window) {
      if (options_.aggregate_hook) return options_.aggregate_hook(expr);
      return AnalysisError("INVALID_WHERE_CONDITION",
                           fmt::format("The WHERE condition contains the window function \"{}\"; "
                                       "window functions are allowed in SELECT and ORDER BY.",
                                       expr.source_text),
                           expr.pos);
    }
    if (expr.name_parts.size() == 1 && IsWindowOnlyFunction(name)) {
      return AnalysisError(
          "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE",
          fmt::format("Window function \"{}\" requires an OVER clause.", expr.source_text),
          expr.pos);
    }
    if (expr.name_parts.size() == 1 && IsAggregateFunction(name)) {
      if (options_.aggregate_hook) return options_.aggregate_hook(expr);
      return MisplacedAggregate(expr);
    }
    // date(x), int(x), string(x)...: CAST(x AS DATE), CAST(x AS INT), CAST(x AS STRING).
    auto cast_type =
        expr.name_parts.size() == 1 && expr.children.size() == 1 ? CastFunctionType(name) : nullptr;
    if (cast_type != nullptr) {
      ARROW_ASSIGN_OR_RAISE(auto input, Bind(*expr.children[0]));
      auto type = cast_type;
      ARROW_RETURN_NOT_OK(CheckAnsiCast(*input->type, *type, false, expr));
      if (input->type->Equals(*type)) return input;
      return MakeCall("CAST", {input}, type);
    }
    if (expr.name_parts.size() == 1 && IsGeneratorName(name)) {
      return AnalysisError("UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS",
                           fmt::format("The generator is not supported: nested in expressions "
                                       "\"{}\".",
                                       expr.source_text),
                           expr.pos);
    }
    if (expr.interval) {
      ARROW_ASSIGN_OR_RAISE(auto value, IntervalValue(expr));
      return MakeBoundLiteral(std::move(value));
    }
    if (expr.name_parts.size() == 1 && (name == "like" || name == "ilike")) {
      return BindLikeCall(expr, name);
    }
    const TypeRule* rule =
        expr.name_parts.size() == 1 ? FunctionRegistry::Builtin().FindTypeRule(name) : nullptr;
    if (rule != nullptr) {
      FunctionCall call{expr,
                        name,
                        {},
                        [this, &expr](const std::string& op, BoundExprPtr left,
                                      BoundExprPtr right) -> Result<BoundExprPtr> {
                          if (op == "<=>" || op == "=") return Compare(expr, op, left, right);
                          return BindArithmetic(expr, op, std::move(left), std::move(right));
                        },
                        nullptr,
                        nullptr};
      for (const auto& child : expr.children) {
        if (child->kind == sql::ExprKind::kLambda && TakesLambdas(name)) {
          call.args.push_back(nullptr);
          continue;
        }
        ARROW_ASSIGN_OR_RAISE(auto arg, Bind(*child));
        call.args.push_back(arg);
      }
      call.bind_lambda = [this, &expr](size_t index,
                                       const std::vector<std::shared_ptr<arrow::DataType>>& types) {
        return BindLambda(*expr.children[index], types);
      };
      call.parse_schema = [&expr](std::string_view text) { return SchemaFromText(text, expr.pos); };
      return (*rule)(call);
    }
    ARROW_ASSIGN_OR_RAISE(auto routine, FindRoutine(expr));
    if (routine.function != nullptr) {
      std::vector<BoundExprPtr> args;
      for (const auto& child : expr.children) {
        ARROW_ASSIGN_OR_RAISE(auto arg, Bind(*child));
        args.push_back(std::move(arg));
      }
      if (const auto* sql = dynamic_cast<const SqlFunction*>(routine.function.get())) {
        return BindSqlFunctionCall(expr, routine, *sql, std::move(args), options_);
      }
      ARROW_ASSIGN_OR_RAISE(auto bound, BindRoutineFunction(expr, routine, args));
      if (dynamic_cast<const AggregateFunction*>(bound.get()) != nullptr) {
        if (options_.aggregate_hook) return options_.aggregate_hook(expr);
        return MisplacedAggregate(expr);
      }
      return BindScalarRoutineCall(expr, routine, std::move(bound), std::move(args));
    }
    return AnalysisError(
        "UNRESOLVED_ROUTINE",
        fmt::format("Cannot resolve routine {} on search path [`system`.`builtin`].",
                    QuotedName(expr.name_parts)),
        expr.pos);
  }

  // An aggregate where no aggregate is allowed (WHERE, GROUP BY, a join condition).
  static Status MisplacedAggregate(const sql::Expr& expr) {
    return AnalysisError("INVALID_WHERE_CONDITION",
                         fmt::format("The WHERE condition contains the aggregate \"{}\"; "
                                     "aggregates are allowed in SELECT, HAVING and ORDER BY.",
                                     expr.source_text),
                         expr.pos);
  }

  // Only SQL functions take arguments by name: NAMED_PARAMETERS_NOT_SUPPORTED for any other
  // function (a name no function has is left to UNRESOLVED_ROUTINE).
  static Status CheckNamedArgumentsAllowed(const sql::Expr& expr, const std::string& name) {
    const bool builtin =
        expr.name_parts.size() == 1 && (FunctionRegistry::Builtin().FindTypeRule(name) != nullptr ||
                                        IsAggregateFunction(name) || IsWindowOnlyFunction(name));
    if (!builtin) {
      ARROW_ASSIGN_OR_RAISE(auto routine, FindRoutine(expr));
      if (routine.function == nullptr ||
          dynamic_cast<const SqlFunction*>(routine.function.get()) != nullptr) {
        return Status::OK();
      }
    }
    return AnalysisError("NAMED_PARAMETERS_NOT_SUPPORTED",
                         fmt::format("Named parameters are not supported for function {}; "
                                     "please retry the query with positional arguments to the "
                                     "function call instead.",
                                     QuoteIdentifier(name)),
                         expr.pos);
  }

  // A lambda's body, bound with its parameters (of `types`) in scope.
  Result<BoundExprPtr> BindLambda(const sql::Expr& lambda,
                                  const std::vector<std::shared_ptr<arrow::DataType>>& types) {
    const auto& names = lambda.name_parts;
    for (size_t i = 0; i < names.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (NameEquals(names[i], names[j])) {
          return AnalysisError("INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES",
                               fmt::format("Invalid lambda function call. The lambda function "
                                           "has duplicate arguments [`{}`]. Please, consider to "
                                           "rename the argument names.",
                                           names[i]),
                               lambda.pos);
        }
      }
    }
    if (names.size() != types.size()) {
      return AnalysisError("INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH",
                           fmt::format("Invalid lambda function call. A higher order function "
                                       "expects {} arguments, but got {}.",
                                       types.size(), names.size()),
                           lambda.pos);
    }
    Binder body_binder(scope_, options_);
    std::vector<std::string> fields;
    for (size_t i = 0; i < names.size(); ++i) {
      fields.push_back(NewLambdaVariableField(names[i]));
      body_binder.lambda_variables_.push_back({{}, names[i], fields.back(), types[i]});
    }
    body_binder.lambda_variables_.insert(body_binder.lambda_variables_.end(),
                                         lambda_variables_.begin(), lambda_variables_.end());
    ARROW_ASSIGN_OR_RAISE(auto body, body_binder.Bind(*lambda.children[0]));
    return MakeLambdaFunction(std::move(body), fields);
  }

  const Scope& scope_;
  const BindOptions& options_;
  // The parameters of the lambdas whose bodies are being bound, innermost first.
  std::vector<ScopeColumn> lambda_variables_;
};

}  // namespace

const std::set<std::string>& AggregateFunctionNames() {
  // grouping() and grouping_id() are bound with the aggregates: they too read the grouping.
  static const std::set<std::string> kAggregates = [] {
    std::set<std::string> names = {"count",     "sum",      "avg",         "mean",     "min",
                                   "max",       "grouping", "grouping_id", "count_if", "bool_and",
                                   "every",     "bool_or",  "some",        "any",      "regr_count",
                                   "regr_avgx", "regr_avgy"};
    for (const auto& name : BuiltinLibraryAggregateNames()) names.insert(name);
    for (const auto& name : CollectingAggregateNames()) names.insert(name);
    return names;
  }();
  return kAggregates;
}

bool IsAggregateFunction(const std::string& name) {
  return AggregateFunctionNames().count(ToLowerAscii(name)) > 0;
}

Result<const ScopeColumn*> ResolveColumn(const std::vector<std::string>& name_parts,
                                         const Scope& scope, SourcePosition pos) {
  std::vector<const ScopeColumn*> matches;
  const std::string& column_name = name_parts.back();
  for (bool hidden : {false, true}) {
    for (const auto& column : scope) {
      if (column.hidden != hidden || !NameEquals(column.name, column_name)) continue;
      size_t qualifier_parts = name_parts.size() - 1;
      if (qualifier_parts > column.qualifier.size()) continue;
      bool match = true;
      size_t offset = column.qualifier.size() - qualifier_parts;
      for (size_t i = 0; i < qualifier_parts; ++i) {
        if (!NameEquals(column.qualifier[offset + i], name_parts[i])) match = false;
      }
      if (match) matches.push_back(&column);
    }
    if (!matches.empty()) break;
  }
  if (matches.size() == 1) return matches[0];
  if (matches.size() > 1) {
    return AnalysisError(
        "AMBIGUOUS_REFERENCE",
        fmt::format("Reference {} is ambiguous, could be: [{}].", QuotedName(name_parts),
                    fmt::join(
                        [&] {
                          std::vector<std::string> names;
                          for (auto* m : matches) {
                            auto parts = m->qualifier;
                            parts.push_back(m->name);
                            names.push_back(QuotedName(parts));
                          }
                          return names;
                        }(),
                        ", ")),
        pos);
  }
  if (scope.empty()) {
    return AnalysisError(
        "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
        fmt::format("A column, variable, or function parameter with name {} cannot be resolved.",
                    QuotedName(name_parts)),
        pos);
  }
  std::vector<std::string> names;
  for (const auto& column : scope) {
    if (!column.hidden) names.push_back(column.name);
  }
  std::vector<std::string> suggestions;
  for (const auto& nearest : NearestNames(column_name, names, 5)) {
    suggestions.push_back(QuoteIdentifier(nearest));
  }
  return AnalysisError(
      "UNRESOLVED_COLUMN.WITH_SUGGESTION",
      fmt::format("A column, variable, or function parameter with name {} cannot be resolved. "
                  "Did you mean one of the following? [{}].",
                  QuotedName(name_parts), fmt::join(suggestions, ", ")),
      pos);
}

Result<BoundExprPtr> BindExpression(const sql::Expr& expr, const Scope& scope,
                                    const AggregateHook& aggregate_hook) {
  return BindExpression(expr, scope, BindOptions{aggregate_hook, nullptr, {}});
}

Result<BoundExprPtr> BindExpression(const sql::Expr& expr, const Scope& scope,
                                    const BindOptions& options) {
  return Binder(scope, options).Bind(expr);
}

}  // namespace parley
