#pragma once
// A label drawn bottom-to-top, for the title of a vertical axis (the confusion matrix's
// "True class" beside its rows).
#include <QLabel>

namespace lf::ui {

class RotatedLabel : public QLabel {
    Q_OBJECT
public:
    explicit RotatedLabel(const QString& text, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace lf::ui
