// DELETE, UPDATE and MERGE productions of the recursive-descent parser, as Spark's grammar:
//
//   DELETE FROM name [[AS] alias] [WHERE condition]
//   UPDATE name [[AS] alias] SET column = value, ... [WHERE condition]
//   MERGE INTO name [[AS] alias] USING (table | (query)) [[AS] alias] ON condition
//     WHEN MATCHED [AND condition] THEN (UPDATE SET column = value, ... | UPDATE SET * | DELETE)
//     WHEN NOT MATCHED [BY TARGET] [AND condition] THEN (INSERT (columns) VALUES (...) | INSERT *)
//     WHEN NOT MATCHED BY SOURCE [AND condition] THEN (UPDATE SET ... | DELETE)
//
// A column of an assignment may be qualified (`t.c`). SET is not taken as UPDATE's alias. A MERGE
// needs at least one WHEN clause, only the last clause of each kind may omit its condition, and
// an INSERT's column list and values have the same length.
#include <fmt/format.h>

#include "sql/parser_internal.h"

namespace parley::sql::internal {

Result<Statement> Parser::ParseDelete(const Mark& start) {
  RETURN_NOT_OK(ExpectWord("FROM"));
  DeleteFrom statement;
  ARROW_ASSIGN_OR_RAISE(statement.table, ParseQualifiedName());
  ARROW_ASSIGN_OR_RAISE(statement.alias, ParseOptionalAlias());
  if (AcceptWord("WHERE")) {
    ARROW_ASSIGN_OR_RAISE(statement.condition, ParseExpression());
  }
  return Statement{start.pos, std::move(statement)};
}

Result<std::vector<Assignment>> Parser::ParseAssignments() {
  std::vector<Assignment> assignments;
  do {
    Assignment assignment;
    assignment.pos = Peek().pos;
    do {
      ARROW_ASSIGN_OR_RAISE(std::string part, ParseIdentifier());
      assignment.column.push_back(std::move(part));
    } while (AcceptOperator("."));
    RETURN_NOT_OK(ExpectOperator("="));
    ARROW_ASSIGN_OR_RAISE(assignment.value, ParseExpression());
    assignments.push_back(std::move(assignment));
  } while (AcceptOperator(","));
  return assignments;
}

Result<Statement> Parser::ParseUpdate(const Mark& start) {
  Update statement;
  ARROW_ASSIGN_OR_RAISE(statement.table, ParseQualifiedName());
  if (!PeekWord("SET")) {
    ARROW_ASSIGN_OR_RAISE(statement.alias, ParseOptionalAlias());
  }
  RETURN_NOT_OK(ExpectWord("SET"));
  ARROW_ASSIGN_OR_RAISE(statement.assignments, ParseAssignments());
  if (AcceptWord("WHERE")) {
    ARROW_ASSIGN_OR_RAISE(statement.condition, ParseExpression());
  }
  return Statement{start.pos, std::move(statement)};
}

Result<MergeClause> Parser::ParseMergeClause(const Token& when) {
  MergeClause clause;
  clause.pos = when.pos;
  if (AcceptWord("NOT")) {
    RETURN_NOT_OK(ExpectWord("MATCHED"));
    clause.match = MergeClause::Match::kNotMatchedByTarget;
    if (AcceptWord("BY")) {
      if (AcceptWord("SOURCE")) {
        clause.match = MergeClause::Match::kNotMatchedBySource;
      } else {
        RETURN_NOT_OK(ExpectWord("TARGET"));
      }
    }
  } else {
    RETURN_NOT_OK(ExpectWord("MATCHED"));
  }
  if (AcceptWord("AND")) {
    ARROW_ASSIGN_OR_RAISE(clause.condition, ParseExpression());
  }
  RETURN_NOT_OK(ExpectWord("THEN"));
  const bool by_target = clause.match == MergeClause::Match::kNotMatchedByTarget;
  if (!by_target && AcceptWord("DELETE")) {
    clause.action = MergeClause::Action::kDelete;
  } else if (!by_target && AcceptWord("UPDATE")) {
    RETURN_NOT_OK(ExpectWord("SET"));
    if (clause.match == MergeClause::Match::kMatched && AcceptOperator("*")) {
      clause.action = MergeClause::Action::kUpdateStar;
    } else {
      clause.action = MergeClause::Action::kUpdate;
      ARROW_ASSIGN_OR_RAISE(clause.assignments, ParseAssignments());
    }
  } else if (by_target && AcceptWord("INSERT")) {
    if (AcceptOperator("*")) {
      clause.action = MergeClause::Action::kInsertStar;
      return clause;
    }
    clause.action = MergeClause::Action::kInsert;
    ARROW_ASSIGN_OR_RAISE(clause.insert_columns, ParseIdentifierList());
    const Token& values = Peek();
    RETURN_NOT_OK(ExpectWord("VALUES"));
    RETURN_NOT_OK(ExpectOperator("("));
    do {
      ARROW_ASSIGN_OR_RAISE(auto value, ParseExpression());
      clause.insert_values.push_back(std::move(value));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    if (clause.insert_columns.size() != clause.insert_values.size()) {
      return ErrorAt("_LEGACY_ERROR_TEMP_0006", values,
                     fmt::format("The number of inserted values cannot match the fields: {} "
                                 "columns, {} values.",
                                 clause.insert_columns.size(), clause.insert_values.size()));
    }
  } else {
    return Unexpected();
  }
  return clause;
}

Result<Statement> Parser::ParseMerge(const Mark& start) {
  RETURN_NOT_OK(ExpectWord("INTO"));
  Merge statement;
  ARROW_ASSIGN_OR_RAISE(statement.target, ParseQualifiedName());
  ARROW_ASSIGN_OR_RAISE(statement.target_alias, ParseOptionalAlias());
  RETURN_NOT_OK(ExpectWord("USING"));
  ARROW_ASSIGN_OR_RAISE(statement.source, ParseRelationPrimary());
  RETURN_NOT_OK(ExpectWord("ON"));
  ARROW_ASSIGN_OR_RAISE(statement.condition, ParseExpression());
  std::vector<const Token*> whens;
  while (PeekWord("WHEN")) {
    const Token& when = Next();
    whens.push_back(&when);
    ARROW_ASSIGN_OR_RAISE(auto clause, ParseMergeClause(when));
    statement.clauses.push_back(std::move(clause));
  }
  if (statement.clauses.empty()) {
    return ErrorAt("MERGE_WITHOUT_WHEN", Peek(),
                   "There must be at least one WHEN clause in a MERGE statement.");
  }
  // Only the last clause of each kind may omit its condition.
  using Match = MergeClause::Match;
  for (auto match : {Match::kMatched, Match::kNotMatchedByTarget, Match::kNotMatchedBySource}) {
    static const char* kConditions[] = {"NON_LAST_MATCHED_CLAUSE_OMIT_CONDITION",
                                        "NON_LAST_NOT_MATCHED_BY_TARGET_CLAUSE_OMIT_CONDITION",
                                        "NON_LAST_NOT_MATCHED_BY_SOURCE_CLAUSE_OMIT_CONDITION"};
    static const char* kNames[] = {"MATCHED", "NOT MATCHED [BY TARGET]", "NOT MATCHED BY SOURCE"};
    bool unconditional = false;
    for (size_t i = 0; i < statement.clauses.size(); ++i) {
      const auto& clause = statement.clauses[i];
      if (clause.match != match) continue;
      if (unconditional) {
        const int kind = static_cast<int>(match);
        return ErrorAt(kConditions[kind], *whens[i],
                       fmt::format("When there are more than one {0} clauses in a MERGE "
                                   "statement, only the last {0} clause can omit the condition.",
                                   kNames[kind]));
      }
      unconditional = !clause.condition;
    }
  }
  return Statement{start.pos, std::move(statement)};
}

}  // namespace parley::sql::internal
