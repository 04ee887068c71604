#include "dataset/sample_grid.h"

#include <QImageReader>
#include <QtConcurrent>

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
    if (!watcher_) return;
    watcher_->disconnect(this);
    watcher_->cancel();
    watcher_->waitForFinished();  // a few thumbnails at most are in flight
    watcher_->deleteLater();
    watcher_ = nullptr;
}

void SampleGrid::showSamples(const QList<DatasetSample>& samples, const QStringList& classes) {
    stopLoading();
    clear();
    thumbnails_ = 0;
    pendingRows_.clear();
    QStringList paths;
    for (const DatasetSample& s : samples) {
        auto* item = new QListWidgetItem(classes.value(s.label), this);
        item->setToolTip(s.path.isEmpty() ? classes.value(s.label) : s.path);
        if (!s.image.isNull()) setThumbnail(count() - 1, s.image);
        else if (!s.path.isEmpty()) paths << s.path, pendingRows_ << count() - 1;
    }
    if (paths.isEmpty()) {
        Q_EMIT thumbnailsLoaded();
        return;
    }
    watcher_ = new QFutureWatcher<QImage>(this);
    connect(watcher_, &QFutureWatcher<QImage>::resultReadyAt, this,
            [this](int i) { setThumbnail(pendingRows_.value(i), watcher_->resultAt(i)); });
    connect(watcher_, &QFutureWatcher<QImage>::finished, this, &SampleGrid::thumbnailsLoaded);
    watcher_->setFuture(QtConcurrent::mapped(paths, decodeThumbnail));
}

void SampleGrid::setThumbnail(int row, const QImage& image) {
    QListWidgetItem* it = item(row);
    if (!it || image.isNull()) return;
    it->setIcon(QIcon(QPixmap::fromImage(image.scaled(kThumb, kThumb, Qt::KeepAspectRatio, Qt::FastTransformation))));
    ++thumbnails_;
}

}  // namespace lf::ui
