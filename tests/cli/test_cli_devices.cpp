// layerforge-cli devices: the CPU always, and without a GPU the reason, in text and in JSON;
// a module that cannot be found is reported as such (LF_CUDA_MODULE pointing nowhere).
#include <QtTest>

#include "backend/cuda/module_loader.h"
#include "cli_runner.h"

class TestCliDevices : public QObject {
    Q_OBJECT
private slots:
    void json_lists_the_cpu_and_says_why_there_is_no_gpu() {
        if (lf::cuda_driver_present()) QSKIP("this machine has a CUDA driver: the GPU case is the gpu suite's");
        const CliRun r = cli({"devices", "--json"});
        QCOMPARE(r.code, 0);
        const auto lines = r.lines();
        QCOMPARE(lines.size(), std::size_t(1));
        const auto& j = lines[0];
        QCOMPARE(j["event"], "result");
        QCOMPARE(j["devices"].size(), std::size_t(1));
        QCOMPARE(j["devices"][0]["id"], "cpu");
        QVERIFY(j["devices"][0]["total_memory"].get<std::uint64_t>() > 0);
        const std::string reason = j["gpu_unavailable"].get<std::string>();
        const bool built = !qEnvironmentVariable("LF_CUDA_MODULE").isEmpty();
        QCOMPARE(reason, std::string(built ? "no CUDA driver: libcuda.so.1 not found (the NVIDIA driver is not installed)"
                                           : "no CUDA backend in this build"));
    }

    void text_names_the_reason() {
        if (lf::cuda_driver_present()) QSKIP("this machine has a CUDA driver");
        const CliRun r = cli({"devices"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("cpu  "), qPrintable(r.out));
        QVERIFY2(r.out.contains("\nno GPU: "), qPrintable(r.out));
    }

    void a_missing_module_is_named() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LF_CUDA_MODULE", "/nonexistent/liblayerforge_cuda.so");
        const CliRun r = cli({"devices", "--json"}, env);
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lines().at(0)["gpu_unavailable"],
                 "the CUDA backend module was not found (looked for /nonexistent/liblayerforge_cuda.so)");
    }
};

QTEST_GUILESS_MAIN(TestCliDevices)
#include "test_cli_devices.moc"
