// What the runs explorer's actions and in-place edits write to the store: star, tags, notes,
// delete. Each write runs on a worker thread with its own connection; the session then tells
// every panel the store changed (the explorer re-reads it, undoing a refused edit on screen).
#include <QAction>
#include <QInputDialog>
#include <QMessageBox>

#include "explorer/run_table_model.h"
#include "explorer/runs_explorer.h"
#include "layerforge/store/run_store.h"
#include "session/background_task.h"
#include "session/studio_session.h"

namespace lf::ui {

namespace {

std::vector<std::string> toStd(const QStringList& tags) {
    std::vector<std::string> out;
    for (const QString& t : tags) out.push_back(t.toStdString());
    return out;
}

}  // namespace

void RunsExplorer::createActions() {
    star_ = new QAction(tr("Star"), this);
    star_->setToolTip(tr("Mark the selected runs (or unmark them when all are starred)"));
    tag_ = new QAction(tr("Tag…"), this);
    tag_->setToolTip(tr("Add tags to the selected runs"));
    delete_ = new QAction(tr("Delete…"), this);
    delete_->setShortcut(QKeySequence::Delete);
    delete_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(star_, &QAction::triggered, this, [this] { setStarred(selectedRuns(), star_->text() == tr("Star")); });
    connect(tag_, &QAction::triggered, this, &RunsExplorer::askForTags);
    connect(delete_, &QAction::triggered, this, &RunsExplorer::askToDelete);

    connect(model_, &RunTableModel::starEdited, this, [this](qint64 run, bool starred) { setStarred({run}, starred); });
    connect(model_, &RunTableModel::tagsEdited, this, [this](qint64 run, const QStringList& tags) {
        writeStore([run, tags = toStd(tags)](RunStore& s) {
            s.set_tags(run, tags);
            return std::string();
        });
    });
    connect(model_, &RunTableModel::noteEdited, this, [this](qint64 run, const QString& note) {
        writeStore([run, note = note.toStdString()](RunStore& s) {
            s.set_notes(run, note);
            return std::string();
        });
    });
}

void RunsExplorer::setStarred(const QList<qint64>& ids, bool starred) {
    const std::vector<std::int64_t> list(ids.begin(), ids.end());
    writeStore([list, starred](RunStore& s) {
        for (std::int64_t id : list) s.set_starred(id, starred);
        return std::string();
    });
}

void RunsExplorer::addTags(const QList<qint64>& ids, const QStringList& tags) {
    const std::vector<std::int64_t> list(ids.begin(), ids.end());
    writeStore([list, add = toStd(tags)](RunStore& s) {
        for (std::int64_t id : list) {
            std::vector<std::string> all = s.run(id).tags;
            all.insert(all.end(), add.begin(), add.end());
            s.set_tags(id, all);
        }
        return std::string();
    });
}

void RunsExplorer::askForTags() {
    const QList<qint64> ids = selectedRuns();
    if (ids.isEmpty()) return;
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Tag runs"),
                                               tr("Tags to add to %n run(s), separated by commas:", nullptr, int(ids.size())),
                                               QLineEdit::Normal, QString(), &ok);
    if (ok && !RunTableModel::parseTags(text).isEmpty()) addTags(ids, RunTableModel::parseTags(text));
}

void RunsExplorer::askToDelete() {
    const QList<qint64> ids = selectedRuns();
    for (qint64 id : ids)
        if (const ExplorerRun* r = model_->find(id); r && r->info().status == RunStatus::Running) {
            QMessageBox::information(this, tr("Delete runs"),
                                     tr("Run %1 (%2) is training now; stop it before deleting it.")
                                         .arg(id)
                                         .arg(QString::fromStdString(r->info().name)));
            return;
        }
    if (ids.isEmpty() ||
        QMessageBox::question(this, tr("Delete runs"),
                              tr("Delete %n run(s) with their curves and checkpoints from the run store? This cannot "
                                 "be undone.",
                                 nullptr, int(ids.size()))) != QMessageBox::Yes)
        return;
    deleteRuns(ids);
}

void RunsExplorer::deleteRuns(const QList<qint64>& ids) {
    const std::vector<std::int64_t> list(ids.begin(), ids.end());
    writeStore([list](RunStore& s) {
        std::string errors;
        for (std::int64_t id : list) {
            try {
                s.delete_run(id);  // refuses a run a live process trains, naming it
            } catch (const std::exception& e) {  // the rest go ahead
                errors += std::string(errors.empty() ? "" : "\n") + e.what();
            }
        }
        return errors;
    });
}

void RunsExplorer::writeStore(std::function<std::string(RunStore&)> write) {
    const std::string path = session_->storePath().toStdString();
    runInBackground(
        this,
        [path, write] {
            try {
                RunStore store(path, /*create=*/false);
                return write(store);
            } catch (const std::exception& e) {
                return std::string(e.what());
            }
        },
        [this](std::string errors) {
            if (!errors.empty()) showMessage(QString::fromStdString(errors), true);
            session_->notifyStoreChanged();
            Q_EMIT written();
        });
}

}  // namespace lf::ui
