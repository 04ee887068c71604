#pragma once
// The layer palette: every registered layer type grouped by category (Core, Convolution,
// Pooling, Normalization, Activation, Merge, then plugin categories), with a search box.
// Items drag onto the canvas as QMimeData carrying the type name; double-click asks to add.
#include <QTreeWidget>
#include <QWidget>

class QLineEdit;

namespace lf::ui {

class PaletteTree : public QTreeWidget {
    Q_OBJECT
public:
    explicit PaletteTree(QWidget* parent = nullptr);
protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;
    QStringList mimeTypes() const override;
};

class PalettePanel : public QWidget {
    Q_OBJECT
public:
    explicit PalettePanel(QWidget* parent = nullptr);
    void setFilter(const QString& text);
    QTreeWidget* tree() const { return tree_; }
    QStringList visibleTypes() const;

Q_SIGNALS:
    void layerActivated(const QString& type);

private:
    void populate();
    QLineEdit* search_;
    PaletteTree* tree_;
};

}  // namespace lf::ui
