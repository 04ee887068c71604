// The studio binary loads plugins at startup: a refused plugin is reported in the log and the
// studio keeps running; a good one loads beside it.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestStudioPlugins : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsDespiteARefusedPlugin() {
        QTemporaryDir home;
        QProcess studio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", home.path());
        env.insert("XDG_CONFIG_HOME", home.path());
        env.insert("LF_PLUGIN_PATH", qEnvironmentVariable("LF_FIXTURE_PLUGIN_DIR") + "/clash:" +
                                         qEnvironmentVariable("LF_PLUGIN_BUILD_DIR"));
        studio.setProcessEnvironment(env);
        studio.start(qEnvironmentVariable("LF_STUDIO"), {"-platform", "offscreen"});
        QVERIFY2(studio.waitForStarted(10000), qPrintable(qEnvironmentVariable("LF_STUDIO")));
        QString log;
        QTRY_VERIFY_WITH_TIMEOUT((log += studio.readAllStandardError()).contains("liblf_fixture_clash.so refused"), 15000);
        QVERIFY2(log.contains("layer type 'Dense' is already registered by a built-in layer"), qPrintable(log));
        QVERIFY2(!log.contains("liblf_tutorial_plugin.so refused"), qPrintable(log));
        QTest::qWait(1500);  // past startup: the window is up
        QCOMPARE(studio.state(), QProcess::Running);
        studio.kill();
        studio.waitForFinished(5000);
    }
};

QTEST_GUILESS_MAIN(TestStudioPlugins)
#include "test_studio_plugins.moc"
