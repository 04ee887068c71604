#include "evaluation/evaluation_job.h"

#include <algorithm>

#include <QCoreApplication>

#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/data/dataset.h"
#include "layerforge/train/inference.h"
#include "layerforge/train/predict_images.h"

namespace lf::ui {

namespace {

QStringList toQt(const std::vector<std::string>& names) {
    QStringList out;
    for (const std::string& n : names) out.append(QString::fromStdString(n));
    return out;
}

// The binding's class names in label order without reading its images: the project's list,
// else the image folder's class folders, else Fashion-MNIST's names.
std::vector<std::string> bindingClassNames(const DatasetBinding& b) {
    if (!b.classes.empty()) return b.classes;
    try {
        if (b.kind == "image-folder") return scan_image_folder(b.path).class_names;
        return load_fashion_mnist(b.path, 1, 1).train.class_names;
    } catch (const Error&) {  // no data at hand: the output units are named "class N"
        return {};
    }
}

}  // namespace

QImage sampleImage(const float* data, int height, int width, int channels) {
    const std::size_t n = std::size_t(height) * std::size_t(width) * std::size_t(channels);
    const auto [lo, hi] = std::minmax_element(data, data + n);
    const float scale = *hi > *lo ? 255.f / (*hi - *lo) : 0.f;
    QImage img(width, height, channels == 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
    for (int y = 0; y < height; ++y) {
        uchar* row = img.scanLine(y);
        for (int x = 0; x < width * (channels == 3 ? 3 : 1); ++x) {
            const std::size_t i = channels == 3 ? std::size_t(y * width * 3 + x) : std::size_t((y * width + x) * channels);
            row[x] = uchar(std::clamp((data[i] - *lo) * scale, 0.f, 255.f));
        }
    }
    return img;
}

EvaluationResult evaluateSplit(std::shared_ptr<Model> model, const Project& project, const std::string& cacheFile,
                               EvaluationProgress& progress) {
    EvaluationResult r;
    try {
        const Shape input = model->info(model->input_node()).layer.output;
        BindOptions options{.input_shape = input, .batch_size = std::max<std::int64_t>(1, project.training.batch_size),
                            .shuffle = false, .cache_file = cacheFile};
        std::unique_ptr<BoundSources> data = bind_sources(project.dataset, project.training.seed, options);
        BatchSource* source = data->test ? data->test.get() : data->validation.get();
        if (!source)
            throw input_error(project.dataset.path + ": no test or validation data; add a test/ folder or set a validation split");
        r.split = data->test ? "test" : "validation";
        r.mean = data->mean, r.std = data->std;
        const std::int64_t width = model->info(model->output_node()).layer.output.elements();
        r.classNames = toQt(class_names_for(data->class_names, width));
        r.matrix = ConfusionMatrix(r.classNames.size());
        progress.total = source->size();
        r.samples.reserve(std::size_t(source->size()));
        Inference inference(*model, project.training);
        TensorDataset batch;
        batch.sample_shape = source->sample_shape();
        batch.class_names = data->class_names;
        const std::int64_t elements = batch.sample_shape.elements();
        source->start_epoch(1);
        qint64 index = 0;
        for (BatchView b = source->next(); b.count; b = source->next()) {
            if (progress.cancel) throw runtime_error("evaluation cancelled");
            batch.images.assign(b.images, b.images + b.count * elements);
            batch.labels.assign(b.labels, b.labels + b.count);
            const std::vector<float> out = inference.predict(batch);
            add_predictions(r.matrix, out.data(), b.labels, b.count, width);
            for (std::int64_t i = 0; i < b.count; ++i, ++index) {
                const float* o = out.data() + i * width;
                const int predicted = predicted_class(o, width);
                std::vector<float> probabilities = class_probabilities(o, width);
                const float confidence = probabilities[std::size_t(predicted)];
                r.samples.push_back({index, b.labels[i], predicted, confidence});
                if (predicted == b.labels[i] || r.mistakes.size() >= std::size_t(kMaxMistakesKept)) continue;
                Misclassified m{index, b.labels[i], predicted, confidence, std::move(probabilities), {}};
                if (input.rank() == 3)
                    m.image = sampleImage(b.images + i * elements, int(input[0]), int(input[1]), int(input[2]));
                r.mistakes.push_back(std::move(m));
            }
            progress.done = index;
        }
        r.scores = class_scores(r.matrix);
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
    }
    return r;
}

ImagePrediction predictImageFile(std::shared_ptr<Model> model, const Project& project, const QString& path,
                                 const std::vector<float>& mean, const std::vector<float>& std,
                                 const QStringList& classNames) {
    ImagePrediction p;
    p.path = path;
    try {
        const FilePrediction f = predict_image_files(*model, project, {path.toStdString()}, mean, std).at(0);
        if (!f.error.empty()) {
            p.error = QString::fromStdString(f.error);
            return p;
        }
        p.probabilities = f.probabilities;
        std::vector<std::string> names;
        for (const QString& n : classNames) names.push_back(n.toStdString());
        if (names.empty()) names = bindingClassNames(project.dataset);
        p.classNames = toQt(class_names_for(names, std::int64_t(f.probabilities.size())));
        const Shape& input = model->info(model->input_node()).layer.output;
        p.input = sampleImage(f.sample.data(), int(input[0]), int(input[1]), int(input[2]));
    } catch (const Error& e) {
        p.error = QString::fromStdString(e.what());
    } catch (const std::bad_alloc&) {
        p.error = QCoreApplication::translate("lf::ui::EvaluationView", "out of memory while predicting");
    } catch (const std::exception&) {  // a bug, not the user's input: its text means nothing to them
        p.error = QCoreApplication::translate("lf::ui::EvaluationView", "an internal error stopped the prediction");
    }
    return p;
}

}  // namespace lf::ui
