// The warehouse catalog's SQL functions: each a small JSON file `.<name>.function` in its
// namespace's directory, written to a temporary name and renamed into place as view files are
// (view_files.h), so that a restarted process finds it and a reader sees one definition whole.
//
// The file holds the SqlFunctionInfo: {"version": 1, "parameters" ([{"name", "type", "default"
// (SQL text or null), "comment"}]), "isTable", "returnType" (for a scalar function),
// "returnColumns" (Delta schema JSON, for a table function), "body",
// "comment", "deterministic", "dataAccess", "sqlConfigs", "createTime"}.
// A type is kept as the Delta schema JSON of a one-field schema.
#pragma once

#include <string>

#include "arrow/filesystem/filesystem.h"
#include "parley/connector/function.h"

namespace parley::delta {

/// \brief The file of the function `lower_name` (already lower-cased) in `namespace_dir`.
std::string FunctionFilePath(const std::string& namespace_dir, const std::string& lower_name);

/// \brief Whether `base_name` is a function file's name; sets `*lower_name` to the function's.
bool IsFunctionFileName(const std::string& base_name, std::string* lower_name);

/// \brief Write `info` to `path` atomically (a temporary file renamed over it).
Status WriteFunctionFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                         const SqlFunctionInfo& info);

/// \brief Read the function at `path`; a file that is not a function definition fails with
/// INTERNAL_ERROR_METADATA_CATALOG naming `display`.
Result<SqlFunctionInfo> ReadFunctionFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                                         const std::string& display);

}  // namespace parley::delta
