#pragma once
// The Data workspace: choose the dataset (an image folder or the installed Fashion-MNIST), see
// its classes (bar chart per split), sample images per class, image sizes and channels and the
// files that cannot be used, set the validation split and the input pipeline, and check that
// the model fits the data (Input shape, units of the last Dense layer). The inspection runs on
// the thread pool; binding edits go through the document's undo stack.
#include <QWidget>
#include <optional>

#include "dataset/dataset_summary.h"
#include "dataset/model_fit.h"
#include "document/document_change.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace lf::ui {

class BindingSettings;
class ClassCountChart;
class ProjectDocument;
class SampleGrid;

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(ProjectDocument* doc, QWidget* parent = nullptr);
    ~DatasetPanel() override;

    // Bind a dataset (one undoable edit each); the inspection follows on its own.
    void bindImageFolder(const QString& path);
    void bindFashionMnist();
    void chooseFolder();  // a folder dialog, then bindImageFolder

    const DatasetSummary& summary() const { return summary_; }
    // The inspection starts when the page is first shown (or on inspectNow), not at startup: it
    // decodes every image, which a studio opened to train right away should not pay for.
    bool isLoading() const { return loading_; }
    bool isStale() const { return stale_; }  // the binding changed while the page was hidden
    void inspectNow();

    ClassCountChart* chart() const { return chart_; }
    SampleGrid* samples() const { return samples_; }
    QListWidget* problems() const { return problems_; }
    BindingSettings* settings() const { return settings_; }
    QLabel* statistics() const { return stats_; }
    QLabel* modelInput() const { return modelInput_; }  // the Input node's shape, as the pipeline resizes to it
    QLabel* inputShapeMessage() const { return shapeMessage_; }  // visible when the Input differs
    QPushButton* applyInputShapeButton() const { return applyShape_; }
    QLabel* classCountMessage() const { return classWarning_; }  // visible when the last Dense differs
    QLabel* validationMessage() const { return validationWarning_; }  // visible when "Test split" has no test/

Q_SIGNALS:
    void summaryReady();  // after every inspection, also a failed one (summary().error)

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onDocumentChanged(const DocumentChange& change);
    void reload();
    void showSummary(const DatasetSummary& summary);
    void showStatistics();
    void updateFit();
    void updateValidationWarning();
    void bind(DatasetBinding binding);

    ProjectDocument* doc_;
    DatasetSummary summary_;
    std::string loadedKind_, loadedPath_;
    bool stale_ = true;
    int inspection_ = 0;  // the latest inspection started; older results are dropped
    bool loading_ = false;
    std::optional<InputShapeOffer> offer_;

    QComboBox* source_;
    QLineEdit* path_;
    QPushButton* choose_;
    QLabel* status_;
    ClassCountChart* chart_;
    SampleGrid* samples_;
    QLabel* stats_;
    QLabel* modelInput_;
    QListWidget* problems_;
    BindingSettings* settings_;
    QLabel* shapeMessage_;
    QPushButton* applyShape_;
    QLabel* classWarning_;
    QLabel* validationWarning_;
};

}  // namespace lf::ui
