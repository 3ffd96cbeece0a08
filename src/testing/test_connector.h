// A configurable connector for engine tests. Each table holds Arrow data and is told which
// mix-ins to expose and how to behave, and records what the engine asked of it (predicates
// offered, columns requested, builders created), so tests can assert on the negotiation itself
// rather than only on the rows. Not for production: state is shared without locking beyond
// what the tests need.
#pragma once

#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arrow/compute/expression.h"
#include "arrow/type_fwd.h"
#include "parley/connector/catalog.h"
#include "parley/connector/function.h"
#include "parley/connector/read.h"

namespace parley::testing {

/// \brief How a test table behaves.
struct TestTableOptions {
  bool batch_read = true;
  /// Implement SupportsPushDownV2Filters, accepting predicates whose name is listed (and
  /// whose operands are a column and a literal), applying them exactly in the reader.
  bool filter_pushdown = false;
  std::set<std::string> accepted_predicates = {"=",  "<>",      "<",           "<=", ">",
                                               ">=", "IS_NULL", "IS_NOT_NULL", "IN"};
  /// Catalog functions the reader evaluates itself, by canonical name: with `filter_pushdown`,
  /// a predicate comparing a call of one (over columns and literals) with a literal is accepted
  /// too (if its name is listed above), the call computed with the function's Invoke.
  std::map<std::string, std::shared_ptr<const ScalarFunction>> functions;
  /// Implement the older SupportsPushDownFilters instead, accepting comparisons, null tests and
  /// IN over a column (and applying them exactly); everything else is returned.
  bool v1_filters = false;
  /// Implement SupportsPushDownRequiredColumns; with `nested_pruning` a struct column asked for
  /// narrowed comes narrowed, otherwise whole.
  bool column_pruning = false;
  bool nested_pruning = false;
  /// Number of input partitions the rows are split into.
  int partitions = 1;
  /// Readers return batches of at most this many rows (0: each partition in one batch), and
  /// add one to `batches_read`, when set, per batch returned.
  int64_t batch_rows = 0;
  std::shared_ptr<std::atomic<int64_t>> batches_read;
  /// When valid, readers wait for it before returning each batch: a test holds the scan's
  /// tasks while it checks what their consumer sees.
  std::shared_future<void> read_gate;
  /// Readers start over at the end of their partition's rows instead of ending: a scan that
  /// only cancellation ends. `open_readers`, when set, counts the readers not yet destroyed.
  bool endless = false;
  std::shared_ptr<std::atomic<int64_t>> open_readers;
  /// When false, partitions serialize to bytes that do not rebuild (a live handle).
  bool serializable_partitions = true;
  /// Implement SupportsPushDownLimit, SupportsPushDownTopN and SupportsPushDownOffset (with
  /// filters and pruning); `complete` answers IsPartiallyPushed() with false.
  bool limit_pushdown = false;
  bool limit_complete = false;
  /// With limit_pushdown: also implement SupportsPushDownAggregates; `aggregate_complete`
  /// answers SupportCompletePushDown.
  bool aggregate_complete = false;
  /// With filter_pushdown and column_pruning: also implement SupportsPushDownTableSample,
  /// keeping row i (before any filter) when the fractional part of i times the golden ratio
  /// falls in the pushed [lower, upper): a fixed sample that tests can predict.
  bool sample_pushdown = false;
  /// A dishonest source: accepts predicates (or a complete limit) and does not apply them.
  bool ignore_accepted_predicates = false;
  bool ignore_accepted_limit = false;
  /// The built scan implements SupportsRuntimeV2Filtering over every column it reads, keeping
  /// only the rows the runtime predicates accept (and logging them).
  bool runtime_filtering = false;
  /// With limit_pushdown: also implement SupportsPushDownJoin. Builders of tables of one
  /// TestCatalog are compatible; the connector computes the joined relation (after each side's
  /// sample and filters) and evaluates the condition itself. With `accept_join` false every
  /// offer is declined.
  bool join_pushdown = false;
  bool accept_join = true;
  /// When set (and the column is read, with no limit, top-N, aggregate or runtime filtering
  /// pushed), the built scan implements SupportsReportPartitioning as identity(column): the
  /// rows sorted by it, each value's rows in at most `partitions_per_key` partitions, each
  /// reporting its value (HasPartitionKey). `partitions` is then not used.
  std::string partition_column;
  int partitions_per_key = 2;
  /// Implement SupportsDeleteV2 (and nothing row-level): CanDeleteWhere accepts a non-empty
  /// list of predicates whose names are in `accepted_predicates`, logging each call; DeleteWhere
  /// logs its predicates and deletes nothing (it returns 0).
  bool delete_where = false;
};

/// \brief What the engine did with a table, for assertions.
struct TestTableLog {
  int builders_created = 0;
  std::vector<std::string> offered_predicates;
  std::vector<std::string> accepted_predicates;
  std::vector<std::string> pruned_columns;
  /// The type each pruned column was asked for with (Arrow's ToString).
  std::vector<std::string> pruned_types;
  bool pruned = false;
  std::optional<int64_t> pushed_limit;
  std::optional<int64_t> pushed_offset;
  std::vector<std::string> pushed_top_n;
  std::vector<std::string> pushed_aggregations;
  /// `lower upper with_replacement seed` of the pushed sample.
  std::optional<std::string> pushed_sample;
  /// The predicates offered through SupportsRuntimeV2Filtering::Filter, and the rows the scan
  /// kept after each call.
  std::vector<std::string> runtime_predicates;
  std::vector<int64_t> rows_after_runtime_filter;
  /// The conditions of the joins offered to (and accepted by) this table's builders as the
  /// left side, each `<condition> [left columns] [right columns]`.
  std::vector<std::string> join_offers;
  std::vector<std::string> pushed_joins;
  /// With delete_where: the predicates of each CanDeleteWhere and DeleteWhere call, joined by
  /// " AND ".
  std::vector<std::string> can_delete_where;
  std::vector<std::string> delete_where;
};

/// \brief A catalog with namespace `default` whose tables are added from C++.
class TestCatalog : public TableCatalog, public SupportsNamespaces {
 public:
  Status Initialize(const std::string& name, const Options& options) override;
  std::string name() const override { return name_; }
  std::vector<std::string> DefaultNamespace() const override { return {"default"}; }
  Result<std::vector<Identifier>> ListTables(const std::vector<std::string>& ns) override;
  Result<std::shared_ptr<Table>> LoadTable(const Identifier& ident) override;
  Result<std::vector<std::vector<std::string>>> ListNamespaces(
      const std::vector<std::string>& parent) override;
  Result<bool> NamespaceExists(const std::vector<std::string>& ns) override;

  /// \brief Add a table `default.<name>` with the given rows and behaviour.
  void AddTable(const std::string& name, std::shared_ptr<arrow::Table> data,
                TestTableOptions options);
  /// \brief The log of a table added with AddTable.
  std::shared_ptr<TestTableLog> log(const std::string& name) const;
  /// \brief The options Initialize received.
  const Options& initialize_options() const { return options_; }

 private:
  struct Entry {
    std::shared_ptr<arrow::Table> data;
    TestTableOptions options;
    std::shared_ptr<TestTableLog> log;
  };
  std::string name_;
  Options options_;
  std::map<std::string, Entry> tables_;
};

/// \brief Build a table from columns of int32 values, where INT32_MIN stands for NULL.
std::shared_ptr<arrow::Table> MakeIntTable(const std::vector<std::string>& names,
                                           const std::vector<std::vector<int32_t>>& columns);

/// \brief The Arrow compute expression of a V2 predicate over column references and literals.
Result<arrow::compute::Expression> PredicateToArrow(const Predicate& predicate);

}  // namespace parley::testing
