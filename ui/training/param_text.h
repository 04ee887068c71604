#pragma once
// Optimizer and schedule parameters beyond the learning rate as one editable line:
// "momentum=0.9 nesterov=true". Values parse as bool, integer, number or text.
#include <QStringList>

#include "layerforge/core/params.h"

namespace lf::ui {

QString paramsToText(const Params& params, const QStringList& skip = {});
// Unparsable pieces (no '=') are reported in `error` and left out.
Params paramsFromText(const QString& text, QString* error = nullptr);

}  // namespace lf::ui
