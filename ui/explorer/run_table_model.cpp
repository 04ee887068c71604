#include "explorer/run_table_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "layerforge/train/event_text.h"

namespace lf::ui {

namespace {

QString joined(const std::vector<std::string>& items) {
    QStringList out;
    for (const std::string& s : items) out.append(QString::fromStdString(s));
    return out.join(QStringLiteral(", "));
}

const double* valueOf(const NamedValues& values, const QString& name) {
    for (const auto& v : values)
        if (v.first == name) return &v.second;
    return nullptr;
}

}  // namespace

double runSeconds(const ExplorerRun& r) {
    if (!r.started.isValid()) return -1;
    const QDateTime end = r.finished.isValid() ? r.finished
                          : r.info().status == RunStatus::Running ? QDateTime::currentDateTimeUtc()
                                                                  : QDateTime();
    return end.isValid() ? double(r.started.secsTo(end)) : -1;
}

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunTableModel::setSnapshot(ExplorerSnapshot snapshot) {
    beginResetModel();
    snap_ = std::move(snapshot);
    endResetModel();
}

QStringList RunTableModel::parseTags(const QString& text) {
    QStringList tags;
    for (const QString& t : text.split(QLatin1Char(',')))
        if (!t.trimmed().isEmpty() && !tags.contains(t.trimmed())) tags.append(t.trimmed());
    return tags;
}

int RunTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(snap_.runs.size()); }

int RunTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : noteColumn() + 1; }

int RunTableModel::columnOf(const QString& header) const {
    for (int c = 0; c < columnCount(); ++c)
        if (headerData(c, Qt::Horizontal).toString() == header) return c;
    return -1;
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    const int settings = int(snap_.settingKeys.size()), metrics = int(snap_.metrics.size());
    switch (section) {
    case Star: return role == Qt::ToolTipRole ? tr("Starred") : QStringLiteral("★");
    case Run: return tr("Run");
    case Name: return tr("Name");
    case Status: return tr("Status");
    case Started: return tr("Started");
    case Duration: return tr("Duration");
    default: break;
    }
    int i = section - FixedColumns;
    if (i < settings) return role == Qt::ToolTipRole ? snap_.settingKeys[i] : settingTitle(snap_.settingKeys[i]);
    i -= settings;
    if (i < metrics) return tr("%1 (final)").arg(snap_.metrics[i]);
    i -= metrics;
    if (i < metrics) return tr("%1 (best)").arg(snap_.metrics[i]);
    return section == tagsColumn() ? tr("Tags") : tr("Note");
}

QString RunTableModel::statusText(const ExplorerRun& r) const {
    const QString status = QString::fromLatin1(to_string(r.info().status));
    return r.info().imported() ? tr("%1 (imported)").arg(status) : status;
}

QVariant RunTableModel::metricCell(const ExplorerRun& r, int metric, bool best, bool forSort) const {
    const double* v = valueOf(best ? r.bests : r.finals, snap_.metrics[metric]);
    if (!v || !std::isfinite(*v)) return forSort ? QVariant(std::numeric_limits<double>::infinity()) : QVariant();
    return forSort ? QVariant(*v) : QVariant(QString::number(*v, 'g', 5));
}

QVariant RunTableModel::cell(const ExplorerRun& r, int column, bool forSort) const {
    const RunInfo& info = r.info();
    switch (column) {
    case Star: return forSort ? QVariant(info.starred) : QVariant();
    case Run: return forSort ? QVariant(qint64(info.id)) : QVariant(QString::number(info.id));
    case Name: return QString::fromStdString(info.name);
    case Status: return statusText(r);
    case Started:
        return forSort ? QVariant(r.started) : QVariant(r.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    case Duration: {
        const double s = runSeconds(r);
        return forSort ? QVariant(s) : s < 0 ? QVariant() : QVariant(QString::fromStdString(duration_text(s)));
    }
    default: break;
    }
    const int settings = int(snap_.settingKeys.size()), metrics = int(snap_.metrics.size());
    int i = column - FixedColumns;
    if (i < settings) return forSort && std::isfinite(r.numbers[std::size_t(i)]) ? QVariant(r.numbers[std::size_t(i)]) : QVariant(r.settings[i]);
    i -= settings;
    if (i < 2 * metrics) return metricCell(r, i % metrics, i >= metrics, forSort);
    return column == tagsColumn() ? joined(info.tags) : QString::fromStdString(info.notes);
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const ExplorerRun& r = snap_.runs[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return cell(r, index.column(), false);
    case Qt::EditRole: return index.column() == Star ? QVariant(r.info().starred) : cell(r, index.column(), false);
    case SortRole: return cell(r, index.column(), true);
    case IdRole: return qint64(r.id());
    case Qt::CheckStateRole:
        return index.column() == Star ? QVariant(r.info().starred ? Qt::Checked : Qt::Unchecked) : QVariant();
    case FilterRole:
        if (index.column() != Name) return {};
        return QStringList{QString::fromStdString(r.info().name), joined(r.info().tags),
                           QString::fromStdString(r.info().notes), statusText(r),
                           QString::fromStdString(r.info().source)}
            .join(QLatin1Char('\n'));
    case Qt::ToolTipRole:
        if (index.column() == Status && r.info().imported())
            return tr("Imported from %1").arg(QString::fromStdString(r.info().source));
        if (index.column() == Name) return QString::fromStdString(r.info().name);  // elided in its cell
        return {};
    default: return {};
    }
}

Qt::ItemFlags RunTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == Star) f |= Qt::ItemIsUserCheckable;
    if (index.column() == tagsColumn() || index.column() == noteColumn()) f |= Qt::ItemIsEditable;
    return f;
}

bool RunTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.row() >= rowCount()) return false;
    ExplorerRun& r = snap_.runs[std::size_t(index.row())];
    RunInfo& info = r.summary.info;
    if (index.column() == Star && role == Qt::CheckStateRole) {
        info.starred = value.toInt() == Qt::Checked;
        Q_EMIT dataChanged(index, index);
        Q_EMIT starEdited(info.id, info.starred);
        return true;
    }
    if (role != Qt::EditRole) return false;
    if (index.column() == tagsColumn()) {
        const QStringList tags = parseTags(value.toString());
        info.tags.clear();
        for (const QString& t : tags) info.tags.push_back(t.toStdString());
        std::sort(info.tags.begin(), info.tags.end());  // as the store keeps them
        Q_EMIT dataChanged(index, index);
        Q_EMIT tagsEdited(info.id, tags);
        return true;
    }
    if (index.column() == noteColumn()) {
        info.notes = value.toString().toStdString();
        Q_EMIT dataChanged(index, index);
        Q_EMIT noteEdited(info.id, value.toString());
        return true;
    }
    return false;
}

}  // namespace lf::ui
