#pragma once
// Every key that redoes: the platform's (QKeySequence::Redo: Ctrl+Shift+Z on Linux, Ctrl+Y on
// Windows) and both of the common ones wherever the platform has only one.
#include <QKeySequence>
#include <QList>

namespace lf::ui {

inline QList<QKeySequence> redoKeys() {
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::Redo);
    for (const QKeySequence& k : {QKeySequence(Qt::CTRL | Qt::Key_Y), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)})
        if (!keys.contains(k)) keys.append(k);
    return keys;
}

}  // namespace lf::ui
