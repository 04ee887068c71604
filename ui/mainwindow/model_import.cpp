#include "mainwindow/model_import.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QUrl>
#include <QWidget>
#include <memory>
#include <variant>

#include "layerforge/core/error.h"
#include "layerforge/import/import.h"
#include "session/background_task.h"

namespace lf::ui {

namespace {

// What reading a file gives: the model, or the message that names what is wrong with it.
using ReadResult = std::variant<std::shared_ptr<const ImportedModel>, QString>;

QString normalizationText(const std::string& n) {
    if (n == "imagenet") return ModelImport::tr("ImageNet mean and standard deviation (torchvision)");
    if (n == "symmetric") return ModelImport::tr("[-1, 1] (Keras preprocess_input of MobileNetV2)");
    if (n == "unit") return ModelImport::tr("[0, 1]");
    return ModelImport::tr("not recorded in the file: check the model's documentation");
}

QString reportText(const ImportedModel& m, const QString& modelPath) {
    QString text = ModelImport::tr("Imported %1 (%2): %n layers.", nullptr, int(m.graph.nodes.size()))
                       .arg(QFileInfo(modelPath).fileName(), QString::fromStdString(m.source));
    text += "\n" + ModelImport::tr("Input normalisation the network expects: %1").arg(normalizationText(m.normalization));
    if (!m.conversions.empty()) {
        text += "\n\n" + ModelImport::tr("Converted:");
        for (const std::string& c : m.conversions) text += "\n  " + QString::fromStdString(c);
    }
    return text;
}

QString suggestedProject(const QString& modelPath) {
    const QFileInfo model(modelPath);
    const QString name = model.completeBaseName() + ".lfproj";
    const QFileInfo folder(model.absolutePath());
    return (folder.isWritable() ? QDir(model.absolutePath()) : QDir::home()).filePath(name);
}

class ModelDropFilter : public QObject {
public:
    ModelDropFilter(QWidget* window, ModelImport* import) : QObject(window), import_(import) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
            auto* drag = static_cast<QDragMoveEvent*>(event);
            if (ModelImport::droppedModel(drag->mimeData()).isEmpty()) return false;
            drag->acceptProposedAction();
            return true;
        }
        if (event->type() == QEvent::Drop) {
            auto* drop = static_cast<QDropEvent*>(event);
            const QString path = ModelImport::droppedModel(drop->mimeData());
            if (path.isEmpty()) return false;
            drop->acceptProposedAction();
            import_->start(path);
            return true;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    ModelImport* import_;
};

}  // namespace

ModelImport::ModelImport(QObject* parent, ChooseProject choose) : QObject(parent), choose_(std::move(choose)) {}

bool ModelImport::isModelFile(const QString& path) {
    const QString suffix = "." + QFileInfo(path).suffix().toLower();
    for (const ModelFormat& f : model_formats())
        for (std::string_view e : f.extensions)
            if (suffix == QString::fromUtf8(e.data(), qsizetype(e.size()))) return true;
    return false;
}

QString ModelImport::fileFilter() {
    QStringList patterns;
    for (const ModelFormat& f : model_formats())
        for (std::string_view e : f.extensions) patterns << "*" + QString::fromUtf8(e.data(), qsizetype(e.size()));
    return tr("Models (%1);;All files (*)").arg(patterns.join(' '));
}

QString ModelImport::droppedModel(const QMimeData* mime) {
    if (!mime->hasUrls() || mime->urls().size() != 1 || !mime->urls().first().isLocalFile()) return {};
    const QString path = mime->urls().first().toLocalFile();
    return isModelFile(path) ? path : QString();
}

bool ModelImport::start(const QString& modelPath) {
    if (busy_) return false;
    busy_ = true;
    const std::string path = modelPath.toStdString();
    runInBackground(
        this,
        [path]() -> ReadResult {
            try {
                return std::make_shared<const ImportedModel>(import_model_file(path));
            } catch (const Error& e) {
                return QString::fromStdString(e.what());
            } catch (const std::bad_alloc&) {
                return tr("%1: not enough memory to import the model").arg(QString::fromStdString(path));
            }
        },
        [this, modelPath](ReadResult r) {
            if (auto* error = std::get_if<QString>(&r)) {
                busy_ = false;
                return Q_EMIT failed(*error);
            }
            QString project = choose_(suggestedProject(modelPath));
            if (project.isEmpty()) {
                busy_ = false;
                return Q_EMIT cancelled();
            }
            if (!project.endsWith(".lfproj")) project += ".lfproj";
            auto model = std::get<std::shared_ptr<const ImportedModel>>(std::move(r));
            runInBackground(
                this,
                [model, project, modelPath]() -> QString {
                    try {
                        write_imported_project(*model, project.toStdString());
                    } catch (const Error& e) {
                        return QString::fromStdString(e.what());
                    }
                    return {};
                },
                [this, project, report = reportText(*model, modelPath)](const QString& error) {
                    busy_ = false;
                    if (!error.isEmpty()) return Q_EMIT failed(error);
                    Q_EMIT imported(project, report);
                });
        });
    return true;
}

void acceptModelDrops(QWidget* window, ModelImport* import) {
    window->setAcceptDrops(true);
    window->installEventFilter(new ModelDropFilter(window, import));
}

}  // namespace lf::ui
