#include "mainwindow/help_dialogs.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include "layerforge/devices/devices.h"

namespace lf::ui {

namespace {

struct Help {
    Q_DECLARE_TR_FUNCTIONS(Help)
};

QString plain(QString text) { return text.remove(QLatin1Char('&')); }

// "Edit > Redo", "Ctrl+Shift+Z, Ctrl+Y" for every action with keys, submenus included.
void collect(const QMenu* menu, const QString& path, QList<QPair<QString, QString>>& rows) {
    for (QAction* a : menu->actions()) {
        if (a->menu()) collect(a->menu(), path + plain(a->menu()->title()) + QStringLiteral(" > "), rows);
        else if (!a->shortcuts().isEmpty())
            rows.append({path + plain(a->text()), QKeySequence::listToString(a->shortcuts(), QKeySequence::NativeText)});
    }
}

}  // namespace

QString aboutText() {
    QStringList lines{Help::tr("Layerforge %1, a deep-learning studio").arg(QStringLiteral(LF_VERSION)),
                      Help::tr("Qt %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR))};
    for (const auto& b : backends().all())
        if (!b->library().empty())
            lines << Help::tr("%1 backend: %2").arg(QString::fromStdString(b->name()), QString::fromStdString(b->library()));
    const DeviceList devices = list_devices();
    QStringList gpus;
    for (const DeviceInfo& d : devices.devices)
        if (d.kind == "cuda") gpus << QString::fromStdString(d.name);
    lines << (gpus.isEmpty() ? Help::tr("CUDA: %1").arg(QString::fromStdString(devices.gpu_unavailable))
                             : Help::tr("CUDA: %1").arg(gpus.join(QStringLiteral(", "))));
    return lines.join(QLatin1Char('\n'));
}

QDialog* shortcutsDialog(QMainWindow* window) {
    QList<QPair<QString, QString>> rows;
    for (QAction* a : window->menuBar()->actions())
        if (a->menu()) collect(a->menu(), plain(a->menu()->title()) + QStringLiteral(" > "), rows);
    auto* dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setWindowTitle(Help::tr("Keyboard shortcuts"));
    auto* table = new QTableWidget(int(rows.size()), 2, dialog);
    table->setHorizontalHeaderLabels({Help::tr("Command"), Help::tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < rows.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(520, 480);
    return dialog;
}

}  // namespace lf::ui
