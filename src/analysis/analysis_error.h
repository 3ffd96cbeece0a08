// Analysis errors: a condition, a message naming the object at fault, and where it was written.
#pragma once

#include <string_view>

#include "parley/connector/catalog.h"
#include "parley/connector/status.h"
#include "parley/source_text.h"
#include "plan/bound_expression.h"
#include "sql/ast.h"

namespace parley {

/// \brief An analysis error whose message ends with the statement position, as
/// `... (line 1, column 8)`.
Status AnalysisError(std::string_view condition, std::string_view message, SourcePosition pos);

/// \brief TABLE_OR_VIEW_NOT_FOUND naming the table as it was written.
Status TableNotFound(const sql::QualifiedName& name);

/// \brief The catalog's TableCatalog mix-in, or MISSING_CATALOG_ABILITY.TABLES naming it.
Result<TableCatalog*> AsTableCatalog(CatalogPlugin* catalog, SourcePosition pos);

}  // namespace parley
