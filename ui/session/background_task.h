#pragma once
// Runs `work` on Qt's thread pool and hands its result to `done` on `context`'s thread. If
// `context` is destroyed first, the result is dropped: work must own everything it touches.
// The result is moved out (QFuture::takeResult), which leaves the returned future invalid:
// waitForFinished() on it after `done` ran never returns.
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>
#include <type_traits>
#include <utility>

namespace lf::ui {

template <class Work, class Done>
QFuture<std::invoke_result_t<Work>> runInBackground(QObject* context, Work work, Done done) {
    using Result = std::invoke_result_t<Work>;
    auto* watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->future().takeResult());
    });
    QFuture<Result> future = QtConcurrent::run(std::move(work));
    watcher->setFuture(future);
    return future;
}

}  // namespace lf::ui
