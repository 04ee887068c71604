// The engine's memory accounts (core/memory.h): leases add while they live, copies count again,
// devices are apart, the peak keeps the breakdown of the highest total, and reset_peak() starts
// a new high-water mark from what is in use now.
#include <QtTest>

#include <optional>

#include "layerforge/core/memory.h"

namespace {

lf::MemoryBreakdown weights(std::size_t n) { return {.weights = n}; }

}  // namespace

class TestMemory : public QObject {
    Q_OBJECT

private slots:
    void leases_add_while_they_live() {
        const std::string dev = "test:leases";
        QCOMPARE(lf::memory_in_use(dev).total(), std::size_t(0));
        {
            lf::MemoryLease a(weights(100), dev);
            lf::MemoryLease b({.activations = 30, .workspaces = 2}, dev);
            QCOMPARE(lf::memory_in_use(dev).weights, std::size_t(100));
            QCOMPARE(lf::memory_in_use(dev).activations, std::size_t(30));
            QCOMPARE(lf::memory_in_use(dev).total(), std::size_t(132));
            lf::MemoryLease copy = a;  // a copy of a buffer's owner owns another buffer
            QCOMPARE(lf::memory_in_use(dev).total(), std::size_t(232));
            QCOMPARE(lf::memory_in_use("test:elsewhere").total(), std::size_t(0));
        }
        QCOMPARE(lf::memory_in_use(dev).total(), std::size_t(0));
        QCOMPARE(lf::memory_peak(dev).total(), std::size_t(232));
        QCOMPARE(lf::memory_peak(dev).weights, std::size_t(200));
    }

    void reset_peak_starts_from_what_is_in_use() {
        const std::string dev = "test:reset";
        std::optional<lf::MemoryLease> big(std::in_place, weights(1000), dev);
        lf::MemoryLease small(weights(10), dev);
        QCOMPARE(lf::memory_peak(dev).total(), std::size_t(1010));
        big.reset();
        QCOMPARE(lf::memory_peak(dev).total(), std::size_t(1010));  // the peak outlives its leases
        lf::reset_peak(dev);
        QCOMPARE(lf::memory_peak(dev).total(), std::size_t(10));  // what is still held
        {
            lf::MemoryLease next(weights(50), dev);
        }
        QCOMPARE(lf::memory_peak(dev).total(), std::size_t(60));  // the new run's own high-water mark
        QCOMPARE(lf::memory_peak(dev).weights, std::size_t(60));
        lf::reset_peak("test:never-used");  // an unknown device simply starts at zero
        QCOMPARE(lf::memory_peak("test:never-used").total(), std::size_t(0));
    }

    void reset_peak_leaves_other_devices_alone() {
        lf::MemoryLease a(weights(7), "test:a");
        lf::MemoryLease b(weights(9), "test:b");
        {
            lf::MemoryLease extra(weights(100), "test:b");
        }
        lf::reset_peak("test:a");
        QCOMPARE(lf::memory_peak("test:b").total(), std::size_t(109));
        QCOMPARE(lf::memory_peak("test:a").total(), std::size_t(7));
    }
};

QTEST_APPLESS_MAIN(TestMemory)
#include "test_memory.moc"
