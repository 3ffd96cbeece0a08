// The recursive-descent parser's state and grammar productions, shared by parser.cc (tokens,
// names and statements), parser_query.cc (queries, GROUP BY, windows), parser_from.cc (the FROM
// clause), parser_expression.cc (expressions and types), parser_ddl.cc (table and namespace DDL),
// parser_insert.cc (INSERT, TRUNCATE and partition specs) and parser_call.cc (CALL and the
// commands that stand for calls). Not installed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "sql/ast.h"
#include "sql/lexer.h"

namespace parley::sql::internal {

/// \brief Whether an unquoted `word` can never be an identifier: clause and operator keywords
/// whose use as a name would make the grammar ambiguous. Such names must be backquoted, except
/// after a '.' in a qualified name and as a function name followed by '('.
bool IsReservedWord(std::string_view word);

/// \brief Whether an unquoted `word` may follow a select item or a FROM item as the start of a
/// clause (SORT BY, TABLESAMPLE, ANTI JOIN, ...), so that it is not read as an alias.
bool IsClauseWord(std::string_view word);

/// \brief `s` with ASCII letters upper-cased.
std::string UpperCase(std::string_view s);

/// \brief Parses one text. Productions consume tokens on success; on failure the parser's state
/// is unspecified and it must be discarded.
class Parser {
 public:
  Parser(std::string_view text, SourcePosition origin);

  /// \brief statement ';'* <end>
  Result<Statement> ParseSingleStatement();
  /// \brief expression <end>
  Result<ExprPtr> ParseSingleExpression();
  // A qualified name that makes up the whole text.
  Result<QualifiedName> ParseSingleQualifiedName();
  // A type (or a column list `a INT, b STRING`, as a STRUCT) that makes up the whole text.
  Result<TypeName> ParseSingleSchema();

 private:
  // Where a construct starts: for its node's position and source text.
  struct Mark {
    size_t begin;
    SourcePosition pos;
  };

  // ---- Tokens (parser.cc) ----
  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool PeekWord(std::string_view keyword, size_t ahead = 0) const;
  bool PeekOperator(std::string_view op, size_t ahead = 0) const;
  bool AcceptWord(std::string_view keyword);
  bool AcceptOperator(std::string_view op);
  Status ExpectWord(std::string_view keyword);
  Status ExpectOperator(std::string_view op);
  // Whether the token `ahead` ends the statement (end of input or ';').
  bool AtStatementEnd(size_t ahead = 0) const;
  // The error for the current token.
  Status Unexpected() const;
  Mark Here() const;
  // The source text from `start` to the end of the last consumed token.
  std::string_view SourceFrom(const Mark& start) const;
  // Set `expr`'s position and source text to span from `start` to the last consumed token.
  ExprPtr Close(ExprPtr expr, const Mark& start) const;

  // ---- Names (parser.cc) ----
  // Whether `token` can be an identifier; reserved words only when `allow_reserved`.
  static bool IsIdentifier(const Token& token, bool allow_reserved);
  Result<std::string> ParseIdentifier();
  Result<QualifiedName> ParseQualifiedName();
  // An alias after an expression or table: `AS name`, or a bare name that is not a keyword
  // that could start the next clause. Returns an empty string when there is none.
  Result<std::string> ParseOptionalAlias();

  // ---- Statements (parser.cc) ----
  Result<Statement> ParseStatement();
  Result<Statement> ParseShow(const Mark& start);
  Result<std::optional<std::string>> ParseOptionalPattern();
  Result<Statement> ParseDescribe(const Mark& start);
  Result<Statement> ParseUse(const Mark& start);
  Result<Statement> ParseSet(const Mark& start);
  Result<Statement> ParseReset(const Mark& start);
  Result<Statement> ParseExplain(const Mark& start);
  // The raw text after the keyword just consumed up to the statement's end (trailing ';'s
  // excluded), trimmed; consumes all those tokens. `first` is set to its first token.
  Result<std::string_view> TakeRawRemainder(Token* first);
  // Validate and unquote a SET/RESET key written at `at`.
  Result<std::string> ConfigKey(std::string_view raw, const Token& at) const;

  // ---- Procedures (parser_call.cc) ----
  // CALL name([name =>] expr, ...), after CALL.
  Result<Statement> ParseCall(const Mark& start);
  // SHOW PROCEDURES [FROM|IN name], after PROCEDURES.
  Result<Statement> ParseShowProcedures(const Mark& start);
  // DESCRIBE PROCEDURE name, after PROCEDURE.
  Result<Statement> ParseDescribeProcedure(const Mark& start);
  // The calls Delta's commands stand for: DESCRIBE HISTORY name [LIMIT n] after HISTORY,
  // DESCRIBE DETAIL name after DETAIL, VACUUM name [RETAIN n HOURS] [DRY RUN] after VACUUM.
  Result<Statement> ParseDescribeHistory(const Mark& start);
  Result<Statement> ParseDescribeDetail(const Mark& start);
  Result<Statement> ParseVacuum(const Mark& start);

  // ---- Table and namespace DDL (parser_ddl.cc) ----
  // Whether a property list must give every key a value (TBLPROPERTIES, OPTIONS, namespace
  // properties) or must give none (UNSET TBLPROPERTIES).
  enum class PropertyValues { kRequired, kForbidden };
  // CREATE ...: a table (also OR REPLACE, TEMPORARY, EXTERNAL) or a namespace. Consumes
  // CREATE itself, which Spark's errors about the whole statement point at.
  Result<Statement> ParseCreate(const Mark& start);
  // Whether [GLOBAL] TEMPORARY VIEW or VIEW comes next.
  bool PeekViewStart() const;
  // The rest of CREATE [OR REPLACE] after OR REPLACE or CREATE: [[GLOBAL] TEMPORARY] VIEW ...
  Result<Statement> ParseCreateView(const Mark& start, bool replace);
  // One argument of a call, `[name =>] expression`, appended to `arguments`; its name (empty
  // for a positional one) to `names`, which is filled with empty names once any is given.
  Status ParseCallArgument(std::vector<ExprPtr>* arguments, std::vector<std::string>* names);
  /// A call argument: a lambda (`x -> body`, `(x, y) -> body`) or an expression.
  Result<ExprPtr> ParseLambdaOrExpression();
  // Whether [TEMPORARY] FUNCTION comes next.
  bool PeekFunctionStart() const {
    return PeekWord("FUNCTION") || (PeekWord("TEMPORARY") && PeekWord("FUNCTION", 1));
  }
  // The rest of CREATE [OR REPLACE] after OR REPLACE or CREATE: [TEMPORARY] FUNCTION ...
  // (parser_function.cc).
  Result<Statement> ParseCreateFunction(const Mark& start, bool replace);
  // The rest of DROP after DROP: [TEMPORARY] FUNCTION [IF EXISTS] name.
  Result<Statement> ParseDropFunction(const Mark& start);
  // REPLACE TABLE ..., consuming REPLACE.
  Result<Statement> ParseReplaceTable(const Mark& start);
  // The rest of CREATE|REPLACE TABLE after TABLE [IF NOT EXISTS], completing `table`, whose
  // header flags are set. `first` is the statement's first token. CREATE TEMPORARY TABLE
  // (`temporary`) is rejected once the whole statement has parsed, as Spark does after its
  // syntax checks, and so is a CTAS with a schema.
  Result<Statement> ParseCreateTable(const Mark& start, const Token& first, CreateTable table,
                                     bool temporary);
  // The clauses after a CREATE TABLE column list, in any order, each at most once.
  Status ParseCreateTableClauses(CreateTable* table);
  // PARTITIONED BY's '(' item, ... ')' after BY.
  Status ParsePartitioning(CreateTable* table);
  // A partition transform `name(argument, ...)`, whose arguments are columns or constants.
  Result<ExprPtr> ParseTransform();
  // Whether a constant starts here, and the constant of a partition spec or transform: a
  // literal, a signed number or an INTERVAL.
  bool PeekConstant() const;
  Result<ExprPtr> ParseConstant();
  // `name type` then NOT NULL, DEFAULT expr and COMMENT 'text' in any order, each at most once;
  // with `in_alter` (ALTER TABLE ADD COLUMN) the name may be nested (`a.b`) and FIRST or
  // AFTER column may be among them.
  Result<ColumnDefinition> ParseColumnDefinition(bool in_alter);
  // column definition, ...
  Result<std::vector<ColumnDefinition>> ParseColumnDefinitions(bool in_alter);
  // DEFAULT's expression, with its source text, after DEFAULT.
  Status ParseDefault(ExprPtr* value, std::string* text);
  // CREATE NAMESPACE|SCHEMA|DATABASE after the keyword.
  Result<Statement> ParseCreateNamespace(const Mark& start);
  // DROP TABLE or DROP NAMESPACE|SCHEMA|DATABASE, after DROP.
  Result<Statement> ParseDrop(const Mark& start);
  // ALTER TABLE or ALTER NAMESPACE|SCHEMA|DATABASE, after ALTER.
  Result<Statement> ParseAlter(const Mark& start);
  // The action of ALTER TABLE, after the table's name.
  Status ParseAlterTableAction(AlterTable* alter);
  Result<Statement> ParseAlterView(const Mark& start);
  // The action of ALTER TABLE t ALTER|CHANGE [COLUMN] c, after the column's name.
  Status ParseAlterColumnAction(AlterColumnChange* change);
  // SHOW CREATE TABLE after CREATE, and SHOW TBLPROPERTIES after TBLPROPERTIES.
  Result<Statement> ParseShowCreateTable(const Mark& start);
  Result<Statement> ParseShowTblProperties(const Mark& start);
  // '(' key [=] [value], ... ')' with Spark's checks on values per `values` and on duplicate
  // keys.
  Result<PropertyList> ParsePropertyList(PropertyValues values);
  // A property key: a string literal or a dotted identifier, unquoted.
  Result<std::string> ParsePropertyKey();
  // A string literal's value.
  Result<std::string> ParseStringLiteral();
  // IF EXISTS and IF NOT EXISTS, consumed only when all their words are there.
  bool AcceptIfExists();
  bool AcceptIfNotExists();
  // The DUPLICATE_CLAUSES error for the clause `name` written again at `keyword`, when `seen`.
  Status CheckNotSeen(bool seen, const Token& keyword, std::string_view name) const;
  // Spark's DUPLICATE_KEY error for a property or partition `key` written again at `at`.
  Status DuplicateKeyError(std::string_view key, const Token& at) const;

  // ---- INSERT and TRUNCATE (parser_insert.cc) ----
  // INSERT INTO|OVERWRITE ..., after INSERT.
  Result<Statement> ParseInsert(const Mark& start);
  // TRUNCATE TABLE ..., after TRUNCATE.
  Result<Statement> ParseTruncate(const Mark& start);
  // PARTITION '(' column [= constant], ... ')', after PARTITION.
  Result<std::vector<PartitionSpecItem>> ParsePartitionSpec();

  // ---- DELETE, UPDATE and MERGE (parser_dml.cc) ----
  // DELETE FROM ..., after DELETE.
  Result<Statement> ParseDelete(const Mark& start);
  // UPDATE ..., after UPDATE.
  Result<Statement> ParseUpdate(const Mark& start);
  // MERGE INTO ..., after MERGE.
  Result<Statement> ParseMerge(const Mark& start);
  // column = expression, ... (after SET).
  Result<std::vector<Assignment>> ParseAssignments();
  // One WHEN [NOT] MATCHED ... THEN action clause, after WHEN.
  Result<MergeClause> ParseMergeClause(const Token& when);

  // ---- Nesting depth (parser.cc) ----
  // How deep the statement may nest: each parenthesised expression, query or relation counts
  // kNestingWeight, every operator folded into a chain (a + b + ..., joins, UNION, ::casts) and
  // every prefix operator counts 1. The limit keeps this parser and every later recursive pass
  // over the tree within the stack; past it a statement is FAILED_TO_PARSE_TOO_COMPLEX, as Spark
  // reports when its parser runs out of stack (Spark accepts 300 nested parentheses and 700
  // chained operators, not 400 and 1000; so does this limit).
  static constexpr int kMaxNestingDepth = 1000;
  static constexpr int kNestingWeight = 3;
  // Adds `weight` to the parser's nesting depth for as long as it lives.
  class Nesting {
   public:
    Nesting(Parser* parser, int weight) : parser_(parser), weight_(weight) {
      parser_->depth_ += weight_;
    }
    ~Nesting() { parser_->depth_ -= weight_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    // One more level for as long as this lives (an operator folded into a chain).
    void Deepen() {
      ++weight_;
      ++parser_->depth_;
    }

   private:
    Parser* parser_;
    int weight_;
  };
  // FAILED_TO_PARSE_TOO_COMPLEX once the depth is past the limit; the failure is sticky, so
  // that speculation (ParseEither) does not retry the alternatives of every enclosing level.
  Status CheckNesting();

  // ---- Speculation and errors (ErrorAt is in parser.cc) ----
  // Where the parser is; restoring it rewinds to there.
  struct State {
    size_t index;
    size_t consumed_end;
  };
  State Save() const { return State{index_, consumed_end_}; }
  void Restore(const State& state) {
    index_ = state.index;
    consumed_end_ = state.consumed_end;
  }
  // Parse with `first`; when that fails, rewind and parse with `second`. When both fail, report
  // the error of whichever got further into the text (`first` on a tie), leaving the parser
  // where that one stopped so that an enclosing ParseEither can compare in turn. Used where
  // Spark's grammar needs more than a few tokens of lookahead, such as `((SELECT 1) + 1)`
  // against `((SELECT 1) UNION (SELECT 2))`.
  //
  // A choice that failed at a position fails there again without parsing (RememberFailure).
  template <typename T, typename First, typename Second>
  Result<T> ParseEither(First first, Second second) {
    return RememberFailure<T, First>([&]() -> Result<T> {
      State start = Save();
      Result<T> result = first();
      if (result.ok() || too_complex_) return result;
      State first_end = Save();
      Restore(start);
      Result<T> other = second();
      if (other.ok() || index_ > first_end.index) return other;
      Restore(first_end);
      return result;
    });
  }
  // Run `parse`, a production identified by `Production` that depends only on where it starts;
  // when it fails, remember its error and where it stopped, and fail there at once the next
  // time it starts at the same token. Speculation re-parses such productions: without this,
  // nested choices that all fail (`((SELECT ((SELECT ... 1 +`) take exponential time.
  template <typename T, typename Production, typename Parse>
  Result<T> RememberFailure(Parse parse) {
    const FailureKey key{std::type_index(typeid(Production)), index_};
    if (auto failed = failures_.find(key); failed != failures_.end()) {
      Restore(failed->second.end);
      return failed->second.status;
    }
    Result<T> result = parse();
    if (!result.ok()) failures_.emplace(key, Failure{result.status(), Save()});
    return result;
  }
  using FailureKey = std::pair<std::type_index, size_t>;
  struct Failure {
    Status status;
    State end;
  };
  // An error with Spark condition `condition` pointing at `token`.
  Status ErrorAt(std::string_view condition, const Token& token, std::string_view message) const;

  // ---- Queries (parser_query.cc) ----
  // Whether the tokens from `ahead` start a query without parentheses: SELECT, WITH, or VALUES
  // followed by a row.
  bool PeekQueryStart(size_t ahead = 0) const;
  // query: [WITH cte, ...] setOperations [ORDER BY ...] [LIMIT ...] [OFFSET ...]
  Result<SelectStatement> ParseQuery();
  Result<std::vector<CommonTableExpr>> ParseWith();
  // Operands joined by UNION, EXCEPT and MINUS (left-associative, lowest precedence).
  Result<SelectStatement> ParseUnionTerm();
  // Operands joined by INTERSECT (left-associative, binding tighter than UNION).
  Result<SelectStatement> ParseIntersectTerm();
  // queryPrimary: querySpecification | VALUES ... | '(' query ')'
  Result<SelectStatement> ParseQueryPrimary();
  // '(' query ')'
  Result<std::unique_ptr<SelectStatement>> ParseParenthesizedQuery();
  // querySpecification: SELECT [ALL|DISTINCT] items [FROM ...] [WHERE expr] [GROUP BY ...]
  // [HAVING expr] [WINDOW ...]
  Result<SelectStatement> ParseQuerySpecification();
  Result<SelectItem> ParseSelectItem();
  Result<OrderItem> ParseOrderItem();
  Result<std::vector<OrderItem>> ParseOrderItems();
  // VALUES row, ... with the alias after it when `with_alias`.
  Result<InlineTable> ParseInlineTable(bool with_alias);
  Result<std::vector<ExprPtr>> ParseValuesRow();
  // GROUP BY, with GROUP just consumed at `start`.
  Result<GroupByClause> ParseGroupBy(const Mark& start);
  // Whether ROLLUP(, CUBE( or GROUPING SETS starts here.
  bool PeekGroupingAnalytics() const;
  Result<GroupingElement> ParseGroupingAnalytics();
  // groupingSet: '(' [expr, ...] ')' | expr
  Result<GroupingElement> ParseGroupingSet();
  Result<std::vector<GroupingElement>> ParseGroupingSets();
  Result<std::vector<NamedWindow>> ParseWindowClause();
  // windowSpec: name | '(' name ')' | '(' [PARTITION BY ...] [ORDER BY ...] [frame] ')'
  Result<WindowSpec> ParseWindowSpec();
  Result<WindowFrame> ParseWindowFrame();
  Result<FrameBound> ParseFrameBound();

  // ---- FROM (parser_from.cc) ----
  // relation (',' relation)*, folded into left-deep cross joins.
  Result<std::unique_ptr<FromItem>> ParseFromClause();
  // relationPrimary joinRelation*
  Result<std::unique_ptr<FromItem>> ParseRelation();
  Result<std::unique_ptr<FromItem>> ParseRelationPrimary();
  // The join keywords before JOIN (consuming JOIN too), or nullopt when no join starts here.
  Result<std::optional<JoinType>> ParseJoinKeywords(bool* natural);
  Result<std::unique_ptr<FromItem>> ParseJoin(std::unique_ptr<FromItem> left, JoinType type,
                                              bool natural, const Token& first);
  Result<std::optional<TableSample>> ParseOptionalSample();
  /// \brief `[FOR] VERSION|SYSTEM_VERSION|TIMESTAMP|SYSTEM_TIME AS OF expr`, when next.
  Result<std::optional<TimeTravel>> ParseOptionalTimeTravel();
  // CHANGES FROM bound [TO bound] [WITH (options)] after a table name (parser_changes.cc).
  Result<std::optional<ChangesClause>> ParseOptionalChanges();
  Result<ChangesBound> ParseChangesBound();
  // [AS] alias [(column, ...)]
  Status ParseTableAlias(std::string* alias, std::vector<std::string>* columns);
  // '(' identifier, ... ')'
  Result<std::vector<std::string>> ParseIdentifierList();

  // ---- Expressions (parser_expression.cc) ----
  Result<ExprPtr> ParseExpression();
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  // NOT and EXISTS (query).
  Result<ExprPtr> ParseNot();
  // A value expression followed by at most one predicate (IS, IN, BETWEEN, LIKE).
  Result<ExprPtr> ParsePredicate();
  // The rest of `value` [NOT] IN (...), after IN.
  Result<ExprPtr> ParseIn(ExprPtr value, bool negated, const Mark& start);
  // The left-associative binary operators from comparison (level 0) to multiplicative.
  Result<ExprPtr> ParseBinary(int level);
  Result<ExprPtr> ParseUnary();
  // `expr` followed by any number of `::type` casts.
  Result<ExprPtr> ParsePostfix(ExprPtr expr, const Mark& start);
  Result<ExprPtr> ParsePrimary();
  // '(' expression ')' or a scalar subquery '(' query ')'.
  Result<ExprPtr> ParseParenthesized();
  // A subquery expression of `kind` whose '(' query ')' starts here.
  Result<ExprPtr> ParseSubqueryExpression(ExprPtr expr, SubqueryKind kind, const Mark& start);
  Result<ExprPtr> ParseLiteral();
  // Whether an INTERVAL literal (rather than a name `interval`) starts here.
  bool PeekInterval() const;
  Result<ExprPtr> ParseInterval();
  // Whether the token `ahead` is an interval unit of the multi-unit form (YEAR, DAYS, ...).
  bool PeekIntervalUnit(size_t ahead) const;
  // Whether another `[sign] value unit` pair of an interval starts here.
  bool PeekIntervalValue() const;
  Result<ExprPtr> ParseExtract();
  // The keyword forms of three string functions, as calls: SUBSTRING(s FROM p [FOR n]) is
  // substring(s, p, n); TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) is trim, ltrim or rtrim
  // of (chars, s); POSITION(sub IN s) is locate(sub, s).
  Result<ExprPtr> ParseKeywordStringCall();
  Result<ExprPtr> ParseName();
  Result<ExprPtr> ParseFunctionCall(ExprPtr function, const Mark& start);
  // WITHIN GROUP, FILTER, IGNORE|RESPECT NULLS and OVER after a call's ')'.
  Status ParseCallSuffixes(Expr* function);
  Result<ExprPtr> ParseCase();
  Result<ExprPtr> ParseCast();
  Result<TypeName> ParseType();
  /// ARRAY<t>, MAP<k, v> or STRUCT<name: t, ...> after its name, which `type` holds.
  Result<TypeName> ParseNestedType(TypeName type);
  Result<TypeName> ParseIntervalType(const Token& interval);

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t index_ = 0;
  // End offset of the last consumed token.
  size_t consumed_end_ = 0;
  // The nesting depth (see Nesting) and whether it went past the limit.
  int depth_ = 0;
  bool too_complex_ = false;
  // The productions that failed, by where they started (see RememberFailure).
  std::map<FailureKey, Failure> failures_;
};

}  // namespace parley::sql::internal
