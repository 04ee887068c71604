#include "dataset/sample_grid.h"

#include <QImageReader>
#include <atomic>
#include <memory>

#include "session/background_task.h"

namespace lf::ui {

namespace {

constexpr int kThumb = 64;

// Runs on a pool thread: a null image when the file cannot be decoded.
QImage decodeThumbnail(const QString& path) {
    QImageReader reader(path);
    const QSize size = reader.size();
    if (size.isValid() && (size.width() > kThumb || size.height() > kThumb))
        reader.setScaledSize(size.scaled(kThumb, kThumb, Qt::KeepAspectRatio));
    return reader.read();
}

}  // namespace

SampleGrid::SampleGrid(QWidget* parent) : QListWidget(parent) {
    setViewMode(QListView::IconMode);
    setIconSize(QSize(kThumb, kThumb));
    setGridSize(QSize(kThumb + 40, kThumb + 28));
    setResizeMode(QListView::Adjust);
    setMovement(QListView::Static);
    setUniformItemSizes(true);
    setSelectionMode(QAbstractItemView::NoSelection);
}

SampleGrid::~SampleGrid() { stopLoading(); }

void SampleGrid::stopLoading() {
    if (cancelled_) *cancelled_ = true;  // queued decodes are skipped; their results are dropped
    cancelled_.reset();
    pending_ = 0;
}

void SampleGrid::showSamples(const QList<DatasetSample>& samples, const QStringList& classes) {
    stopLoading();
    clear();
    thumbnails_ = 0;
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    cancelled_ = cancelled;
    for (const DatasetSample& s : samples) {
        auto* item = new QListWidgetItem(classes.value(s.label), this);
        item->setToolTip(s.path.isEmpty() ? classes.value(s.label) : s.path);
        if (!s.image.isNull()) {
            setThumbnail(count() - 1, s.image);
        } else if (!s.path.isEmpty()) {
            ++pending_;
            const QString path = s.path;
            runInBackground(this, [path, cancelled] { return *cancelled ? QImage() : decodeThumbnail(path); },
                            [this, row = count() - 1, cancelled](const QImage& image) {
                                if (*cancelled) return;
                                setThumbnail(row, image);
                                if (--pending_ == 0) Q_EMIT thumbnailsLoaded();
                            });
        }
    }
    if (pending_ == 0) Q_EMIT thumbnailsLoaded();
}

void SampleGrid::setThumbnail(int row, const QImage& image) {
    QListWidgetItem* it = item(row);
    if (!it || image.isNull()) return;
    it->setIcon(QIcon(QPixmap::fromImage(image.scaled(kThumb, kThumb, Qt::KeepAspectRatio, Qt::FastTransformation))));
    ++thumbnails_;
}

}  // namespace lf::ui
