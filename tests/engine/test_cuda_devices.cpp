// The CUDA backend's start-up without a GPU: the module is found, opened and checked, and every
// way it can fail becomes the reason the device list gives (no module, a module that does not
// load, one from another build, no driver, the runtime's own error, no device), while the CPU
// stays the device. On a machine with a driver the driverless cases are skipped with that reason.
#include <QtTest>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/module_loader.h"
#include "layerforge/devices/devices.h"

namespace {

bool always() { return true; }
bool never() { return false; }

// The module of this build, or "" when the toolkit was not found at configure time.
std::string built_module() { return LF_BUILT_CUDA_MODULE; }

}  // namespace

class TestCudaDevices : public QObject {
    Q_OBJECT
private slots:
    // The registry looks next to the executable; this test is not there (ctest sets it too).
    void initTestCase() {
        if (!built_module().empty()) qputenv("LF_CUDA_MODULE", built_module().c_str());
    }

    void module_opens_and_reports_its_libraries() {
        if (built_module().empty()) QSKIP("this build has no CUDA module (no nvcc or cuDNN at configure time)");
        const lf::CudaModuleLoad load = lf::load_cuda_module_at(built_module());
        QVERIFY2(load.module, load.reason.c_str());
        QCOMPARE(load.module->api->abi_version, LF_CUDA_ABI_VERSION);
        QVERIFY(load.module->api->runtime_version >= 13000);  // no driver needed for these
        QVERIFY(load.module->api->cudnn_version >= 90000);
        QVERIFY(load.module->api->cublas_version >= 130000);
    }

    void no_driver_is_the_reason() {
        if (built_module().empty()) QSKIP("this build has no CUDA module");
        const lf::CudaProbe p = lf::probe_cuda(lf::load_cuda_module_at(built_module()), never);
        QVERIFY(!p.backend);
        QCOMPARE(p.reason, std::string("no CUDA driver: libcuda.so.1 not found (the NVIDIA driver is not installed)"));
    }

    // Past the driver check, the runtime's answer: 35 (insufficient driver) without libcuda here.
    void the_runtimes_error_is_the_reason() {
        if (built_module().empty()) QSKIP("this build has no CUDA module");
        if (lf::cuda_driver_present()) QSKIP("this machine has a CUDA driver: the runtime does not fail here");
        const lf::CudaProbe p = lf::probe_cuda(lf::load_cuda_module_at(built_module()), always);
        QVERIFY(!p.backend);
        QVERIFY2(p.reason.find("cudaGetDeviceCount") != std::string::npos, p.reason.c_str());
        QVERIFY2(p.reason.find("cudaErrorInsufficientDriver 35") != std::string::npos, p.reason.c_str());
    }

    void the_device_list_degrades_to_the_cpu_with_the_reason() {
        if (lf::cuda_driver_present()) QSKIP("this machine has a CUDA driver");
        const lf::DeviceList list = lf::list_devices();
        QCOMPARE(list.devices.size(), std::size_t(1));
        QCOMPARE(list.devices[0].id, std::string("cpu"));
        const std::string expected = built_module().empty() ? "no CUDA backend in this build"
                                                            : "no CUDA driver: libcuda.so.1 not found";
        QVERIFY2(list.gpu_unavailable.rfind(expected, 0) == 0, list.gpu_unavailable.c_str());
        QVERIFY(!lf::backends().for_device("cuda:0"));
    }

    void a_module_that_does_not_load_says_why() {
        const lf::CudaModuleLoad missing = lf::load_cuda_module_at("/nonexistent/liblayerforge_cuda.so");
        QVERIFY(!missing.module);
        QCOMPARE(missing.reason, std::string("the CUDA backend module could not be loaded: cannot open shared object "
                                             "file: No such file or directory"));
        const std::string not_elf = std::string(LF_TEST_SOURCE_DIR) + "/CMakeLists.txt";
        QCOMPARE(lf::load_cuda_module_at(not_elf).reason,
                 std::string("the CUDA backend module could not be loaded: invalid ELF header"));
    }

    void a_module_of_another_build_is_refused_with_both_versions() {
        const lf::CudaModuleLoad load = lf::load_cuda_module_at(LF_ABI_MISMATCH_MODULE);
        QVERIFY(!load.module);
        QVERIFY2(load.reason.find("was built for another version of Layerforge (ABI 0, table of 16 bytes; this engine "
                                  "expects ABI " + std::to_string(LF_CUDA_ABI_VERSION)) != std::string::npos,
                 load.reason.c_str());
    }

    void the_override_variable_is_the_only_candidate() {
        qputenv("LF_CUDA_MODULE", "/somewhere/else.so");
        QCOMPARE(lf::cuda_module_candidates(), std::vector<std::string>{"/somewhere/else.so"});
        qunsetenv("LF_CUDA_MODULE");
        const auto c = lf::cuda_module_candidates();  // next to the executable, then the installed lib dir
        QCOMPARE(c.size(), std::size_t(2));
        QVERIFY(c[0].ends_with("/tests/liblayerforge_cuda.so"));
        QVERIFY(c[1].ends_with("/tests/../lib/layerforge/liblayerforge_cuda.so"));
        qputenv("LF_CUDA_MODULE", built_module().c_str());
    }

    void dlerror_text_is_shortened() {
        QCOMPARE(lf::short_dlerror("/opt/lf/liblayerforge_cuda.so: libcudnn.so.9: cannot open shared object file",
                                   "/opt/lf/liblayerforge_cuda.so"),
                 std::string("libcudnn.so.9: cannot open shared object file"));
        const std::string long_text(400, 'x');
        const std::string s = lf::short_dlerror(long_text, "/m.so");
        QCOMPARE(s.size(), std::size_t(160));
        QVERIFY(s.ends_with("..."));
    }

    void device_ids_parse() {
        QCOMPARE(lf::cuda_device_index("cuda:0"), 0);
        QCOMPARE(lf::cuda_device_index("cuda:12"), 12);
        QCOMPARE(lf::cuda_device_index("cuda:"), -1);
        QCOMPARE(lf::cuda_device_index("cuda:1x"), -1);
        QCOMPARE(lf::cuda_device_index("cpu"), -1);
        QCOMPARE(lf::cuda_version_text(13000), std::string("13.0"));
        QCOMPARE(lf::cuda_version_text(12080), std::string("12.8"));
    }
};

QTEST_GUILESS_MAIN(TestCudaDevices)
#include "test_cuda_devices.moc"
