// Spark's names of unaliased select items, printed from the syntax tree with Spark's rules:
// operators in parentheses with spaces, function names in lower case (a few math and ranking
// functions in upper case, as Spark prints them), the arguments Spark fills in shown, literals
// as Spark prints their values, windows with their full frame.
#include "analysis/column_naming.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>
#include <set>

#include "analysis/expression_binder.h"
#include "analysis/routine_binder.h"
#include "analysis/types.h"
#include "analysis/window_binder.h"
#include "catalog/identifiers.h"
#include "functions/function_registry.h"
#include "parley/connector/function.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

using sql::Expr;
using sql::ExprKind;
using sql::LiteralKind;
using Name = std::optional<std::string>;

// Functions Spark prints in upper case when called by this name.
const std::set<std::string>& UpperCaseFunctions() {
  static const std::set<std::string> kNames = {
      "acos",  "acosh", "asin",  "asinh", "atan",    "atanh", "atan2",      "cbrt",
      "ceil",  "cos",   "cosh",  "cot",   "degrees", "exp",   "expm1",      "floor",
      "hypot", "log",   "log10", "log1p", "log2",    "power", "radians",    "sin",
      "sinh",  "sqrt",  "tan",   "tanh",  "signum",  "rank",  "dense_rank", "percent_rank"};
  return kNames;
}

// Window functions whose default frame is ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
bool IsRankingFunction(const std::string& name) {
  return name == "rank" || name == "dense_rank" || name == "percent_rank" || name == "row_number" ||
         name == "ntile";
}

std::string ToUpper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// The shortest digits that read back as `value`, printed as Java's Double.toString (and
// Float.toString) does: plain between 10^-3 and 10^7, else d.dddE<exponent>.
template <typename T>
std::string JavaFloatingText(T value) {
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buffer[64];
  auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  std::string text(buffer, result.ptr);
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const size_t e = text.find('e');
  std::string digits = text.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::stoi(text.substr(e + 1));
  const double magnitude = std::fabs(static_cast<double>(value));
  std::string out;
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const int point = exponent + 1;
    if (point <= 0) {
      out = "0." + std::string(-point, '0') + digits;
    } else if (point >= static_cast<int>(digits.size())) {
      out = digits + std::string(point - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, point) + "." + digits.substr(point);
    }
  } else {
    out = digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" +
          std::to_string(exponent);
  }
  return negative ? "-" + out : out;
}

// A number's text without its type suffix and leading zeros: 00012L is 12, .5BD is 0.5.
std::string ExactNumberText(std::string text, size_t suffix_length) {
  text.resize(text.size() - suffix_length);
  std::string sign;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    if (text[0] == '-') sign = "-";
    text.erase(0, 1);
  }
  size_t first = text.find_first_not_of('0');
  text = first == std::string::npos ? "0" : text.substr(first);
  if (text[0] == '.') text = "0" + text;
  return sign + text;
}

Name LiteralName(const Expr& expr) {
  const std::string& text = expr.text;
  switch (expr.literal_kind) {
    case LiteralKind::kNull: return "NULL";
    case LiteralKind::kBoolean:
    case LiteralKind::kString: return text;
    case LiteralKind::kInteger: {
      const bool suffixed = !text.empty() && std::isalpha(static_cast<unsigned char>(text.back()));
      return ExactNumberText(text, suffixed ? 1 : 0);
    }
    case LiteralKind::kDecimal: {
      const bool suffixed = text.size() > 2 && std::toupper(text[text.size() - 1]) == 'D' &&
                            std::toupper(text[text.size() - 2]) == 'B';
      if (text.find_first_of("eE") != std::string::npos) return std::nullopt;
      return ExactNumberText(text, suffixed ? 2 : 0);
    }
    case LiteralKind::kDouble: {
      const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
      if (last == 'F') return JavaFloatingText(std::strtof(text.c_str(), nullptr));
      return JavaFloatingText(std::strtod(text.c_str(), nullptr));
    }
    case LiteralKind::kDate:
      if (!std::regex_match(text, std::regex(R"(\d{4}-\d{2}-\d{2})"))) return std::nullopt;
      return "DATE '" + text + "'";
    case LiteralKind::kTimestamp:
    case LiteralKind::kTimestampNtz: {
      const std::string keyword =
          expr.literal_kind == LiteralKind::kTimestamp ? "TIMESTAMP" : "TIMESTAMP_NTZ";
      if (std::regex_match(text, std::regex(R"(\d{4}-\d{2}-\d{2})"))) {
        return keyword + " '" + text + " 00:00:00'";
      }
      if (!std::regex_match(text,
                            std::regex(R"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d*[1-9])?)"))) {
        return std::nullopt;
      }
      return keyword + " '" + text + "'";
    }
    case LiteralKind::kBinary: {
      std::string hex = text;
      for (char& c : hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return "X'" + hex + "'";
    }
  }
  return std::nullopt;
}

// Spark's SQL name of a CAST target type, or std::nullopt for types printed otherwise.
// A CAST's type as Spark names it: the canonical name of the type it resolves to (INTEGER is
// INT, VARCHAR(3) is STRING), or none for a type Parley does not resolve.
Name TypeText(const sql::TypeName& type) {
  auto resolved = TypeFromName(type, SourcePosition{});
  if (!resolved.ok()) return std::nullopt;
  return SqlTypeName(**resolved);
}

bool IsIntegerLiteral(const Expr& expr) {
  return expr.kind == ExprKind::kLiteral && expr.literal_kind == LiteralKind::kInteger;
}

class Printer {
 public:
  Name Print(const Expr& expr) {
    if (expr.subquery_kind == sql::SubqueryKind::kScalar) return "scalarsubquery()";
    if (expr.subquery_kind == sql::SubqueryKind::kExists) return "exists()";
    if (expr.interval) return std::nullopt;
    switch (expr.kind) {
      case ExprKind::kColumn:
        if (expr.name_parts.size() == 1 && IsLambdaVariable(expr.name_parts[0])) {
          return "namedlambdavariable()";
        }
        return expr.name_parts.back();
      case ExprKind::kLambda: {
        // lambdafunction(body, namedlambdavariable(), ...), as Spark names it.
        lambda_variables_.push_back(expr.name_parts);
        auto body = Print(*expr.children[0]);
        lambda_variables_.pop_back();
        if (!body) return std::nullopt;
        std::string text = "lambdafunction(" + *body;
        for (size_t i = 0; i < expr.name_parts.size(); ++i) text += ", namedlambdavariable()";
        return text + ")";
      }
      case ExprKind::kStar: return std::nullopt;
      case ExprKind::kLiteral: return LiteralName(expr);
      case ExprKind::kUnary: return Unary(expr);
      case ExprKind::kBinary: return Binary(expr);
      case ExprKind::kFunction: return Function(expr);
      case ExprKind::kCast: {
        auto type = TypeText(expr.type);
        auto value = Print(*expr.children[0]);
        if (!type || !value) return std::nullopt;
        return std::string(expr.is_try ? "TRY_CAST(" : "CAST(") + *value + " AS " + *type + ")";
      }
      case ExprKind::kCase: return Case(expr);
      case ExprKind::kIn: return In(expr);
      case ExprKind::kBetween: {
        auto args = List(expr.children, 0);
        if (!args) return std::nullopt;
        return Negated(expr.negated, "between(" + *args + ")");
      }
      case ExprKind::kLike: return Like(expr);
      case ExprKind::kIsNull: {
        auto value = Print(*expr.children[0]);
        if (!value) return std::nullopt;
        return "(" + *value + (expr.negated ? " IS NOT NULL)" : " IS NULL)");
      }
      case ExprKind::kIsBool: {
        auto value = Print(*expr.children[0]);
        if (!value) return std::nullopt;
        return Negated(expr.negated, "(" + *value + " <=> " + expr.text + ")");
      }
    }
    return std::nullopt;
  }

 private:
  static std::string Negated(bool negated, const std::string& text) {
    return negated ? "(NOT " + text + ")" : text;
  }

  bool IsLambdaVariable(const std::string& name) const {
    for (const auto& params : lambda_variables_) {
      for (const auto& param : params) {
        if (EqualsIgnoreCase(param, name)) return true;
      }
    }
    return false;
  }

  // The parameters of the lambdas being printed, innermost last.
  std::vector<std::vector<std::string>> lambda_variables_;

  // The arguments from `first` on, separated by ", ".
  Name List(const std::vector<sql::ExprPtr>& items, size_t first) {
    std::string out;
    for (size_t i = first; i < items.size(); ++i) {
      auto item = Print(*items[i]);
      if (!item) return std::nullopt;
      out += (i == first ? "" : ", ") + *item;
    }
    return out;
  }

  Name Unary(const Expr& expr) {
    const Expr& operand = *expr.children[0];
    auto value = Print(operand);
    if (!value) return std::nullopt;
    if (expr.op == "~") return "~" + *value;
    if (expr.op == "-" && operand.kind == ExprKind::kLiteral &&
        (operand.literal_kind == LiteralKind::kInteger ||
         operand.literal_kind == LiteralKind::kDecimal ||
         operand.literal_kind == LiteralKind::kDouble) &&
        value->front() != '-') {
      return "-" + *value;
    }
    return "(" + expr.op + " " + *value + ")";
  }

  Name Binary(const Expr& expr) {
    auto left = Print(*expr.children[0]);
    auto right = Print(*expr.children[1]);
    if (!left || !right) return std::nullopt;
    const std::string op = ToLowerAscii(expr.op);
    if (op == "||") return "concat(" + *left + ", " + *right + ")";
    if (op == "<>" || op == "!=") return "(NOT (" + *left + " = " + *right + "))";
    std::string printed = expr.op;
    if (op == "==") printed = "=";
    if (op == "div") printed = "div";
    if (op == "and") printed = "AND";
    if (op == "or") printed = "OR";
    return "(" + *left + " " + printed + " " + *right + ")";
  }

  Name Case(const Expr& expr) {
    size_t next = 0;
    Name operand;
    if (expr.has_operand) {
      operand = Print(*expr.children[next++]);
      if (!operand) return std::nullopt;
    }
    const size_t pairs_end = expr.children.size() - (expr.has_else ? 1 : 0);
    std::string out = "CASE";
    for (; next + 1 < pairs_end; next += 2) {
      auto when = Print(*expr.children[next]);
      auto then = Print(*expr.children[next + 1]);
      if (!when || !then) return std::nullopt;
      out += " WHEN " + (operand ? "(" + *operand + " = " + *when + ")" : *when) + " THEN " + *then;
    }
    if (expr.has_else) {
      auto otherwise = Print(*expr.children.back());
      if (!otherwise) return std::nullopt;
      out += " ELSE " + *otherwise;
    }
    return out + " END";
  }

  Name In(const Expr& expr) {
    auto value = Print(*expr.children[0]);
    if (!value) return std::nullopt;
    std::string list = "listquery()";
    if (expr.subquery_kind != sql::SubqueryKind::kIn) {
      auto items = List(expr.children, 1);
      if (!items) return std::nullopt;
      list = *items;
    }
    return Negated(expr.negated, "(" + *value + " IN (" + list + "))");
  }

  Name Like(const Expr& expr) {
    auto value = Print(*expr.children[0]);
    auto pattern = Print(*expr.children[1]);
    if (!value || !pattern) return std::nullopt;
    const std::string op = ToLowerAscii(expr.op);
    std::string text;
    if (op == "like") {
      text = *value + " LIKE " + *pattern;
      if (!expr.text.empty()) text += " ESCAPE '" + expr.text + "'";
    } else if (op == "ilike") {
      text = "ilike(" + *value + ", " + *pattern + ")";
    } else {
      text = "RLIKE(" + *value + ", " + *pattern + ")";
    }
    return Negated(expr.negated, text);
  }

  // A call of a SQL function, as Spark names it: by the name the call resolved to
  // (catalog.ns.f for a persistent one), its arguments in its parameters' order.
  Name RoutineCall(const Expr& expr) {
    if (expr.window || expr.filter || expr.star || !expr.within_group.empty() || expr.interval ||
        expr.subquery_kind != sql::SubqueryKind::kNone) {
      return std::nullopt;
    }
    if (expr.name_parts.size() == 1) {
      const std::string name = ToLowerAscii(expr.name_parts[0]);
      if (FunctionRegistry::Builtin().FindTypeRule(name) != nullptr || IsAggregateFunction(name) ||
          IsWindowOnlyFunction(name) || name == "[]" || name == "extract") {
        return std::nullopt;
      }
    }
    auto routine = FindRoutine(expr);
    if (!routine.ok() || routine->function == nullptr) return std::nullopt;
    const auto* sql = dynamic_cast<const SqlFunction*>(routine->function.get());
    if (sql == nullptr) return std::nullopt;
    std::vector<const Expr*> ordered;
    for (const auto& child : expr.children) ordered.push_back(child.get());
    if (!expr.argument_names.empty()) {
      const auto& parameters = sql->info().parameters;
      auto position = [&](size_t arg) {
        const std::string& name = expr.argument_names[arg];
        if (name.empty()) return arg;
        for (size_t p = 0; p < parameters.size(); ++p) {
          if (EqualsIgnoreCase(parameters[p].name, name)) return p;
        }
        return parameters.size();
      };
      std::vector<size_t> order(ordered.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return position(a) < position(b); });
      std::vector<const Expr*> sorted;
      for (size_t i : order) sorted.push_back(ordered[i]);
      ordered = std::move(sorted);
    }
    std::string arguments;
    for (const Expr* arg : ordered) {
      auto printed = Print(*arg);
      if (!printed) return std::nullopt;
      arguments += (arguments.empty() ? "" : ", ") + *printed;
    }
    return routine->qualified_name + "(" + arguments + ")";
  }

  Name Function(const Expr& expr) {
    if (auto routine = RoutineCall(expr)) return routine;
    if (expr.name_parts.size() != 1 || !expr.within_group.empty()) return std::nullopt;
    const std::string name = ToLowerAscii(expr.name_parts[0]);
    const auto& args = expr.children;
    if (name == "[]") {
      auto base = Print(*args[0]);
      if (expr.text == "." && base) return *base + "." + args[1]->text;
      auto key = Print(*args[1]);
      if (!base || !key) return std::nullopt;
      return *base + "[" + *key + "]";
    }
    if (name == "extract" && args.size() == 2 && args[0]->kind == ExprKind::kLiteral) {
      auto source = Print(*args[1]);
      if (!source) return std::nullopt;
      return "extract(" + args[0]->text + " FROM " + *source + ")";
    }
    std::string arguments;
    if (expr.star) {
      arguments = "1";
    } else {
      auto list = List(args, 0);
      if (!list) return std::nullopt;
      arguments = *list;
    }
    auto add = [&arguments](const std::string& more) {
      arguments += (arguments.empty() ? "" : ", ") + more;
    };
    const size_t n = args.size();
    if ((name == "substring" || name == "substr") && n == 2) add("2147483647");
    if ((name == "round" || name == "bround") && n == 1) add("0");
    if (name == "locate" && n == 2) add("1");
    if (name == "split" && n == 2) add("-1");
    if (name == "regexp_replace" && n == 3) add("1");
    if ((name == "lpad" || name == "rpad") && n == 2) add(" ");
    if (name == "percentile" && n == 2) add("1");
    if ((name == "percentile_approx" || name == "approx_percentile") && n == 2) add("10000");
    if (name == "months_between" && n == 2) add("true");
    if (name == "unix_timestamp" && n == 1) add("yyyy-MM-dd HH:mm:ss");
    if ((name == "first" || name == "last") && n == 2) {
      if (args[1]->kind != ExprKind::kLiteral) return std::nullopt;
      auto list = List(args, 0);
      arguments = list->substr(0, list->rfind(", "));
    }
    if (name == "lag" || name == "lead") {
      if (n == 1) add("1");
      if (n <= 2) add("NULL");
    }
    if ((name == "trim" || name == "ltrim" || name == "rtrim") && n == 2) {
      auto characters = Print(*args[0]);
      auto source = Print(*args[1]);
      if (!characters || !source) return std::nullopt;
      const char* side = name == "trim" ? "BOTH" : name == "ltrim" ? "LEADING" : "TRAILING";
      return "TRIM(" + std::string(side) + " " + *characters + " FROM " + *source + ")";
    }
    std::string printed = UpperCaseFunctions().count(name) ? ToUpper(name) : name;
    std::string text = printed + "(" + (expr.distinct ? "DISTINCT " : "") + arguments + ")";
    if (name == "if") text = "(IF(" + arguments + "))";
    if (expr.filter) {
      auto condition = Print(*expr.filter);
      if (!condition) return std::nullopt;
      text += " FILTER (WHERE " + *condition + ")";
    }
    if (expr.window) {
      auto window = Window(name, expr);
      if (!window) return std::nullopt;
      text += " OVER (" + *window + ")";
    }
    return text;
  }

  Name Window(const std::string& function, const Expr& call) {
    const sql::WindowSpec& spec = *call.window;
    if (!spec.name.empty()) return std::nullopt;
    std::vector<std::string> parts;
    if (!spec.partition_by.empty()) {
      auto keys = List(spec.partition_by, 0);
      if (!keys) return std::nullopt;
      parts.push_back("PARTITION BY " + *keys);
    }
    if (!spec.order_by.empty()) {
      std::string order = "ORDER BY ";
      for (size_t i = 0; i < spec.order_by.size(); ++i) {
        const auto& item = spec.order_by[i];
        auto key = Print(*item.expr);
        if (!key) return std::nullopt;
        const bool nulls_first = item.nulls_first.value_or(item.ascending);
        order += (i == 0 ? "" : ", ") + *key + (item.ascending ? " ASC" : " DESC") +
                 (nulls_first ? " NULLS FIRST" : " NULLS LAST");
      }
      parts.push_back(order);
    }
    auto frame = Frame(function, call, spec);
    if (!frame) return std::nullopt;
    parts.push_back(*frame);
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : " ") + part;
    return out;
  }

  Name Frame(const std::string& function, const Expr& call, const sql::WindowSpec& spec) {
    if (function == "lag" || function == "lead") {
      int64_t offset = 1;
      if (call.children.size() > 1) {
        if (!IsIntegerLiteral(*call.children[1])) return std::nullopt;
        offset = std::stoll(call.children[1]->text);
      }
      if (function == "lag") offset = -offset;
      return "ROWS BETWEEN " + std::to_string(offset) + " FOLLOWING AND " + std::to_string(offset) +
             " FOLLOWING";
    }
    if (spec.frame) {
      auto start = Bound(spec.frame->start);
      auto end = Bound(spec.frame->end);
      if (!start || !end) return std::nullopt;
      return std::string(spec.frame->type == sql::FrameType::kRows ? "ROWS" : "RANGE") +
             " BETWEEN " + *start + " AND " + *end;
    }
    if (IsRankingFunction(function)) return "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    if (!spec.order_by.empty()) return "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    return "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
  }

  Name Bound(const sql::FrameBound& bound) {
    switch (bound.type) {
      case sql::FrameBoundType::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
      case sql::FrameBoundType::kCurrentRow: return "CURRENT ROW";
      case sql::FrameBoundType::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
      case sql::FrameBoundType::kPreceding:
      case sql::FrameBoundType::kFollowing: {
        if (bound.offset == nullptr || !IsIntegerLiteral(*bound.offset)) return std::nullopt;
        auto offset = Print(*bound.offset);
        if (!offset) return std::nullopt;
        return *offset +
               (bound.type == sql::FrameBoundType::kPreceding ? " PRECEDING" : " FOLLOWING");
      }
    }
    return std::nullopt;
  }
};

}  // namespace

std::optional<std::string> SparkItemName(const sql::Expr& expr) {
  if (expr.kind == ExprKind::kCast && expr.children[0]->kind == ExprKind::kColumn) {
    return expr.children[0]->name_parts.back();
  }
  return Printer().Print(expr);
}

}  // namespace parley
