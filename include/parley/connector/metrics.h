// Custom metrics a connector reports per task and the engine aggregates per scan, shown by
// EXPLAIN ANALYZE (Spark's connector.metric package).
//
// A Scan declares its metrics with SupportedCustomMetrics(); each PartitionReader reports task
// values with CurrentMetricsValues(), using the same names; after the scan the engine calls
// AggregateTaskMetrics once per metric with every task's last value. Metrics are immutable and
// safe to share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parley {

/// \brief A metric a scan declares: how to combine task values into what EXPLAIN shows.
class CustomMetric {
 public:
  virtual ~CustomMetric() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// \brief Combine the task values into the text shown to users.
  virtual std::string AggregateTaskMetrics(const std::vector<int64_t>& task_values) const = 0;
};

/// \brief A ready-made metric whose aggregate is the sum of the task values.
class CustomSumMetric : public CustomMetric {
 public:
  CustomSumMetric(std::string name, std::string description)
      : name_(std::move(name)), description_(std::move(description)) {}
  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  std::string AggregateTaskMetrics(const std::vector<int64_t>& task_values) const override;

 private:
  std::string name_, description_;
};

/// \brief One value a task reports for a declared metric.
struct CustomTaskMetric {
  std::string name;
  int64_t value = 0;
};

/// The name of the metric every source should report: bytes read from storage. EXPLAIN ANALYZE
/// shows it as the scan's "bytes read".
inline constexpr const char* kBytesReadMetric = "bytesRead";

}  // namespace parley
