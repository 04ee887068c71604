// Image files dropped on the studio window: decoded and preprocessed as the binding does for
// training, predicted with the current weights, shown with their top classes.
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMimeData>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeWidget>

#include "document/project_document.h"
#include "evaluation/evaluation_view.h"
#include "layerforge/data/image.h"
#include "layerforge/store/weights_file.h"
#include "session/background_task.h"
#include "session/studio_session.h"

namespace lf::ui {

namespace {

// The first local image file among the dragged URLs; empty when there is none.
QString droppedImage(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && format_from_extension(url.toLocalFile().toStdString()) != ImageFormat::Unknown)
            return url.toLocalFile();
    return {};
}

// The standardisation saved with weights trained on a "standardize" binding ("mean", "std").
std::vector<float> weightsMetadataFloats(const StudioSession* session, const char* key) {
    std::vector<float> out;
    if (!session->hasWeights()) return out;
    try {
        const SafetensorsView view = parse_safetensors(session->weights(), "current weights");
        auto it = view.metadata.find(key);
        if (it == view.metadata.end()) return out;
        for (const QJsonValue& v : QJsonDocument::fromJson(QByteArray::fromStdString(it->second)).array())
            out.push_back(float(v.toDouble()));
    } catch (const std::exception&) {  // damaged weights: makeModel reports it
    }
    return out;
}

}  // namespace

void EvaluationView::acceptImageDropsOn(QWidget* window) {
    window->setAcceptDrops(true);
    window->installEventFilter(this);
}

bool EvaluationView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
        auto* drag = static_cast<QDragMoveEvent*>(event);
        if (droppedImage(drag->mimeData()).isEmpty()) return QWidget::eventFilter(watched, event);
        drag->acceptProposedAction();
        return true;
    }
    if (event->type() == QEvent::Drop) {
        auto* drop = static_cast<QDropEvent*>(event);
        const QString path = droppedImage(drop->mimeData());
        if (path.isEmpty()) return QWidget::eventFilter(watched, event);
        drop->acceptProposedAction();
        bringToFront();
        predictFile(path);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void EvaluationView::bringToFront() {
    for (QWidget* w = parentWidget(); w; w = w->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
            QWidget* page = this;
            while (page->parentWidget() && !qobject_cast<QStackedWidget*>(page->parentWidget())) page = page->parentWidget();
            tabs->setCurrentWidget(page);
            return;
        }
}

void EvaluationView::predictFile(const QString& path) {
    std::shared_ptr<Model> model = currentModel();
    if (!model) return;
    const Project project = session_->document()->project();
    std::vector<float> mean = result_.mean, std = result_.std;
    if (mean.empty()) mean = weightsMetadataFloats(session_, "mean"), std = weightsMetadataFloats(session_, "std");
    const QStringList names = result_.classNames;
    caption_->setText(tr("Predicting %1…").arg(path));
    runInBackground(this, [=] { return predictImageFile(model, project, path, mean, std, names); },
                    [this](ImagePrediction p) { showPrediction(p); });
}

void EvaluationView::showPrediction(const ImagePrediction& p) {
    if (!p.error.isEmpty()) {  // the previous image and its probabilities must not sit beside the error
        clearSample();
        caption_->setText(p.error);
        return fail(tr("Cannot predict %1: %2").arg(p.path, p.error));
    }
    int top = 0;
    for (int c = 1; c < int(p.probabilities.size()); ++c)
        if (p.probabilities[std::size_t(c)] > p.probabilities[std::size_t(top)]) top = c;
    preview_->setPixmap(QPixmap::fromImage(p.input).scaled(preview_->size(), Qt::KeepAspectRatio));
    caption_->setText(tr("%1: %2 (%3%), with %4")
                          .arg(p.path, p.classNames.value(top))
                          .arg(p.probabilities[std::size_t(top)] * 100, 0, 'f', 1)
                          .arg(session_->hasWeights() ? session_->weightsOrigin() : tr("the initial (untrained) weights")));
    showProbabilities(p.classNames, p.probabilities);
    Q_EMIT predicted(p.classNames.value(top));
}

}  // namespace lf::ui
