#include "session/mailbox.h"

namespace lf::ui {

void Mailbox::post(std::function<void()> letter) {
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        wake = letters_.empty();
        letters_.push_back(std::move(letter));
    }
    // By name: Qt builds the call in its own code, so no object of ours crosses threads unguarded.
    if (wake) QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
}

void Mailbox::deliver() {
    std::vector<std::function<void()>> batch;
    {
        std::lock_guard lock(mutex_);
        batch.swap(letters_);
    }
    for (std::function<void()>& letter : batch) letter();
}

}  // namespace lf::ui
