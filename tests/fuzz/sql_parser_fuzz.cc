// Fuzz target: the SQL lexer, statement splitter and parser.
#include <string_view>
#include <variant>

#include "fuzz_targets.h"
#include "sql/ast_printer.h"
#include "sql/parser.h"

namespace parley::fuzz {

void FuzzSqlParser(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto statements = sql::SplitStatements(text);
  if (statements.ok()) {
    for (const StatementText& statement : *statements) {
      auto parsed = sql::ParseStatement(statement.text, statement.start);
      if (!parsed.ok()) continue;
      if (const auto* query = std::get_if<sql::SelectStatement>(&parsed->node)) {
        (void)sql::ToString(*query);
      }
    }
  }
  auto expression = sql::ParseExpression(text);
  if (expression.ok()) (void)sql::ToString(**expression);
  (void)sql::ParseTableName(text);
}

}  // namespace parley::fuzz
