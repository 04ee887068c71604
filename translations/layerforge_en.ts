<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ModelStats</name>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n problem</numerusform>
            <numerusform>%n problems</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>Group %n layer(s)</source>
        <translation>
            <numerusform>Group %n layer</numerusform>
            <numerusform>Group %n layers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::CanvasScene</name>
    <message numerus="yes">
        <source>%n layer(s), %1 params</source>
        <translation>
            <numerusform>%n layer, %1 params</numerusform>
            <numerusform>%n layers, %1 params</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n layer(s)</source>
        <translation>
            <numerusform>Move %n layer</numerusform>
            <numerusform>Move %n layers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::CheckpointBrowser</name>
    <message numerus="yes">
        <source>%n selected checkpoint(s) are pinned. Unpin them before deleting.</source>
        <translation>
            <numerusform>%n selected checkpoint is pinned. Unpin it before deleting.</numerusform>
            <numerusform>%n selected checkpoints are pinned. Unpin them before deleting.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n checkpoint(s) from the run store? This cannot be undone.</source>
        <translation>
            <numerusform>Delete %n checkpoint from the run store? This cannot be undone.</numerusform>
            <numerusform>Delete %n checkpoints from the run store? This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::ClassCountChart</name>
    <message numerus="yes">
        <source>%1 (%2): %Ln image(s)</source>
        <translation>
            <numerusform>%1 (%2): %Ln image</numerusform>
            <numerusform>%1 (%2): %Ln images</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::DatasetPanel</name>
    <message numerus="yes">
        <source>%n classes</source>
        <translation>
            <numerusform>%n class</numerusform>
            <numerusform>%n classes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more</source>
        <translation>
            <numerusform>… %n more size</numerusform>
            <numerusform>… %n more sizes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::MainWindow</name>
    <message numerus="yes">
        <source>Imported %n TensorBoard run(s)</source>
        <translation>
            <numerusform>Imported %n TensorBoard run</numerusform>
            <numerusform>Imported %n TensorBoard runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::ModelImport</name>
    <message numerus="yes">
        <source>Imported %1 (%2): %n layers.</source>
        <translation>
            <numerusform>Imported %1 (%2): %n layer.</numerusform>
            <numerusform>Imported %1 (%2): %n layers.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::RunsExplorer</name>
    <message numerus="yes">
        <source>Tags to add to %n run(s), separated by commas:</source>
        <translation>
            <numerusform>Tags to add to %n run, separated by commas:</numerusform>
            <numerusform>Tags to add to %n runs, separated by commas:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) with their curves and checkpoints from the run store? This cannot be undone.</source>
        <translation>
            <numerusform>Delete %n run with its curves and checkpoints from the run store? This cannot be undone.</numerusform>
            <numerusform>Delete %n runs with their curves and checkpoints from the run store? This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::SettingsDiffView</name>
    <message numerus="yes">
        <source>%n setting(s) differ between run %1 and run %2.</source>
        <translation>
            <numerusform>%n setting differs between run %1 and run %2.</numerusform>
            <numerusform>%n settings differ between run %1 and run %2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::TensorBoardImport</name>
    <message numerus="yes">
        <source>Imported %n run(s), %1 points, from %2.</source>
        <translation>
            <numerusform>Imported %n run, %1 points, from %2.</numerusform>
            <numerusform>Imported %n runs, %1 points, from %2.</numerusform>
        </translation>
    </message>
</context>
</TS>
