#pragma once
// The Evaluate workspace: runs the project's test split (or its validation data) through the
// session's current weights on a worker thread and shows the accuracy, a confusion-matrix heat
// map, per-class precision / recall / F1, a grid of misclassified samples sortable by
// confidence (click one for its class probabilities) and, beside it, every sample's result. An image file dropped on the studio
// window is predicted with the same decode and preprocessing as training.
#include <QFuture>
#include <QWidget>
#include <memory>

#include "evaluation/evaluation_job.h"

class QLabel;
class QListView;
class QComboBox;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTableView;
class QTableWidget;
class QTimer;
class QTreeWidget;

namespace lf::ui {

class ConfusionModel;
class SampleResultsView;
class StudioSession;

class EvaluationView : public QWidget {
    Q_OBJECT
public:
    static constexpr int ConfidenceRole = Qt::UserRole + 1;  // on the misclassified grid's items
    static constexpr int MistakeRole = Qt::UserRole + 2;     // index into result().mistakes

    explicit EvaluationView(StudioSession* session, QWidget* parent = nullptr);
    ~EvaluationView() override;

    // Image files dropped anywhere on `window` (where no child takes the drop) are predicted here.
    void acceptImageDropsOn(QWidget* window);

    bool isRunning() const { return evaluating_; }
    const EvaluationResult& result() const { return result_; }
    ConfusionModel* confusionModel() const { return confusion_; }
    QTableWidget* scoresTable() const { return scores_; }
    QStandardItemModel* mistakesModel() const { return mistakes_; }
    QTreeWidget* probabilities() const { return probabilities_; }
    QLabel* preview() const { return preview_; }
    QLabel* summary() const { return summary_; }
    QTableView* matrixView() const { return matrixView_; }
    SampleResultsView* samples() const { return samples_; }

public Q_SLOTS:
    void evaluate();                          // emits evaluated() or failed()
    void clear();                             // no result, prediction or sample shown
    void predictFile(const QString& path);    // emits predicted() or failed()
    void sortMistakes(Qt::SortOrder order);   // by confidence
    void showMistake(int row);                // row of the (sorted) grid

Q_SIGNALS:
    void evaluated();
    void predicted(const QString& topClass);
    void failed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* createResultsPane();
    QWidget* createDetailsPane();
    QWidget* titledMatrix();
    void fitMatrixHeaders();
    void endEvaluating();
    void showResult(EvaluationResult r);
    void showPrediction(const ImagePrediction& p);
    void clearSample();
    void showProbabilities(const QStringList& names, const std::vector<float>& probabilities);
    void fail(const QString& message);
    std::shared_ptr<Model> currentModel();
    void bringToFront();

    StudioSession* session_;
    QPushButton* run_;
    QProgressBar* progress_;
    QLabel* summary_;
    ConfusionModel* confusion_;
    QTableView* matrixView_;
    QTableWidget* scores_;
    QStandardItemModel* mistakes_;
    QListView* grid_;
    QComboBox* order_;
    QLabel* preview_;
    QLabel* caption_;
    QTreeWidget* probabilities_;
    SampleResultsView* samples_;
    QTimer* poll_;
    EvaluationResult result_;
    QFuture<EvaluationResult> running_;  // its result is taken when done: wait only while evaluating_
    bool evaluating_ = false;
    int generation_ = 0;  // clear() counts up: a result started before it is dropped
    std::shared_ptr<EvaluationProgress> progressState_;
};

}  // namespace lf::ui
