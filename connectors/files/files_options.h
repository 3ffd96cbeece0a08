// Read options with Spark's names and defaults, as a table's options map gives them
// (files_format.cc).
#pragma once

#include <cstdint>
#include <string>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"
#include "parley/connector/types.h"

namespace parley::files {

enum class FileFormatKind { kParquet, kCsv, kJson, kOrc };

/// The directory name Hive partitioning uses for a NULL partition value.
inline constexpr char kHiveNullFallback[] = "__HIVE_DEFAULT_PARTITION__";

/// \brief The format's name as in SQL: "parquet", "csv", "json", "orc".
const char* FormatName(FileFormatKind format);

/// \brief Read options parsed from the lower-cased options map (see files_provider.h for the
/// meaning and defaults of each). `raw` keeps the map itself, which is what crosses to
/// executors; they parse it again.
struct ReadOptions {
  FileFormatKind format = FileFormatKind::kParquet;
  Options raw;
  std::string path;
  std::string base_path;
  bool merge_schema = false;
  int64_t max_partition_bytes = int64_t{128} << 20;
  int64_t open_cost_in_bytes = int64_t{4} << 20;
  int64_t min_partition_num = 1;
  // CSV.
  bool header = false;
  bool infer_schema = false;
  char delimiter = ',';
  bool quoting = true;
  char quote = '"';
  bool escaping = false;
  char escape = '\\';
  std::string null_value;
  // CSV and JSON: records may span lines.
  bool multi_line = false;
};

/// \brief Parse and validate `options` for `format`.
Result<ReadOptions> ParseReadOptions(FileFormatKind format, const Options& options);

}  // namespace parley::files
