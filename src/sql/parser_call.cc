// CALL, SHOW PROCEDURES and DESCRIBE PROCEDURE, and Delta's commands, which are calls written
// another way: DESCRIBE HISTORY, DESCRIBE DETAIL and VACUUM.
#include "sql/parser_internal.h"

namespace parley::sql::internal {
namespace {

// The constant argument of a command's clause, as if the call had been written out.
ExprPtr Literal(LiteralKind kind, std::string text, SourcePosition pos) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kLiteral;
  expr->literal_kind = kind;
  expr->pos = pos;
  expr->source_text = text;
  expr->text = std::move(text);
  return expr;
}

// The call of `system.<procedure>` in `table`'s catalog that a command stands for.
Statement CommandCall(SourcePosition pos, std::string command, std::string procedure,
                      QualifiedName table) {
  Call call;
  call.procedure = QualifiedName{{"system", std::move(procedure)}, pos};
  call.table = std::move(table);
  call.command = std::move(command);
  return Statement{pos, std::move(call)};
}

}  // namespace

Result<Statement> Parser::ParseCall(const Mark& start) {
  Call call;
  ARROW_ASSIGN_OR_RAISE(call.procedure, ParseQualifiedName());
  RETURN_NOT_OK(ExpectOperator("("));
  if (!AcceptOperator(")")) {
    do {
      CallArgument argument;
      // Any word names a parameter before `=>`, reserved ones too (limit => 10).
      if (IsIdentifier(Peek(), /*allow_reserved=*/true) && PeekOperator("=>", 1)) {
        argument.name = Next().value;
        Next();
      }
      ARROW_ASSIGN_OR_RAISE(argument.value, ParseExpression());
      call.args.push_back(std::move(argument));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  return Statement{start.pos, std::move(call)};
}

Result<Statement> Parser::ParseShowProcedures(const Mark& start) {
  ShowProcedures show;
  if (AcceptWord("FROM") || AcceptWord("IN")) {
    ARROW_ASSIGN_OR_RAISE(show.namespace_name, ParseQualifiedName());
  }
  return Statement{start.pos, std::move(show)};
}

Result<Statement> Parser::ParseDescribeProcedure(const Mark& start) {
  DescribeProcedure describe;
  ARROW_ASSIGN_OR_RAISE(describe.procedure, ParseQualifiedName());
  return Statement{start.pos, std::move(describe)};
}

Result<Statement> Parser::ParseDescribeHistory(const Mark& start) {
  ARROW_ASSIGN_OR_RAISE(QualifiedName table, ParseQualifiedName());
  Statement statement =
      CommandCall(start.pos, "DESCRIBE HISTORY", "describe_history", std::move(table));
  if (AcceptWord("LIMIT")) {
    const Token& limit = Peek();
    if (limit.kind != TokenKind::kInteger ||
        limit.value.find_first_not_of("0123456789") != std::string::npos) {
      return Unexpected();
    }
    std::get<Call>(statement.node)
        .args.push_back({"limit", Literal(LiteralKind::kInteger, limit.value, limit.pos)});
    Next();
  }
  return statement;
}

Result<Statement> Parser::ParseDescribeDetail(const Mark& start) {
  ARROW_ASSIGN_OR_RAISE(QualifiedName table, ParseQualifiedName());
  return CommandCall(start.pos, "DESCRIBE DETAIL", "describe_detail", std::move(table));
}

Result<Statement> Parser::ParseVacuum(const Mark& start) {
  ARROW_ASSIGN_OR_RAISE(QualifiedName table, ParseQualifiedName());
  Statement statement = CommandCall(start.pos, "VACUUM", "vacuum", std::move(table));
  auto& args = std::get<Call>(statement.node).args;
  if (AcceptWord("RETAIN")) {
    const Token& number = Peek();
    if (number.kind != TokenKind::kInteger && number.kind != TokenKind::kDecimal) {
      return Unexpected();
    }
    LiteralKind kind =
        number.kind == TokenKind::kInteger ? LiteralKind::kInteger : LiteralKind::kDecimal;
    args.push_back({"retention_hours", Literal(kind, number.value, number.pos)});
    Next();
    RETURN_NOT_OK(ExpectWord("HOURS"));
  }
  if (AcceptWord("DRY")) {
    const SourcePosition pos = Peek().pos;
    RETURN_NOT_OK(ExpectWord("RUN"));
    args.push_back({"dry_run", Literal(LiteralKind::kBoolean, "true", pos)});
  }
  return statement;
}

}  // namespace parley::sql::internal
