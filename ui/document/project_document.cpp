#include "document/project_document.h"

#include <QFileInfo>

#include "layerforge/core/error.h"

namespace lf::ui {

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent) {
    project_.name = "untitled";
    analysis_ = analyze(project_.graph);
    connect(&stack_, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

QString ProjectDocument::displayName() const {
    return fileName_.isEmpty() ? tr("Untitled") : QFileInfo(fileName_).fileName();
}

void ProjectDocument::reset(Project project, const QString& fileName, bool modified) {
    stack_.clear();
    project_ = std::move(project);
    fileName_ = fileName;
    if (modified) stack_.resetClean();  // clean index -1: no state of the stack is the saved one
    else stack_.setClean();
    notify({DocumentChange::Reset, {}});
    Q_EMIT fileNameChanged(fileName_);
    Q_EMIT modifiedChanged(modified);
}

bool ProjectDocument::load(const QString& path, QString* error) {
    try {
        Project p = load_project(path.toStdString());
        reset(std::move(p), path);
        return true;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool ProjectDocument::saveAs(const QString& path, QString* error) {
    try {
        Project p = project_;
        p.name = QFileInfo(path).completeBaseName().toStdString();
        save_project(p, path.toStdString());
        project_.name = p.name;
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    fileName_ = path;
    stack_.setClean();
    Q_EMIT fileNameChanged(fileName_);
    return true;
}

QString ProjectDocument::serialized() const { return QString::fromStdString(serialize_project(project_)); }

namespace {

template <class Taken>
std::string unique(const std::string& base, Taken taken) {
    if (!taken(base)) return base;
    std::string stem = base;
    auto cut = stem.find_last_of('_');
    if (cut != std::string::npos && cut + 1 < stem.size() &&
        stem.find_first_not_of("0123456789", cut + 1) == std::string::npos)
        stem.resize(cut);
    for (int i = 1;; ++i) {
        std::string candidate = stem + "_" + std::to_string(i);
        if (!taken(candidate)) return candidate;
    }
}

}  // namespace

std::string ProjectDocument::uniqueName(const std::string& base) const {
    return unique(base, [this](const std::string& s) {
        for (const Node& n : project_.graph.nodes)
            if (n.name == s) return true;
        return false;
    });
}

std::string ProjectDocument::uniqueId(const std::string& base) const {
    return unique(base, [this](const std::string& s) { return project_.graph.find(s) != nullptr; });
}

void ProjectDocument::notify(DocumentChange change) {
    if (change.kind == DocumentChange::NodesEdited) {
        std::vector<std::string> edited;
        for (const QString& id : change.nodes) edited.push_back(id.toStdString());
        change.reanalysed = reanalyze(project_.graph, analysis_, edited);
    } else if (change.kind == DocumentChange::Reset || change.kind == DocumentChange::GraphChanged) {
        analysis_ = analyze(project_.graph);
    }
    Q_EMIT changed(change);
}

}  // namespace lf::ui
