// Conversions between the scenario format's JSON and Arrow.
#include "tests/cdc/cdc_case_data.h"

#include <fmt/format.h>

#include <cctype>

#include "arrow/api.h"

namespace parley::testing {
namespace {

std::string Trim(const std::string& text) {
  size_t begin = text.find_first_not_of(' ');
  size_t end = text.find_last_not_of(' ');
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

// Split `text` on commas that are not inside angle brackets.
std::vector<std::string> SplitTopLevel(const std::string& text) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(Trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!Trim(current).empty()) parts.push_back(Trim(current));
  return parts;
}

Result<std::shared_ptr<arrow::Scalar>> JsonScalar(const std::shared_ptr<arrow::DataType>& type,
                                                  const nlohmann::json& value) {
  if (value.is_null()) return arrow::MakeNullScalar(type);
  switch (type->id()) {
    case arrow::Type::STRUCT: {
      arrow::ScalarVector children;
      for (const auto& field : type->fields()) {
        nlohmann::json child = value.contains(field->name()) ? value[field->name()] : nullptr;
        ARROW_ASSIGN_OR_RAISE(auto scalar, JsonScalar(field->type(), child));
        children.push_back(std::move(scalar));
      }
      return std::make_shared<arrow::StructScalar>(std::move(children), type);
    }
    case arrow::Type::STRING:
      return std::make_shared<arrow::StringScalar>(value.get<std::string>());
    case arrow::Type::BINARY: {
      std::string hex = value.get<std::string>();
      std::string bytes;
      for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
      }
      return std::make_shared<arrow::BinaryScalar>(bytes);
    }
    case arrow::Type::BOOL: return std::make_shared<arrow::BooleanScalar>(value.get<bool>());
    default:
      return arrow::Scalar::Parse(type,
                                  value.is_string() ? value.get<std::string>() : value.dump());
  }
}

}  // namespace

Result<std::shared_ptr<arrow::DataType>> CaseType(const std::string& name) {
  std::string lower = name;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "bigint" || lower == "long") return arrow::int64();
  if (lower == "int" || lower == "integer") return arrow::int32();
  if (lower == "smallint") return arrow::int16();
  if (lower == "tinyint") return arrow::int8();
  if (lower == "string") return arrow::utf8();
  if (lower == "boolean") return arrow::boolean();
  if (lower == "double") return arrow::float64();
  if (lower == "float") return arrow::float32();
  if (lower == "binary") return arrow::binary();
  if (lower == "date") return arrow::date32();
  if (lower == "timestamp") return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  if (lower == "timestamp_ntz") return arrow::timestamp(arrow::TimeUnit::MICRO);
  if (lower.rfind("struct<", 0) == 0 && lower.back() == '>') {
    arrow::FieldVector fields;
    for (const auto& member : SplitTopLevel(name.substr(7, name.size() - 8))) {
      size_t colon = member.find(':');
      if (colon == std::string::npos) return Status::Invalid("bad struct member: ", member);
      ARROW_ASSIGN_OR_RAISE(auto type, CaseType(Trim(member.substr(colon + 1))));
      fields.push_back(arrow::field(Trim(member.substr(0, colon)), std::move(type)));
    }
    return arrow::struct_(std::move(fields));
  }
  return Status::Invalid("unknown type name in case: ", name);
}

Result<std::shared_ptr<arrow::Schema>> CaseSchema(const nlohmann::json& schema) {
  arrow::FieldVector fields;
  for (const auto& column : schema) {
    ARROW_ASSIGN_OR_RAISE(auto type, CaseType(column.at(1).get<std::string>()));
    fields.push_back(arrow::field(column.at(0).get<std::string>(), std::move(type)));
  }
  return arrow::schema(std::move(fields));
}

Result<std::shared_ptr<arrow::Table>> CaseTable(const std::shared_ptr<arrow::Schema>& schema,
                                                const nlohmann::json& rows) {
  arrow::ArrayVector columns;
  for (const auto& field : schema->fields()) {
    std::unique_ptr<arrow::ArrayBuilder> builder;
    ARROW_RETURN_NOT_OK(arrow::MakeBuilder(arrow::default_memory_pool(), field->type(), &builder));
    for (const auto& row : rows) {
      nlohmann::json value = row.contains(field->name()) ? row[field->name()] : nullptr;
      ARROW_ASSIGN_OR_RAISE(auto scalar, JsonScalar(field->type(), value));
      ARROW_RETURN_NOT_OK(builder->AppendScalar(*scalar));
    }
    ARROW_ASSIGN_OR_RAISE(auto array, builder->Finish());
    columns.push_back(std::move(array));
  }
  return arrow::Table::Make(schema, std::move(columns), static_cast<int64_t>(rows.size()));
}

Result<std::vector<std::string>> RowTexts(const arrow::Table& table) {
  std::vector<std::string> rows(table.num_rows());
  for (int c = 0; c < table.num_columns(); ++c) {
    for (int64_t r = 0; r < table.num_rows(); ++r) {
      ARROW_ASSIGN_OR_RAISE(auto scalar, table.column(c)->GetScalar(r));
      rows[r] += fmt::format("{}{}={}", c == 0 ? "" : ", ", table.field(c)->name(),
                             scalar->is_valid ? scalar->ToString() : "NULL");
    }
  }
  return rows;
}

}  // namespace parley::testing
