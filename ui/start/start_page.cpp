#include "start/start_page.h"

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "layerforge/core/error.h"
#include "start/template_preview.h"

namespace lf::ui {

namespace {

const char* const kShowKey = "startPage/showAtStart";
constexpr QSize kPicture(168, 84);

QLabel* heading(const QString& text) {
    auto* l = new QLabel(text);
    QFont f = l->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    l->setFont(f);
    return l;
}

}  // namespace

StartPage::StartPage(const QStringList& recent, const QString& templateDir, QWidget* parent)
    : QDialog(parent), recent_(new QListWidget), templates_(new QListWidget), atStart_(new QCheckBox(tr("Show at start"))) {
    setWindowTitle(tr("Start — Layerforge"));
    setObjectName("startPage");
    templates_->setViewMode(QListView::IconMode);
    templates_->setIconSize(kPicture);
    templates_->setGridSize(QSize(kPicture.width() + 24, kPicture.height() + 70));
    templates_->setResizeMode(QListView::Adjust);
    templates_->setMovement(QListView::Static);
    templates_->setWordWrap(true);
    fillRecent(recent);
    fillTemplates(templateDir);
    atStart_->setChecked(showAtStart());

    auto* actions = new QVBoxLayout;
    actions->addWidget(heading(tr("Start")));
    actions->addWidget(action(tr("Blank project"), "blank", &StartPage::newBlank));
    actions->addWidget(action(tr("Open…"), "open", &StartPage::openDialog));
    actions->addWidget(action(tr("Example: CNN on Fashion-MNIST"), "example", &StartPage::openExample));
    actions->addWidget(action(tr("Import a model…"), "import", &StartPage::importModel));
    actions->addWidget(action(tr("Open an image folder…"), "imageFolder", &StartPage::openImageFolder));
    actions->addSpacing(12);
    actions->addWidget(heading(tr("Recent projects")));
    actions->addWidget(recent_, 1);

    auto* right = new QVBoxLayout;
    right->addWidget(heading(tr("Templates")));
    right->addWidget(templates_, 1);

    auto* columns = new QHBoxLayout;
    columns->addLayout(actions, 1);
    columns->addLayout(right, 2);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(atStart_);
    bottom->addStretch(1);
    auto* close = new QPushButton(tr("Close"));
    bottom->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addLayout(bottom);

    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(atStart_, &QCheckBox::toggled, this, &StartPage::setShowAtStart);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        accept();
        Q_EMIT openProject(item->data(PathRole).toString());
    });
    connect(templates_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        accept();
        Q_EMIT newFromTemplate(item->data(PathRole).toString());
    });
    resize(900, 560);
}

QPushButton* StartPage::action(const QString& text, const QString& name, void (StartPage::*signal)()) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    connect(b, &QPushButton::clicked, this, [this, signal] {
        accept();
        Q_EMIT(this->*signal)();
    });
    return b;
}

QPushButton* StartPage::button(const QString& objectName) const { return findChild<QPushButton*>(objectName); }

void StartPage::fillRecent(const QStringList& recent) {
    for (const QString& path : recent) {
        if (!QFileInfo::exists(path)) continue;
        auto* item = new QListWidgetItem(QFileInfo(path).completeBaseName(), recent_);
        item->setData(PathRole, path);
        item->setToolTip(path);
    }
    if (recent_->count() == 0) {
        auto* none = new QListWidgetItem(tr("No recent projects"), recent_);
        none->setFlags(Qt::NoItemFlags);
    }
}

void StartPage::fillTemplates(const QString& dir) {
    for (const QFileInfo& f : QDir(dir).entryInfoList({"*.lfproj"}, QDir::Files, QDir::Name)) {
        QString line;
        QImage picture;
        try {
            const Project p = load_project(f.absoluteFilePath().toStdString());
            picture = graphPicture(p.graph, kPicture);
            line = templateLine(p);
        } catch (const Error& e) {
            line = QString::fromStdString(e.what());
        }
        auto* item = new QListWidgetItem(QIcon(QPixmap::fromImage(picture)), f.completeBaseName() + "\n" + line, templates_);
        item->setData(PathRole, f.absoluteFilePath());
        item->setToolTip(line);
        item->setSizeHint(templates_->gridSize());
    }
}

bool StartPage::showAtStart() { return QSettings().value(kShowKey, true).toBool(); }
void StartPage::setShowAtStart(bool show) { QSettings().setValue(kShowKey, show); }

}  // namespace lf::ui
