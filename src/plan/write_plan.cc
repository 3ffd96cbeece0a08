// WritePlan helpers.
#include "plan/write_plan.h"

namespace parley {

std::string WritePlan::ModeDescription() const {
  switch (mode) {
    case Mode::kAppend: return "append";
    case Mode::kTruncate: return "truncate";
    case Mode::kOverwriteDynamic: return "dynamic partition overwrite";
    case Mode::kOverwriteByFilter: {
      std::string text = "overwrite where ";
      if (static_partition_values.empty()) {
        for (size_t i = 0; i < overwrite_predicates.size(); ++i) {
          text += (i > 0 ? " AND " : "") + overwrite_predicates[i]->ToString();
        }
      }
      for (size_t i = 0; i < static_partition_values.size(); ++i) {
        if (i > 0) text += " AND ";
        text += static_partition_values[i].first + " = " +
                static_partition_values[i].second->ToString();
      }
      return text;
    }
  }
  return "append";
}

}  // namespace parley
