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
</TS>
