// core/slices.h: for_each_slice covers [0, n) exactly once, in slices that start on a cache line,
// for every n around the parallel threshold and the alignment, on one to three threads;
// for_each_item calls every item once.
#include <QtTest>

#include <atomic>
#include <vector>

#include "core/slices.h"

class TestSlices : public QObject {
    Q_OBJECT

private slots:
    void slices_cover_every_index_once_data() {
        QTest::addColumn<int>("threads");
        for (int t : {1, 2, 3}) QTest::addRow("%d threads", t) << t;
    }
    void slices_cover_every_index_once() {
        QFETCH(int, threads);
        const lf::core_detail::ThreadCount scope(threads);
        std::vector<std::size_t> sizes{0, 1, 15, 16, 17, 1000};
        for (std::size_t base : {std::size_t(1) << 16, std::size_t(3) << 16, std::size_t(100000)})
            for (std::size_t d = 0; d < 40; ++d) sizes.push_back(base - 20 + d);
        for (std::size_t n : sizes) {
            std::vector<std::atomic<int>> seen(n);
            std::atomic<bool> aligned{true};
            lf::core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
                if (b % 16) aligned = false;
                for (std::size_t i = b; i < e; ++i) ++seen[i];
            });
            for (std::size_t i = 0; i < n; ++i)
                if (seen[i] != 1)
                    QFAIL(qPrintable(QString("n %1: index %2 done %3 times").arg(n).arg(i).arg(seen[i].load())));
            QVERIFY2(aligned, qPrintable(QString("n %1: a slice starts off a cache line").arg(n)));
        }
    }

    void items_are_each_called_once() {
        const lf::core_detail::ThreadCount scope(2);
        for (std::size_t count : {0, 1, 2, 7, 64}) {
            std::vector<std::atomic<int>> seen(count);
            lf::core_detail::for_each_item(count, std::size_t(1) << 20, [&](std::size_t i) { ++seen[i]; });
            for (std::size_t i = 0; i < count; ++i) QCOMPARE(seen[i].load(), 1);
        }
    }
};

QTEST_APPLESS_MAIN(TestSlices)
#include "test_slices.moc"
