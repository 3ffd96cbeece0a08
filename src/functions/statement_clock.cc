// One instant per statement, kept per thread.
#include "functions/statement_clock.h"

#include <chrono>

namespace parley {
namespace {

thread_local std::optional<int64_t> statement_micros;

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

StatementClock::StatementClock() : owner_(!statement_micros.has_value()) {
  if (owner_) statement_micros = NowMicros();
}

StatementClock::~StatementClock() {
  if (owner_) statement_micros.reset();
}

int64_t StatementMicros() { return statement_micros.value_or(NowMicros()); }

}  // namespace parley
