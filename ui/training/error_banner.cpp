#include "training/error_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>

#include "widgets/scrollable.h"

namespace lf::ui {

ErrorBanner::ErrorBanner(QWidget* parent) : QFrame(parent), text_(new QLabel), close_(new QToolButton) {
    setObjectName("errorBanner");
    setStyleSheet("#errorBanner { background: #fdecea; border: 1px solid #e57373; border-radius: 3px; }"
                  "#errorBanner QLabel { color: #611a15; }");
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    close_->setText(QStringLiteral("✕"));
    close_->setAutoRaise(true);
    close_->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    // A long message scrolls within four lines instead of raising the window's minimum height.
    QScrollArea* scroll = scrollable(text_);
    scroll->setMaximumHeight(4 * fontMetrics().lineSpacing() + 6);
    scroll->setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }");
    layout->addWidget(scroll, 1);
    layout->addWidget(close_, 0, Qt::AlignTop);
    connect(close_, &QToolButton::clicked, this, &ErrorBanner::dismiss);
    hide();
}

QString ErrorBanner::message() const { return isHidden() ? QString() : text_->text(); }

void ErrorBanner::showMessage(const QString& message) {
    text_->setText(message);
    show();
}

void ErrorBanner::dismiss() {
    text_->clear();
    hide();
}

}  // namespace lf::ui
