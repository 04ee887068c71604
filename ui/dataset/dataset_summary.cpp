#include "dataset/dataset_summary.h"

#include <algorithm>

#include <QObject>
#include <QSet>

#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"
#include "layerforge/data/scan.h"

namespace lf::ui {

namespace {

QVector<qint64> toQt(const std::vector<std::int64_t>& v) { return QVector<qint64>(v.begin(), v.end()); }

// The size most images have; a model sees gray as 1 channel and RGB/RGBA as 3.
std::optional<ImageShape> commonShape(const QMap<QString, qint64>& sizes, const QMap<int, qint64>& channels) {
    if (sizes.isEmpty()) return std::nullopt;
    auto size = std::max_element(sizes.begin(), sizes.end());
    const QStringList wh = size.key().split('x');
    if (wh.size() != 2) return std::nullopt;
    const bool color = channels.value(3) + channels.value(4) > channels.value(1);
    return ImageShape{wh[1].toInt(), wh[0].toInt(), color ? 3 : 1};
}

QImage toImage(const TensorDataset& d, std::int64_t i) {
    const int h = int(d.sample_shape[0]), w = int(d.sample_shape[1]);
    QImage img(w, h, QImage::Format_Grayscale8);
    const float* s = d.sample(i);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) img.scanLine(y)[x] = uchar(s[y * w + x] * 255.f + 0.5f);
    return img;
}

}  // namespace

qint64 DatasetSummary::total(int split) const {
    qint64 t = 0;
    for (qint64 n : counts.value(split)) t += n;
    return t;
}

DatasetSummary summarizeImageFolder(const QString& root) {
    DatasetSummary s;
    s.source = root;
    try {
        const FolderReport r = inspect_image_folder(root.toStdString());
        for (const auto& c : r.scan.class_names) s.classes << QString::fromStdString(c);
        s.splits << QStringLiteral("train");
        s.counts << toQt(r.train_counts);
        if (r.scan.has_validation) s.splits << QStringLiteral("validation"), s.counts << toQt(r.validation_counts);
        if (r.scan.has_test) s.splits << QStringLiteral("test"), s.counts << toQt(r.test_counts);
        for (const auto& [size, n] : r.sizes) s.sizes[QString::fromStdString(size)] = n;
        for (const auto& [c, n] : r.channels) s.channels[c] = n;
        QSet<QString> bad;
        for (const FileProblem& p : r.problems) {
            s.problems << DatasetProblem{QString::fromStdString(p.path), QString::fromStdString(p.reason)};
            bad.insert(s.problems.last().path);
        }
        QVector<int> taken(s.classes.size(), 0);
        for (const LabeledFile& f : r.scan.train) {
            const QString path = QString::fromStdString(f.path);
            if (taken[f.label] >= kSamplesPerClass || bad.contains(path)) continue;
            ++taken[f.label];
            s.samples << DatasetSample{f.label, path, {}};
        }
        s.shape = commonShape(s.sizes, s.channels);
    } catch (const Error& e) {
        s.error = QString::fromStdString(e.what());
    }
    return s;
}

DatasetSummary summarizeFashionMnist(const QString& dir) {
    DatasetSummary s;
    s.source = QStringLiteral("Fashion-MNIST");
    try {
        const DatasetSplits d = load_fashion_mnist(dir.toStdString());
        for (const auto& c : d.train.class_names) s.classes << QString::fromStdString(c);
        s.splits << QStringLiteral("train") << QStringLiteral("test");
        for (const TensorDataset* split : {&d.train, &d.test}) {
            QVector<qint64> counts(s.classes.size(), 0);
            for (std::int32_t l : split->labels) ++counts[l];
            s.counts << counts;
        }
        const std::int64_t all = d.train.size() + d.test.size();
        s.sizes[QString("%1x%2").arg(d.train.sample_shape[1]).arg(d.train.sample_shape[0])] = all;
        s.channels[1] = all;
        QVector<int> taken(s.classes.size(), 0);
        for (std::int64_t i = 0; i < d.train.size(); ++i) {
            const int label = d.train.labels[std::size_t(i)];
            if (taken[label] >= kSamplesPerClass) continue;
            ++taken[label];
            s.samples << DatasetSample{label, {}, toImage(d.train, i)};
        }
        std::stable_sort(s.samples.begin(), s.samples.end(), [](const auto& a, const auto& b) { return a.label < b.label; });
        s.shape = ImageShape{int(d.train.sample_shape[0]), int(d.train.sample_shape[1]), 1};
    } catch (const Error& e) {
        s.error = QString::fromStdString(e.what());
    }
    return s;
}

DatasetSummary summarizeBinding(const DatasetBinding& b) {
    if (b.kind == "image-folder") {
        if (!b.path.empty()) return summarizeImageFolder(QString::fromStdString(b.path));
        DatasetSummary s;
        s.error = QObject::tr("No image folder chosen yet.");
        return s;
    }
    return summarizeFashionMnist(QString::fromStdString(b.path));
}

}  // namespace lf::ui
