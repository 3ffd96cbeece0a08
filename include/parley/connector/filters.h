// The older (V1) filter form, Spark's org.apache.spark.sql.sources.Filter, offered to builders
// that implement SupportsPushDownFilters instead of SupportsPushDownV2Filters. New connectors
// should use V2 predicates; this form exists so connectors ported from Spark keep working.
// Immutable; safe to share.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"

namespace parley {

/// \brief One V1 filter. `attribute` is a (dot-joined) column name; `values` holds the literal
/// operands (one for comparisons and string matches, the list for In); `children` the operands
/// of And, Or and Not.
struct Filter {
  enum class Kind {
    kEqualTo,
    kEqualNullSafe,
    kGreaterThan,
    kGreaterThanOrEqual,
    kLessThan,
    kLessThanOrEqual,
    kIn,
    kIsNull,
    kIsNotNull,
    kStringStartsWith,
    kStringEndsWith,
    kStringContains,
    kAnd,
    kOr,
    kNot,
    kAlwaysTrue,
    kAlwaysFalse,
  };

  Kind kind;
  std::string attribute;
  std::vector<std::shared_ptr<arrow::Scalar>> values;
  std::vector<std::shared_ptr<Filter>> children;

  /// \brief Spark's rendering, e.g. `GreaterThan(i,6)`.
  std::string ToString() const;
};

using FilterPtr = std::shared_ptr<Filter>;

}  // namespace parley
