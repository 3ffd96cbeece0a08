// The parser's entry points, token handling, names and statements; queries are in
// parser_query.cc and parser_from.cc, expressions in parser_expression.cc, table and namespace
// DDL in parser_ddl.cc, INSERT and TRUNCATE in parser_insert.cc.
//
// Statements are recognised by their first keyword; queries (parser_query.cc) by SELECT, WITH,
// VALUES or '('. SET and RESET do not parse their arguments: like Spark's AstBuilder they take
// the raw source text after the keyword, so that values such as file paths need no quoting.
#include "sql/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iterator>

#include "sql/parser_internal.h"

namespace parley::sql {
namespace internal {
namespace {

std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

constexpr std::string_view kReservedWords[] = {
    "ALL",   "AND",   "AS",     "BETWEEN",   "BY",     "CASE",   "CROSS",   "DISTINCT",
    "ELSE",  "END",   "EXCEPT", "FALSE",     "FROM",   "FULL",   "GROUP",   "HAVING",
    "ILIKE", "IN",    "INNER",  "INTERSECT", "IS",     "JOIN",   "LATERAL", "LEFT",
    "LIKE",  "LIMIT", "MINUS",  "NATURAL",   "NOT",    "NULL",   "OFFSET",  "ON",
    "OR",    "ORDER", "REGEXP", "RIGHT",     "RLIKE",  "SELECT", "THEN",    "TRUE",
    "UNION", "USING", "WHEN",   "WHERE",     "WINDOW", "WITH"};

// Words that may follow a select item or a table in some clause, so they are not taken as an
// alias written without AS.
constexpr std::string_view kClauseWords[] = {"ANTI", "CLUSTER", "DISTRIBUTE",  "PIVOT",
                                             "SEMI", "SORT",    "TABLESAMPLE", "UNPIVOT"};

template <size_t N>
bool Contains(const std::string_view (&words)[N], std::string_view upper) {
  return std::find(std::begin(words), std::end(words), upper) != std::end(words);
}

}  // namespace

bool IsReservedWord(std::string_view word) { return Contains(kReservedWords, ToUpper(word)); }

bool IsClauseWord(std::string_view word) { return Contains(kClauseWords, ToUpper(word)); }

std::string UpperCase(std::string_view s) { return ToUpper(s); }

Parser::Parser(std::string_view text, SourcePosition origin)
    : text_(text), tokens_(Tokenize(text, origin)) {}

// ---- Tokens ----

const Token& Parser::Peek(size_t ahead) const {
  return tokens_[std::min(index_ + ahead, tokens_.size() - 1)];
}

const Token& Parser::Next() {
  const Token& token = tokens_[index_];
  if (token.kind != TokenKind::kEnd) {
    ++index_;
    consumed_end_ = token.end;
  }
  return token;
}

bool Parser::PeekWord(std::string_view keyword, size_t ahead) const {
  return Peek(ahead).IsWord(keyword);
}

bool Parser::PeekOperator(std::string_view op, size_t ahead) const {
  return Peek(ahead).IsOperator(op);
}

bool Parser::AcceptWord(std::string_view keyword) {
  if (!PeekWord(keyword)) return false;
  Next();
  return true;
}

bool Parser::AcceptOperator(std::string_view op) {
  if (!PeekOperator(op)) return false;
  Next();
  return true;
}

Status Parser::ExpectWord(std::string_view keyword) {
  return AcceptWord(keyword) ? Status::OK() : Unexpected();
}

Status Parser::ExpectOperator(std::string_view op) {
  return AcceptOperator(op) ? Status::OK() : Unexpected();
}

bool Parser::AtStatementEnd(size_t ahead) const {
  return Peek(ahead).kind == TokenKind::kEnd || PeekOperator(";", ahead);
}

Status Parser::Unexpected() const { return UnexpectedTokenError(text_, Peek()); }

Parser::Mark Parser::Here() const { return Mark{Peek().begin, Peek().pos}; }

std::string_view Parser::SourceFrom(const Mark& start) const {
  return text_.substr(start.begin, std::max(consumed_end_, start.begin) - start.begin);
}

ExprPtr Parser::Close(ExprPtr expr, const Mark& start) const {
  expr->pos = start.pos;
  expr->source_text = std::string(SourceFrom(start));
  return expr;
}

Status Parser::CheckNesting() {
  if (depth_ <= kMaxNestingDepth && !too_complex_) return Status::OK();
  too_complex_ = true;
  return ErrorAt("FAILED_TO_PARSE_TOO_COMPLEX", tokens_.front(),
                 "The statement, including potential SQL functions and referenced views, was "
                 "too complex to parse. To mitigate this error divide the statement into "
                 "multiple, less complex chunks.");
}

Status Parser::ErrorAt(std::string_view condition, const Token& token,
                       std::string_view message) const {
  return ErrorAtToken(condition, text_, token, message);
}

// ---- Names ----

bool Parser::IsIdentifier(const Token& token, bool allow_reserved) {
  if (token.kind == TokenKind::kQuotedIdentifier) return true;
  return token.kind == TokenKind::kWord && (allow_reserved || !IsReservedWord(token.value));
}

Result<std::string> Parser::ParseIdentifier() {
  if (!IsIdentifier(Peek(), /*allow_reserved=*/false)) return Unexpected();
  return Next().value;
}

Result<QualifiedName> Parser::ParseQualifiedName() {
  QualifiedName name;
  name.pos = Peek().pos;
  ARROW_ASSIGN_OR_RAISE(std::string first, ParseIdentifier());
  name.parts.push_back(std::move(first));
  while (PeekOperator(".") && IsIdentifier(Peek(1), /*allow_reserved=*/true)) {
    Next();
    name.parts.push_back(Next().value);
  }
  return name;
}

Result<std::string> Parser::ParseOptionalAlias() {
  if (AcceptWord("AS")) return ParseIdentifier();
  const Token& token = Peek();
  if (!IsIdentifier(token, /*allow_reserved=*/false)) return std::string();
  if (token.kind == TokenKind::kWord && IsClauseWord(token.value)) {
    return std::string();
  }
  return Next().value;
}

// ---- Statements ----

Result<Statement> Parser::ParseSingleStatement() {
  ARROW_ASSIGN_OR_RAISE(Statement statement, ParseStatement());
  while (AcceptOperator(";")) {
  }
  if (Peek().kind != TokenKind::kEnd) return Unexpected();
  return statement;
}

Result<Statement> Parser::ParseStatement() {
  Mark start = Here();
  if (PeekQueryStart() || PeekOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
    return Statement{start.pos, std::move(query)};
  }
  if (AcceptWord("SHOW")) return ParseShow(start);
  if (AcceptWord("DESCRIBE") || AcceptWord("DESC")) return ParseDescribe(start);
  if (AcceptWord("USE")) return ParseUse(start);
  if (AcceptWord("SET")) return ParseSet(start);
  if (AcceptWord("RESET")) return ParseReset(start);
  if (AcceptWord("EXPLAIN")) return ParseExplain(start);
  if (PeekWord("CREATE")) return ParseCreate(start);
  if (PeekWord("REPLACE")) return ParseReplaceTable(start);
  if (AcceptWord("DROP")) return ParseDrop(start);
  if (AcceptWord("ALTER")) return ParseAlter(start);
  if (AcceptWord("INSERT")) return ParseInsert(start);
  if (AcceptWord("TRUNCATE")) return ParseTruncate(start);
  if (AcceptWord("VACUUM")) return ParseVacuum(start);
  if (AcceptWord("CALL")) return ParseCall(start);
  if (AcceptWord("DELETE")) return ParseDelete(start);
  if (AcceptWord("UPDATE")) return ParseUpdate(start);
  if (AcceptWord("MERGE")) return ParseMerge(start);
  return Unexpected();
}

Result<std::optional<std::string>> Parser::ParseOptionalPattern() {
  bool like = AcceptWord("LIKE");
  if (Peek().kind == TokenKind::kString) return std::optional<std::string>(Next().value);
  if (like) return Unexpected();
  return std::optional<std::string>();
}

Result<Statement> Parser::ParseShow(const Mark& start) {
  if (AcceptWord("CREATE")) return ParseShowCreateTable(start);
  if (AcceptWord("TBLPROPERTIES")) return ParseShowTblProperties(start);
  if (AcceptWord("PROCEDURES")) return ParseShowProcedures(start);
  if (PeekWord("FUNCTIONS") ||
      ((PeekWord("USER") || PeekWord("SYSTEM") || PeekWord("ALL")) && PeekWord("FUNCTIONS", 1))) {
    ShowFunctions show;
    if (AcceptWord("USER")) {
      show.scope = ShowFunctions::Scope::kUser;
    } else if (AcceptWord("SYSTEM")) {
      show.scope = ShowFunctions::Scope::kSystem;
    } else {
      AcceptWord("ALL");
    }
    RETURN_NOT_OK(ExpectWord("FUNCTIONS"));
    if (AcceptWord("FROM") || AcceptWord("IN")) {
      ARROW_ASSIGN_OR_RAISE(show.namespace_name, ParseQualifiedName());
    }
    ARROW_ASSIGN_OR_RAISE(show.pattern, ParseOptionalPattern());
    return Statement{start.pos, std::move(show)};
  }
  if (AcceptWord("CATALOGS")) {
    ShowCatalogs show;
    ARROW_ASSIGN_OR_RAISE(show.pattern, ParseOptionalPattern());
    return Statement{start.pos, std::move(show)};
  }
  if (AcceptWord("NAMESPACES") || AcceptWord("DATABASES") || AcceptWord("SCHEMAS")) {
    ShowNamespaces show;
    if (AcceptWord("FROM") || AcceptWord("IN")) {
      ARROW_ASSIGN_OR_RAISE(show.parent, ParseQualifiedName());
    }
    ARROW_ASSIGN_OR_RAISE(show.pattern, ParseOptionalPattern());
    return Statement{start.pos, std::move(show)};
  }
  if (PeekWord("TABLES") || PeekWord("VIEWS")) {
    ShowTables show;
    show.views = Next().IsWord("VIEWS");
    if (AcceptWord("FROM") || AcceptWord("IN")) {
      ARROW_ASSIGN_OR_RAISE(show.namespace_name, ParseQualifiedName());
    }
    ARROW_ASSIGN_OR_RAISE(show.pattern, ParseOptionalPattern());
    return Statement{start.pos, std::move(show)};
  }
  return Unexpected();
}

Result<Statement> Parser::ParseDescribe(const Mark& start) {
  // DESCRIBE NAMESPACE|SCHEMA|DATABASE [EXTENDED] name; the keyword is a table name when nothing
  // follows it.
  if ((PeekWord("NAMESPACE") || PeekWord("SCHEMA") || PeekWord("DATABASE")) && !AtStatementEnd(1)) {
    Next();
    DescribeNamespace describe;
    if (PeekWord("EXTENDED") && !AtStatementEnd(1)) {
      Next();
      describe.extended = true;
    }
    ARROW_ASSIGN_OR_RAISE(describe.name, ParseQualifiedName());
    return Statement{start.pos, std::move(describe)};
  }
  if (PeekWord("HISTORY") && !AtStatementEnd(1)) {
    Next();
    return ParseDescribeHistory(start);
  }
  if (PeekWord("DETAIL") && !AtStatementEnd(1)) {
    Next();
    return ParseDescribeDetail(start);
  }
  if (PeekWord("PROCEDURE") && !AtStatementEnd(1)) {
    Next();
    return ParseDescribeProcedure(start);
  }
  if (PeekWord("FUNCTION") && !AtStatementEnd(1)) {
    Next();
    DescribeFunction describe;
    if (PeekWord("EXTENDED") && !AtStatementEnd(1)) {
      Next();
      describe.extended = true;
    }
    ARROW_ASSIGN_OR_RAISE(describe.function, ParseQualifiedName());
    return Statement{start.pos, std::move(describe)};
  }
  // The optional keywords are names when nothing follows them: DESCRIBE extended.
  if (PeekWord("TABLE") && !AtStatementEnd(1)) Next();
  DescribeTable describe;
  if ((PeekWord("EXTENDED") || PeekWord("FORMATTED")) && !AtStatementEnd(1)) {
    Next();
    describe.extended = true;
  }
  ARROW_ASSIGN_OR_RAISE(describe.table, ParseQualifiedName());
  return Statement{start.pos, std::move(describe)};
}

Result<Statement> Parser::ParseUse(const Mark& start) {
  if ((PeekWord("NAMESPACE") || PeekWord("DATABASE") || PeekWord("SCHEMA")) && !AtStatementEnd(1)) {
    Next();
  }
  Use use;
  ARROW_ASSIGN_OR_RAISE(use.name, ParseQualifiedName());
  return Statement{start.pos, std::move(use)};
}

Result<std::string_view> Parser::TakeRawRemainder(Token* first) {
  *first = Peek();
  size_t last = tokens_.size() - 1;  // the kEnd token
  while (last > index_ && tokens_[last - 1].IsOperator(";")) --last;
  for (size_t i = index_; i < last; ++i) {
    if (tokens_[i].IsOperator(";")) {
      index_ = i;
      return Unexpected();
    }
  }
  size_t begin = first->begin;
  size_t end = last > index_ ? tokens_[last - 1].end : begin;
  while (index_ < last) Next();
  return Trim(text_.substr(begin, end - begin));
}

Result<std::string> Parser::ConfigKey(std::string_view raw, const Token& at) const {
  std::string_view key = Trim(raw);
  if (key.size() >= 2 && key.front() == '`' && key.back() == '`') {
    std::string unquoted;
    for (size_t i = 1; i + 1 < key.size(); ++i) {
      unquoted.push_back(key[i]);
      if (key[i] == '`') ++i;  // `` stands for one backquote
    }
    return unquoted;
  }
  // Spark's configKeyDef: an unquoted key is letters, digits, '_', '.' and ':'.
  bool valid = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':';
  });
  if (!valid) {
    return ErrorAtToken("INVALID_PROPERTY_KEY", text_, at,
                        fmt::format("\"{}\" is an invalid property key, please use quotes, "
                                    "e.g. SET `{}`=`value`",
                                    key, key));
  }
  return std::string(key);
}

Result<Statement> Parser::ParseSet(const Mark& start) {
  Token first;
  ARROW_ASSIGN_OR_RAISE(std::string_view raw, TakeRawRemainder(&first));
  SetConfig set;
  if (raw == "-v") {
    set.verbose = true;
  } else if (!raw.empty()) {
    // The key ends at the first '=' outside backquotes.
    size_t equals = std::string_view::npos;
    bool quoted = false;
    for (size_t i = 0; i < raw.size() && equals == std::string_view::npos; ++i) {
      if (raw[i] == '`') quoted = !quoted;
      if (raw[i] == '=' && !quoted) equals = i;
    }
    ARROW_ASSIGN_OR_RAISE(set.key, ConfigKey(raw.substr(0, equals), first));
    if (equals != std::string_view::npos) set.value = std::string(Trim(raw.substr(equals + 1)));
  }
  return Statement{start.pos, std::move(set)};
}

Result<Statement> Parser::ParseReset(const Mark& start) {
  Token first;
  ARROW_ASSIGN_OR_RAISE(std::string_view raw, TakeRawRemainder(&first));
  ResetConfig reset;
  if (!raw.empty()) {
    ARROW_ASSIGN_OR_RAISE(reset.key, ConfigKey(raw, first));
  }
  return Statement{start.pos, std::move(reset)};
}

Result<Statement> Parser::ParseExplain(const Mark& start) {
  Explain explain;
  if (AcceptWord("EXTENDED")) {
    explain.mode = ExplainMode::kExtended;
  } else if (AcceptWord("FORMATTED")) {
    explain.mode = ExplainMode::kFormatted;
  } else if (AcceptWord("CODEGEN")) {
    explain.mode = ExplainMode::kCodegen;
  } else if (AcceptWord("COST")) {
    explain.mode = ExplainMode::kCost;
  } else if (AcceptWord("ANALYZE")) {
    explain.mode = ExplainMode::kAnalyze;
  }
  ARROW_ASSIGN_OR_RAISE(Statement inner, ParseStatement());
  explain.statement = std::make_unique<Statement>(std::move(inner));
  return Statement{start.pos, std::move(explain)};
}

}  // namespace internal

Result<Statement> ParseStatement(std::string_view text, SourcePosition origin) {
  return internal::Parser(text, origin).ParseSingleStatement();
}

Result<ExprPtr> ParseExpression(std::string_view text) {
  return internal::Parser(text, SourcePosition{}).ParseSingleExpression();
}

Result<QualifiedName> ParseTableName(std::string_view text) {
  return internal::Parser(text, SourcePosition{}).ParseSingleQualifiedName();
}

Result<TypeName> ParseSchema(std::string_view text) {
  return internal::Parser(text, SourcePosition{}).ParseSingleSchema();
}

Result<std::vector<StatementText>> SplitStatements(std::string_view script) {
  std::vector<Token> tokens = Tokenize(script);
  std::vector<StatementText> statements;
  const Token* first = nullptr;
  const Token* last = nullptr;
  for (const Token& token : tokens) {
    if (token.kind != TokenKind::kEnd && !token.IsOperator(";")) {
      if (first == nullptr) first = &token;
      last = &token;
      continue;
    }
    if (first != nullptr) {
      statements.push_back(StatementText{
          std::string(script.substr(first->begin, last->end - first->begin)), first->pos});
    }
    first = last = nullptr;
  }
  return statements;
}

}  // namespace parley::sql
