// Expanding calls of SQL functions (sql_function_binder.h).
#include "analysis/sql_function_binder.h"

#include <fmt/format.h>

#include <set>

#include "analysis/analysis_error.h"
#include "analysis/cast_rules.h"
#include "analysis/from_binder.h"
#include "analysis/name_suggestions.h"
#include "analysis/query_binder.h"
#include "analysis/routine_arguments.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "sql/parser.h"

namespace parley {
namespace {

// The parameters of one function whose body is being bound: their names and values.
struct ParameterFrame {
  std::string function;
  std::vector<std::pair<std::string, BoundExprPtr>> values;
  // The scope of the body's top level; null when every value is constant.
  const Scope* body_scope = nullptr;
};

thread_local std::vector<const ParameterFrame*> parameter_frames;
// The qualified names of the SQL functions being expanded on this thread, outermost first.
thread_local std::vector<std::string> expanding_functions;

class FrameGuard {
 public:
  explicit FrameGuard(const ParameterFrame* frame) { parameter_frames.push_back(frame); }
  ~FrameGuard() { parameter_frames.pop_back(); }
};

class ExpansionGuard {
 public:
  explicit ExpansionGuard(std::string name) { expanding_functions.push_back(std::move(name)); }
  ~ExpansionGuard() { expanding_functions.pop_back(); }
};

Status CheckNotExpanding(const std::string& qualified_name, SourcePosition pos) {
  auto outer = std::find(expanding_functions.begin(), expanding_functions.end(), qualified_name);
  if (outer == expanding_functions.end()) return Status::OK();
  std::string cycle;
  for (auto it = outer; it != expanding_functions.end(); ++it) cycle += *it + " -> ";
  return AnalysisError(
      "CYCLIC_FUNCTION_REFERENCE",
      fmt::format("Cyclic function reference detected: {}{}.", cycle, qualified_name), pos);
}

// The name errors give the function: the last part of its qualified name, as Spark's routine
// errors do.
std::string ShortName(const std::string& qualified_name) {
  const size_t dot = qualified_name.rfind('.');
  return dot == std::string::npos ? qualified_name : qualified_name.substr(dot + 1);
}

// `value` cast to `type`, when Spark's ANSI CAST allows it (`expr` names the value in errors).
Result<BoundExprPtr> CastValue(BoundExprPtr value, const std::shared_ptr<arrow::DataType>& type,
                               const sql::Expr& expr) {
  if (type == nullptr || value->type->Equals(*type)) return value;
  ARROW_RETURN_NOT_OK(CheckAnsiCast(*value->type, *type, /*is_try=*/false, expr));
  return MakeCall("CAST", {std::move(value)}, type);
}

// Each parameter's value: its argument or its default, cast to its type.
Result<std::vector<std::pair<std::string, BoundExprPtr>>> ParameterValues(
    const std::string& routine, const SqlFunctionInfo& info, std::vector<BoundExprPtr> args,
    const std::vector<const sql::Expr*>& arg_exprs, const std::vector<std::string>& arg_names,
    SourcePosition pos) {
  std::vector<ParameterSlot> slots;
  for (const auto& parameter : info.parameters) {
    slots.push_back({parameter.name, parameter.default_value.has_value()});
  }
  std::vector<std::optional<std::string>> names(args.size());
  for (size_t i = 0; i < arg_names.size() && i < names.size(); ++i) {
    if (!arg_names[i].empty()) names[i] = arg_names[i];
  }
  // Positional calls are counted against every parameter, as Spark counts them.
  size_t required = 0;
  for (const auto& slot : slots) required += slot.has_default ? 0 : 1;
  if (arg_names.empty() && (args.size() < required || args.size() > slots.size())) {
    return AnalysisError(
        "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
        fmt::format("The {} requires {} parameters but the actual number is {}. Please, refer to "
                    "'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.",
                    QuoteIdentifier(routine), slots.size(), args.size()),
        pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto matched, MatchArguments(routine, slots, names, pos));
  std::vector<std::pair<std::string, BoundExprPtr>> values;
  for (size_t p = 0; p < info.parameters.size(); ++p) {
    const SqlFunctionParameter& parameter = info.parameters[p];
    BoundExprPtr value;
    if (matched[p] < 0) {
      ARROW_ASSIGN_OR_RAISE(auto expr, sql::ParseExpression(*parameter.default_value));
      ARROW_ASSIGN_OR_RAISE(value, BindExpression(*expr, Scope{}));
      ARROW_ASSIGN_OR_RAISE(value, CastValue(std::move(value), parameter.type, *expr));
    } else {
      ARROW_ASSIGN_OR_RAISE(value,
                            CastValue(args[matched[p]], parameter.type, *arg_exprs[matched[p]]));
    }
    values.emplace_back(parameter.name, std::move(value));
  }
  return values;
}

// Each parameter standing for a NULL of its type: binding a new function's body.
std::vector<std::pair<std::string, BoundExprPtr>> NullValues(const SqlFunctionInfo& info) {
  std::vector<std::pair<std::string, BoundExprPtr>> values;
  for (const auto& parameter : info.parameters) {
    values.emplace_back(parameter.name, MakeBoundLiteral(arrow::MakeNullScalar(parameter.type)));
  }
  return values;
}

// A body as written: an expression, or (exactly one of the two is set) a query.
struct ParsedBody {
  sql::ExprPtr expr;
  std::unique_ptr<sql::SelectStatement> query;
};

Result<ParsedBody> ParseBody(const std::string& body) {
  ParsedBody parsed;
  auto expr = sql::ParseExpression(body);
  if (expr.ok()) {
    parsed.expr = std::move(expr).ValueUnsafe();
    return parsed;
  }
  ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(body));
  auto* query = std::get_if<sql::SelectStatement>(&statement.node);
  if (query == nullptr) return expr.status();
  parsed.query = std::make_unique<sql::SelectStatement>(std::move(*query));
  return parsed;
}

// Whether `query` is `SELECT expr` alone: its expression is then the body's.
bool IsSingleValue(const sql::SelectStatement& query) {
  return query.kind == sql::QueryKind::kSelect && query.with.empty() && !query.distinct &&
         query.from_item == nullptr && query.where == nullptr && !query.group_by &&
         query.having == nullptr && query.order_by.empty() && query.limit == nullptr &&
         query.offset == nullptr && query.items.size() == 1 && query.items[0].expr != nullptr &&
         query.items[0].expr->kind != sql::ExprKind::kStar;
}

// A scalar function's body as one expression: the expression written, the one value of a
// `SELECT expr`, or any other query as a scalar subquery.
sql::ExprPtr ScalarBody(ParsedBody parsed, const std::string& body) {
  if (parsed.expr != nullptr) return std::move(parsed.expr);
  auto& query = parsed.query;
  if (IsSingleValue(*query)) return std::move(query->items[0].expr);
  auto expr = std::make_unique<sql::Expr>();
  expr->kind = sql::ExprKind::kFunction;
  expr->name_parts = {"scalar_subquery"};
  expr->subquery_kind = sql::SubqueryKind::kScalar;
  expr->source_text = "(" + body + ")";
  expr->subquery = std::move(query);
  return expr;
}

// An aggregate, window or generator call in `expr` outside its subqueries: the text of the
// first, or empty.
std::string ComplexFunction(const sql::Expr& expr) {
  if (expr.kind == sql::ExprKind::kFunction && expr.subquery_kind == sql::SubqueryKind::kNone) {
    static const std::set<std::string> kGenerators = {
        "explode", "explode_outer", "posexplode", "posexplode_outer",
        "inline",  "inline_outer",  "stack"};
    const std::string name = ToLowerAscii(expr.name_parts.back());
    if (expr.window != nullptr ||
        (expr.name_parts.size() == 1 &&
         (AggregateFunctionNames().count(name) > 0 || kGenerators.count(name) > 0))) {
      return expr.source_text;
    }
  }
  for (const auto& child : expr.children) {
    std::string found = ComplexFunction(*child);
    if (!found.empty()) return found;
  }
  return "";
}

// The first of `names` that an earlier one repeats (ignoring case), if any.
std::optional<std::string> FirstRepeated(const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const auto& name : names) {
    if (!seen.insert(ToLowerAscii(name)).second) return name;
  }
  return std::nullopt;
}

// DUPLICATE_ROUTINE_RETURNS_COLUMNS when a table function's columns repeat a name.
Status CheckReturnColumns(const std::string& name, const std::vector<Column>& columns,
                          SourcePosition pos) {
  std::vector<std::string> names;
  for (const auto& column : columns) names.push_back(column.name);
  auto repeated = FirstRepeated(names);
  if (!repeated) return Status::OK();
  return AnalysisError("DUPLICATE_ROUTINE_RETURNS_COLUMNS",
                       fmt::format("Found duplicate column(s) in the RETURNS clause column list "
                                   "of the user-defined routine {}: {}.",
                                   name, QuoteIdentifier(*repeated)),
                       pos);
}

Status CheckParameters(const std::string& name, const SqlFunctionInfo& info, SourcePosition pos) {
  std::vector<std::string> names;
  for (const auto& parameter : info.parameters) names.push_back(parameter.name);
  if (auto repeated = FirstRepeated(names)) {
    return AnalysisError("DUPLICATE_ROUTINE_PARAMETER_NAMES",
                         fmt::format("Found duplicate name(s) in the parameter list of the "
                                     "user-defined routine {}: {}.",
                                     name, QuoteIdentifier(*repeated)),
                         pos);
  }
  const SqlFunctionParameter* with_default = nullptr;
  for (const auto& parameter : info.parameters) {
    if (parameter.default_value) {
      with_default = &parameter;
    } else if (with_default != nullptr) {
      return AnalysisError(
          "USER_DEFINED_FUNCTIONS.NOT_A_VALID_DEFAULT_PARAMETER_POSITION",
          fmt::format("User defined function is invalid: In routine {} parameter {} with DEFAULT "
                      "must not be followed by parameter {} without DEFAULT.",
                      QuoteIdentifier(name), QuoteIdentifier(with_default->name),
                      QuoteIdentifier(parameter.name)),
          pos);
    }
  }
  return Status::OK();
}

// A table function's columns: its body's, renamed and cast as its RETURNS TABLE says.
Result<PlanNodePtr> ProjectReturnColumns(PlanNodePtr body, const SqlFunctionInfo& info,
                                         const std::string& name, SourcePosition pos) {
  const auto& output = body->output;
  if (output.size() != info.return_columns.size()) {
    return AnalysisError(
        "USER_DEFINED_FUNCTIONS.RETURN_COLUMN_COUNT_MISMATCH",
        fmt::format("User defined function is invalid: The number of columns produced by the "
                    "RETURN clause (num: `{}`) does not match the number of column names "
                    "specified by the RETURNS clause (num: `{}`) of {}.",
                    output.size(), info.return_columns.size(), name),
        pos);
  }
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {body};
  for (size_t i = 0; i < output.size(); ++i) {
    const Column& column = info.return_columns[i];
    BoundExprPtr value = MakeColumnRef(output[i].name, output[i].display, output[i].type);
    sql::Expr named;
    named.kind = sql::ExprKind::kColumn;
    named.source_text = output[i].display;
    named.pos = pos;
    ARROW_ASSIGN_OR_RAISE(value, CastValue(std::move(value), column.type, named));
    project->exprs.push_back(value);
    project->output.push_back({output[i].name, column.name, column.type, output[i].nullable});
  }
  return project;
}

}  // namespace

std::optional<Result<BoundExprPtr>> ResolveSqlFunctionParameter(
    const std::vector<std::string>& name_parts, const Scope* scope, SourcePosition pos) {
  if (parameter_frames.empty()) return std::nullopt;
  const ParameterFrame& frame = *parameter_frames.back();
  const std::string* name = nullptr;
  if (name_parts.size() == 1) {
    name = &name_parts[0];
  } else if (name_parts.size() == 2 && EqualsIgnoreCase(name_parts[0], frame.function)) {
    name = &name_parts[1];
  } else {
    return std::nullopt;
  }
  for (const auto& [parameter, value] : frame.values) {
    if (!EqualsIgnoreCase(parameter, *name)) continue;
    if (frame.body_scope != nullptr && scope != frame.body_scope && !ColumnRefs(value).empty()) {
      return AnalysisError(
          "NOT_IMPLEMENTED",
          fmt::format("The parameter {} of the SQL function {} is read inside a subquery of its "
                      "body, and its argument reads the calling query's columns; such a call "
                      "is not supported yet.",
                      QuoteIdentifier(parameter), QuoteIdentifier(frame.function)),
          pos);
    }
    return value;
  }
  return std::nullopt;
}

std::vector<std::string> SqlFunctionParameterNames() {
  std::vector<std::string> names;
  if (parameter_frames.empty()) return names;
  for (const auto& [parameter, value] : parameter_frames.back()->values) names.push_back(parameter);
  return names;
}

Result<BoundExprPtr> BindSqlFunctionCall(const sql::Expr& call, const Routine& routine,
                                         const SqlFunction& function,
                                         std::vector<BoundExprPtr> args,
                                         const BindOptions& options) {
  const SqlFunctionInfo& info = function.info();
  const std::string name = ShortName(routine.qualified_name);
  if (info.is_table) {
    return AnalysisError(
        "NOT_A_SCALAR_FUNCTION",
        fmt::format("{} appears as a scalar expression here, but the function was defined as a "
                    "table function. Please update the query to move the function call into "
                    "the FROM clause, or redefine {} as a scalar function instead.",
                    QuoteIdentifier(name), QuoteIdentifier(name)),
        call.pos);
  }
  std::vector<const sql::Expr*> arg_exprs;
  for (const auto& child : call.children) arg_exprs.push_back(child.get());
  ParameterFrame frame;
  frame.function = name;
  ARROW_ASSIGN_OR_RAISE(frame.values, ParameterValues(name, info, std::move(args), arg_exprs,
                                                      call.argument_names, call.pos));
  ARROW_RETURN_NOT_OK(CheckNotExpanding(routine.qualified_name, call.pos));
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseBody(info.body));
  sql::ExprPtr body = ScalarBody(std::move(parsed), info.body);
  ExpansionGuard expansion(routine.qualified_name);
  // The settings of the function's creation; its names resolve where it is called, as in Spark.
  std::optional<CatalogManager::CurrentOverride> settings;
  if (CatalogManager* catalogs = RoutineCatalogs()) settings.emplace(catalogs, info.sql_configs);
  Scope body_scope;
  frame.body_scope = &body_scope;
  FrameGuard guard(&frame);
  BindOptions body_options;
  body_options.subquery_hook = options.subquery_hook;
  ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*body, body_scope, body_options));
  return CastValue(std::move(value), info.return_type, *body);
}

Result<PlanNodePtr> BindSqlTableFunction(const sql::FromItem& item, const Routine& routine,
                                         const SqlFunction& function, CatalogManager* catalogs) {
  const SqlFunctionInfo& info = function.info();
  const std::string name = ShortName(routine.qualified_name);
  if (!info.is_table) {
    return AnalysisError(
        "NOT_A_TABLE_FUNCTION",
        fmt::format("{} appears as a table function here, but the function was defined as a "
                    "scalar function. Please update the query to move the function call "
                    "outside the FROM clause, or redefine {} as a table function instead.",
                    QuoteIdentifier(name), QuoteIdentifier(name)),
        item.pos);
  }
  std::vector<BoundExprPtr> args;
  std::vector<const sql::Expr*> arg_exprs;
  for (const auto& arg : item.arguments) {
    ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*arg, Scope{}));
    args.push_back(std::move(value));
    arg_exprs.push_back(arg.get());
  }
  ParameterFrame frame;
  frame.function = name;
  ARROW_ASSIGN_OR_RAISE(frame.values, ParameterValues(name, info, std::move(args), arg_exprs,
                                                      item.argument_names, item.pos));
  ARROW_RETURN_NOT_OK(CheckNotExpanding(routine.qualified_name, item.pos));
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseBody(info.body));
  if (parsed.query == nullptr) {
    return Status::Invalid("the table function ", name, " holds no query");
  }
  const auto& query = parsed.query;
  ExpansionGuard expansion(routine.qualified_name);
  PlanNodePtr body;
  {
    CatalogManager::CurrentOverride settings(catalogs, info.sql_configs);
    FrameGuard guard(&frame);
    ARROW_ASSIGN_OR_RAISE(body, BindSelect(*query, catalogs, nullptr));
  }
  return ProjectReturnColumns(std::move(body), info, name, item.pos);
}

Status CheckSqlFunction(const std::string& qualified_name, const std::string& display,
                        bool persistent, SqlFunctionInfo* info, CatalogManager* catalogs,
                        SourcePosition pos) {
  const std::string name = ShortName(qualified_name);
  ARROW_RETURN_NOT_OK(CheckParameters(name, *info, pos));
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseBody(info->body));
  if (info->is_table && parsed.query == nullptr) {
    return AnalysisError("USER_DEFINED_FUNCTIONS.SQL_TABLE_UDF_BODY_MUST_BE_A_QUERY",
                         fmt::format("User defined function is invalid: SQL table function {} "
                                     "body must be a query.",
                                     name),
                         pos);
  }
  std::vector<std::string> temp_functions;
  std::vector<std::string> temp_views;
  ParameterFrame frame{name, NullValues(*info), nullptr};
  {
    TempFunctionWatch functions(persistent ? &temp_functions : nullptr);
    ViewDefinitionScope views("", persistent ? &temp_views : nullptr);
    ExpansionGuard expansion(qualified_name);
    FrameGuard guard(&frame);
    if (info->is_table) {
      ARROW_ASSIGN_OR_RAISE(auto plan, BindSelect(*parsed.query, catalogs, nullptr));
      if (info->return_columns.empty()) {
        for (const auto& field : plan->output) {
          Column column;
          column.name = field.display;
          column.type = field.type;
          info->return_columns.push_back(std::move(column));
        }
      }
      ARROW_RETURN_NOT_OK(CheckReturnColumns(name, info->return_columns, pos));
      ARROW_RETURN_NOT_OK(ProjectReturnColumns(plan, *info, name, pos).status());
    } else {
      sql::ExprPtr body = ScalarBody(std::move(parsed), info->body);
      const std::string complex = ComplexFunction(*body);
      if (!complex.empty()) {
        return AnalysisError("USER_DEFINED_FUNCTIONS.CANNOT_CONTAIN_COMPLEX_FUNCTIONS",
                             fmt::format("User defined function is invalid: SQL scalar function "
                                         "cannot contain aggregate/window/generate functions: {}",
                                         complex),
                             pos);
      }
      sql::SelectStatement select;
      select.pos = pos;
      sql::SelectItem item;
      item.expr = std::move(body);
      select.items.push_back(std::move(item));
      ARROW_ASSIGN_OR_RAISE(auto plan, BindSelect(select, catalogs, nullptr));
      const auto& type = plan->output[0].type;
      if (info->return_type == nullptr) {
        info->return_type = type;
      } else if (!type->Equals(*info->return_type)) {
        ARROW_RETURN_NOT_OK(
            CheckAnsiCast(*type, *info->return_type, /*is_try=*/false, *select.items[0].expr));
      }
    }
  }
  if (!temp_functions.empty() || !temp_views.empty()) {
    const bool function = !temp_functions.empty();
    const std::string object = QuoteIdentifier(function ? temp_functions[0] : temp_views[0]);
    return AnalysisError(
        "INVALID_TEMP_OBJ_REFERENCE",
        fmt::format("Cannot create the persistent object {} of the type FUNCTION because it "
                    "references to the temporary object {} of the type {}. Please make the "
                    "temporary object {} persistent, or make the persistent object {} temporary.",
                    display, object, function ? "FUNCTION" : "VIEW", object, display),
        pos);
  }
  return Status::OK();
}

}  // namespace parley
