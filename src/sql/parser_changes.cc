// The CHANGES clause of a table reference: a change read of the table.
//
//   name CHANGES FROM bound [TO bound] [WITH (key = 'value', ...)]
//   bound := { VERSION | SYSTEM_VERSION } { integer | 'string' } [INCLUSIVE | EXCLUSIVE]
//          | TIMESTAMP 'text' [INCLUSIVE | EXCLUSIVE]
// CHANGES starts the clause only when FROM follows, so `t changes` still aliases t. The change
// reader of the embedding API names its table as text, parsed here too.
#include "sql/parser_internal.h"

namespace parley::sql::internal {

Result<std::optional<ChangesClause>> Parser::ParseOptionalChanges() {
  if (!PeekWord("CHANGES") || !PeekWord("FROM", 1)) return std::nullopt;
  ChangesClause clause;
  clause.pos = Next().pos;
  Next();
  ARROW_ASSIGN_OR_RAISE(clause.from, ParseChangesBound());
  if (AcceptWord("TO")) {
    ARROW_ASSIGN_OR_RAISE(clause.to, ParseChangesBound());
  }
  if (PeekWord("WITH") && PeekOperator("(", 1)) {
    Next();
    ARROW_ASSIGN_OR_RAISE(clause.options, ParsePropertyList(PropertyValues::kRequired));
  }
  return clause;
}

Result<ChangesBound> Parser::ParseChangesBound() {
  ChangesBound bound;
  bound.pos = Peek().pos;
  if (AcceptWord("TIMESTAMP")) {
    bound.timestamp = true;
    if (Peek().kind != TokenKind::kString) return Unexpected();
    bound.value = Next().value;
  } else if (AcceptWord("VERSION") || AcceptWord("SYSTEM_VERSION")) {
    if (Peek().kind != TokenKind::kString && Peek().kind != TokenKind::kInteger) {
      return Unexpected();
    }
    bound.value = Next().value;
  } else {
    return Unexpected();
  }
  if (AcceptWord("INCLUSIVE")) {
    bound.inclusive = true;
  } else if (AcceptWord("EXCLUSIVE")) {
    bound.inclusive = false;
  }
  return bound;
}

Result<QualifiedName> Parser::ParseSingleQualifiedName() {
  ARROW_ASSIGN_OR_RAISE(QualifiedName name, ParseQualifiedName());
  if (Peek().kind != TokenKind::kEnd) return Unexpected();
  return name;
}

Result<TypeName> Parser::ParseSingleSchema() {
  // A column list is a name followed by a type; a type alone is one word, perhaps with <...>
  // or (...) after it.
  const bool column_list = IsIdentifier(Peek(), /*allow_reserved=*/true) &&
                           Peek(1).kind != TokenKind::kEnd && !PeekOperator("<", 1) &&
                           !PeekOperator("(", 1);
  TypeName type;
  if (column_list) {
    type.name = "STRUCT";
    while (true) {
      type.field_names.push_back(Next().value);
      AcceptOperator(":");
      ARROW_ASSIGN_OR_RAISE(auto field, ParseType());
      if (PeekWord("NOT") && PeekWord("NULL", 1)) {
        Next();
        Next();
      }
      if (AcceptWord("COMMENT")) Next();
      type.children.push_back(std::move(field));
      if (!AcceptOperator(",")) break;
    }
  } else {
    ARROW_ASSIGN_OR_RAISE(type, ParseType());
  }
  if (Peek().kind != TokenKind::kEnd) return Unexpected();
  return type;
}

}  // namespace parley::sql::internal
