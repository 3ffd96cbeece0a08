// Helpers for the Delta connector's tests: a temporary table directory and the pieces of a
// hand-made Delta table (commit lines, Parquet data files).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "arrow/api.h"
#include "arrow/filesystem/localfs.h"
#include "arrow/io/file.h"
#include "arrow/json/from_string.h"
#include "parquet/arrow/writer.h"
#include "testing/gtest_util.h"

namespace parley::delta::testing {

namespace fs = std::filesystem;

/// \brief A test fixture owning a fresh table directory with an empty `_delta_log`.
class DeltaTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    root_ = fs::temp_directory_path() / ("parley-delta-test-" + std::to_string(random()));
    fs::create_directories(root_ / "_delta_log");
    filesystem_ = std::make_shared<arrow::fs::LocalFileSystem>();
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string Root() const { return root_.string(); }

  /// Write `text` to `relative` under the table root, creating directories.
  void WriteFile(const std::string& relative, const std::string& text) {
    fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  /// Write commit `version` from its action lines.
  void WriteCommit(int64_t version, const std::vector<std::string>& lines) {
    std::string name = std::to_string(version);
    name = std::string(20 - name.size(), '0') + name + ".json";
    std::string body;
    for (const auto& line : lines) body += (body.empty() ? "" : "\n") + line;
    WriteFile("_delta_log/" + name, body);
  }

  /// Write a Parquet data file from JSON rows of `schema`; return its size in bytes.
  int64_t WriteParquet(const std::string& relative, const std::shared_ptr<arrow::Schema>& schema,
                       const std::string& json_rows) {
    fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    auto rows =
        arrow::json::ArrayFromJSONString(arrow::struct_(schema->fields()), json_rows).ValueOrDie();
    auto batch = arrow::RecordBatch::FromStructArray(rows).ValueOrDie();
    auto table = arrow::Table::FromRecordBatches({batch}).ValueOrDie();
    auto out = arrow::io::FileOutputStream::Open(path.string()).ValueOrDie();
    PARQUET_THROW_NOT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 2));
    EXPECT_TRUE(out->Close().ok());
    return static_cast<int64_t>(fs::file_size(path));
  }

  fs::path root_;
  std::shared_ptr<arrow::fs::FileSystem> filesystem_;
};

/// \brief A protocol action line.
inline std::string ProtocolLine(int reader, int writer,
                                const std::vector<std::string>& reader_features = {}) {
  std::string line = "{\"protocol\":{\"minReaderVersion\":" + std::to_string(reader) +
                     ",\"minWriterVersion\":" + std::to_string(writer);
  if (reader == 3) {
    std::string features;
    for (const auto& f : reader_features) features += (features.empty() ? "\"" : ",\"") + f + "\"";
    line += ",\"readerFeatures\":[" + features + "],\"writerFeatures\":[" + features + "]";
  }
  return line + "}}";
}

/// \brief A metaData action line; `schema_json` is the Delta schema JSON (escaped here).
inline std::string MetadataLine(const std::string& schema_json,
                                const std::vector<std::string>& partition_columns = {},
                                const std::string& configuration_json = "{}") {
  std::string escaped;
  for (char c : schema_json) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    escaped.push_back(c);
  }
  std::string partitions;
  for (const auto& p : partition_columns)
    partitions += (partitions.empty() ? "\"" : ",\"") + p + "\"";
  return "{\"metaData\":{\"id\":\"test-table\",\"format\":{\"provider\":\"parquet\",\"options\":{}}"
         ","
         "\"schemaString\":\"" +
         escaped + "\",\"partitionColumns\":[" + partitions +
         "],\"configuration\":" + configuration_json + ",\"createdTime\":1}}";
}

/// \brief An add action line. `partition_values_json` is a JSON object; `stats_json` the
/// statistics JSON (escaped here), or empty; `dv_json` a deletion vector object, or empty.
inline std::string AddLine(const std::string& path, int64_t size,
                           const std::string& partition_values_json = "{}",
                           const std::string& stats_json = "", const std::string& dv_json = "") {
  std::string line =
      "{\"add\":{\"path\":\"" + path + "\",\"partitionValues\":" + partition_values_json +
      ",\"size\":" + std::to_string(size) + ",\"modificationTime\":1,\"dataChange\":true";
  if (!stats_json.empty()) {
    std::string escaped;
    for (char c : stats_json) {
      if (c == '"') escaped.push_back('\\');
      escaped.push_back(c);
    }
    line += ",\"stats\":\"" + escaped + "\"";
  }
  if (!dv_json.empty()) line += ",\"deletionVector\":" + dv_json;
  return line + "}}";
}

/// \brief A remove action line.
inline std::string RemoveLine(const std::string& path, const std::string& dv_json = "") {
  std::string line =
      "{\"remove\":{\"path\":\"" + path + "\",\"deletionTimestamp\":2,\"dataChange\":true";
  if (!dv_json.empty()) line += ",\"deletionVector\":" + dv_json;
  return line + "}}";
}

/// The schema JSON of a table (id long, name string).
inline constexpr char kIdNameSchema[] =
    R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
    R"({"name":"name","type":"string","nullable":true,"metadata":{}}]})";

}  // namespace parley::delta::testing
