// The statements that change catalogs and data, run by the Session: table and namespace DDL,
// SHOW CREATE TABLE / SHOW TBLPROPERTIES (ddl_commands.cc), CALL and the procedure commands
// (procedure_commands.cc), INSERT, CREATE/REPLACE TABLE AS SELECT and TRUNCATE TABLE
// (write_commands.cc), and DELETE, UPDATE and MERGE (dml_commands.cc). Each returns its result
// as a table, empty for the commands Spark prints nothing for.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "catalog/catalog_manager.h"
#include "catalog/sql_conf.h"
#include "exec/write_runner.h"
#include "parley/connector/function.h"
#include "sql/ast.h"

namespace parley {

/// \brief What a command needs from its session.
struct CommandContext {
  CatalogManager* catalogs;
  const SqlConf* conf;
  /// The running statement's stop conditions and memory pool.
  QueryControl control;
};

using CommandResult = Result<std::shared_ptr<arrow::Table>>;

/// \brief CREATE TABLE without a query (with a query: RunCreateTableAsSelect).
CommandResult RunCreateTable(const sql::CreateTable& create, const CommandContext& context);
CommandResult RunDropTable(const sql::DropTable& drop, const CommandContext& context);
CommandResult RunAlterTable(const sql::AlterTable& alter, const CommandContext& context);
CommandResult RunCreateNamespace(const sql::CreateNamespace& create, const CommandContext& context);
CommandResult RunDropNamespace(const sql::DropNamespace& drop, const CommandContext& context);
CommandResult RunAlterNamespace(const sql::AlterNamespace& alter, const CommandContext& context);
CommandResult RunDescribeNamespace(const sql::DescribeNamespace& describe,
                                   const CommandContext& context);
CommandResult RunShowCreateTable(const sql::ShowCreateTable& show, const CommandContext& context);
CommandResult RunShowTblProperties(const sql::ShowTblProperties& show,
                                   const CommandContext& context);

/// \brief INSERT INTO / OVERWRITE. `profile` receives what the write did.
CommandResult RunInsert(const sql::Insert& insert, const CommandContext& context,
                        WriteJobResult* profile = nullptr);
/// \brief EXPLAIN of an INSERT: the write operator (AppendData, OverwriteByExpression,
/// OverwritePartitionsDynamic) above the query's plan. ANALYZE runs the write and adds what it
/// did: rows, tasks, attempts, denied commits, time and the write's custom metrics.
Result<std::string> ExplainInsert(const sql::Insert& insert, sql::ExplainMode mode,
                                  const CommandContext& context);
/// \brief CREATE [OR REPLACE] TABLE ... AS SELECT and REPLACE TABLE ... AS SELECT: atomic in a
/// StagingTableCatalog (the table appears with its data, or not at all / the old one stays);
/// elsewhere the table is created, written, and dropped again when the write fails.
CommandResult RunCreateTableAsSelect(const sql::CreateTable& create, const CommandContext& context);
CommandResult RunTruncateTable(const sql::TruncateTable& truncate, const CommandContext& context);

/// \brief DELETE / UPDATE / MERGE (dml_commands.cc): one row of BIGINT metrics, as Spark:
/// num_affected_rows, and for MERGE num_updated_rows, num_deleted_rows, num_inserted_rows.
CommandResult RunDelete(const sql::DeleteFrom& statement, const CommandContext& context);
CommandResult RunUpdate(const sql::Update& statement, const CommandContext& context);
CommandResult RunMerge(const sql::Merge& statement, const CommandContext& context);
/// \brief EXPLAIN of a DELETE, UPDATE or MERGE (`statement`, which must be one): bound and
/// planned as it would run, nothing read or written (exec/row_level_explain.h). ANALYZE is
/// UNSUPPORTED_FEATURE.EXPLAIN_COMMAND: it would change the table.
Result<std::string> ExplainRowLevelCommand(const sql::Statement& statement, sql::ExplainMode mode,
                                           const CommandContext& context);

/// \brief CALL (procedure_commands.cc), and the commands that are calls: VACUUM, DESCRIBE
/// HISTORY, DESCRIBE DETAIL (their table's catalog's procedures; DELTA_ONLY_OPERATION where it
/// has none). The result is the procedure's one result set, or nothing.
CommandResult RunCall(const sql::Call& call, SourcePosition pos, const CommandContext& context);
/// \brief EXPLAIN [EXTENDED] of a CALL: `Call cat.ns.proc(values)`, each parameter's value as it
/// would be passed (defaults filled in), the call bound but not run. ANALYZE is
/// UNSUPPORTED_FEATURE.EXPLAIN_COMMAND: it would run the procedure.
Result<std::string> ExplainCall(const sql::Call& call, SourcePosition pos, sql::ExplainMode mode,
                                const CommandContext& context);
/// \brief CREATE [OR REPLACE] [TEMPORARY] VIEW (view_commands.cc): the query is bound once to
/// check it. A temporary view goes to the session, a global temporary one to the process
/// (read as global_temp.v), a persistent one to the ViewCatalog of its name. Errors:
/// TEMP_TABLE_OR_VIEW_ALREADY_EXISTS, INVALID_TEMP_OBJ_QUALIFIER, TABLE_OR_VIEW_ALREADY_EXISTS,
/// EXPECT_VIEW_NOT_TABLE.NO_ALTERNATIVE (OR REPLACE of a table),
/// CREATE_VIEW_WITH_IF_NOT_EXISTS_AND_REPLACE, MISSING_CATALOG_ABILITY.VIEWS,
/// CREATE_VIEW_COLUMN_ARITY_MISMATCH.*, COLUMN_ALREADY_EXISTS, RECURSIVE_VIEW,
/// INVALID_TEMP_OBJ_REFERENCE, CREATE_PERMANENT_VIEW_WITHOUT_ALIAS, and Spark's error for a
/// temporary view with IF NOT EXISTS.
CommandResult RunCreateView(const sql::CreateView& create, const CommandContext& context);
/// \brief ALTER VIEW ... AS (a temporary or persistent view), RENAME TO, SET / UNSET
/// TBLPROPERTIES (persistent views). Errors: EXPECT_VIEW_NOT_TABLE.* for a table,
/// EXPECT_PERMANENT_VIEW_NOT_TEMP, TABLE_OR_VIEW_NOT_FOUND, and those of CREATE VIEW's query.
CommandResult RunAlterView(const sql::AlterView& alter, const CommandContext& context);
/// \brief DROP VIEW [IF EXISTS]: a temporary or persistent view; WRONG_COMMAND_FOR_OBJECT_TYPE
/// for a table, TABLE_OR_VIEW_NOT_FOUND for nothing (unless IF EXISTS).
CommandResult RunDropView(const sql::DropView& drop, const CommandContext& context);
/// \brief The persistent view `name` names, if a ViewCatalog has one by that name.
Result<std::optional<std::pair<ResolvedName, ViewInfo>>> FindPersistentView(
    const sql::QualifiedName& name, CatalogManager* catalogs);
/// \brief DESCRIBE [EXTENDED] of a view: its columns, types and comments; EXTENDED adds the
/// details of a persistent one (`persistent`, null for a temporary view), as Spark lists them.
CommandResult RunDescribeView(const sql::DescribeTable& describe, const ViewInfo& view,
                              const ResolvedName* persistent);
/// \brief SHOW CREATE TABLE of a persistent view: the CREATE VIEW statement that makes it.
CommandResult RunShowCreateView(const ResolvedName& name, const ViewInfo& view);
/// \brief SHOW TBLPROPERTIES of a persistent view (its comment is not a property).
CommandResult RunShowViewProperties(const ResolvedName& name, const ViewInfo& view,
                                    const std::optional<std::string>& key);
/// \brief SHOW [USER|SYSTEM|ALL] FUNCTIONS [IN ns] [LIKE p] (function_commands.cc): one
/// `function` column, sorted; SYSTEM lists the built-ins, USER the temporary functions and the
/// functions of the namespace's FunctionCatalog (catalog.ns.name), ALL both.
CommandResult RunShowFunctions(const sql::ShowFunctions& show, const CommandContext& context);
/// \brief DESCRIBE FUNCTION [EXTENDED] name: `function_desc` lines "Function: name" and
/// "Usage: description" (N/A. for the built-ins, whose usage text Parley does not keep).
/// UNRESOLVED_ROUTINE for a name nothing has.
CommandResult RunDescribeFunction(const sql::DescribeFunction& describe,
                                  const CommandContext& context);
/// \brief CREATE [OR REPLACE] [TEMPORARY] FUNCTION (sql_function_commands.cc): a SQL
/// function, kept by the session (TEMPORARY) or by the catalog its name resolves to (a
/// SqlFunctionCatalog, else MISSING_CATALOG_ABILITY.CREATE_FUNCTION). Errors: those of
/// CheckSqlFunction (analysis/sql_function_binder.h), ROUTINE_ALREADY_EXISTS,
/// INVALID_TEMP_OBJ_QUALIFIER for a qualified temporary name, UNSUPPORTED_DATATYPE.
CommandResult RunCreateFunction(const sql::CreateFunction& create, SourcePosition pos,
                                const CommandContext& context);
/// \brief DROP [TEMPORARY] FUNCTION [IF EXISTS]: ROUTINE_NOT_FOUND without IF EXISTS for a
/// name nothing has; DROP FUNCTION of a temporary function's name asks for DROP TEMPORARY.
CommandResult RunDropFunction(const sql::DropFunction& drop, SourcePosition pos,
                              const CommandContext& context);
/// \brief The lines DESCRIBE FUNCTION [EXTENDED] shows of the SQL function `name`.
std::vector<std::string> DescribeSqlFunctionLines(const std::string& name,
                                                  const SqlFunctionInfo& info, bool extended);
/// \brief INVALID_TEMP_OBJ_QUALIFIER for the name of a temporary `kind` (VIEW, FUNCTION) that is
/// qualified other than as the session's (`session.x`, `system.session.x`).
Status CheckTempObjectQualifier(const char* kind, const sql::QualifiedName& name);
/// \brief The SQL settings a view or SQL function keeps: the spark.sql.* ones the session
/// set, except the catalogs'.
std::map<std::string, std::string> CapturedConfigs(const SqlConf& conf);
/// \brief SHOW PROCEDURES [IN ns]: catalog, namespace, schema, procedure_name, by name.
CommandResult RunShowProcedures(const sql::ShowProcedures& show, SourcePosition pos,
                                const CommandContext& context);
/// \brief DESCRIBE PROCEDURE: one procedure_desc row per line of name, description and, when
/// the procedure binds without arguments, its parameters.
CommandResult RunDescribeProcedure(const sql::DescribeProcedure& describe,
                                   const CommandContext& context);

/// \brief The TableInfo of a CREATE/REPLACE TABLE statement; `query_columns` stand in for the
/// column list of a CTAS. Errors: UNSUPPORTED_DATATYPE, COLUMN_ALREADY_EXISTS, and
/// INVALID_DEFAULT_VALUE.* for a default that does not fit its column.
Result<TableInfo> TableInfoFor(const sql::CreateTable& create,
                               const std::vector<Column>& query_columns);

/// \brief The write options of a session: attempts, speculation, test modes; the
/// statement's `control`.
WriteRunOptions WriteOptionsFor(const SqlConf& conf, const QueryControl& control);

/// \brief The scan options of a session: test modes, the pushdown check, runtime filtering;
/// the statement's `control`.
ScanRunOptions ScanOptionsFor(const SqlConf& conf, const QueryControl& control);

}  // namespace parley
