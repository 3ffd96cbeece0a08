// Functions a catalog offers, called in SQL as `cat.ns.f(args)`, as Spark's FunctionCatalog,
// UnboundFunction, BoundFunction and ScalarFunction describe them.
//
// The engine loads the UnboundFunction, binds it to the types of the call's arguments, casts
// each argument to the bound function's input type when they differ (an ANSI cast, which fails
// on a value it cannot convert), and evaluates it on whole Arrow arrays: one call per batch,
// not per row. A function that binds to an AggregateFunction is an aggregate, called where
// Spark allows aggregates (SELECT, HAVING, ORDER BY of a grouped query). A function that cannot
// take the arguments says so from Bind, with a message naming the types it expects; the engine
// reports it under the function's condition.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/catalog.h"
#include "parley/connector/types.h"

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

/// \brief The partial result of an aggregate function over some rows of one group, of the
/// function's own making.
class AggregationState {
 public:
  virtual ~AggregationState() = default;
};

/// \brief A bound aggregate function (Spark's AggregateFunction). The engine keeps one state
/// per group and per task: it updates a state with a batch of the group's rows at a time,
/// merges the states of a group that several tasks computed, and produces each group's result
/// from its merged state. A state crosses from one task to another as the bytes Serialize
/// makes (as Spark ships partial aggregates between executors), so Deserialize must rebuild an
/// equal state. Every method may be called from several threads at once, on different states.
class AggregateFunction : public BoundFunction {
 public:
  /// \brief The state of a group that has seen no row.
  virtual std::unique_ptr<AggregationState> NewState() const = 0;
  /// \brief Add rows of one group: `args` holds one array per argument, each of its input type
  /// and `length` long.
  virtual Status Update(AggregationState* state, const arrow::ArrayVector& args,
                        int64_t length) const = 0;
  /// \brief Fold `other` (the same group's rows seen elsewhere) into `state`.
  virtual Status Merge(AggregationState* state, const AggregationState& other) const = 0;
  /// \brief The group's result, a scalar of result_type() (a null one for NULL).
  virtual Result<std::shared_ptr<arrow::Scalar>> Produce(const AggregationState& state) const = 0;
  virtual Result<std::string> Serialize(const AggregationState& state) const = 0;
  virtual Result<std::unique_ptr<AggregationState>> Deserialize(std::string_view bytes) const = 0;
};

/// \brief A function as a catalog loads it, before it knows its arguments.
class UnboundFunction {
 public:
  virtual ~UnboundFunction() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// \brief Bind to the types of a call's arguments (one field per argument, in order): a
  /// ScalarFunction or an AggregateFunction. An error names what the function expected.
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

/// \brief One parameter of a SQL function.
struct SqlFunctionParameter {
  std::string name;
  std::shared_ptr<arrow::DataType> type;
  /// The SQL text of the value a call that passes none gets; absent for a required parameter.
  /// Parameters with a default come after the required ones.
  std::optional<std::string> default_value = std::nullopt;
  std::string comment = {};
};

/// \brief A function written in SQL (`CREATE FUNCTION f(a INT) RETURNS INT RETURN a + 1`), as
/// a catalog keeps it. The body is kept as text with the SQL settings set at creation; the
/// engine binds it at every call, with those settings, each parameter standing for its argument
/// cast to the parameter's type, and (as Spark does, unlike a view) its names resolving in the
/// catalog and namespace current at the call.
struct SqlFunctionInfo {
  std::vector<SqlFunctionParameter> parameters;
  /// A table function (RETURNS TABLE, called in FROM) rather than a scalar one.
  bool is_table = false;
  /// A scalar function's result type (its body's value is cast to it).
  std::shared_ptr<arrow::DataType> return_type;
  /// A table function's result columns (its body's columns are cast to their types, by
  /// position).
  std::vector<Column> return_columns;
  /// The expression or query after RETURN, as written.
  std::string body;
  std::string comment;
  bool deterministic = true;
  /// "CONTAINS SQL" or "READS SQL DATA".
  std::string data_access = "CONTAINS SQL";
  std::map<std::string, std::string> sql_configs;
  /// Milliseconds since the epoch.
  int64_t create_time_ms = 0;
};

/// \brief The UnboundFunction of a SQL function: the engine expands its body at each call, so
/// Bind, which nothing calls, fails.
class SqlFunction final : public UnboundFunction {
 public:
  SqlFunction(std::string name, SqlFunctionInfo info);
  std::string name() const override { return name_; }
  std::string description() const override { return info_.comment; }
  Result<std::shared_ptr<BoundFunction>> Bind(const arrow::Schema& input) override;
  const SqlFunctionInfo& info() const { return info_; }

 private:
  std::string name_;
  SqlFunctionInfo info_;
};

/// \brief A FunctionCatalog that keeps SQL functions (CREATE FUNCTION without TEMPORARY).
/// LoadFunction returns a kept function as a SqlFunction; ListFunctions lists them.
class SqlFunctionCatalog : public virtual FunctionCatalog {
 public:
  /// \brief Keep a SQL function; with `replace`, over one of that name. Errors:
  /// ROUTINE_ALREADY_EXISTS when the name is taken and `replace` is false, SCHEMA_NOT_FOUND.
  /// The engine has checked that the body binds.
  virtual Status CreateSqlFunction(const Identifier& ident, const SqlFunctionInfo& info,
                                   bool replace) = 0;
  /// \brief Forget a SQL function; false when the catalog kept none of that name.
  virtual Result<bool> DropSqlFunction(const Identifier& ident) = 0;
};

}  // namespace parley
