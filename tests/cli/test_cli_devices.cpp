// layerforge-cli devices: the CPU always, and without a GPU the reason, in text and in JSON;
// a module that cannot be found is reported as such (LF_CUDA_MODULE pointing nowhere); --device
// on train, evaluate, predict and sweep.
#include <QtTest>

#include "backend/cuda/module_loader.h"
#include "cli_runner.h"
#include "layerforge/store/run_store.h"

class TestCliDevices : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

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

    // --device on every command that computes: a GPU where none is offered is a usage error
    // naming the devices there are and why, before any file is read or a run recorded.
    void a_gpu_device_without_a_gpu_is_refused_with_the_reason() {
        if (lf::cuda_driver_present()) QSKIP("this machine has a CUDA driver: the GPU case is the gpu suite's");
        const QString p = mlpProjectCopy(dir_, "device");
        const QList<QStringList> commands = {{"train", p}, {"evaluate", p}, {"predict", p, "x.png"},
                                             {"sweep", p, "--grid", "learning_rate=1e-3"}};
        for (QStringList args : commands) {
            const CliRun r = cli(args << "--device" << "cuda:0");
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("option --device: device 'cuda:0' is not available (devices: cpu); no GPU: "),
                     qPrintable(args.join(' ') + ": " + r.err));
        }
        // Plain "cuda" is the process's own GPU: cuda:0, or cuda:<local rank> under mpirun.
        const CliRun plain = cli({"train", p, "--device", "cuda"});
        QCOMPARE(plain.code, 2);
        QVERIFY2(plain.err.contains("option --device: device 'cuda:0' is not available (devices: cpu)"),
                 qPrintable(plain.err));
        const CliRun other = cli({"train", p, "--device", "tpu:0"});
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.contains("device 'tpu:0' is not available (devices: cpu)") && !other.err.contains("no GPU"),
                 qPrintable(other.err));
        QVERIFY(!QFile::exists(QString::fromStdString(lf::RunStore::path_for_project(p.toStdString()))));
    }

    void the_cpu_device_trains_and_is_recorded() {
        const QString p = mlpProjectCopy(dir_, "cpu");
        const CliRun r = cli({"train", p, "--device", "cpu", "--epochs", "1", "--limit-train", "200", "--limit-test", "50"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        lf::RunStore store(lf::RunStore::path_for_project(p.toStdString()));
        QCOMPARE(store.run(1).device, std::string("cpu"));
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
