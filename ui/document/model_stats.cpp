#include "document/model_stats.h"

#include <QCoreApplication>
#include <QLocale>

namespace lf::ui {

namespace {

struct ModelStats {
    Q_DECLARE_TR_FUNCTIONS(ModelStats)
};

int optimizerSlots(const NamedConfig& optimizer) {
    if (optimizer.type == "Adam" || optimizer.type == "AdamW") return 2;
    if (optimizer.type == "RMSprop") return 1;
    auto m = optimizer.params.find("momentum");
    if (m != optimizer.params.end()) {
        const double* d = std::get_if<double>(&m->second);
        if (d && *d != 0) return 1;
    }
    return 0;
}

}  // namespace

std::int64_t trainingMemoryBytes(const Project& p, const Analysis& a) {
    std::int64_t weights = a.total_params * (2 + optimizerSlots(p.training.optimizer));
    std::int64_t activations = 0;
    for (const auto& [id, info] : a.nodes)
        if (info.shaped && !(info.spec && info.spec->view)) activations += info.layer.output.elements();
    return 4 * (weights + 2 * activations * p.training.batch_size);
}

QString formatBytes(std::int64_t bytes) { return QLocale().formattedDataSize(bytes, 1); }

QString formatCount(std::int64_t n) { return QLocale().toString(qlonglong(n)); }

QString statusSummary(const Project& p, const Analysis& a) {
    QString validity = a.ok() ? ModelStats::tr("valid") : ModelStats::tr("%n problem(s)", nullptr, int(a.diagnostics.size()));
    return ModelStats::tr("%1 layers · %2 parameters · %3 FLOPs/sample · ~%4 training memory at batch %5 · %6")
        .arg(p.graph.nodes.size())
        .arg(formatCount(a.total_params), formatCount(a.flops), formatBytes(trainingMemoryBytes(p, a)))
        .arg(p.training.batch_size)
        .arg(validity);
}

}  // namespace lf::ui
