// The example tables and their scan builders. SimpleScanBuilder is Step 1 of Spark's guide: no
// negotiation at all. FilteredScanBuilder is Step 2: it answers the engine's filter offer per
// predicate (accepting one `i > <int>` threshold, or the same written with the catalog's own
// function as `scale(i, <k>) > <int>`, that it can turn into fewer partitions, and returning
// everything else as residual) and records the columns the query needs.
#include "range_tables.h"

#include <utility>

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"
#include "range_functions.h"
#include "range_scan.h"

namespace parley::example {
namespace {

// Step 1's builder: whatever the query, read i and j of every row.
class SimpleScanBuilder : public ScanBuilder {
 public:
  Result<std::shared_ptr<Scan>> Build() override {
    return std::make_shared<RangeScan>(std::nullopt, std::vector<PredicatePtr>{},
                                       std::vector<RangeColumn>{RangeColumn::kI, RangeColumn::kJ});
  }
};

// If `predicate` is `i > <literal>` with a valid INT literal of at least -1, return the
// literal. The planner starts the first partition at the threshold plus one and the data starts
// at 0, so a lower threshold is left to the engine.
std::optional<int32_t> IGreaterThanInt(const Predicate& predicate) {
  auto children = predicate.children();
  if (predicate.name() != ">" || children.size() != 2) return std::nullopt;
  const std::string* column = AsColumnName(*children[0]);
  if (column == nullptr || *column != "i") return std::nullopt;
  auto* literal = dynamic_cast<const Literal*>(children[1].get());
  if (literal == nullptr || literal->value() == nullptr) return std::nullopt;
  auto* bound = dynamic_cast<const arrow::Int32Scalar*>(literal->value().get());
  if (bound == nullptr || !bound->is_valid || bound->value < -1) return std::nullopt;
  return bound->value;
}

// If `predicate` is `scale(i, <k>) > <c>` (the catalog's own function, known by its canonical
// name) with INT literals, 1 <= k <= 1000 (so that i * k cannot overflow for this table's i)
// and c at least -1, return the threshold on i it means: i * k > c exactly when
// i > floor(c / k).
std::optional<int32_t> ScaledIGreaterThanInt(const Predicate& predicate) {
  auto children = predicate.children();
  if (predicate.name() != ">" || children.size() != 2) return std::nullopt;
  auto* call = dynamic_cast<const UserDefinedScalarFunc*>(children[0].get());
  if (call == nullptr || call->canonical_name() != kScaleCanonicalName) return std::nullopt;
  auto args = call->children();
  const std::string* column = args.size() == 2 ? AsColumnName(*args[0]) : nullptr;
  if (column == nullptr || *column != "i") return std::nullopt;
  auto int_literal = [](const Expression& expression) -> std::optional<int32_t> {
    auto* literal = dynamic_cast<const Literal*>(&expression);
    if (literal == nullptr || literal->value() == nullptr) return std::nullopt;
    auto* value = dynamic_cast<const arrow::Int32Scalar*>(literal->value().get());
    if (value == nullptr || !value->is_valid) return std::nullopt;
    return value->value;
  };
  auto factor = int_literal(*args[1]);
  auto bound = int_literal(*children[1]);
  if (!factor || !bound || *factor < 1 || *factor > 1000 || *bound < -1) return std::nullopt;
  int32_t threshold = *bound / *factor;
  if (*bound % *factor != 0 && *bound < 0) --threshold;
  return threshold;
}

// Step 2's builder.
class FilteredScanBuilder : public ScanBuilder,
                            public SupportsPushDownV2Filters,
                            public SupportsPushDownRequiredColumns {
 public:
  Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> predicates) override {
    // Not iterative: each call replaces what an earlier call accepted.
    pushed_.clear();
    lower_bound_.reset();
    std::vector<PredicatePtr> residual;
    for (auto& predicate : predicates) {
      std::optional<int32_t> bound;
      if (pushed_.empty()) {
        bound = IGreaterThanInt(*predicate);
        if (!bound) bound = ScaledIGreaterThanInt(*predicate);
      }
      if (bound) {
        lower_bound_ = bound;
        pushed_.push_back(std::move(predicate));
      } else {
        residual.push_back(std::move(predicate));
      }
    }
    return residual;
  }

  std::vector<PredicatePtr> PushedPredicates() const override { return pushed_; }

  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    bool want_i = false, want_j = false;
    for (const auto& field : required_schema->fields()) {
      if (field->name() == "i") {
        want_i = true;
      } else if (field->name() == "j") {
        want_j = true;
      } else {
        return InvalidError("INTERNAL_ERROR",
                            "Column pruning asked the range table for the column " +
                                QuoteIdentifier(field->name()) + ", which it does not have.");
      }
    }
    columns_.clear();
    if (want_i) columns_.push_back(RangeColumn::kI);
    if (want_j) columns_.push_back(RangeColumn::kJ);
    return Status::OK();
  }

  Result<std::shared_ptr<Scan>> Build() override {
    return std::make_shared<RangeScan>(lower_bound_, pushed_, columns_);
  }

 private:
  std::optional<int32_t> lower_bound_;
  std::vector<PredicatePtr> pushed_;
  std::vector<RangeColumn> columns_ = {RangeColumn::kI, RangeColumn::kJ};
};

}  // namespace

std::vector<Column> RangeTable::columns() const {
  return SchemaToColumns(*RangeSchema({RangeColumn::kI, RangeColumn::kJ}));
}

std::set<TableCapability> RangeTable::capabilities() const { return {TableCapability::kBatchRead}; }

Result<std::unique_ptr<ScanBuilder>> SimpleTable::NewScanBuilder(const Options&) {
  return std::make_unique<SimpleScanBuilder>();
}

Result<std::unique_ptr<ScanBuilder>> FilteredTable::NewScanBuilder(const Options&) {
  return std::make_unique<FilteredScanBuilder>();
}

}  // namespace parley::example
