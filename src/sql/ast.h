// The syntax tree the parser produces for Spark SQL text.
//
// The tree is purely syntactic: names are unresolved lists of parts, literals keep their source
// text and lexical kind, and types are names with parameters. The analyzer gives them meaning.
// Every node records the position of its first token so that analysis errors can point at it.
// Nodes are move-only values owned by their parent.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parley/session.h"

namespace parley::sql {

using parley::SourcePosition;

/// \brief A SQL type as written: DECIMAL(10, 2) is {"DECIMAL", {10, 2}}; names upper-cased.
struct TypeName {
  std::string name;
  std::vector<int> parameters;
};

/// \brief How a literal was written; the analyzer assigns Spark's type from it. For the numeric
/// kinds, a minus sign written just before the number belongs to the literal, as in Spark's
/// `number` rule: `-1` is a kInteger with text "-1", not a negation.
enum class LiteralKind {
  kNull,
  kBoolean,    // text is "true" or "false"
  kInteger,    // digits, with an optional suffix kept in text: 1, 1L, 1S, 1Y
  kDecimal,    // 1.5, .5, 1.5BD: exact numeric with a fraction (DECIMAL)
  kDouble,     // 1e3, 1.5D, 1.5E-2: approximate (DOUBLE); suffix F means FLOAT
  kString,     // text is the unescaped value
  kDate,       // DATE 'yyyy-mm-dd'; text is the quoted value
  kTimestamp,  // TIMESTAMP '...'; text is the quoted value
  kTimestampNtz,  // TIMESTAMP_NTZ '...'
  kBinary,     // X'0A1B'; text is the hex digits
};

enum class ExprKind {
  kColumn,    // name_parts: a, t.a, db.t.a
  kStar,      // name_parts: the qualifier (empty for a bare *)
  kLiteral,   // literal_kind, text
  kUnary,     // op: "-", "+", "NOT", "~"; children[0]
  kBinary,    // op: + - * / % || = == <> != < <= > >= <=> AND OR & | ^ DIV; children[0..1]
  kFunction,  // name_parts: the function name; children: arguments; distinct; star (count(*))
  kCast,      // children[0], type; try_cast sets is_try
  kCase,      // children: [operand?] then WHEN/THEN pairs then [ELSE]; see has_operand/has_else
  kIn,        // children[0] IN (children[1..]); negated for NOT IN
  kBetween,   // children[0] BETWEEN children[1] AND children[2]; negated
  kLike,      // children[0] LIKE children[1] [ESCAPE text]; op: "LIKE", "ILIKE", "RLIKE"; negated
  kIsNull,    // children[0] IS [NOT] NULL; negated for IS NOT NULL
  kIsBool,    // children[0] IS [NOT] TRUE/FALSE; text "true"/"false"; negated
};

/// \brief An expression node. Which fields are meaningful depends on kind (see ExprKind).
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
};

using ExprPtr = std::unique_ptr<Expr>;

/// \brief A possibly multi-part name as written, with its position.
struct QualifiedName {
  std::vector<std::string> parts;
  SourcePosition pos;
};

/// \brief An item of the FROM clause. Today a named table; joins and subqueries come later.
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

/// \brief SELECT [DISTINCT] items [FROM t] [WHERE e] [ORDER BY ...] [LIMIT n] [OFFSET m].
struct SelectStatement {
  SourcePosition pos;
  bool distinct = false;
  std::vector<SelectItem> items;
  std::optional<TableRef> from;
  ExprPtr where;
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
};

/// \brief SHOW CATALOGS [[LIKE] 'pattern'].
struct ShowCatalogs {
  std::optional<std::string> pattern;
};

/// \brief SHOW NAMESPACES|DATABASES|SCHEMAS [FROM|IN name] [[LIKE] 'pattern'].
struct ShowNamespaces {
  std::optional<QualifiedName> parent;
  std::optional<std::string> pattern;
};

/// \brief SHOW TABLES [FROM|IN name] [[LIKE] 'pattern'].
struct ShowTables {
  std::optional<QualifiedName> namespace_name;
  std::optional<std::string> pattern;
};

/// \brief DESCRIBE|DESC [TABLE] [EXTENDED] name.
struct DescribeTable {
  QualifiedName table;
  bool extended = false;
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

struct Statement;

enum class ExplainMode { kSimple, kExtended, kFormatted, kCodegen, kCost };

/// \brief EXPLAIN [EXTENDED|FORMATTED|CODEGEN|COST] statement.
struct Explain {
  ExplainMode mode = ExplainMode::kSimple;
  std::unique_ptr<Statement> statement;
};

/// \brief One parsed statement.
struct Statement {
  SourcePosition pos;
  std::variant<SelectStatement, ShowCatalogs, ShowNamespaces, ShowTables, DescribeTable, Use,
               SetConfig, ResetConfig, Explain>
      node;
};

}  // namespace parley::sql
