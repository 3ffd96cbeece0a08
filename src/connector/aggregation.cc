// Aggregate function rendering, the sum metric, and V1 filter rendering.
#include "parley/connector/aggregation.h"

#include <fmt/format.h>

#include "arrow/scalar.h"
#include "parley/connector/filters.h"
#include "parley/connector/metrics.h"

namespace parley {

std::string AggregateFunc::ToString() const {
  if (name_ == "COUNT(*)") return name_;
  std::vector<std::string> args;
  for (const auto& child : children_) args.push_back(child->ToString());
  return fmt::format("{}({}{})", name_, distinct_ ? "DISTINCT " : "", fmt::join(args, ", "));
}

std::string Aggregation::ToString() const {
  std::vector<std::string> aggregates;
  for (const auto& aggregate : aggregate_expressions) aggregates.push_back(aggregate->ToString());
  std::vector<std::string> keys;
  for (const auto& key : group_by_expressions) keys.push_back(key->ToString());
  return fmt::format("[{}] GROUP BY [{}]", fmt::join(aggregates, ", "), fmt::join(keys, ", "));
}

std::string CustomSumMetric::AggregateTaskMetrics(const std::vector<int64_t>& task_values) const {
  int64_t total = 0;
  for (int64_t value : task_values) total += value;
  return std::to_string(total);
}

std::string Filter::ToString() const {
  static const char* kNames[] = {"EqualTo",
                                 "EqualNullSafe",
                                 "GreaterThan",
                                 "GreaterThanOrEqual",
                                 "LessThan",
                                 "LessThanOrEqual",
                                 "In",
                                 "IsNull",
                                 "IsNotNull",
                                 "StringStartsWith",
                                 "StringEndsWith",
                                 "StringContains",
                                 "And",
                                 "Or",
                                 "Not",
                                 "AlwaysTrue",
                                 "AlwaysFalse"};
  std::vector<std::string> parts;
  if (!attribute.empty()) parts.push_back(attribute);
  for (const auto& value : values) parts.push_back(value->ToString());
  for (const auto& child : children) parts.push_back(child->ToString());
  std::string joined = fmt::format("{}", fmt::join(parts, ","));
  if (kind == Kind::kIn)
    joined = fmt::format("{}, [{}]", attribute, [&] {
      std::vector<std::string> items;
      for (const auto& value : values) items.push_back(value->ToString());
      return fmt::format("{}", fmt::join(items, ","));
    }());
  return fmt::format("{}({})", kNames[static_cast<int>(kind)], joined);
}

}  // namespace parley
