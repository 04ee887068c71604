// The .deb: cpack builds it from this build tree, `dpkg -x` unpacks it into a scratch root, its
// contents are checked (binaries, plugins, templates, desktop entry, MIME type, icons, Depends)
// and the unpacked layerforge-cli runs: --version, its plugins from the installed folder, and a
// few training steps on an installed template.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "mpi_environment.h"

namespace {

struct Result {
    int code = -1;
    QString out, err;
};

Result run(const QString& program, const QStringList& args, int timeout_ms = 300000) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_DATA_HOME", QDir::tempPath() + "/lf-package-test-no-user-plugins");
    env.remove("LF_PLUGIN_PATH");
    env.remove("LF_CUDA_MODULE");  // the installed one, found beside the binary
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeout_ms)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Width and height from a PNG's IHDR chunk; {0, 0} when the file is no PNG.
QPair<int, int> pngSize(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {0, 0};
    const QByteArray h = f.read(24);
    if (h.size() < 24 || !h.startsWith("\x89PNG")) return {0, 0};
    auto be32 = [&](int at) {
        return int((uchar(h[at]) << 24) | (uchar(h[at + 1]) << 16) | (uchar(h[at + 2]) << 8) | uchar(h[at + 3]));
    };
    return {be32(16), be32(20)};
}

}  // namespace

class TestPackage : public QObject {
    Q_OBJECT
    QTemporaryDir scratch_;
    QString deb_, root_;

private slots:
    void initTestCase() {
        QVERIFY(scratch_.isValid());
        const QString build = qEnvironmentVariable("LF_BUILD_DIR");
        const Result pack = run(qEnvironmentVariable("LF_CPACK"),
                                {"-G", "DEB", "--config", build + "/CPackConfig.cmake", "-B", scratch_.filePath("out")});
        QVERIFY2(pack.code == 0, qPrintable(pack.out + pack.err));
        const QStringList debs = QDir(scratch_.filePath("out")).entryList({"*.deb"}, QDir::Files);
        QCOMPARE(debs.size(), 1);
        QVERIFY2(debs[0].startsWith("layerforge_0.1.0_") && debs[0].endsWith(".deb"), qPrintable(debs[0]));
        deb_ = scratch_.filePath("out/" + debs[0]);
        root_ = scratch_.filePath("root");
        const Result x = run("dpkg", {"-x", deb_, root_});
        QVERIFY2(x.code == 0, qPrintable(x.err));
    }

    void installs_binaries_plugins_and_templates() {
        for (const char* f : {"usr/bin/layerforge", "usr/bin/layerforge-cli"})
            QVERIFY2(QFileInfo(root_ + "/" + f).isExecutable(), f);
        for (const char* f : {"liblf_tutorial_plugin.so", "liblf_swish_plugin.so"})
            QVERIFY2(QFile::exists(root_ + "/usr/lib/layerforge/plugins/" + f), f);
        const QStringList installed = QDir(root_ + "/usr/share/layerforge/templates").entryList({"*.lfproj"});
        const QStringList source = QDir(qEnvironmentVariable("LF_SOURCE_DIR") + "/resources/templates").entryList({"*.lfproj"});
        QVERIFY(!source.isEmpty());
        QCOMPARE(installed, source);
    }

    void installs_the_desktop_entry_mime_type_and_icons() {
        const QString desktop = readText(root_ + "/usr/share/applications/layerforge.desktop");
        QVERIFY(desktop.contains("\nExec=layerforge %f\n"));
        QVERIFY(desktop.contains("\nIcon=layerforge\n"));
        QVERIFY(desktop.contains("\nMimeType=application/x-layerforge-project;\n"));
        const QString mime = readText(root_ + "/usr/share/mime/packages/layerforge.xml");
        QVERIFY(mime.contains("<mime-type type=\"application/x-layerforge-project\">"));
        QVERIFY(mime.contains("<glob pattern=\"*.lfproj\"/>"));
        for (int size : {16, 24, 32, 48, 64, 128, 256, 512}) {
            const QString png = root_ + QString("/usr/share/icons/hicolor/%1x%1/apps/layerforge.png").arg(size);
            QCOMPARE(pngSize(png), qMakePair(size, size));
        }
        QVERIFY(readText(root_ + "/usr/share/icons/hicolor/scalable/apps/layerforge.svg").contains("<svg"));
    }

    void depends_on_the_libraries_it_needs() {
        const Result r = run("dpkg-deb", {"-f", deb_, "Depends"});
        QCOMPARE(r.code, 0);
        for (const char* dep : {"libqt6core6", "libqt6gui6", "libqt6widgets6", "libdnnl", "libsqlite3-0", "libturbojpeg0",
                                "libstdc++6"})
            QVERIFY2(r.out.contains(dep), qPrintable(QString("%1 missing in Depends: %2").arg(dep, r.out)));
        QVERIFY(run("dpkg-deb", {"-f", deb_, "Recommends"}).out.contains("fonts-noto-cjk"));
    }

    void the_installed_cli_runs_and_finds_its_plugins() {
        const Result v = run(root_ + "/usr/bin/layerforge-cli", {"--version"});
        QCOMPARE(v.code, 0);
        QCOMPARE(v.out.trimmed(), QString("layerforge-cli 0.1.0"));
        const Result p = run(root_ + "/usr/bin/layerforge-cli", {"plugins"});
        QVERIFY2(p.code == 0, qPrintable(p.err));
        QVERIFY2(p.out.contains("layers: LinearLayer") && p.out.contains("layers: Swish"), qPrintable(p.out));
    }

    // The CUDA module installs beside the plugins' folder and the installed CLI finds it there (the
    // reason is then about the driver, not a missing module); no Depends names CUDA (TOOLCHAIN.md 4).
    void the_installed_cli_finds_the_cuda_module() {
        if (QString(LF_BUILT_CUDA_MODULE).isEmpty()) QSKIP("this build has no CUDA module");
        QVERIFY(QFile::exists(root_ + "/usr/lib/layerforge/liblayerforge_cuda.so"));
        QVERIFY(!run("dpkg-deb", {"-f", deb_, "Depends"}).out.contains("cuda"));
        const Result d = run(root_ + "/usr/bin/layerforge-cli", {"devices", "--json"});
        QVERIFY2(d.code == 0, qPrintable(d.err));
        QVERIFY2(!d.out.contains("was not found") && !d.out.contains("could not be loaded"), qPrintable(d.out));
    }

    // The MPI module installs beside the CUDA one; the installed CLI opens it for a 2-process run.
    void the_installed_cli_trains_with_two_processes() {
        if (!QString(LF_BUILT_MPI_MODULE).toInt()) QSKIP("this build has no MPI module");
        QVERIFY(QFile::exists(root_ + "/usr/lib/layerforge/liblayerforge_mpi.so"));
        QVERIFY(run("dpkg-deb", {"-f", deb_, "Recommends"}).out.contains("openmpi-bin"));
        const QString project = QDir::temp().filePath("lf_package_mpi.lfproj");
        QFile::remove(project);
        QVERIFY(QFile::copy(root_ + "/usr/share/layerforge/templates/fashion_mlp.lfproj", project));
        QFile::setPermissions(project, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QProcess p;
        QProcessEnvironment env = mpiEnvironment();
        env.remove("LF_MPI_MODULE");  // the installed one
        p.setProcessEnvironment(env);
        p.start("mpirun", {"-np", "2", root_ + "/usr/bin/layerforge-cli", "train", project, "--distributed", "--epochs",
                           "1", "--limit-train", "100", "--limit-test", "50", "--json"});
        QVERIFY(p.waitForFinished(120000));
        const QString out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0 && out.contains("\"status\":\"finished\","), qPrintable(out.right(2000) + p.readAllStandardError()));
    }

    void the_installed_cli_trains_an_installed_template() {
        const QString project = root_ + "/usr/share/layerforge/templates/fashion_mlp.lfproj";
        const Result t = run(root_ + "/usr/bin/layerforge-cli",
                             {"train", project, "--epochs", "1", "--limit-train", "100", "--limit-test", "50", "--json"});
        QVERIFY2(t.code == 0, qPrintable(t.err + t.out.right(2000)));
        QVERIFY2(t.out.contains("\"event\":\"epoch_end\"") && t.out.contains("\"status\":\"finished\",") &&
                     t.out.contains("\"steps\":2,"),  // 100 samples in batches of 50
                 qPrintable(t.out.right(2000)));
        QVERIFY(QFile::exists(root_ + "/usr/share/layerforge/templates/fashion_mlp.weights.safetensors"));
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "test_package.moc"
