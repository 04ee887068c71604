#pragma once
// Memory of one device as horizontal bars: this process, all processes, engine-tracked bytes,
// each against the device's total, with a tick at the highest value seen. Polls the engine's
// device API (cheap, non-blocking) from a timer, twice a second by default.
#include <QWidget>

#include "layerforge/devices/devices.h"

class QComboBox;
class QLabel;
class QTimer;

namespace lf::ui {

class MemoryBar;

class DeviceGauge : public QWidget {
    Q_OBJECT
public:
    explicit DeviceGauge(QWidget* parent = nullptr);

    QString device() const { return device_; }
    void setDevice(const QString& id);
    void setInterval(int ms);
    int interval() const;

    // The last reading and the peaks (bytes) since the gauge started or the device changed.
    const DeviceMemory& reading() const { return reading_; }
    const DeviceMemory& peaks() const { return peaks_; }
    int updates() const { return updates_; }  // readings taken so far

public Q_SLOTS:
    void refresh();

private:
    QString device_ = QStringLiteral("cpu");
    QTimer* timer_;
    QLabel* title_;
    MemoryBar *process_, *all_, *engine_;
    DeviceMemory reading_, peaks_;
    int updates_ = 0;
};

}  // namespace lf::ui
