#include "session/studio_session.h"

#include <QDir>
#include <QStandardPaths>

#include "document/project_document.h"
#include "layerforge/graph/model.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"

namespace lf::ui {

StudioSession::StudioSession(ProjectDocument* document, QObject* parent) : QObject(parent), document_(document) {
    // Another project's weights mean nothing for this one.
    connect(document_, &ProjectDocument::fileNameChanged, this, [this] { clearWeights(); });
    connect(document_, &ProjectDocument::changed, this, [this](const DocumentChange& c) {
        if (c.kind != DocumentChange::Reset) return;
        clearWeights();
        Q_EMIT projectSwitched();
    });
}

QString StudioSession::projectPath() const { return document_->fileName(); }

QString StudioSession::storePath() const {
    if (!projectPath().isEmpty())
        return QString::fromStdString(RunStore::path_for_project(projectPath().toStdString()));
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return QDir(dir).filePath("untitled.lfruns");
}

void StudioSession::setWeights(std::string safetensors, const QString& origin) {
    weights_ = std::move(safetensors);
    origin_ = origin;
    Q_EMIT weightsChanged();
}

void StudioSession::clearWeights() {
    if (weights_.empty() && origin_.isEmpty()) return;
    weights_.clear();
    origin_.clear();
    Q_EMIT weightsChanged();
}

std::unique_ptr<Model> StudioSession::makeModel(QStringList* skipped) const {
    auto model = std::make_unique<Model>(document_->graph());
    model->init_weights(std::uint64_t(document_->project().training.seed));
    if (skipped) skipped->clear();
    if (weights_.empty()) return model;
    SafetensorsView view = parse_safetensors(weights_, origin_.toStdString());
    for (const std::string& name :
         copy_weights(*model, view, model->weights().data(), origin_.toStdString(), /*partial=*/true))
        if (skipped) skipped->append(QString::fromStdString(name));
    return model;
}

}  // namespace lf::ui
