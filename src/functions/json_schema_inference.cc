#include "functions/json_schema_inference.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "arrow/type.h"
#include "kernels/json_document.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

using kernels::JsonValue;
using TypePtr = std::shared_ptr<arrow::DataType>;

TypePtr Merge(const TypePtr& a, const TypePtr& b);

// The struct of the fields of `a` and `b`, each the merge of both sides' types, by name.
TypePtr MergeStructs(const arrow::DataType& a, const arrow::DataType& b) {
  std::map<std::string, TypePtr> fields;
  for (const auto* side : {&a, &b}) {
    for (const auto& field : side->fields()) {
      auto& type = fields[field->name()];
      type = type ? Merge(type, field->type()) : field->type();
    }
  }
  arrow::FieldVector merged;
  for (const auto& [name, type] : fields) merged.push_back(arrow::field(name, type));
  return arrow::struct_(merged);
}

TypePtr Merge(const TypePtr& a, const TypePtr& b) {
  if (a->id() == arrow::Type::NA) return b;
  if (b->id() == arrow::Type::NA || a->Equals(*b)) return a;
  auto is_number = [](const TypePtr& t) {
    return t->id() == arrow::Type::INT64 || t->id() == arrow::Type::DOUBLE ||
           t->id() == arrow::Type::DECIMAL128;
  };
  if (is_number(a) && is_number(b)) {
    if (a->id() == arrow::Type::DOUBLE || b->id() == arrow::Type::DOUBLE) return arrow::float64();
    // An integer beside a long integer: the decimal holds both.
    if (a->id() == arrow::Type::DECIMAL128 && b->id() == arrow::Type::DECIMAL128) {
      int32_t precision = std::max(static_cast<const arrow::Decimal128Type&>(*a).precision(),
                                   static_cast<const arrow::Decimal128Type&>(*b).precision());
      return arrow::decimal128(precision, 0);
    }
    auto decimal = a->id() == arrow::Type::DECIMAL128 ? a : b;
    int32_t precision =
        std::max(static_cast<const arrow::Decimal128Type&>(*decimal).precision(), 20);
    return arrow::decimal128(precision, 0);
  }
  if (a->id() == arrow::Type::STRUCT && b->id() == arrow::Type::STRUCT) {
    return MergeStructs(*a, *b);
  }
  if (a->id() == arrow::Type::LIST && b->id() == arrow::Type::LIST) {
    return arrow::list(Merge(a->field(0)->type(), b->field(0)->type()));
  }
  return arrow::utf8();
}

// The type of `value`, with NULL (arrow::null) where nothing is known yet.
TypePtr Infer(const JsonValue& value) {
  switch (value.kind) {
    case JsonValue::Kind::kNull: return arrow::null();
    case JsonValue::Kind::kBoolean: return arrow::boolean();
    case JsonValue::Kind::kInteger: {
      int64_t parsed;
      const char* end = value.text.data() + value.text.size();
      auto [ptr, error] = std::from_chars(value.text.data(), end, parsed);
      if (error == std::errc() && ptr == end) return arrow::int64();
      size_t digits = value.text.size() - (value.text[0] == '-' ? 1 : 0);
      if (digits <= 38) return arrow::decimal128(static_cast<int32_t>(digits), 0);
      return arrow::float64();
    }
    case JsonValue::Kind::kFloat: return arrow::float64();
    case JsonValue::Kind::kString: return arrow::utf8();
    case JsonValue::Kind::kArray: {
      TypePtr element = arrow::null();
      for (const auto& item : value.items) element = Merge(element, Infer(item));
      return arrow::list(element);
    }
    case JsonValue::Kind::kObject: {
      std::map<std::string, TypePtr> fields;
      for (size_t i = 0; i < value.keys.size(); ++i) {
        auto type = Infer(value.items[i]);
        auto [it, added] = fields.emplace(value.keys[i], type);
        if (!added) it->second = Merge(it->second, type);
      }
      arrow::FieldVector made;
      for (const auto& [name, type] : fields) made.push_back(arrow::field(name, type));
      return arrow::struct_(made);
    }
  }
  return arrow::utf8();
}

// `type` with every part nothing was learned of made STRING.
TypePtr Settle(const TypePtr& type) {
  switch (type->id()) {
    case arrow::Type::NA: return arrow::utf8();
    case arrow::Type::LIST: return arrow::list(Settle(type->field(0)->type()));
    case arrow::Type::STRUCT: {
      arrow::FieldVector fields;
      for (const auto& field : type->fields()) {
        fields.push_back(arrow::field(field->name(), Settle(field->type())));
      }
      return arrow::struct_(fields);
    }
    default: return type;
  }
}

// `type` as schema_of_json writes it: Spark's type names, field names as they are.
std::string SchemaText(const arrow::DataType& type) {
  if (type.id() == arrow::Type::LIST) return "ARRAY<" + SchemaText(*type.field(0)->type()) + ">";
  if (type.id() != arrow::Type::STRUCT) return SqlTypeName(type);
  std::string out = "STRUCT<";
  for (int i = 0; i < type.num_fields(); ++i) {
    if (i > 0) out += ", ";
    out += type.field(i)->name() + ": " + SchemaText(*type.field(i)->type());
  }
  return out + ">";
}

}  // namespace

std::string InferJsonSchema(std::string_view text) {
  auto document = kernels::ParseJson(text);
  if (!document) return "STRING";
  return SchemaText(*Settle(Infer(*document)));
}

}  // namespace parley
