// SQL function definitions as JSON files in the warehouse (see function_files.h).
#include "connectors/delta/function_files.h"

#include <nlohmann/json.hpp>

#include "arrow/type.h"
#include "connectors/delta/catalog_files.h"
#include "connectors/delta/log/delta_schema.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

using nlohmann::json;

constexpr const char* kFunctionFileSuffix = ".function";
constexpr int kFunctionFileVersion = 1;

Result<std::vector<Column>> ColumnsFromJson(const std::string& text) {
  ARROW_ASSIGN_OR_RAISE(auto schema, SchemaFromDeltaJson(text));
  return SchemaToColumns(*PlainSchema(*schema));
}

// A type as the Delta schema JSON of a one-field schema.
Result<std::string> TypeToJson(const std::shared_ptr<arrow::DataType>& type) {
  return SchemaToDeltaJson(*arrow::schema({arrow::field("value", type)}));
}

Result<std::shared_ptr<arrow::DataType>> TypeFromJson(const std::string& text) {
  ARROW_ASSIGN_OR_RAISE(auto columns, ColumnsFromJson(text));
  if (columns.size() != 1) return Status::Invalid("one type expected");
  return columns[0].type;
}

}  // namespace

std::string FunctionFilePath(const std::string& namespace_dir, const std::string& lower_name) {
  return CatalogFilePath(namespace_dir, lower_name, kFunctionFileSuffix);
}

bool IsFunctionFileName(const std::string& base_name, std::string* lower_name) {
  return IsCatalogFileName(base_name, kFunctionFileSuffix, lower_name);
}

Status WriteFunctionFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                         const SqlFunctionInfo& info) {
  json parameters = json::array();
  for (const auto& parameter : info.parameters) {
    ARROW_ASSIGN_OR_RAISE(std::string type, TypeToJson(parameter.type));
    parameters.push_back(
        {{"name", parameter.name},
         {"type", type},
         {"default", parameter.default_value ? json(*parameter.default_value) : json(nullptr)},
         {"comment", parameter.comment}});
  }
  json body = {{"version", kFunctionFileVersion},  {"parameters", parameters},
               {"isTable", info.is_table},         {"body", info.body},
               {"comment", info.comment},          {"deterministic", info.deterministic},
               {"dataAccess", info.data_access},   {"sqlConfigs", info.sql_configs},
               {"createTime", info.create_time_ms}};
  if (info.is_table) {
    ARROW_ASSIGN_OR_RAISE(body["returnColumns"],
                          SchemaToDeltaJson(*ColumnsToSchema(info.return_columns)));
  } else {
    ARROW_ASSIGN_OR_RAISE(body["returnType"], TypeToJson(info.return_type));
  }
  return WriteCatalogFile(filesystem, path, body.dump());
}

Result<SqlFunctionInfo> ReadFunctionFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                                         const std::string& display) {
  ARROW_ASSIGN_OR_RAISE(std::string text, ReadTextFile(filesystem, path));
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return CorruptCatalogFile("function", display, "not a JSON object");
  if (body.value("version", 0) != kFunctionFileVersion) {
    return CorruptCatalogFile("function", display,
                              "unknown version " + body.value("version", json()).dump());
  }
  try {
    SqlFunctionInfo info;
    for (const auto& parameter : body.at("parameters")) {
      auto type = TypeFromJson(parameter.at("type").get<std::string>());
      if (!type.ok()) return CorruptCatalogFile("function", display, type.status().message());
      SqlFunctionParameter out{parameter.at("name").get<std::string>(), *type};
      if (!parameter.at("default").is_null()) {
        out.default_value = parameter.at("default").get<std::string>();
      }
      out.comment = parameter.at("comment").get<std::string>();
      info.parameters.push_back(std::move(out));
    }
    info.is_table = body.at("isTable").get<bool>();
    info.body = body.at("body").get<std::string>();
    info.comment = body.at("comment").get<std::string>();
    info.deterministic = body.at("deterministic").get<bool>();
    info.data_access = body.at("dataAccess").get<std::string>();
    info.sql_configs = body.at("sqlConfigs").get<std::map<std::string, std::string>>();
    info.create_time_ms = body.at("createTime").get<int64_t>();
    if (info.is_table) {
      auto columns = ColumnsFromJson(body.at("returnColumns").get<std::string>());
      if (!columns.ok()) return CorruptCatalogFile("function", display, columns.status().message());
      info.return_columns = std::move(*columns);
    } else {
      auto type = TypeFromJson(body.at("returnType").get<std::string>());
      if (!type.ok()) return CorruptCatalogFile("function", display, type.status().message());
      info.return_type = *type;
    }
    return info;
  } catch (const json::exception& error) {
    return CorruptCatalogFile("function", display, error.what());
  }
}

}  // namespace parley::delta
