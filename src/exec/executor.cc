// Running a final plan: lowered (exec/lowering.h) and run on Acero, its output gathered
// (ExecutePlan) or streamed from a sink with backpressure (ExecutePlanStream).
#include "exec/executor.h"

#include <mutex>
#include <optional>

#include "arrow/acero/exec_plan.h"
#include "arrow/acero/options.h"
#include "arrow/compute/api.h"
#include "arrow/compute/initialize.h"
#include "arrow/dataset/plan.h"
#include "arrow/table.h"
#include "arrow/util/thread_pool.h"
#include "exec/lowering.h"
#include "exec/scalar_subquery_value.h"
#include "kernels/kernels.h"
#include "kernels/spark_errors.h"

namespace parley {
namespace {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

// What a streamed plan's output may hold ahead of its reader: past the high mark the sink asks
// the plan's sources to pause (a scan's tasks then pause too, scan_tasks.h), below the low mark
// they resume. Memory follows these bytes, not the result's size.
constexpr uint64_t kStreamPauseAboveBytes = 32 << 20;
constexpr uint64_t kStreamResumeBelowBytes = 16 << 20;

// A plan lowered and started on Acero, its output taken from a sink with backpressure. Owns the
// options its lowering refers to.
class LoweredPlanStream : public PlanStream {
 public:
  explicit LoweredPlanStream(const ScanRunOptions& options)
      : options_(options), lowering_(options_, /*profile=*/false) {}
  ~LoweredPlanStream() override {
    if (!closed_) ARROW_UNUSED(Close());
  }

  Status Start(const PlanNodePtr& plan) {
    lowering_.CollectReuse(*plan);
    ARROW_ASSIGN_OR_RAISE(auto declaration, lowering_.Lower(plan));
    std::shared_ptr<arrow::Schema> output;
    auto with_sink = ac::Declaration::Sequence(
        {std::move(declaration),
         {"sink", ac::SinkNodeOptions(
                      &output_, &output,
                      ac::BackpressureOptions(kStreamResumeBelowBytes, kStreamPauseAboveBytes))}});
    cp::ExecContext context(options_.control.pool(), arrow::internal::GetCpuThreadPool());
    auto made = ac::ExecPlan::Make(PlanOptions(options_), context);
    if (!made.ok()) return ToSparkError(made.status());
    acero_plan_ = std::move(made).ValueUnsafe();
    Status added = with_sink.AddToPlan(acero_plan_.get()).status();
    if (added.ok()) added = acero_plan_->Validate();
    if (!added.ok()) {
      acero_plan_ = nullptr;
      return ToSparkError(added);
    }
    acero_plan_->StartProducing();
    arrow::FieldVector fields;
    for (size_t i = 0; i < plan->output.size(); ++i) {
      fields.push_back(output->field(static_cast<int>(i))->WithName(plan->output[i].display));
    }
    schema_ = arrow::schema(std::move(fields));
    return Status::OK();
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_RETURN_NOT_OK(options_.control.Check());
    ARROW_ASSIGN_OR_RAISE(auto batch, Take());
    if (!batch.has_value()) return nullptr;
    return batch->ToRecordBatch(schema_, options_.control.pool());
  }

  // A plan still running is not stopped from outside: Acero's ExecPlan::StopProducing aborts
  // its task scheduler, which can lose a task of a task group then in flight (a hash join's
  // flush, which is when a join's rows come out), and the plan then never finishes. Its scans
  // end instead, the plan runs dry, and the stream closes once the plan has finished.
  Status Close() override {
    if (closed_) return close_status_;
    closed_ = true;
    lowering_.StopStreams();
    Status closed;
    if (acero_plan_ != nullptr) {
      while (!ended_) {
        auto batch = Take();
        if (!batch.ok()) closed = batch.status();
      }
      Status finished = acero_plan_->finished().status();
      if (closed.ok()) closed = ToSparkError(finished);
      // The plan's source nodes hold the scans' streams, and a paused scan task its reader:
      // both go now, not when this stream is destroyed.
      output_ = nullptr;
      acero_plan_.reset();
    }
    Status streams = lowering_.FinishStreams();
    close_status_ = closed.ok() ? streams : closed;
    return close_status_;
  }

 private:
  // The next batch of the sink, null at the end; an error (with its Spark condition) ends too.
  // A plan that failed ends the stream with its error even when its sink was never closed: an
  // error inside one of Acero's task-group tasks (a hash join probing the batches it queued)
  // can lose the task, and the abort that would close the sink then never completes.
  Result<std::optional<cp::ExecBatch>> Take() {
    if (ended_ || output_ == nullptr) return std::nullopt;
    auto next = output_();
    auto finished = acero_plan_->finished();
    constexpr double kPollSeconds = 0.05;
    while (!next.Wait(kPollSeconds)) {
      if (finished.is_finished() && !finished.status().ok()) {
        ended_ = true;
        return ToSparkError(finished.status());
      }
    }
    auto taken = next.result();
    ended_ = !taken.ok() || !taken->has_value();
    if (!taken.ok()) return ToSparkError(taken.status());
    return std::move(taken).ValueUnsafe();
  }

  ScanRunOptions options_;
  Lowering lowering_;
  std::shared_ptr<ac::ExecPlan> acero_plan_;
  std::function<arrow::Future<std::optional<cp::ExecBatch>>()> output_;
  std::shared_ptr<arrow::Schema> schema_;
  bool ended_ = false;  // the sink returned its end or an error
  bool closed_ = false;
  Status close_status_;
};

}  // namespace

Status EnsureComputeInitialized() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] {
    status = arrow::compute::Initialize();
    if (status.ok()) arrow::dataset::internal::Initialize();
    if (status.ok()) status = RegisterParleyKernels();
    if (status.ok()) status = RegisterScalarSubqueryValueFunction();
  });
  return status;
}

Result<ExecutionResult> ExecutePlan(const PlanNodePtr& plan, const ScanRunOptions& options,
                                    bool profile) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  Lowering lowering(options, profile);
  lowering.CollectReuse(*plan);
  auto declaration = lowering.Lower(plan);
  if (!declaration.ok()) {
    ARROW_UNUSED(lowering.FinishStreams());
    return declaration.status();
  }
  auto table = RunToTable(std::move(*declaration), options);
  Status finished = lowering.FinishStreams();
  if (!table.ok()) return table.status();
  ARROW_RETURN_NOT_OK(finished);
  std::vector<std::string> names;
  for (const auto& field : plan->output) names.push_back(field.display);
  ARROW_ASSIGN_OR_RAISE(auto renamed, (*table)->RenameColumns(names));
  return ExecutionResult{std::move(renamed), std::move(lowering.metrics()),
                         std::move(lowering.profile())};
}

Result<std::unique_ptr<PlanStream>> ExecutePlanStream(const PlanNodePtr& plan,
                                                      const ScanRunOptions& options) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  auto stream = std::make_unique<LoweredPlanStream>(options);
  Status started = stream->Start(plan);
  if (!started.ok()) {
    ARROW_UNUSED(stream->Close());
    return started;
  }
  return std::unique_ptr<PlanStream>(std::move(stream));
}

}  // namespace parley
