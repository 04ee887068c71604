// What the checkpoint browser's actions do: restore a checkpoint's weights into the session,
// pin, delete, compare, and hand resume and export to whoever listens. Store work runs on a
// worker thread with its own connection; the session then tells every panel the store changed.
#include <QAction>
#include <QMessageBox>
#include <QTabWidget>

#include "checkpoints/checkpoint_browser.h"
#include "checkpoints/checkpoint_table_model.h"
#include "checkpoints/compare_chart.h"
#include "checkpoints/settings_diff_view.h"
#include "document/project_document.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/weights_file.h"
#include "session/background_task.h"
#include "session/studio_session.h"

namespace lf::ui {

namespace {

struct Restored {
    std::string weights, error;  // safetensors of the model's weights, or why not
};

// The checkpoint's weights, checked against the canvas graph, as a weights-only safetensors.
Restored readWeights(const std::string& storePath, std::int64_t id, const Graph& graph, const std::string& origin) {
    try {
        RunStore store(storePath, /*create=*/false, 2000);
        const std::string blob = store.checkpoint_blob(id);
        Model model(graph);
        restore_checkpoint_weights(model, blob, origin);
        return {encode_weights(model, {{"origin", origin}}), {}};
    } catch (const std::exception& e) {
        return {{}, e.what()};
    }
}

}  // namespace

void CheckpointBrowser::createActions() {
    restore_ = new QAction(tr("Restore"), this);
    restore_->setToolTip(tr("Make the checkpoint's weights the studio's current weights"));
    resume_ = new QAction(tr("Resume training"), this);
    resume_->setToolTip(tr("Continue the checkpoint's run from this step"));
    pin_ = new QAction(tr("Pin"), this);
    pin_->setToolTip(tr("Pinned checkpoints are never removed by the retention policy"));
    delete_ = new QAction(tr("Delete"), this);
    delete_->setShortcut(QKeySequence::Delete);
    delete_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    export_ = new QAction(tr("Export…"), this);
    compare_ = new QAction(tr("Compare"), this);
    compare_->setToolTip(tr("Select two or more checkpoints to compare their metrics"));

    connect(restore_, &QAction::triggered, this, [this] {
        if (auto ids = selectedCheckpoints(); ids.size() == 1) restore(ids.front());
    });
    connect(resume_, &QAction::triggered, this, [this] {
        if (auto ids = selectedCheckpoints(); ids.size() == 1) Q_EMIT resumeRequested(ids.front());
    });
    connect(export_, &QAction::triggered, this, [this] {
        if (auto ids = selectedCheckpoints(); ids.size() == 1) Q_EMIT exportRequested(ids.front());
    });
    connect(pin_, &QAction::triggered, this, [this] { setPinned(selectedCheckpoints(), pin_->text() == tr("Pin")); });
    connect(delete_, &QAction::triggered, this, &CheckpointBrowser::askToDelete);
    connect(compare_, &QAction::triggered, this, [this] { compare(selectedCheckpoints()); });
}

void CheckpointBrowser::restore(qint64 id) {
    const CheckpointRow* row = model_->find(id);
    if (!row) return;
    const QString origin = tr("run %1 %2").arg(row->info.run).arg(QString::fromStdString(row->info.name()));
    const std::string path = session_->storePath().toStdString(), originText = origin.toStdString();
    const Graph graph = session_->document()->graph();
    runInBackground(this, [=] { return readWeights(path, id, graph, originText); },
                    [this, id, origin](Restored r) {
                        if (!r.error.empty()) {
                            showMessage(tr("Could not restore %1: %2").arg(origin, QString::fromStdString(r.error)), true);
                            return;
                        }
                        session_->setWeights(std::move(r.weights), origin);
                        showMessage(tr("Restored %1: its weights are now the current weights.").arg(origin), false);
                        Q_EMIT restored(id);
                    });
}

void CheckpointBrowser::setPinned(const QList<qint64>& ids, bool pinned) { writeStore(ids, pinned, false); }

void CheckpointBrowser::askToDelete() {
    QList<qint64> ids = selectedCheckpoints(), pinned;
    for (qint64 id : ids)
        if (const CheckpointRow* r = model_->find(id); r && r->info.pinned) pinned.append(id);
    if (!pinned.isEmpty()) {
        QMessageBox::information(this, tr("Delete checkpoints"),
                                 tr("%n selected checkpoint(s) are pinned. Unpin them before deleting.", nullptr,
                                    int(pinned.size())));
        return;
    }
    if (ids.isEmpty() ||
        QMessageBox::question(this, tr("Delete checkpoints"),
                              tr("Delete %n checkpoint(s) from the run store? This cannot be undone.", nullptr,
                                 int(ids.size()))) != QMessageBox::Yes)
        return;
    deleteCheckpoints(ids);
}

void CheckpointBrowser::deleteCheckpoints(const QList<qint64>& ids) { writeStore(ids, false, true); }

void CheckpointBrowser::writeStore(const QList<qint64>& ids, bool pin, bool remove) {
    if (ids.isEmpty()) return;
    const std::string path = session_->storePath().toStdString();
    const std::vector<std::int64_t> list(ids.begin(), ids.end());
    runInBackground(
        this,
        [=] {
            std::string errors;
            try {
                RunStore store(path, /*create=*/false);
                for (std::int64_t id : list) {
                    try {
                        if (remove) store.delete_checkpoint(id);
                        else store.set_pinned(id, pin);
                    } catch (const std::exception& e) {  // a pinned one refused; the rest go ahead
                        errors += std::string(errors.empty() ? "" : "\n") + e.what();
                    }
                }
            } catch (const std::exception& e) {
                errors = e.what();
            }
            return errors;
        },
        [this](std::string errors) {
            if (!errors.empty()) showMessage(QString::fromStdString(errors), true);
            session_->notifyStoreChanged();
        });
}

void CheckpointBrowser::compare(const QList<qint64>& ids) {
    std::vector<CheckpointRow> rows;
    QList<qint64> runs;
    for (qint64 id : ids)
        if (const CheckpointRow* r = model_->find(id)) {
            rows.push_back(*r);
            if (!runs.contains(r->info.run)) runs.append(r->info.run);
        }
    chart_->setCheckpoints(rows);
    if (runs.size() >= 2) diff_->compareRuns(runs[0], runs[1]);
    details_->setCurrentWidget(chart_);
}

}  // namespace lf::ui
