#include <QtTest>

#include "layerforge/core/shape.h"

class TestShape : public QObject {
    Q_OBJECT
private slots:
    void str_uses_keras_notation() {
        QCOMPARE(QString::fromStdString(lf::Shape({28, 28, 1}).str()), QString("(?, 28, 28, 1)"));
        QCOMPARE(lf::Shape({28, 28, 1}).elements(), lf::Dim(784));
    }
};

QTEST_APPLESS_MAIN(TestShape)
#include "test_shape.moc"
