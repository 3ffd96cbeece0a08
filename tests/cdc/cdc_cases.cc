// The change-data scenario runner (see cdc_cases.h).
#include "tests/cdc/cdc_cases.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "arrow/table.h"
#include "connectors/memory/memory_catalog.h"
#include "parley/session.h"
#include "tests/cdc/cdc_case_data.h"

namespace parley::testing {
namespace {

using nlohmann::json;

constexpr const char* kCatalog = "cdc_test_catalog";

std::string Text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::vector<std::string> Path(const std::string& dotted) {
  std::vector<std::string> parts;
  std::stringstream in(dotted);
  for (std::string part; std::getline(in, part, '.');) parts.push_back(part);
  return parts;
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

// The read options a case gives through `options`.
std::map<std::string, std::string> PostProcessingOptions(const json& c) {
  std::map<std::string, std::string> options;
  if (c.contains("options")) {
    for (const auto& [key, value] : c["options"].items()) options[key] = Text(value);
  }
  return options;
}

// `FROM VERSION '1' INCLUSIVE`-style bound of the case's range.
std::string Bound(const json& range, const char* value_key, const char* inclusive_key) {
  std::string kind = range.value("type", "version") == "timestamp" ? "TIMESTAMP" : "VERSION";
  std::string out = kind + " " + Quote(Text(range[value_key]));
  if (range.contains(inclusive_key)) {
    out += range[inclusive_key].get<bool>() ? " INCLUSIVE" : " EXCLUSIVE";
  }
  return out;
}

std::string ChangesQuery(const json& c) {
  const json& range = c["range"];
  std::string query = fmt::format("SELECT * FROM {}.default.events CHANGES FROM {}", kCatalog,
                                  Bound(range, "start", "start_inclusive"));
  if (range.contains("end") && !range["end"].is_null()) {
    query += " TO " + Bound(range, "end", "end_inclusive");
  }
  std::vector<std::string> options;
  for (const auto& [key, value] : PostProcessingOptions(c)) {
    options.push_back(fmt::format("{} = {}", Quote(key), Quote(value)));
  }
  if (!options.empty()) query += fmt::format(" WITH ({})", fmt::join(options, ", "));
  return query;
}

Result<std::shared_ptr<arrow::Table>> Read(Session* session, const json& c) {
  bool sql = c.contains("range") && !c["range"].is_null() &&
             !(c.contains("reader_options") && !c["reader_options"].is_null());
  if (sql) return session->Sql(ChangesQuery(c));
  DataReader reader = session->Read();
  for (const auto& [key, value] : PostProcessingOptions(c)) reader.Option(key, value);
  if (c.contains("reader_options") && c["reader_options"].is_object()) {
    for (const auto& [key, value] : c["reader_options"].items()) reader.Option(key, Text(value));
  }
  return reader.Changes(fmt::format("{}.default.events", kCatalog));
}

Result<memory::MemoryChangelogData> ChangelogData(const json& c) {
  memory::MemoryChangelogData data;
  ARROW_ASSIGN_OR_RAISE(auto schema, CaseSchema(c.at("schema")));
  ARROW_ASSIGN_OR_RAISE(data.rows, CaseTable(schema, c.value("input", json::array())));
  const json flags = c.value("changelog_flags", json::object());
  data.contains_carryover_rows = flags.value("containsCarryoverRows", false);
  data.contains_intermediate_changes = flags.value("containsIntermediateChanges", false);
  data.represents_update_as_delete_and_insert =
      flags.value("representsUpdateAsDeleteAndInsert", false);
  for (const auto& column : c.value("row_id", json::array())) {
    data.row_id.push_back(Path(column.get<std::string>()));
  }
  if (c.contains("row_version") && c["row_version"].is_string()) {
    data.row_version = Path(c["row_version"].get<std::string>());
  }
  if (c.contains("changelog_name")) {
    data.name = c["changelog_name"].get<std::string>();
  } else if (c.contains("error_parameters") && c["error_parameters"].contains("changelogName")) {
    data.name = c["error_parameters"]["changelogName"].get<std::string>();
  }
  return data;
}

// Empty when the error matches the case's expected condition and parameters.
std::string CompareError(const json& c, const Status& status) {
  std::string expected = c["expected_error"].get<std::string>();
  if (status.ok()) return "expected error " + expected + ", the read succeeded";
  if (ErrorCondition(status) != expected) {
    return fmt::format("expected error {}, got {}", expected, status.ToString());
  }
  auto parameters = ErrorParameters(status);
  const json expected_parameters = c.value("error_parameters", json::object());
  for (const auto& [key, value] : expected_parameters.items()) {
    auto it = parameters.find(key);
    if (it == parameters.end() || it->second != Text(value)) {
      return fmt::format("error parameter {}: expected '{}', got '{}' ({})", key, Text(value),
                         it == parameters.end() ? "<missing>" : it->second, status.ToString());
    }
  }
  return {};
}

// Empty when the result holds exactly the expected rows (in order when the case says so).
Result<std::string> CompareRows(const json& c, const std::shared_ptr<arrow::Schema>& schema,
                                const arrow::Table& result) {
  std::vector<std::string> expected_names;
  for (const auto& field : schema->fields()) expected_names.push_back(field->name());
  if (result.schema()->field_names() != expected_names) {
    return fmt::format("columns [{}], expected [{}]",
                       fmt::join(result.schema()->field_names(), ", "),
                       fmt::join(expected_names, ", "));
  }
  ARROW_ASSIGN_OR_RAISE(auto expected_table, CaseTable(schema, c["expected"]));
  ARROW_ASSIGN_OR_RAISE(auto expected, RowTexts(*expected_table));
  ARROW_ASSIGN_OR_RAISE(auto actual, RowTexts(result));
  if (!c.value("order_sensitive", false)) {
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
  }
  if (expected == actual) return std::string();
  return fmt::format("rows differ\n  expected:\n    {}\n  actual:\n    {}",
                     fmt::join(expected, "\n    "), fmt::join(actual, "\n    "));
}

CdcCaseOutcome RunCase(const json& c) {
  CdcCaseOutcome outcome;
  outcome.name = c.value("name", "<unnamed>");
  auto fail = [&](std::string detail) {
    outcome.detail = std::move(detail);
    return outcome;
  };
  if (c.value("mode", "batch") != "batch") {
    return fail("mode '" + c.value("mode", "") + "' is not supported (batch reads only)");
  }
  auto data = ChangelogData(c);
  if (!data.ok()) return fail("malformed case: " + data.status().ToString());
  SessionOptions options;
  options.conf["spark.sql.catalog.spark_catalog"] = "memory";
  auto session = Session::Make(options);
  if (!session.ok()) return fail(session.status().ToString());
  auto catalog = std::make_shared<memory::MemoryCatalog>();
  Status registered = (*session)->RegisterCatalog(kCatalog, catalog);
  if (!registered.ok()) return fail(registered.ToString());
  catalog->SetChangelog(Identifier{{"default"}, "events"}, *data);
  auto result = Read(session->get(), c);
  if (c.contains("expected_error")) {
    outcome.detail = CompareError(c, result.status());
  } else if (!result.ok()) {
    outcome.detail = "the read failed: " + result.status().ToString();
  } else {
    auto compared = CompareRows(c, data->rows->schema(), **result);
    outcome.detail = compared.ok() ? *compared : compared.status().ToString();
  }
  outcome.passed = outcome.detail.empty();
  return outcome;
}

}  // namespace

Result<std::vector<CdcCaseOutcome>> RunCdcCases(const std::string& json_text) {
  json cases = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (cases.is_discarded() || !cases.is_array()) {
    return Status::Invalid("the cases are not a JSON array");
  }
  std::vector<CdcCaseOutcome> outcomes;
  for (const auto& c : cases) {
    try {
      outcomes.push_back(RunCase(c));
    } catch (const json::exception& error) {
      outcomes.push_back({c.is_object() ? c.value("name", "<unnamed>") : "<unnamed>", false,
                          std::string("malformed case: ") + error.what()});
    }
  }
  return outcomes;
}

Result<std::vector<CdcCaseOutcome>> RunCdcCaseFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot read ", path);
  std::stringstream text;
  text << in.rdbuf();
  return RunCdcCases(text.str());
}

}  // namespace parley::testing
