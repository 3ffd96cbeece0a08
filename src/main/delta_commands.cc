// Delta's commands as statements: DESCRIBE HISTORY, DESCRIBE DETAIL and VACUUM resolve their
// table like a read and hand it to the Delta connector (connectors/delta/delta_table.h).
#include "analysis/query_binder.h"
#include "arrow/table.h"
#include "connectors/delta/delta_table.h"
#include "main/commands.h"

namespace parley {

CommandResult RunDescribeHistory(const sql::DescribeHistory& describe,
                                 const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadTableForName(describe.table, context.catalogs));
  return delta::DescribeHistory(*loaded.second, describe.limit);
}

CommandResult RunDescribeDetail(const sql::DescribeDetail& describe,
                                const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadTableForName(describe.table, context.catalogs));
  return delta::DescribeDetail(*loaded.second);
}

CommandResult RunVacuum(const sql::Vacuum& vacuum, const CommandContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto loaded, LoadTableForName(vacuum.table, context.catalogs));
  delta::VacuumOptions options;
  options.retain_hours = vacuum.retain_hours;
  options.dry_run = vacuum.dry_run;
  options.check_retention =
      context.conf->Get(kRetentionDurationCheckKey).value_or("true") != "false";
  return delta::Vacuum(*loaded.second, options);
}

}  // namespace parley
