#include "palette/palette_panel.h"

#include <QLineEdit>
#include <QTreeWidgetItemIterator>
#include <QMimeData>
#include <QPainter>
#include <QVBoxLayout>

#include "canvas/theme.h"
#include "document/fragment.h"
#include "layerforge/layers/registry.h"

namespace lf::ui {

namespace {

constexpr int kTypeRole = Qt::UserRole + 1;

QIcon swatch(const QColor& color) {
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(color);
    p.setPen(color.darker(130));
    p.drawRoundedRect(QRectF(1, 1, 12, 12), 3, 3);
    return QIcon(pm);
}

QString categoryTitle(const std::string& category) {
    static const char* known[] = {QT_TRANSLATE_NOOP("lf::ui::PalettePanel", "Core"),
                                  QT_TRANSLATE_NOOP("lf::ui::PalettePanel", "Convolution"),
                                  QT_TRANSLATE_NOOP("lf::ui::PalettePanel", "Pooling"),
                                  QT_TRANSLATE_NOOP("lf::ui::PalettePanel", "Normalization"),
                                  QT_TRANSLATE_NOOP("lf::ui::PalettePanel", "Activation"),
                                  QT_TRANSLATE_NOOP("lf::ui::PalettePanel", "Merge")};
    for (const char* k : known)
        if (category == k) return PalettePanel::tr(k);
    return PalettePanel::tr("Plugins: %1").arg(QString::fromStdString(category));
}

}  // namespace

PaletteTree::PaletteTree(QWidget* parent) : QTreeWidget(parent) {
    setHeaderHidden(true);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setRootIsDecorated(true);
}

QStringList PaletteTree::mimeTypes() const { return {kLayerMimeType}; }

QMimeData* PaletteTree::mimeData(const QList<QTreeWidgetItem*>& items) const {
    if (items.isEmpty() || items[0]->data(0, kTypeRole).isNull()) return nullptr;
    auto* mime = new QMimeData;
    mime->setData(kLayerMimeType, items[0]->data(0, kTypeRole).toString().toUtf8());
    return mime;
}

PalettePanel::PalettePanel(QWidget* parent) : QWidget(parent), search_(new QLineEdit), tree_(new PaletteTree) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    search_->setPlaceholderText(tr("Search layers…"));
    search_->setClearButtonEnabled(true);
    layout->addWidget(search_);
    layout->addWidget(tree_);
    populate();
    connect(search_, &QLineEdit::textChanged, this, &PalettePanel::setFilter);
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (!item->data(0, kTypeRole).isNull()) Q_EMIT layerActivated(item->data(0, kTypeRole).toString());
    });
}

void PalettePanel::populate() {
    const std::vector<std::string> order = {"Core", "Convolution", "Pooling", "Normalization", "Activation", "Merge"};
    std::vector<std::string> categories = order;
    for (const LayerSpec& s : LayerRegistry::instance().all())
        if (std::find(categories.begin(), categories.end(), s.category) == categories.end())
            categories.push_back(s.category);
    for (const std::string& category : categories) {
        auto* group = new QTreeWidgetItem(tree_, {categoryTitle(category)});
        group->setFlags(Qt::ItemIsEnabled);
        group->setIcon(0, swatch(theme::categoryColor(QString::fromStdString(category))));
        for (const LayerSpec& s : LayerRegistry::instance().all()) {
            if (s.category != category) continue;
            auto* item = new QTreeWidgetItem(group, {QString::fromStdString(s.type)});
            item->setData(0, kTypeRole, QString::fromStdString(s.type));
            item->setToolTip(0, QString::fromStdString(s.help));
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
        }
        if (group->childCount() == 0) {  // a category with no layers yet (e.g. Convolution)
            group->setDisabled(true);
            group->setToolTip(0, tr("No layers in this category yet"));
        }
    }
    tree_->expandAll();
}

void PalettePanel::setFilter(const QString& text) {
    if (search_->text() != text) search_->setText(text);
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree_->topLevelItem(g);
        int shown = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            bool match = item->text(0).contains(text, Qt::CaseInsensitive) ||
                         item->toolTip(0).contains(text, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match;
        }
        group->setHidden(shown == 0 && !text.isEmpty());
    }
}

QStringList PalettePanel::visibleTypes() const {
    QStringList out;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if (!(*it)->data(0, kTypeRole).isNull() && !(*it)->isHidden() && !(*it)->parent()->isHidden())
            out << (*it)->data(0, kTypeRole).toString();
    return out;
}

}  // namespace lf::ui
