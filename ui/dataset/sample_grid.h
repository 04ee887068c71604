#pragma once
// A grid of sample images labelled with their class. Thumbnails of files are decoded on the
// thread pool (session/background_task.h) and appear as they arrive; the UI thread never decodes.
#include <QImage>
#include <QListWidget>
#include <atomic>
#include <memory>

#include "dataset/dataset_summary.h"

namespace lf::ui {

class SampleGrid : public QListWidget {
    Q_OBJECT
public:
    explicit SampleGrid(QWidget* parent = nullptr);
    ~SampleGrid() override;
    void showSamples(const QList<DatasetSample>& samples, const QStringList& classes);
    int thumbnailCount() const { return thumbnails_; }  // items showing their image
    bool loading() const { return pending_ > 0; }

Q_SIGNALS:
    void thumbnailsLoaded();

private:
    void setThumbnail(int row, const QImage& image);
    void stopLoading();

    std::shared_ptr<std::atomic<bool>> cancelled_;  // set when the shown samples are replaced
    int pending_ = 0;                               // thumbnails still being decoded
    int thumbnails_ = 0;
};

}  // namespace lf::ui
