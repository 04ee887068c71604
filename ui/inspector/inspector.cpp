#include "inspector/inspector.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "document/rename_node.h"
#include "document/set_param.h"
#include "document/set_trainable.h"
#include "inspector/document_undo_keys.h"
#include "inspector/param_editor.h"

namespace lf::ui {

Inspector::Inspector(ProjectDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), title_(new QLabel), help_(new QLabel), name_(new QLineEdit),
      trainable_(new QCheckBox(tr("Trainable"))), form_(new QFormLayout), problems_(new QLabel), message_(new QLabel) {
    auto* layout = new QVBoxLayout(this);
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    title_->setFont(big);
    help_->setWordWrap(true);
    problems_->setWordWrap(true);
    problems_->setStyleSheet("color: #d93025;");
    message_->setWordWrap(true);
    name_->setToolTip(tr("The layer's name, unique in the model; weights are saved under it"));
    form_->addRow(tr("Name"), name_);
    trainable_->setToolTip(tr("Unchecked: the layer is frozen. Its weights keep their values while training, and a "
                              "BatchNormalization uses its moving statistics, as Keras' trainable = False"));
    form_->addRow(QString(), trainable_);
    connect(trainable_, &QCheckBox::toggled, this, &Inspector::setTrainable);
    layout->addWidget(title_);
    layout->addWidget(help_);
    layout->addLayout(form_);
    layout->addWidget(problems_);
    layout->addWidget(message_);
    layout->addStretch();
    connect(name_, &QLineEdit::editingFinished, this, [this] {
        if (name_->isModified()) rename(name_->text().trimmed());
        name_->setModified(false);
    });
    connect(doc_, &ProjectDocument::changed, this, [this](const DocumentChange& c) {
        if (c.kind == DocumentChange::Reset || c.kind == DocumentChange::GraphChanged || c.kind == DocumentChange::NodesEdited)
            refresh();
    });
    passDocumentUndoKeys(name_);
    setNode({});
}

ParamEditor* Inspector::editor(const std::string& param) const {
    auto it = editors_.find(param);
    return it == editors_.end() ? nullptr : it->second;
}

QString Inspector::message() const { return message_->text(); }

void Inspector::setNode(const QString& id) {
    node_ = id;
    message_->clear();
    refresh();
}

void Inspector::rebuild() {
    for (auto& [name, editor] : editors_) {
        form_->removeRow(editor);
    }
    editors_.clear();
    const Node* n = doc_->graph().find(node_.toStdString());
    const LayerSpec* spec = n ? LayerRegistry::instance().find(n->type) : nullptr;
    builtType_ = n ? n->type : std::string();
    if (!spec) return;
    for (const ParamSpec& p : spec->params) {
        ParamEditor* editor = createParamEditor(p, this);
        editors_[p.name] = editor;
        form_->addRow(QString::fromStdString(p.name), editor);
        std::string param = p.name;
        connect(editor, &ParamEditor::committed, this, [this, param](const ParamValue& v) { applyParam(param, v); });
        connect(editor, &ParamEditor::rejected, this, [this](const QString& m) { showMessage(m, true); refresh(); });
        passDocumentUndoKeys(editor);
    }
}

void Inspector::refresh() {
    const Node* n = doc_->graph().find(node_.toStdString());
    if (!n) node_.clear();
    if (!n || n->type != builtType_) rebuild();
    name_->setEnabled(n != nullptr);
    trainable_->setEnabled(n != nullptr);
    {
        const QSignalBlocker quiet(trainable_);
        trainable_->setChecked(!n || n->trainable);
    }
    if (!n) {
        title_->setText(tr("No layer selected"));
        help_->setText(tr("Select a layer on the canvas to edit it, or drag one in from the palette."));
        name_->clear();
        problems_->clear();
        return;
    }
    title_->setText(QString::fromStdString(n->type));
    const LayerSpec* spec = LayerRegistry::instance().find(n->type);
    help_->setText(spec ? QString::fromStdString(spec->help) : tr("Unknown layer type"));
    if (!name_->hasFocus()) name_->setText(QString::fromStdString(n->name));
    const NodeInfo& info = doc_->analysis().nodes.at(n->id);
    for (auto& [param, editor] : editors_) {
        auto it = info.params.find(param);
        auto given = n->params.find(param);
        if (it != info.params.end()) editor->setValue(it->second);
        else if (given != n->params.end()) editor->setValue(given->second);
    }
    QStringList problems;
    for (const Diagnostic& d : doc_->analysis().for_node(n->id))
        problems << QString::fromStdString(d.field.empty() ? d.message : d.field + ": " + d.message);
    problems_->setText(problems.join("\n"));
}

bool Inspector::applyParam(const std::string& param, const ParamValue& value) {
    const Node* n = doc_->graph().find(node_.toStdString());
    const LayerSpec* spec = n ? LayerRegistry::instance().find(n->type) : nullptr;
    if (!spec) return false;
    Params trial = n->params;
    trial[param] = value;
    std::vector<ParamProblem> problems;
    resolve_params(*spec, trial, problems);
    for (const ParamProblem& p : problems)
        if (p.field == param) {
            showMessage(tr("%1 not changed: %2").arg(QString::fromStdString(param), QString::fromStdString(p.message)), true);
            refresh();
            return false;
        }
    auto old = n->params.find(param);
    if (old != n->params.end() && old->second == value) return true;
    message_->clear();
    doc_->push(new SetParamCommand(doc_, n->id, param, value));
    return true;
}

bool Inspector::rename(const QString& name) {
    const Node* n = doc_->graph().find(node_.toStdString());
    if (!n || name.toStdString() == n->name) return n != nullptr;
    QString problem;
    if (name.isEmpty()) problem = tr("a layer needs a name");
    else if (doc_->uniqueName(name.toStdString()) != name.toStdString())
        problem = tr("another layer is already called \"%1\"").arg(name);
    if (!problem.isEmpty()) {
        showMessage(tr("Not renamed: %1").arg(problem), true);
        name_->setText(QString::fromStdString(n->name));
        return false;
    }
    message_->clear();
    doc_->push(new RenameNodeCommand(doc_, n->id, name.toStdString()));
    return true;
}

void Inspector::setTrainable(bool trainable) {
    const Node* n = doc_->graph().find(node_.toStdString());
    if (!n || n->trainable == trainable) return;
    const QString name = QString::fromStdString(n->name);
    doc_->push(new SetTrainableCommand(doc_, {{n->id, trainable}}, trainable ? tr("Unfreeze %1").arg(name)
                                                                             : tr("Freeze %1").arg(name)));
}

void Inspector::showMessage(const QString& text, bool error) {
    message_->setStyleSheet(error ? "color: #d93025;" : QString());
    message_->setText(text);
}

}  // namespace lf::ui
