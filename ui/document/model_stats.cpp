#include "document/model_stats.h"

#include <QCoreApplication>
#include <QLocale>

#include "document/training_memory.h"
#include "layerforge/graph/model.h"

namespace lf::ui {

namespace {

struct ModelStats {
    Q_DECLARE_TR_FUNCTIONS(ModelStats)
};

}  // namespace

QString formatBytes(std::int64_t bytes) { return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat); }

QString formatCount(std::int64_t n) { return QLocale().toString(qlonglong(n)); }

QString memoryText(const TrainingMemoryEstimate& memory) {
    if (memory.pending()) return QStringLiteral("…");
    const std::optional<std::int64_t> bytes = memory.bytes();
    return bytes ? "~" + formatBytes(*bytes) : QStringLiteral("?");
}

QString trainingProblem(const Analysis& a) { return QString::fromStdString(training_graph_problem(a)); }

// "valid" only when training accepts the graph: no errors, one Input, one output.
QString statusSummary(const Project& p, const Analysis& a, const TrainingMemoryEstimate& memory) {
    QString validity = !a.ok()                      ? ModelStats::tr("%n problem(s)", nullptr, int(a.diagnostics.size()))
                       : !trainingProblem(a).isEmpty() ? ModelStats::tr("not trainable: %1").arg(trainingProblem(a))
                                                    : ModelStats::tr("valid");
    return ModelStats::tr("%1 layers · %2 parameters · %3 FLOPs/sample · %4 training memory at batch %5 · %6")
        .arg(p.graph.nodes.size())
        .arg(formatCount(a.total_params), formatCount(a.flops), memoryText(memory))
        .arg(p.training.batch_size)
        .arg(validity);
}

}  // namespace lf::ui
