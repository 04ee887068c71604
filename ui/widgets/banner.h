#pragma once
// The message strip above a table (the checkpoint browser's, the runs explorer's): a store that
// cannot be read in red, a hint ("no runs yet") in the palette's quiet text colour.
#include <QString>

class QLabel;

namespace lf::ui {

void showBanner(QLabel* banner, const QString& text, bool error);

}  // namespace lf::ui
