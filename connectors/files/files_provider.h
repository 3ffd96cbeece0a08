// The files connector: path-based tables over Parquet, CSV, JSON-lines and ORC files, reached
// as parquet.`/path`, csv.`/path`, json.`/path` and orc.`/path`.
//
// The path is a file, a directory (read recursively, skipping names that start with '.' or '_'
// as Spark does) or a glob (`*`, `?`, `[abc]`, `{a,b}` per path segment), on any of Arrow's
// filesystems: a local path, or a URI such as gs://bucket/key or s3://bucket/key that
// arrow::fs::FileSystemFromUri resolves (an Arrow that ships S3 as a module, like the pyarrow
// wheel, needs the process to load it first). Hive-style directories (`key=value`) become
// partition columns; predicates on them prune directories exactly. Parquet row groups are
// pruned with their statistics (those predicates are also returned to the engine, since
// statistics only prove absence), only the required columns are read, and input partitions
// are planned from files, row groups and line ranges of uncompressed text files, about
// 128 MiB each.
//
// Options (keys lower-cased, Spark's names and defaults):
//   path               the file, directory or glob (required)
//   basepath           the directory partition discovery starts from (default: the path
//                      itself, a file's directory, or a glob's last literal directory)
//   maxpartitionbytes  target bytes per input partition (default 134217728)
//   opencostinbytes    estimated cost of opening a file, in bytes (default 4194304)
//   minpartitionnum    partitions to aim for on small inputs (default: hardware threads)
//   mergeschema        parquet/orc: unify the schemas of every file (default false: first file)
//   header             csv: the first line of each file names the columns (default false;
//                      without it columns are _c0, _c1, ...)
//   delimiter / sep    csv: the one-character field separator (default ',', "\t" accepted)
//   quote              csv: the quote character (default '"'; empty turns quoting off)
//   escape             csv: the escape character (default: none, doubled quotes only; unlike
//                      Spark's '\' default, so backslashes in unquoted text stay literal)
//   nullvalue          csv: the text read as NULL (default "", the empty field)
//   inferschema        csv: infer column types (default false: every column is STRING)
//   multiline          csv/json: records may span lines (quoted newlines in CSV); such files
//                      are read whole instead of in line ranges (default false)
// Scan options (SupportsRead::NewScanBuilder) may override the three planning options only.
//
// Writes (SupportsWrite, TruncatableTable) go to a table whose path names one directory,
// existing or not: append, truncate, overwrite by predicates on the Hive partition columns, and
// dynamic partition overwrite. Rows are split into `key=value` directories by the partition
// columns (those discovered, or for a table without partition directories yet the ones the
// `__partition_columns` option names as a JSON array, as DataFrameWriter.partitionBy passes
// them) and written as Parquet (Snappy), CSV (a header line when `header` is set, as the
// reader expects), JSON lines or ORC. Each task attempt stages its own files under
// `<path>/_temporary/<query id>/<task id>/`, which readers skip; the driver commit publishes
// exactly the files the commit messages name, and deletes what an overwrite replaces, through
// a commit manifest (files_commit.cc). Publication is atomic only for Parley readers, which
// complete a pending manifest before listing and list again when a commit overlapped their
// listing; other readers listing the directory mid-commit can see a partial result. Concurrent
// writers to one table are not coordinated. Delta tables (a later connector) provide atomic
// tables. Completing a pending commit needs write access to the table directory, so reading a
// table also needs it while a commit is pending; reading a sub-directory, a file or a glob
// does not complete commits.
//
// Errors carry Spark's conditions: PATH_NOT_FOUND for a path or glob that matches nothing,
// UNABLE_TO_INFER_SCHEMA when there is no data file to infer from, FAILED_READ_FILE.* naming
// the file when a file is corrupt or unreadable; writes INCOMPATIBLE_DATA_FOR_TABLE.* naming the
// column when rows do not match the table, UNSUPPORTED_OVERWRITE.TABLE for an overwrite by a
// predicate on data columns, FILES_COMMIT_FAILED when a commit manifest is unreadable, and
// FILES_TABLE_CHANGED_DURING_LISTING when commits kept overlapping a read's listing.
//
// Thread-safety: the provider and its tables are immutable and safe to share; scans follow
// parley/connector/read.h.
#pragma once

#include <memory>
#include <string>

#include "parley/connector/catalog.h"

namespace parley::files {

/// \brief Return the TableProvider of one file format: "parquet", "csv", "json" or "orc"
/// (case-insensitive). Returns nullptr for any other name.
///
/// The engine calls InferSchema(options) and then GetTable(schema, options); both list the
/// files under options["path"]. GetTable also accepts a path that does not exist yet (the
/// provider SupportsExternalMetadata), for a write that creates it. The table's columns are the
/// given schema followed by any discovered partition column it lacks; its partitioning() is
/// identity(column) for each partition column; it declares BATCH_READ and implements
/// SupportsRead, and when its path is a directory also BATCH_WRITE, TRUNCATE,
/// OVERWRITE_BY_FILTER and OVERWRITE_DYNAMIC with SupportsWrite and TruncatableTable.
std::shared_ptr<TableProvider> MakeFilesTableProvider(const std::string& format);

}  // namespace parley::files
