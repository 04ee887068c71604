#include "training/processes_field.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <initializer_list>

#include "training/mpi_command.h"

namespace lf::ui {

namespace {

const char* kProcessesKey = "train/processes";
const char* kHostfileKey = "train/hostfile";

}  // namespace

ProcessesField::ProcessesField(const QString& mpirun, QWidget* parent)
    : QWidget(parent), spin_(new QSpinBox), hostfile_(new QLineEdit), browse_(new QToolButton), note_(new QLabel),
      available_(!mpirun.isEmpty()) {
    spin_->setRange(1, 1024);
    spin_->setSpecialValueText(tr("1 (in the studio)"));
    spin_->setToolTip(tr("Train with N processes started by Open MPI's mpirun, each with its own engine: every "
                         "process takes its share of each batch (the batch size stays the whole batch) and they "
                         "average their gradients. 1 trains inside the studio. The processes run on this machine, "
                         "or on the machines of a hostfile."));
    hostfile_->setPlaceholderText(tr("none: all on this machine"));
    hostfile_->setClearButtonEnabled(true);
    hostfile_->setToolTip(tr("An Open MPI hostfile listing the machines and their slots (mpirun --hostfile FILE); "
                             "every machine needs Layerforge and the dataset at the same paths"));
    browse_->setText(tr("Hostfile…"));
    browse_->setToolTip(hostfile_->toolTip());
    connect(browse_, &QToolButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open MPI hostfile"), hostfile_->text());
        if (!f.isEmpty()) hostfile_->setText(f);
    });
    note_->setWordWrap(true);
    note_->setStyleSheet("color: #a15c00");
    note_->setText(available_ ? QString() : mpirunMissingReason());
    note_->setVisible(!available_);

    auto* hosts = new QHBoxLayout;
    hosts->setContentsMargins(0, 0, 0, 0);
    hosts->addWidget(hostfile_, 1);
    hosts->addWidget(browse_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(spin_);
    layout->addLayout(hosts);
    layout->addWidget(note_);

    const QSettings settings;
    setValues(settings.value(kProcessesKey, 1).toInt(), settings.value(kHostfileKey).toString());
    spin_->setEnabled(available_);
    if (!available_)
        for (QWidget* w : std::initializer_list<QWidget*>{spin_, hostfile_, browse_}) w->setToolTip(mpirunMissingReason());
    connect(spin_, &QSpinBox::valueChanged, this, [this] {
        hostfile_->setEnabled(available_ && spin_->value() > 1);
        browse_->setEnabled(hostfile_->isEnabled());
        save();
        Q_EMIT changed();
    });
    connect(hostfile_, &QLineEdit::textChanged, this, [this] {
        save();
        Q_EMIT changed();
    });
}

int ProcessesField::processes() const { return available_ ? spin_->value() : 1; }

QString ProcessesField::hostfile() const { return processes() > 1 ? hostfile_->text().trimmed() : QString(); }

void ProcessesField::setValues(int processes, const QString& hostfile) {
    QSignalBlocker b1(spin_), b2(hostfile_);
    spin_->setValue(std::max(1, processes));
    hostfile_->setText(hostfile);
    hostfile_->setEnabled(available_ && spin_->value() > 1);
    browse_->setEnabled(hostfile_->isEnabled());
}

void ProcessesField::save() const {
    QSettings settings;
    settings.setValue(kProcessesKey, spin_->value());
    settings.setValue(kHostfileKey, hostfile_->text().trimmed());
}

}  // namespace lf::ui
