#pragma once
// What the studio's panels share beyond the project document: where the project's run store
// is, and the weights the studio evaluates, exports and shows as "current" (trained in this
// session, restored from a checkpoint, or loaded from a weights file). Weights are kept as a
// safetensors buffer keyed by Keras names, so they survive graph edits that keep the names.
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <string>

namespace lf {
class Model;
}

namespace lf::ui {

class ProjectDocument;

class StudioSession : public QObject {
    Q_OBJECT
public:
    explicit StudioSession(ProjectDocument* document, QObject* parent = nullptr);

    ProjectDocument* document() const { return document_; }
    // The project's file; empty while the project has never been saved.
    QString projectPath() const;
    // NAME.lfruns beside the project, or untitled.lfruns in the app-data folder when unsaved.
    QString storePath() const;

    bool hasWeights() const { return !weights_.empty(); }
    const std::string& weights() const { return weights_; }  // safetensors bytes
    QString weightsOrigin() const { return origin_; }         // "run 3 ckpt-1200", "trained", a path
    void setWeights(std::string safetensors, const QString& origin);
    void clearWeights();

    // A model of the current graph carrying the current weights: tensors whose name and shape
    // match are copied, the rest keep their seeded initial values and are listed in `skipped`.
    // Throws lf::Error when the graph is not valid.
    std::unique_ptr<Model> makeModel(QStringList* skipped = nullptr) const;

    // Panels that write the run store (training, the checkpoint browser) call this so the
    // others refresh.
    void notifyStoreChanged() { Q_EMIT storeChanged(); }

Q_SIGNALS:
    // Another project replaced the document (New, Open, a template, a Keras import, recovery):
    // every page drops what it shows of the previous one and reads the new project's store.
    void projectSwitched();
    void weightsChanged();
    void storeChanged();

private:
    ProjectDocument* document_;
    std::string weights_;
    QString origin_;
};

}  // namespace lf::ui
