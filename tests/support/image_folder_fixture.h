#pragma once
// A tiny image-folder dataset and a model that trains on it in a fraction of a second, for the
// studio tests that run real training (controller, dashboard).
#include <QDir>
#include <QImage>
#include <QStringList>
#include <QtTest>

#include "layerforge/project/project.h"

// ROOT/{train,test}/{dark,mid,light}/N.png: 8x8 grey images whose brightness gives the class.
inline void writeImageFolder(const QString& root) {
    const QStringList classes{"dark", "mid", "light"};
    for (const char* split : {"train", "test"})
        for (int c = 0; c < classes.size(); ++c) {
            const QString dir = root + "/" + split + "/" + classes[c];
            QDir().mkpath(dir);
            const int count = QString(split) == "train" ? 20 : 4;
            for (int i = 0; i < count; ++i) {
                QImage img(8, 8, QImage::Format_Grayscale8);
                for (int y = 0; y < 8; ++y)
                    for (int x = 0; x < 8; ++x) {
                        const int v = 40 + 80 * c + (x * 7 + y * 3 + i) % 30;
                        img.setPixel(x, y, qRgb(v, v, v));
                    }
                QVERIFY(img.save(dir + QString("/%1.png").arg(i)));
            }
        }
}

// Input(8,8,1) -> Flatten -> Dense(3) -> Softmax, SGD, batch 4, no validation.
inline lf::Project tinyImageProject(const QString& dataset, std::int64_t epochs) {
    using namespace lf;
    Project p;
    p.name = "tiny";
    p.graph.nodes = {{"input", "Input", "input", {{"shape", IntList{8, 8, 1}}}, 0, 0},
                     {"flatten", "Flatten", "flatten", {}, 0, 0},
                     {"dense", "Dense", "dense", {{"units", std::int64_t(3)}}, 0, 0},
                     {"softmax", "Softmax", "softmax", {}, 0, 0}};
    p.graph.edges = {{{"input", 0}, {"flatten", 0}}, {{"flatten", 0}, {"dense", 0}}, {{"dense", 0}, {"softmax", 0}}};
    p.dataset.kind = "image-folder";
    p.dataset.path = dataset.toStdString();
    p.dataset.validation = "none";
    p.dataset.image["cache"] = std::string("memory");
    p.training.batch_size = 4;
    p.training.epochs = epochs;
    p.training.optimizer = {"SGD", {{"learning_rate", 0.05}}};
    return p;
}
