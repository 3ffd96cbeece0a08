// Table and namespace DDL productions of the recursive-descent parser: CREATE|REPLACE TABLE,
// DROP TABLE, ALTER TABLE, CREATE|DROP|ALTER NAMESPACE, SHOW CREATE TABLE and SHOW
// TBLPROPERTIES, and the pieces they share (column definitions, property lists, partition
// transforms). INSERT, TRUNCATE and partition specs are in parser_insert.cc.
//
// The shapes follow Spark's SqlBaseParser.g4, and so do the checks Spark's AstBuilder makes
// while building its tree: a clause written twice is DUPLICATE_CLAUSES, a property key written
// twice DUPLICATE_KEY, and the forms Spark parses but refuses (CREATE TEMPORARY TABLE, a schema
// or typed partition columns in CREATE TABLE AS SELECT, property lists whose keys lack or have
// values where they must not) _LEGACY_ERROR_TEMP_0035, "Operation not allowed". Those checks
// run after the syntax of the statement has been read, as in Spark, so a syntax error later in
// the text wins over them. The clauses after a CREATE TABLE column list may come in any order
// (USING among them). Keywords stay usable as names: IF EXISTS and IF NOT EXISTS are read only
// when all their words are there, and COLUMN after ALTER|CHANGE only when a name follows it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sql/parser_internal.h"

namespace parley::sql::internal {
namespace {

constexpr std::string_view kNotAllowed = "_LEGACY_ERROR_TEMP_0035";

bool IsNumber(const Token& token) {
  return token.kind == TokenKind::kInteger || token.kind == TokenKind::kDecimal ||
         token.kind == TokenKind::kDouble;
}

bool IsNamespaceWord(const Token& token) {
  return token.IsWord("NAMESPACE") || token.IsWord("SCHEMA") || token.IsWord("DATABASE");
}

std::string JoinParts(const std::vector<std::string>& parts) {
  return fmt::format("{}", fmt::join(parts, "."));
}

// A column reference expression to `parts`, at `pos`, with source text `text`.
ExprPtr MakeColumn(std::vector<std::string> parts, SourcePosition pos, std::string_view text) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kColumn;
  expr->name_parts = std::move(parts);
  expr->pos = pos;
  expr->source_text = std::string(text);
  return expr;
}

}  // namespace

// ---- Shared pieces ----

bool Parser::AcceptIfExists() {
  if (!PeekWord("IF") || !PeekWord("EXISTS", 1)) return false;
  Next();
  Next();
  return true;
}

bool Parser::AcceptIfNotExists() {
  if (!PeekWord("IF") || !PeekWord("NOT", 1) || !PeekWord("EXISTS", 2)) return false;
  Next();
  Next();
  Next();
  return true;
}

Status Parser::CheckNotSeen(bool seen, const Token& keyword, std::string_view name) const {
  if (!seen) return Status::OK();
  return ErrorAt("DUPLICATE_CLAUSES", keyword,
                 fmt::format("Found duplicate clauses: {}. Please, remove one of them", name));
}

Status Parser::DuplicateKeyError(std::string_view key, const Token& at) const {
  // Spark names the key as a SQL identifier: each dot-separated part in backquotes.
  std::string quoted;
  size_t begin = 0;
  while (true) {
    size_t dot = key.find('.', begin);
    std::string_view part = key.substr(begin, dot == std::string_view::npos ? dot : dot - begin);
    quoted += fmt::format("`{}`", part);
    if (dot == std::string_view::npos) break;
    quoted += '.';
    begin = dot + 1;
  }
  return ErrorAt("DUPLICATE_KEY", at, fmt::format("Found duplicate keys {}", quoted));
}

Result<std::string> Parser::ParseStringLiteral() {
  if (Peek().kind != TokenKind::kString) return Unexpected();
  return Next().value;
}

Result<std::string> Parser::ParsePropertyKey() {
  if (Peek().kind == TokenKind::kString) return Next().value;
  // Any word may be a part of a dotted key: the context makes it unambiguous.
  if (!IsIdentifier(Peek(), /*allow_reserved=*/true)) return Unexpected();
  std::string key = Next().value;
  while (PeekOperator(".") && IsIdentifier(Peek(1), /*allow_reserved=*/true)) {
    Next();
    key += '.';
    key += Next().value;
  }
  return key;
}

Result<PropertyList> Parser::ParsePropertyList(PropertyValues values) {
  RETURN_NOT_OK(ExpectOperator("("));
  PropertyList list;
  std::vector<std::string> wrong_keys;
  const Token* first_wrong = nullptr;
  do {
    const Token& key_token = Peek();
    ARROW_ASSIGN_OR_RAISE(std::string key, ParsePropertyKey());
    for (const auto& [earlier, value] : list) {
      if (earlier == key) return DuplicateKeyError(key, key_token);
    }
    bool equals = AcceptOperator("=");
    const Token& value_token = Peek();
    std::optional<std::string> value;
    if (value_token.kind == TokenKind::kString || IsNumber(value_token)) {
      value = Next().value;
    } else if (value_token.IsWord("TRUE") || value_token.IsWord("FALSE")) {
      value = Next().IsWord("TRUE") ? "true" : "false";
    } else if (equals && IsIdentifier(value_token, /*allow_reserved=*/false)) {
      value = Next().value;
    } else if (equals) {
      return Unexpected();
    }
    if (value.has_value() != (values == PropertyValues::kRequired)) {
      if (first_wrong == nullptr) first_wrong = &key_token;
      wrong_keys.push_back(key);
    }
    list.emplace_back(std::move(key), value.value_or(""));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  if (first_wrong != nullptr) {
    return ErrorAt(kNotAllowed, *first_wrong,
                   fmt::format("Operation not allowed: Values {} be specified for key(s): [{}]",
                               values == PropertyValues::kRequired ? "must" : "should not",
                               fmt::join(wrong_keys, ",")));
  }
  return list;
}

bool Parser::PeekConstant() const {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
    case TokenKind::kString:
    case TokenKind::kBinaryString: return true;
    case TokenKind::kOperator: return token.IsOperator("-") && IsNumber(Peek(1));
    case TokenKind::kWord:
      if (token.IsWord("NULL") || token.IsWord("TRUE") || token.IsWord("FALSE")) return true;
      if (token.IsWord("INTERVAL")) return PeekInterval();
      return (token.IsWord("DATE") || token.IsWord("TIMESTAMP") || token.IsWord("TIMESTAMP_NTZ") ||
              token.IsWord("TIMESTAMP_LTZ")) &&
             Peek(1).kind == TokenKind::kString;
    default: return false;
  }
}

Result<ExprPtr> Parser::ParseConstant() {
  if (!PeekConstant()) return Unexpected();
  // A signed number is one literal (ParseUnary folds the sign in); INTERVAL has its own rule.
  if (PeekOperator("-")) return ParseUnary();
  if (PeekWord("INTERVAL")) return ParseInterval();
  return ParseLiteral();
}

Status Parser::ParseDefault(ExprPtr* value, std::string* text) {
  Mark start = Here();
  ARROW_ASSIGN_OR_RAISE(*value, ParseExpression());
  *text = std::string(SourceFrom(start));
  return Status::OK();
}

Result<ColumnDefinition> Parser::ParseColumnDefinition(bool in_alter) {
  ColumnDefinition column;
  column.pos = Peek().pos;
  if (in_alter) {
    ARROW_ASSIGN_OR_RAISE(QualifiedName name, ParseQualifiedName());
    column.name = std::move(name.parts);
  } else {
    ARROW_ASSIGN_OR_RAISE(std::string name, ParseIdentifier());
    column.name.push_back(std::move(name));
  }
  ARROW_ASSIGN_OR_RAISE(column.type, ParseType());
  while (true) {
    const Token& keyword = Peek();
    if (keyword.IsWord("NOT") && PeekWord("NULL", 1)) {
      RETURN_NOT_OK(CheckNotSeen(column.not_null, keyword, "NOT NULL"));
      Next();
      Next();
      column.not_null = true;
    } else if (keyword.IsWord("DEFAULT")) {
      RETURN_NOT_OK(CheckNotSeen(column.default_value != nullptr, keyword, "DEFAULT"));
      Next();
      RETURN_NOT_OK(ParseDefault(&column.default_value, &column.default_text));
    } else if (keyword.IsWord("COMMENT")) {
      RETURN_NOT_OK(CheckNotSeen(column.comment.has_value(), keyword, "COMMENT"));
      Next();
      ARROW_ASSIGN_OR_RAISE(column.comment, ParseStringLiteral());
    } else if (in_alter && (keyword.IsWord("FIRST") || keyword.IsWord("AFTER"))) {
      RETURN_NOT_OK(CheckNotSeen(column.first || !column.after.empty(), keyword, "FIRST|AFTER"));
      if (Next().IsWord("FIRST")) {
        column.first = true;
      } else {
        ARROW_ASSIGN_OR_RAISE(column.after, ParseIdentifier());
      }
    } else {
      return column;
    }
  }
}

Result<std::vector<ColumnDefinition>> Parser::ParseColumnDefinitions(bool in_alter) {
  std::vector<ColumnDefinition> columns;
  do {
    ARROW_ASSIGN_OR_RAISE(ColumnDefinition column, ParseColumnDefinition(in_alter));
    columns.push_back(std::move(column));
  } while (AcceptOperator(","));
  return columns;
}

// ---- CREATE and REPLACE TABLE ----

Result<Statement> Parser::ParseCreate(const Mark& start) {
  const Token& create = Next();
  CreateTable table;
  if (AcceptWord("OR")) {
    // Spark's grammar has no IF NOT EXISTS, TEMPORARY or EXTERNAL here.
    RETURN_NOT_OK(ExpectWord("REPLACE"));
    if (PeekViewStart()) return ParseCreateView(start, /*replace=*/true);
    if (PeekFunctionStart()) return ParseCreateFunction(start, /*replace=*/true);
    RETURN_NOT_OK(ExpectWord("TABLE"));
    table.replace = true;
    return ParseCreateTable(start, create, std::move(table), /*temporary=*/false);
  }
  if (IsNamespaceWord(Peek())) {
    Next();
    return ParseCreateNamespace(start);
  }
  if (PeekViewStart()) return ParseCreateView(start, /*replace=*/false);
  if (PeekFunctionStart()) return ParseCreateFunction(start, /*replace=*/false);
  bool temporary = AcceptWord("TEMPORARY");
  table.external = AcceptWord("EXTERNAL");
  RETURN_NOT_OK(ExpectWord("TABLE"));
  table.if_not_exists = AcceptIfNotExists();
  return ParseCreateTable(start, create, std::move(table), temporary);
}

bool Parser::PeekViewStart() const {
  size_t ahead = 0;
  if (PeekWord("GLOBAL")) ++ahead;
  if (PeekWord("TEMPORARY", ahead)) ++ahead;
  return PeekWord("VIEW", ahead) && (ahead == 0 || PeekWord("TEMPORARY", ahead - 1));
}

Result<Statement> Parser::ParseCreateView(const Mark& start, bool replace) {
  CreateView view;
  view.replace = replace;
  view.global = AcceptWord("GLOBAL");
  view.temporary = AcceptWord("TEMPORARY");
  RETURN_NOT_OK(ExpectWord("VIEW"));
  view.if_not_exists = AcceptIfNotExists();
  ARROW_ASSIGN_OR_RAISE(view.name, ParseQualifiedName());
  if (AcceptOperator("(")) {
    do {
      ARROW_ASSIGN_OR_RAISE(std::string column, ParseIdentifier());
      std::string comment;
      if (AcceptWord("COMMENT")) {
        if (Peek().kind != TokenKind::kString) return Unexpected();
        comment = Next().value;
      }
      view.columns.emplace_back(std::move(column), std::move(comment));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  while (true) {
    if (AcceptWord("COMMENT")) {
      if (Peek().kind != TokenKind::kString || view.comment) return Unexpected();
      view.comment = Next().value;
    } else if (AcceptWord("TBLPROPERTIES")) {
      ARROW_ASSIGN_OR_RAISE(view.properties, ParsePropertyList(PropertyValues::kRequired));
    } else {
      break;
    }
  }
  RETURN_NOT_OK(ExpectWord("AS"));
  const Mark query_start = Here();
  ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
  view.query_text = std::string(SourceFrom(query_start));
  view.query = std::make_unique<SelectStatement>(std::move(query));
  return Statement{start.pos, std::move(view)};
}

Result<Statement> Parser::ParseReplaceTable(const Mark& start) {
  const Token& replace = Next();
  RETURN_NOT_OK(ExpectWord("TABLE"));
  CreateTable table;
  table.create = false;
  table.replace = true;
  return ParseCreateTable(start, replace, std::move(table), /*temporary=*/false);
}

Result<Statement> Parser::ParseCreateTable(const Mark& start, const Token& first, CreateTable table,
                                           bool temporary) {
  ARROW_ASSIGN_OR_RAISE(table.name, ParseQualifiedName());
  // A '(' opens the column list unless a query starts inside it: CREATE TABLE t (SELECT 1).
  if (PeekOperator("(") && !PeekQueryStart(1) && !PeekOperator("(", 1)) {
    Next();
    ARROW_ASSIGN_OR_RAISE(table.columns, ParseColumnDefinitions(/*in_alter=*/false));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  size_t declared_columns = table.columns.size();
  RETURN_NOT_OK(ParseCreateTableClauses(&table));
  if (AcceptWord("AS") || PeekQueryStart() || PeekOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
    table.query = std::make_unique<SelectStatement>(std::move(query));
  }
  if (temporary) {
    return ErrorAt(kNotAllowed, first,
                   fmt::format("Operation not allowed: CREATE TEMPORARY TABLE ...{}, use CREATE "
                               "TEMPORARY VIEW instead",
                               table.query ? " AS ..." : ""));
  }
  if (table.query && declared_columns > 0) {
    return ErrorAt(kNotAllowed, first,
                   "Operation not allowed: Schema may not be specified in a Create Table As "
                   "Select (CTAS) statement");
  }
  if (table.query && table.columns.size() > declared_columns) {
    return ErrorAt(kNotAllowed, first,
                   "Operation not allowed: Partition column types may not be specified in "
                   "Create Table As Select (CTAS)");
  }
  return Statement{start.pos, std::move(table)};
}

Status Parser::ParseCreateTableClauses(CreateTable* table) {
  bool options = false;
  bool partitioned = false;
  bool properties = false;
  while (true) {
    const Token& keyword = Peek();
    if (keyword.IsWord("USING")) {
      RETURN_NOT_OK(CheckNotSeen(table->provider.has_value(), keyword, "USING"));
      Next();
      ARROW_ASSIGN_OR_RAISE(QualifiedName provider, ParseQualifiedName());
      table->provider = JoinParts(provider.parts);
    } else if (keyword.IsWord("OPTIONS")) {
      RETURN_NOT_OK(CheckNotSeen(options, keyword, "OPTIONS"));
      Next();
      ARROW_ASSIGN_OR_RAISE(table->options, ParsePropertyList(PropertyValues::kRequired));
      options = true;
    } else if (keyword.IsWord("PARTITIONED")) {
      RETURN_NOT_OK(CheckNotSeen(partitioned, keyword, "PARTITIONED BY"));
      Next();
      RETURN_NOT_OK(ExpectWord("BY"));
      RETURN_NOT_OK(ParsePartitioning(table));
      partitioned = true;
    } else if (keyword.IsWord("LOCATION")) {
      RETURN_NOT_OK(CheckNotSeen(table->location.has_value(), keyword, "LOCATION"));
      Next();
      ARROW_ASSIGN_OR_RAISE(table->location, ParseStringLiteral());
    } else if (keyword.IsWord("COMMENT")) {
      RETURN_NOT_OK(CheckNotSeen(table->comment.has_value(), keyword, "COMMENT"));
      Next();
      ARROW_ASSIGN_OR_RAISE(table->comment, ParseStringLiteral());
    } else if (keyword.IsWord("TBLPROPERTIES")) {
      RETURN_NOT_OK(CheckNotSeen(properties, keyword, "TBLPROPERTIES"));
      Next();
      ARROW_ASSIGN_OR_RAISE(table->properties, ParsePropertyList(PropertyValues::kRequired));
      properties = true;
    } else {
      return Status::OK();
    }
  }
}

Status Parser::ParsePartitioning(CreateTable* table) {
  RETURN_NOT_OK(ExpectOperator("("));
  do {
    Mark start = Here();
    const Token& name = Peek();
    bool word = IsIdentifier(name, /*allow_reserved=*/false);
    if (word && PeekOperator("(", 1)) {
      ARROW_ASSIGN_OR_RAISE(ExprPtr transform, ParseTransform());
      table->partitioning.push_back(std::move(transform));
    } else if (word && !PeekOperator(".", 1) && !PeekOperator(",", 1) && !PeekOperator(")", 1)) {
      // `name type`: a partition column defined here, Hive style.
      ARROW_ASSIGN_OR_RAISE(ColumnDefinition column, ParseColumnDefinition(/*in_alter=*/false));
      table->partitioning.push_back(
          MakeColumn(column.name, name.pos, text_.substr(name.begin, name.end - name.begin)));
      table->columns.push_back(std::move(column));
    } else {
      ARROW_ASSIGN_OR_RAISE(QualifiedName column, ParseQualifiedName());
      table->partitioning.push_back(
          MakeColumn(std::move(column.parts), start.pos, SourceFrom(start)));
    }
  } while (AcceptOperator(","));
  return ExpectOperator(")");
}

Result<ExprPtr> Parser::ParseTransform() {
  Mark start = Here();
  auto call = std::make_unique<Expr>();
  call->kind = ExprKind::kFunction;
  ARROW_ASSIGN_OR_RAISE(std::string name, ParseIdentifier());
  call->name_parts.push_back(std::move(name));
  RETURN_NOT_OK(ExpectOperator("("));
  do {
    if (PeekConstant()) {
      ARROW_ASSIGN_OR_RAISE(ExprPtr constant, ParseConstant());
      call->children.push_back(std::move(constant));
    } else {
      Mark column_start = Here();
      ARROW_ASSIGN_OR_RAISE(QualifiedName column, ParseQualifiedName());
      call->children.push_back(
          MakeColumn(std::move(column.parts), column_start.pos, SourceFrom(column_start)));
    }
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  return Close(std::move(call), start);
}

// ---- DROP and ALTER ----

Result<Statement> Parser::ParseDrop(const Mark& start) {
  if (PeekFunctionStart()) return ParseDropFunction(start);
  if (AcceptWord("VIEW")) {
    DropView drop;
    drop.if_exists = AcceptIfExists();
    ARROW_ASSIGN_OR_RAISE(drop.name, ParseQualifiedName());
    return Statement{start.pos, std::move(drop)};
  }
  if (AcceptWord("TABLE")) {
    DropTable drop;
    drop.if_exists = AcceptIfExists();
    ARROW_ASSIGN_OR_RAISE(drop.name, ParseQualifiedName());
    drop.purge = AcceptWord("PURGE");
    return Statement{start.pos, std::move(drop)};
  }
  if (!IsNamespaceWord(Peek())) return Unexpected();
  Next();
  DropNamespace drop;
  drop.if_exists = AcceptIfExists();
  ARROW_ASSIGN_OR_RAISE(drop.name, ParseQualifiedName());
  if (AcceptWord("CASCADE")) {
    drop.cascade = true;
  } else {
    AcceptWord("RESTRICT");
  }
  return Statement{start.pos, std::move(drop)};
}

Result<Statement> Parser::ParseAlter(const Mark& start) {
  if (AcceptWord("VIEW")) return ParseAlterView(start);
  if (AcceptWord("TABLE")) {
    AlterTable alter;
    ARROW_ASSIGN_OR_RAISE(alter.name, ParseQualifiedName());
    RETURN_NOT_OK(ParseAlterTableAction(&alter));
    return Statement{start.pos, std::move(alter)};
  }
  if (!IsNamespaceWord(Peek())) return Unexpected();
  Next();
  AlterNamespace alter;
  ARROW_ASSIGN_OR_RAISE(alter.name, ParseQualifiedName());
  if (AcceptWord("UNSET")) {
    if (!AcceptWord("DBPROPERTIES") && !AcceptWord("PROPERTIES")) return Unexpected();
    ARROW_ASSIGN_OR_RAISE(PropertyList keys, ParsePropertyList(PropertyValues::kForbidden));
    for (auto& [key, value] : keys) alter.unset_keys.push_back(std::move(key));
    return Statement{start.pos, std::move(alter)};
  }
  RETURN_NOT_OK(ExpectWord("SET"));
  if (AcceptWord("DBPROPERTIES") || AcceptWord("PROPERTIES")) {
    ARROW_ASSIGN_OR_RAISE(alter.properties, ParsePropertyList(PropertyValues::kRequired));
  } else if (AcceptWord("LOCATION")) {
    ARROW_ASSIGN_OR_RAISE(alter.location, ParseStringLiteral());
  } else {
    return Unexpected();
  }
  return Statement{start.pos, std::move(alter)};
}

Result<Statement> Parser::ParseAlterView(const Mark& start) {
  AlterView alter;
  ARROW_ASSIGN_OR_RAISE(alter.name, ParseQualifiedName());
  if (AcceptWord("AS")) {
    alter.kind = AlterViewKind::kQuery;
    const Mark query_start = Here();
    ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
    alter.query_text = std::string(SourceFrom(query_start));
    alter.query = std::make_unique<SelectStatement>(std::move(query));
  } else if (AcceptWord("RENAME")) {
    RETURN_NOT_OK(ExpectWord("TO"));
    alter.kind = AlterViewKind::kRename;
    ARROW_ASSIGN_OR_RAISE(alter.new_name, ParseQualifiedName());
  } else if (AcceptWord("SET")) {
    RETURN_NOT_OK(ExpectWord("TBLPROPERTIES"));
    alter.kind = AlterViewKind::kSetProperties;
    ARROW_ASSIGN_OR_RAISE(alter.properties, ParsePropertyList(PropertyValues::kRequired));
  } else if (AcceptWord("UNSET")) {
    RETURN_NOT_OK(ExpectWord("TBLPROPERTIES"));
    alter.kind = AlterViewKind::kUnsetProperties;
    alter.if_exists = AcceptIfExists();
    ARROW_ASSIGN_OR_RAISE(PropertyList keys, ParsePropertyList(PropertyValues::kForbidden));
    for (auto& [key, value] : keys) alter.property_keys.push_back(std::move(key));
  } else {
    return Unexpected();
  }
  return Statement{start.pos, std::move(alter)};
}

Status Parser::ParseAlterTableAction(AlterTable* alter) {
  if (AcceptWord("ADD")) {
    if (!AcceptWord("COLUMNS") && !AcceptWord("COLUMN")) return Unexpected();
    alter->kind = AlterTableKind::kAddColumns;
    bool parenthesized = AcceptOperator("(");
    ARROW_ASSIGN_OR_RAISE(alter->columns, ParseColumnDefinitions(/*in_alter=*/true));
    return parenthesized ? ExpectOperator(")") : Status::OK();
  }
  if (AcceptWord("DROP")) {
    if (!AcceptWord("COLUMNS") && !AcceptWord("COLUMN")) return Unexpected();
    alter->kind = AlterTableKind::kDropColumns;
    alter->if_exists = AcceptIfExists();
    bool parenthesized = AcceptOperator("(");
    do {
      ARROW_ASSIGN_OR_RAISE(QualifiedName column, ParseQualifiedName());
      alter->column_names.push_back(std::move(column.parts));
    } while (AcceptOperator(","));
    return parenthesized ? ExpectOperator(")") : Status::OK();
  }
  if (AcceptWord("RENAME")) {
    if (AcceptWord("TO")) {
      alter->kind = AlterTableKind::kRenameTable;
      ARROW_ASSIGN_OR_RAISE(alter->new_table, ParseQualifiedName());
      return Status::OK();
    }
    RETURN_NOT_OK(ExpectWord("COLUMN"));
    alter->kind = AlterTableKind::kRenameColumn;
    ARROW_ASSIGN_OR_RAISE(QualifiedName column, ParseQualifiedName());
    alter->column_names.push_back(std::move(column.parts));
    RETURN_NOT_OK(ExpectWord("TO"));
    ARROW_ASSIGN_OR_RAISE(alter->new_name, ParseIdentifier());
    return Status::OK();
  }
  if (AcceptWord("ALTER") || AcceptWord("CHANGE")) {
    // COLUMN is optional, so it is the keyword only when a column name follows it.
    if (PeekWord("COLUMN") && IsIdentifier(Peek(1), /*allow_reserved=*/false)) Next();
    alter->kind = AlterTableKind::kAlterColumn;
    ARROW_ASSIGN_OR_RAISE(QualifiedName column, ParseQualifiedName());
    alter->column_names.push_back(std::move(column.parts));
    return ParseAlterColumnAction(&alter->column_change);
  }
  if (AcceptWord("SET")) {
    if (AcceptWord("LOCATION")) {
      alter->kind = AlterTableKind::kSetLocation;
      ARROW_ASSIGN_OR_RAISE(alter->location, ParseStringLiteral());
      return Status::OK();
    }
    RETURN_NOT_OK(ExpectWord("TBLPROPERTIES"));
    alter->kind = AlterTableKind::kSetProperties;
    ARROW_ASSIGN_OR_RAISE(alter->properties, ParsePropertyList(PropertyValues::kRequired));
    return Status::OK();
  }
  if (AcceptWord("UNSET")) {
    RETURN_NOT_OK(ExpectWord("TBLPROPERTIES"));
    alter->kind = AlterTableKind::kUnsetProperties;
    alter->if_exists = AcceptIfExists();
    ARROW_ASSIGN_OR_RAISE(PropertyList keys, ParsePropertyList(PropertyValues::kForbidden));
    for (auto& [key, value] : keys) alter->property_keys.push_back(std::move(key));
    return Status::OK();
  }
  return Unexpected();
}

Status Parser::ParseAlterColumnAction(AlterColumnChange* change) {
  using Kind = AlterColumnChange::Kind;
  if (AcceptWord("TYPE")) {
    change->kind = Kind::kType;
    ARROW_ASSIGN_OR_RAISE(change->type, ParseType());
  } else if (AcceptWord("COMMENT")) {
    change->kind = Kind::kComment;
    ARROW_ASSIGN_OR_RAISE(change->comment, ParseStringLiteral());
  } else if (AcceptWord("FIRST")) {
    change->kind = Kind::kFirst;
  } else if (AcceptWord("AFTER")) {
    change->kind = Kind::kAfter;
    ARROW_ASSIGN_OR_RAISE(change->after, ParseIdentifier());
  } else if (AcceptWord("SET")) {
    if (AcceptWord("DEFAULT")) {
      change->kind = Kind::kSetDefault;
      return ParseDefault(&change->default_value, &change->default_text);
    }
    RETURN_NOT_OK(ExpectWord("NOT"));
    RETURN_NOT_OK(ExpectWord("NULL"));
    change->kind = Kind::kSetNotNull;
  } else if (AcceptWord("DROP")) {
    if (AcceptWord("DEFAULT")) {
      change->kind = Kind::kDropDefault;
      return Status::OK();
    }
    RETURN_NOT_OK(ExpectWord("NOT"));
    RETURN_NOT_OK(ExpectWord("NULL"));
    change->kind = Kind::kDropNotNull;
  } else {
    return Unexpected();
  }
  return Status::OK();
}

// ---- Namespaces ----

Result<Statement> Parser::ParseCreateNamespace(const Mark& start) {
  CreateNamespace create;
  create.if_not_exists = AcceptIfNotExists();
  ARROW_ASSIGN_OR_RAISE(create.name, ParseQualifiedName());
  // Which of WITH PROPERTIES and WITH DBPROPERTIES was written; empty for neither.
  std::string properties_clause;
  while (true) {
    const Token& keyword = Peek();
    if (keyword.IsWord("COMMENT")) {
      RETURN_NOT_OK(CheckNotSeen(create.comment.has_value(), keyword, "COMMENT"));
      Next();
      ARROW_ASSIGN_OR_RAISE(create.comment, ParseStringLiteral());
    } else if (keyword.IsWord("LOCATION")) {
      RETURN_NOT_OK(CheckNotSeen(create.location.has_value(), keyword, "LOCATION"));
      Next();
      ARROW_ASSIGN_OR_RAISE(create.location, ParseStringLiteral());
    } else if (keyword.IsWord("WITH")) {
      Next();
      if (!PeekWord("DBPROPERTIES") && !PeekWord("PROPERTIES")) return Unexpected();
      std::string clause = "WITH " + UpperCase(Next().value);
      RETURN_NOT_OK(CheckNotSeen(clause == properties_clause, keyword, clause));
      if (!properties_clause.empty()) {
        return ErrorAt("UNSUPPORTED_FEATURE.SET_PROPERTIES_AND_DBPROPERTIES", keyword,
                       "The feature is not supported: set PROPERTIES and DBPROPERTIES at the "
                       "same time");
      }
      properties_clause = std::move(clause);
      ARROW_ASSIGN_OR_RAISE(create.properties, ParsePropertyList(PropertyValues::kRequired));
    } else {
      return Statement{start.pos, std::move(create)};
    }
  }
}

// ---- SHOW ----

Result<Statement> Parser::ParseShowCreateTable(const Mark& start) {
  RETURN_NOT_OK(ExpectWord("TABLE"));
  ShowCreateTable show;
  ARROW_ASSIGN_OR_RAISE(show.name, ParseQualifiedName());
  if (AcceptWord("AS")) {
    RETURN_NOT_OK(ExpectWord("SERDE"));
    show.as_serde = true;
  }
  return Statement{start.pos, std::move(show)};
}

Result<Statement> Parser::ParseShowTblProperties(const Mark& start) {
  ShowTblProperties show;
  ARROW_ASSIGN_OR_RAISE(show.name, ParseQualifiedName());
  if (AcceptOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(show.key, ParsePropertyKey());
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  return Statement{start.pos, std::move(show)};
}

}  // namespace parley::sql::internal
