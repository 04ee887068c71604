#pragma once
// The runs explorer's table: one row per run with Star, Run (id), Name, Status, Started,
// Duration, one column per setting that differs between the runs, the final and the best value
// of every epoch-level metric, Tags and Note. Star (a check box), Tags (comma-separated) and
// Note are edited in place: the row changes at once and the edit is announced for the explorer
// to write to the store. SortRole gives numbers (or text) so a QSortFilterProxyModel sorts
// numerically; FilterRole, on the Name column, is the text the filter searches: name, tags,
// note, status and where an imported run came from.
#include <QAbstractTableModel>
#include <QStringList>

#include "explorer/explorer_snapshot.h"

namespace lf::ui {

class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int IdRole = Qt::UserRole + 1;  // the run id (qint64) of any cell
    static constexpr int FilterRole = Qt::UserRole + 2;
    enum Column { Star, Run, Name, Status, Started, Duration, FixedColumns };

    explicit RunTableModel(QObject* parent = nullptr);

    void setSnapshot(ExplorerSnapshot snapshot);
    const ExplorerSnapshot& snapshot() const { return snap_; }
    const ExplorerRun* find(qint64 id) const { return snap_.run(id); }
    int columnOf(const QString& header) const;  // -1 when absent
    int tagsColumn() const { return FixedColumns + int(snap_.settingKeys.size()) + 2 * int(snap_.metrics.size()); }
    int noteColumn() const { return tagsColumn() + 1; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    static QStringList parseTags(const QString& text);  // "a, b,,c" -> {"a", "b", "c"}

Q_SIGNALS:
    void starEdited(qint64 run, bool starred);
    void tagsEdited(qint64 run, const QStringList& tags);
    void noteEdited(qint64 run, const QString& note);

private:
    QVariant cell(const ExplorerRun& r, int column, bool forSort) const;
    QVariant metricCell(const ExplorerRun& r, int metric, bool best, bool forSort) const;
    QString statusText(const ExplorerRun& r) const;

    ExplorerSnapshot snap_;
};

// The run's duration in seconds (until now while it runs); -1 when its times are unknown.
double runSeconds(const ExplorerRun& r);

}  // namespace lf::ui
