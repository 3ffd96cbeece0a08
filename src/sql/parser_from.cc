// FROM-clause productions of the recursive-descent parser: tables, table-valued functions,
// subqueries, inline tables, TABLESAMPLE, aliases and joins.
//
// As in Spark's grammar, a FROM clause is a comma-separated list of relations, and a relation is
// one relationPrimary followed by joins whose right side is again a relationPrimary, so joins
// are left-deep unless parenthesised; the comma list becomes left-deep cross joins, as Spark's
// AstBuilder makes it. An item in parentheses that starts with '(' may be a query,
// ((SELECT 1) UNION (SELECT 2)), or a relation, ((a JOIN b) JOIN c): the query is tried first,
// as Spark's alternative order has it. Spark's parse-time checks on joins (NATURAL CROSS JOIN,
// LATERAL with NATURAL, USING or an outer join type) are made here too.
#include <fmt/format.h>

#include <charconv>

#include "sql/parser_internal.h"

namespace parley::sql::internal {
namespace {

std::unique_ptr<FromItem> MakeJoin(JoinType type, std::unique_ptr<FromItem> left,
                                   std::unique_ptr<FromItem> right) {
  auto join = std::make_unique<FromItem>();
  join->kind = FromItemKind::kJoin;
  join->pos = left->pos;
  join->join_type = type;
  join->left = std::move(left);
  join->right = std::move(right);
  return join;
}

std::string_view JoinTypeSql(JoinType type) {
  switch (type) {
    case JoinType::kInner: return "INNER";
    case JoinType::kCross: return "CROSS";
    case JoinType::kLeftOuter: return "LEFT OUTER";
    case JoinType::kRightOuter: return "RIGHT OUTER";
    case JoinType::kFullOuter: return "FULL OUTER";
    case JoinType::kLeftSemi: return "LEFT SEMI";
    case JoinType::kLeftAnti: return "LEFT ANTI";
  }
  return "";
}

// The whole of `token` as a number of type T with no suffix (Spark's INTEGER_VALUE or
// DECIMAL_VALUE), or nullopt.
template <typename T>
std::optional<T> PlainNumber(const Token& token) {
  if (token.kind != TokenKind::kInteger && token.kind != TokenKind::kDecimal) return std::nullopt;
  T value{};
  const char* end = token.value.data() + token.value.size();
  auto [ptr, ec] = std::from_chars(token.value.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

Result<std::unique_ptr<FromItem>> Parser::ParseFromClause() {
  ARROW_ASSIGN_OR_RAISE(std::unique_ptr<FromItem> left, ParseRelation());
  Nesting chain(this, 0);
  while (AcceptOperator(",")) {
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    ARROW_ASSIGN_OR_RAISE(std::unique_ptr<FromItem> right, ParseRelation());
    left = MakeJoin(JoinType::kCross, std::move(left), std::move(right));
  }
  // LATERAL VIEW [OUTER] generator(...) name [[AS] column, ...], each over the FROM before it.
  while (PeekWord("LATERAL") && PeekWord("VIEW", 1)) {
    chain.Deepen();
    RETURN_NOT_OK(CheckNesting());
    auto view = std::make_unique<FromItem>();
    view->kind = FromItemKind::kLateralView;
    view->pos = left->pos;
    Next();
    Next();
    view->outer = AcceptWord("OUTER");
    const Token& call_start = Peek();
    ARROW_ASSIGN_OR_RAISE(ExprPtr call, ParsePrimary());
    if (call->kind != ExprKind::kFunction) {
      return ErrorAtToken("PARSE_SYNTAX_ERROR", text_, call_start,
                          "Syntax error: LATERAL VIEW needs a generator call");
    }
    view->arguments.push_back(std::move(call));
    if (!IsIdentifier(Peek(), /*allow_reserved=*/false)) return Unexpected();
    view->view_alias = Next().value;
    bool named = AcceptWord("AS");
    if (named || IsIdentifier(Peek(), /*allow_reserved=*/false)) {
      do {
        if (!IsIdentifier(Peek(), /*allow_reserved=*/false)) return Unexpected();
        view->view_columns.push_back(Next().value);
      } while (AcceptOperator(","));
    }
    view->left = std::move(left);
    left = std::move(view);
  }
  return left;
}

Result<std::unique_ptr<FromItem>> Parser::ParseRelation() {
  Nesting nesting(this, kNestingWeight);
  RETURN_NOT_OK(CheckNesting());
  ARROW_ASSIGN_OR_RAISE(std::unique_ptr<FromItem> item, ParseRelationPrimary());
  while (true) {
    const Token& first = Peek();
    bool natural = false;
    ARROW_ASSIGN_OR_RAISE(std::optional<JoinType> type, ParseJoinKeywords(&natural));
    if (!type) return item;
    nesting.Deepen();
    RETURN_NOT_OK(CheckNesting());
    ARROW_ASSIGN_OR_RAISE(item, ParseJoin(std::move(item), *type, natural, first));
  }
}

Result<std::optional<JoinType>> Parser::ParseJoinKeywords(bool* natural) {
  *natural = AcceptWord("NATURAL");
  JoinType type = JoinType::kInner;
  if (AcceptWord("JOIN")) return type;
  if (AcceptWord("INNER")) {
    type = JoinType::kInner;
  } else if (AcceptWord("CROSS")) {
    type = JoinType::kCross;
  } else if (AcceptWord("LEFT")) {
    if (AcceptWord("SEMI")) {
      type = JoinType::kLeftSemi;
    } else if (AcceptWord("ANTI")) {
      type = JoinType::kLeftAnti;
    } else {
      AcceptWord("OUTER");
      type = JoinType::kLeftOuter;
    }
  } else if (AcceptWord("RIGHT")) {
    AcceptWord("OUTER");
    type = JoinType::kRightOuter;
  } else if (AcceptWord("FULL")) {
    AcceptWord("OUTER");
    type = JoinType::kFullOuter;
  } else if ((PeekWord("SEMI") || PeekWord("ANTI")) && PeekWord("JOIN", 1)) {
    type = Next().IsWord("SEMI") ? JoinType::kLeftSemi : JoinType::kLeftAnti;
  } else {
    if (*natural) return Unexpected();
    return std::nullopt;
  }
  RETURN_NOT_OK(ExpectWord("JOIN"));
  return type;
}

Result<std::unique_ptr<FromItem>> Parser::ParseJoin(std::unique_ptr<FromItem> left, JoinType type,
                                                    bool natural, const Token& first) {
  if (natural && type == JoinType::kCross) {
    return ErrorAt("UNSUPPORTED_FEATURE.NATURAL_CROSS_JOIN", first,
                   "The feature is not supported: NATURAL CROSS JOIN");
  }
  ARROW_ASSIGN_OR_RAISE(std::unique_ptr<FromItem> right, ParseRelationPrimary());
  if (right->lateral) {
    if (natural) {
      return ErrorAt("UNSUPPORTED_FEATURE.LATERAL_NATURAL_JOIN", first,
                     "The feature is not supported: NATURAL join with LATERAL correlation");
    }
    if (type != JoinType::kInner && type != JoinType::kCross && type != JoinType::kLeftOuter) {
      return ErrorAt(
          "INVALID_LATERAL_JOIN_TYPE", first,
          fmt::format("The {} JOIN with LATERAL correlation is not allowed because an OUTER "
                      "subquery cannot correlate to its join partner. Remove the LATERAL "
                      "correlation or use an INNER JOIN, or LEFT OUTER JOIN instead",
                      JoinTypeSql(type)));
    }
  }
  std::unique_ptr<FromItem> join = MakeJoin(type, std::move(left), std::move(right));
  join->natural = natural;
  if (natural) return join;
  if (AcceptWord("ON")) {
    ARROW_ASSIGN_OR_RAISE(join->condition, ParseExpression());
  } else if (PeekWord("USING")) {
    const Token& using_token = Next();
    if (join->right->lateral) {
      return ErrorAt("UNSUPPORTED_FEATURE.LATERAL_JOIN_USING", using_token,
                     "The feature is not supported: JOIN USING with LATERAL correlation");
    }
    ARROW_ASSIGN_OR_RAISE(join->using_columns, ParseIdentifierList());
  }
  return join;
}

Result<std::unique_ptr<FromItem>> Parser::ParseRelationPrimary() {
  Mark start = Here();
  auto parse_subquery = [&]() -> Result<std::unique_ptr<FromItem>> {
    auto item = std::make_unique<FromItem>();
    item->kind = FromItemKind::kSubquery;
    item->pos = start.pos;
    ARROW_ASSIGN_OR_RAISE(item->subquery, ParseParenthesizedQuery());
    return item;
  };
  auto parse_parenthesized_relation = [&]() -> Result<std::unique_ptr<FromItem>> {
    RETURN_NOT_OK(ExpectOperator("("));
    ARROW_ASSIGN_OR_RAISE(std::unique_ptr<FromItem> item, ParseRelation());
    RETURN_NOT_OK(ExpectOperator(")"));
    return item;
  };

  std::unique_ptr<FromItem> item;
  if (PeekWord("LATERAL")) {
    const Token& lateral = Next();
    if (!PeekOperator("(") || !(PeekQueryStart(1) || PeekOperator("(", 1))) {
      return ErrorAt("INVALID_SQL_SYNTAX", lateral,
                     "Invalid SQL syntax: LATERAL can only be used with subquery");
    }
    ARROW_ASSIGN_OR_RAISE(item, parse_subquery());
    item->lateral = true;
  } else if (PeekOperator("(") && PeekQueryStart(1)) {
    ARROW_ASSIGN_OR_RAISE(item, parse_subquery());
  } else if (PeekOperator("(") && PeekOperator("(", 1)) {
    ARROW_ASSIGN_OR_RAISE(
        item, ParseEither<std::unique_ptr<FromItem>>(parse_subquery, parse_parenthesized_relation));
  } else if (PeekOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(item, parse_parenthesized_relation());
  } else if (PeekWord("VALUES") && PeekQueryStart()) {
    item = std::make_unique<FromItem>();
    item->kind = FromItemKind::kSubquery;
    item->pos = start.pos;
    item->subquery = std::make_unique<SelectStatement>();
    item->subquery->pos = start.pos;
    item->subquery->kind = QueryKind::kValues;
    ARROW_ASSIGN_OR_RAISE(item->subquery->values, ParseInlineTable(/*with_alias=*/false));
    RETURN_NOT_OK(ParseTableAlias(&item->alias, &item->column_aliases));
    return item;
  } else {
    item = std::make_unique<FromItem>();
    item->pos = start.pos;
    ARROW_ASSIGN_OR_RAISE(item->name, ParseQualifiedName());
    if (AcceptOperator("(")) {
      item->kind = FromItemKind::kTableFunction;
      if (!AcceptOperator(")")) {
        do {
          RETURN_NOT_OK(ParseCallArgument(&item->arguments, &item->argument_names));
        } while (AcceptOperator(","));
        RETURN_NOT_OK(ExpectOperator(")"));
      }
      RETURN_NOT_OK(ParseTableAlias(&item->alias, &item->column_aliases));
      return item;
    }
  }
  if (item->kind == FromItemKind::kTable) {
    ARROW_ASSIGN_OR_RAISE(item->time_travel, ParseOptionalTimeTravel());
    ARROW_ASSIGN_OR_RAISE(item->changes, ParseOptionalChanges());
  }
  // A parenthesised item that already has a sample keeps it; a second TABLESAMPLE is then left
  // unparsed and reported as a syntax error.
  if (!item->sample) {
    ARROW_ASSIGN_OR_RAISE(item->sample, ParseOptionalSample());
  }
  RETURN_NOT_OK(ParseTableAlias(&item->alias, &item->column_aliases));
  return item;
}

Result<std::optional<TimeTravel>> Parser::ParseOptionalTimeTravel() {
  size_t offset = PeekWord("FOR") ? 1 : 0;
  bool by_version = PeekWord("VERSION", offset) || PeekWord("SYSTEM_VERSION", offset);
  bool by_time = PeekWord("TIMESTAMP", offset) || PeekWord("SYSTEM_TIME", offset);
  if (!(by_version || by_time) || !PeekWord("AS", offset + 1) || !PeekWord("OF", offset + 2)) {
    return std::nullopt;
  }
  TimeTravel travel;
  travel.pos = Peek().pos;
  travel.by_version = by_version;
  for (size_t i = 0; i < offset + 3; ++i) Next();
  ARROW_ASSIGN_OR_RAISE(travel.value, ParseExpression());
  return travel;
}

Result<std::optional<TableSample>> Parser::ParseOptionalSample() {
  if (!PeekWord("TABLESAMPLE")) return std::nullopt;
  TableSample sample;
  sample.pos = Next().pos;
  RETURN_NOT_OK(ExpectOperator("("));
  if (AcceptWord("BUCKET")) {
    sample.method = SampleMethod::kBucket;
    std::optional<int64_t> numerator = PlainNumber<int64_t>(Peek());
    if (!numerator) return Unexpected();
    Next();
    RETURN_NOT_OK(ExpectWord("OUT"));
    RETURN_NOT_OK(ExpectWord("OF"));
    std::optional<int64_t> denominator = PlainNumber<int64_t>(Peek());
    if (!denominator) return Unexpected();
    Next();
    sample.numerator = *numerator;
    sample.denominator = *denominator;
  } else {
    // [-] number PERCENT, or expression ROWS.
    size_t sign = PeekOperator("-") ? 1 : 0;
    std::optional<double> percent = PlainNumber<double>(Peek(sign));
    if (percent && PeekWord("PERCENT", sign + 1)) {
      sample.method = SampleMethod::kPercent;
      sample.percent = sign == 1 ? -*percent : *percent;
      for (size_t i = 0; i < sign + 2; ++i) Next();
    } else {
      sample.method = SampleMethod::kRows;
      ARROW_ASSIGN_OR_RAISE(sample.rows, ParseExpression());
      RETURN_NOT_OK(ExpectWord("ROWS"));
    }
  }
  RETURN_NOT_OK(ExpectOperator(")"));
  if (AcceptWord("REPEATABLE")) {
    RETURN_NOT_OK(ExpectOperator("("));
    std::optional<int64_t> seed = PlainNumber<int64_t>(Peek());
    if (!seed) return Unexpected();
    Next();
    sample.seed = *seed;
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  return sample;
}

Status Parser::ParseTableAlias(std::string* alias, std::vector<std::string>* columns) {
  ARROW_ASSIGN_OR_RAISE(std::string name, ParseOptionalAlias());
  if (name.empty()) return Status::OK();
  *alias = std::move(name);
  if (PeekOperator("(")) {
    ARROW_ASSIGN_OR_RAISE(*columns, ParseIdentifierList());
  }
  return Status::OK();
}

Result<std::vector<std::string>> Parser::ParseIdentifierList() {
  RETURN_NOT_OK(ExpectOperator("("));
  std::vector<std::string> names;
  do {
    ARROW_ASSIGN_OR_RAISE(std::string name, ParseIdentifier());
    names.push_back(std::move(name));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  return names;
}

}  // namespace parley::sql::internal
