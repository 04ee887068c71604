// Studio benchmark on a generated 1,000-node graph: time to load it into the document and
// canvas and to auto-layout it; time from an inspector edit (the Input shape, which changes
// the shape on every edge) to updated labels on all edges; frame time for pan and zoom.
// Run with QT_QPA_PLATFORM=offscreen (or under xvfb-run).
//   studio_bench [NODES]        the generated graph (default 1,000 nodes)
//   studio_bench PROJECT.lfproj  a project instead, e.g. an imported densenet121 (its Input's
//                                height and width alternate between their size and 7/8 of it)
#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "canvas/canvas_scene.h"
#include "canvas/canvas_view.h"
#include "canvas/edge_item.h"
#include "canvas/edit_operations.h"
#include "inspector/inspector.h"

using namespace lf;
using namespace lf::ui;

namespace {

std::string nodeId(int i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "n%d", i);
    return buf;
}

// Input -> 999 shape-preserving layers: ReLU, Dropout, and an Add joining the two before it.
Project generated(int count) {
    Project p;
    p.name = "bench";
    p.graph.nodes.push_back({"n0", "Input", "n0", {{"shape", IntList{64}}}, 0, 0});
    for (int i = 1; i < count; ++i) {
        std::string id = nodeId(i), prev = nodeId(i - 1);
        const char* type = i % 3 == 0 && i >= 3 ? "Add" : i % 3 == 1 ? "ReLU" : "Dropout";
        p.graph.nodes.push_back({id, type, id, {}, 0, 0});
        p.graph.edges.push_back({{prev, 0}, {id, 0}});
        if (std::string(type) == "Add") p.graph.edges.push_back({{nodeId(i - 2), 0}, {id, 1}});
    }
    return p;
}

double ms(QElapsedTimer& t) { return double(t.nsecsElapsed()) / 1e6; }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double frameTime(CanvasView& view, int frames, bool zoom) {
    std::vector<double> times;
    for (int i = 0; i < frames; ++i) {
        if (zoom) view.scale(i % 2 ? 1.1 : 1 / 1.1, i % 2 ? 1.1 : 1 / 1.1);
        else view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->value() + (i % 2 ? 40 : -40));
        QElapsedTimer t;
        t.start();
        view.viewport()->repaint();
        times.push_back(ms(t));
    }
    return median(times);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const std::string arg = argc > 1 ? argv[1] : "1000";
    const bool fromFile = arg.ends_with(".lfproj");
    ProjectDocument doc;
    CanvasScene scene(&doc);
    CanvasView view(&scene);
    view.resize(1400, 860);
    view.show();
    Project p = fromFile ? load_project(arg) : generated(std::atoi(arg.c_str()));
    const int count = int(p.graph.nodes.size());
    std::string input = "n0";
    IntList inputShape{65};
    for (const Node& n : p.graph.nodes)
        if (fromFile && n.type == "Input") input = n.id, inputShape = std::get<IntList>(n.params.at("shape"));
    // The i-th edit's Input shape: every edge's shape changes with it.
    const auto shapeFor = [&](int i) {
        IntList s = inputShape;
        if (!fromFile) return IntList{65 + i};
        if (i % 2 == 0) s[0] = s[0] * 7 / 8, s[1] = s[1] * 7 / 8;
        return s;
    };

    QElapsedTimer t;
    t.start();
    doc.reset(p, {});
    double load = ms(t);
    t.restart();
    autoLayout(&scene, LayoutDirection::LeftToRight);
    double layout = ms(t);
    app.processEvents();

    Inspector inspector(&doc);
    inspector.setNode(QString::fromStdString(input));
    std::vector<double> edits;
    for (int i = 0; i < 20; ++i) {
        t.restart();
        inspector.applyParam("shape", shapeFor(i));
        edits.push_back(ms(t));
    }
    std::vector<double> analyses;
    for (int i = 0; i < 10; ++i) {
        t.restart();
        Analysis a = analyze(doc.graph());
        analyses.push_back(ms(t));
    }
    const Edge last = doc.graph().edges.back();
    const bool updated = scene.edgeItem(last)->label() ==
                         QString::fromStdString(doc.analysis().nodes.at(last.from.node).layer.output.str());

    view.resetTransform();
    double pan100 = frameTime(view, 60, false);
    double zoom100 = frameTime(view, 60, true);
    view.fitToView();
    double panFit = frameTime(view, 30, false);
    double zoomFit = frameTime(view, 30, true);

    std::printf("nodes %d, edges %zu\n", count, doc.graph().edges.size());
    std::printf("load into document + canvas: %.1f ms\n", load);
    std::printf("auto-layout (one undo command): %.1f ms\n", layout);
    std::printf("inspector edit -> shapes on all edges: median %.2f ms over %zu edits (goal < 10 ms), labels %s\n",
                median(edits), edits.size(), updated ? "updated" : "NOT updated");
    std::printf("  of which engine analyze(): median %.2f ms\n", median(analyses));
    std::printf("frame at 100%% zoom: pan %.2f ms, zoom %.2f ms (goal < 16.7 ms)\n", pan100, zoom100);
    std::printf("frame with all nodes visible (fit): pan %.2f ms, zoom %.2f ms\n", panFit, zoomFit);
    return updated ? 0 : 1;
}
