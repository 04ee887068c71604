#pragma once
// Helpers shared by the studio (ui/) tests.
#include <QString>
#include <QtTest>

#include "document/project_document.h"

inline QString lfTemplate(const char* name) {
    return qEnvironmentVariable("LF_SOURCE_DIR") + "/resources/templates/" + name;
}

inline void loadTemplate(lf::ui::ProjectDocument& doc, const char* name = "fashion_functional.lfproj") {
    QString error;
    QVERIFY2(doc.load(lfTemplate(name), &error), qPrintable(error));
}

// Pushes `command`, then checks undo restores the state before and redo the state after.
inline void checkRoundTrip(lf::ui::ProjectDocument& doc, QUndoCommand* command) {
    const QString before = doc.serialized();
    doc.push(command);
    const QString after = doc.serialized();
    QVERIFY2(after != before, "the command changed nothing");
    doc.undoStack()->undo();
    QCOMPARE(doc.serialized(), before);
    doc.undoStack()->redo();
    QCOMPARE(doc.serialized(), after);
}
