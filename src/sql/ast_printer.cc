// Fully parenthesised SQL rendering of expressions and queries (see ast_printer.h).
//
// The rules mirror the parser so that rendering round-trips: an identifier is backquoted unless
// the lexer would read it back as the same bare word and the parser would accept that word in
// its place; unary operators get a space after them so that `- -1` does not print as a `--`
// comment; a join that is the right side of another join, or that carries an alias, is
// parenthesised. The forms that ride on kFunction (subqueries, INTERVAL literals) are recognised
// by their marker fields before the kind, as ast.h asks of every consumer.
#include "sql/ast_printer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "sql/parser_internal.h"

namespace parley::sql {
namespace {

bool IsPlainWord(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool word_char =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word_char) return false;
  }
  return true;
}

// `allow_reserved`: the parser reads this name part back even if it is a reserved word.
std::string RenderIdentifier(const std::string& name, bool allow_reserved) {
  if (IsPlainWord(name) && (allow_reserved || !internal::IsReservedWord(name))) return name;
  std::string out = "`";
  for (char c : name) {
    out.push_back(c);
    if (c == '`') out.push_back('`');
  }
  out.push_back('`');
  return out;
}

// A reserved word is read back as a name after a dot, and as a function name before '('.
std::string RenderName(const std::vector<std::string>& parts, bool is_function = false) {
  std::vector<std::string> rendered;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool allow_reserved = i > 0 || (is_function && parts.size() == 1);
    rendered.push_back(RenderIdentifier(parts[i], allow_reserved));
  }
  return fmt::format("{}", fmt::join(rendered, "."));
}

std::string QuoteString(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    switch (c) {
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out.push_back(c); break;
    }
  }
  out.push_back('\'');
  return out;
}

std::string RenderLiteral(const Expr& expr) {
  switch (expr.literal_kind) {
    case LiteralKind::kNull: return "NULL";
    case LiteralKind::kBoolean: return expr.text == "true" ? "TRUE" : "FALSE";
    case LiteralKind::kInteger:
    case LiteralKind::kDecimal:
    case LiteralKind::kDouble: return expr.text;
    case LiteralKind::kString: return QuoteString(expr.text);
    case LiteralKind::kDate: return "DATE " + QuoteString(expr.text);
    case LiteralKind::kTimestamp: return "TIMESTAMP " + QuoteString(expr.text);
    case LiteralKind::kTimestampNtz: return "TIMESTAMP_NTZ " + QuoteString(expr.text);
    case LiteralKind::kBinary: return "X'" + expr.text + "'";
  }
  return expr.text;
}

std::string Not(const Expr& expr) { return expr.negated ? "NOT " : ""; }

std::string Join(const std::vector<std::unique_ptr<Expr>>& exprs, size_t from) {
  std::vector<std::string> rendered;
  for (size_t i = from; i < exprs.size(); ++i) rendered.push_back(ToString(*exprs[i]));
  return fmt::format("{}", fmt::join(rendered, ", "));
}

std::string RenderOrderItems(const std::vector<OrderItem>& items) {
  std::vector<std::string> rendered;
  for (const OrderItem& item : items) {
    std::string out = ToString(*item.expr);
    if (!item.ascending) out += " DESC";
    if (item.nulls_first) out += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    rendered.push_back(std::move(out));
  }
  return fmt::format("{}", fmt::join(rendered, ", "));
}

std::string RenderIdentifiers(const std::vector<std::string>& names) {
  std::vector<std::string> rendered;
  for (const std::string& name : names) rendered.push_back(RenderIdentifier(name, false));
  return fmt::format("{}", fmt::join(rendered, ", "));
}

// ` AS alias(columns)`, or nothing.
std::string RenderAlias(const std::string& alias, const std::vector<std::string>& columns) {
  if (alias.empty()) return "";
  std::string out = " AS " + RenderIdentifier(alias, false);
  if (!columns.empty()) out += "(" + RenderIdentifiers(columns) + ")";
  return out;
}

std::string RenderInterval(const IntervalLiteral& interval) {
  std::string out = "INTERVAL";
  for (const IntervalPart& part : interval.parts) {
    out += " " + QuoteString(part.value);
    if (!part.unit.empty()) out += " " + part.unit;
  }
  if (!interval.to_unit.empty()) out += " TO " + interval.to_unit;
  return out;
}

std::string RenderSubquery(const Expr& expr) {
  std::string query = "(" + ToString(*expr.subquery) + ")";
  switch (expr.subquery_kind) {
    case SubqueryKind::kExists: return "EXISTS " + query;
    case SubqueryKind::kIn:
      return fmt::format("({} {}IN {})", ToString(*expr.children[0]), Not(expr), query);
    case SubqueryKind::kScalar:
    case SubqueryKind::kNone: break;
  }
  return query;
}

bool IsExtract(const Expr& expr) {
  if (expr.name_parts.size() != 1 || expr.children.size() != 2 || expr.distinct) return false;
  std::string name = expr.name_parts[0];
  for (char& c : name) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  const Expr& field = *expr.children[0];
  return name == "EXTRACT" && field.kind == ExprKind::kLiteral &&
         field.literal_kind == LiteralKind::kString && IsPlainWord(field.text);
}

std::string RenderFunction(const Expr& expr) {
  std::string out;
  if (IsExtract(expr)) {
    out = fmt::format("{}({} FROM {})", RenderName(expr.name_parts, /*is_function=*/true),
                      expr.children[0]->text, ToString(*expr.children[1]));
  } else {
    out = fmt::format("{}({}{})", RenderName(expr.name_parts, /*is_function=*/true),
                      expr.star ? "*" : (expr.distinct ? "DISTINCT " : ""), Join(expr.children, 0));
  }
  if (!expr.within_group.empty()) {
    out += " WITHIN GROUP (ORDER BY " + RenderOrderItems(expr.within_group) + ")";
  }
  if (expr.filter) out += " FILTER (WHERE " + ToString(*expr.filter) + ")";
  if (expr.ignore_nulls) out += *expr.ignore_nulls ? " IGNORE NULLS" : " RESPECT NULLS";
  if (expr.window) out += " OVER " + ToString(*expr.window);
  return out;
}

std::string RenderFrameBound(const FrameBound& bound) {
  switch (bound.type) {
    case FrameBoundType::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBoundType::kPreceding: return ToString(*bound.offset) + " PRECEDING";
    case FrameBoundType::kCurrentRow: return "CURRENT ROW";
    case FrameBoundType::kFollowing: return ToString(*bound.offset) + " FOLLOWING";
    case FrameBoundType::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

std::string RenderCase(const Expr& expr) {
  std::string out = "CASE";
  size_t i = 0;
  if (expr.has_operand) out += " " + ToString(*expr.children[i++]);
  size_t pairs_end = expr.children.size() - (expr.has_else ? 1 : 0);
  for (; i < pairs_end; i += 2) {
    out += fmt::format(" WHEN {} THEN {}", ToString(*expr.children[i]),
                       ToString(*expr.children[i + 1]));
  }
  if (expr.has_else) out += " ELSE " + ToString(*expr.children.back());
  return out + " END";
}

}  // namespace

std::string ToString(const TypeName& type) {
  if (type.name == "STRUCT" && (!type.children.empty() || !type.field_names.empty())) {
    std::vector<std::string> fields;
    for (size_t i = 0; i < type.children.size(); ++i) {
      fields.push_back(type.field_names[i] + ": " + ToString(type.children[i]));
    }
    return fmt::format("STRUCT<{}>", fmt::join(fields, ", "));
  }
  if (!type.children.empty()) {
    std::vector<std::string> children;
    for (const auto& child : type.children) children.push_back(ToString(child));
    return fmt::format("{}<{}>", type.name, fmt::join(children, ", "));
  }
  if (type.parameters.empty()) return type.name;
  return fmt::format("{}({})", type.name, fmt::join(type.parameters, ","));
}

std::string ToString(const Expr& expr) {
  const auto& c = expr.children;
  if (expr.subquery) return RenderSubquery(expr);
  if (expr.interval) return RenderInterval(*expr.interval);
  switch (expr.kind) {
    case ExprKind::kColumn: return RenderName(expr.name_parts);
    case ExprKind::kStar: return expr.name_parts.empty() ? "*" : RenderName(expr.name_parts) + ".*";
    case ExprKind::kLiteral: return RenderLiteral(expr);
    case ExprKind::kUnary: return fmt::format("({} {})", expr.op, ToString(*c[0]));
    case ExprKind::kBinary:
      return fmt::format("({} {} {})", ToString(*c[0]), expr.op, ToString(*c[1]));
    case ExprKind::kFunction: return RenderFunction(expr);
    case ExprKind::kCast:
      return fmt::format("{}({} AS {})", expr.is_try ? "TRY_CAST" : "CAST", ToString(*c[0]),
                         ToString(expr.type));
    case ExprKind::kCase: return RenderCase(expr);
    case ExprKind::kIn:
      return fmt::format("({} {}IN ({}))", ToString(*c[0]), Not(expr), Join(c, 1));
    case ExprKind::kBetween:
      return fmt::format("({} {}BETWEEN {} AND {})", ToString(*c[0]), Not(expr), ToString(*c[1]),
                         ToString(*c[2]));
    case ExprKind::kLike:
      return fmt::format("({} {}{} {}{})", ToString(*c[0]), Not(expr), expr.op, ToString(*c[1]),
                         expr.text.empty() ? "" : " ESCAPE " + QuoteString(expr.text));
    case ExprKind::kIsNull: return fmt::format("({} IS {}NULL)", ToString(*c[0]), Not(expr));
    case ExprKind::kLambda:
      return fmt::format("({}) -> {}", fmt::join(expr.name_parts, ", "), ToString(*c[0]));
    case ExprKind::kIsBool:
      return fmt::format("({} IS {}{})", ToString(*c[0]), Not(expr),
                         expr.text == "true" ? "TRUE" : "FALSE");
  }
  return expr.source_text;
}

// ---- Queries ----

namespace {

std::string RenderExprs(const std::vector<ExprPtr>& exprs) { return Join(exprs, 0); }

std::string RenderGrouping(const GroupingElement& element) {
  std::vector<std::string> children;
  for (const GroupingElement& child : element.children) children.push_back(RenderGrouping(child));
  std::string joined = fmt::format("{}", fmt::join(children, ", "));
  switch (element.kind) {
    case GroupingKind::kExpression: return ToString(*element.expr);
    case GroupingKind::kSet: return "(" + RenderExprs(element.items) + ")";
    case GroupingKind::kRollup: return "ROLLUP(" + joined + ")";
    case GroupingKind::kCube: return "CUBE(" + joined + ")";
    case GroupingKind::kGroupingSets:
      if (element.items.empty()) return "GROUPING SETS (" + joined + ")";
      return RenderExprs(element.items) + " GROUPING SETS (" + joined + ")";
  }
  return "";
}

std::string RenderGroupBy(const GroupByClause& group_by) {
  if (group_by.all) return " GROUP BY ALL";
  std::vector<std::string> elements;
  for (const GroupingElement& element : group_by.elements) {
    elements.push_back(RenderGrouping(element));
  }
  return fmt::format(" GROUP BY {}", fmt::join(elements, ", "));
}

std::string RenderSample(const TableSample& sample) {
  std::string method;
  switch (sample.method) {
    case SampleMethod::kPercent: method = fmt::format("{} PERCENT", sample.percent); break;
    case SampleMethod::kRows: method = ToString(*sample.rows) + " ROWS"; break;
    case SampleMethod::kBucket:
      method = fmt::format("BUCKET {} OUT OF {}", sample.numerator, sample.denominator);
      break;
  }
  std::string out = " TABLESAMPLE (" + method + ")";
  if (sample.seed) out += fmt::format(" REPEATABLE ({})", *sample.seed);
  return out;
}

std::string_view JoinKeywords(JoinType type) {
  switch (type) {
    case JoinType::kInner: return "JOIN";
    case JoinType::kCross: return "CROSS JOIN";
    case JoinType::kLeftOuter: return "LEFT OUTER JOIN";
    case JoinType::kRightOuter: return "RIGHT OUTER JOIN";
    case JoinType::kFullOuter: return "FULL OUTER JOIN";
    case JoinType::kLeftSemi: return "LEFT SEMI JOIN";
    case JoinType::kLeftAnti: return "LEFT ANTI JOIN";
  }
  return "JOIN";
}

// A join without parentheses, as the left side of a join or a whole FROM clause.
std::string RenderJoin(const FromItem& join) {
  const FromItem& right = *join.right;
  std::string right_text = ToString(right);
  if (right.kind == FromItemKind::kJoin && right.alias.empty() && !right.sample) {
    right_text = "(" + right_text + ")";
  }
  std::string out = fmt::format("{} {}{} {}", ToString(*join.left), join.natural ? "NATURAL " : "",
                                JoinKeywords(join.join_type), right_text);
  if (join.condition) out += " ON " + ToString(*join.condition);
  if (!join.using_columns.empty()) out += " USING (" + RenderIdentifiers(join.using_columns) + ")";
  return out;
}

std::string RenderSelect(const SelectStatement& select) {
  std::vector<std::string> items;
  for (const SelectItem& item : select.items) {
    std::string rendered = ToString(*item.expr);
    if (!item.alias.empty()) rendered += " AS " + RenderIdentifier(item.alias, false);
    items.push_back(std::move(rendered));
  }
  std::string out =
      fmt::format("SELECT {}{}", select.distinct ? "DISTINCT " : "", fmt::join(items, ", "));
  if (select.from_item) {
    out += " FROM " + ToString(*select.from_item);
  } else if (select.from) {
    out += " FROM " + RenderName(select.from->name.parts) + RenderAlias(select.from->alias, {});
  }
  if (select.where) out += " WHERE " + ToString(*select.where);
  if (select.group_by) out += RenderGroupBy(*select.group_by);
  if (select.having) out += " HAVING " + ToString(*select.having);
  if (!select.windows.empty()) {
    std::vector<std::string> windows;
    for (const NamedWindow& window : select.windows) {
      windows.push_back(RenderIdentifier(window.name, false) + " AS " + ToString(window.spec));
    }
    out += fmt::format(" WINDOW {}", fmt::join(windows, ", "));
  }
  return out;
}

std::string RenderValues(const InlineTable& values) {
  std::vector<std::string> rows;
  for (const std::vector<ExprPtr>& row : values.rows) rows.push_back("(" + RenderExprs(row) + ")");
  return fmt::format("VALUES {}", fmt::join(rows, ", ")) +
         RenderAlias(values.alias, values.column_aliases);
}

std::string_view SetOperatorKeyword(SetOperator op) {
  switch (op) {
    case SetOperator::kUnion: return "UNION";
    case SetOperator::kIntersect: return "INTERSECT";
    case SetOperator::kExcept: return "EXCEPT";
  }
  return "UNION";
}

}  // namespace

std::string ToString(const WindowSpec& window) {
  if (!window.name.empty()) return RenderIdentifier(window.name, false);
  std::vector<std::string> parts;
  if (!window.partition_by.empty()) {
    parts.push_back("PARTITION BY " + RenderExprs(window.partition_by));
  }
  if (!window.order_by.empty()) parts.push_back("ORDER BY " + RenderOrderItems(window.order_by));
  if (window.frame) {
    const WindowFrame& frame = *window.frame;
    parts.push_back(fmt::format("{} BETWEEN {} AND {}",
                                frame.type == FrameType::kRows ? "ROWS" : "RANGE",
                                RenderFrameBound(frame.start), RenderFrameBound(frame.end)));
  }
  return fmt::format("({})", fmt::join(parts, " "));
}

namespace {

std::string RenderChangesBound(const ChangesBound& bound) {
  bool digits =
      !bound.value.empty() && bound.value.find_first_not_of("0123456789") == std::string::npos;
  std::string value = digits ? bound.value : QuoteString(bound.value);
  std::string out = bound.timestamp ? "TIMESTAMP " + QuoteString(bound.value) : "VERSION " + value;
  if (bound.inclusive) out += *bound.inclusive ? " INCLUSIVE" : " EXCLUSIVE";
  return out;
}

std::string RenderChanges(const ChangesClause& changes) {
  std::string out = " CHANGES FROM " + RenderChangesBound(changes.from);
  if (changes.to) out += " TO " + RenderChangesBound(*changes.to);
  if (changes.options.empty()) return out;
  std::vector<std::string> options;
  for (const auto& [key, value] : changes.options) {
    options.push_back(QuoteString(key) + " = " + QuoteString(value));
  }
  return out + fmt::format(" WITH ({})", fmt::join(options, ", "));
}

}  // namespace

std::string ToString(const FromItem& item) {
  std::string out;
  switch (item.kind) {
    case FromItemKind::kTable:
      out = RenderName(item.name.parts);
      if (item.changes) out += RenderChanges(*item.changes);
      break;
    case FromItemKind::kTableFunction:
      out = RenderName(item.name.parts, /*is_function=*/true) + "(" + RenderExprs(item.arguments) +
            ")";
      break;
    case FromItemKind::kSubquery:
      out = (item.lateral ? "LATERAL (" : "(") + ToString(*item.subquery) + ")";
      break;
    case FromItemKind::kLateralView:
      out = fmt::format("{} LATERAL VIEW {}{} {}", ToString(*item.left), item.outer ? "OUTER " : "",
                        ToString(*item.arguments[0]), item.view_alias);
      if (!item.view_columns.empty()) {
        out += fmt::format(" AS {}", fmt::join(item.view_columns, ", "));
      }
      break;
    case FromItemKind::kJoin:
      out = RenderJoin(item);
      if (item.alias.empty() && !item.sample) return out;
      out = "(" + out + ")";
      break;
  }
  if (item.sample) out += RenderSample(*item.sample);
  return out + RenderAlias(item.alias, item.column_aliases);
}

std::string ToString(const SelectStatement& query) {
  std::string out;
  if (!query.with.empty()) {
    std::vector<std::string> ctes;
    for (const CommonTableExpr& cte : query.with) {
      std::string columns =
          cte.column_aliases.empty() ? "" : "(" + RenderIdentifiers(cte.column_aliases) + ")";
      ctes.push_back(fmt::format("{}{} AS ({})", RenderIdentifier(cte.name, false), columns,
                                 ToString(*cte.query)));
    }
    out = fmt::format("WITH {} ", fmt::join(ctes, ", "));
  }
  switch (query.kind) {
    case QueryKind::kSelect: out += RenderSelect(query); break;
    case QueryKind::kSetOperation: {
      const SetOperation& operation = *query.set_operation;
      out +=
          fmt::format("({}) {}{} ({})", ToString(*operation.left), SetOperatorKeyword(operation.op),
                      operation.all ? " ALL" : "", ToString(*operation.right));
      break;
    }
    case QueryKind::kValues: out += RenderValues(query.values); break;
    case QueryKind::kNested: out += "(" + ToString(*query.nested) + ")"; break;
  }
  if (!query.order_by.empty()) out += " ORDER BY " + RenderOrderItems(query.order_by);
  if (query.limit) out += " LIMIT " + ToString(*query.limit);
  if (query.offset) out += " OFFSET " + ToString(*query.offset);
  return out;
}

}  // namespace parley::sql
