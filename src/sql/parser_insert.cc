// INSERT, TRUNCATE and partition-spec productions of the recursive-descent parser.
//
// INSERT follows Spark's insertInto rules: INTO or OVERWRITE, an optional TABLE, the target
// (any qualified name, path tables such as parquet.`/dir` included), an optional PARTITION spec
// (with IF NOT EXISTS only after INSERT OVERWRITE's spec), then at most one of a column list and
// BY NAME, then any query. A '(' after the target opens the column list unless a query starts
// inside it, as in INSERT INTO t (SELECT ...). Like Spark's AstBuilder, the parser refuses IF NOT
// EXISTS over dynamic partition columns and a partition column named twice.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sql/parser_internal.h"

namespace parley::sql::internal {

Result<Statement> Parser::ParseInsert(const Mark& start) {
  Insert insert;
  if (AcceptWord("OVERWRITE")) {
    insert.overwrite = true;
  } else {
    RETURN_NOT_OK(ExpectWord("INTO"));
  }
  // TABLE is optional, so it is the keyword only when a name follows it.
  if (PeekWord("TABLE") && IsIdentifier(Peek(1), /*allow_reserved=*/false)) Next();
  ARROW_ASSIGN_OR_RAISE(insert.table, ParseQualifiedName());
  if (!insert.overwrite && PeekWord("REPLACE") && PeekWord("WHERE", 1)) {
    Next();
    Next();
    ARROW_ASSIGN_OR_RAISE(insert.replace_where, ParseExpression());
  } else if (AcceptWord("PARTITION")) {
    ARROW_ASSIGN_OR_RAISE(insert.partition_spec, ParsePartitionSpec());
    if (insert.overwrite && PeekWord("IF")) {
      const Token& if_token = Peek();
      if (!AcceptIfNotExists()) return Unexpected();
      insert.if_not_exists = true;
      std::vector<std::string> dynamic;
      for (const PartitionSpecItem& item : insert.partition_spec) {
        if (!item.value) dynamic.push_back(item.column);
      }
      if (!dynamic.empty()) {
        return ErrorAt("_LEGACY_ERROR_TEMP_0035", if_token,
                       fmt::format("Operation not allowed: IF NOT EXISTS with dynamic "
                                   "partitions: {}",
                                   fmt::join(dynamic, ", ")));
      }
    }
  }
  if (PeekWord("BY") && PeekWord("NAME", 1)) {
    Next();
    Next();
    insert.by_name = true;
  } else if (PeekOperator("(") && !PeekQueryStart(1) && !PeekOperator("(", 1)) {
    ARROW_ASSIGN_OR_RAISE(insert.columns, ParseIdentifierList());
  }
  if (!PeekQueryStart() && !PeekOperator("(")) return Unexpected();
  ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
  insert.query = std::make_unique<SelectStatement>(std::move(query));
  return Statement{start.pos, std::move(insert)};
}

Result<Statement> Parser::ParseTruncate(const Mark& start) {
  RETURN_NOT_OK(ExpectWord("TABLE"));
  TruncateTable truncate;
  ARROW_ASSIGN_OR_RAISE(truncate.name, ParseQualifiedName());
  if (AcceptWord("PARTITION")) {
    ARROW_ASSIGN_OR_RAISE(truncate.partition_spec, ParsePartitionSpec());
  }
  return Statement{start.pos, std::move(truncate)};
}

Result<std::vector<PartitionSpecItem>> Parser::ParsePartitionSpec() {
  RETURN_NOT_OK(ExpectOperator("("));
  std::vector<PartitionSpecItem> items;
  do {
    PartitionSpecItem item;
    const Token& column = Peek();
    item.pos = column.pos;
    ARROW_ASSIGN_OR_RAISE(item.column, ParseIdentifier());
    for (const PartitionSpecItem& earlier : items) {
      if (earlier.column == item.column) return DuplicateKeyError(item.column, column);
    }
    if (AcceptOperator("=")) {
      ARROW_ASSIGN_OR_RAISE(item.value, ParseConstant());
    }
    items.push_back(std::move(item));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  return items;
}

}  // namespace parley::sql::internal
