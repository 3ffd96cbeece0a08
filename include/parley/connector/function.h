// Functions a catalog offers, called in SQL as `cat.ns.f(args)`, as Spark's FunctionCatalog,
// UnboundFunction, BoundFunction and ScalarFunction describe them.
//
// The engine loads the UnboundFunction, binds it to the types of the call's arguments, casts
// each argument to the bound function's input type when they differ (an ANSI cast, which fails
// on a value it cannot convert), and evaluates it on whole Arrow arrays: one call per batch,
// not per row. A function that cannot take the arguments says so from Bind, with a message
// naming the types it expects; the engine reports it under the function's condition.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/catalog.h"

namespace parley {

/// \brief A function bound to the types of a call's arguments (Spark's BoundFunction).
class BoundFunction {
 public:
  virtual ~BoundFunction() = default;
  /// \brief The name users wrote, for messages and EXPLAIN.
  virtual std::string name() const = 0;
  /// \brief The types the arguments are cast to before the function sees them, one per argument.
  virtual std::vector<std::shared_ptr<arrow::DataType>> input_types() const = 0;
  virtual std::shared_ptr<arrow::DataType> result_type() const = 0;
  /// \brief Whether the result may be NULL.
  virtual bool result_nullable() const { return true; }
  /// \brief Whether the same arguments always give the same result.
  virtual bool deterministic() const { return true; }
  /// \brief A name that identifies the function's behaviour (two bound functions with the same
  /// canonical name compute the same thing), by default the name.
  virtual std::string canonical_name() const { return name(); }
};

/// \brief A bound scalar function (Spark's ScalarFunction), evaluated a batch at a time. Invoke
/// may be called from several threads at once.
class ScalarFunction : public BoundFunction {
 public:
  /// \brief The result for `length` rows: `args` holds one array per argument, each of its
  /// input type and `length` long. Returns an array of result_type() and `length`. An error
  /// (with a Spark condition, see parley/connector/status.h) fails the query.
  virtual Result<std::shared_ptr<arrow::Array>> Invoke(const arrow::ArrayVector& args,
                                                       int64_t length) const = 0;
};

/// \brief A function as a catalog loads it, before it knows its arguments.
class UnboundFunction {
 public:
  virtual ~UnboundFunction() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// \brief Bind to the types of a call's arguments (one field per argument, in order). An
  /// error names what the function expected; only ScalarFunction results can be called.
  virtual Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema& input) = 0;
};

/// \brief A catalog that offers functions. LoadFunction of a name the catalog does not have
/// returns a KeyError; the engine reports it as UNRESOLVED_ROUTINE naming the call.
class FunctionCatalog : public virtual CatalogPlugin {
 public:
  /// \brief The functions of one namespace.
  virtual Result<std::vector<Identifier>> ListFunctions(
      const std::vector<std::string>& namespace_path) = 0;
  virtual Result<std::shared_ptr<UnboundFunction>> LoadFunction(const Identifier& ident) = 0;
  /// \brief Whether LoadFunction finds `ident` (by default: it tries).
  virtual Result<bool> FunctionExists(const Identifier& ident);
};

}  // namespace parley
