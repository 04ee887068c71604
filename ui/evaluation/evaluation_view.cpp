// Layout and results of the Evaluate workspace; dropped images are in evaluation_drop.cpp.
#include "evaluation/evaluation_view.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QListView>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>

#include "document/project_document.h"
#include "evaluation/confusion_model.h"
#include "evaluation/rotated_label.h"
#include "evaluation/sample_results_view.h"
#include "session/background_task.h"
#include "session/studio_session.h"

namespace lf::ui {

EvaluationView::EvaluationView(StudioSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      run_(new QPushButton(tr("Evaluate"))),
      progress_(new QProgressBar),
      summary_(new QLabel(tr("Evaluate the current weights on the project's test split."))),
      confusion_(new ConfusionModel(this)),
      matrixView_(new QTableView),
      scores_(new QTableWidget),
      mistakes_(new QStandardItemModel(this)),
      grid_(new QListView),
      order_(new QComboBox),
      preview_(new QLabel),
      caption_(new QLabel(tr("Click a misclassified sample, or drop an image file on the window."))),
      probabilities_(new QTreeWidget),
      samples_(new SampleResultsView),
      poll_(new QTimer(this)) {
    progress_->setVisible(false);
    summary_->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(run_);
    top->addWidget(progress_);
    top->addWidget(summary_, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(createResultsPane());
    auto* details = new QTabWidget;
    details->setObjectName("evaluationDetails");
    details->addTab(createDetailsPane(), tr("Misclassified"));
    details->addTab(samples_, tr("All samples"));
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(run_, &QPushButton::clicked, this, &EvaluationView::evaluate);
    connect(order_, &QComboBox::currentIndexChanged, this,
            [this](int i) { sortMistakes(i == 0 ? Qt::DescendingOrder : Qt::AscendingOrder); });
    connect(grid_, &QListView::clicked, this, [this](const QModelIndex& i) { showMistake(i.row()); });
    connect(session_, &StudioSession::weightsChanged, this, [this] {
        const QString stale = tr("The current weights changed: evaluate again to update.");
        if (result_.matrix.total() && !summary_->text().endsWith(stale)) summary_->setText(summary_->text() + "\n" + stale);
    });
    connect(session_, &StudioSession::projectSwitched, this, &EvaluationView::clear);
    poll_->setInterval(100);
    connect(poll_, &QTimer::timeout, this, [this] {
        if (progressState_ && progressState_->total) {
            progress_->setMaximum(int(progressState_->total));
            progress_->setValue(int(progressState_->done));
        }
    });
}

EvaluationView::~EvaluationView() {
    if (progressState_) progressState_->cancel = true;
    if (evaluating_) running_.waitForFinished();  // the worker owns its data, but no work should outlive the studio
}

QWidget* EvaluationView::createResultsPane() {
    matrixView_->setModel(confusion_);
    matrixView_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);  // the heat map fills its pane
    matrixView_->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    matrixView_->setToolTip(tr("Rows: true class. Columns: predicted class. Colour: share of the row."));
    scores_->setColumnCount(5);
    scores_->setHorizontalHeaderLabels({tr("Class"), tr("Precision"), tr("Recall"), tr("F1"), tr("Support")});
    scores_->verticalHeader()->hide();
    scores_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    scores_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* pane = new QSplitter(Qt::Vertical);
    pane->addWidget(titledMatrix());
    pane->addWidget(scores_);
    return pane;
}

// The heat map with its axis titles: predicted classes across the top, true classes down the side.
QWidget* EvaluationView::titledMatrix() {
    auto* predicted = new QLabel(tr("Predicted class"));
    predicted->setObjectName("predictedAxisTitle");
    predicted->setAlignment(Qt::AlignCenter);
    auto* actual = new RotatedLabel(tr("True class"));
    actual->setObjectName("trueAxisTitle");
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(predicted, 0, 1);
    grid->addWidget(actual, 1, 0);
    grid->addWidget(matrixView_, 1, 1);
    return box;
}

// Stretched columns fill the pane but never get narrower than their class name.
void EvaluationView::fitMatrixHeaders() {
    QHeaderView* header = matrixView_->horizontalHeader();
    int widest = header->minimumSectionSize();
    for (const QString& name : result_.classNames) widest = std::max(widest, header->fontMetrics().horizontalAdvance(name) + 16);
    header->setMinimumSectionSize(widest);
}

QWidget* EvaluationView::createDetailsPane() {
    order_->addItems({tr("Most confident mistakes first"), tr("Least confident mistakes first")});
    mistakes_->setSortRole(ConfidenceRole);
    grid_->setModel(mistakes_);
    grid_->setViewMode(QListView::IconMode);
    grid_->setIconSize(QSize(56, 56));
    grid_->setGridSize(QSize(120, 96));
    grid_->setResizeMode(QListView::Adjust);
    grid_->setMovement(QListView::Static);
    grid_->setUniformItemSizes(true);
    preview_->setFixedSize(112, 112);
    preview_->setAlignment(Qt::AlignCenter);
    caption_->setWordWrap(true);
    probabilities_->setHeaderLabels({tr("Class"), tr("Probability")});
    probabilities_->setRootIsDecorated(false);
    auto* detail = new QHBoxLayout;
    detail->addWidget(preview_);
    detail->addWidget(caption_, 1);
    auto* pane = new QWidget;
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Misclassified samples")));
    layout->addWidget(order_);
    layout->addWidget(grid_, 2);
    layout->addLayout(detail);
    layout->addWidget(probabilities_, 1);
    return pane;
}

std::shared_ptr<Model> EvaluationView::currentModel() {
    try {
        return std::shared_ptr<Model>(session_->makeModel());
    } catch (const std::exception& e) {
        fail(tr("The model cannot be built: %1").arg(QString::fromUtf8(e.what())));
        return nullptr;
    }
}

void EvaluationView::evaluate() {
    if (isRunning()) return;
    std::shared_ptr<Model> model = currentModel();
    if (!model) return;
    const Project project = session_->document()->project();
    std::string cache;
    if (const QString p = session_->projectPath(); !p.isEmpty()) {
        const std::filesystem::path path(p.toStdString());
        cache = (path.parent_path() / (path.stem().string() + ".lfcache")).string();
    }
    auto progress = std::make_shared<EvaluationProgress>();
    progressState_ = progress;
    evaluating_ = true;
    run_->setEnabled(false);
    progress_->setValue(0);
    progress_->setVisible(true);
    poll_->start();
    summary_->setText(tr("Evaluating %1…").arg(session_->hasWeights() ? session_->weightsOrigin() : tr("the initial weights")));
    running_ = runInBackground(this, [=] { return evaluateSplit(model, project, cache, *progress); },
                               [this, generation = generation_](EvaluationResult r) {
                                   endEvaluating();
                                   if (generation == generation_) showResult(std::move(r));  // else: the previous project's
                               });
}

// Another project: its results, a dropped image's prediction and the shown sample go. A running
// evaluation's result would be the previous project's: it is dropped when it arrives.
void EvaluationView::clear() {
    if (progressState_) progressState_->cancel = true;
    ++generation_;
    result_ = EvaluationResult();
    confusion_->setMatrix(ConfusionMatrix(0), {});
    scores_->setRowCount(0);
    mistakes_->clear();
    clearSample();
    caption_->setText(tr("Click a misclassified sample, or drop an image file on the window."));
    summary_->clear();
}

void EvaluationView::clearSample() {
    preview_->clear();
    probabilities_->clear();
}

void EvaluationView::endEvaluating() {
    evaluating_ = false;
    poll_->stop();
    progress_->setVisible(false);
    run_->setEnabled(true);
}

void EvaluationView::showResult(EvaluationResult r) {
    if (!r.error.isEmpty()) return fail(tr("Evaluation failed: %1").arg(r.error));
    result_ = std::move(r);
    const ConfusionMatrix& m = result_.matrix;
    confusion_->setMatrix(m, result_.classNames);
    fitMatrixHeaders();
    const ClassScores mean = macro_average(result_.scores);
    summary_->setText(tr("Accuracy %1% on %2 %3 samples (%4 misclassified) · macro F1 %5 · weights: %6")
                          .arg(m.accuracy() * 100, 0, 'f', 2)
                          .arg(m.total())
                          .arg(result_.split)
                          .arg(m.total() - m.correct())
                          .arg(mean.f1, 0, 'f', 3)
                          .arg(session_->hasWeights() ? session_->weightsOrigin() : tr("initial (untrained)")));
    scores_->setRowCount(int(result_.scores.size()));
    for (int c = 0; c < int(result_.scores.size()); ++c) {
        const ClassScores& s = result_.scores[std::size_t(c)];
        const QStringList cells{result_.classNames.value(c), QString::number(s.precision, 'f', 3),
                                QString::number(s.recall, 'f', 3), QString::number(s.f1, 'f', 3), QString::number(s.support)};
        for (int k = 0; k < cells.size(); ++k) scores_->setItem(c, k, new QTableWidgetItem(cells[k]));
    }
    mistakes_->clear();
    for (int i = 0; i < int(result_.mistakes.size()); ++i) {
        const Misclassified& x = result_.mistakes[std::size_t(i)];
        const QImage icon = x.image.scaled(grid_->iconSize(), Qt::KeepAspectRatio);  // small inputs: pixels enlarged
        auto* item = new QStandardItem(QIcon(QPixmap::fromImage(icon)),
                                       tr("%1 → %2\n%3%").arg(result_.classNames.value(x.label), result_.classNames.value(x.predicted))
                                           .arg(x.confidence * 100, 0, 'f', 1));
        item->setData(double(x.confidence), ConfidenceRole);
        item->setData(i, MistakeRole);
        item->setEditable(false);
        mistakes_->appendRow(item);
    }
    sortMistakes(order_->currentIndex() == 0 ? Qt::DescendingOrder : Qt::AscendingOrder);
    samples_->setResult(result_);
    Q_EMIT evaluated();
}

void EvaluationView::sortMistakes(Qt::SortOrder order) {
    if (order_->currentIndex() != (order == Qt::DescendingOrder ? 0 : 1)) {
        order_->setCurrentIndex(order == Qt::DescendingOrder ? 0 : 1);  // sorts through the signal
        return;
    }
    mistakes_->sort(0, order);
}

void EvaluationView::showMistake(int row) {
    const QStandardItem* item = mistakes_->item(row);
    if (!item) return;
    const Misclassified& x = result_.mistakes[std::size_t(item->data(MistakeRole).toInt())];
    preview_->setPixmap(QPixmap::fromImage(x.image).scaled(preview_->size(), Qt::KeepAspectRatio));
    caption_->setText(tr("Sample %1 of the %2 split: a %3, predicted %4 with %5% confidence.")
                          .arg(x.index)
                          .arg(result_.split, result_.classNames.value(x.label), result_.classNames.value(x.predicted))
                          .arg(x.confidence * 100, 0, 'f', 1));
    showProbabilities(result_.classNames, x.probabilities);
}

void EvaluationView::showProbabilities(const QStringList& names, const std::vector<float>& probabilities) {
    probabilities_->clear();
    std::vector<int> order(probabilities.size());
    for (int i = 0; i < int(order.size()); ++i) order[std::size_t(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return probabilities[std::size_t(a)] > probabilities[std::size_t(b)]; });
    for (int c : order)
        new QTreeWidgetItem(probabilities_, {names.value(c), QString::number(probabilities[std::size_t(c)], 'f', 4)});
}

void EvaluationView::fail(const QString& message) {
    summary_->setText(message);
    Q_EMIT failed(message);
}

}  // namespace lf::ui
