// The write conformance kit: the behaviour every writable connector must show under Parley's
// two-phase commit, as a parameterized GoogleTest suite. A connector instantiates it with a
// factory of WritableConnector fixtures:
//
//   namespace parley::conformance {
//   PARLEY_INSTANTIATE_WRITE_CONFORMANCE(Memory, [] { return std::make_unique<MyFixture>(); });
//   }
//
// The suite writes through the engine's write job (the same coordinator, retries, speculation
// and fault points a SQL INSERT uses) and reads back through the connector's scan. It checks:
// appends accumulate; an overwrite replaces rows only at the driver commit; a write that fails
// (in a task, before or inside the commit) leaves the table as it was; a retried task and
// speculative duplicates never duplicate rows; Abort tolerates null messages; and readers that
// run during a write see the old rows or the new ones, nothing in between (a connector may
// declare that an overwrite can make such a reader fail cleanly instead).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "parley/connector/table.h"

namespace parley::conformance {

/// \brief One connector under test: makes a fresh writable table and reloads it for reading.
class WritableConnector {
 public:
  virtual ~WritableConnector() = default;
  /// \brief Create an empty table with `columns` (no partitioning) and return it.
  virtual Result<std::shared_ptr<Table>> CreateTable(const std::vector<Column>& columns) = 0;
  /// \brief The table as a new query would load it now.
  virtual Result<std::shared_ptr<Table>> Reload() = 0;
  /// \brief Whether a reader that planned its scan before an overwrite committed may fail
  /// with FAILED_READ_FILE.FILE_NOT_EXIST (the overwrite deleted a file it had listed) instead
  /// of reading the old rows. It must still never return a mix of old and new rows.
  virtual bool ReadersMayFailDuringOverwrite() const { return false; }
};

using WritableConnectorFactory = std::function<std::unique_ptr<WritableConnector>()>;

class WriteConformanceTest : public ::testing::TestWithParam<WritableConnectorFactory> {};

}  // namespace parley::conformance

/// Instantiate the kit for a connector, inside namespace parley::conformance (GoogleTest needs
/// the suite's plain name); `factory` returns a std::unique_ptr<WritableConnector>.
#define PARLEY_INSTANTIATE_WRITE_CONFORMANCE(name, factory) \
  INSTANTIATE_TEST_SUITE_P(name, WriteConformanceTest,      \
                           ::testing::Values(WritableConnectorFactory(factory)))
