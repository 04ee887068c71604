#pragma once
// What differs between the graph and settings two runs were started with (engine
// settings_diff), with a picker for each run.
#include <QWidget>
#include <vector>

#include "layerforge/store/run_store.h"

class QComboBox;
class QLabel;
class QTreeWidget;

namespace lf::ui {

class SettingsDiffView : public QWidget {
    Q_OBJECT
public:
    explicit SettingsDiffView(QWidget* parent = nullptr);

    void setRuns(std::vector<RunInfo> runs);  // keeps the chosen runs where they still exist
    void compareRuns(qint64 a, qint64 b);
    QTreeWidget* table() const { return table_; }

private:
    void update();
    const RunInfo* run(qint64 id) const;

    std::vector<RunInfo> runs_;
    QComboBox* a_;
    QComboBox* b_;
    QLabel* summary_;
    QTreeWidget* table_;
};

}  // namespace lf::ui
