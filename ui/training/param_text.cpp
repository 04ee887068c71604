#include "training/param_text.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

namespace lf::ui {

QString paramsToText(const Params& params, const QStringList& skip) {
    QStringList parts;
    for (const auto& [key, value] : params) {
        const QString k = QString::fromStdString(key);
        if (skip.contains(k)) continue;
        QString v = QString::fromStdString(to_string(value));
        if (std::holds_alternative<std::string>(value)) v = QString::fromStdString(std::get<std::string>(value));
        parts << k + "=" + v;
    }
    return parts.join(' ');
}

Params paramsFromText(const QString& text, QString* error) {
    Params params;
    QStringList bad;
    for (const QString& piece : text.split(QRegularExpression("[\\s,;]+"), Qt::SkipEmptyParts)) {
        const qsizetype eq = piece.indexOf('=');
        if (eq <= 0) {
            bad << piece;
            continue;
        }
        const std::string key = piece.left(eq).toStdString();
        const QString v = piece.mid(eq + 1);
        bool ok = false;
        if (v == "true" || v == "false") params[key] = v == "true";
        else if (qint64 i = v.toLongLong(&ok); ok) params[key] = std::int64_t(i);
        else if (double d = v.toDouble(&ok); ok) params[key] = d;
        else params[key] = v.toStdString();
    }
    if (error) *error = bad.isEmpty() ? QString() : QObject::tr("not key=value: %1").arg(bad.join(' '));
    return params;
}

}  // namespace lf::ui
