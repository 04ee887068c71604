#pragma once
// Carries closures from worker threads to the thread this object lives on, in order. Queued
// signals would do the same, but Qt orders that hand-off with a lock inside libQt6Core, which
// ThreadSanitizer cannot see into (Debian's Qt is not built with it). This mutex is ours, so TSan
// builds check the studio's hand-offs like any other code. One wake-up per batch: letters posted
// while a batch waits join it.
#include <QObject>
#include <functional>
#include <mutex>
#include <vector>

namespace lf::ui {

class Mailbox : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    void post(std::function<void()> letter);  // any thread; the letter runs on this object's thread

private Q_SLOTS:
    void deliver();

private:
    std::mutex mutex_;
    std::vector<std::function<void()>> letters_;
};

}  // namespace lf::ui
