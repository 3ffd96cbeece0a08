// QueryBinder: WITH, the query shapes (a SELECT is bound by select_binder.h), VALUES, and the
// loading of the tables a query names.
#include "analysis/query_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "analysis/aggregate_binder.h"
#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/result_clauses.h"
#include "analysis/select_binder.h"
#include "analysis/set_operation_binder.h"
#include "analysis/window_binder.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"

namespace parley {

Result<BoundSubquery> BindSubquery(const sql::SelectStatement& select, CatalogManager* catalogs,
                                   const OuterQuery& outer) {
  if (select.kind != sql::QueryKind::kSelect) {
    return AnalysisError("UNSUPPORTED_FEATURE.SUBQUERY",
                         "A subquery that is a set operation, a VALUES list or a parenthesised "
                         "query is not supported yet.",
                         select.pos);
  }
  // The subquery sees the CTEs around it, then its own.
  const CteScope* ctes = outer.ctes;
  std::vector<CteScope> scopes;
  scopes.reserve(select.with.size());
  for (const auto& cte : select.with) {
    scopes.push_back({&cte, ctes});
    ctes = &scopes.back();
  }
  SelectBinder binder(select, catalogs, ctes, &outer);
  ARROW_ASSIGN_OR_RAISE(auto plan, binder.Bind());
  return binder.Subquery(std::move(plan));
}

namespace {

// The version or the timestamp a time travel clause names, as text.
Result<std::string> TimeTravelValue(const sql::TimeTravel& travel) {
  const sql::Expr& value = *travel.value;
  bool literal = value.kind == sql::ExprKind::kLiteral;
  if (travel.by_version && literal &&
      (value.literal_kind == sql::LiteralKind::kInteger ||
       value.literal_kind == sql::LiteralKind::kString)) {
    return value.text;
  }
  if (!travel.by_version && literal &&
      (value.literal_kind == sql::LiteralKind::kString ||
       value.literal_kind == sql::LiteralKind::kTimestamp ||
       value.literal_kind == sql::LiteralKind::kDate)) {
    return value.text;
  }
  return AnalysisError(
      "INVALID_TIME_TRAVEL_SPEC",
      std::string("The time travel ") + (travel.by_version ? "version" : "timestamp") + " " +
          value.source_text + " must be a " +
          (travel.by_version ? "version number or string literal" : "constant timestamp literal") +
          ".",
      travel.pos);
}

// Microseconds since the epoch of a timestamp text (UTC, as the session time zone).
Result<int64_t> TimestampMicros(const std::string& text, SourcePosition pos) {
  auto parsed = arrow::Scalar::Parse(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), text);
  if (!parsed.ok()) {
    return AnalysisError("INVALID_TIME_TRAVEL_TIMESTAMP_EXPR",
                         "The time travel timestamp '" + text + "' is not a valid timestamp.", pos);
  }
  return static_cast<const arrow::TimestampScalar&>(**parsed).value;
}

}  // namespace

Result<ResolvedName> ResolveNameForRead(const sql::QualifiedName& name, CatalogManager* catalogs) {
  // A read of a name that cannot exist (e.g. a multi-part namespace in spark_catalog) is a
  // table that is not found, as Spark reports it; DDL raises the namespace error itself.
  auto resolved = catalogs->ResolveTableName(name.parts);
  if (!resolved.ok() && ErrorCondition(resolved.status()) == "REQUIRES_SINGLE_PART_NAMESPACE") {
    return TableNotFound(name);
  }
  return resolved;
}

Result<LoadedRelation> LoadRelationForName(const sql::QualifiedName& name, CatalogManager* catalogs,
                                           const sql::TimeTravel* time_travel) {
  if (catalogs->PathProvider(name.parts) == nullptr) {
    ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, ResolveNameForRead(name, catalogs));
    if (auto* relations = dynamic_cast<RelationCatalog*>(resolved.catalog.get())) {
      if (time_travel != nullptr) {
        ARROW_ASSIGN_OR_RAISE(bool is_view, relations->ViewExists(resolved.ident));
        if (is_view) {
          return AnalysisError("UNSUPPORTED_FEATURE.TIME_TRAVEL",
                               fmt::format("The feature is not supported: time travel on the "
                                           "view {}, which is not a table.",
                                           resolved.ToString()),
                               time_travel->pos);
        }
      } else {
        auto relation = relations->LoadRelation(resolved.ident);
        if (!relation.ok()) {
          std::string condition = ErrorCondition(relation.status());
          if (condition == "TABLE_OR_VIEW_NOT_FOUND" || condition == "SCHEMA_NOT_FOUND") {
            return TableNotFound(name);
          }
          return relation.status();
        }
        return LoadedRelation{std::move(resolved), std::move(relation->table),
                              std::move(relation->view)};
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadTableForName(name, catalogs, time_travel));
  return LoadedRelation{std::move(loaded.first), std::move(loaded.second), std::nullopt};
}

Status ExpectTableNotView(const ResolvedName& name, std::string_view operation, bool use_alter_view,
                          SourcePosition pos) {
  auto* views = dynamic_cast<ViewCatalog*>(name.catalog.get());
  if (views == nullptr) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(bool is_view, views->ViewExists(name.ident));
  if (!is_view) return Status::OK();
  return ViewIsNotATable(name.ToString(), operation, use_alter_view, pos);
}

Status ViewIsNotATable(std::string_view view, std::string_view operation, bool use_alter_view,
                       SourcePosition pos) {
  return AnalysisError(use_alter_view ? "EXPECT_TABLE_NOT_VIEW.USE_ALTER_VIEW"
                                      : "EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE",
                       fmt::format("'{}' expects a table but {} is a view.{}", operation, view,
                                   use_alter_view ? " Please use ALTER VIEW instead." : ""),
                       pos);
}

Result<std::pair<ResolvedName, std::shared_ptr<Table>>> LoadTableForCommand(
    const sql::QualifiedName& name, CatalogManager* catalogs, std::string_view operation) {
  // A one-part name is a temporary view before it is a table, as in a read.
  if (name.parts.size() == 1 && catalogs->FindTempView(name.parts[0]) != nullptr) {
    return ViewIsNotATable(QuoteIdentifier(name.parts[0]), operation, false, name.pos);
  }
  auto loaded = LoadTableForName(name, catalogs);
  if (loaded.ok() || ErrorCondition(loaded.status()) != "TABLE_OR_VIEW_NOT_FOUND" ||
      catalogs->PathProvider(name.parts) != nullptr) {
    return loaded;
  }
  auto resolved = ResolveNameForRead(name, catalogs);
  if (!resolved.ok()) return loaded;
  ARROW_RETURN_NOT_OK(ExpectTableNotView(*resolved, operation, /*use_alter_view=*/false, name.pos));
  return loaded;
}

Result<std::pair<ResolvedName, std::shared_ptr<Table>>> LoadTableForName(
    const sql::QualifiedName& name, CatalogManager* catalogs, const sql::TimeTravel* time_travel) {
  std::optional<std::string> travel_value;
  if (time_travel != nullptr) {
    ARROW_ASSIGN_OR_RAISE(travel_value, TimeTravelValue(*time_travel));
  }
  if (auto provider = catalogs->PathProvider(name.parts)) {
    Options options{{"path", name.parts[1]}};
    if (time_travel != nullptr) {
      options[time_travel->by_version ? "versionasof" : "timestampasof"] = *travel_value;
    }
    ARROW_ASSIGN_OR_RAISE(auto schema, provider->InferSchema(options));
    ARROW_ASSIGN_OR_RAISE(auto table, provider->GetTable(schema, options));
    return std::make_pair(ResolvedName{nullptr, Identifier{{name.parts[0]}, name.parts[1]}},
                          std::move(table));
  }
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, ResolveNameForRead(name, catalogs));
  ARROW_ASSIGN_OR_RAISE(auto* table_catalog, AsTableCatalog(resolved.catalog.get(), name.pos));
  Result<std::shared_ptr<Table>> table;
  if (time_travel == nullptr) {
    table = table_catalog->LoadTable(resolved.ident);
  } else if (time_travel->by_version) {
    table = table_catalog->LoadTableAtVersion(resolved.ident, *travel_value);
  } else {
    ARROW_ASSIGN_OR_RAISE(int64_t micros, TimestampMicros(*travel_value, time_travel->pos));
    table = table_catalog->LoadTableAtTimestamp(resolved.ident, micros);
  }
  if (!table.ok()) {
    std::string condition = ErrorCondition(table.status());
    if (condition == "TABLE_OR_VIEW_NOT_FOUND" || condition == "SCHEMA_NOT_FOUND") {
      return TableNotFound(name);
    }
    return table.status();
  }
  return std::make_pair(std::move(resolved), std::move(table).ValueUnsafe());
}

// VALUES (...), (...) [AS alias (names)]: every row has as many values as the first; a column's
// type is the common type of its values (Spark's inline-table widening), each value cast to it.
bool IsDefaultKeyword(const sql::Expr& expr) {
  return expr.kind == sql::ExprKind::kColumn && expr.name_parts.size() == 1 &&
         EqualsIgnoreCase(expr.name_parts[0], "default");
}

Result<PlanNodePtr> BindValues(const sql::SelectStatement& select,
                               const DefaultResolver& resolve_default) {
  const auto& rows = select.values.rows;
  if (resolve_default &&
      (!select.with.empty() || !select.order_by.empty() || select.limit || select.offset)) {
    return AnalysisError("UNSUPPORTED_FEATURE.QUERY_SHAPE",
                         "WITH, ORDER BY, LIMIT or OFFSET on a VALUES query is not supported yet.",
                         select.pos);
  }
  const size_t width = rows.empty() ? 0 : rows[0].size();
  std::vector<std::vector<BoundExprPtr>> bound;
  std::vector<std::shared_ptr<arrow::DataType>> types(width, arrow::null());
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width) {
      return AnalysisError("INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH",
                           fmt::format("Invalid inline table. Inline table expected {} columns "
                                       "but found {} columns in row {}.",
                                       width, rows[r].size(), r),
                           select.values.pos);
    }
    std::vector<BoundExprPtr> row;
    for (size_t c = 0; c < width; ++c) {
      const sql::Expr& expr = *rows[r][c];
      BoundExprPtr value;
      if (resolve_default && IsDefaultKeyword(expr)) {
        ARROW_ASSIGN_OR_RAISE(value, resolve_default(c));
      } else {
        ARROW_ASSIGN_OR_RAISE(value, BindExpression(expr, Scope{}));
      }
      auto common = CommonType(types[c], value->type);
      if (common == nullptr) {
        return AnalysisError("INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE",
                             fmt::format("Invalid inline table. Found incompatible types in the "
                                         "column `col{}` for inline table.",
                                         c + 1),
                             expr.pos);
      }
      types[c] = common;
      row.push_back(std::move(value));
    }
    bound.push_back(std::move(row));
  }
  const auto& names = select.values.column_aliases;
  if (!names.empty() && names.size() != width) {
    return AnalysisError("ASSIGNMENT_ARITY_MISMATCH",
                         fmt::format("The number of columns or variables assigned or aliased: {} "
                                     "does not match the number of source tuples: {}.",
                                     names.size(), width),
                         select.values.pos);
  }
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanNode::Kind::kValues;
  for (size_t c = 0; c < width; ++c) {
    bool nullable = false;
    for (auto& row : bound) {
      row[c] = CastTo(row[c], types[c]);
      if (row[c]->kind != BoundExpr::Kind::kLiteral || !row[c]->literal->is_valid) nullable = true;
    }
    std::string display = names.empty() ? fmt::format("col{}", c + 1) : names[c];
    node->output.push_back({fmt::format("_v{}", c), display, types[c], nullable});
  }
  node->values = std::move(bound);
  return node;
}

Result<PlanNodePtr> BindSelect(const sql::SelectStatement& select, CatalogManager* catalogs,
                               const CteScope* ctes) {
  // Each CTE sees those before it; the body sees them all, innermost first.
  std::vector<CteScope> scopes;
  scopes.reserve(select.with.size());
  for (const auto& cte : select.with) {
    scopes.push_back({&cte, ctes});
    ctes = &scopes.back();
  }
  PlanNodePtr body;
  switch (select.kind) {
    case sql::QueryKind::kSelect: return SelectBinder(select, catalogs, ctes).Bind();
    case sql::QueryKind::kValues: {
      ARROW_ASSIGN_OR_RAISE(body, BindValues(select));
      break;
    }
    case sql::QueryKind::kSetOperation: {
      ARROW_ASSIGN_OR_RAISE(body, BindSetOperation(*select.set_operation, catalogs, ctes));
      break;
    }
    case sql::QueryKind::kNested: {
      ARROW_ASSIGN_OR_RAISE(body, BindSelect(*select.nested, catalogs, ctes));
      break;
    }
  }
  return ApplyResultClauses(std::move(body), select);
}

}  // namespace parley
