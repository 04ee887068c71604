// The inspector: editors generated from the schema, edits as undoable commands, invalid
// values rejected with a message, unique layer names.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

#include "document/add_nodes.h"
#include "document/fragment.h"
#include "document/set_param.h"
#include "inspector/inspector.h"
#include "inspector/param_editor.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

class TestInspector : public QObject {
    Q_OBJECT
    ProjectDocument* doc_ = nullptr;
    Inspector* inspector_ = nullptr;

    void typeInto(QLineEdit* edit, const QString& text) {
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    }

private Q_SLOTS:
    void init() {
        doc_ = new ProjectDocument;
        loadTemplate(*doc_);
        inspector_ = new Inspector(doc_);
        inspector_->show();
        QVERIFY(QTest::qWaitForWindowExposed(inspector_));
    }
    void cleanup() {
        delete inspector_;
        delete doc_;
    }

    void editorsFollowTheSchema() {
        inspector_->setNode("dense");
        QVERIFY(dynamic_cast<IntEditor*>(inspector_->editor("units")));
        QVERIFY(dynamic_cast<ChoiceEditor*>(inspector_->editor("activation")));
        QVERIFY(dynamic_cast<BoolEditor*>(inspector_->editor("use_bias")));
        auto* units = static_cast<IntEditor*>(inspector_->editor("units"));
        QCOMPARE(units->spinBox()->value(), 100);
        QCOMPARE(units->spinBox()->minimum(), 1);
        QVERIFY(units->toolTip().contains("number of output units"));
        auto* combo = inspector_->editor("activation")->findChild<QComboBox*>();
        QCOMPARE(combo->currentText(), QString("relu"));
        inspector_->setNode("input");
        QVERIFY(dynamic_cast<IntListEditor*>(inspector_->editor("shape")));
    }

    void spinEditsAreOneMergedCommand() {
        inspector_->setNode("dense");
        QSpinBox* box = static_cast<IntEditor*>(inspector_->editor("units"))->spinBox();
        box->stepUp();
        box->stepUp();
        box->stepUp();
        QCOMPARE(std::get<std::int64_t>(doc_->graph().find("dense")->params.at("units")), std::int64_t(103));
        QCOMPARE(doc_->analysis().nodes.at("dense").layer.output.str(), std::string("(?, 103)"));
        QCOMPARE(doc_->undoStack()->count(), 1);
        doc_->undoStack()->undo();
        QCOMPARE(box->value(), 100);
    }

    void choiceAndBool() {
        inspector_->setNode("dense");
        inspector_->editor("activation")->findChild<QComboBox*>()->setCurrentText("tanh");
        QCOMPARE(std::get<std::string>(doc_->graph().find("dense")->params.at("activation")), std::string("tanh"));
        inspector_->editor("use_bias")->findChild<QCheckBox*>()->setChecked(false);
        QCOMPARE(doc_->analysis().nodes.at("dense").param_count, std::int64_t(78400));
        QCOMPARE(doc_->undoStack()->count(), 2);
    }

    void invalidValuesAreRejected() {
        Graph f;
        f.nodes.push_back(newLayerNode(*doc_, "Dropout", {0, 0}));
        doc_->push(new AddNodesCommand(doc_, f, "add"));
        inspector_->setNode("dropout");
        const QString before = doc_->serialized();
        QLineEdit* rate = static_cast<TextParamEditor*>(inspector_->editor("rate"))->lineEdit();
        typeInto(rate, "1.5");
        QCOMPARE(doc_->serialized(), before);
        QCOMPARE(inspector_->message(), QString("rate not changed: must be >= 0 and <= 0.99, got 1.5"));
        QCOMPARE(rate->text(), QString("0.5"));  // the editor shows the value in force again
        typeInto(rate, "abc");
        QCOMPARE(inspector_->message(), QString("\"abc\" is not a number"));
        typeInto(rate, "0.25");
        QCOMPARE(std::get<double>(doc_->graph().find("dropout")->params.at("rate")), 0.25);
        QVERIFY(inspector_->message().isEmpty());

        inspector_->setNode("input");
        QLineEdit* shape = static_cast<TextParamEditor*>(inspector_->editor("shape"))->lineEdit();
        typeInto(shape, "28, 0");
        QVERIFY2(inspector_->message().startsWith("shape not changed"), qPrintable(inspector_->message()));
        typeInto(shape, "784");
        QCOMPARE(doc_->analysis().nodes.at("flatten").layer.output.str(), std::string("(?, 784)"));
    }

    void renameKeepsNamesUnique() {
        inspector_->setNode("dense");
        QVERIFY(!inspector_->rename("dense_skip"));
        QVERIFY(inspector_->message().contains("already called"));
        QVERIFY(!inspector_->rename(""));
        typeInto(inspector_->nameEdit(), "hidden");
        QCOMPARE(doc_->graph().find("dense")->name, std::string("hidden"));
        doc_->undoStack()->undo();
        QCOMPARE(doc_->graph().find("dense")->name, std::string("dense"));
    }

    void showsProblems() {
        doc_->push(new SetParamCommand(doc_, "dense_skip", "units", ParamValue(std::int64_t(50))));
        inspector_->setNode("add");
        QVERIFY(!inspector_->editor("units"));
        bool shown = false;
        for (QLabel* label : inspector_->findChildren<QLabel*>())
            shown |= label->text() == "Add needs inputs of one shape, got (?, 100) and (?, 50)";
        QVERIFY(shown);
    }
};

QTEST_MAIN(TestInspector)
#include "test_inspector.moc"
