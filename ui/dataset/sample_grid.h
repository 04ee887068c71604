#pragma once
// A grid of sample images labelled with their class. Thumbnails of files are decoded on the
// thread pool (QtConcurrent) and appear as they arrive; the UI thread never decodes.
#include <QFutureWatcher>
#include <QImage>
#include <QListWidget>

#include "dataset/dataset_summary.h"

namespace lf::ui {

class SampleGrid : public QListWidget {
    Q_OBJECT
public:
    explicit SampleGrid(QWidget* parent = nullptr);
    ~SampleGrid() override;
    void showSamples(const QList<DatasetSample>& samples, const QStringList& classes);
    int thumbnailCount() const { return thumbnails_; }  // items showing their image
    bool loading() const { return watcher_ && watcher_->isRunning(); }

Q_SIGNALS:
    void thumbnailsLoaded();

private:
    void setThumbnail(int row, const QImage& image);
    void stopLoading();

    QFutureWatcher<QImage>* watcher_ = nullptr;
    QList<int> pendingRows_;  // row of each path being decoded
    int thumbnails_ = 0;
};

}  // namespace lf::ui
