// Both executables run oneDNN's OpenMP threads passive unless the user chose a policy
// (app/common/openmp_policy.cpp says why). libgomp prints the settings it runs with when
// OMP_DISPLAY_ENV=verbose, once per start: the last print is the process that ran.
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

namespace {

// The last "NAME = 'VALUE'" libgomp printed to stderr for `name`, or "" if none.
QString lastSetting(const QString& program, const QStringList& args, const QString& waitPolicy, const QString& name) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("OMP_WAIT_POLICY");
    if (!waitPolicy.isEmpty()) env.insert("OMP_WAIT_POLICY", waitPolicy);
    env.insert("OMP_DISPLAY_ENV", "verbose");
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(60000)) return "did not finish";
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    QString value;
    auto it = QRegularExpression("\\b" + name + " = '([^']*)'").globalMatch(err);
    while (it.hasNext()) value = it.next().captured(1);
    return value;
}

}  // namespace

class TestStartupPolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void executables_data() {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("layerforge-cli train") << qEnvironmentVariable("LF_CLI") << QStringList{"train", "--help"};
        QTest::newRow("layerforge") << qEnvironmentVariable("LF_STUDIO") << QStringList{"-platform", "offscreen", "--help"};
    }

    void executables() {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        QVERIFY2(QFileInfo(program).isExecutable(), qPrintable(program));
        // Unset: restarted passive, so idle threads sleep at once (libgomp's spin count 0).
        QCOMPARE(lastSetting(program, args, "", "OMP_WAIT_POLICY"), QString("PASSIVE"));
        QCOMPARE(lastSetting(program, args, "", "GOMP_SPINCOUNT"), QString("0"));
        // The user's choice stands.
        QCOMPARE(lastSetting(program, args, "active", "OMP_WAIT_POLICY"), QString("ACTIVE"));
    }

    // Bookkeeping commands run no kernel, so they start once with libgomp's defaults (its spin
    // count; OMP_DISPLAY_ENV prints the unset policy as PASSIVE too, so that says nothing).
    void bookkeepingCommandsStartOnce() {
        const QString cli = qEnvironmentVariable("LF_CLI");
        for (const QStringList& args : {QStringList{"layers", "--json"}, QStringList{"runs", "--help"}}) {
            QCOMPARE(lastSetting(cli, args, "", "GOMP_SPINCOUNT"), QString("300000"));
        }
    }
};

QTEST_GUILESS_MAIN(TestStartupPolicy)
#include "test_startup_policy.moc"
