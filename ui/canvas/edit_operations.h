#pragma once
// Edit-menu verbs on the canvas selection; each pushes one undo command (or nothing).
#include <QString>

#include "canvas/auto_layout.h"

namespace lf::ui {

class CanvasScene;

void copySelection(CanvasScene* scene);
void cutSelection(CanvasScene* scene);
bool pasteClipboard(CanvasScene* scene, QString* error = nullptr);
void duplicateSelection(CanvasScene* scene);
void deleteSelection(CanvasScene* scene);
void selectAll(CanvasScene* scene);
void groupSelection(CanvasScene* scene);     // the selected layers become one block
void ungroupSelection(CanvasScene* scene);   // blocks holding a selected layer dissolve
void toggleCollapsed(CanvasScene* scene);    // those blocks collapse, or expand when all are collapsed
void autoLayout(CanvasScene* scene, LayoutDirection direction);
void autoLayoutToFit(CanvasScene* scene, QSizeF view);  // wrappedLayout for a view of this size
bool insertTemplate(CanvasScene* scene, const QString& path, QString* error = nullptr);

}  // namespace lf::ui
