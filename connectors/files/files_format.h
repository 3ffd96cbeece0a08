// The Arrow file formats the read options configure, and schema inference with Spark's naming and
// typing rules on top of Arrow's (files_format.cc).
#pragma once

#include <memory>
#include <string>

#include "arrow/dataset/type_fwd.h"
#include "arrow/type_fwd.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_options.h"
#include "parley/connector/status.h"

namespace parley::files {

/// \brief The Arrow Dataset file format configured by `options`.
Result<std::shared_ptr<arrow::dataset::FileFormat>> MakeArrowFormat(const ReadOptions& options);

/// \brief The CSV fragment scan options of one read: the data columns named by position and
/// the number of leading lines to skip (1 to skip a header line, else 0).
std::shared_ptr<arrow::dataset::FragmentScanOptions> MakeCsvScanOptions(
    const ReadOptions& options, const arrow::Schema& data_schema, int skip_rows);

/// \brief Whether a file can be read in line ranges: uncompressed CSV, or JSON lines.
bool IsSplittable(const ReadOptions& options, const std::string& path);

/// \brief Infer the data (non-partition) columns of `listing`'s files with Spark's rules.
/// REQUIRES: listing.files is not empty.
Result<std::shared_ptr<arrow::Schema>> InferDataSchema(const ReadOptions& options,
                                                       const Listing& listing);

}  // namespace parley::files
