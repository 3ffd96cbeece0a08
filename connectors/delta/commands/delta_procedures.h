// The Delta catalog's procedures, in its namespace `system`:
//
//   vacuum(table STRING, retention_hours DOUBLE DEFAULT NULL, dry_run BOOLEAN DEFAULT false)
//   describe_history(table STRING, limit BIGINT DEFAULT NULL)
//   describe_detail(table STRING)
//
// `table` names a table of the catalog ('db.t', 't' in the default namespace, optionally
// prefixed by the catalog's name) or a path table ('delta.`/data/t`'). Each returns one result
// set, that of delta_commands.h. vacuum honours the session setting
// spark.databricks.delta.retentionDurationCheck.enabled (default true).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parley/connector/procedure.h"

namespace parley::delta {

/// \brief Loads the table a procedure's `table` argument names, as the catalog resolves it.
using ProcedureTableLoader = std::function<Result<std::shared_ptr<Table>>(const std::string&)>;

/// \brief The procedure `ident` (system.vacuum, ...) reading tables through `load`; a KeyError
/// for any other name.
Result<std::shared_ptr<UnboundProcedure>> LoadDeltaProcedure(const Identifier& ident,
                                                             ProcedureTableLoader load);

/// \brief The procedures of `namespace_path`: the three above for {"system"}, none elsewhere.
std::vector<Identifier> DeltaProcedureNames(const std::vector<std::string>& namespace_path);

}  // namespace parley::delta
