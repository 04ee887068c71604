#pragma once
// The binding's settings in the Data workspace: validation split (none / the test split / a
// fraction of the training split with the seed), resizing, normalisation and the training
// augmentations the image pipeline supports. Every change is one undoable SetTrainingCommand.
#include <QWidget>

#include "layerforge/project/project.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QSpinBox;

namespace lf::ui {

class ProjectDocument;

class BindingSettings : public QWidget {
    Q_OBJECT
public:
    explicit BindingSettings(ProjectDocument* doc, QWidget* parent = nullptr);

    QComboBox* validation() const { return validation_; }  // data: "none" | "test" | "split"
    QDoubleSpinBox* fraction() const { return fraction_; }
    QSpinBox* seed() const { return seed_; }
    QComboBox* resize() const { return resize_; }
    QCheckBox* flip() const { return flip_; }
    QDoubleSpinBox* rotate() const { return rotate_; }

    // The binding and training settings as the widgets show them.
    DatasetBinding binding() const;
    void refresh();  // from the document

private:
    void apply();
    QDoubleSpinBox* augmentSpin(double max, double step, const QString& suffix = {});

    ProjectDocument* doc_;
    bool refreshing_ = false;
    QComboBox* validation_;
    QDoubleSpinBox* fraction_;
    QSpinBox* seed_;
    QGroupBox* image_;
    QComboBox* resize_;
    QComboBox* normalize_;
    QCheckBox* flip_;
    QDoubleSpinBox *translate_, *rotate_, *brightness_, *contrast_;
};

}  // namespace lf::ui
