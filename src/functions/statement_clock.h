// The time of the running statement: current_date and current_timestamp see one instant per
// statement, as in Spark, however long the statement takes to analyze.
#pragma once

#include <cstdint>
#include <optional>

namespace parley {

/// \brief Fixes the statement time for the current thread while in scope. Nested clocks keep
/// the outermost instant, so a statement that runs a query inside it still sees one time.
class StatementClock {
 public:
  StatementClock();
  ~StatementClock();
  StatementClock(const StatementClock&) = delete;
  StatementClock& operator=(const StatementClock&) = delete;

 private:
  bool owner_;
};

/// \brief Microseconds since the Unix epoch of the running statement (the instant its
/// StatementClock was created), or of the wall clock when no StatementClock is in scope.
int64_t StatementMicros();

}  // namespace parley
