#pragma once
// The evaluation view's work, run on a worker thread: the project's test split (or its
// validation data) through the current weights, batch by batch, into a confusion matrix,
// per-class scores, every sample's prediction, and the misclassified samples with their
// probabilities and thumbnails;
// and one image file through the engine's predict_image_files for the drop-to-classify view.
#include <QImage>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/train/confusion.h"

namespace lf::ui {

struct Misclassified {
    qint64 index = 0;  // position in the split
    int label = 0, predicted = 0;
    float confidence = 0;              // probability of the predicted class
    std::vector<float> probabilities;  // one per class
    QImage image;                      // the sample as the model saw it, contrast-stretched
};

// One sample of the split as the model classified it (every sample, not only the mistakes).
struct SampleResult {
    qint64 index = 0;  // position in the split
    int label = 0, predicted = 0;
    float confidence = 0;  // probability of the predicted class
};

struct EvaluationResult {
    QString error;  // empty on success
    QString split;  // "test" or "validation"
    QStringList classNames;
    ConfusionMatrix matrix;
    std::vector<ClassScores> scores;
    std::vector<Misclassified> mistakes;  // in split order
    std::vector<SampleResult> samples;    // every sample, in split order
    std::vector<float> mean, std;          // the binding's standardisation, for dropped images
};

struct EvaluationProgress {
    std::atomic<qint64> done{0}, total{0};
    std::atomic<bool> cancel{false};
};

inline constexpr int kMaxMistakesKept = 5000;

// Never throws: failures come back in `error`. cacheFile: the binding's decoded-sample cache.
EvaluationResult evaluateSplit(std::shared_ptr<Model> model, const Project& project, const std::string& cacheFile,
                               EvaluationProgress& progress);

struct ImagePrediction {
    QString error, path;
    QStringList classNames;
    std::vector<float> probabilities;
    QImage input;  // what the model saw
};

// mean/std: the standardisation the weights were trained with (empty: scale to [0, 1]);
// classNames: the data's (empty: the binding's, from the project or a scan of its folder).
ImagePrediction predictImageFile(std::shared_ptr<Model> model, const Project& project, const QString& path,
                                 const std::vector<float>& mean, const std::vector<float>& std,
                                 const QStringList& classNames);

// A channels-last float sample as an 8-bit image, stretched to its own min..max.
QImage sampleImage(const float* data, int height, int width, int channels);

}  // namespace lf::ui
