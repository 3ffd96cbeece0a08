// The Table of a path and its data: partition discovery with Arrow Dataset (files_provider.cc). A
// TableData is immutable and may be shared by several scans on several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrow/dataset/type_fwd.h"
#include "arrow/filesystem/filesystem.h"
#include "arrow/type_fwd.h"
#include "connectors/files/files_options.h"
#include "parley/connector/status.h"

namespace parley::files {

/// \brief Register Arrow's compute kernels (libarrow_compute) once per process; every entry
/// point that may evaluate expressions or scan (the provider, reader factories) calls it, so
/// the connector works whether or not the engine has done so.
Status EnsureArrowComputeInitialized();

/// \brief One data file of a table and its Arrow fragment (which carries the file's Hive
/// partition expression and, for Parquet, caches the footer once read).
struct DataFile {
  std::shared_ptr<arrow::dataset::FileFragment> fragment;
  std::string path;
  int64_t size = 0;
};

/// \brief Everything a table knows: immutable once built.
struct TableData {
  ReadOptions options;
  std::string name;
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  std::string filesystem_uri;
  /// Listing::root_dir: the directory writes go to, empty when the table cannot be written.
  std::string root_dir;
  std::shared_ptr<arrow::dataset::FileFormat> format;
  /// The table's columns: data columns and partition columns.
  std::shared_ptr<arrow::Schema> schema;
  /// The partition columns, in table order.
  std::shared_ptr<arrow::Schema> partition_schema;
  std::vector<DataFile> files;
};

}  // namespace parley::files
