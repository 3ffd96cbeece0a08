// Analysis errors about tables and catalogs; AnalysisError itself is in sql/positioned_error.h.
#pragma once

#include <string_view>

#include "parley/connector/catalog.h"
#include "parley/connector/status.h"
#include "parley/source_text.h"
#include "plan/bound_expression.h"
#include "sql/ast.h"
#include "sql/positioned_error.h"

namespace parley {

/// \brief TABLE_OR_VIEW_NOT_FOUND naming the table as it was written.
Status TableNotFound(const sql::QualifiedName& name);

/// \brief The catalog's TableCatalog mix-in, or MISSING_CATALOG_ABILITY.TABLES naming it.
Result<TableCatalog*> AsTableCatalog(CatalogPlugin* catalog, SourcePosition pos);

}  // namespace parley
