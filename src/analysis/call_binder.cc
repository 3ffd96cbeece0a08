// CALL: the procedure resolved and bound, its arguments matched to its parameters by position
// and by name (Spark's rules and errors), defaults filled in, each value cast to its parameter.
#include "analysis/call_binder.h"

#include <fmt/format.h>

#include <optional>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/query_binder.h"
#include "analysis/routine_arguments.h"
#include "analysis/write_binder.h"
#include "arrow/type.h"
#include "arrow/util/key_value_metadata.h"
#include "catalog/identifiers.h"
#include "functions/function_rules.h"
#include "sql/parser.h"

namespace parley {
namespace {

// One argument as written: its name when passed by name, its bound value and its text.
struct Argument {
  std::optional<std::string> name;
  BoundExprPtr value;
  const sql::Expr* expr;
};

bool IsAtomic(const arrow::DataType& type) {
  return !arrow::is_nested(type.id()) && type.id() != arrow::Type::NA;
}

// Spark's ANSI implicit cast of an argument to its parameter's type: the same type, NULL, a
// string to any atomic type, or what store assignment allows.
bool CanImplicitlyCast(const arrow::DataType& from, const arrow::DataType& to) {
  if (IsStringLike(from) && IsAtomic(to)) return true;
  return CanStoreAssign(from, to);
}

// A default must fit its parameter without reading a string as another type.
bool DefaultFits(const arrow::DataType& from, const arrow::DataType& to) {
  if (IsStringLike(from) && !IsStringLike(to)) return false;
  return CanStoreAssign(from, to);
}

std::string ProcedureDisplayName(const CatalogPlugin& catalog, const Identifier& ident) {
  return QuoteIdentifier(catalog.name()) + "." + ident.ToString();
}

Status FailedToLoad(const std::string& display_name, SourcePosition pos) {
  return AnalysisError("FAILED_TO_LOAD_ROUTINE",
                       fmt::format("Failed to load routine {}.", display_name), pos);
}

// The procedure a command stands for: `system.<name>` of its table's catalog, and the table as
// the procedure's `table` argument.
Result<std::pair<LoadedProcedure, std::string>> LoadCommandProcedure(const sql::Call& call,
                                                                     CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadTableForName(*call.table, catalogs));
  const ResolvedName& resolved = loaded.first;
  std::shared_ptr<CatalogPlugin> catalog = resolved.catalog;
  std::vector<std::string> table_parts = resolved.ident.namespace_path;
  table_parts.push_back(resolved.ident.name);
  if (catalog == nullptr) {
    ARROW_ASSIGN_OR_RAISE(catalog, catalogs->FormatCatalog(resolved.ident.namespace_path[0]));
  }
  auto procedures = std::dynamic_pointer_cast<ProcedureCatalog>(catalog);
  Identifier ident{{call.procedure.parts.begin(), call.procedure.parts.end() - 1},
                   call.procedure.parts.back()};
  Result<std::shared_ptr<UnboundProcedure>> procedure =
      procedures == nullptr ? Status::KeyError("no procedures") : procedures->LoadProcedure(ident);
  if (!procedure.ok() && procedure.status().IsKeyError()) {
    return AnalysisError("DELTA_ONLY_OPERATION",
                         fmt::format("{} is only supported for Delta tables, not for {}.",
                                     call.command, resolved.ToString()),
                         call.table->pos);
  }
  ARROW_RETURN_NOT_OK(procedure.status());
  LoadedProcedure out{procedures, std::move(ident), std::move(procedure).ValueUnsafe()};
  return std::make_pair(std::move(out), QuoteMultipartIdentifier(table_parts));
}

// The field that tells the procedure about one argument (UnboundProcedure::Bind).
std::shared_ptr<arrow::Field> ArgumentField(const Argument& argument, size_t index) {
  if (!argument.name) return arrow::field(fmt::format("param{}", index), argument.value->type);
  return arrow::field(*argument.name, argument.value->type, /*nullable=*/true,
                      arrow::key_value_metadata({kByNameArgumentMetadataKey}, {"true"}));
}

Status CheckParameters(const BoundProcedure& procedure,
                       const std::vector<ProcedureParameter>& parameters, SourcePosition pos) {
  bool seen_default = false;
  for (const auto& parameter : parameters) {
    if (parameter.mode != ProcedureParameter::Mode::kIn) {
      const char* mode = parameter.mode == ProcedureParameter::Mode::kInOut ? "INOUT" : "OUT";
      return AnalysisError(
          "INTERNAL_ERROR",
          fmt::format("Unsupported parameter mode: {} (parameter {} of the "
                      "procedure {}).",
                      mode, QuoteIdentifier(parameter.name), QuoteIdentifier(procedure.name())),
          pos);
    }
    if (parameter.default_value) {
      seen_default = true;
    } else if (seen_default) {
      return AnalysisError(
          "INTERNAL_ERROR",
          fmt::format("The procedure {} declares the required parameter {} "
                      "after an optional one: required arguments should come "
                      "before optional arguments.",
                      QuoteIdentifier(procedure.name()), QuoteIdentifier(parameter.name)),
          pos);
    }
  }
  return Status::OK();
}

Result<BoundExprPtr> BindDefault(const ProcedureParameter& parameter, SourcePosition pos) {
  ARROW_ASSIGN_OR_RAISE(auto expr, sql::ParseExpression(*parameter.default_value));
  ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*expr, Scope{}));
  if (!DefaultFits(*value->type, *parameter.type)) {
    return AnalysisError(
        "INVALID_DEFAULT_VALUE.DATA_TYPE",
        fmt::format("Failed to execute CALL command because the destination column or variable "
                    "{} has a DEFAULT value {}, which requires \"{}\" type, but the statement "
                    "provided a value of incompatible \"{}\" type.",
                    QuoteIdentifier(parameter.name), *parameter.default_value,
                    SqlTypeName(*parameter.type), SqlTypeName(*value->type)),
        pos);
  }
  return CastTo(value, parameter.type);
}

}  // namespace

Result<std::shared_ptr<ProcedureCatalog>> AsProcedureCatalog(std::shared_ptr<CatalogPlugin> catalog,
                                                             SourcePosition pos) {
  auto procedures = std::dynamic_pointer_cast<ProcedureCatalog>(catalog);
  if (procedures != nullptr) return procedures;
  return AnalysisError(
      "MISSING_CATALOG_ABILITY.PROCEDURES",
      fmt::format("Catalog {} does not support procedures.", QuoteIdentifier(catalog->name())),
      pos);
}

Result<LoadedProcedure> LoadProcedureForName(const sql::QualifiedName& name,
                                             CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, catalogs->ResolveTableName(name.parts));
  ARROW_ASSIGN_OR_RAISE(auto procedures, AsProcedureCatalog(resolved.catalog, name.pos));
  std::string display_name = ProcedureDisplayName(*procedures, resolved.ident);
  auto procedure = procedures->LoadProcedure(resolved.ident);
  if (!procedure.ok()) {
    if (procedure.status().IsKeyError()) return FailedToLoad(display_name, name.pos);
    return procedure.status();
  }
  return LoadedProcedure{std::move(procedures), std::move(resolved.ident),
                         std::move(procedure).ValueUnsafe()};
}

Result<BoundCall> BindCall(const sql::Call& call, SourcePosition pos, CatalogManager* catalogs) {
  LoadedProcedure loaded;
  std::vector<Argument> args;
  sql::Expr table_literal;
  if (call.table) {
    std::string table_text;
    ARROW_ASSIGN_OR_RAISE(std::tie(loaded, table_text), LoadCommandProcedure(call, catalogs));
    table_literal.kind = sql::ExprKind::kLiteral;
    table_literal.literal_kind = sql::LiteralKind::kString;
    table_literal.pos = call.table->pos;
    table_literal.source_text = "'" + table_text + "'";
    table_literal.text = std::move(table_text);
    args.push_back({"table", nullptr, &table_literal});
  } else {
    ARROW_ASSIGN_OR_RAISE(loaded, LoadProcedureForName(call.procedure, catalogs));
  }
  for (const auto& arg : call.args) args.push_back({arg.name, nullptr, arg.value.get()});
  arrow::FieldVector fields;
  for (size_t i = 0; i < args.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(args[i].value, BindExpression(*args[i].expr, Scope{}));
    fields.push_back(ArgumentField(args[i], i));
  }
  ARROW_ASSIGN_OR_RAISE(auto procedure, loaded.procedure->Bind(*arrow::schema(fields)));
  const std::vector<ProcedureParameter> parameters = procedure->parameters();
  ARROW_RETURN_NOT_OK(CheckParameters(*procedure, parameters, pos));
  std::vector<ParameterSlot> slots;
  for (const auto& parameter : parameters) {
    slots.push_back({parameter.name, parameter.default_value.has_value()});
  }
  std::vector<std::optional<std::string>> names;
  for (const auto& arg : args) names.push_back(arg.name);
  ARROW_ASSIGN_OR_RAISE(std::vector<int> matched,
                        MatchArguments(procedure->name(), slots, names, pos));
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanNode::Kind::kValues;
  std::vector<BoundExprPtr> row;
  for (size_t p = 0; p < parameters.size(); ++p) {
    const ProcedureParameter& parameter = parameters[p];
    BoundExprPtr value;
    if (matched[p] < 0) {
      ARROW_ASSIGN_OR_RAISE(value, BindDefault(parameter, pos));
    } else {
      const Argument& arg = args[matched[p]];
      if (!CanImplicitlyCast(*arg.value->type, *parameter.type)) {
        return AnalysisError(
            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
            fmt::format("Cannot resolve \"CALL\" due to data type mismatch: The {} parameter "
                        "requires the \"{}\" type, however \"{}\" has the type \"{}\".",
                        Ordinal(p), SqlTypeName(*parameter.type), arg.expr->source_text,
                        SqlTypeName(*arg.value->type)),
            pos);
      }
      value = CastTo(arg.value, parameter.type);
    }
    node->output.push_back({fmt::format("_p{}", p), parameter.name, parameter.type, true});
    row.push_back(std::move(value));
  }
  node->values.push_back(std::move(row));
  std::string name = loaded.catalog->name();
  for (const auto& part : loaded.ident.namespace_path) name += "." + part;
  name += "." + loaded.ident.name;
  return BoundCall{std::move(name), std::move(procedure), std::move(node)};
}

}  // namespace parley
