#include "widgets/scrollable.h"

#include <QScrollArea>

namespace lf::ui {

QScrollArea* scrollable(QWidget* content) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

}  // namespace lf::ui
