#pragma once
// Reads a Qt Linguist .ts file into its entries, for the translation tests.
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <QXmlStreamReader>

struct TsEntry {
    QString context;
    QString source;
    QString comment;             // disambiguation, usually empty
    bool numerus = false;        // tr("%n ...", nullptr, n)
    QString type;                // translation type: "", "unfinished", "vanished", "obsolete"
    QStringList translations;    // one text, or one per plural form

    QString key() const { return context + '\x1f' + source + '\x1f' + comment; }
    QString describe() const { return context + ": \"" + source + '"'; }
    bool live() const { return type != "vanished" && type != "obsolete"; }
};

struct TsFile {
    QString language;
    QList<TsEntry> entries;
    QString error;  // empty when the file was read
};

inline TsFile readTs(const QString& path) {
    TsFile ts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ts.error = path + ": " + file.errorString();
        return ts;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsEntry entry;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const auto name = xml.name();
        if (name == u"TS") {
            ts.language = xml.attributes().value("language").toString();
        } else if (name == u"name") {
            context = xml.readElementText();
        } else if (name == u"message") {
            entry = TsEntry{context, {}, {}, xml.attributes().value("numerus") == u"yes", {}, {}};
        } else if (name == u"source") {
            entry.source = xml.readElementText();
        } else if (name == u"comment") {
            entry.comment = xml.readElementText();
        } else if (name == u"translation") {
            entry.type = xml.attributes().value("type").toString();
            if (!entry.numerus) entry.translations << xml.readElementText();
            ts.entries << entry;  // numerus forms follow as children; filled below
        } else if (name == u"numerusform") {
            ts.entries.last().translations << xml.readElementText();
        }
    }
    if (xml.hasError()) ts.error = path + ": " + xml.errorString();
    return ts;
}
