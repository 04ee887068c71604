#pragma once
// What the explorer's parallel-coordinates and scatter plots show, without widgets: one axis per
// setting that differs between the runs (numbers as they are, on a log scale when they span two
// decades or more; anything else as ordinal categories in sorted order) and, per run that
// reports the chosen metric, its value on every axis and the metric's final or best value.
#include <QComboBox>
#include <QString>
#include <QStringList>
#include <vector>

#include "explorer/explorer_snapshot.h"

namespace lf::ui {

struct HyperAxis {
    QString key, title;
    bool categorical = false, log = false;
    QStringList categories;   // categorical: the value of position 0, 1, ...
    double min = 0, max = 0;  // of the values on the axis (category positions when categorical)
    // 0 at min, 1 at max (0.5 for an axis with one value); NaN for a missing value.
    double normalized(double v) const;
};

struct HyperPoint {
    qint64 run = 0;
    std::vector<double> values;  // per axis: the number, or the category's position; NaN when missing
    double metric = 0;
};

struct HyperData {
    std::vector<HyperAxis> axes;
    std::vector<HyperPoint> points;  // in the snapshot's run order; runs without the metric left out
    QString metric;                  // "val_loss"
    bool best = false;
    double metricMin = 0, metricMax = 0;
    int indexOf(qint64 run) const;  // -1 when not plotted
};

HyperData hyperparameterData(const ExplorerSnapshot& s, const QString& metric, bool best);

// The metric choices of the plots: "val_loss (best)", "val_loss (final)", ... with data
// QStringList{name, "best"|"final"}; keeps the current choice when it still exists, else picks
// the best validation loss (or loss).
void fillMetricChoices(QComboBox* box, const ExplorerSnapshot& s);

}  // namespace lf::ui
