// The small metadata files the warehouse catalog keeps beside a namespace's tables: a view or a
// SQL function is `<namespace dir>/.<name><suffix>`, a JSON document written to a temporary
// name and renamed into place, so that a reader sees the old document or the new one whole.
#pragma once

#include <string>

#include "arrow/filesystem/filesystem.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief The file of the object `lower_name` (already lower-cased) in `namespace_dir`.
std::string CatalogFilePath(const std::string& namespace_dir, const std::string& lower_name,
                            const std::string& suffix);

/// \brief Whether `base_name` is the file of an object with `suffix`; sets `*lower_name` to the
/// object's name.
bool IsCatalogFileName(const std::string& base_name, const std::string& suffix,
                       std::string* lower_name);

/// \brief Write `text` to `path` atomically (a temporary file renamed over it).
Status WriteCatalogFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                        const std::string& text);

/// \brief INTERNAL_ERROR_METADATA_CATALOG: the definition of the `kind` (view, function)
/// `display` cannot be read, because `why`.
Status CorruptCatalogFile(const std::string& kind, const std::string& display,
                          const std::string& why);

}  // namespace parley::delta
