#pragma once
// The built-in example the README's run command opens: the tutorial's CNN on the canvas with
// Fashion-MNIST bound as an image folder, ready to train. The folder is imported on first use
// behind a progress dialog; the window stays responsive meanwhile.
#include <QString>
#include <QStringList>

#include "layerforge/project/project.h"

class QWidget;

namespace lf::ui {

class ExampleDataset;
class ProjectDocument;

// Loads `templatePath` into `doc` at once (bound to the in-memory Fashion-MNIST), then binds the
// imported folder when `data` is ready (a document reset while the user has not edited yet,
// else one undoable edit). Failures are shown in a message box; the in-memory binding remains.
// Returns false (with *error) when the template cannot be read.
bool openExampleProject(ProjectDocument* doc, const QString& templatePath, ExampleDataset* data, QWidget* dialogParent,
                        QString* error);

// The example binding: the imported folder, its test split for validation, labels fixed.
DatasetBinding exampleBinding(DatasetBinding binding, const QString& dir, const QStringList& classFolders);

}  // namespace lf::ui
