#pragma once
// A non-modal strip above the workspaces that shows a failure (the run's message) until the
// user closes it or the next run starts. Hidden while there is nothing to say.
#include <QFrame>

class QLabel;
class QToolButton;

namespace lf::ui {

class ErrorBanner : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget* parent = nullptr);
    QString message() const;

public Q_SLOTS:
    void showMessage(const QString& message);
    void dismiss();

private:
    QLabel* text_;
    QToolButton* close_;
};

}  // namespace lf::ui
