// layerforge: the studio. Until the canvas lands (issue: the studio), it opens a project and
// shows its model summary and any diagnostics, read from the same engine the CLI uses.
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "layerforge/core/error.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/project/project.h"

namespace {

QTreeWidget* summary_tree(const lf::Project& p, const lf::Analysis& a) {
    auto* tree = new QTreeWidget;
    tree->setRootIsDecorated(false);
    tree->setHeaderLabels({QObject::tr("Layer"), QObject::tr("Type"), QObject::tr("Output shape"),
                           QObject::tr("Parameters"), QObject::tr("Problems")});
    for (const lf::Node& n : p.graph.nodes) {
        const lf::NodeInfo& info = a.nodes.at(n.id);
        QString problems;
        for (const lf::Diagnostic& d : a.for_node(n.id)) problems += QString::fromStdString(d.message) + " ";
        tree->addTopLevelItem(new QTreeWidgetItem(
            {QString::fromStdString(n.name), QString::fromStdString(n.type),
             info.shaped ? QString::fromStdString(info.layer.output.str()) : QStringLiteral("?"),
             QLocale().toString(qlonglong(info.param_count)), problems.trimmed()}));
    }
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return tree;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Layerforge");
    QMainWindow window;
    window.resize(900, 420);
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    window.setWindowTitle(path.isEmpty() ? QObject::tr("Layerforge") : QObject::tr("%1 — Layerforge").arg(path));
    if (path.isEmpty()) {
        window.setCentralWidget(new QLabel(QObject::tr("Open a project: layerforge PROJECT.lfproj")));
    } else {
        try {
            lf::Project p = lf::load_project(path.toStdString());
            lf::Analysis a = lf::analyze(p.graph);
            window.setCentralWidget(summary_tree(p, a));
            window.statusBar()->showMessage(QObject::tr("%1 layers   %2 parameters   %3 FLOPs per sample   %4")
                                                .arg(p.graph.nodes.size())
                                                .arg(QLocale().toString(qlonglong(a.total_params)))
                                                .arg(QLocale().toString(qlonglong(a.flops)))
                                                .arg(a.ok() ? QObject::tr("valid") : QObject::tr("has errors")));
        } catch (const lf::Error& e) {
            QMessageBox::critical(nullptr, QObject::tr("Cannot open project"), QString::fromStdString(e.what()));
            return 2;
        }
    }
    window.show();
    return app.exec();
}
