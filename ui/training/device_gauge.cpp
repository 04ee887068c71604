#include "training/device_gauge.h"

#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "layerforge/core/error.h"
#include "training/memory_bar.h"

namespace lf::ui {

DeviceGauge::DeviceGauge(QWidget* parent)
    : QWidget(parent), timer_(new QTimer(this)), title_(new QLabel), process_(new MemoryBar(tr("This process"))),
      all_(new MemoryBar(tr("All processes"))), engine_(new MemoryBar(tr("Engine"))) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(process_);
    layout->addWidget(all_);
    layout->addWidget(engine_);
    layout->addStretch(1);
    engine_->setWhatsThis(tr("Bytes the engine's models, plans and optimizers hold: weights, gradients, "
                             "optimizer state, activations and workspaces."));
    connect(timer_, &QTimer::timeout, this, &DeviceGauge::refresh);
    timer_->start(500);
    refresh();
}

void DeviceGauge::setDevice(const QString& id) {
    if (id == device_) return;
    device_ = id;
    peaks_ = {};
    refresh();
}

void DeviceGauge::setInterval(int ms) { timer_->setInterval(ms); }
int DeviceGauge::interval() const { return timer_->interval(); }

void DeviceGauge::refresh() {
    try {
        reading_ = device_memory(device_.toStdString());
    } catch (const lf::Error& e) {
        title_->setText(QString::fromUtf8(e.what()));
        return;
    }
    ++updates_;
    peaks_.process = std::max(peaks_.process, reading_.process);
    peaks_.used = std::max(peaks_.used, reading_.used);
    peaks_.engine = std::max(peaks_.engine, reading_.engine);
    peaks_.engine_peak = reading_.engine_peak;
    title_->setText(tr("Memory on %1").arg(device_));
    process_->setValues(reading_.process, peaks_.process, reading_.total);
    all_->setValues(reading_.used, peaks_.used, reading_.total);
    // The engine keeps its own peak, also of moments between two readings.
    engine_->setValues(reading_.engine, std::max(peaks_.engine, reading_.engine_peak), reading_.total);
}

}  // namespace lf::ui
