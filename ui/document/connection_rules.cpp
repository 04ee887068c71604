#include "document/connection_rules.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace lf::ui {

namespace {

struct ConnectionRules {
    Q_DECLARE_TR_FUNCTIONS(ConnectionRules)
};

// True when `target` can be reached from `start` by following edges downstream.
bool reaches(const Graph& g, const std::string& start, const std::string& target) {
    std::vector<std::string> todo{start};
    std::set<std::string> seen{start};
    while (!todo.empty()) {
        std::string id = todo.back();
        todo.pop_back();
        if (id == target) return true;
        for (const Edge& e : g.edges)
            if (e.from.node == id && seen.insert(e.to.node).second) todo.push_back(e.to.node);
    }
    return false;
}

std::string shapeError(const Analysis& a, const std::string& node) {
    for (const Diagnostic& d : a.diagnostics)
        if (d.node == node && d.severity == Severity::Error && d.field.empty()) return d.message;
    return {};
}

}  // namespace

QString connectionProblem(const ProjectDocument& doc, const Edge& edge) {
    const Graph& g = doc.graph();
    const Node* from = g.find(edge.from.node);
    const Node* to = g.find(edge.to.node);
    if (!from || !to) return ConnectionRules::tr("That layer no longer exists.");
    if (from->id == to->id) return ConnectionRules::tr("A layer cannot feed itself.");
    const LayerSpec* spec = LayerRegistry::instance().find(to->type);
    if (spec && spec->max_inputs == 0) return ConnectionRules::tr("%1 takes no inputs.").arg(QString::fromStdString(to->type));
    if (reaches(g, to->id, from->id))
        return ConnectionRules::tr("That would make a cycle: %1 already feeds %2.")
            .arg(QString::fromStdString(to->name), QString::fromStdString(from->name));
    for (const Edge& e : g.edges)
        if (e == edge) return ConnectionRules::tr("Already connected.");
    Graph trial = g;
    std::erase_if(trial.edges, [&](const Edge& e) { return e.to == edge.to; });
    trial.edges.push_back(edge);
    std::string problem = shapeError(analyze(trial), to->id);
    if (!problem.empty() && problem != shapeError(doc.analysis(), to->id))
        return ConnectionRules::tr("Incompatible shapes: %1").arg(QString::fromStdString(problem));
    return {};
}

int visibleInputPorts(const LayerSpec* spec, int usedPorts) {
    if (!spec) return std::max(1, usedPorts);
    if (spec->max_inputs >= 0) return std::max(spec->max_inputs, usedPorts);
    return std::max(spec->min_inputs, usedPorts + 1);
}

}  // namespace lf::ui
