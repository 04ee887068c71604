#include "dataset/example_project.h"

#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>

#include "dataset/example_dataset.h"
#include "document/project_document.h"
#include "document/set_training.h"

namespace lf::ui {

DatasetBinding exampleBinding(DatasetBinding b, const QString& dir, const QStringList& classFolders) {
    b.kind = "image-folder";
    b.path = dir.toStdString();
    b.validation = "test";
    b.validation_split = 0;
    b.classes.clear();
    for (const QString& c : classFolders) b.classes.push_back(c.toStdString());
    return b;
}

namespace {

void bindExample(ProjectDocument* doc, const QString& dir, const QStringList& classes) {
    DatasetBinding b = exampleBinding(doc->project().dataset, dir, classes);
    if (doc->undoStack()->count() == 0 && !doc->isModified()) {
        Project p = doc->project();
        p.dataset = std::move(b);
        doc->reset(std::move(p), doc->fileName());  // still the untouched example: no undo step
    } else {
        doc->push(new SetTrainingCommand(doc, doc->project().training, std::move(b)));
    }
}

}  // namespace

bool openExampleProject(ProjectDocument* doc, const QString& templatePath, ExampleDataset* data, QWidget* dialogParent,
                        QString* error) {
    if (!doc->load(templatePath, error)) return false;
    doc->reset(doc->project(), QString());  // a new untitled project: Save must not overwrite the template
    QPointer<QProgressDialog> dialog;
    if (!data->isComplete()) {
        dialog = new QProgressDialog(QObject::tr("Importing Fashion-MNIST as an image folder (first use only)…"), QString(),
                                     0, 0, dialogParent);
        dialog->setWindowTitle(QObject::tr("Preparing the example"));
        dialog->setWindowModality(Qt::NonModal);  // the canvas stays usable while the images are written
        dialog->setMinimumDuration(0);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(data, &ExampleDataset::progress, dialog, [dialog](qint64 done, qint64 total) {
            dialog->setMaximum(int(total));
            dialog->setValue(int(done));
        });
        dialog->show();
    }
    auto finished = [dialog] {
        if (dialog) dialog->close();
    };
    QObject::connect(data, &ExampleDataset::ready, doc, [doc, data, finished](const QString& dir) {
        finished();
        bindExample(doc, dir, data->classFolders());
    }, Qt::SingleShotConnection);
    QObject::connect(data, &ExampleDataset::failed, doc, [dialogParent, finished](const QString& message) {
        finished();
        QMessageBox* box = new QMessageBox(QMessageBox::Warning, QObject::tr("Cannot import Fashion-MNIST"),
                                           QObject::tr("%1\n\nThe example stays bound to Fashion-MNIST read into memory.").arg(message),
                                           QMessageBox::Ok, dialogParent);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->show();  // non-modal: the studio stays usable
    }, Qt::SingleShotConnection);
    data->prepare();
    return true;
}

}  // namespace lf::ui
