#pragma once
// The log dock's content: engine and training messages, one timestamped line each, capped so a
// long run cannot grow it without bound.
#include <QPlainTextEdit>

namespace lf::ui {

class LogView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LogView(QWidget* parent = nullptr);

public Q_SLOTS:
    void appendLine(const QString& text);
    void appendError(const QString& text);  // shown in red
};

}  // namespace lf::ui
