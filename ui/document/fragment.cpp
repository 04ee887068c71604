#include "document/fragment.h"

#include <cctype>
#include <functional>
#include <map>

#include "layerforge/core/error.h"

namespace lf::ui {

std::string snakeCase(const std::string& type) {
    std::string s;
    for (std::size_t i = 0; i < type.size(); ++i) {
        char c = type[i];
        bool upper = std::isupper(static_cast<unsigned char>(c));
        bool prevLower = i > 0 && !std::isupper(static_cast<unsigned char>(type[i - 1]));
        bool nextLower = i + 1 < type.size() && std::islower(static_cast<unsigned char>(type[i + 1]));
        if (upper && i > 0 && (prevLower || nextLower)) s += '_';
        s += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return s;
}

Node newLayerNode(const ProjectDocument& doc, const std::string& type, QPointF pos) {
    Node n;
    n.type = type;
    n.name = doc.uniqueName(snakeCase(type));
    n.id = doc.uniqueId(n.name);
    n.x = pos.x();
    n.y = pos.y();
    if (const LayerSpec* spec = LayerRegistry::instance().find(type))  // required ones start at their default
        for (const ParamSpec& p : spec->params)
            if (p.required) n.params[p.name] = p.def;
    return n;
}

Graph selectionFragment(const Graph& g, const std::set<std::string>& ids) {
    Graph f;
    for (const Node& n : g.nodes)
        if (ids.count(n.id)) f.nodes.push_back(n);
    for (const Edge& e : g.edges)
        if (ids.count(e.from.node) && ids.count(e.to.node)) f.edges.push_back(e);
    return f;
}

namespace {

// A name not used by the document nor already handed out for this fragment.
std::string fresh(const std::string& base, std::set<std::string>& taken,
                  const std::function<std::string(const std::string&)>& docUnique) {
    std::string name = docUnique(base);
    for (int i = 1; taken.count(name); ++i) name = docUnique(base + "_" + std::to_string(i));
    taken.insert(name);
    return name;
}

}  // namespace

Graph uniqueFragment(const ProjectDocument& doc, Graph fragment, QPointF offset) {
    std::set<std::string> ids, names;
    std::map<std::string, std::string> renamed;
    auto uid = [&doc](const std::string& s) { return doc.uniqueId(s); };
    auto uname = [&doc](const std::string& s) { return doc.uniqueName(s); };
    for (Node& n : fragment.nodes) {
        std::string id = fresh(n.id, ids, uid);
        renamed[n.id] = id;
        n.id = id;
        n.name = fresh(n.name, names, uname);
        n.x += offset.x();
        n.y += offset.y();
    }
    for (Edge& e : fragment.edges) {
        e.from.node = renamed[e.from.node];
        e.to.node = renamed[e.to.node];
    }
    return fragment;
}

QString fragmentToJson(const Graph& fragment) {
    Project p;
    p.name = "clipboard";
    p.graph = fragment;
    return QString::fromStdString(serialize_project(p));
}

std::optional<Graph> fragmentFromJson(const QString& json, QString* error) {
    try {
        return parse_project(json.toStdString(), "clipboard").graph;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

}  // namespace lf::ui
