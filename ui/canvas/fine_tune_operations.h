#pragma once
// The canvas's fine-tuning actions on a layer, each one undo step: freeze it and everything it
// depends on, freeze its block, or replace what comes after it by a new classification head
// for the bound dataset (graph/fine_tune.h does the edit).
#include <QString>

#include "document/project_document.h"

namespace lf::ui {

// The layer and its ancestors frozen, every later layer trainable.
void freezeUpToHere(ProjectDocument* doc, const std::string& node);
// Every layer of the block (group) holding `node` frozen; false when it is in none.
bool freezeBlock(ProjectDocument* doc, const std::string& node);
// The classes of the bound dataset: its class list, the image folder's class folders, or the
// ten of Fashion-MNIST; 0 with `error` set when they cannot be known.
std::int64_t boundClassCount(const Project& p, QString* error);
// Cuts after `node` and attaches [GlobalAveragePooling2D +] Dense(classes, softmax); false with
// `error` set (nothing changed) when the edit is not possible.
bool replaceHead(ProjectDocument* doc, const std::string& node, QString* error);

}  // namespace lf::ui
