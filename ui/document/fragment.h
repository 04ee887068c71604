#pragma once
// Pieces of a graph that travel: the clipboard (JSON, the project format), pasted or duplicated
// nodes, palette drops and template insertions. Inserted pieces get fresh unique ids and names.
#include <optional>
#include <set>

#include <QPointF>
#include <QString>

#include "document/project_document.h"

namespace lf::ui {

inline constexpr char kLayerMimeType[] = "application/x-layerforge-layer";   // palette drag: a type name
inline constexpr char kGraphMimeType[] = "application/x-layerforge-graph";   // clipboard: project JSON

std::string snakeCase(const std::string& type);  // "BatchNormalization" -> "batch_normalization"
Node newLayerNode(const ProjectDocument& doc, const std::string& type, QPointF pos);

// The selected nodes and the edges between them.
Graph selectionFragment(const Graph& g, const std::set<std::string>& ids);
// Renames ids and names so none collides with the document, remaps edges, shifts positions.
Graph uniqueFragment(const ProjectDocument& doc, Graph fragment, QPointF offset);

QString fragmentToJson(const Graph& fragment);
std::optional<Graph> fragmentFromJson(const QString& json, QString* error = nullptr);

}  // namespace lf::ui
