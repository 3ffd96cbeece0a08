// The Delta catalog: a TableCatalog + SupportsNamespaces + StagingTableCatalog, and a
// RelationCatalog of tables and views, over a local warehouse directory. It is the session
// catalog (`spark_catalog`) of the CLI and of embedded sessions, configured by
// `spark.sql.catalog.<name>.warehouse` (the CLI's `--warehouse`).
//
// Layout: a namespace is a directory under the warehouse (`<warehouse>/<ns>`; `default` exists
// without one), a managed table is a Delta table in `<namespace dir>/<table>`, and an external
// table (CREATE TABLE ... LOCATION) is a Delta table anywhere, registered by a small file
// `<namespace dir>/.<table>.location` holding its location. Names are matched ignoring ASCII
// case and stored lower-cased, as Spark's session catalog does. A name that could escape its
// directory (empty, `.`/`..`, a leading `.`, `/`, `\`, NUL) fails with
// INVALID_SCHEMA_OR_RELATION_NAME. Path identifiers, delta.`/abs/path`, name the table at that
// path, as in delta-spark: CREATE TABLE, INSERT and reads work on them without registration.
//
// Tables are those of delta_table.h (writable unless time travelled). CREATE TABLE writes
// version 0 with the lowest protocol the properties need; CTAS/RTAS stage the table and commit
// data and metadata in one commit; DROP TABLE deletes a managed table's directory (an external
// table only loses its registration); ALTER TABLE commits metadata changes (delta_alter.cc).
// Views: one JSON file `<namespace dir>/.<view>.view` each (view_files.h), in the tables' name
// space. Procedures: system.vacuum, system.describe_history and system.describe_detail
// (delta_procedures.h). Time travel: LoadTableAtVersion / LoadTableAtTimestamp. Thread-safe:
// every call works on the filesystem, with no state kept in between.
#pragma once

#include <memory>

#include "parley/connector/catalog.h"

namespace parley::delta {

/// \brief A new, uninitialized Delta catalog (options: `warehouse`, default `./warehouse`).
std::shared_ptr<CatalogPlugin> MakeDeltaCatalog();

}  // namespace parley::delta
