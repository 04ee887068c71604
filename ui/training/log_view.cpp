#include "training/log_view.h"

#include <QTime>

namespace lf::ui {

LogView::LogView(QWidget* parent) : QPlainTextEdit(parent) {
    setObjectName("log");
    setReadOnly(true);
    setMaximumBlockCount(5000);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFont(QStringLiteral("monospace")));
}

void LogView::appendLine(const QString& text) {
    appendPlainText(QTime::currentTime().toString("HH:mm:ss  ") + text);
}

void LogView::appendError(const QString& text) {
    appendHtml(QStringLiteral("<span style=\"color:#b00020\">%1</span>")
                   .arg((QTime::currentTime().toString("HH:mm:ss  ") + text).toHtmlEscaped()));
}

}  // namespace lf::ui
