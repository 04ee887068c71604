#pragma once
// File > Import Model and model files dropped on the window: an ONNX or Keras file is read off the
// UI thread, the user picks where the project goes (beside the model by default), the project and
// its weights are written as one set (also off the UI thread), then imported() names the project
// for the window to open, with the import report. Nothing is written when reading fails or the
// user cancels.
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

class QMimeData;

namespace lf::ui {

class ModelImport : public QObject {
    Q_OBJECT
public:
    // Asked for the project's path, given a suggestion; an empty answer cancels the import.
    using ChooseProject = std::function<QString(const QString& suggested)>;
    ModelImport(QObject* parent, ChooseProject choose);
    void setChooser(ChooseProject choose) { choose_ = std::move(choose); }  // tests answer without a dialog

    static bool isModelFile(const QString& path);  // an extension some reader of import.h takes
    static QString fileFilter();                   // for a file dialog
    static QString droppedModel(const QMimeData* mime);  // the one model file dropped, or empty

    // Starts an import; false (and nothing started) while another one is running.
    bool start(const QString& modelPath);
    bool busy() const { return busy_; }

Q_SIGNALS:
    void imported(const QString& projectPath, const QString& report);
    void failed(const QString& message);  // names the file, and the node when there is one
    void cancelled();

private:
    ChooseProject choose_;
    bool busy_ = false;
};

// Lets `window` take model files dropped on it and hand them to `import`.
void acceptModelDrops(QWidget* window, ModelImport* import);

}  // namespace lf::ui
