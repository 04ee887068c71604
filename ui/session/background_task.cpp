#include "session/background_task.h"

#include <QThreadPool>
#include <deque>
#include <mutex>

#include "layerforge/core/kernel_thread_signals.h"

namespace lf::ui::detail {

namespace {

struct Queue {
    std::mutex mutex;
    std::deque<std::unique_ptr<BackgroundJob>> jobs;
};

Queue& queue() {
    static Queue q;
    return q;
}

}  // namespace

void startBackgroundJob(std::unique_ptr<BackgroundJob> job) {
    {
        std::lock_guard lock(queue().mutex);
        queue().jobs.push_back(std::move(job));
    }
    // One task per job; the task captures nothing, so the pool thread reads no UI-thread data
    // before it takes our mutex. Tasks may start out of order: each runs the oldest job.
    QThreadPool::globalInstance()->start([] {
        block_async_signals();  // jobs run the engine's kernels (layerforge/core/kernel_thread_signals.h)
        std::unique_ptr<BackgroundJob> next;
        {
            std::lock_guard lock(queue().mutex);
            next = std::move(queue().jobs.front());
            queue().jobs.pop_front();
        }
        next->run();
    });
}

}  // namespace lf::ui::detail
