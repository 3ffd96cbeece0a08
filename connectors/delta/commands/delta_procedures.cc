// The Delta catalog's procedures: each a fixed parameter list and a run over the loaded table
// (delta_commands.h).
#include "connectors/delta/commands/delta_procedures.h"

#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/delta/commands/delta_commands.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

using Args = std::vector<std::shared_ptr<arrow::Scalar>>;
using Run = std::function<Result<std::shared_ptr<arrow::Table>>(const Table&, const Args&,
                                                                const Options& session_conf)>;

constexpr const char* kRetentionCheckKey = "spark.databricks.delta.retentionDurationCheck.enabled";

struct ProcedureSpec {
  std::string name;
  std::string description;
  std::vector<ProcedureParameter> parameters;
  Run run;
};

ProcedureParameter TableParameter() {
  return {"table", arrow::utf8(), std::nullopt, "the table: db.t, t, or delta.`/path`"};
}

std::optional<double> OptionalDouble(const arrow::Scalar& value) {
  if (!value.is_valid) return std::nullopt;
  return static_cast<const arrow::DoubleScalar&>(value).value;
}

std::vector<ProcedureSpec> Specs() {
  std::vector<ProcedureSpec> specs;
  specs.push_back(
      {"describe_detail",
       "One row about a Delta table: location, files, size, protocol and properties.",
       {TableParameter()},
       [](const Table& table, const Args&, const Options&) { return DescribeDetail(table); }});
  specs.push_back(
      {"describe_history",
       "The commits of a Delta table, newest first.",
       {TableParameter(), {"limit", arrow::int64(), "NULL", "at most this many commits"}},
       [](const Table& table, const Args& args, const Options&) {
         std::optional<int64_t> limit;
         if (args[1]->is_valid) {
           limit = static_cast<const arrow::Int64Scalar&>(*args[1]).value;
         }
         return DescribeHistory(table, limit);
       }});
  specs.push_back(
      {"vacuum",
       "Delete the files a Delta table no longer references and that are older than the "
       "retention.",
       {TableParameter(),
        {"retention_hours", arrow::float64(), "NULL", "keep files younger than this (168)"},
        {"dry_run", arrow::boolean(), "false", "list the files instead of deleting them"}},
       [](const Table& table, const Args& args, const Options& session_conf) {
         VacuumOptions options;
         options.retain_hours = OptionalDouble(*args[1]);
         options.dry_run =
             args[2]->is_valid && static_cast<const arrow::BooleanScalar&>(*args[2]).value;
         auto check = session_conf.find(kRetentionCheckKey);
         options.check_retention = check == session_conf.end() || check->second != "false";
         return Vacuum(table, options);
       }});
  return specs;
}

// A procedure whose parameters do not depend on its arguments: bound, it is itself.
class DeltaProcedure : public UnboundProcedure, public BoundProcedure {
 public:
  DeltaProcedure(ProcedureSpec spec, ProcedureTableLoader load)
      : spec_(std::move(spec)), load_(std::move(load)) {}

  std::string name() const override { return spec_.name; }
  std::string description() const override { return spec_.description; }
  Result<std::shared_ptr<BoundProcedure>> Bind(const arrow::Schema&) override {
    return std::make_shared<DeltaProcedure>(spec_, load_);
  }
  bool deterministic() const override { return false; }
  std::vector<ProcedureParameter> parameters() const override { return spec_.parameters; }

  Result<ProcedureResults> Call(const Args& args, const Options& session_conf) override {
    if (!args[0]->is_valid) {
      return InvalidError("INVALID_PARAMETER_VALUE.NULL",
                          "The value of parameter(s) `table` in `" + spec_.name +
                              "` is invalid: expects a non-NULL value.");
    }
    ARROW_ASSIGN_OR_RAISE(auto table,
                          load_(static_cast<const arrow::StringScalar&>(*args[0]).ToString()));
    ARROW_ASSIGN_OR_RAISE(auto result, spec_.run(*table, args, session_conf));
    return ProcedureResults{std::move(result)};
  }

 private:
  ProcedureSpec spec_;
  ProcedureTableLoader load_;
};

bool IsSystem(const std::vector<std::string>& namespace_path) {
  return namespace_path.size() == 1 && Lower(namespace_path[0]) == "system";
}

}  // namespace

Result<std::shared_ptr<UnboundProcedure>> LoadDeltaProcedure(const Identifier& ident,
                                                             ProcedureTableLoader load) {
  if (IsSystem(ident.namespace_path)) {
    for (auto& spec : Specs()) {
      if (spec.name == Lower(ident.name))
        return std::make_shared<DeltaProcedure>(spec, std::move(load));
    }
  }
  return Status::KeyError("no procedure ", ident.ToString());
}

std::vector<Identifier> DeltaProcedureNames(const std::vector<std::string>& namespace_path) {
  std::vector<Identifier> names;
  if (!IsSystem(namespace_path)) return names;
  for (const auto& spec : Specs()) names.push_back({namespace_path, spec.name});
  return names;
}

}  // namespace parley::delta
