// A plugin's layer in the studio: the palette lists it under the plugin's own category, and
// the inspector builds its editors from the plugin's parameter schema. The layer is registered
// through the engine API the plugin loader uses (PluginRegistrar).
#include <QComboBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "inspector/inspector.h"
#include "inspector/param_editor.h"
#include "layerforge/plugins/registrar.h"
#include "lf_test_util.h"
#include "palette/palette_panel.h"
#include "ui_test_util.h"

using namespace lf;
using namespace lf::ui;

namespace {

class PassThrough : public LayerKernel {
public:
    void forward() override {}
    void backward() override {}
};

PluginLayer pluginLayer() {
    LayerSpec s;
    s.type = "TestUiPluginLayer";
    s.category = "Test Plugins";
    s.help = "a layer from a test plugin";
    s.params = {{.name = "units", .kind = ParamKind::Int, .def = std::int64_t(2), .min = 1, .max = 64,
                 .help = "plugin units"},
                {.name = "mode", .kind = ParamKind::Choice, .def = std::string("a"), .choices = {"a", "b"},
                 .help = "plugin mode"}};
    s.infer = [](const Params& p, const std::vector<Shape>&) { return LayerInfo{.output = Shape{param_int(p, "units")}}; };
    return {s, [](const KernelSetup&) { return std::make_unique<PassThrough>(); }};
}

const char* kProject = R"({"format": "layerforge-project", "version": 1, "name": "plugin_ui",
  "model": {"nodes": [
      {"id": "input", "type": "Input", "name": "input", "params": {"shape": [4]}, "position": [0, 0]},
      {"id": "plug", "type": "TestUiPluginLayer", "name": "plug", "params": {"units": 3, "mode": "b"}, "position": [200, 0]}],
    "edges": [{"from": "input:0", "to": "plug:0"}]}})";

}  // namespace

class TestPluginLayersUi : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        PluginRegistrar r("Test Plugins");
        r.add_layer(pluginLayer());
        r.commit();
    }

    void paletteListsThePluginCategory() {
        PalettePanel palette;
        QTreeWidgetItem* group = nullptr;
        for (int i = 0; i < palette.tree()->topLevelItemCount(); ++i)
            if (palette.tree()->topLevelItem(i)->text(0) == "Plugins: Test Plugins") group = palette.tree()->topLevelItem(i);
        QVERIFY(group);
        QCOMPARE(group->childCount(), 1);
        QCOMPARE(group->child(0)->text(0), QString("TestUiPluginLayer"));
        QCOMPARE(group->child(0)->toolTip(0), QString("a layer from a test plugin"));
        palette.setFilter("TestUiPlugin");
        QCOMPARE(palette.visibleTypes(), QStringList{"TestUiPluginLayer"});
    }

    void inspectorFollowsThePluginSchema() {
        QTemporaryDir dir;
        const QString path = dir.filePath("plugin_ui.lfproj");
        QVERIFY(writeFile(path, kProject));
        ProjectDocument doc;
        QString error;
        QVERIFY2(doc.load(path, &error), qPrintable(error));
        Inspector inspector(&doc);
        inspector.setNode("plug");
        auto* units = dynamic_cast<IntEditor*>(inspector.editor("units"));
        QVERIFY(units);
        QCOMPARE(units->spinBox()->value(), 3);
        QCOMPARE(units->spinBox()->maximum(), 64);
        QVERIFY(units->toolTip().contains("plugin units"));
        QVERIFY(dynamic_cast<ChoiceEditor*>(inspector.editor("mode")));
        QCOMPARE(inspector.editor("mode")->findChild<QComboBox*>()->currentText(), QString("b"));
    }
};

QTEST_MAIN(TestPluginLayersUi)
#include "test_plugin_layers_ui.moc"
