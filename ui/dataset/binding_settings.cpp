#include "dataset/binding_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QSpinBox>
#include <QVBoxLayout>

#include "document/project_document.h"
#include "document/set_training.h"

namespace lf::ui {

namespace {

double number(const Params& p, const char* key) {
    auto it = p.find(key);
    if (it == p.end()) return 0;
    if (auto* d = std::get_if<double>(&it->second)) return *d;
    if (auto* i = std::get_if<std::int64_t>(&it->second)) return double(*i);
    return 0;
}

QString text(const Params& p, const char* key, const char* fallback) {
    auto it = p.find(key);
    auto* s = it == p.end() ? nullptr : std::get_if<std::string>(&it->second);
    return QString::fromStdString(s ? *s : fallback);
}

// Defaults stay out of the project file, so an untouched binding stays short.
template <class T>
void put(Params& p, const char* key, const T& value, const T& fallback) {
    if (value == fallback) p.erase(key);
    else p[key] = value;
}

void selectData(QComboBox* box, const QString& data) {
    const int i = box->findData(data);
    box->setCurrentIndex(i < 0 ? 0 : i);
}

}  // namespace

BindingSettings::BindingSettings(ProjectDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), validation_(new QComboBox), fraction_(new QDoubleSpinBox), seed_(new QSpinBox),
      image_(new QGroupBox(tr("Input pipeline (image folders)"))), resize_(new QComboBox), normalize_(new QComboBox),
      flip_(new QCheckBox(tr("Random horizontal flip"))) {
    validation_->addItem(tr("None"), "none");
    validation_->addItem(tr("Test split"), "test");
    validation_->addItem(tr("Fraction of the training split"), "split");
    fraction_->setRange(0.01, 0.9);
    fraction_->setSingleStep(0.05);
    fraction_->setDecimals(2);
    seed_->setRange(0, 2147483647);
    seed_->setToolTip(tr("Chooses which images are held out, and the shuffling"));
    resize_->addItem(tr("Stretch"), "stretch");
    resize_->addItem(tr("Fill and crop"), "crop");
    resize_->addItem(tr("Fit and pad"), "pad");
    normalize_->addItem(tr("Scale to [0, 1]"), "scale");
    normalize_->addItem(tr("Standardize (training mean/std)"), "standardize");
    normalize_->addItem(tr("ImageNet mean/std (torchvision models)"), "imagenet");
    normalize_->addItem(tr("Scale to [-1, 1] (Keras MobileNetV2)"), "symmetric");
    translate_ = augmentSpin(0.5, 0.05);
    rotate_ = augmentSpin(180, 5, tr("°"));
    brightness_ = augmentSpin(1, 0.05);
    contrast_ = augmentSpin(1, 0.05);

    auto* split = new QGroupBox(tr("Validation"));
    auto* splitForm = new QFormLayout(split);
    splitForm->addRow(tr("Validate on"), validation_);
    splitForm->addRow(tr("Fraction"), fraction_);
    splitForm->addRow(tr("Seed"), seed_);
    auto* imageForm = new QFormLayout(image_);
    imageForm->addRow(tr("Resize"), resize_);
    imageForm->addRow(tr("Normalize"), normalize_);
    imageForm->addRow(flip_);
    imageForm->addRow(tr("Translate (fraction)"), translate_);
    imageForm->addRow(tr("Rotate up to"), rotate_);
    imageForm->addRow(tr("Brightness ±"), brightness_);
    imageForm->addRow(tr("Contrast ±"), contrast_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    layout->addWidget(image_);
    layout->addStretch();

    for (QComboBox* box : {validation_, resize_, normalize_})
        connect(box, &QComboBox::currentIndexChanged, this, &BindingSettings::apply);
    for (QDoubleSpinBox* spin : {fraction_, translate_, rotate_, brightness_, contrast_})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &BindingSettings::apply);
    connect(seed_, &QSpinBox::valueChanged, this, &BindingSettings::apply);
    connect(flip_, &QCheckBox::toggled, this, &BindingSettings::apply);
    connect(doc_, &ProjectDocument::changed, this, [this](const DocumentChange& c) {
        if (c.kind == DocumentChange::Reset || c.kind == DocumentChange::SettingsChanged) refresh();
    });
    refresh();
}

QDoubleSpinBox* BindingSettings::augmentSpin(double max, double step, const QString& suffix) {
    auto* spin = new QDoubleSpinBox;
    spin->setRange(0, max);
    spin->setSingleStep(step);
    spin->setDecimals(2);
    spin->setSuffix(suffix);
    spin->setSpecialValueText(tr("off"));
    return spin;
}

DatasetBinding BindingSettings::binding() const {
    DatasetBinding b = doc_->project().dataset;
    b.validation = validation_->currentData().toString().toStdString();
    b.validation_split = b.validation == "split" ? fraction_->value() : 0.0;
    Params& p = b.image;
    put<std::string>(p, "resize", resize_->currentData().toString().toStdString(), "stretch");
    put<std::string>(p, "normalize", normalize_->currentData().toString().toStdString(), "scale");
    put(p, "flip", flip_->isChecked(), false);
    put(p, "translate", translate_->value(), 0.0);
    put(p, "rotate", rotate_->value(), 0.0);
    put(p, "brightness", brightness_->value(), 0.0);
    put(p, "contrast", contrast_->value(), 0.0);
    return b;
}

void BindingSettings::apply() {
    if (refreshing_) return;
    fraction_->setEnabled(validation_->currentData() == "split");
    TrainingConfig training = doc_->project().training;
    training.seed = seed_->value();
    DatasetBinding b = binding();
    if (b == doc_->project().dataset && training == doc_->project().training) return;
    doc_->push(new SetTrainingCommand(doc_, std::move(training), std::move(b)));
}

void BindingSettings::refresh() {
    refreshing_ = true;
    const DatasetBinding& b = doc_->project().dataset;
    selectData(validation_, QString::fromStdString(b.validation));
    fraction_->setValue(b.validation_split > 0 ? b.validation_split : 0.1);
    fraction_->setEnabled(b.validation == "split");
    seed_->setValue(int(doc_->project().training.seed));
    selectData(resize_, text(b.image, "resize", "stretch"));
    selectData(normalize_, text(b.image, "normalize", "scale"));
    auto flip = b.image.find("flip");
    flip_->setChecked(flip != b.image.end() && std::holds_alternative<bool>(flip->second) && std::get<bool>(flip->second));
    translate_->setValue(number(b.image, "translate"));
    rotate_->setValue(number(b.image, "rotate"));
    brightness_->setValue(number(b.image, "brightness"));
    contrast_->setValue(number(b.image, "contrast"));
    image_->setEnabled(b.kind == "image-folder");
    image_->setToolTip(b.kind == "image-folder" ? QString() : tr("Fashion-MNIST (installed) is read into memory as is"));
    refreshing_ = false;
}

}  // namespace lf::ui
