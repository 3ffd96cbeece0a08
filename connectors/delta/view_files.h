// The warehouse catalog's views: each a small JSON file `.<name>.view` in its namespace's
// directory, beside the tables, so that a restarted process finds it. A file is written to a
// temporary name and renamed into place, so a reader sees the old definition or the new one.
//
// The file holds the ViewInfo: {"version": 1, "queryText", "currentCatalog",
// "currentNamespace", "sqlConfigs", "schema" (Delta schema JSON of the columns, with their
// comments), "queryColumnNames", "properties"}.
#pragma once

#include <memory>
#include <string>

#include "arrow/filesystem/filesystem.h"
#include "parley/connector/view.h"

namespace parley::delta {

/// \brief The file of the view `lower_name` (already lower-cased) in `namespace_dir`.
std::string ViewFilePath(const std::string& namespace_dir, const std::string& lower_name);

/// \brief Whether `base_name` is a view file's name; sets `*lower_name` to the view's name.
bool IsViewFileName(const std::string& base_name, std::string* lower_name);

/// \brief Write `info` to `path` atomically (a temporary file renamed over it).
Status WriteViewFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                     const ViewInfo& info);

/// \brief Read the view at `path`; a file that is not a view definition fails with
/// INTERNAL_ERROR_METADATA_CATALOG naming `display` (the view's name).
Result<ViewInfo> ReadViewFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                              const std::string& display);

}  // namespace parley::delta
