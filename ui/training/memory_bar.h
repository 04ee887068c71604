#pragma once
// One gauge row: a filled bar (value / total), a peak tick, and "label  1.2 GiB / 16 GiB".
#include <QWidget>

namespace lf::ui {

QString byteText(quint64 bytes);  // "812 MiB", "1.2 GiB"

class MemoryBar : public QWidget {
    Q_OBJECT
public:
    MemoryBar(const QString& label, QWidget* parent = nullptr);
    void setValues(quint64 value, quint64 peak, quint64 total);
    QString text() const;  // what the bar says, for tests and tooltips
    QSize sizeHint() const override { return {260, 22}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString label_;
    quint64 value_ = 0, peak_ = 0, total_ = 0;
};

}  // namespace lf::ui
