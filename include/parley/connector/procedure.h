// Procedures: operations a catalog offers under a name, run with `CALL catalog.ns.proc(args)`,
// as Spark's ProcedureCatalog, UnboundProcedure and BoundProcedure.
//
// The engine loads the UnboundProcedure, binds it to the types of the call's arguments, matches
// the arguments to the bound procedure's parameters (positional ones in order, `name => value`
// ones by name, defaults for the rest), casts each to its parameter's type as Spark's ANSI
// implicit casts allow, and calls it with one value per parameter. Every error of that matching
// is the engine's, with Spark's conditions: REQUIRED_PARAMETER_NOT_FOUND,
// UNRECOGNIZED_PARAMETER_NAME, DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.*,
// UNEXPECTED_POSITIONAL_ARGUMENT, WRONG_NUM_ARGS.WITHOUT_SUGGESTION and
// DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE. A procedure only checks what its values mean.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/catalog.h"

namespace parley {

/// \brief One parameter of a bound procedure (Spark's ProcedureParameter).
struct ProcedureParameter {
  /// Only kIn is supported; a procedure declaring another mode fails when called.
  enum class Mode { kIn, kInOut, kOut };

  std::string name;
  std::shared_ptr<arrow::DataType> type;
  /// The SQL text of the value used when the call gives none (evaluated at each call, so it may
  /// be an expression such as `1 + 1`); absent for a required parameter. Required parameters
  /// come before the ones with a default.
  std::optional<std::string> default_value = std::nullopt;
  std::string comment = {};
  Mode mode = Mode::kIn;
};

/// \brief What a call returns: zero or more result sets (Spark shows a single one; a call
/// returning none shows nothing).
using ProcedureResults = std::vector<std::shared_ptr<arrow::Table>>;

/// \brief A procedure bound to the types of a call's arguments. Call may run on any thread
/// but not concurrently with itself on one instance.
class BoundProcedure {
 public:
  virtual ~BoundProcedure() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// \brief Whether two calls with the same arguments return the same results.
  virtual bool deterministic() const { return true; }
  /// \brief The parameters, in the order Call receives their values.
  virtual std::vector<ProcedureParameter> parameters() const = 0;
  /// \brief Run the procedure. `args` holds one value per parameter, in parameters() order,
  /// each of its parameter's type (a null scalar for NULL). `session_conf` holds the session's
  /// settings (SET key=value, keys as written), for procedures whose behaviour Spark ties to one.
  virtual Result<ProcedureResults> Call(const std::vector<std::shared_ptr<arrow::Scalar>>& args,
                                        const Options& session_conf) = 0;
};

/// \brief Metadata-key of an argument field of UnboundProcedure::Bind that was passed by name.
inline constexpr const char* kByNameArgumentMetadataKey = "parley.by_name";

/// \brief A procedure as a catalog loads it, before it knows its arguments.
class UnboundProcedure {
 public:
  virtual ~UnboundProcedure() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// \brief Bind to a call's arguments. `input` holds one field per argument, in the order
  /// written: a named argument under its name (with kByNameArgumentMetadataKey set to "true"),
  /// a positional one as `param<index>`. An error names the argument the procedure refuses.
  virtual Result<std::shared_ptr<BoundProcedure>> Bind(const arrow::Schema& input) = 0;
};

/// \brief A catalog that offers procedures. LoadProcedure of a name the catalog does not have
/// returns a KeyError; the engine reports it as FAILED_TO_LOAD_ROUTINE naming the procedure.
class ProcedureCatalog : public virtual CatalogPlugin {
 public:
  virtual Result<std::shared_ptr<UnboundProcedure>> LoadProcedure(const Identifier& ident) = 0;
  /// \brief The procedures of one namespace.
  virtual Result<std::vector<Identifier>> ListProcedures(
      const std::vector<std::string>& namespace_path) = 0;
};

/// \brief Split a multi-part name written as SQL writes it ("db.t", "`my.db`.t",
/// "delta.`/data/t`") into its parts, for procedures that take a table name as a STRING.
/// PARSE_SYNTAX_ERROR for an empty part or an unclosed quote.
Result<std::vector<std::string>> ParseMultipartIdentifier(std::string_view text);

/// \brief Render parts as ParseMultipartIdentifier reads them: each quoted with backticks.
std::string QuoteMultipartIdentifier(const std::vector<std::string>& parts);

}  // namespace parley
