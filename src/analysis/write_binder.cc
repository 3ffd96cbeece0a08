// WriteBinder: INSERT into a WritePlan, with Spark's ANSI store-assignment rules.
#include "analysis/write_binder.h"

#include <fmt/format.h>

#include <cstdlib>

#include "analysis/analysis_error.h"
#include "analysis/cast_rules.h"
#include "analysis/expression_binder.h"
#include "analysis/query_binder.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "plan/predicate_translation.h"
#include "sql/parser.h"

namespace parley {
namespace {

bool IsDatetime(const arrow::DataType& type) {
  return type.id() == arrow::Type::DATE32 || type.id() == arrow::Type::TIMESTAMP;
}

bool IsAtomic(const arrow::DataType& type) {
  return !arrow::is_nested(type.id()) && type.id() != arrow::Type::NA;
}

int FindColumn(const std::vector<Column>& columns, const std::string& name) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (EqualsIgnoreCase(columns[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

// A CHAR(n) / VARCHAR(n) column's check around `value`, already a STRING: Spark's store
// assignment fails a value too long for the column (EXCEED_LIMIT_LENGTH). Spark also pads a CHAR
// value to n characters, and pads string literals compared with CHAR columns; Parley does
// neither yet (docs/reliability.md).
BoundExprPtr CheckCharVarchar(BoundExprPtr value, const Column& column) {
  if (column.char_varchar.empty() || column.type->id() != arrow::Type::STRING) return value;
  const int32_t length = std::atoi(column.char_varchar.c_str() + column.char_varchar.find('(') + 1);
  return MakeCall(
      "parley_char_varchar_write",
      {std::move(value), MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(length))},
      arrow::utf8());
}

}  // namespace

bool CanStoreAssign(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.Equals(to) || from.id() == arrow::Type::NA) return true;
  if (IsNumeric(from) && IsNumeric(to)) return true;
  if (IsStringLike(to) && IsAtomic(from)) return true;
  if (IsDatetime(from) && IsDatetime(to)) return true;
  return false;
}

Result<BoundExprPtr> StoreAssign(const BoundExprPtr& value, const Column& column,
                                 const std::string& table_name, SourcePosition pos) {
  // Spark writes an interval's text into a string column by its fields (INTERVAL '3' DAY); a
  // number column it refuses (CANNOT_SAFELY_CAST, below).
  if (IsStringLike(*column.type) && NeedsIntervalFields(*value->type, *column.type)) {
    return AnalysisError(
        "NOT_IMPLEMENTED",
        fmt::format("Writing \"{}\" into the {} column {} of {} is not implemented: Parley's "
                    "interval types do not keep the fields that decide the text.",
                    SqlTypeName(*value->type), SqlTypeName(*column.type),
                    QuoteIdentifier(column.name), table_name),
        pos);
  }
  if (!CanStoreAssign(*value->type, *column.type)) {
    return AnalysisError(
        "INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST",
        fmt::format("Cannot write incompatible data for the table {}: Cannot safely cast {} "
                    "\"{}\" to \"{}\".",
                    table_name, QuoteIdentifier(column.name), SqlTypeName(*value->type),
                    SqlTypeName(*column.type)),
        pos);
  }
  return CheckCharVarchar(CastTo(value, column.type), column);
}

Result<BoundExprPtr> DefaultFor(const Column& column, const std::string& table_name,
                                SourcePosition pos) {
  if (!column.default_value) {
    if (!column.nullable) {
      return AnalysisError("INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA",
                           fmt::format("Cannot write incompatible data for the table {}: Cannot "
                                       "find data for the output column {}.",
                                       table_name, QuoteIdentifier(column.name)),
                           pos);
    }
    return MakeBoundLiteral(arrow::MakeNullScalar(column.type));
  }
  ARROW_ASSIGN_OR_RAISE(auto expr, sql::ParseExpression(*column.default_value));
  ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*expr, Scope{}));
  return StoreAssign(value, column, table_name, pos);
}

namespace {

PlanNodePtr MakeProject(const PlanNodePtr& input, const std::vector<Column>& columns,
                        std::vector<BoundExprPtr> exprs) {
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {input};
  for (size_t i = 0; i < columns.size(); ++i) {
    project->output.push_back(
        {fmt::format("_w{}", i), columns[i].name, columns[i].type, columns[i].nullable});
  }
  project->exprs = std::move(exprs);
  return project;
}

Status ArityMismatch(const std::string& table_name, const std::vector<std::string>& table_columns,
                     const std::vector<OutputField>& data_columns, SourcePosition pos) {
  const bool too_many = data_columns.size() > table_columns.size();
  std::vector<std::string> table_names, data_names;
  for (const auto& name : table_columns) table_names.push_back(QuoteIdentifier(name));
  for (const auto& field : data_columns) data_names.push_back(QuoteIdentifier(field.display));
  return AnalysisError(
      too_many ? "INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS"
               : "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
      fmt::format("Cannot write to {}, the reason is {} data columns:\nTable columns: {}.\n"
                  "Data columns: {}.",
                  table_name, too_many ? "too many" : "not enough", fmt::join(table_names, ", "),
                  fmt::join(data_names, ", ")),
      pos);
}

std::vector<std::string> ColumnNames(const std::vector<Column>& columns,
                                     const std::vector<int>& indices) {
  std::vector<std::string> names;
  for (int index : indices) names.push_back(columns[index].name);
  return names;
}

}  // namespace

std::vector<std::string> PartitionColumns(const Table& table) {
  std::vector<std::string> names;
  for (const auto& transform : table.partitioning()) {
    for (const auto& reference : transform->References()) {
      names.push_back(reference->field_names().front());
    }
  }
  return names;
}

Status CheckPartitionColumn(const std::vector<std::string>& partition_columns,
                            const sql::PartitionSpecItem& item) {
  for (const auto& name : partition_columns) {
    if (EqualsIgnoreCase(name, item.column)) return Status::OK();
  }
  return AnalysisError("NON_PARTITION_COLUMN",
                       fmt::format("PARTITION clause cannot contain the non-partition column: {}.",
                                   QuoteIdentifier(item.column)),
                       item.pos);
}

namespace {

Status MissingCapability(const ResolvedName& name, std::string_view operation,
                         std::string_view capability, SourcePosition pos) {
  return AnalysisError(
      "UNSUPPORTED_FEATURE.TABLE_OPERATION",
      fmt::format("The feature is not supported: Table {} does not support {} (capability {}). "
                  "Please check the current catalog and namespace to make sure the qualified "
                  "table name is expected, and also check the catalog implementation which is "
                  "configured by \"spark.sql.catalog.{}\".",
                  name.ToString(), operation, capability,
                  name.catalog ? name.catalog->name() : "<path>"),
      pos);
}

// Resolve the INSERT target. A path table whose directory holds nothing yet takes the schema of
// the rows written into it, when its provider accepts an external schema.
Result<std::pair<ResolvedName, std::shared_ptr<Table>>> LoadTarget(const sql::Insert& insert,
                                                                   const PlanNodePtr& query,
                                                                   CatalogManager* catalogs) {
  auto loaded = LoadTableForCommand(insert.table, catalogs, "INSERT");
  if (loaded.ok()) return loaded;
  auto provider = catalogs->PathProvider(insert.table.parts);
  if (provider == nullptr || !provider->SupportsExternalMetadata()) return loaded.status();
  std::vector<Column> columns;
  for (const auto& field : query->output)
    columns.push_back({field.display, field.type, true, "", std::nullopt});
  Options options{{"path", insert.table.parts[1]}};
  auto table = provider->GetTable(ColumnsToSchema(columns), options);
  if (!table.ok()) return loaded.status();
  return std::make_pair(
      ResolvedName{nullptr, Identifier{{insert.table.parts[0]}, insert.table.parts[1]}},
      std::move(table).ValueUnsafe());
}

}  // namespace

Status CheckWriteCapabilities(const ResolvedName& name, const Table& table, WritePlan::Mode mode,
                              SourcePosition pos) {
  const auto capabilities = table.capabilities();
  auto has = [&](TableCapability capability) { return capabilities.count(capability) > 0; };
  if (!has(TableCapability::kBatchWrite) || dynamic_cast<const SupportsWrite*>(&table) == nullptr) {
    return MissingCapability(name, "batch write", "BATCH_WRITE", pos);
  }
  switch (mode) {
    case WritePlan::Mode::kAppend: return Status::OK();
    case WritePlan::Mode::kTruncate:
      if (has(TableCapability::kTruncate) || has(TableCapability::kOverwriteByFilter)) {
        return Status::OK();
      }
      return MissingCapability(name, "overwrite of all rows", "TRUNCATE", pos);
    case WritePlan::Mode::kOverwriteByFilter:
      if (has(TableCapability::kOverwriteByFilter)) return Status::OK();
      return MissingCapability(name, "overwrite by filter", "OVERWRITE_BY_FILTER", pos);
    case WritePlan::Mode::kOverwriteDynamic:
      if (has(TableCapability::kOverwriteDynamic)) return Status::OK();
      return MissingCapability(name, "dynamic partition overwrite", "OVERWRITE_DYNAMIC", pos);
  }
  return Status::OK();
}

namespace {

bool HasDefaultKeyword(const sql::InlineTable& values) {
  for (const auto& row : values.rows) {
    for (const auto& cell : row) {
      if (IsDefaultKeyword(*cell)) return true;
    }
  }
  return false;
}

}  // namespace

Result<PlanNodePtr> ShapeForTable(const PlanNodePtr& query, const std::vector<Column>& columns,
                                  const std::string& table_name, SourcePosition pos) {
  if (query->output.size() != columns.size()) {
    std::vector<std::string> names;
    for (const auto& column : columns) names.push_back(column.name);
    return ArityMismatch(table_name, names, query->output, pos);
  }
  std::vector<BoundExprPtr> exprs;
  for (size_t i = 0; i < columns.size(); ++i) {
    const auto& field = query->output[i];
    ARROW_ASSIGN_OR_RAISE(
        auto value, StoreAssign(MakeColumnRef(field.name, field.display, field.type), columns[i],
                                table_name, pos));
    exprs.push_back(std::move(value));
  }
  return MakeProject(query, columns, std::move(exprs));
}

namespace {

// REPLACE WHERE's condition over the target's columns, as the V2 predicates the table's
// overwrite receives.
Result<std::vector<PredicatePtr>> ReplaceWherePredicates(const sql::Expr& condition,
                                                         const std::vector<Column>& columns) {
  Scope scope;
  for (const auto& column : columns) scope.push_back({{}, column.name, column.name, column.type});
  ARROW_ASSIGN_OR_RAISE(auto bound, BindExpression(condition, scope));
  if (!bound->type->Equals(*arrow::boolean())) {
    return AnalysisError("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                         "REPLACE WHERE " + condition.source_text + " is not a boolean condition.",
                         condition.pos);
  }
  auto predicate = TranslatePredicate(*bound);
  if (predicate == nullptr) {
    return AnalysisError("UNSUPPORTED_FEATURE.REPLACE_WHERE",
                         "The REPLACE WHERE condition " + condition.source_text +
                             " cannot be handed to a table: only comparisons of columns with "
                             "constants, IN, IS [NOT] NULL, AND, OR and NOT can.",
                         condition.pos);
  }
  return std::vector<PredicatePtr>{predicate};
}

}  // namespace

Result<WritePlan> BindInsert(const sql::Insert& insert, CatalogManager* catalogs,
                             const SqlConf& conf) {
  const SourcePosition pos = insert.table.pos;
  // VALUES rows that use the DEFAULT keyword are bound once the target columns are known.
  const bool values_with_defaults = insert.query->kind == sql::QueryKind::kValues &&
                                    !insert.by_name && HasDefaultKeyword(insert.query->values);
  PlanNodePtr query;
  std::pair<ResolvedName, std::shared_ptr<Table>> target;
  if (values_with_defaults) {
    ARROW_ASSIGN_OR_RAISE(target, LoadTableForCommand(insert.table, catalogs, "INSERT"));
  } else {
    ARROW_ASSIGN_OR_RAISE(query, BindSelect(*insert.query, catalogs));
    ARROW_ASSIGN_OR_RAISE(target, LoadTarget(insert, query, catalogs));
  }
  WritePlan plan;
  plan.target_name = target.first;
  plan.table = target.second;
  plan.columns = plan.table->columns();
  const std::string table_name = plan.target_name.ToString();
  const auto& columns = plan.columns;

  // Static partition values, checked against the table's partition columns.
  const auto partition_columns = PartitionColumns(*plan.table);
  std::vector<BoundExprPtr> static_values(columns.size());
  bool has_dynamic = false;
  for (const auto& item : insert.partition_spec) {
    ARROW_RETURN_NOT_OK(CheckPartitionColumn(partition_columns, item));
    int index = FindColumn(columns, item.column);
    if (!item.value) {
      has_dynamic = true;
      continue;
    }
    // As Spark: a static partition value is cast to its column's type (PARTITION (hr = '10')
    // on an INT column), failing at run time when it does not convert.
    ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*item.value, Scope{}));
    static_values[index] = CastTo(value, columns[index].type);
  }

  // Which table column each query column feeds.
  const size_t width = query ? query->output.size() : insert.query->values.rows[0].size();
  std::vector<int> targets;
  // The query, binding any DEFAULT cell to its target column's default (NULL past the end: the
  // arity check reports those).
  auto bind_deferred = [&]() -> Status {
    if (query) return Status::OK();
    ARROW_ASSIGN_OR_RAISE(query, BindValues(*insert.query, [&](size_t c) -> Result<BoundExprPtr> {
                            if (c >= targets.size())
                              return MakeBoundLiteral(std::make_shared<arrow::NullScalar>());
                            return DefaultFor(columns[targets[c]], table_name, pos);
                          }));
    return Status::OK();
  };
  if (insert.by_name) {
    for (const auto& field : query->output) {
      int index = FindColumn(columns, field.display);
      if (index < 0) {
        return AnalysisError("INCOMPATIBLE_DATA_FOR_TABLE.EXTRA_COLUMNS",
                             fmt::format("Cannot write incompatible data for the table {}: Cannot "
                                         "write extra columns {}.",
                                         table_name, QuoteIdentifier(field.display)),
                             pos);
      }
      targets.push_back(index);
    }
  } else if (!insert.columns.empty()) {
    for (const auto& name : insert.columns) {
      int index = FindColumn(columns, name);
      if (index < 0) {
        return AnalysisError("UNRESOLVED_COLUMN.WITH_SUGGESTION",
                             fmt::format("A column, variable, or function parameter with name {} "
                                         "cannot be resolved in the table {}.",
                                         QuoteIdentifier(name), table_name),
                             pos);
      }
      if (std::find(targets.begin(), targets.end(), index) != targets.end()) {
        return AnalysisError("COLUMN_ALREADY_EXISTS",
                             fmt::format("The column {} already exists.", QuoteIdentifier(name)),
                             pos);
      }
      targets.push_back(index);
    }
    ARROW_RETURN_NOT_OK(bind_deferred());
    if (targets.size() != width) {
      return ArityMismatch(table_name, ColumnNames(columns, targets), query->output, pos);
    }
  } else {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (!static_values[i]) targets.push_back(static_cast<int>(i));
    }
    ARROW_RETURN_NOT_OK(bind_deferred());
    if (targets.size() != width) {
      return ArityMismatch(table_name, ColumnNames(columns, targets), query->output, pos);
    }
  }

  std::vector<BoundExprPtr> exprs(columns.size());
  for (size_t q = 0; q < targets.size(); ++q) {
    const auto& field = query->output[q];
    int index = targets[q];
    if (static_values[index]) {
      return AnalysisError("COLUMN_ALREADY_EXISTS",
                           fmt::format("The column {} is given both a static PARTITION value and "
                                       "a query column.",
                                       QuoteIdentifier(columns[index].name)),
                           pos);
    }
    ARROW_ASSIGN_OR_RAISE(exprs[index],
                          StoreAssign(MakeColumnRef(field.name, field.display, field.type),
                                      columns[index], table_name, pos));
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    if (static_values[i]) {
      exprs[i] = static_values[i];
    } else if (!exprs[i]) {
      ARROW_ASSIGN_OR_RAISE(exprs[i], DefaultFor(columns[i], table_name, pos));
    }
  }
  plan.query = MakeProject(query, columns, std::move(exprs));

  // The mode: how existing rows are treated.
  if (insert.replace_where) {
    ARROW_ASSIGN_OR_RAISE(plan.overwrite_predicates,
                          ReplaceWherePredicates(*insert.replace_where, columns));
    plan.mode = WritePlan::Mode::kOverwriteByFilter;
  } else if (insert.overwrite) {
    std::string mode = conf.Get(kPartitionOverwriteModeKey).value_or("static");
    bool dynamic = EqualsIgnoreCase(mode, "dynamic");
    bool any_static = std::any_of(static_values.begin(), static_values.end(),
                                  [](const auto& value) { return value != nullptr; });
    if (dynamic && !partition_columns.empty() && (has_dynamic || !any_static)) {
      plan.mode = WritePlan::Mode::kOverwriteDynamic;
    } else if (any_static) {
      plan.mode = WritePlan::Mode::kOverwriteByFilter;
      for (size_t i = 0; i < columns.size(); ++i) {
        if (static_values[i])
          plan.static_partition_values.emplace_back(columns[i].name, static_values[i]);
      }
    } else {
      plan.mode = WritePlan::Mode::kTruncate;
    }
  }
  ARROW_RETURN_NOT_OK(CheckWriteCapabilities(plan.target_name, *plan.table, plan.mode, pos));
  return plan;
}

}  // namespace parley
