// Table and namespace DDL through the catalog mix-ins, and the SHOW commands that print DDL.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/query_binder.h"
#include "analysis/types.h"
#include "arrow/array/builder_binary.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "main/command_results.h"
#include "main/commands.h"
#include "plan/bound_expression.h"
#include "sql/parser.h"

namespace parley {
namespace {

struct ResolvedTable {
  ResolvedName name;
  TableCatalog* catalog;
};

Result<ResolvedTable> ResolveForDdl(const sql::QualifiedName& name, CatalogManager* catalogs) {
  if (catalogs->PathProvider(name.parts) != nullptr) {
    Identifier ident{{name.parts[0]}, name.parts[1]};
    ARROW_ASSIGN_OR_RAISE(auto session, catalogs->Catalog(kSessionCatalogName));
    auto* paths = dynamic_cast<SupportsPathIdentifiers*>(session.get());
    auto* catalog = dynamic_cast<TableCatalog*>(session.get());
    if (paths != nullptr && catalog != nullptr && paths->IsPathIdentifier(ident)) {
      return ResolvedTable{ResolvedName{std::move(session), std::move(ident)}, catalog};
    }
    return AnalysisError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                         fmt::format("The feature is not supported: DDL on the path table {}; "
                                     "path tables exist through their files.",
                                     QuoteIdentifier(name.parts[1])),
                         name.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto resolved, catalogs->ResolveTableName(name.parts));
  ARROW_ASSIGN_OR_RAISE(auto* catalog, AsTableCatalog(resolved.catalog.get(), name.pos));
  return ResolvedTable{std::move(resolved), catalog};
}

// How Spark names an ALTER TABLE action in EXPECT_TABLE_NOT_VIEW, and whether it points to
// ALTER VIEW instead (the actions ALTER VIEW has).
std::string AlterTableOperation(sql::AlterTableKind kind) {
  switch (kind) {
    case sql::AlterTableKind::kAddColumns: return "ALTER TABLE ... ADD COLUMNS";
    case sql::AlterTableKind::kDropColumns: return "ALTER TABLE ... DROP COLUMNS";
    case sql::AlterTableKind::kRenameColumn: return "ALTER TABLE ... RENAME COLUMN";
    case sql::AlterTableKind::kAlterColumn: return "ALTER TABLE ... ALTER COLUMN";
    case sql::AlterTableKind::kSetProperties: return "ALTER TABLE ... SET TBLPROPERTIES";
    case sql::AlterTableKind::kUnsetProperties: return "ALTER TABLE ... UNSET TBLPROPERTIES";
    case sql::AlterTableKind::kRenameTable: return "ALTER TABLE";
    case sql::AlterTableKind::kSetLocation: return "ALTER TABLE ... SET LOCATION ...";
  }
  return "ALTER TABLE";
}

bool UsesAlterView(sql::AlterTableKind kind) {
  return kind == sql::AlterTableKind::kSetProperties ||
         kind == sql::AlterTableKind::kUnsetProperties || kind == sql::AlterTableKind::kRenameTable;
}

// Load a table for a DDL command; a missing table is reported by its written name.
Result<std::shared_ptr<Table>> LoadForDdl(const ResolvedTable& target,
                                          const sql::QualifiedName& name) {
  auto table = target.catalog->LoadTable(target.name.ident);
  if (table.ok() || ErrorCondition(table.status()) != "TABLE_OR_VIEW_NOT_FOUND") return table;
  return TableNotFound(name);
}

Result<std::pair<std::shared_ptr<CatalogPlugin>, std::vector<std::string>>> ResolveNamespaces(
    const sql::QualifiedName& name, CatalogManager* catalogs, SupportsNamespaces** namespaces,
    bool must_exist) {
  ARROW_ASSIGN_OR_RAISE(auto resolved, catalogs->ResolveNamespace(name.parts, must_exist));
  *namespaces = dynamic_cast<SupportsNamespaces*>(resolved.first.get());
  if (*namespaces == nullptr) {
    return AnalysisError("MISSING_CATALOG_ABILITY.NAMESPACES",
                         fmt::format("Catalog {} does not support namespaces.",
                                     QuoteIdentifier(resolved.first->name())),
                         name.pos);
  }
  return resolved;
}

// Check that a DEFAULT is a constant expression (it reads no column) of a type its column
// accepts.
Status CheckDefault(const sql::ColumnDefinition& definition, const Column& column) {
  auto bound = BindExpression(*definition.default_value, Scope{});
  if (!bound.ok()) {
    if (ErrorCondition(bound.status()).rfind("UNRESOLVED_COLUMN", 0) != 0) return bound.status();
    return AnalysisError("INVALID_DEFAULT_VALUE.NOT_CONSTANT",
                         fmt::format("Failed to execute the command because the destination "
                                     "column {} has a DEFAULT value {} which is not a constant "
                                     "expression.",
                                     QuoteIdentifier(column.name), definition.default_text),
                         definition.pos);
  }
  const auto& type = (*bound)->type;
  bool fits = type->Equals(*column.type) || type->id() == arrow::Type::NA ||
              (IsNumeric(*type) && IsNumeric(*column.type)) ||
              (IsStringLike(*type) && IsStringLike(*column.type));
  if (fits) return Status::OK();
  return AnalysisError(
      "INVALID_DEFAULT_VALUE.DATA_TYPE",
      fmt::format("Failed to execute the command because the destination column {} has a "
                  "DEFAULT value {} of type \"{}\", which does not fit the column type \"{}\".",
                  QuoteIdentifier(column.name), definition.default_text, SqlTypeName(*type),
                  SqlTypeName(*column.type)),
      definition.pos);
}

// A column's type from the syntax tree, and its DEFAULT checked against it.
Result<Column> ColumnFor(const sql::ColumnDefinition& definition) {
  Column column;
  column.name = definition.name.back();
  ARROW_ASSIGN_OR_RAISE(column.type, TypeFromName(definition.type, definition.pos));
  column.char_varchar = CharVarcharDeclaration(definition.type);
  column.nullable = !definition.not_null;
  column.comment = definition.comment.value_or("");
  if (definition.default_value) {
    ARROW_RETURN_NOT_OK(CheckDefault(definition, column));
    column.default_value = definition.default_text;
  }
  return column;
}

// PARTITIONED BY items as connector transforms: a column is identity(column); calls keep their
// name with column and literal arguments (bucket(4, c), days(ts), truncate(c, 3)...).
Result<std::shared_ptr<Transform>> TransformFor(const sql::Expr& expr,
                                                const std::vector<Column>& columns) {
  auto column_reference = [&](const sql::Expr& e) -> Result<ExpressionPtr> {
    if (e.kind != sql::ExprKind::kColumn) {
      return AnalysisError(
          "INVALID_PARTITION_COLUMN",
          fmt::format("The partition transform argument {} is not a column.", e.source_text),
          e.pos);
    }
    const std::string& name = e.name_parts.back();
    bool exists = std::any_of(columns.begin(), columns.end(),
                              [&](const Column& c) { return EqualsIgnoreCase(c.name, name); });
    if (!exists) {
      return AnalysisError(
          "UNSUPPORTED_FEATURE.PARTITION_WITH_NESTED_COLUMN_IS_UNSUPPORTED",
          fmt::format("The feature is not supported: Invalid partitioning: {} is missing or is "
                      "in a map or array.",
                      QuoteIdentifier(name)),
          e.pos);
    }
    return FieldReference(name);
  };
  if (expr.kind == sql::ExprKind::kColumn) {
    ARROW_ASSIGN_OR_RAISE(auto reference, column_reference(expr));
    return std::make_shared<Transform>("identity", std::vector<ExpressionPtr>{reference});
  }
  if (expr.kind == sql::ExprKind::kFunction && expr.name_parts.size() == 1) {
    std::vector<ExpressionPtr> arguments;
    for (const auto& child : expr.children) {
      if (child->kind == sql::ExprKind::kLiteral) {
        ARROW_ASSIGN_OR_RAISE(auto value, LiteralValue(*child));
        arguments.push_back(MakeLiteral(value));
      } else {
        ARROW_ASSIGN_OR_RAISE(auto reference, column_reference(*child));
        arguments.push_back(reference);
      }
    }
    return std::make_shared<Transform>(ToLowerAscii(expr.name_parts[0]), std::move(arguments));
  }
  return AnalysisError("INVALID_PARTITION_COLUMN",
                       fmt::format("{} is not a partition column or transform.", expr.source_text),
                       expr.pos);
}

Result<std::shared_ptr<arrow::DataType>> TypeOf(const sql::TypeName& name, SourcePosition pos) {
  return TypeFromName(name, pos);
}

// ALTER COLUMN ... TYPE accepts only Spark's up-casts: wider integers, FLOAT to DOUBLE, a wider
// decimal, anything atomic to STRING.
bool CanWiden(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.Equals(to)) return true;
  auto rank = [](const arrow::DataType& type) {
    switch (type.id()) {
      case arrow::Type::INT8: return 1;
      case arrow::Type::INT16: return 2;
      case arrow::Type::INT32: return 3;
      case arrow::Type::INT64: return 4;
      default: return 0;
    }
  };
  if (rank(from) > 0 && rank(to) > 0) return rank(from) < rank(to);
  if (from.id() == arrow::Type::FLOAT && to.id() == arrow::Type::DOUBLE) return true;
  if (arrow::is_decimal(from.id()) && arrow::is_decimal(to.id())) {
    const auto& a = static_cast<const arrow::DecimalType&>(from);
    const auto& b = static_cast<const arrow::DecimalType&>(to);
    return b.scale() >= a.scale() && b.precision() - b.scale() >= a.precision() - a.scale();
  }
  // Any atomic value has a text form, so Spark's up-cast allows it to STRING.
  if (IsStringLike(to) && !arrow::is_nested(from.id())) return true;
  return false;
}

// Reserved properties are set by their own clauses, as in Spark.
Status CheckTableProperties(const sql::PropertyList& properties, SourcePosition pos) {
  static const std::map<std::string, std::string> kClauses = {
      {kPropProvider, "please use the USING clause to specify it"},
      {kPropLocation, "please use the LOCATION clause to specify it"},
      {kPropComment, "please use the COMMENT clause to specify it"},
      {kPropOwner, "it will be set to the current user"},
      {kPropExternal, "please use CREATE EXTERNAL TABLE"}};
  for (const auto& [key, value] : properties) {
    auto it = kClauses.find(key);
    if (it == kClauses.end()) continue;
    return AnalysisError("UNSUPPORTED_FEATURE.SET_TABLE_PROPERTY",
                         fmt::format("The feature is not supported: {} is a reserved table "
                                     "property, {}.",
                                     key, it->second),
                         pos);
  }
  return Status::OK();
}

Status CheckNamespaceProperties(const sql::PropertyList& properties, SourcePosition pos) {
  static const std::map<std::string, std::string> kClauses = {
      {kPropComment, "please use the COMMENT clause to specify it"},
      {kPropLocation, "please use the LOCATION clause to specify it"},
      {kPropOwner, "it will be set to the current user"}};
  for (const auto& [key, value] : properties) {
    auto it = kClauses.find(key);
    if (it == kClauses.end()) continue;
    return AnalysisError("UNSUPPORTED_FEATURE.SET_NAMESPACE_PROPERTY",
                         fmt::format("The feature is not supported: {} is a reserved namespace "
                                     "property, {}.",
                                     key, it->second),
                         pos);
  }
  return Status::OK();
}

bool IsReservedProperty(const std::string& key) {
  return key == kPropProvider || key == kPropLocation || key == kPropComment || key == kPropOwner ||
         key == kPropExternal;
}

Result<std::vector<TableChange>> ChangesFor(const sql::AlterTable& alter, const Table& table) {
  std::vector<TableChange> changes;
  using Kind = TableChange::Kind;
  const auto columns = table.columns();
  auto find = [&](const std::vector<std::string>& parts) -> const Column* {
    for (const auto& column : columns) {
      if (parts.size() == 1 && EqualsIgnoreCase(column.name, parts[0])) {
        return &column;
      }
    }
    return nullptr;
  };
  switch (alter.kind) {
    case sql::AlterTableKind::kAddColumns:
      for (const auto& definition : alter.columns) {
        ARROW_ASSIGN_OR_RAISE(auto column, ColumnFor(definition));
        TableChange change;
        change.kind = Kind::kAddColumn;
        change.field_names = definition.name;
        change.type = column.type;
        change.nullable = column.nullable;
        if (definition.comment) change.comment = *definition.comment;
        change.default_value = column.default_value;
        change.char_varchar = column.char_varchar;
        if (definition.first || !definition.after.empty()) {
          change.position = ColumnPosition{definition.first, definition.after};
        }
        changes.push_back(std::move(change));
      }
      break;
    case sql::AlterTableKind::kDropColumns:
      for (const auto& name : alter.column_names) {
        TableChange change;
        change.kind = Kind::kDeleteColumn;
        change.field_names = name;
        change.if_exists = alter.if_exists;
        changes.push_back(std::move(change));
      }
      break;
    case sql::AlterTableKind::kRenameColumn: {
      TableChange change;
      change.kind = Kind::kRenameColumn;
      change.field_names = alter.column_names.at(0);
      change.new_name = alter.new_name;
      changes.push_back(std::move(change));
      break;
    }
    case sql::AlterTableKind::kAlterColumn: {
      const auto& action = alter.column_change;
      TableChange change;
      change.field_names = alter.column_names.at(0);
      const Column* current = find(change.field_names);
      using Action = sql::AlterColumnChange::Kind;
      switch (action.kind) {
        case Action::kType: {
          change.kind = Kind::kUpdateColumnType;
          ARROW_ASSIGN_OR_RAISE(change.type, TypeOf(action.type, alter.name.pos));
          if (current != nullptr && !CanWiden(*current->type, *change.type)) {
            return AnalysisError(
                "NOT_SUPPORTED_CHANGE_COLUMN",
                fmt::format("ALTER TABLE ALTER/CHANGE COLUMN is not supported for changing "
                            "{}'s column {} with type \"{}\" to {} with type \"{}\".",
                            table.name(), QuoteIdentifier(current->name),
                            SqlTypeName(*current->type), QuoteIdentifier(current->name),
                            SqlTypeName(*change.type)),
                alter.name.pos);
          }
          break;
        }
        case Action::kComment:
          change.kind = Kind::kUpdateColumnComment;
          change.comment = action.comment;
          break;
        case Action::kSetNotNull:
          // As Spark: a nullable column cannot become NOT NULL, whatever its data.
          if (current == nullptr || current->nullable) {
            return AnalysisError("_LEGACY_ERROR_TEMP_2330",
                                 fmt::format("Cannot change nullable column to non-nullable: {}.",
                                             QuoteIdentifier(change.field_names.back())),
                                 alter.name.pos);
          }
          change.kind = Kind::kUpdateColumnNullability;
          change.nullable = false;
          break;
        case Action::kDropNotNull:
          change.kind = Kind::kUpdateColumnNullability;
          change.nullable = true;
          break;
        case Action::kSetDefault: {
          change.kind = Kind::kUpdateColumnDefaultValue;
          change.default_value = action.default_text;
          if (current != nullptr) {
            // The new default is checked as a CREATE TABLE default of this column would be.
            sql::ColumnDefinition definition;
            definition.pos = alter.name.pos;
            definition.default_text = action.default_text;
            ARROW_ASSIGN_OR_RAISE(definition.default_value,
                                  sql::ParseExpression(action.default_text));
            ARROW_RETURN_NOT_OK(CheckDefault(definition, *current));
          }
          break;
        }
        case Action::kDropDefault:
          change.kind = Kind::kUpdateColumnDefaultValue;
          change.default_value = "";
          break;
        case Action::kFirst:
        case Action::kAfter:
          change.kind = Kind::kUpdateColumnPosition;
          change.position = ColumnPosition{action.kind == Action::kFirst, action.after};
          break;
      }
      changes.push_back(std::move(change));
      break;
    }
    case sql::AlterTableKind::kSetLocation: {
      TableChange change;
      change.kind = Kind::kSetProperty;
      change.property_key = kPropLocation;
      change.property_value = alter.location;
      changes.push_back(std::move(change));
      break;
    }
    case sql::AlterTableKind::kSetProperties:
      ARROW_RETURN_NOT_OK(CheckTableProperties(alter.properties, alter.name.pos));
      for (const auto& [key, value] : alter.properties) {
        TableChange change;
        change.kind = Kind::kSetProperty;
        change.property_key = key;
        change.property_value = value;
        changes.push_back(std::move(change));
      }
      break;
    case sql::AlterTableKind::kUnsetProperties: {
      auto properties = table.properties();
      for (const auto& key : alter.property_keys) {
        if (!alter.if_exists && properties.count(key) == 0) {
          return AnalysisError("UNSET_NONEXISTENT_PROPERTIES",
                               fmt::format("Attempted to unset non-existent properties [{}] in "
                                           "table {}.",
                                           QuoteIdentifier(key), table.name()),
                               alter.name.pos);
        }
        TableChange change;
        change.kind = Kind::kRemoveProperty;
        change.property_key = key;
        changes.push_back(std::move(change));
      }
      break;
    }
    case sql::AlterTableKind::kRenameTable: break;
  }
  return changes;
}

}  // namespace

Result<TableInfo> TableInfoFor(const sql::CreateTable& create,
                               const std::vector<Column>& query_columns) {
  TableInfo info;
  if (!create.query) {
    for (const auto& definition : create.columns) {
      ARROW_ASSIGN_OR_RAISE(auto column, ColumnFor(definition));
      info.columns.push_back(std::move(column));
    }
  } else {
    info.columns = query_columns;
  }
  for (const auto& expr : create.partitioning) {
    ARROW_ASSIGN_OR_RAISE(auto transform, TransformFor(*expr, info.columns));
    info.partitioning.push_back(std::move(transform));
  }
  ARROW_RETURN_NOT_OK(CheckTableProperties(create.properties, create.name.pos));
  for (const auto& [key, value] : create.properties) info.properties[key] = value;
  for (const auto& [key, value] : create.options) {
    info.properties[std::string(kOptionPrefix) + key] = value;
  }
  if (create.provider) info.properties[kPropProvider] = *create.provider;
  if (create.location) info.properties[kPropLocation] = *create.location;
  if (create.comment) info.properties[kPropComment] = *create.comment;
  if (create.external) info.properties[kPropExternal] = "true";
  return info;
}

CommandResult RunCreateTable(const sql::CreateTable& create, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveForDdl(create.name, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto info, TableInfoFor(create, {}));
  const Identifier& ident = target.name.ident;
  ARROW_ASSIGN_OR_RAISE(bool exists, target.catalog->TableExists(ident));
  if (create.create && !create.replace) {
    if (exists && create.if_not_exists) return EmptyResult();
    ARROW_RETURN_NOT_OK(target.catalog->CreateTable(ident, info).status());
    return EmptyResult();
  }
  if (!exists && !create.create) {
    return AnalysisError("CANNOT_REPLACE_MISSING_TABLE",
                         fmt::format("Table or view {} cannot be replaced as it does not exist. "
                                     "Use CREATE OR REPLACE TABLE to create the table.",
                                     target.name.ToString()),
                         create.name.pos);
  }
  if (auto* staging = dynamic_cast<StagingTableCatalog*>(target.catalog)) {
    ARROW_ASSIGN_OR_RAISE(auto staged, exists ? staging->StageReplace(ident, info)
                                              : staging->StageCreateOrReplace(ident, info));
    ARROW_RETURN_NOT_OK(staged->CommitStagedChanges());
    return EmptyResult();
  }
  if (exists) ARROW_RETURN_NOT_OK(target.catalog->DropTable(ident).status());
  ARROW_RETURN_NOT_OK(target.catalog->CreateTable(ident, info).status());
  return EmptyResult();
}

CommandResult RunDropTable(const sql::DropTable& drop, const CommandContext& context) {
  // As Spark's, DROP TABLE of a view's name drops the view.
  if (drop.name.parts.size() == 1 && context.catalogs->DropTempView(drop.name.parts[0])) {
    return EmptyResult();
  }
  ARROW_ASSIGN_OR_RAISE(auto view, FindPersistentView(drop.name, context.catalogs));
  if (view) {
    ARROW_RETURN_NOT_OK(
        dynamic_cast<ViewCatalog&>(*view->first.catalog).DropView(view->first.ident).status());
    return EmptyResult();
  }
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveForDdl(drop.name, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(bool dropped, drop.purge ? target.catalog->PurgeTable(target.name.ident)
                                                 : target.catalog->DropTable(target.name.ident));
  if (!dropped && !drop.if_exists) return TableNotFound(drop.name);
  return EmptyResult();
}

CommandResult RunAlterTable(const sql::AlterTable& alter, const CommandContext& context) {
  // A one-part name is a temporary view before it is a table.
  if (alter.name.parts.size() == 1 && context.catalogs->FindTempView(alter.name.parts[0])) {
    return ViewIsNotATable(QuoteIdentifier(alter.name.parts[0]), AlterTableOperation(alter.kind),
                           UsesAlterView(alter.kind), alter.name.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveForDdl(alter.name, context.catalogs));
  ARROW_RETURN_NOT_OK(ExpectTableNotView(target.name, AlterTableOperation(alter.kind),
                                         UsesAlterView(alter.kind), alter.name.pos));
  ARROW_ASSIGN_OR_RAISE(auto table, LoadForDdl(target, alter.name));
  if (alter.kind == sql::AlterTableKind::kRenameTable) {
    Identifier to;
    const auto& parts = alter.new_table.parts;
    if (parts.size() == 1) {
      to = Identifier{target.name.ident.namespace_path, parts[0]};
    } else {
      ARROW_ASSIGN_OR_RAISE(auto resolved, context.catalogs->ResolveTableName(parts));
      if (resolved.catalog != target.name.catalog) {
        return AnalysisError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                             "The feature is not supported: renaming a table into another "
                             "catalog.",
                             alter.new_table.pos);
      }
      to = resolved.ident;
    }
    ARROW_RETURN_NOT_OK(target.catalog->RenameTable(target.name.ident, to));
    return EmptyResult();
  }
  ARROW_ASSIGN_OR_RAISE(auto changes, ChangesFor(alter, *table));
  ARROW_RETURN_NOT_OK(target.catalog->AlterTable(target.name.ident, changes).status());
  return EmptyResult();
}

CommandResult RunCreateNamespace(const sql::CreateNamespace& create,
                                 const CommandContext& context) {
  SupportsNamespaces* namespaces = nullptr;
  ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveNamespaces(create.name, context.catalogs, &namespaces,
                                                         /*must_exist=*/false));
  ARROW_RETURN_NOT_OK(CheckNamespaceProperties(create.properties, create.name.pos));
  ARROW_ASSIGN_OR_RAISE(bool exists, namespaces->NamespaceExists(resolved.second));
  if (exists && create.if_not_exists) return EmptyResult();
  std::map<std::string, std::string> metadata;
  for (const auto& [key, value] : create.properties) metadata[key] = value;
  if (create.comment) metadata[kPropComment] = *create.comment;
  if (create.location) metadata[kPropLocation] = *create.location;
  ARROW_RETURN_NOT_OK(namespaces->CreateNamespace(resolved.second, metadata));
  return EmptyResult();
}

CommandResult RunDropNamespace(const sql::DropNamespace& drop, const CommandContext& context) {
  SupportsNamespaces* namespaces = nullptr;
  ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveNamespaces(drop.name, context.catalogs, &namespaces,
                                                         /*must_exist=*/false));
  ARROW_ASSIGN_OR_RAISE(bool dropped, namespaces->DropNamespace(resolved.second, drop.cascade));
  if (!dropped && !drop.if_exists) {
    return AnalysisError("SCHEMA_NOT_FOUND",
                         fmt::format("The schema {} cannot be found. Verify the spelling and "
                                     "correctness of the schema and catalog.",
                                     NamespaceToString(resolved.second)),
                         drop.name.pos);
  }
  return EmptyResult();
}

CommandResult RunAlterNamespace(const sql::AlterNamespace& alter, const CommandContext& context) {
  SupportsNamespaces* namespaces = nullptr;
  ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveNamespaces(alter.name, context.catalogs, &namespaces,
                                                         /*must_exist=*/true));
  ARROW_RETURN_NOT_OK(CheckNamespaceProperties(alter.properties, alter.name.pos));
  std::vector<NamespaceChange> changes;
  for (const auto& [key, value] : alter.properties) changes.push_back({false, key, value});
  if (alter.location) changes.push_back({false, kPropLocation, *alter.location});
  for (const auto& key : alter.unset_keys) changes.push_back({true, key, ""});
  ARROW_RETURN_NOT_OK(namespaces->AlterNamespace(resolved.second, changes));
  return EmptyResult();
}

CommandResult RunDescribeNamespace(const sql::DescribeNamespace& describe,
                                   const CommandContext& context) {
  SupportsNamespaces* namespaces = nullptr;
  ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveNamespaces(describe.name, context.catalogs,
                                                         &namespaces, /*must_exist=*/true));
  ARROW_ASSIGN_OR_RAISE(auto metadata, namespaces->LoadNamespaceMetadata(resolved.second));
  auto value = [&](const char* key) {
    auto it = metadata.find(key);
    return it == metadata.end() ? std::string() : it->second;
  };
  std::string path;
  for (const auto& part : resolved.second) path += (path.empty() ? "" : ".") + part;
  std::vector<std::vector<std::string>> rows = {{"Catalog Name", resolved.first->name()},
                                                {"Namespace Name", path},
                                                {"Comment", value(kPropComment)},
                                                {"Location", value(kPropLocation)},
                                                {"Owner", value(kPropOwner)}};
  if (describe.extended) {
    std::vector<std::string> properties;
    for (const auto& [key, entry] : metadata) {
      if (key != kPropComment && key != kPropLocation && key != kPropOwner) {
        properties.push_back(fmt::format("({},{})", key, entry));
      }
    }
    rows.push_back({"Properties", fmt::format("({})", fmt::join(properties, ","))});
  }
  return StringTable({"info_name", "info_value"}, rows);
}

CommandResult RunShowCreateTable(const sql::ShowCreateTable& show, const CommandContext& context) {
  if (show.name.parts.size() == 1 && context.catalogs->FindTempView(show.name.parts[0])) {
    return AnalysisError("EXPECT_PERMANENT_VIEW_NOT_TEMP",
                         fmt::format("'SHOW CREATE TABLE' expects a permanent view but {} is a "
                                     "temp view.",
                                     QuoteIdentifier(show.name.parts[0])),
                         show.name.pos);
  }
  ARROW_ASSIGN_OR_RAISE(auto view, FindPersistentView(show.name, context.catalogs));
  if (view) return RunShowCreateView(view->first, view->second);
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveForDdl(show.name, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadForDdl(target, show.name));
  const Table& table = *loaded;
  auto properties = table.properties();
  std::vector<std::string> name_parts;
  if (target.name.catalog) name_parts.push_back(QuoteIfNeeded(target.name.catalog->name()));
  for (const auto& part : target.name.ident.namespace_path)
    name_parts.push_back(QuoteIfNeeded(part));
  name_parts.push_back(QuoteIfNeeded(target.name.ident.name));
  std::string ddl = fmt::format("CREATE TABLE {} (\n", fmt::join(name_parts, "."));
  auto columns = table.columns();
  for (size_t i = 0; i < columns.size(); ++i) {
    const Column& column = columns[i];
    ddl += "  " + QuoteIfNeeded(column.name) + " " +
           (column.char_varchar.empty() ? SqlTypeName(*column.type)
                                        : ToUpperAscii(column.char_varchar));
    if (!column.nullable) ddl += " NOT NULL";
    if (column.default_value) ddl += " DEFAULT " + *column.default_value;
    if (!column.comment.empty()) ddl += " COMMENT " + QuoteSqlString(column.comment);
    ddl += i + 1 < columns.size() ? ",\n" : ")\n";
  }
  if (auto it = properties.find(kPropProvider); it != properties.end()) {
    ddl += "USING " + it->second + "\n";
  }
  std::vector<std::string> options;
  for (const auto& [key, value] : properties) {
    if (key.rfind(kOptionPrefix, 0) == 0) {
      options.push_back("  " + QuoteSqlString(key.substr(std::string(kOptionPrefix).size())) +
                        " = " + QuoteSqlString(value));
    }
  }
  if (!options.empty()) ddl += fmt::format("OPTIONS (\n{})\n", fmt::join(options, ",\n"));
  auto partitioning = table.partitioning();
  if (!partitioning.empty()) {
    std::vector<std::string> parts;
    for (const auto& transform : partitioning) {
      const std::string* column =
          transform->name() == "identity" && transform->arguments().size() == 1
              ? AsColumnName(*transform->arguments()[0])
              : nullptr;
      parts.push_back(column != nullptr ? QuoteIfNeeded(*column) : transform->ToString());
    }
    ddl += fmt::format("PARTITIONED BY ({})\n", fmt::join(parts, ", "));
  }
  if (auto it = properties.find(kPropLocation); it != properties.end()) {
    ddl += "LOCATION " + QuoteSqlString(it->second) + "\n";
  }
  if (auto it = properties.find(kPropComment); it != properties.end()) {
    ddl += "COMMENT " + QuoteSqlString(it->second) + "\n";
  }
  std::vector<std::string> user_properties;
  for (const auto& [key, value] : properties) {
    if (!IsReservedProperty(key) && key.rfind(kOptionPrefix, 0) != 0) {
      user_properties.push_back("  " + QuoteSqlString(key) + " = " + QuoteSqlString(value));
    }
  }
  if (!user_properties.empty()) {
    ddl += fmt::format("TBLPROPERTIES (\n{})\n", fmt::join(user_properties, ",\n"));
  }
  return StringTable({"createtab_stmt"}, {{ddl}});
}

CommandResult RunShowTblProperties(const sql::ShowTblProperties& show,
                                   const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto view, FindPersistentView(show.name, context.catalogs));
  if (view) return RunShowViewProperties(view->first, view->second, show.key);
  ARROW_ASSIGN_OR_RAISE(auto target, ResolveForDdl(show.name, context.catalogs));
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadForDdl(target, show.name));
  auto properties = loaded->properties();
  std::vector<std::vector<std::string>> rows;
  if (show.key) {
    auto it = properties.find(*show.key);
    rows.push_back({*show.key, it != properties.end()
                                   ? it->second
                                   : fmt::format("Table {} does not have property: {}",
                                                 target.name.ToString(), *show.key)});
  } else {
    for (const auto& [key, value] : properties) {
      if (!IsReservedProperty(key)) rows.push_back({key, value});
    }
  }
  return StringTable({"key", "value"}, rows);
}

}  // namespace parley
