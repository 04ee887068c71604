#pragma once
// Runs `work` on Qt's thread pool and hands its result to `done` on `context`'s thread. If
// `context` is destroyed first, the result is dropped: work must own everything it touches.
// The result is moved out (QFuture::takeResult), which leaves the returned future invalid:
// waitForFinished() on it after `done` ran never returns. An exception from `work` is rethrown
// by takeResult, as QtConcurrent::run does.
//
// The work reaches the pool thread through our own mutex (background_task.cpp), not inside the
// closure Qt's pool copies: QThreadPool orders its hand-off with a lock inside libQt6Core, which
// ThreadSanitizer cannot see (Debian's Qt is not built with it), so a pool thread copying the
// captures the UI thread wrote read as a race (ui/test_studio_dashboard, now and then).
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <exception>
#include <memory>
#include <type_traits>
#include <utility>

namespace lf::ui {

namespace detail {

struct BackgroundJob {
    virtual ~BackgroundJob() = default;
    virtual void run() = 0;
};

// Queues the job under the mutex and starts one pool task that takes the oldest job and runs it.
void startBackgroundJob(std::unique_ptr<BackgroundJob> job);

template <class Work>
struct WorkJob final : BackgroundJob {
    using Result = std::invoke_result_t<Work>;
    WorkJob(Work w, std::shared_ptr<QPromise<Result>> p) : work(std::move(w)), promise(std::move(p)) {}
    void run() override {
        try {
            promise->addResult(work());
        } catch (...) {
            promise->setException(std::current_exception());
        }
        promise->finish();
    }
    Work work;
    std::shared_ptr<QPromise<Result>> promise;
};

}  // namespace detail

template <class Work, class Done>
QFuture<std::invoke_result_t<Work>> runInBackground(QObject* context, Work work, Done done) {
    using Result = std::invoke_result_t<Work>;
    auto promise = std::make_shared<QPromise<Result>>();
    QFuture<Result> future = promise->future();
    auto* watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->future().takeResult());
    });
    watcher->setFuture(future);
    promise->start();
    detail::startBackgroundJob(std::make_unique<detail::WorkJob<Work>>(std::move(work), std::move(promise)));
    return future;
}

}  // namespace lf::ui
