#pragma once
// The start page (MATLAB Deep Network Designer's): recent projects, the templates with a
// picture and a line each, and the ways in: a blank project, Open…, the built-in example,
// Import a model…, Open an image folder…. Shown at start when no project was asked for (unless
// turned off) and from File > Start Page. It only asks; the main window does what was chosen.
#include <QDialog>
#include <QStringList>

class QCheckBox;
class QListWidget;
class QPushButton;

namespace lf::ui {

class StartPage : public QDialog {
    Q_OBJECT
public:
    // recent: project paths, newest first (missing files are left out); templates: a folder of *.lfproj.
    StartPage(const QStringList& recent, const QString& templateDir, QWidget* parent = nullptr);

    QListWidget* recentList() const { return recent_; }
    QListWidget* templateList() const { return templates_; }
    QPushButton* button(const QString& objectName) const;

    static bool showAtStart();  // QSettings; on by default
    static void setShowAtStart(bool show);

    static constexpr int PathRole = Qt::UserRole + 1;

Q_SIGNALS:
    // Each closes the page (accept) before it is emitted.
    void openProject(const QString& path);
    void newFromTemplate(const QString& path);
    void newBlank();
    void openDialog();
    void openExample();
    void importModel();
    void openImageFolder();

private:
    QPushButton* action(const QString& text, const QString& name, void (StartPage::*signal)());
    void fillRecent(const QStringList& recent);
    void fillTemplates(const QString& dir);

    QListWidget* recent_;
    QListWidget* templates_;
    QCheckBox* atStart_;
};

}  // namespace lf::ui
