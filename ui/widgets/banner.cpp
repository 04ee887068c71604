#include "widgets/banner.h"

#include <QLabel>

namespace lf::ui {

void showBanner(QLabel* banner, const QString& text, bool error) {
    banner->setText(text);
    banner->setStyleSheet(error ? "QLabel { background: #fdecea; color: #8a1c14; padding: 6px; }"
                                : "QLabel { color: palette(mid); padding: 6px; }");
    banner->show();
}

}  // namespace lf::ui
