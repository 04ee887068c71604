#include "checkpoints/store_refresher.h"

#include <QEvent>
#include <QTimer>
#include <QWidget>

#include "checkpoints/store_snapshot.h"
#include "document/project_document.h"
#include "session/studio_session.h"

namespace lf::ui {

StoreRefresher::StoreRefresher(QWidget* view, StudioSession* session, std::function<void(const QString&)> startRead)
    : QObject(view), session_(session), startRead_(std::move(startRead)), poll_(new QTimer(this)) {
    poll_->setInterval(2000);
    connect(poll_, &QTimer::timeout, this, &StoreRefresher::refreshIfChanged);
    connect(session_, &StudioSession::storeChanged, this, &StoreRefresher::refresh);
    connect(session_->document(), &ProjectDocument::fileNameChanged, this, &StoreRefresher::refresh);  // another store
    view->installEventFilter(this);
}

void StoreRefresher::setInterval(int ms) { poll_->setInterval(ms); }

bool StoreRefresher::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Show) {
        poll_->start();
        refreshIfChanged();
    } else if (event->type() == QEvent::Hide) {
        poll_->stop();
    }
    return QObject::eventFilter(watched, event);
}

void StoreRefresher::refreshIfChanged() {
    if (storeSignature(session_->storePath()) != signature_) refresh();
}

void StoreRefresher::refresh() {
    if (reading_) {  // one read at a time; the newest request wins
        readAgain_ = true;
        return;
    }
    reading_ = true;
    const QString path = session_->storePath();
    signature_ = storeSignature(path);  // before reading: a write during the read triggers another
    startRead_(path);
}

bool StoreRefresher::readDone() {
    reading_ = false;
    if (!readAgain_) return true;
    readAgain_ = false;
    refresh();
    return false;
}

}  // namespace lf::ui
