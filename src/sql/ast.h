// The syntax tree the parser produces for Spark SQL text.
//
// The tree is purely syntactic: names are unresolved lists of parts, literals keep their source
// text and lexical kind, and types are names with parameters. The analyzer gives them meaning.
// Every node records the position of its first token so that analysis errors can point at it.
// Nodes are move-only values owned by their parent.
//
// Queries. A query of any shape is a SelectStatement, so that Statement and the code that binds
// plain SELECTs need not change: `kind` says whether its body is a SELECT (the original fields
// plus from_item, group_by, having and windows), a set operation, a VALUES list or a nested
// parenthesised query, and its WITH, ORDER BY, LIMIT and OFFSET apply to that body. A FROM
// clause is a tree of FromItems (tables, table functions, subqueries, joins) in `from_item`;
// when it is one plain table, `from` holds that table as well, exactly as before.
//
// Expressions. ExprKind and LiteralKind have no members beyond the original ones, so that
// exhaustive switches over them keep compiling. The forms added with the full query grammar ride
// on existing kinds and are marked by fields a consumer tests before `kind`:
//   - aggregate and window calls are kFunction nodes with `filter`, `window`, `ignore_nulls` or
//     `within_group` set;
//   - subquery expressions have `subquery_kind` != kNone and `subquery` set: `x IN (query)` is a
//     kIn node with only children[0]; `(query)` and `EXISTS (query)` are kFunction nodes named
//     `scalar_subquery` and `exists` with no arguments;
//   - INTERVAL literals have `interval` set and are kFunction nodes named `interval` with no
//     arguments;
//   - as in Spark's own parser, EXTRACT(field FROM e) is the call extract('field', e), and
//     `e::type` is CAST(e AS type);
//   - `e[key]` (array element, map value, struct field) is a kFunction node named `[]` with
//     children e and key.
// Code that knows none of this sees unknown functions (or an IN without a list) rather than
// wrong meanings; IsBasicSelect() tells such code whether a query uses anything it cannot know.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parley/source_text.h"

namespace parley::sql {

using parley::SourcePosition;

struct OrderItem;
struct SelectStatement;
struct WindowSpec;

/// \brief A SQL type as written: DECIMAL(10, 2) is {"DECIMAL", {10, 2}}; names upper-cased.
/// Interval types are one name with their fields: "INTERVAL DAY TO SECOND", "INTERVAL YEAR".
/// Nested types: ARRAY<t> has `children` {t}, MAP<k, v> {k, v}, STRUCT<a: t, b: u> {t, u} with
/// `field_names` {a, b}.
struct TypeName {
  std::string name;
  std::vector<int> parameters;
  std::vector<TypeName> children;
  std::vector<std::string> field_names;
};

/// \brief How a literal was written; the analyzer assigns Spark's type from it. For the numeric
/// kinds, a minus sign written just before the number belongs to the literal, as in Spark's
/// `number` rule: `-1` is a kInteger with text "-1", not a negation. (INTERVAL literals are not
/// kLiteral nodes; see IntervalLiteral.)
enum class LiteralKind {
  kNull,
  kBoolean,       // text is "true" or "false"
  kInteger,       // digits, with an optional suffix kept in text: 1, 1L, 1S, 1Y
  kDecimal,       // 1.5, .5, 1.5BD: exact numeric with a fraction (DECIMAL)
  kDouble,        // 1e3, 1.5D, 1.5E-2: approximate (DOUBLE); suffix F means FLOAT
  kString,        // text is the unescaped value
  kDate,          // DATE 'yyyy-mm-dd'; text is the quoted value
  kTimestamp,     // TIMESTAMP '...'; text is the quoted value
  kTimestampNtz,  // TIMESTAMP_NTZ '...'
  kBinary,        // X'0A1B'; text is the hex digits
};

enum class ExprKind {
  kColumn,    // name_parts: a, t.a, db.t.a
  kStar,      // name_parts: the qualifier (empty for a bare *)
  kLiteral,   // literal_kind, text
  kUnary,     // op: "-", "+", "NOT", "~"; children[0]
  kBinary,    // op: + - * / % || = == <> != < <= > >= <=> AND OR & | ^ DIV; children[0..1]
  kFunction,  // name_parts: the function name; children: arguments; distinct; star (count(*));
              // also filter, window, ignore_nulls, within_group; and the carrier of scalar and
              // EXISTS subqueries and of INTERVAL literals (see the top of this file)
  kCast,      // children[0], type; try_cast sets is_try; also `children[0]::type`
  kCase,      // children: [operand?] then WHEN/THEN pairs then [ELSE]; see has_operand/has_else
  kIn,        // children[0] IN (children[1..]); negated for NOT IN; with subquery_kind kIn,
              // children[0] IN (subquery)
  kBetween,   // children[0] BETWEEN children[1] AND children[2]; negated
  kLike,      // children[0] LIKE children[1] [ESCAPE text]; op: "LIKE", "ILIKE", "RLIKE"; negated
  kIsNull,    // children[0] IS [NOT] NULL; negated for IS NOT NULL
  kIsBool,    // children[0] IS [NOT] TRUE/FALSE; text "true"/"false"; negated
  kLambda,    // name_parts: the parameters; children[0]: the body (`x -> x + 1`,
              // `(acc, x) -> acc + x`), only as an argument of a higher-order function
};

/// \brief Which subquery expression a node is (Expr::subquery_kind).
enum class SubqueryKind {
  kNone,    // not a subquery expression
  kScalar,  // (query): the one value of a one-column query; kFunction `scalar_subquery`
  kExists,  // EXISTS (query); NOT EXISTS is a NOT kUnary above it; kFunction `exists`
  kIn,      // children[0] [NOT] IN (query); a kIn node with no list
};

/// \brief One `value unit` pair of an INTERVAL literal.
struct IntervalPart {
  /// The value as written, with a leading sign applied as Spark does (`-'-1'` is "1"): a string
  /// literal's content ("1-2", "10 11:12:13") or a number's text ("3", "-1.5").
  std::string value;
  /// Upper case and singular: YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND or
  /// MICROSECOND. Empty for INTERVAL 'text', whose string spells its own units ('1 day 2 hours').
  std::string unit;
};

/// \brief An INTERVAL literal, in one of Spark's three forms:
///   INTERVAL 'text'                    one part with an empty unit
///   INTERVAL value unit [value unit]*  one part per pair; units are all year-month (YEAR,
///                                      MONTH) or all day-time (the others), and string values
///                                      hold no letters, as the parser checks
///   INTERVAL 'value' unit TO unit      one part (its unit the start field) and to_unit; the
///                                      pair is YEAR TO MONTH or DAY|HOUR|MINUTE TO a smaller
///                                      one of HOUR, MINUTE, SECOND
struct IntervalLiteral {
  std::vector<IntervalPart> parts;
  /// The end field of the unit-to-unit form ("MONTH" in INTERVAL '1-2' YEAR TO MONTH); empty
  /// in the other forms.
  std::string to_unit;
};

/// \brief An expression node. Which fields are meaningful depends on kind (see ExprKind) and,
/// for the forms listed at the top of this file, on subquery_kind and interval.
struct Expr {
  ExprKind kind;
  SourcePosition pos;
  std::vector<std::string> name_parts;
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  std::string op;
  std::vector<std::unique_ptr<Expr>> children;
  TypeName type;
  bool negated = false;
  bool distinct = false;
  bool is_try = false;
  bool has_operand = false;
  bool has_else = false;
  bool star = false;
  /// The source text of this expression, used to name unaliased output columns as Spark does.
  std::string source_text;

  /// kFunction: the condition of `FILTER (WHERE condition)` after an aggregate call; null when
  /// absent.
  std::unique_ptr<Expr> filter;
  /// kFunction: the window of `OVER window`; null for a call that is not a window function.
  std::unique_ptr<WindowSpec> window;
  /// kFunction: IGNORE NULLS (true) or RESPECT NULLS (false) written after the call; unset when
  /// neither is.
  std::optional<bool> ignore_nulls;
  /// kFunction: the sort of `WITHIN GROUP (ORDER BY ...)` (percentile_cont, mode, ...); empty
  /// when absent.
  std::vector<OrderItem> within_group;
  /// Which subquery expression this is; kNone for every other node.
  SubqueryKind subquery_kind = SubqueryKind::kNone;
  /// The query of a subquery expression; null unless subquery_kind != kNone.
  std::unique_ptr<SelectStatement> subquery;
  /// Set exactly on INTERVAL literals.
  std::optional<IntervalLiteral> interval;
  /// kFunction: the parameter each argument is passed to by name (`name => value`), one per
  /// child, empty for a positional one; empty when no argument is named.
  std::vector<std::string> argument_names;
};

using ExprPtr = std::unique_ptr<Expr>;

/// \brief A possibly multi-part name as written, with its position.
struct QualifiedName {
  std::vector<std::string> parts;
  SourcePosition pos;
};

/// \brief A plain named table of the FROM clause: SelectStatement::from.
struct TableRef {
  QualifiedName name;
  std::string alias;
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // empty when none
};

struct OrderItem {
  ExprPtr expr;
  bool ascending = true;
  /// Unset means Spark's default: NULLS FIRST for ASC, NULLS LAST for DESC.
  std::optional<bool> nulls_first;
};

// ---- Windows ----

enum class FrameType { kRows, kRange };

enum class FrameBoundType {
  kUnboundedPreceding,
  kPreceding,  // offset PRECEDING
  kCurrentRow,
  kFollowing,  // offset FOLLOWING
  kUnboundedFollowing,
};

/// \brief One end of a window frame.
struct FrameBound {
  FrameBoundType type = FrameBoundType::kCurrentRow;
  /// kPreceding and kFollowing: the distance as written (a number, an INTERVAL, ...).
  ExprPtr offset;
};

/// \brief ROWS|RANGE BETWEEN start AND end, or ROWS|RANGE start, which Spark reads as
/// BETWEEN start AND CURRENT ROW (and so does the parser: `end` is then kCurrentRow).
struct WindowFrame {
  SourcePosition pos;  // of ROWS or RANGE
  FrameType type = FrameType::kRows;
  FrameBound start;
  FrameBound end;
};

/// \brief A window: OVER w, OVER (w), or OVER ([PARTITION BY ...] [ORDER BY ...] [frame]), and
/// the same after `WINDOW name AS`. DISTRIBUTE BY and SORT BY are read as PARTITION BY and
/// ORDER BY.
struct WindowSpec {
  SourcePosition pos;
  /// A reference to a window of the WINDOW clause; when set, nothing else is.
  std::string name;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  std::optional<WindowFrame> frame;
};

/// \brief `name AS spec` in the WINDOW clause.
struct NamedWindow {
  SourcePosition pos;
  std::string name;
  WindowSpec spec;
};

// ---- GROUP BY ----

enum class GroupingKind {
  kExpression,    // a plain grouping expression: expr
  kSet,           // a grouping set inside the analytics forms: items, ( ) for the empty set
  kRollup,        // ROLLUP(set, ...): children are kSet
  kCube,          // CUBE(set, ...): children are kSet
  kGroupingSets,  // GROUPING SETS(element, ...): children are kSet, kRollup, kCube or
                  // kGroupingSets. In the Hive form `GROUP BY a, b GROUPING SETS (...)`, items
                  // holds a, b: grouping columns that are null in every set that lacks them.
};

/// \brief One element of GROUP BY. `GROUP BY a, b WITH ROLLUP` is read as Spark reads it, as
/// the single element ROLLUP(a, b) (and WITH CUBE as CUBE(a, b)).
struct GroupingElement {
  GroupingKind kind = GroupingKind::kExpression;
  SourcePosition pos;
  ExprPtr expr;                           // kExpression
  std::vector<ExprPtr> items;             // kSet; kGroupingSets in the Hive form
  std::vector<GroupingElement> children;  // kRollup, kCube, kGroupingSets
};

/// \brief GROUP BY ALL, or GROUP BY element, ... Ordinals (GROUP BY 1) are integer literals.
struct GroupByClause {
  SourcePosition pos;  // of GROUP
  bool all = false;    // GROUP BY ALL: group by every select item without an aggregate
  std::vector<GroupingElement> elements;
};

// ---- FROM ----

enum class FromItemKind {
  kTable,          // name [TABLESAMPLE (...)] [alias]; path tables are names: parquet.`/p`
  kTableFunction,  // name(arguments) [alias]: a table-valued function such as range(10)
  kSubquery,       // [LATERAL] (query) [alias], and VALUES ... [alias] (a kValues subquery)
  kJoin,           // left [NATURAL] join_type JOIN [LATERAL] right [ON ... | USING (...)]
  kLateralView,    // left LATERAL VIEW [OUTER] generator(...) view_alias [AS] view_columns
};

/// \brief The join types of Spark's grammar. `a, b` in a FROM list is a kCross join.
enum class JoinType { kInner, kCross, kLeftOuter, kRightOuter, kFullOuter, kLeftSemi, kLeftAnti };

enum class SampleMethod {
  kPercent,  // TABLESAMPLE (percent PERCENT)
  kRows,     // TABLESAMPLE (rows ROWS)
  kBucket,   // TABLESAMPLE (BUCKET numerator OUT OF denominator)
};

/// \brief TABLESAMPLE (...) [REPEATABLE (seed)] after a table or subquery. Values are as
/// written; the analyzer checks their ranges.
struct TableSample {
  SourcePosition pos;  // of TABLESAMPLE
  SampleMethod method = SampleMethod::kPercent;
  double percent = 0;       // kPercent
  ExprPtr rows;             // kRows
  int64_t numerator = 0;    // kBucket
  int64_t denominator = 0;  // kBucket
  std::optional<int64_t> seed;
};

/// \brief One bound of a CHANGES clause: { VERSION | SYSTEM_VERSION } value, or
/// TIMESTAMP 'text', each optionally INCLUSIVE or EXCLUSIVE.
struct ChangesBound {
  SourcePosition pos;  // of VERSION, SYSTEM_VERSION or TIMESTAMP
  bool timestamp = false;
  /// The version as written (digits, or the text of a string literal), or the timestamp text.
  std::string value;
  /// INCLUSIVE (true) or EXCLUSIVE (false) when written.
  std::optional<bool> inclusive;
};

/// \brief `CHANGES FROM bound [TO bound] [WITH (key = 'value', ...)]` after a table name: a
/// change read of the table.
struct ChangesClause {
  SourcePosition pos;  // of CHANGES
  ChangesBound from;
  std::optional<ChangesBound> to;
  /// The WITH options in written order; keys as written (quoted keys unquoted).
  std::vector<std::pair<std::string, std::string>> options;
};

/// \brief `[FOR] {VERSION | SYSTEM_VERSION} AS OF v` or `[FOR] {TIMESTAMP | SYSTEM_TIME} AS OF
/// ts` after a table name: which version of the table to read.
struct TimeTravel {
  SourcePosition pos;
  bool by_version = true;
  /// The version (an integer or string literal) or the timestamp expression.
  std::unique_ptr<Expr> value;
};

/// \brief An item of the FROM clause: a table, table function, subquery or join. Which fields
/// are meaningful depends on kind.
struct FromItem {
  FromItemKind kind = FromItemKind::kTable;
  /// The item's first token (for a join, its left item's first token).
  SourcePosition pos;
  QualifiedName name;                         // kTable, kTableFunction
  std::vector<ExprPtr> arguments;             // kTableFunction
  std::vector<std::string> argument_names;    // kTableFunction, as Expr::argument_names
  std::unique_ptr<SelectStatement> subquery;  // kSubquery
  /// kSubquery: LATERAL, so the subquery may refer to items to its left.
  bool lateral = false;
  std::optional<TableSample> sample;       // kTable, kSubquery, a parenthesised kJoin
  std::optional<TimeTravel> time_travel;   // kTable
  std::optional<ChangesClause> changes;    // kTable: name CHANGES FROM ...
  JoinType join_type = JoinType::kInner;   // kJoin
  bool natural = false;                    // kJoin
  std::unique_ptr<FromItem> left;          // kJoin
  std::unique_ptr<FromItem> right;         // kJoin
  ExprPtr condition;                       // kJoin: ON condition; null when none
  std::vector<std::string> using_columns;  // kJoin: USING (columns); empty when none
  /// kLateralView: the generator call (arguments[0]), OUTER, the view's name and columns.
  bool outer = false;
  std::string view_alias;
  std::vector<std::string> view_columns;
  /// [AS] alias [(column, ...)]: on any kind, but on a kJoin only when it was parenthesised.
  std::string alias;
  std::vector<std::string> column_aliases;
};

// ---- Query shapes ----

/// \brief The body of a SelectStatement.
enum class QueryKind {
  kSelect,        // SELECT ...: distinct, items, from/from_item, where, group_by, having, windows
  kSetOperation,  // set_operation
  kValues,        // values
  kNested,        // nested: a parenthesised query that already had its own WITH, ORDER BY, LIMIT
                  // or OFFSET, to which this node adds more
};

enum class SetOperator { kUnion, kIntersect, kExcept };  // MINUS is kExcept

/// \brief left UNION|INTERSECT|EXCEPT [ALL|DISTINCT] right. INTERSECT binds tighter than UNION
/// and EXCEPT, and each is left-associative, as in Spark: a UNION b INTERSECT c EXCEPT d is
/// (a UNION (b INTERSECT c)) EXCEPT d.
struct SetOperation {
  SourcePosition pos;  // of the operator keyword
  SetOperator op = SetOperator::kUnion;
  bool all = false;  // ALL; false for DISTINCT, written or not
  std::unique_ptr<SelectStatement> left;
  std::unique_ptr<SelectStatement> right;
};

/// \brief VALUES row, ... [[AS] alias [(column, ...)]]: an inline table. A row written in
/// parentheses, (1, 'a'), has one value per column; any other expression is a one-column row.
struct InlineTable {
  SourcePosition pos;  // of VALUES
  std::vector<std::vector<ExprPtr>> rows;
  /// The alias written after the rows of a VALUES query. In FROM, the alias belongs to the
  /// FromItem instead and these stay empty.
  std::string alias;
  std::vector<std::string> column_aliases;
};

/// \brief One `name [(columns)] [AS] (query)` of a WITH clause.
struct CommonTableExpr {
  SourcePosition pos;  // of the name
  std::string name;
  std::vector<std::string> column_aliases;
  std::unique_ptr<SelectStatement> query;
};

/// \brief A query. The original fields describe SELECT [DISTINCT] items [FROM t] [WHERE e]
/// [ORDER BY ...] [LIMIT n] [OFFSET m]; the fields after them add the rest of Spark's query
/// grammar (see the top of this file). pos is where the query starts: its WITH, SELECT or
/// VALUES; a set operation's left side's; for a query written in parentheses, the query inside
/// them, or the '(' when it became the `nested` of a kNested query.
struct SelectStatement {
  SourcePosition pos;
  bool distinct = false;
  std::vector<SelectItem> items;
  /// Set when the FROM clause is exactly one named table with no TABLESAMPLE and no column
  /// aliases; from_item then describes the same table.
  std::optional<TableRef> from;
  ExprPtr where;
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;

  /// What the body is; the fields of the other kinds are empty.
  QueryKind kind = QueryKind::kSelect;
  /// WITH name AS (query), ...: visible in the body and in the queries nested in it.
  std::vector<CommonTableExpr> with;
  /// kSelect: the whole FROM clause, set whenever there is one. Comma-separated items are
  /// left-deep kCross joins.
  std::unique_ptr<FromItem> from_item;
  std::optional<GroupByClause> group_by;        // kSelect
  ExprPtr having;                               // kSelect
  std::vector<NamedWindow> windows;             // kSelect: the WINDOW clause
  std::unique_ptr<SetOperation> set_operation;  // kSetOperation
  InlineTable values;                           // kValues
  std::unique_ptr<SelectStatement> nested;      // kNested
};

/// \brief Whether `select` uses only what a SelectStatement could express before the full query
/// grammar: kind kSelect; no WITH; no FROM or a plain table (`from` is then set); no GROUP BY,
/// HAVING or WINDOW; and nowhere a subquery, INTERVAL literal, window, FILTER, IGNORE|RESPECT
/// NULLS or WITHIN GROUP. Code that binds only those forms can reject the rest with it.
bool IsBasicSelect(const SelectStatement& select);

/// \brief SHOW CATALOGS [[LIKE] 'pattern'].
struct ShowCatalogs {
  std::optional<std::string> pattern;
};

/// \brief SHOW NAMESPACES|DATABASES|SCHEMAS [FROM|IN name] [[LIKE] 'pattern'].
struct ShowNamespaces {
  std::optional<QualifiedName> parent;
  std::optional<std::string> pattern;
};

/// \brief SHOW TABLES [FROM|IN name] [[LIKE] 'pattern'], and SHOW VIEWS (`views`) with the same
/// clauses.
struct ShowTables {
  std::optional<QualifiedName> namespace_name;
  std::optional<std::string> pattern;
  bool views = false;
};

/// \brief DESCRIBE|DESC [TABLE] [EXTENDED] name.
struct DescribeTable {
  QualifiedName table;
  bool extended = false;
};

/// \brief One argument of CALL: positional, or `name => value`.
struct CallArgument {
  std::optional<std::string> name;
  ExprPtr value;
};

/// \brief CALL name(args): run a catalog's procedure (parley/connector/procedure.h).
///
/// Delta's commands are the same call written another way: DESCRIBE HISTORY t [LIMIT n],
/// DESCRIBE DETAIL t and VACUUM t [RETAIN n HOURS] [DRY RUN] call `system.describe_history`,
/// `system.describe_detail` and `system.vacuum` of t's catalog with `table => 't'` and their
/// clauses as named arguments. For those, `table` holds t and `command` the statement's name.
struct Call {
  QualifiedName procedure;
  std::vector<CallArgument> args;
  std::optional<QualifiedName> table;
  std::string command;
};

/// \brief SHOW PROCEDURES [FROM|IN namespace].
struct ShowProcedures {
  std::optional<QualifiedName> namespace_name;
};

/// \brief SHOW [USER|SYSTEM|ALL] FUNCTIONS [(FROM|IN) ns] [[LIKE] 'pattern'].
struct ShowFunctions {
  enum class Scope { kUser, kSystem, kAll };
  Scope scope = Scope::kAll;
  std::optional<QualifiedName> namespace_name;
  std::optional<std::string> pattern;
};

/// \brief DESCRIBE|DESC FUNCTION [EXTENDED] name.
struct DescribeFunction {
  QualifiedName function;
  bool extended = false;
};

/// \brief DESCRIBE|DESC PROCEDURE name.
struct DescribeProcedure {
  QualifiedName procedure;
};

/// \brief USE [NAMESPACE|DATABASE] name.
struct Use {
  QualifiedName name;
};

/// \brief SET (list all), SET -v, SET key (show one), SET key=value (raw text, trimmed).
struct SetConfig {
  std::optional<std::string> key;
  std::optional<std::string> value;
  bool verbose = false;
};

/// \brief RESET (all) or RESET key.
struct ResetConfig {
  std::optional<std::string> key;
};

}  // namespace parley::sql

// The DDL and data-changing statements, which use the declarations above.
#include "sql/ast_write.h"

namespace parley::sql {

struct Statement;

/// kAnalyze runs the query and prints the formatted plan with what each operator measured.
enum class ExplainMode { kSimple, kExtended, kFormatted, kCodegen, kCost, kAnalyze };

/// \brief EXPLAIN [EXTENDED|FORMATTED|CODEGEN|COST|ANALYZE] statement.
struct Explain {
  ExplainMode mode = ExplainMode::kSimple;
  std::unique_ptr<Statement> statement;
};

/// \brief One parsed statement. Every query, whatever its shape, is a SelectStatement.
struct Statement {
  SourcePosition pos;
  std::variant<SelectStatement, ShowCatalogs, ShowNamespaces, ShowTables, DescribeTable, Use,
               SetConfig, ResetConfig, Explain, CreateTable, DropTable, AlterTable, CreateNamespace,
               DropNamespace, AlterNamespace, ShowCreateTable, ShowTblProperties, Insert,
               TruncateTable, DescribeNamespace, Call, ShowProcedures, DescribeProcedure,
               ShowFunctions, DescribeFunction, CreateView, AlterView, DropView, DeleteFrom, Update,
               Merge, CreateFunction, DropFunction>
      node;
};

}  // namespace parley::sql
