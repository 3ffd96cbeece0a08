// Named fault points for testing the write protocol: the engine and connectors call
// InjectFault(point) at the steps where a crash or an error must not lose or duplicate data, and
// a test arms points to fail there (return an error) or kill the process (SIGKILL).
//
// Points are armed with a comma-separated spec, from the session setting
// `parley.test.faultInjection` or, for a child process, the environment variable
// PARLEY_FAULT_INJECTION; each entry is
//     <point>[@<partition>][#<attempt>][:fail|:kill]
// where the partition and attempt numbers restrict the entry to one task partition or attempt
// (0 is the first), and the action defaults to fail. A failure is an error with the condition
// INJECTED_FAULT naming the point. With nothing armed InjectFault costs one atomic load.
// Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "parley/connector/status.h"

namespace parley {

/// The engine's points, in the order a write reaches them.
inline constexpr const char* kFaultTaskBeforeWrite = "task.beforeWrite";
inline constexpr const char* kFaultTaskBeforeCommit = "task.beforeCommit";
inline constexpr const char* kFaultDriverBeforeCommit = "driver.beforeCommit";
/// Called by connectors inside BatchWrite::Commit, between the steps that publish the data.
inline constexpr const char* kFaultDriverInsideCommit = "driver.insideCommit";

/// \brief Arm the points of `spec` (format above), replacing what was armed; an empty spec
/// disarms everything. Errors: INVALID_CONF_VALUE naming the malformed entry.
Status SetFaultInjection(const std::string& spec);

/// \brief Fail or kill the process when `point` is armed for this partition and attempt
/// (-1: not a task). Returns OK otherwise.
Status InjectFault(std::string_view point, int partition = -1, int attempt = -1);

}  // namespace parley
