#pragma once
// The document's undo and redo keys (Ctrl+Z, the platform's redo keys, Ctrl+Y) pass through
// the inspector's line edits and spin boxes, which would otherwise take them for their own
// text undo: right after an inspector edit, Ctrl+Z undoes that edit in the document.
class QKeyEvent;
class QWidget;

namespace lf::ui {

bool isDocumentUndoKey(const QKeyEvent* key);
void passDocumentUndoKeys(QWidget* root);  // root and every widget inside it now

}  // namespace lf::ui
