// CREATE FUNCTION and DROP FUNCTION: SQL functions, scalar and table-valued.
#include "sql/parser_internal.h"

namespace parley::sql::internal {

Status Parser::ParseCallArgument(std::vector<ExprPtr>* arguments, std::vector<std::string>* names) {
  std::string name;
  // Any word names a parameter before `=>`, reserved ones too.
  if (IsIdentifier(Peek(), /*allow_reserved=*/true) && PeekOperator("=>", 1)) {
    name = Next().value;
    Next();
  }
  ARROW_ASSIGN_OR_RAISE(ExprPtr argument, ParseLambdaOrExpression());
  if (!name.empty() && names->size() < arguments->size()) names->resize(arguments->size());
  if (!name.empty() || !names->empty()) names->push_back(std::move(name));
  arguments->push_back(std::move(argument));
  return Status::OK();
}

Result<ExprPtr> Parser::ParseLambdaOrExpression() {
  // `x -> body` or `(x, y, ...) -> body`.
  size_t params = 0;
  if (IsIdentifier(Peek(), /*allow_reserved=*/false) && PeekOperator("->", 1)) {
    params = 1;
  } else if (PeekOperator("(")) {
    size_t ahead = 1;
    while (IsIdentifier(Peek(ahead), /*allow_reserved=*/true) &&
           (PeekOperator(",", ahead + 1) || PeekOperator(")", ahead + 1))) {
      ++params;
      if (PeekOperator(")", ahead + 1)) break;
      ahead += 2;
    }
    if (params == 0 || !PeekOperator("->", 2 * params + 1)) params = 0;
  }
  if (params == 0) return ParseExpression();
  Mark start = Here();
  auto lambda = std::make_unique<Expr>();
  lambda->kind = ExprKind::kLambda;
  bool parenthesized = AcceptOperator("(");
  for (size_t i = 0; i < params; ++i) {
    lambda->name_parts.push_back(Next().value);
    if (parenthesized) Next();  // ',' or ')'
  }
  RETURN_NOT_OK(ExpectOperator("->"));
  ARROW_ASSIGN_OR_RAISE(ExprPtr body, ParseExpression());
  lambda->children.push_back(std::move(body));
  return Close(std::move(lambda), start);
}

Result<Statement> Parser::ParseCreateFunction(const Mark& start, bool replace) {
  CreateFunction function;
  function.replace = replace;
  const Token& temporary = Peek();
  function.temporary = AcceptWord("TEMPORARY");
  RETURN_NOT_OK(ExpectWord("FUNCTION"));
  const Token& if_token = Peek();
  function.if_not_exists = AcceptIfNotExists();
  if (function.if_not_exists && replace) {
    return ErrorAt("INVALID_SQL_SYNTAX.CREATE_ROUTINE_WITH_IF_NOT_EXISTS_AND_REPLACE", if_token,
                   "Invalid SQL syntax: Cannot create a routine with both IF NOT EXISTS and "
                   "REPLACE specified");
  }
  if (function.if_not_exists && function.temporary) {
    return ErrorAt("INVALID_SQL_SYNTAX.CREATE_TEMP_FUNC_WITH_IF_NOT_EXISTS", temporary,
                   "Invalid SQL syntax: CREATE TEMPORARY FUNCTION with IF NOT EXISTS is not "
                   "allowed");
  }
  ARROW_ASSIGN_OR_RAISE(function.name, ParseQualifiedName());
  RETURN_NOT_OK(ExpectOperator("("));
  if (!AcceptOperator(")")) {
    ARROW_ASSIGN_OR_RAISE(function.parameters, ParseColumnDefinitions(/*in_alter=*/false));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  if (AcceptWord("RETURNS")) {
    if (AcceptWord("TABLE")) {
      function.returns_table = true;
      if (AcceptOperator("(")) {
        ARROW_ASSIGN_OR_RAISE(function.return_columns, ParseColumnDefinitions(false));
        RETURN_NOT_OK(ExpectOperator(")"));
      }
    } else {
      ARROW_ASSIGN_OR_RAISE(function.return_type, ParseType());
    }
  }
  while (!PeekWord("RETURN")) {
    if (AcceptWord("COMMENT")) {
      if (function.comment) return Unexpected();
      ARROW_ASSIGN_OR_RAISE(function.comment, ParseStringLiteral());
    } else if (AcceptWord("DETERMINISTIC")) {
      function.deterministic = true;
    } else if (AcceptWord("NOT")) {
      RETURN_NOT_OK(ExpectWord("DETERMINISTIC"));
      function.deterministic = false;
    } else if (AcceptWord("LANGUAGE")) {
      RETURN_NOT_OK(ExpectWord("SQL"));
    } else if (AcceptWord("CONTAINS")) {
      RETURN_NOT_OK(ExpectWord("SQL"));
      function.data_access = "CONTAINS SQL";
    } else if (AcceptWord("READS")) {
      RETURN_NOT_OK(ExpectWord("SQL"));
      RETURN_NOT_OK(ExpectWord("DATA"));
      function.data_access = "READS SQL DATA";
    } else if (AcceptWord("SQL")) {
      RETURN_NOT_OK(ExpectWord("SECURITY"));
      RETURN_NOT_OK(ExpectWord("DEFINER"));
    } else {
      return Unexpected();
    }
  }
  Next();
  const Mark body_start = Here();
  if (PeekQueryStart()) {
    ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
    function.body_query = std::make_unique<SelectStatement>(std::move(query));
  } else {
    ARROW_ASSIGN_OR_RAISE(function.body_expr, ParseExpression());
  }
  function.body_text = std::string(SourceFrom(body_start));
  return Statement{start.pos, std::move(function)};
}

Result<Statement> Parser::ParseDropFunction(const Mark& start) {
  DropFunction drop;
  drop.temporary = AcceptWord("TEMPORARY");
  RETURN_NOT_OK(ExpectWord("FUNCTION"));
  drop.if_exists = AcceptIfExists();
  ARROW_ASSIGN_OR_RAISE(drop.name, ParseQualifiedName());
  return Statement{start.pos, std::move(drop)};
}

}  // namespace parley::sql::internal
