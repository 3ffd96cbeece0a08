// View definitions as JSON files in the warehouse (see view_files.h).
#include "connectors/delta/view_files.h"

#include <nlohmann/json.hpp>

#include "arrow/type.h"
#include "connectors/delta/catalog_files.h"
#include "connectors/delta/log/delta_schema.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

using nlohmann::json;

constexpr const char* kViewFileSuffix = ".view";
constexpr int kViewFileVersion = 1;

}  // namespace

std::string ViewFilePath(const std::string& namespace_dir, const std::string& lower_name) {
  return CatalogFilePath(namespace_dir, lower_name, kViewFileSuffix);
}

bool IsViewFileName(const std::string& base_name, std::string* lower_name) {
  return IsCatalogFileName(base_name, kViewFileSuffix, lower_name);
}

Status WriteViewFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                     const ViewInfo& info) {
  ARROW_ASSIGN_OR_RAISE(std::string schema, SchemaToDeltaJson(*ColumnsToSchema(info.columns)));
  json body = {{"version", kViewFileVersion},
               {"queryText", info.query_text},
               {"currentCatalog", info.current_catalog},
               {"currentNamespace", info.current_namespace},
               {"sqlConfigs", info.sql_configs},
               {"schema", schema},
               {"queryColumnNames", info.query_column_names},
               {"properties", info.properties}};
  return WriteCatalogFile(filesystem, path, body.dump());
}

Result<ViewInfo> ReadViewFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                              const std::string& display) {
  ARROW_ASSIGN_OR_RAISE(std::string text, ReadTextFile(filesystem, path));
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return CorruptCatalogFile("view", display, "not a JSON object");
  if (body.value("version", 0) != kViewFileVersion) {
    return CorruptCatalogFile("view", display,
                              "unknown version " + body.value("version", json()).dump());
  }
  try {
    ViewInfo info;
    info.query_text = body.at("queryText").get<std::string>();
    info.current_catalog = body.at("currentCatalog").get<std::string>();
    info.current_namespace = body.at("currentNamespace").get<std::vector<std::string>>();
    info.sql_configs = body.at("sqlConfigs").get<std::map<std::string, std::string>>();
    info.query_column_names = body.at("queryColumnNames").get<std::vector<std::string>>();
    info.properties = body.at("properties").get<std::map<std::string, std::string>>();
    auto schema = SchemaFromDeltaJson(body.at("schema").get<std::string>());
    if (!schema.ok()) return CorruptCatalogFile("view", display, schema.status().message());
    info.columns = SchemaToColumns(*PlainSchema(**schema));
    if (info.query_column_names.size() != info.columns.size()) {
      return CorruptCatalogFile("view", display, "as many query column names as columns expected");
    }
    return info;
  } catch (const json::exception& error) {
    return CorruptCatalogFile("view", display, error.what());
  }
}

}  // namespace parley::delta
