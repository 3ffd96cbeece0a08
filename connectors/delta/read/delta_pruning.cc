// Predicates over what the log knows of a file: exact evaluation on partition values, and
// statistics-based skipping (§5). Both compare a column's value with literals converted to the
// column's type; a literal that does not convert makes a predicate non-exact and never skips.
#include <optional>
#include <string>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "arrow/util/decimal.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/read/pruning.h"
#include "connectors/delta/table_state.h"

namespace parley::delta {
namespace {

const Predicate* AsPredicate(const ExpressionPtr& expression) {
  return dynamic_cast<const Predicate*>(expression.get());
}

const Literal* AsLiteral(const ExpressionPtr& expression) {
  return dynamic_cast<const Literal*>(expression.get());
}

// The literal converted to `type`, or nullptr when it does not convert without loss.
std::shared_ptr<arrow::Scalar> LiteralAs(const Literal& literal,
                                         const std::shared_ptr<arrow::DataType>& type) {
  const auto& value = literal.value();
  if (value == nullptr) return nullptr;
  if (value->type->Equals(*type)) return value;
  if (!value->is_valid) return arrow::MakeNullScalar(type);
  auto cast = value->CastTo(type);
  if (!cast.ok()) return nullptr;
  // The conversion must round-trip, or comparisons would be on a different value.
  auto back = (*cast)->CastTo(value->type);
  if (!back.ok() || !(*back)->Equals(*value)) return nullptr;
  return *cast;
}

template <typename T>
int Order(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Compare two valid scalars of the same type; nullopt for types without an order here.
std::optional<int> Compare(const arrow::Scalar& a, const arrow::Scalar& b) {
  if (!a.type->Equals(*b.type)) return std::nullopt;
  switch (a.type->id()) {
    case arrow::Type::INT8:
      return Order(static_cast<const arrow::Int8Scalar&>(a).value,
                   static_cast<const arrow::Int8Scalar&>(b).value);
    case arrow::Type::INT16:
      return Order(static_cast<const arrow::Int16Scalar&>(a).value,
                   static_cast<const arrow::Int16Scalar&>(b).value);
    case arrow::Type::INT32:
      return Order(static_cast<const arrow::Int32Scalar&>(a).value,
                   static_cast<const arrow::Int32Scalar&>(b).value);
    case arrow::Type::DATE32:
      return Order(static_cast<const arrow::Date32Scalar&>(a).value,
                   static_cast<const arrow::Date32Scalar&>(b).value);
    case arrow::Type::INT64:
      return Order(static_cast<const arrow::Int64Scalar&>(a).value,
                   static_cast<const arrow::Int64Scalar&>(b).value);
    case arrow::Type::TIMESTAMP:
      return Order(static_cast<const arrow::TimestampScalar&>(a).value,
                   static_cast<const arrow::TimestampScalar&>(b).value);
    case arrow::Type::FLOAT:
      return Order(static_cast<const arrow::FloatScalar&>(a).value,
                   static_cast<const arrow::FloatScalar&>(b).value);
    case arrow::Type::DOUBLE:
      return Order(static_cast<const arrow::DoubleScalar&>(a).value,
                   static_cast<const arrow::DoubleScalar&>(b).value);
    case arrow::Type::DECIMAL128:
      return Order(static_cast<const arrow::Decimal128Scalar&>(a).value,
                   static_cast<const arrow::Decimal128Scalar&>(b).value);
    case arrow::Type::BOOL:
      return Order(static_cast<const arrow::BooleanScalar&>(a).value,
                   static_cast<const arrow::BooleanScalar&>(b).value);
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      return Order(static_cast<const arrow::BaseBinaryScalar&>(a).view(),
                   static_cast<const arrow::BaseBinaryScalar&>(b).view());
    default: return std::nullopt;
  }
}

bool IsComparison(const std::string& name) {
  return name == "=" || name == "<>" || name == "<" || name == "<=" || name == ">" ||
         name == ">=" || name == "<=>";
}

// `lit op col` is `col flipped(op) lit`.
std::string Flip(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

// A comparison normalized to column-op-literal.
struct Comparison {
  std::string column;
  std::string op;
  const Literal* literal = nullptr;
};

std::optional<Comparison> AsComparison(const Predicate& predicate) {
  auto children = predicate.children();
  if (!IsComparison(predicate.name()) || children.size() != 2) return std::nullopt;
  if (const std::string* name = AsColumnName(*children[0])) {
    if (const Literal* literal = AsLiteral(children[1]))
      return Comparison{*name, predicate.name(), literal};
  }
  if (const std::string* name = AsColumnName(*children[1])) {
    if (const Literal* literal = AsLiteral(children[0])) {
      return Comparison{*name, Flip(predicate.name()), literal};
    }
  }
  return std::nullopt;
}

std::optional<bool> Apply(const std::string& op, int order) {
  if (op == "=" || op == "<=>") return order == 0;
  if (op == "<>") return order != 0;
  if (op == "<") return order < 0;
  if (op == "<=") return order <= 0;
  if (op == ">") return order > 0;
  return order >= 0;
}

}  // namespace

bool IsExactlyEvaluable(const Predicate& predicate, const arrow::Schema& columns) {
  const std::string& name = predicate.name();
  auto children = predicate.children();
  if (name == "ALWAYS_TRUE" || name == "ALWAYS_FALSE") return children.empty();
  if (name == "AND" || name == "OR" || name == "NOT") {
    if (children.size() != (name == "NOT" ? 1u : 2u)) return false;
    for (const auto& child : children) {
      const Predicate* inner = AsPredicate(child);
      if (inner == nullptr || !IsExactlyEvaluable(*inner, columns)) return false;
    }
    return true;
  }
  if (name == "IS_NULL" || name == "IS_NOT_NULL") {
    const std::string* column = children.size() == 1 ? AsColumnName(*children[0]) : nullptr;
    return column != nullptr && columns.GetFieldByName(*column) != nullptr;
  }
  if (auto comparison = AsComparison(predicate)) {
    auto field = columns.GetFieldByName(comparison->column);
    return field != nullptr && LiteralAs(*comparison->literal, field->type()) != nullptr &&
           (!comparison->literal->value()->is_valid ||
            Compare(*LiteralAs(*comparison->literal, field->type()),
                    *LiteralAs(*comparison->literal, field->type()))
                .has_value());
  }
  if (name == "IN" && children.size() >= 2) {
    const std::string* column = AsColumnName(*children[0]);
    auto field = column ? columns.GetFieldByName(*column) : nullptr;
    if (field == nullptr) return false;
    for (size_t i = 1; i < children.size(); ++i) {
      const Literal* literal = AsLiteral(children[i]);
      if (literal == nullptr) return false;
      auto value = LiteralAs(*literal, field->type());
      if (value == nullptr || (value->is_valid && !Compare(*value, *value).has_value())) {
        return false;
      }
    }
    return true;
  }
  return false;
}

std::optional<bool> EvaluateOnPartition(
    const Predicate& predicate,
    const std::map<std::string, std::shared_ptr<arrow::Scalar>>& values) {
  const std::string& name = predicate.name();
  auto children = predicate.children();
  auto value_of = [&](const std::string& column) -> std::shared_ptr<arrow::Scalar> {
    auto it = values.find(column);
    return it == values.end() ? nullptr : it->second;
  };
  auto child = [&](size_t i) { return EvaluateOnPartition(*AsPredicate(children[i]), values); };
  if (name == "ALWAYS_TRUE") return true;
  if (name == "ALWAYS_FALSE") return false;
  if (name == "NOT") {
    auto inner = child(0);
    if (!inner) return std::nullopt;
    return !*inner;
  }
  if (name == "AND") {
    auto a = child(0), b = child(1);
    if ((a && !*a) || (b && !*b)) return false;
    if (a && b) return true;
    return std::nullopt;
  }
  if (name == "OR") {
    auto a = child(0), b = child(1);
    if ((a && *a) || (b && *b)) return true;
    if (a && b) return false;
    return std::nullopt;
  }
  if (name == "IS_NULL" || name == "IS_NOT_NULL") {
    auto value = value_of(*AsColumnName(*children[0]));
    bool is_null = value == nullptr || !value->is_valid;
    return name == "IS_NULL" ? is_null : !is_null;
  }
  if (auto comparison = AsComparison(predicate)) {
    auto value = value_of(comparison->column);
    bool value_null = value == nullptr || !value->is_valid;
    auto literal = value_null ? nullptr : LiteralAs(*comparison->literal, value->type);
    bool literal_null = !comparison->literal->value()->is_valid;
    if (comparison->op == "<=>" && (value_null || literal_null)) return value_null && literal_null;
    if (value_null || literal_null || literal == nullptr) return std::nullopt;
    auto order = Compare(*value, *literal);
    if (!order) return std::nullopt;
    return Apply(comparison->op, *order);
  }
  if (name == "IN") {
    auto value = value_of(*AsColumnName(*children[0]));
    if (value == nullptr || !value->is_valid) return std::nullopt;
    bool saw_null = false;
    for (size_t i = 1; i < children.size(); ++i) {
      auto literal = LiteralAs(*AsLiteral(children[i]), value->type);
      if (literal == nullptr || !literal->is_valid) {
        saw_null = true;
        continue;
      }
      auto order = Compare(*value, *literal);
      if (order && *order == 0) return true;
    }
    if (saw_null) return std::nullopt;
    return false;
  }
  return std::nullopt;
}

bool StatisticsExcludeFile(const Predicate& predicate, const FileFacts& facts) {
  const std::string& name = predicate.name();
  auto children = predicate.children();
  const FileStatistics& stats = facts.stats;
  if (name == "AND" && children.size() == 2) {
    for (const auto& child : children) {
      const Predicate* inner = AsPredicate(child);
      if (inner != nullptr && StatisticsExcludeFile(*inner, facts)) return true;
    }
    return false;
  }
  if (name == "OR" && children.size() == 2) {
    for (const auto& child : children) {
      const Predicate* inner = AsPredicate(child);
      if (inner == nullptr || !StatisticsExcludeFile(*inner, facts)) return false;
    }
    return true;
  }
  if ((name == "IS_NULL" || name == "IS_NOT_NULL") && children.size() == 1) {
    const std::string* column = AsColumnName(*children[0]);
    if (column == nullptr) return false;
    auto nulls = stats.null_counts.find(*column);
    if (nulls == stats.null_counts.end()) return false;
    if (name == "IS_NULL") return nulls->second == 0;
    return stats.num_records.has_value() && nulls->second == *stats.num_records;
  }
  auto bounds = [&](const std::string& column, std::shared_ptr<arrow::Scalar>* min,
                    std::shared_ptr<arrow::Scalar>* max) {
    auto lo = stats.min_values.find(column);
    auto hi = stats.max_values.find(column);
    if (lo == stats.min_values.end() || hi == stats.max_values.end()) return false;
    *min = lo->second;
    *max = hi->second;
    return true;
  };
  // Whether no value in [min, max] can satisfy `value op literal`.
  auto outside = [](const std::string& op, const arrow::Scalar& min, const arrow::Scalar& max,
                    const arrow::Scalar& literal) {
    auto low = Compare(min, literal);
    auto high = Compare(max, literal);
    if (!low || !high) return false;
    if (op == "=" || op == "<=>") return *low > 0 || *high < 0;
    if (op == "<") return *low >= 0;
    if (op == "<=") return *low > 0;
    if (op == ">") return *high <= 0;
    if (op == ">=") return *high < 0;
    return false;
  };
  if (auto comparison = AsComparison(predicate)) {
    std::shared_ptr<arrow::Scalar> min, max;
    if (!bounds(comparison->column, &min, &max)) return false;
    auto literal = LiteralAs(*comparison->literal, min->type);
    if (literal == nullptr || !literal->is_valid) return false;
    return outside(comparison->op, *min, *max, *literal);
  }
  if (name == "IN" && children.size() >= 2) {
    const std::string* column = AsColumnName(*children[0]);
    std::shared_ptr<arrow::Scalar> min, max;
    if (column == nullptr || !bounds(*column, &min, &max)) return false;
    for (size_t i = 1; i < children.size(); ++i) {
      const Literal* literal = AsLiteral(children[i]);
      if (literal == nullptr) return false;
      auto value = LiteralAs(*literal, min->type);
      if (value == nullptr) return false;
      if (value->is_valid && !outside("=", *min, *max, *value)) return false;
    }
    return true;
  }
  return false;
}

std::shared_ptr<arrow::Schema> PartitionSchema(const TableState& table) {
  arrow::FieldVector fields;
  for (const auto& name : table.partition_columns) {
    fields.push_back(table.schema->GetFieldByName(name));
  }
  return arrow::schema(std::move(fields));
}

Result<std::map<std::string, std::shared_ptr<arrow::Scalar>>> TypedPartitionValues(
    const TableState& table, const FileAction& file) {
  std::map<std::string, std::shared_ptr<arrow::Scalar>> values;
  for (const auto& name : table.partition_columns) {
    const auto& field = *table.annotated_schema->GetFieldByName(name);
    auto raw = file.partition_values.find(PhysicalName(field, table.mode));
    std::optional<std::string> value;
    if (raw != file.partition_values.end()) value = raw->second;
    ARROW_ASSIGN_OR_RAISE(values[name], ParsePartitionValue(value, PlainType(field.type()), name));
  }
  return values;
}

}  // namespace parley::delta
