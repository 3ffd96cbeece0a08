// Syntax tree of the statements that change catalogs and data: table and namespace DDL, INSERT,
// TRUNCATE, and the SHOW commands that print DDL. Included by sql/ast.h; the names and
// conventions (QualifiedName, TypeName, ExprPtr, positions) are those of that file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace parley::sql {

/// \brief `key = value` pairs of TBLPROPERTIES, OPTIONS and namespace PROPERTIES, in written
/// order. Keys and values are unquoted; a key may be a dotted identifier (`a.b.c`) or a string.
using PropertyList = std::vector<std::pair<std::string, std::string>>;

/// \brief A column of CREATE TABLE or ALTER TABLE ADD COLUMN:
/// `name type [NOT NULL] [DEFAULT expr] [COMMENT 'text']` (the clauses in any order).
struct ColumnDefinition {
  SourcePosition pos;  // of the name
  /// One part for a top-level column; ADD COLUMN may name a nested field `a.b`.
  std::vector<std::string> name;
  TypeName type;
  bool not_null = false;
  std::optional<std::string> comment;
  /// DEFAULT expression, with its SQL text exactly as written (trimmed).
  ExprPtr default_value;
  std::string default_text;
  /// ALTER TABLE ADD COLUMN only: FIRST or AFTER column.
  bool first = false;
  std::string after;
};

/// \brief CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [(columns)] [USING provider]
/// [OPTIONS (...)] [PARTITIONED BY (...)] [LOCATION 'path'] [COMMENT 'text']
/// [TBLPROPERTIES (...)] [[AS] query]; also REPLACE TABLE with the same clauses (`replace` set,
/// `create` unset). CREATE TEMPORARY/EXTERNAL forms are rejected by the parser except
/// EXTERNAL, recorded in `external`.
struct CreateTable {
  QualifiedName name;
  bool create = true;    // CREATE ...
  bool replace = false;  // ... OR REPLACE, or REPLACE TABLE
  bool if_not_exists = false;
  bool external = false;
  std::vector<ColumnDefinition> columns;
  std::optional<std::string> provider;  // USING name, as written
  PropertyList options;
  /// PARTITIONED BY items: a column reference (`c`), or a transform call (`bucket(4, c)`,
  /// `days(ts)`, `years(ts)`...) as a kFunction expression. A column defined here in
  /// `name type` form (Hive style) is also added to `columns` and listed as a reference.
  std::vector<ExprPtr> partitioning;
  std::optional<std::string> location;
  std::optional<std::string> comment;
  PropertyList properties;  // TBLPROPERTIES
  /// AS query, when present.
  std::unique_ptr<SelectStatement> query;
};

/// \brief CREATE [OR REPLACE] [[GLOBAL] TEMPORARY] VIEW [IF NOT EXISTS] name
/// [(col [COMMENT 'c'], ...)] [COMMENT 'c'] [TBLPROPERTIES (...)] AS query. `query_text` is the
/// query as written, which the view keeps and expands when it is read.
struct CreateView {
  QualifiedName name;
  bool replace = false;
  bool temporary = false;
  bool global = false;
  bool if_not_exists = false;
  /// The column list: names and comments (empty when none was given).
  std::vector<std::pair<std::string, std::string>> columns;
  std::optional<std::string> comment;
  PropertyList properties;
  std::unique_ptr<SelectStatement> query;
  std::string query_text;
};

/// \brief What one ALTER VIEW statement does.
enum class AlterViewKind {
  kQuery,            // AS query: `query`, `query_text`
  kRename,           // RENAME TO name: `new_name`
  kSetProperties,    // SET TBLPROPERTIES (...): `properties`
  kUnsetProperties,  // UNSET TBLPROPERTIES [IF EXISTS] (k, ...): `property_keys`, `if_exists`
};

/// \brief ALTER VIEW name {AS query | RENAME TO name | SET TBLPROPERTIES (...) |
/// UNSET TBLPROPERTIES [IF EXISTS] (...)}.
struct AlterView {
  QualifiedName name;
  AlterViewKind kind = AlterViewKind::kQuery;
  std::unique_ptr<SelectStatement> query;
  std::string query_text;
  QualifiedName new_name;
  PropertyList properties;
  std::vector<std::string> property_keys;
  bool if_exists = false;
};

/// \brief CREATE [OR REPLACE] [TEMPORARY] FUNCTION [IF NOT EXISTS] name ([param type
/// [DEFAULT expr] [COMMENT 'c'], ...]) [RETURNS type | RETURNS TABLE [(col type [COMMENT 'c'],
/// ...)]] [COMMENT 'c' | [NOT] DETERMINISTIC | LANGUAGE SQL | CONTAINS SQL | READS SQL DATA |
/// SQL SECURITY DEFINER ...] RETURN {expr | query}. `body_text` is the body as written.
struct CreateFunction {
  QualifiedName name;
  bool replace = false;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<ColumnDefinition> parameters;
  bool returns_table = false;
  /// RETURNS type of a scalar function; absent when the body's type is the result's.
  std::optional<TypeName> return_type;
  /// RETURNS TABLE (columns); empty when the body's columns are the result's.
  std::vector<ColumnDefinition> return_columns;
  std::optional<std::string> comment;
  std::optional<bool> deterministic;
  /// "CONTAINS SQL" or "READS SQL DATA" when written, else empty.
  std::string data_access;
  /// The body: an expression, or a query (exactly one is set).
  ExprPtr body_expr;
  std::unique_ptr<SelectStatement> body_query;
  std::string body_text;
};

/// \brief DROP [TEMPORARY] FUNCTION [IF EXISTS] name.
struct DropFunction {
  QualifiedName name;
  bool temporary = false;
  bool if_exists = false;
};

/// \brief DROP VIEW [IF EXISTS] name.
struct DropView {
  QualifiedName name;
  bool if_exists = false;
};

/// \brief DROP TABLE [IF EXISTS] name [PURGE].
struct DropTable {
  QualifiedName name;
  bool if_exists = false;
  bool purge = false;
};

/// \brief What one ALTER TABLE statement does.
enum class AlterTableKind {
  kAddColumns,       // ADD COLUMN[S] (col, ...) or ADD COLUMN col: `columns`
  kDropColumns,      // DROP COLUMN[S] [IF EXISTS] (a, b) / a, b: `column_names`, if_exists
  kRenameColumn,     // RENAME COLUMN a TO b: column_names[0], new_name
  kAlterColumn,      // ALTER|CHANGE [COLUMN] a <action>: column_names[0], `column_change`
  kSetProperties,    // SET TBLPROPERTIES (...): properties
  kUnsetProperties,  // UNSET TBLPROPERTIES [IF EXISTS] (k, ...): property_keys, if_exists
  kRenameTable,      // RENAME TO name: new_table
  kSetLocation,      // SET LOCATION 'path': location
};

/// \brief The action of ALTER TABLE t ALTER COLUMN c ... (one per statement).
struct AlterColumnChange {
  enum class Kind {
    kType,         // TYPE type: `type`
    kComment,      // COMMENT 'text': `comment`
    kSetNotNull,   // SET NOT NULL
    kDropNotNull,  // DROP NOT NULL
    kSetDefault,   // SET DEFAULT expr: `default_value`, `default_text`
    kDropDefault,  // DROP DEFAULT
    kFirst,        // FIRST
    kAfter,        // AFTER column: `after`
  };
  Kind kind = Kind::kType;
  TypeName type;
  std::string comment;
  ExprPtr default_value;
  std::string default_text;
  std::string after;
};

/// \brief ALTER TABLE name <action>.
struct AlterTable {
  QualifiedName name;
  AlterTableKind kind = AlterTableKind::kAddColumns;
  std::vector<ColumnDefinition> columns;
  /// Column names as written, each possibly multi-part (`a.b`).
  std::vector<std::vector<std::string>> column_names;
  std::string new_name;
  AlterColumnChange column_change;
  PropertyList properties;
  std::vector<std::string> property_keys;
  bool if_exists = false;
  QualifiedName new_table;
  std::string location;
};

/// \brief CREATE NAMESPACE|SCHEMA|DATABASE [IF NOT EXISTS] name [COMMENT 'text']
/// [LOCATION 'path'] [WITH (DBPROPERTIES|PROPERTIES) (...)].
struct CreateNamespace {
  QualifiedName name;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  std::optional<std::string> location;
  PropertyList properties;
};

/// \brief DROP NAMESPACE|SCHEMA|DATABASE [IF EXISTS] name [RESTRICT|CASCADE].
struct DropNamespace {
  QualifiedName name;
  bool if_exists = false;
  bool cascade = false;
};

/// \brief ALTER NAMESPACE|SCHEMA|DATABASE name SET (DBPROPERTIES|PROPERTIES) (...),
/// SET LOCATION 'path', or UNSET (DBPROPERTIES|PROPERTIES) (key, ...).
struct AlterNamespace {
  QualifiedName name;
  PropertyList properties;
  std::optional<std::string> location;
  std::vector<std::string> unset_keys;
};

/// \brief DESCRIBE NAMESPACE|SCHEMA|DATABASE [EXTENDED] name.
struct DescribeNamespace {
  QualifiedName name;
  bool extended = false;
};

/// \brief SHOW CREATE TABLE name [AS SERDE].
struct ShowCreateTable {
  QualifiedName name;
  bool as_serde = false;
};

/// \brief SHOW TBLPROPERTIES name [(key)].
struct ShowTblProperties {
  QualifiedName name;
  std::optional<std::string> key;
};

/// \brief One `column [= value]` of a PARTITION (...) spec; no value means a dynamic partition
/// column.
struct PartitionSpecItem {
  SourcePosition pos;
  std::string column;
  ExprPtr value;
};

/// \brief INSERT INTO [TABLE] name [PARTITION (...)] [(columns) | BY NAME] query, and
/// INSERT OVERWRITE [TABLE] name [PARTITION (...) [IF NOT EXISTS]] [(columns) | BY NAME] query.
/// The query is any query, VALUES included. `name` may be a path table (`parquet`.`/dir`).
struct Insert {
  QualifiedName table;
  bool overwrite = false;
  /// INSERT INTO t REPLACE WHERE condition query: replace the rows matching the condition.
  std::unique_ptr<Expr> replace_where;
  std::vector<PartitionSpecItem> partition_spec;
  bool if_not_exists = false;
  std::vector<std::string> columns;  // the column list, when written
  bool by_name = false;
  std::unique_ptr<SelectStatement> query;
};

/// \brief TRUNCATE TABLE name [PARTITION (...)].
struct TruncateTable {
  QualifiedName name;
  std::vector<PartitionSpecItem> partition_spec;
};

/// \brief `column = expression` of UPDATE SET and MERGE's UPDATE SET.
struct Assignment {
  SourcePosition pos;  // of the column
  /// The column as written; more than one part when qualified (`t.c`).
  std::vector<std::string> column;
  ExprPtr value;
};

/// \brief DELETE FROM name [[AS] alias] [WHERE condition]. No condition: every row.
struct DeleteFrom {
  QualifiedName table;
  std::string alias;
  ExprPtr condition;
};

/// \brief UPDATE name [[AS] alias] SET column = value, ... [WHERE condition].
struct Update {
  QualifiedName table;
  std::string alias;
  std::vector<Assignment> assignments;
  ExprPtr condition;
};

/// \brief One WHEN clause of MERGE.
struct MergeClause {
  enum class Match { kMatched, kNotMatchedByTarget, kNotMatchedBySource };
  enum class Action { kUpdate, kUpdateStar, kDelete, kInsert, kInsertStar };
  SourcePosition pos;  // of WHEN
  Match match = Match::kMatched;
  Action action = Action::kDelete;
  ExprPtr condition;  // AND condition, when written
  /// kUpdate: the SET assignments.
  std::vector<Assignment> assignments;
  /// kInsert: the column list and one value per column.
  std::vector<std::string> insert_columns;
  std::vector<ExprPtr> insert_values;
};

/// \brief MERGE INTO target [[AS] alias] USING source ON condition WHEN ... [WHEN ...]. The
/// source is a table or a subquery, with its alias, as in FROM.
struct Merge {
  QualifiedName target;
  std::string target_alias;
  std::unique_ptr<FromItem> source;
  ExprPtr condition;
  std::vector<MergeClause> clauses;
};

}  // namespace parley::sql
