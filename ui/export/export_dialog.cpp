#include "export/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

#include "document/project_document.h"
#include "layerforge/core/error.h"
#include "layerforge/export/export.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"
#include "session/studio_session.h"

namespace lf::ui {

ExportDialog::ExportDialog(StudioSession* session, std::optional<std::int64_t> checkpointId, QWidget* parent)
    : QDialog(parent), session_(session), checkpoint_(checkpointId) {
    setWindowTitle(tr("Export Model"));
    confirm_ = [this](const QStringList& files) {
        return QMessageBox::question(this, tr("Overwrite files?"),
                                     tr("These files already exist:\n%1\n\nOverwrite them?").arg(files.join('\n'))) ==
               QMessageBox::Yes;
    };
    format_ = new QComboBox(this);
    format_->setObjectName("format");
    format_->addItem(tr("ONNX"), int(ExportFormat::Onnx));
    format_->addItem(tr("safetensors (weights + graph)"), int(ExportFormat::Safetensors));
    format_->addItem(tr("PyTorch code"), int(ExportFormat::PyTorch));
    format_->addItem(tr("tf.keras code"), int(ExportFormat::Keras));
    opset_ = new QSpinBox(this);
    opset_->setObjectName("opset");
    opset_->setRange(kMinOnnxOpset, kMaxOnnxOpset);
    layout_ = new QComboBox(this);
    layout_->setObjectName("layout");
    layout_->addItem(tr("NHWC (as the studio)"), int(InputLayout::NHWC));
    layout_->addItem(tr("NCHW"), int(InputLayout::NCHW));
    fold_ = new QCheckBox(tr("Fold BatchNormalization into the preceding layer"), this);
    fold_->setObjectName("foldBatchNorm");
    dtype_ = new QComboBox(this);
    dtype_->setObjectName("dtype");
    dtype_->addItem(tr("float32"), int(DType::Float32));
    dtype_->addItem(tr("bfloat16 (half the size, rounded to nearest even)"), int(DType::BFloat16));
    folder_ = new QLineEdit(this);
    folder_->setObjectName("folder");
    const QString project = session->projectPath();
    folder_->setText(project.isEmpty() ? QDir::homePath() + "/export"
                                       : QFileInfo(project).absolutePath() + "/" + QFileInfo(project).completeBaseName() + "-export");
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folder_);
    folderRow->addWidget(browseButton);
    status_ = new QLabel(this);
    status_->setObjectName("status");
    status_->setWordWrap(true);
    const QString source = checkpoint_ ? tr("checkpoint %1").arg(*checkpoint_)
                           : session->hasWeights() ? session->weightsOrigin()
                                                   : tr("none yet: train or restore a checkpoint first");

    auto* form = new QFormLayout;
    form->addRow(tr("Weights:"), new QLabel(source, this));
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("ONNX opset:"), opset_);
    form->addRow(tr("ONNX layout:"), layout_);
    form->addRow(QString(), fold_);
    form->addRow(tr("safetensors weights:"), dtype_);
    form->addRow(tr("Output folder:"), folderRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* exportButton = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    exportButton->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(buttons);

    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateFormatOptions);
    connect(exportButton, &QPushButton::clicked, this, &ExportDialog::exportModel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateFormatOptions();
}

void ExportDialog::browse() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Folder"), folder_->text());
    if (!dir.isEmpty()) folder_->setText(dir);
}

void ExportDialog::updateFormatOptions() {
    const auto f = ExportFormat(format_->currentData().toInt());
    opset_->setEnabled(f == ExportFormat::Onnx);
    layout_->setEnabled(f == ExportFormat::Onnx);
    fold_->setEnabled(f == ExportFormat::Onnx || f == ExportFormat::PyTorch);
    dtype_->setEnabled(f == ExportFormat::Safetensors);
}

void ExportDialog::fail(const QString& message) {
    error_ = message;
    status_->setText(tr("Export failed: %1").arg(message));
}

bool ExportDialog::exportModel() {
    written_.clear();
    error_.clear();
    ExportOptions o;
    o.format = ExportFormat(format_->currentData().toInt());
    o.opset = opset_->value();
    o.layout = InputLayout(layout_->currentData().toInt());
    o.fold_batchnorm = fold_->isEnabled() && fold_->isChecked();
    o.dtype = dtype_->isEnabled() ? DType(dtype_->currentData().toInt()) : DType::Float32;
    const std::string dir = folder_->text().toStdString();
    QStringList existing;
    for (const auto& name : export_file_names(o.format))
        if (QFileInfo::exists(folder_->text() + "/" + QString::fromStdString(name)))
            existing << folder_->text() + "/" + QString::fromStdString(name);
    if (!existing.isEmpty()) {
        if (!confirm_(existing)) return fail(tr("kept the existing files")), false;
        o.force = true;
    }
    try {
        if (!checkpoint_ && !session_->hasWeights())
            throw input_error(tr("there are no weights to export: train the model or restore a checkpoint first").toStdString());
        std::unique_ptr<Model> model = session_->makeModel();
        std::map<std::string, std::string> weightsMeta;
        if (session_->hasWeights())
            weightsMeta = parse_safetensors(session_->weights(), session_->weightsOrigin().toStdString()).metadata;
        ExportMetadata meta = export_metadata(session_->document()->project().dataset, weightsMeta);
        meta.source = session_->weightsOrigin().toStdString();
        if (checkpoint_) {
            RunStore store(session_->storePath().toStdString(), false);
            const std::string origin = store.path() + " checkpoint " + std::to_string(*checkpoint_);
            restore_checkpoint_weights(*model, store.checkpoint_blob(*checkpoint_), origin);
            meta.source = origin;
        }
        for (const auto& f : export_model(*model, meta, o, dir)) written_ << QString::fromStdString(f);
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what())), false;
    }
    status_->setText(tr("Wrote:\n%1").arg(written_.join('\n')));
    Q_EMIT exported(written_);
    return true;
}

void showExportDialog(QWidget* parent, StudioSession* session, std::optional<std::int64_t> checkpointId) {
    ExportDialog dialog(session, checkpointId, parent);
    dialog.exec();
}

}  // namespace lf::ui
