// The CUDA backend's host-side memory logic, on a stand-in device of host memory with a fixed
// capacity: the arena's account and peak, the two policies (grow on demand; a fixed limit),
// refusals with the numbers, the out-of-memory message with a batch size that fits (from the
// CPU plan's real estimate of the tutorial CNN), and DeviceBuffer's part in the engine's account.
// Also cuDNN's algorithm-cache keys from real convolution windows.
#include <QtTest>

#include <cstdlib>
#include <set>

#include "backend/cuda/algo_cache.h"
#include "backend/cuda/device_arena.h"
#include "backend/cuda/device_buffer.h"
#include "backend/cuda/oom_message.h"
#include "layerforge/core/memory.h"
#include "layerforge/core/shape.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layers/window.h"
#include "lf_test_util.h"

namespace {

constexpr std::uint64_t kMiB = 1 << 20;

// Host memory posing as a device of `capacity` bytes: refuses what would not fit.
class HostDevice final : public lf::RawDeviceMemory {
public:
    explicit HostDevice(std::uint64_t capacity) : capacity_(capacity) {}
    void* allocate(std::size_t bytes, std::string& error) override {
        if (used_ + bytes > capacity_) {
            error = "cudaMalloc: out of memory (cudaErrorMemoryAllocation 2)";
            return nullptr;
        }
        used_ += bytes;
        void* p = std::malloc(bytes);
        sizes_[p] = bytes;
        return p;
    }
    void release(void* p) override {
        used_ -= sizes_.at(p);
        sizes_.erase(p);
        std::free(p);
    }
    std::uint64_t free_bytes() const override { return capacity_ - used_; }
    std::size_t blocks() const { return sizes_.size(); }

private:
    std::uint64_t capacity_, used_ = 0;
    std::map<void*, std::size_t> sizes_;
};

std::string templates_dir() { return std::string(qgetenv("LF_SOURCE_DIR")) + "/resources/templates/"; }

}  // namespace

class TestDeviceArena : public QObject {
    Q_OBJECT
private slots:
    void grows_on_demand_and_keeps_the_account() {
        HostDevice dev(100 * kMiB);
        lf::DeviceArena arena("cuda:0", dev);
        lf::ArenaRefusal r;
        void* a = arena.allocate(30 * kMiB, r);
        void* b = arena.allocate(50 * kMiB, r);
        QVERIFY(a && b);
        QCOMPARE(arena.held(), 80 * kMiB);
        QCOMPARE(arena.available(), 20 * kMiB);
        arena.release(a, 30 * kMiB);
        QCOMPARE(arena.held(), 50 * kMiB);
        QCOMPARE(arena.peak(), 80 * kMiB);
        QVERIFY(!arena.allocate(60 * kMiB, r));  // the device says no
        QCOMPARE(r.asked, 60 * kMiB);
        QCOMPARE(r.available, 50 * kMiB);
        QVERIFY(!r.by_limit);
        QCOMPARE(r.device_error, std::string("cudaMalloc: out of memory (cudaErrorMemoryAllocation 2)"));
        QCOMPARE(arena.held(), 50 * kMiB);
        arena.release(b, 50 * kMiB);
        QCOMPARE(dev.blocks(), std::size_t(0));
    }

    void a_fixed_limit_refuses_before_the_device_is_asked() {
        HostDevice dev(100 * kMiB);
        lf::DeviceArena arena("cuda:1", dev, {40 * kMiB});
        lf::ArenaRefusal r;
        void* a = arena.allocate(30 * kMiB, r);
        QVERIFY(a);
        QCOMPARE(arena.available(), 10 * kMiB);  // the limit, not the device's 70 MiB
        QVERIFY(!arena.allocate(20 * kMiB, r));
        QVERIFY(r.by_limit);
        QCOMPARE(r.available, 10 * kMiB);
        QVERIFY(r.device_error.empty());
        QCOMPARE(dev.blocks(), std::size_t(1));  // the refused request never reached the device
        arena.set_policy({});                     // growth again: the device decides
        void* b = arena.allocate(20 * kMiB, r);
        QVERIFY(b);
        arena.set_policy({10 * kMiB});  // below what is held: nothing is taken back, nothing more given
        QCOMPARE(arena.available(), std::uint64_t(0));
        QVERIFY(!arena.allocate(1, r));
        arena.release(a, 30 * kMiB);
        arena.release(b, 20 * kMiB);
        QCOMPARE(arena.held(), std::uint64_t(0));
    }

    void the_message_names_request_free_memory_and_the_limit() {
        const lf::ArenaRefusal device{512 * kMiB, 100 * kMiB, false, "cudaMalloc: out of memory (cudaErrorMemoryAllocation 2)"};
        QCOMPARE(lf::out_of_memory_message("cuda:0", "the training plan", device),
                 std::string("out of GPU memory on cuda:0 for the training plan: it asked for 512.0 MiB and 100.0 MiB "
                             "is free on the device (cudaMalloc: out of memory (cudaErrorMemoryAllocation 2)); lower "
                             "the batch size"));
        const lf::ArenaRefusal limit{64 * kMiB, 16 * kMiB, true, ""};
        QCOMPARE(lf::out_of_memory_message("cuda:0", "the model's weights", limit),
                 std::string("out of GPU memory on cuda:0 for the model's weights: it asked for 64.0 MiB and 16.0 MiB "
                             "is free within the memory limit (training.gpu_memory_limit_mib, --gpu-memory-limit); "
                             "lower the batch size or raise the limit"));
    }

    // need(b) = 10 MiB + b MiB: in 50 MiB of room, 40 is the largest batch.
    void the_largest_batch_that_fits_is_found() {
        auto need = [](std::int64_t b) { return 10 * kMiB + std::uint64_t(b) * kMiB; };
        QCOMPARE(lf::largest_batch_that_fits({128, need, 50 * kMiB}), std::int64_t(40));
        QCOMPARE(lf::largest_batch_that_fits({41, need, 50 * kMiB}), std::int64_t(40));
        QCOMPARE(lf::largest_batch_that_fits({30, need, 50 * kMiB}), std::int64_t(29));  // below the batch asked
        QCOMPARE(lf::largest_batch_that_fits({128, need, 10 * kMiB}), std::int64_t(0));
        QCOMPARE(lf::largest_batch_that_fits({1, need, 50 * kMiB}), std::int64_t(0));
    }

    // The suggestion uses the engine's own estimate: the batch it names fits, one more does not.
    void the_suggested_batch_fits_by_the_plans_estimate() {
        lf::Project p = lf::load_project(templates_dir() + "fashion_cnn.lfproj");
        const lf::Model model(p.graph);
        auto need = [&](std::int64_t b) {
            return std::uint64_t(
                lf::backend_for("cpu").estimate(model, {.device = "cpu", .batch = b, .mode = lf::PlanMode::Train}).total());
        };
        const lf::BatchFit fit{256, need, need(100) + need(101) / 2 - need(100) / 2};  // between 100 and 101
        QCOMPARE(lf::largest_batch_that_fits(fit), std::int64_t(100));
        const std::string m = lf::out_of_memory_message("cuda:0", "the training plan", {need(256), fit.room}, fit);
        QVERIFY2(m.find("; batch size 100 fits (about ") != std::string::npos, m.c_str());
        QVERIFY2(m.find("where batch size 256 needs ") != std::string::npos, m.c_str());
        const std::string none = lf::out_of_memory_message("cuda:0", "the training plan", {need(256), 1024, true},
                                                           lf::BatchFit{256, need, 1024});
        QVERIFY2(none.find("not even batch size 1 fits") != std::string::npos, none.c_str());
        QVERIFY2(none.ends_with("make the model smaller or raise the limit"), none.c_str());
    }

    // A refused DeviceBuffer throws the message; a granted one counts in the engine's account.
    void device_buffers_count_in_the_engine_account() {
        HostDevice dev(8 * kMiB);
        lf::DeviceArena arena("cuda:7", dev);
        const std::uint64_t before = lf::memory_in_use("cuda:7").total();
        {
            lf::DeviceBuffer w(arena, 3 * kMiB, {.weights = 3 * kMiB}, "the model's weights");
            lf::DeviceBuffer moved = std::move(w);
            QCOMPARE(lf::memory_in_use("cuda:7").weights, std::size_t(3 * kMiB));
            QCOMPARE(lf::memory_in_use("cuda:7").total(), before + 3 * kMiB);
            QCOMPARE(arena.held(), 3 * kMiB);
            QVERIFY(moved.data() && !w.data());
            LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Runtime,
                                    lf::DeviceBuffer(arena, 6 * kMiB, {.activations = 6 * kMiB}, "the training plan"),
                                    "out of GPU memory on cuda:7 for the training plan", "asked for 6.0 MiB",
                                    "5.0 MiB is free");
        }
        QCOMPARE(lf::memory_in_use("cuda:7").total(), before);
        QCOMPARE(arena.held(), std::uint64_t(0));
        QCOMPARE(dev.blocks(), std::size_t(0));
    }

    void the_policy_is_a_project_setting() {
        lf::Project p = lf::load_project(templates_dir() + "fashion_mlp.lfproj");
        QCOMPARE(p.training.gpu_memory_limit_mib, std::int64_t(0));
        QVERIFY(lf::serialize_project(p).find("gpu_memory_limit_mib") == std::string::npos);  // files stay as they were
        p.training.gpu_memory_limit_mib = 2048;
        const lf::Project back = lf::parse_project(lf::serialize_project(p));
        QCOMPARE(back.training.gpu_memory_limit_mib, std::int64_t(2048));
        std::string bad = lf::serialize_project(p);
        bad.replace(bad.find("2048"), 4, "-1");
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::parse_project(bad, "bad.lfproj"), "bad.lfproj",
                                "gpu_memory_limit_mib");
        lf::set_memory_limit("cpu", 1 << 30);  // the CPU has no such policy: accepted, changes nothing
        LF_EXPECT_ERROR_OF_KIND(lf::ErrorKind::Input, lf::set_memory_limit("cuda:9", 1), "cuda:9");
    }

    // Same shape, same key; any field that changes cuDNN's choice makes another key.
    void algorithm_cache_keys_follow_the_shape() {
        const lf::Shape in{28, 28, 1};
        const lf::Window2D same = lf::conv_window(in, {5, 5}, {1, 1}, {1, 1}, "same", "conv");
        const auto key = lf::conv_algo_key(lf::ConvPass::Forward, 50, in, 32, 1, same, "float32", "fp32", 90);
        QCOMPARE(lf::to_string(key),
                 std::string("fwd n50 c1 h28 w28 k32 r5 s5 pad2,2,2,2 stride1,1 dil1,1 g1 float32 fp32 sm90"));
        QCOMPARE(key, lf::conv_algo_key(lf::ConvPass::Forward, 50, in, 32, 1, same, "float32", "fp32", 90));
        // TensorFlow's 'same' with stride 2 over an even size pads only the bottom and right.
        const lf::Window2D s2 = lf::conv_window(in, {3, 3}, {2, 2}, {1, 1}, "same", "conv");
        QCOMPARE(lf::to_string(lf::conv_algo_key(lf::ConvPass::Forward, 50, in, 32, 1, s2, "float32", "fp32", 90)),
                 std::string("fwd n50 c1 h28 w28 k32 r3 s3 pad0,1,0,1 stride2,2 dil1,1 g1 float32 fp32 sm90"));
        std::set<lf::ConvAlgoKey> keys{key};
        auto differs = [&](lf::ConvAlgoKey k) { return keys.insert(k).second; };
        auto k = key;
        k.pass = lf::ConvPass::BackwardData;
        QVERIFY(differs(k));
        k = key, k.n = 18;  // the last partial batch
        QVERIFY(differs(k));
        k = key, k.groups = 32;
        QVERIFY(differs(k));
        k = key, k.data_type = "bfloat16";
        QVERIFY(differs(k));
        k = key, k.math = "tf32";
        QVERIFY(differs(k));
        k = key, k.cc = 80;
        QVERIFY(differs(k));
        QVERIFY(differs(lf::conv_algo_key(lf::ConvPass::Forward, 50, in, 32, 1,
                                          lf::conv_window(in, {5, 5}, {1, 1}, {1, 1}, "valid", "conv"), "float32", "fp32",
                                          90)));
        QCOMPARE(keys.size(), std::size_t(8));
    }

    void the_cache_keeps_the_first_answer_per_key() {
        lf::ConvAlgoCache cache;
        const lf::Shape in{28, 28, 1};
        const auto key = lf::conv_algo_key(lf::ConvPass::Forward, 50, in, 32, 1,
                                           lf::conv_window(in, {5, 5}, {1, 1}, {1, 1}, "same", "conv"), "float32",
                                           "fp32", 90);
        QVERIFY(!cache.find(key));
        QCOMPARE(cache.insert(key, {1, 4096}).algo, 1);
        QCOMPARE(cache.insert(key, {6, 0}).algo, 1);  // a second plan's answer does not replace it
        QCOMPARE(cache.find(key)->workspace_bytes, std::size_t(4096));
        auto other = key;
        other.n = 18;
        QVERIFY(!cache.find(other));
        QCOMPARE(cache.size(), std::size_t(1));
        QCOMPARE(cache.hits(), std::size_t(1));
        QCOMPARE(cache.misses(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestDeviceArena)
#include "test_device_arena.moc"
