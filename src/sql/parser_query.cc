// Query productions of the recursive-descent parser: WITH, set operations, SELECT and its
// clauses (GROUP BY, HAVING, WINDOW), VALUES, ORDER BY / LIMIT / OFFSET, and the window
// specifications that OVER shares. The FROM clause is in parser_from.cc.
//
// The layers follow Spark's SqlBaseParser.g4 with legacy set-operation precedence off: query
// (WITH and the result clauses) -> UNION, EXCEPT, MINUS -> INTERSECT -> queryPrimary (SELECT,
// VALUES, '(' query ')'). Result clauses written after a parenthesised query are merged into it
// when they apply after all of its own (ORDER BY, then OFFSET, then LIMIT), which gives the plan
// Spark builds either way; otherwise they wrap it in a kNested query. `GROUP BY a, b WITH
// ROLLUP` becomes ROLLUP(a, b) here, as in Spark's AstBuilder, while the Hive form
// `GROUP BY a, b GROUPING SETS (...)` keeps its expression list because it means something
// different. Spark's parse-time checks on these clauses (duplicate CTE and window names) are
// made here too.
#include <fmt/format.h>

#include <algorithm>

#include "sql/parser_internal.h"

namespace parley::sql::internal {
namespace {

// The result clauses apply in the order ORDER BY, OFFSET, LIMIT (Spark's plan is
// Limit(Offset(Sort(...)))). The stage of the first and last one `query` has, or -1 for none.
int FirstResultClause(const std::vector<OrderItem>& order_by, const ExprPtr& offset,
                      const ExprPtr& limit) {
  return !order_by.empty() ? 0 : offset ? 1 : limit ? 2 : -1;
}
int LastResultClause(const SelectStatement& query) {
  return query.limit ? 2 : query.offset ? 1 : !query.order_by.empty() ? 0 : -1;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return UpperCase(a) == UpperCase(b);
}

SelectStatement MakeSetOperation(SetOperator op, bool all, SourcePosition pos, SelectStatement left,
                                 SelectStatement right) {
  SelectStatement query;
  query.pos = left.pos;
  query.kind = QueryKind::kSetOperation;
  query.set_operation = std::make_unique<SetOperation>();
  query.set_operation->pos = pos;
  query.set_operation->op = op;
  query.set_operation->all = all;
  query.set_operation->left = std::make_unique<SelectStatement>(std::move(left));
  query.set_operation->right = std::make_unique<SelectStatement>(std::move(right));
  return query;
}

}  // namespace

bool Parser::PeekQueryStart(size_t ahead) const {
  if (PeekWord("SELECT", ahead) || PeekWord("WITH", ahead)) return true;
  if (!PeekWord("VALUES", ahead)) return false;
  // VALUES is not reserved: it starts an inline table only when a row follows.
  const Token& next = Peek(ahead + 1);
  switch (next.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
    case TokenKind::kString:
    case TokenKind::kBinaryString: return true;
    case TokenKind::kOperator:
      return next.IsOperator("(") || next.IsOperator("-") || next.IsOperator("+");
    case TokenKind::kWord:
      return next.IsWord("NULL") || next.IsWord("TRUE") || next.IsWord("FALSE");
    default: return false;
  }
}

Result<SelectStatement> Parser::ParseQuery() {
  Nesting nesting(this, kNestingWeight);
  RETURN_NOT_OK(CheckNesting());
  Mark start = Here();
  std::vector<CommonTableExpr> with;
  if (PeekWord("WITH")) {
    ARROW_ASSIGN_OR_RAISE(with, ParseWith());
  }
  ARROW_ASSIGN_OR_RAISE(SelectStatement body, ParseUnionTerm());
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
  if (AcceptWord("ORDER")) {
    RETURN_NOT_OK(ExpectWord("BY"));
    ARROW_ASSIGN_OR_RAISE(order_by, ParseOrderItems());
  }
  if (AcceptWord("LIMIT") && !AcceptWord("ALL")) {
    ARROW_ASSIGN_OR_RAISE(limit, ParseExpression());
  }
  if (AcceptWord("OFFSET")) {
    ARROW_ASSIGN_OR_RAISE(offset, ParseExpression());
  }
  // Clauses that apply after all of the body's own can join them: (... ORDER BY a) LIMIT 1 is
  // ... ORDER BY a LIMIT 1. Others need a query of their own: (... LIMIT 5) ORDER BY a.
  int first = FirstResultClause(order_by, offset, limit);
  bool has_clauses = first >= 0;
  if ((has_clauses && first <= LastResultClause(body)) || (!with.empty() && !body.with.empty())) {
    SelectStatement outer;
    outer.pos = start.pos;
    outer.kind = QueryKind::kNested;
    outer.nested = std::make_unique<SelectStatement>(std::move(body));
    body = std::move(outer);
  }
  if (!with.empty()) {
    body.pos = start.pos;
    body.with = std::move(with);
  }
  if (!order_by.empty()) body.order_by = std::move(order_by);
  if (offset) body.offset = std::move(offset);
  if (limit) body.limit = std::move(limit);
  return body;
}

Result<std::vector<CommonTableExpr>> Parser::ParseWith() {
  RETURN_NOT_OK(ExpectWord("WITH"));
  // WITH RECURSIVE name ...: RECURSIVE is a CTE's name only when AS or '(' follows it.
  const Token& after = Peek(1);
  if (PeekWord("RECURSIVE") &&
      (after.kind == TokenKind::kWord || after.kind == TokenKind::kQuotedIdentifier) &&
      !after.IsWord("AS")) {
    return ErrorAt("UNSUPPORTED_FEATURE.RECURSIVE_CTE", Peek(),
                   "The feature is not supported: recursive common table expressions "
                   "(WITH RECURSIVE).");
  }
  std::vector<CommonTableExpr> ctes;
  do {
    CommonTableExpr cte;
    const Token& name_token = Peek();
    cte.pos = name_token.pos;
    ARROW_ASSIGN_OR_RAISE(cte.name, ParseIdentifier());
    for (const CommonTableExpr& earlier : ctes) {
      if (EqualsIgnoringCase(earlier.name, cte.name)) {
        return ErrorAt("DUPLICATED_CTE_NAMES", name_token,
                       fmt::format("CTE definition can't have duplicate names: `{}`", cte.name));
      }
    }
    // `name (a, b) AS (query)`, or without AS: `name (query)`.
    if (PeekOperator("(") && !PeekQueryStart(1) && !PeekOperator("(", 1)) {
      ARROW_ASSIGN_OR_RAISE(cte.column_aliases, ParseIdentifierList());
    }
    AcceptWord("AS");
    ARROW_ASSIGN_OR_RAISE(cte.query, ParseParenthesizedQuery());
    ctes.push_back(std::move(cte));
  } while (AcceptOperator(","));
  return ctes;
}

Result<SelectStatement> Parser::ParseUnionTerm() {
  ARROW_ASSIGN_OR_RAISE(SelectStatement left, ParseIntersectTerm());
  Nesting chain(this, 0);
  while (PeekWord("UNION") || PeekWord("EXCEPT") || PeekWord("MINUS")) {
    const Token& keyword = Next();
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    SetOperator op = keyword.IsWord("UNION") ? SetOperator::kUnion : SetOperator::kExcept;
    bool all = AcceptWord("ALL");
    if (!all) AcceptWord("DISTINCT");
    ARROW_ASSIGN_OR_RAISE(SelectStatement right, ParseIntersectTerm());
    left = MakeSetOperation(op, all, keyword.pos, std::move(left), std::move(right));
  }
  return left;
}

Result<SelectStatement> Parser::ParseIntersectTerm() {
  ARROW_ASSIGN_OR_RAISE(SelectStatement left, ParseQueryPrimary());
  Nesting chain(this, 0);
  while (PeekWord("INTERSECT")) {
    const Token& keyword = Next();
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    bool all = AcceptWord("ALL");
    if (!all) AcceptWord("DISTINCT");
    ARROW_ASSIGN_OR_RAISE(SelectStatement right, ParseQueryPrimary());
    left = MakeSetOperation(SetOperator::kIntersect, all, keyword.pos, std::move(left),
                            std::move(right));
  }
  return left;
}

Result<SelectStatement> Parser::ParseQueryPrimary() {
  if (PeekWord("SELECT")) return ParseQuerySpecification();
  if (PeekWord("VALUES") && PeekQueryStart()) {
    SelectStatement query;
    query.pos = Peek().pos;
    query.kind = QueryKind::kValues;
    ARROW_ASSIGN_OR_RAISE(query.values, ParseInlineTable(/*with_alias=*/true));
    return query;
  }
  if (PeekOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(std::unique_ptr<SelectStatement> query, ParseParenthesizedQuery());
    return std::move(*query);
  }
  return Unexpected();
}

Result<std::unique_ptr<SelectStatement>> Parser::ParseParenthesizedQuery() {
  struct ParenthesizedQuery {};
  return RememberFailure<std::unique_ptr<SelectStatement>, ParenthesizedQuery>(
      [&]() -> Result<std::unique_ptr<SelectStatement>> {
        RETURN_NOT_OK(ExpectOperator("("));
        ARROW_ASSIGN_OR_RAISE(SelectStatement query, ParseQuery());
        RETURN_NOT_OK(ExpectOperator(")"));
        return std::make_unique<SelectStatement>(std::move(query));
      });
}

Result<SelectStatement> Parser::ParseQuerySpecification() {
  SelectStatement select;
  select.pos = Peek().pos;
  RETURN_NOT_OK(ExpectWord("SELECT"));
  if (AcceptWord("DISTINCT")) {
    select.distinct = true;
  } else {
    AcceptWord("ALL");
  }
  do {
    ARROW_ASSIGN_OR_RAISE(SelectItem item, ParseSelectItem());
    select.items.push_back(std::move(item));
  } while (AcceptOperator(","));
  if (AcceptWord("FROM")) {
    ARROW_ASSIGN_OR_RAISE(select.from_item, ParseFromClause());
    const FromItem& item = *select.from_item;
    if (item.kind == FromItemKind::kTable && !item.sample && item.column_aliases.empty()) {
      select.from = TableRef{item.name, item.alias};
    }
  }
  if (AcceptWord("WHERE")) {
    ARROW_ASSIGN_OR_RAISE(select.where, ParseExpression());
  }
  if (PeekWord("GROUP")) {
    Mark start = Here();
    Next();
    ARROW_ASSIGN_OR_RAISE(select.group_by, ParseGroupBy(start));
  }
  if (AcceptWord("HAVING")) {
    ARROW_ASSIGN_OR_RAISE(select.having, ParseExpression());
  }
  if (AcceptWord("WINDOW")) {
    ARROW_ASSIGN_OR_RAISE(select.windows, ParseWindowClause());
  }
  return select;
}

Result<SelectItem> Parser::ParseSelectItem() {
  SelectItem item;
  ARROW_ASSIGN_OR_RAISE(item.expr, ParseExpression());
  if (item.expr->kind != ExprKind::kStar) {
    ARROW_ASSIGN_OR_RAISE(item.alias, ParseOptionalAlias());
  }
  return item;
}

Result<OrderItem> Parser::ParseOrderItem() {
  OrderItem item;
  ARROW_ASSIGN_OR_RAISE(item.expr, ParseExpression());
  if (AcceptWord("DESC")) {
    item.ascending = false;
  } else {
    AcceptWord("ASC");
  }
  if (AcceptWord("NULLS")) {
    if (AcceptWord("FIRST")) {
      item.nulls_first = true;
    } else {
      RETURN_NOT_OK(ExpectWord("LAST"));
      item.nulls_first = false;
    }
  }
  return item;
}

Result<std::vector<OrderItem>> Parser::ParseOrderItems() {
  std::vector<OrderItem> items;
  do {
    ARROW_ASSIGN_OR_RAISE(OrderItem item, ParseOrderItem());
    items.push_back(std::move(item));
  } while (AcceptOperator(","));
  return items;
}

// ---- VALUES ----

Result<InlineTable> Parser::ParseInlineTable(bool with_alias) {
  InlineTable table;
  table.pos = Peek().pos;
  RETURN_NOT_OK(ExpectWord("VALUES"));
  do {
    ARROW_ASSIGN_OR_RAISE(std::vector<ExprPtr> row, ParseValuesRow());
    table.rows.push_back(std::move(row));
  } while (AcceptOperator(","));
  if (with_alias) RETURN_NOT_OK(ParseTableAlias(&table.alias, &table.column_aliases));
  return table;
}

Result<std::vector<ExprPtr>> Parser::ParseValuesRow() {
  std::vector<ExprPtr> row;
  // (1, 'a') is a row of two values; (1) or (1) + 2 is one expression, parsed as such.
  if (PeekOperator("(") && !PeekQueryStart(1)) {
    State start = Save();
    Next();
    do {
      ARROW_ASSIGN_OR_RAISE(ExprPtr value, ParseExpression());
      row.push_back(std::move(value));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    if (row.size() > 1) return row;
    row.clear();
    Restore(start);
  }
  ARROW_ASSIGN_OR_RAISE(ExprPtr value, ParseExpression());
  row.push_back(std::move(value));
  return row;
}

// ---- GROUP BY ----

Result<GroupByClause> Parser::ParseGroupBy(const Mark& start) {
  RETURN_NOT_OK(ExpectWord("BY"));
  GroupByClause clause;
  clause.pos = start.pos;
  if (AcceptWord("ALL")) {
    clause.all = true;
    return clause;
  }
  bool all_plain = true;
  do {
    if (PeekGroupingAnalytics()) {
      ARROW_ASSIGN_OR_RAISE(GroupingElement element, ParseGroupingAnalytics());
      clause.elements.push_back(std::move(element));
      all_plain = false;
    } else {
      GroupingElement element;
      element.pos = Peek().pos;
      ARROW_ASSIGN_OR_RAISE(element.expr, ParseExpression());
      clause.elements.push_back(std::move(element));
    }
  } while (AcceptOperator(","));
  if (!all_plain) return clause;

  // The forms written after a plain expression list.
  if (PeekWord("WITH") && (PeekWord("ROLLUP", 1) || PeekWord("CUBE", 1))) {
    Next();
    GroupingElement analytics;
    analytics.kind = Next().IsWord("ROLLUP") ? GroupingKind::kRollup : GroupingKind::kCube;
    analytics.pos = clause.elements.front().pos;
    for (GroupingElement& element : clause.elements) {
      GroupingElement set;
      set.kind = GroupingKind::kSet;
      set.pos = element.pos;
      set.items.push_back(std::move(element.expr));
      analytics.children.push_back(std::move(set));
    }
    clause.elements.clear();
    clause.elements.push_back(std::move(analytics));
  } else if (PeekWord("GROUPING") && PeekWord("SETS", 1)) {
    GroupingElement sets;
    sets.kind = GroupingKind::kGroupingSets;
    sets.pos = Peek().pos;
    Next();
    Next();
    ARROW_ASSIGN_OR_RAISE(sets.children, ParseGroupingSets());
    for (GroupingElement& element : clause.elements) sets.items.push_back(std::move(element.expr));
    clause.elements.clear();
    clause.elements.push_back(std::move(sets));
  }
  return clause;
}

bool Parser::PeekGroupingAnalytics() const {
  return ((PeekWord("ROLLUP") || PeekWord("CUBE")) && PeekOperator("(", 1)) ||
         (PeekWord("GROUPING") && PeekWord("SETS", 1));
}

Result<GroupingElement> Parser::ParseGroupingAnalytics() {
  GroupingElement element;
  element.pos = Peek().pos;
  if (AcceptWord("GROUPING")) {
    RETURN_NOT_OK(ExpectWord("SETS"));
    element.kind = GroupingKind::kGroupingSets;
    RETURN_NOT_OK(ExpectOperator("("));
    do {
      ARROW_ASSIGN_OR_RAISE(GroupingElement child, PeekGroupingAnalytics()
                                                       ? ParseGroupingAnalytics()
                                                       : ParseGroupingSet());
      element.children.push_back(std::move(child));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    return element;
  }
  element.kind = Next().IsWord("ROLLUP") ? GroupingKind::kRollup : GroupingKind::kCube;
  ARROW_ASSIGN_OR_RAISE(element.children, ParseGroupingSets());
  return element;
}

Result<std::vector<GroupingElement>> Parser::ParseGroupingSets() {
  RETURN_NOT_OK(ExpectOperator("("));
  std::vector<GroupingElement> sets;
  do {
    ARROW_ASSIGN_OR_RAISE(GroupingElement set, ParseGroupingSet());
    sets.push_back(std::move(set));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  return sets;
}

Result<GroupingElement> Parser::ParseGroupingSet() {
  GroupingElement set;
  set.kind = GroupingKind::kSet;
  set.pos = Peek().pos;
  if (PeekOperator("(")) {
    if (PeekOperator(")", 1)) {
      Next();
      Next();
      return set;
    }
    // (a, b) is a set of two; (a) or (a + b) * 2 is one expression, parsed as such.
    State start = Save();
    Next();
    do {
      ARROW_ASSIGN_OR_RAISE(ExprPtr item, ParseExpression());
      set.items.push_back(std::move(item));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    if (set.items.size() > 1) return set;
    set.items.clear();
    Restore(start);
  }
  ARROW_ASSIGN_OR_RAISE(ExprPtr item, ParseExpression());
  set.items.push_back(std::move(item));
  return set;
}

// ---- Windows ----

Result<std::vector<NamedWindow>> Parser::ParseWindowClause() {
  std::vector<NamedWindow> windows;
  do {
    NamedWindow window;
    const Token& name_token = Peek();
    window.pos = name_token.pos;
    ARROW_ASSIGN_OR_RAISE(window.name, ParseIdentifier());
    // Spark compares these names as written.
    for (const NamedWindow& earlier : windows) {
      if (earlier.name == window.name) {
        return ErrorAt("INVALID_SQL_SYNTAX", name_token,
                       fmt::format("Invalid SQL syntax: The definition of window `{}` is "
                                   "repetitive",
                                   window.name));
      }
    }
    RETURN_NOT_OK(ExpectWord("AS"));
    ARROW_ASSIGN_OR_RAISE(window.spec, ParseWindowSpec());
    windows.push_back(std::move(window));
  } while (AcceptOperator(","));
  return windows;
}

Result<WindowSpec> Parser::ParseWindowSpec() {
  WindowSpec spec;
  spec.pos = Peek().pos;
  if (!PeekOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(spec.name, ParseIdentifier());
    return spec;
  }
  Next();
  if (IsIdentifier(Peek(), /*allow_reserved=*/false) && PeekOperator(")", 1)) {
    spec.name = Next().value;
    Next();
    return spec;
  }
  if ((PeekWord("PARTITION") || PeekWord("DISTRIBUTE")) && PeekWord("BY", 1)) {
    Next();
    Next();
    do {
      ARROW_ASSIGN_OR_RAISE(ExprPtr expr, ParseExpression());
      spec.partition_by.push_back(std::move(expr));
    } while (AcceptOperator(","));
  }
  if ((PeekWord("ORDER") || PeekWord("SORT")) && PeekWord("BY", 1)) {
    Next();
    Next();
    ARROW_ASSIGN_OR_RAISE(spec.order_by, ParseOrderItems());
  }
  if (PeekWord("ROWS") || PeekWord("RANGE")) {
    ARROW_ASSIGN_OR_RAISE(spec.frame, ParseWindowFrame());
  }
  RETURN_NOT_OK(ExpectOperator(")"));
  return spec;
}

Result<WindowFrame> Parser::ParseWindowFrame() {
  WindowFrame frame;
  frame.pos = Peek().pos;
  frame.type = Next().IsWord("ROWS") ? FrameType::kRows : FrameType::kRange;
  if (AcceptWord("BETWEEN")) {
    ARROW_ASSIGN_OR_RAISE(frame.start, ParseFrameBound());
    RETURN_NOT_OK(ExpectWord("AND"));
    ARROW_ASSIGN_OR_RAISE(frame.end, ParseFrameBound());
  } else {
    ARROW_ASSIGN_OR_RAISE(frame.start, ParseFrameBound());
    frame.end.type = FrameBoundType::kCurrentRow;
  }
  return frame;
}

Result<FrameBound> Parser::ParseFrameBound() {
  FrameBound bound;
  if (PeekWord("UNBOUNDED") && (PeekWord("PRECEDING", 1) || PeekWord("FOLLOWING", 1))) {
    Next();
    bound.type = Next().IsWord("PRECEDING") ? FrameBoundType::kUnboundedPreceding
                                            : FrameBoundType::kUnboundedFollowing;
    return bound;
  }
  if (PeekWord("CURRENT") && PeekWord("ROW", 1)) {
    Next();
    Next();
    bound.type = FrameBoundType::kCurrentRow;
    return bound;
  }
  ARROW_ASSIGN_OR_RAISE(bound.offset, ParseExpression());
  if (AcceptWord("PRECEDING")) {
    bound.type = FrameBoundType::kPreceding;
  } else if (AcceptWord("FOLLOWING")) {
    bound.type = FrameBoundType::kFollowing;
  } else {
    return Unexpected();
  }
  return bound;
}

}  // namespace parley::sql::internal
