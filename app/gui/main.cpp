#include <QApplication>
#include <QLabel>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QLabel label(QObject::tr("Layerforge"));
    label.resize(640, 400);
    label.show();
    return app.exec();
}
