#include "dataset/dataset_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include "dataset/binding_settings.h"
#include "dataset/class_count_chart.h"
#include "dataset/sample_grid.h"
#include "document/project_document.h"
#include "document/set_training.h"
#include "session/background_task.h"
#include "widgets/scrollable.h"

namespace lf::ui {

namespace {

QLabel* banner(const QString& color) {
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setStyleSheet(QString("QLabel { background: %1; color: black; padding: 4px; border-radius: 3px; }").arg(color));
    label->hide();
    return label;
}

QString channelName(int channels) {
    switch (channels) {
    case 1: return QObject::tr("gray");
    case 3: return QObject::tr("RGB");
    case 4: return QObject::tr("RGBA");
    default: return QString::number(channels);
    }
}

}  // namespace

DatasetPanel::DatasetPanel(ProjectDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), source_(new QComboBox), path_(new QLineEdit), choose_(new QPushButton(tr("Choose Folder…"))),
      status_(new QLabel), chart_(new ClassCountChart), samples_(new SampleGrid), stats_(new QLabel), modelInput_(new QLabel),
      problems_(new QListWidget), settings_(new BindingSettings(doc)), shapeMessage_(banner("#ffe8a8")),
      applyShape_(new QPushButton(tr("Use the dataset's shape"))), classWarning_(banner("#ffc8a8")),
      validationWarning_(banner("#ffe8a8")) {
    source_->addItem(tr("Fashion-MNIST (installed)"), "fashion-mnist");
    source_->addItem(tr("Image folder"), "image-folder");
    path_->setReadOnly(true);
    path_->setPlaceholderText(tr("ROOT/CLASS/images, or ROOT/train|valid|test/CLASS/images"));
    stats_->setWordWrap(true);
    stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->setToolTip(tr("Files that cannot be read as images; training skips them"));
    applyShape_->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Dataset")));
    top->addWidget(source_);
    top->addWidget(path_, 1);
    top->addWidget(choose_);
    top->addWidget(status_);
    auto* shapeRow = new QHBoxLayout;
    shapeRow->addWidget(shapeMessage_, 1);
    shapeRow->addWidget(applyShape_);

    auto* left = new QSplitter(Qt::Vertical);
    left->addWidget(chart_);
    left->addWidget(samples_);
    left->setSizes({300, 300});  // the counts chart gets half the height on a laptop screen
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(stats_);
    rightLayout->addWidget(modelInput_);
    rightLayout->addWidget(new QLabel(tr("Problems")));
    rightLayout->addWidget(problems_, 1);
    rightLayout->addWidget(settings_);
    auto* body = new QSplitter(Qt::Horizontal);
    body->addWidget(left);
    body->addWidget(scrollable(right));
    body->setStretchFactor(0, 3);
    body->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(shapeRow);
    layout->addWidget(classWarning_);
    layout->addWidget(validationWarning_);
    layout->addWidget(body, 1);

    connect(source_, &QComboBox::activated, this, [this] {
        if (source_->currentData() == "fashion-mnist") bindFashionMnist();
        else chooseFolder();
    });
    connect(choose_, &QPushButton::clicked, this, &DatasetPanel::chooseFolder);
    connect(applyShape_, &QPushButton::clicked, this, [this] {
        if (offer_) applyInputShape(doc_, *offer_);
    });
    connect(doc_, &ProjectDocument::changed, this, &DatasetPanel::onDocumentChanged);
    reload();
    updateFit();
}

// A running inspection is not waited for: it owns a copy of the binding and its result is dropped.
DatasetPanel::~DatasetPanel() = default;

void DatasetPanel::bind(DatasetBinding binding) {
    if (binding == doc_->project().dataset) return;
    doc_->push(new SetTrainingCommand(doc_, doc_->project().training, std::move(binding)));
}

void DatasetPanel::bindImageFolder(const QString& path) {
    DatasetBinding b = doc_->project().dataset;
    b.kind = "image-folder";
    b.path = path.toStdString();
    b.classes.clear();  // a new folder: labels come from its class folders
    bind(std::move(b));
}

void DatasetPanel::bindFashionMnist() {
    DatasetBinding b = doc_->project().dataset;
    b.kind = "fashion-mnist";
    b.path.clear();
    b.classes.clear();
    bind(std::move(b));
}

void DatasetPanel::chooseFolder() {
    const QString start = doc_->project().dataset.kind == "image-folder" ? path_->text() : QString();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose an image folder"), start);
    if (!dir.isEmpty()) bindImageFolder(dir);
    else source_->setCurrentIndex(source_->findData(QString::fromStdString(doc_->project().dataset.kind)));
}

void DatasetPanel::onDocumentChanged(const DocumentChange& change) {
    switch (change.kind) {
    case DocumentChange::Reset:
    case DocumentChange::SettingsChanged: {
        const DatasetBinding& b = doc_->project().dataset;
        if (b.kind != loadedKind_ || b.path != loadedPath_) reload();
        updateFit();  // another project on the same data: its own Input and class count
        updateValidationWarning();
        break;
    }
    case DocumentChange::GraphChanged:
    case DocumentChange::NodesEdited: updateFit(); break;
    default: break;
    }
}

void DatasetPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) inspectNow();
}

void DatasetPanel::reload() {
    const DatasetBinding& b = doc_->project().dataset;
    loadedKind_ = b.kind, loadedPath_ = b.path;
    source_->setCurrentIndex(std::max(0, source_->findData(QString::fromStdString(b.kind))));
    path_->setText(b.kind == "image-folder" ? QString::fromStdString(b.path) : tr("Debian's dataset-fashion-mnist"));
    stale_ = true;
    if (loading_) ++inspection_, loading_ = false;  // the running inspection's result is stale now
    status_->setText(tr("Not inspected yet"));
    if (isVisible()) inspectNow();
}

void DatasetPanel::inspectNow() {
    const DatasetBinding b = doc_->project().dataset;
    stale_ = false;
    status_->setText(tr("Inspecting…"));
    const int inspection = ++inspection_;  // an earlier one still running is stale
    loading_ = true;
    runInBackground(this, [b] { return summarizeBinding(b); }, [this, inspection](DatasetSummary s) {
        if (inspection != inspection_) return;
        loading_ = false;
        showSummary(s);
    });
}

void DatasetPanel::showSummary(const DatasetSummary& s) {
    summary_ = s;
    status_->setText(s.ok() ? tr("%n classes", nullptr, int(s.classes.size())) : tr("Cannot read the dataset"));
    status_->setToolTip(s.error);
    chart_->showSummary(s);
    samples_->showSamples(s.samples, s.classes);
    problems_->clear();
    if (!s.ok()) problems_->addItem(s.error);
    for (const DatasetProblem& p : s.problems) problems_->addItem(p.path + ": " + p.reason);
    showStatistics();
    updateFit();
    updateValidationWarning();
    Q_EMIT summaryReady();
}

void DatasetPanel::showStatistics() {
    const DatasetSummary& s = summary_;
    if (!s.ok()) {
        stats_->clear();
        return;
    }
    QStringList splits, sizes, channels;
    for (int i = 0; i < s.splits.size(); ++i) splits << QString("%1 %2").arg(s.splits[i]).arg(s.total(i));
    for (auto it = s.sizes.begin(); it != s.sizes.end() && sizes.size() < 6; ++it)
        sizes << QString("%1 (%2)").arg(it.key()).arg(it.value());
    if (s.sizes.size() > 6) sizes << tr("… %n more", nullptr, int(s.sizes.size() - 6));
    for (auto it = s.channels.begin(); it != s.channels.end(); ++it) channels << QString("%1 (%2)").arg(channelName(it.key())).arg(it.value());
    stats_->setText(tr("Images: %1\nSizes: %2\nChannels: %3\nProblems: %4")
                        .arg(splits.join(", "), sizes.join(", "), channels.join(", "))
                        .arg(s.problems.size()));
}

void DatasetPanel::updateFit() {
    const Node* input = singleInput(doc_->graph());
    modelInput_->setText(input ? tr("Model input: %1 (images are resized to it)").arg(shapeText(inputShape(*input)))
                               : tr("Model input: no single Input node"));
    offer_.reset();
    if (summary_.ok() && summary_.shape) offer_ = inputShapeOffer(*doc_, *summary_.shape);
    shapeMessage_->setText(offer_ ? offer_->message : QString());
    shapeMessage_->setVisible(offer_.has_value());
    applyShape_->setVisible(offer_.has_value());
    const QString warning = summary_.ok() ? classCountWarning(*doc_, int(summary_.classes.size())) : QString();
    classWarning_->setText(warning);
    classWarning_->setVisible(!warning.isEmpty());
}

// The trainer validates on nothing when "Test split" is chosen for a folder without test/:
// say so where the choice is made, instead of a run without validation curves.
void DatasetPanel::updateValidationWarning() {
    const DatasetBinding& b = doc_->project().dataset;
    const bool missing = b.kind == "image-folder" && b.validation == "test" && summary_.ok() &&
                         summary_.source == QString::fromStdString(b.path) && !summary_.splits.contains("test");
    validationWarning_->setText(missing ? tr("%1 has no test/ folder, so \"Validate on: Test split\" validates on "
                                             "nothing. Choose \"Fraction of the training split\", or add "
                                             "test/CLASS folders.").arg(summary_.source)
                                        : QString());
    validationWarning_->setVisible(missing);
}

}  // namespace lf::ui
