// The logical plan: the operator tree the analyzer builds and the optimizer rewrites.
//
// Every operator's output is a list of fields with unique internal names (the scan's are the
// table's column names; a projection's are _c0, _c1, ...) and the display names users see.
// A Scan node carries the whole negotiation with its connector: the ScanBuilder before, and the
// agreed division of labour (pushed predicates, required columns, the built Scan) after; that
// record is what EXPLAIN prints. Plans are built and used by one thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "catalog/resolved_name.h"
#include "parley/connector/read.h"
#include "parley/connector/table.h"
#include "plan/bound_expression.h"
#include "plan/changelog_post_processing.h"
#include "plan/window_call.h"

namespace parley {

/// \brief One output column of an operator.
struct OutputField {
  std::string name;     // internal, unique within the operator's output
  std::string display;  // what users see
  std::shared_ptr<arrow::DataType> type;
  bool nullable = true;
};

/// \brief A Bernoulli sample as Spark's Sample operator states it: a row is kept when its
/// random number in [0, 1) falls in [lower, upper); the numbers come from `seed`.
struct SampleSpec {
  double lower = 0;
  double upper = 1;
  bool with_replacement = false;
  int64_t seed = 0;
  /// As EXPLAIN prints it: `0.0, 0.1, false, 42`.
  std::string ToString() const;
};

/// \brief A join a source took (SupportsPushDownJoin): the other table, the condition over the
/// aliased columns, the columns of each side with their aliases, and what the right side had
/// agreed to before (its pushed predicates).
struct PushedJoin {
  std::string right_table;
  PredicatePtr condition;
  std::vector<ColumnWithAlias> left_columns;
  std::vector<ColumnWithAlias> right_columns;
  std::vector<PredicatePtr> right_pushed_predicates;
};

/// \brief What the engine and a connector agreed on for one scan.
struct ScanNegotiation {
  std::unique_ptr<ScanBuilder> builder;
  /// Predicates the source reported as accepted (PushedPredicates()).
  std::vector<PredicatePtr> pushed_predicates;
  /// For a builder with the older V1 form: the filters it reported as accepted.
  std::vector<FilterPtr> pushed_filters;
  /// Accepted predicates the source did not return, with the conditions they came from: the
  /// source applies them exactly, so the honesty check re-evaluates exactly these.
  std::vector<std::pair<PredicatePtr, BoundExprPtr>> exact_predicates;
  /// Whether the builder was offered column pruning (it implements the mix-in).
  bool pruning_offered = false;
  /// The sample the source accepted (SupportsPushDownTableSample); the engine then samples
  /// no more.
  std::optional<SampleSpec> pushed_sample;
  /// Limit, top-N and offset the source accepted, and whether the engine still applies them.
  std::optional<int64_t> pushed_limit;
  bool limit_fully_pushed = false;
  std::vector<std::shared_ptr<SortOrder>> pushed_top_n;
  std::optional<int64_t> pushed_offset;
  /// The aggregation the source accepted; its scan then outputs the group-by columns and one
  /// column per aggregate, by position. `aggregation_complete`: the engine dropped its own.
  std::optional<Aggregation> pushed_aggregation;
  bool aggregation_complete = false;
  /// The joins the source took, in the order pushed; `joined_columns` are then the columns of
  /// the joined relation (named by their aliases), which replace the table's.
  std::vector<PushedJoin> pushed_joins;
  std::vector<OutputField> joined_columns;
  /// The columns asked for through PruneColumns, in table order.
  std::vector<std::string> required_columns;
  /// Struct columns read only through field accesses, with the narrowed types asked for
  /// (plan/nested_pruning.h).
  std::map<std::string, std::shared_ptr<arrow::DataType>> narrowed_types;
  /// The built scan; its ReadSchema() is the scan node's real output.
  std::shared_ptr<Scan> scan;
  /// What the executor offered through SupportsRuntimeV2Filtering::Filter (plan/runtime_filter.h),
  /// before planning the partitions below.
  std::vector<PredicatePtr> runtime_predicates;
  /// The physical form, planned once (Scan::ToBatch, Batch::PlanInputPartitions).
  std::shared_ptr<Batch> batch;
  std::vector<std::shared_ptr<InputPartition>> partitions;
};

class AggregateFunction;

/// \brief One aggregate function of an Aggregate node: COUNT, COUNT_STAR, SUM, AVG, MIN, MAX,
/// or a connector's aggregate function (`connector_aggregate` set, `function` its name).
struct AggregateCall {
  std::string function;
  std::vector<BoundExprPtr> args;  // over the aggregate's input
  bool distinct = false;
  std::shared_ptr<arrow::DataType> type;  // result type, Spark's
  std::shared_ptr<const AggregateFunction> connector_aggregate;
  /// SQL text for EXPLAIN, e.g. `sum(b)`.
  std::string ToString() const;
};

/// \brief The join types of a Join node; semi and anti joins output only the left side.
enum class PlanJoinType {
  kInner,
  kCross,
  kLeftOuter,
  kRightOuter,
  kFullOuter,
  kLeftSemi,
  kLeftAnti
};

/// \brief Spark's name of a join type as EXPLAIN prints it (Inner, LeftOuter, LeftSemi...).
const char* JoinTypeName(PlanJoinType type);

/// \brief One equi-join key: `left` over the left input equals `right` over the right input,
/// both of one type; `null_safe` for <=>, where NULL matches NULL.
struct JoinKey {
  BoundExprPtr left;
  BoundExprPtr right;
  bool null_safe = false;
};

/// \brief The two stages of change post-processing: the fused row-level stage (carry-over
/// removal and/or update detection) and net changes.
enum class ChangelogStage { kRowLevel, kNetChanges };

struct PlanNode;
using PlanNodePtr = std::shared_ptr<PlanNode>;

/// \brief One scan a join's build keys prune at run time (plan/runtime_filter.h): `column` of
/// `scan`'s output, equal to the join's key number `key_index` on the probe side.
struct RuntimeFilterTarget {
  size_t key_index = 0;
  PlanNode* scan = nullptr;
  std::string column;
};

struct PlanNode {
  enum class Kind {
    kScan,           // a connector table read
    kOneRow,         // the single empty row under SELECT without FROM
    kValues,         // values: an inline table (VALUES), one expression per output field per row
    kFilter,         // condition
    kProject,        // exprs, one per output field
    kDistinct,       // removes duplicate rows
    kSort,           // sort_keys
    kLimit,          // limit (absent: no limit), offset
    kAggregate,      // group_keys then aggregates; output: one field per key, then per aggregate
    kJoin,           // children: left, right; join_type, join_keys, condition (the residual, may be
                     // null); output: left's fields then right's (left's only for semi and anti)
    kChangelogPass,  // changelog, changelog_stage: one stage of change post-processing over
                     // its input's rows; output: its input's fields
    kUnion,          // every row of every child (UNION ALL); the children's outputs have the node's
                     // field names and types
    kReplicateRows,  // replicate_count: each input row that many times (INTERSECT ALL, EXCEPT
                     // ALL); output: some of its input's fields, not the count
    kExpand,         // expand_projections: each input row once per projection (GROUPING SETS,
                     // ROLLUP, CUBE); each projection has one expression per output field
    kWindow,         // window_calls; output: its input's fields then one field per call
    kSample,         // sample: each input row kept with probability upper - lower (TABLESAMPLE);
                     // output: its input's fields
    kGenerate,       // generator over the input fields generator_args: each input row once per
                     // row the generator makes of it; output: its input's fields, then the
                     // generated ones
  };

  Kind kind;
  std::vector<PlanNodePtr> children;
  std::vector<OutputField> output;

  // kScan
  ResolvedName table_name;
  std::shared_ptr<Table> table;
  std::shared_ptr<ScanNegotiation> negotiation;
  // kValues: rows of constant expressions, each already cast to its output field's type
  std::vector<std::vector<BoundExprPtr>> values;
  // kFilter; kJoin: the residual condition, evaluated on matching pairs
  BoundExprPtr condition;
  // kProject
  std::vector<BoundExprPtr> exprs;
  // kSort
  std::vector<SortKey> sort_keys;
  // kLimit
  std::optional<int64_t> limit;
  int64_t offset = 0;
  // kAggregate
  std::vector<BoundExprPtr> group_keys;
  std::vector<AggregateCall> aggregates;
  // kJoin
  PlanJoinType join_type = PlanJoinType::kInner;
  std::vector<JoinKey> join_keys;
  /// Both inputs are scans grouped by partition keys that the join keys pair: the join runs
  /// one key group at a time (plan/storage_partitioned_join.h).
  bool storage_partitioned = false;
  /// Set by the physical planning passes (plan/physical_planning.h), which the executor follows
  /// and EXPLAIN prints. The hash table is built on the left input: a semi or anti join whose
  /// left input is estimated the smaller runs as a right semi or anti join of swapped inputs.
  bool build_left = false;
  /// Likewise: the scans of the probe side that the build side's keys prune at run time.
  std::vector<RuntimeFilterTarget> runtime_filters;
  // kReplicateRows: an int64 column of the input
  BoundExprPtr replicate_count;
  // kExpand
  std::vector<std::vector<BoundExprPtr>> expand_projections;
  // kWindow
  std::vector<WindowCall> window_calls;
  // kSample
  SampleSpec sample;
  // kGenerate: explode, explode_outer, posexplode, posexplode_outer, inline, inline_outer or
  // stack, and the input fields it reads (stack: the row count first)
  std::string generator;
  std::vector<std::string> generator_args;
  // kChangelogPass, and kScan of a change read (what its passes do, for EXPLAIN)
  std::shared_ptr<const ChangelogPostProcessing> changelog;
  ChangelogStage changelog_stage = ChangelogStage::kRowLevel;

  // Any node, set by the physical planning passes: an earlier node of the same plan that
  // computes the same rows (plan/subplan_reuse.h); this one reads that node's result.
  const PlanNode* reuses = nullptr;

  /// \brief The operator's name as EXPLAIN prints it (BatchScan, Filter, Project...).
  std::string OperatorName() const;
  /// \brief The output as an Arrow schema with internal names.
  std::shared_ptr<arrow::Schema> OutputSchema() const;
};

}  // namespace parley
