// The embedding API: a Session runs Spark SQL statements and returns Arrow results.
//
// A Session owns its configuration (Spark's `SET` keys), its catalogs and its current
// catalog/namespace. Statements run one at a time: a Session is not safe for concurrent Sql()
// calls; use one Session per thread. Every error is an arrow::Status carrying a Spark-style
// error condition (see parley/connector/status.h).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "arrow/util/cancel.h"
#include "parley/connector/catalog.h"
#include "parley/connector/function.h"
#include "parley/connector/status.h"
#include "parley/source_text.h"

namespace parley {

/// \brief How a Session starts.
struct SessionOptions {
  /// Root directory of the embedded default warehouse.
  std::string warehouse = "./warehouse";
  /// Initial configuration, as if each entry were `SET key=value` before the first statement.
  std::map<std::string, std::string> conf;
};

/// \brief How one statement runs: where it starts in its script, and what may end it early.
/// A cancelled statement fails with OPERATION_CANCELED, having released the memory and tasks
/// it held; a write it was doing is aborted, not committed. Cancellation takes effect when a
/// scan reads its next batch (or the caller takes the next batch of a SqlReader result); work
/// an operator already holds is finished first.
struct StatementOptions {
  /// Where the statement starts in its script, for error positions.
  SourcePosition origin;
  /// Stopping it (arrow::StopSource::RequestStop from any thread, or a signal through
  /// arrow::SetSignalStopSource) cancels the statement.
  arrow::StopToken stop_token = arrow::StopToken::Unstoppable();
  /// The statement is cancelled once this time has passed.
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

class Session;

/// \brief Options, then a read, as Spark's DataFrameReader:
/// `session->Read().Option("startingVersion", "1").Option("deduplicationMode",
/// "netChanges").Changes("cat.db.t")`. Keys match ignoring case; a
/// later value for a key replaces the earlier one. The Session must outlive the reader.
class DataReader {
 public:
  explicit DataReader(Session* session) : session_(session) {}
  /// \brief Set one option.
  DataReader& Option(const std::string& key, const std::string& value);
  /// \brief The change rows of `table` (a table name as SQL writes it), post-processed as the
  /// options and the connector's changelog call for. The options of a change read are
  /// startingVersion, endingVersion, startingTimestamp, endingTimestamp, startingBoundInclusive,
  /// endingBoundInclusive, deduplicationMode and computeUpdates; every option also reaches the
  /// connector. Errors as the CHANGES clause (INVALID_CDC_OPTION.*, INVALID_CHANGELOG_SCHEMA.*,
  /// UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE, ...).
  Result<std::shared_ptr<arrow::Table>> Changes(std::string_view table) const;

 private:
  Session* session_;
  std::map<std::string, std::string> options_;
};

class Session {
 public:
  virtual ~Session() = default;

  /// \brief Create a session with the built-in connectors registered and the default catalog
  /// `spark_catalog` configured.
  static Result<std::shared_ptr<Session>> Make(SessionOptions options = {});

  /// \brief Split a script into statements on top-level semicolons (quotes and comments
  /// respected). Empty statements are dropped.
  static Result<std::vector<StatementText>> SplitStatements(std::string_view script);

  /// \brief Run one statement and return its whole result. Commands (SET, USE, SHOW, EXPLAIN,
  /// DESCRIBE) return their output as a table too, as in Spark. `origin` is where the statement
  /// starts in its script, so that error positions are reported relative to the script.
  Result<std::shared_ptr<arrow::Table>> Sql(std::string_view statement,
                                            SourcePosition origin = {}) {
    StatementOptions options;
    options.origin = origin;
    return Sql(statement, options);
  }
  /// \brief Run one statement as `options` say (Sql with a stop token or a deadline).
  virtual Result<std::shared_ptr<arrow::Table>> Sql(std::string_view statement,
                                                    const StatementOptions& options) = 0;

  /// \brief Run one statement and stream its result. A query's batches are read from the
  /// running plan as the caller takes them (memory follows the batches in flight, except for
  /// operators that need their whole input, such as ORDER BY); its runtime errors, cancellation
  /// and deadline arrive on the reader's ReadNext. Analysis errors, and every error of other
  /// statements (which run to the end first), are returned here.
  Result<std::shared_ptr<arrow::RecordBatchReader>> SqlReader(std::string_view statement,
                                                              SourcePosition origin = {}) {
    StatementOptions options;
    options.origin = origin;
    return SqlReader(statement, options);
  }
  virtual Result<std::shared_ptr<arrow::RecordBatchReader>> SqlReader(
      std::string_view statement, const StatementOptions& options) = 0;

  /// \brief Register an already-built catalog under `name` (replacing any with that name);
  /// Initialize() is called with the `spark.sql.catalog.<name>.*` options.
  virtual Status RegisterCatalog(const std::string& name,
                                 std::shared_ptr<CatalogPlugin> catalog) = 0;

  /// \brief Register a temporary function of this session: SQL calls it as `name(args)` (a
  /// built-in function of the same name comes first, as in Spark), replacing any earlier one
  /// of that name. The function is bound at each call to the call's argument types and must
  /// then be a ScalarFunction (evaluated a batch at a time on Arrow arrays).
  virtual Status RegisterFunction(const std::string& name,
                                  std::shared_ptr<UnboundFunction> function) = 0;

  /// \brief Look up a catalog by name, loading it from configuration on first use.
  virtual Result<std::shared_ptr<CatalogPlugin>> Catalog(const std::string& name) = 0;

  /// \brief The value of a configuration key, or an error naming the key when it is unset.
  virtual Result<std::string> GetConf(const std::string& key) const = 0;

  /// \brief A reader configured by options (see DataReader).
  DataReader Read() { return DataReader(this); }

  /// \brief The change rows of `table` read with `options` (see DataReader::Changes).
  virtual Result<std::shared_ptr<arrow::Table>> ReadChanges(
      std::string_view table, const std::map<std::string, std::string>& options) = 0;
};

}  // namespace parley
