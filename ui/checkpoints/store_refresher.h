#pragma once
// The live refresh the run-store views share (checkpoint browser, runs explorer): a re-read when
// the session says the store changed or the project file changed, and while the view is visible
// a poll of the store's signature, which changes when another process (the CLI) commits. One
// read at a time: a request during a read starts one more read after it, and the stale result
// is dropped.
#include <QObject>
#include <QString>
#include <functional>

class QTimer;
class QWidget;

namespace lf::ui {

class StudioSession;

class StoreRefresher : public QObject {
    Q_OBJECT
public:
    // `startRead(path)` begins a background read of the store at path; its result handler calls
    // readDone() and applies the result only when that returns true.
    StoreRefresher(QWidget* view, StudioSession* session, std::function<void(const QString& path)> startRead);

    void setInterval(int ms);  // the poll while visible (default 2 s)
    bool readDone();           // false: a newer read has started instead; drop this result

public Q_SLOTS:
    void refresh();
    void refreshIfChanged();  // the timer: only when the store file changed

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the view shown or hidden

private:
    StudioSession* session_;
    std::function<void(const QString&)> startRead_;
    QTimer* poll_;
    QString signature_;
    bool reading_ = false, readAgain_ = false;
};

}  // namespace lf::ui
