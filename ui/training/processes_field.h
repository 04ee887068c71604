#pragma once
// The run option "Processes": 1 trains inside the studio; N > 1 starts a data-parallel job of N
// layerforge-cli processes with Open MPI's mpirun, on this machine or on a hostfile's machines.
// Disabled, with the reason beside it, when mpirun is not installed. The choice is a property
// of this machine rather than of the project, so it is kept in QSettings between sessions.
#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace lf::ui {

class ProcessesField : public QWidget {
    Q_OBJECT
public:
    // `mpirun`: the launcher's path as findMpirun found it; empty when Open MPI is missing.
    explicit ProcessesField(const QString& mpirun, QWidget* parent = nullptr);

    int processes() const;   // 1 while mpirun is missing
    QString hostfile() const;  // empty: every process on this machine
    void setValues(int processes, const QString& hostfile);

    QSpinBox* spin() const { return spin_; }
    QLineEdit* hostfileEdit() const { return hostfile_; }
    QToolButton* hostfileBrowse() const { return browse_; }
    QLabel* note() const { return note_; }  // why the control is off; hidden when it is on

Q_SIGNALS:
    void changed();

private:
    void save() const;

    QSpinBox* spin_;
    QLineEdit* hostfile_;
    QToolButton* browse_;
    QLabel* note_;
    bool available_;
};

}  // namespace lf::ui
