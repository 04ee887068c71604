#pragma once
// The studio's export dialog: format, ONNX opset and layout, BatchNorm folding, the safetensors
// weight type (float32, or bfloat16 rounded to nearest even), output folder;
// exports the session's current weights or a checkpoint of the project's run store through
// the engine's export module (the same code as `layerforge-cli export`).
#include <QDialog>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lf::ui {

class StudioSession;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // checkpointId: a checkpoint of session->storePath(); nullopt: the session's current weights.
    ExportDialog(StudioSession* session, std::optional<std::int64_t> checkpointId, QWidget* parent = nullptr);

    // Asked with the files that already exist; true overwrites. Default: a Yes/No message box.
    void setOverwriteConfirmation(std::function<bool(const QStringList&)> confirm) { confirm_ = std::move(confirm); }
    QStringList writtenFiles() const { return written_; }
    QString lastError() const { return error_; }

public Q_SLOTS:
    // Exports with the current settings; returns true on success (the dialog stays open with the
    // result, so the user can export another format).
    bool exportModel();

Q_SIGNALS:
    void exported(const QStringList& files);

private:
    void browse();
    void updateFormatOptions();
    void fail(const QString& message);

    StudioSession* session_;
    std::optional<std::int64_t> checkpoint_;
    std::function<bool(const QStringList&)> confirm_;
    QStringList written_;
    QString error_;
    QComboBox* format_;
    QSpinBox* opset_;
    QComboBox* layout_;
    QCheckBox* fold_;
    QComboBox* dtype_;
    QLineEdit* folder_;
    QLabel* status_;
};

// For the menu and the checkpoint browser: opens the dialog (modal) on the current weights or
// on the given checkpoint.
void showExportDialog(QWidget* parent, StudioSession* session, std::optional<std::int64_t> checkpointId = std::nullopt);

}  // namespace lf::ui
