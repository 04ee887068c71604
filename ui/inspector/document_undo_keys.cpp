#include "inspector/document_undo_keys.h"

#include <QEvent>
#include <QKeyEvent>
#include <QWidget>

#include "document/redo_keys.h"

namespace lf::ui {

namespace {

class UndoKeyFilter : public QObject {
public:
    using QObject::QObject;
    // Ignored and not delivered, the shortcut override goes on to the window's Undo/Redo actions.
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() != QEvent::ShortcutOverride || !isDocumentUndoKey(static_cast<QKeyEvent*>(event))) return false;
        event->ignore();
        return true;
    }
};

}  // namespace

bool isDocumentUndoKey(const QKeyEvent* key) {
    const QKeySequence pressed(key->keyCombination());
    if (key->matches(QKeySequence::Undo)) return true;
    for (const QKeySequence& k : redoKeys())
        if (k == pressed) return true;
    return false;
}

void passDocumentUndoKeys(QWidget* root) {
    auto* filter = new UndoKeyFilter(root);
    root->installEventFilter(filter);
    for (QWidget* w : root->findChildren<QWidget*>()) w->installEventFilter(filter);
}

}  // namespace lf::ui
