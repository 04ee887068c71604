#pragma once
// What the Data workspace shows about a bound dataset: classes with counts per split, samples
// per class, image sizes and channels, and the files that cannot be used. Built off the UI
// thread (it decodes every image of a folder once) from the engine's folder inspection or
// from Fashion-MNIST's IDX files.
#include <QImage>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "layerforge/project/project.h"

namespace lf::ui {

struct DatasetSample {
    int label = 0;
    QString path;  // image folders: decoded later into a thumbnail
    QImage image;  // in-memory datasets: the sample itself
};

struct DatasetProblem {
    QString path, reason;
};

struct ImageShape {
    int height = 0, width = 0, channels = 0;
    bool operator==(const ImageShape&) const = default;
};

struct DatasetSummary {
    QString source;                  // folder path, or "Fashion-MNIST"
    QString error;                   // set when the dataset cannot be read at all
    QStringList classes;             // label order
    QStringList splits;              // "train", then "validation" / "test" where present
    QVector<QVector<qint64>> counts; // [split][class], usable images
    QMap<QString, qint64> sizes;     // "28x28" -> images
    QMap<int, qint64> channels;      // 1 gray, 3 RGB, 4 RGBA -> images
    QList<DatasetProblem> problems;
    QList<DatasetSample> samples;    // a few per class, training split
    std::optional<ImageShape> shape; // the most common size with the channels a model sees (1 or 3)

    bool ok() const { return error.isEmpty(); }
    qint64 total(int split) const;
};

// Samples kept per class for the grid.
inline constexpr int kSamplesPerClass = 6;

// Slow (decodes every image): call from a worker thread. Never throws; errors land in `error`.
DatasetSummary summarizeImageFolder(const QString& root);
DatasetSummary summarizeFashionMnist(const QString& dir);  // dir empty: Debian's install path
DatasetSummary summarizeBinding(const DatasetBinding& binding);

}  // namespace lf::ui
