// The parts of data-parallel training that need no second process: how a batch is split among
// the ranks (Shard, the tensor source and the image pipeline), how the gradient buffer is cut
// into buckets, and that a bucket's sum starts while backward() is still running. The MPI
// suites (test_mpi_collectives, tests/cli/test_cli_distributed) run the real thing.
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>
#include <random>

#include "graph_builder.h"
#include "image_folder_fixture.h"
#include "synthetic_data.h"
#include "layerforge/data/pipeline.h"
#include "layerforge/devices/devices.h"
#include "layerforge/project/project.h"
#include "layerforge/train/host_loss.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/trainer.h"
#include "train/data_parallel.h"

namespace {

// One process as a whole world: a sum over one rank is the array itself, a broadcast from it
// changes nothing.
class OneRankWorld : public lf::Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string host(int) const override { return "here"; }
    int local_rank() const override { return 0; }
    void wait_until(const std::function<bool()>& done, lf::Collective) override {
        while (!done()) {}
    }
    void broadcast(float*, std::size_t, int, lf::Collective) override {}
    void broadcast(std::string&, int, lf::Collective) override {}
    [[noreturn]] void abort(const std::string& m) override {
        std::fprintf(stderr, "abort: %s\n", m.c_str());
        std::abort();
    }
};

// Recording what DataParallel asks of it.
class RecordingWorld final : public OneRankWorld {
public:
    void start_sum(float* data, std::size_t n) override {
        starts.push_back({data, n, plan ? steps_run() - baseline : 0});
    }
    void progress() override { ++progress_calls; }
    void wait_all(lf::Collective) override { ++waits; }
    void sum(double*, std::size_t, lf::Collective) override { ++sums; }

    struct Start {
        float* data;
        std::size_t n;
        std::int64_t steps_done;  // backward steps run when it started
    };
    // Backward steps the plan has run so far in its current backward().
    std::int64_t steps_run() const {
        std::int64_t n = 0;
        for (const lf::LayerProfile& p : plan->profile()) n += p.backwards;
        return n;
    }
    const lf::Plan* plan = nullptr;
    std::int64_t baseline = 0;  // steps_run() before the step under test
    std::vector<Start> starts;
    int progress_calls = 0, waits = 0, sums = 0;
};

// One process as a whole world whose per-step sum can run `after` once it has summed (at the
// `at`-th step): what a stop request that reaches this rank just after the sum looks like.
class LateRequestWorld final : public OneRankWorld {
public:
    void start_sum(float*, std::size_t) override {}
    void progress() override {}
    void wait_all(lf::Collective) override {}
    void sum(double*, std::size_t, lf::Collective what) override {
        if (std::string(what.what) == "the loss and metrics exchange" && ++steps == at && after) after();
    }

    std::int64_t at = 0, steps = 0;
    std::function<void()> after;
};

std::string templatePath(const char* name) {
    return qEnvironmentVariable("LF_SOURCE_DIR").toStdString() + "/resources/templates/" + name;
}

}  // namespace

class TestDataParallel : public QObject {
    Q_OBJECT

private slots:
    void shards_cover_every_batch_once() {
        for (int world = 1; world <= 7; ++world)
            for (std::int64_t count = 0; count <= 60; ++count) {
                std::int64_t next = 0, smallest = count, largest = 0;
                for (int r = 0; r < world; ++r) {
                    const lf::Shard s{r, world};
                    QCOMPARE(s.begin(count), next);  // contiguous, in rank order
                    QVERIFY(s.end(count) >= s.begin(count));
                    next = s.end(count);
                    smallest = std::min(smallest, s.size(count));
                    largest = std::max(largest, s.size(count));
                }
                QCOMPARE(next, count);               // nothing left over
                QVERIFY(largest - smallest <= 1);    // balanced
            }
        QCOMPARE((lf::Shard{0, 3}.size(50)), std::int64_t(16));
        QCOMPARE((lf::Shard{2, 3}.size(50)), std::int64_t(17));
        QCOMPARE((lf::Shard{0, 2}.size(1)), std::int64_t(0));  // fewer rows than ranks: an empty part
    }

    void tensor_source_parts_are_the_global_batches() {
        lf::TensorDataset data;
        data.sample_shape = lf::Shape({2});
        for (int i = 0; i < 23; ++i) {
            data.images.push_back(float(i));
            data.images.push_back(float(-i));
            data.labels.push_back(i % 5);
        }
        data.class_names = {"a", "b", "c", "d", "e"};
        const int world = 3;
        lf::TensorSource whole(data, 10, true, 7);
        std::vector<std::unique_ptr<lf::TensorSource>> ranks;
        for (int r = 0; r < world; ++r) {
            ranks.push_back(std::make_unique<lf::TensorSource>(data, 10, true, 7));
            ranks.back()->set_shard({r, world});
            QCOMPARE(ranks.back()->size(), std::int64_t(23));  // the global sizes
            QCOMPARE(ranks.back()->steps_per_epoch(), std::int64_t(3));
        }
        for (std::int64_t epoch = 1; epoch <= 2; ++epoch) {
            whole.start_epoch(epoch);
            for (auto& r : ranks) r->start_epoch(epoch);
            for (int step = 0; step < 3; ++step) {
                const lf::BatchView b = whole.next();
                std::vector<std::int32_t> labels;
                std::vector<float> images;
                for (auto& r : ranks) {
                    const lf::BatchView part = r->next();
                    labels.insert(labels.end(), part.labels, part.labels + part.count);
                    images.insert(images.end(), part.images, part.images + 2 * part.count);
                }
                QCOMPARE(std::int64_t(labels.size()), b.count);
                QVERIFY(std::equal(labels.begin(), labels.end(), b.labels));
                QVERIFY(std::equal(images.begin(), images.end(), b.images));
            }
            for (auto& r : ranks) QCOMPARE(r->next().count, std::int64_t(0));
        }
    }

    void image_pipeline_parts_are_the_global_batches() {
        QTemporaryDir dir;
        writeImageFolder(dir.path());
        std::vector<lf::LabeledFile> files;
        const QStringList classes{"dark", "mid", "light"};
        for (int c = 0; c < 3; ++c)
            for (int i = 0; i < 20; ++i)
                files.push_back({(dir.path() + QString("/train/%1/%2.png").arg(classes[c]).arg(i)).toStdString(), c});
        // One file that cannot be decoded: every rank that meets it drops it again each epoch.
        const std::string bad = (dir.path() + "/train/dark/bad.png").toStdString();
        QFile f(QString::fromStdString(bad));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a png");
        f.close();
        files.insert(files.begin() + 7, {bad, 0});
        lf::PipelineOptions o;
        o.sample = {8, 8, 1};
        o.batch_size = 9;
        o.shuffle = true;
        o.seed = 11;
        o.augment = true;
        o.augmentation.flip = true;
        o.workers = 2;
        const int world = 2;
        std::vector<std::unique_ptr<lf::ImagePipeline>> ranks;
        for (int r = 0; r < world; ++r) {
            ranks.push_back(std::make_unique<lf::ImagePipeline>(files, std::vector<std::string>{"dark", "mid", "light"}, o));
            ranks.back()->set_shard({r, world});
        }
        for (std::int64_t epoch = 1; epoch <= 2; ++epoch) {
            // A single pipeline that meets the bad file for the first time in this epoch (a
            // single process leaves a failed file out of its later epochs; split ones cannot).
            lf::ImagePipeline whole(files, {"dark", "mid", "light"}, o);
            whole.start_epoch(epoch);
            for (auto& r : ranks) {
                r->start_epoch(epoch);
                QCOMPARE(r->steps_per_epoch(), std::int64_t(7));  // 61 files, the bad one too
            }
            std::vector<std::int32_t> got, want;
            std::vector<float> got_images, want_images;
            for (lf::BatchView b = whole.next(); b.count; b = whole.next()) {
                want.insert(want.end(), b.labels, b.labels + b.count);
                want_images.insert(want_images.end(), b.images, b.images + 64 * b.count);
            }
            for (int step = 0; step < 7; ++step)
                for (auto& r : ranks) {
                    const lf::BatchView part = r->next();
                    got.insert(got.end(), part.labels, part.labels + part.count);
                    got_images.insert(got_images.end(), part.images, part.images + 64 * part.count);
                }
            // The same samples, augmented the same way (the seed is the global position).
            QCOMPARE(got, want);
            QCOMPARE(got_images, want_images);
            std::int64_t failed = 0;
            for (auto& r : ranks) failed += r->stats().failed;
            QCOMPARE(failed, std::int64_t(1));
        }
    }

    void buckets_hold_whole_weights_from_the_top() {
        const lf::Project p = lf::load_project(templatePath("fashion_cnn.lfproj"));
        lf::Model model(p.graph);
        const std::size_t t = model.trainable_size();
        for (std::size_t floats : {std::size_t(1), std::size_t(1000), std::size_t(100000), t + 1}) {
            const std::vector<lf::GradientBucket> b = lf::make_buckets(model, floats);
            QVERIFY(!b.empty());
            QCOMPARE(b.front().end, t);   // the highest offsets first
            QCOMPARE(b.back().begin, std::size_t(0));
            for (std::size_t i = 0; i + 1 < b.size(); ++i) {
                QCOMPARE(b[i + 1].end, b[i].begin);  // contiguous, no gap, no overlap
                QVERIFY(b[i].end - b[i].begin >= floats);
            }
            for (const lf::WeightRef& r : model.weight_refs()) {  // no weight is split
                if (!r.trainable) continue;
                bool inside = false;
                for (const lf::GradientBucket& k : b) inside = inside || (r.offset >= k.begin && r.offset + r.size <= k.end);
                QVERIFY2(inside, r.name.c_str());
            }
        }
        QCOMPARE(lf::make_buckets(model, t + 1).size(), std::size_t(1));
    }

    void sums_start_while_backward_runs() {
        const lf::Project p = lf::load_project(templatePath("fashion_cnn.lfproj"));
        lf::Model model(p.graph);
        model.init_weights(3);
        std::vector<std::unique_ptr<lf::Metric>> metrics;
        metrics.push_back(lf::make_metric("accuracy"));
        RecordingWorld world;
        auto device = lf::load_model(model, "cpu");
        lf::DataParallel dp(world, *device, metrics, 2000);  // small buckets: several of them
        QVERIFY(dp.buckets().size() >= 3);
        lf::PlanOptions o;
        o.batch = 6;
        std::unique_ptr<lf::Plan> plan = device->make_plan(o);
        world.plan = plan.get();
        dp.attach(*plan);
        lf::HostLoss host(*plan);
        std::vector<float> x(std::size_t(6 * plan->input_width()));
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(0, 1);
        for (float& v : x) v = u(rng);
        const std::vector<std::int32_t> labels{0, 1, 2, 3, 4, 5};
        const std::unique_ptr<lf::Loss> loss = lf::make_loss("SparseCategoricalCrossentropy", {});

        // The reference: the plain gradient of the same batch.
        plan->set_input(x.data());
        host.train_step(*loss, labels.data());
        const std::vector<float> reference(model.grads().begin(), model.grads().begin() + std::ptrdiff_t(model.trainable_size()));

        // This rank has 6 of a global batch of 8: its buckets are scaled by 6/8 before the sum.
        const std::int64_t steps_with_grads = world.steps_run();  // one backward so far
        world.baseline = steps_with_grads;
        dp.begin_step(*plan, 6, 8, 0);
        plan->set_input(x.data());
        host.train_step(*loss, labels.data());
        QCOMPARE(world.starts.size(), dp.buckets().size());  // each bucket once
        QVERIFY2(world.starts.front().steps_done < steps_with_grads,
                 "the first bucket's sum should start before backward has finished");
        QVERIFY(world.progress_calls > 0);
        // Started in the order backward finished them: the top of the buffer first.
        QCOMPARE(world.starts.front().data + world.starts.front().n,
                 model.grads().data() + model.trainable_size());
        metrics[0]->update(host.output(), labels.data(), 6, plan->output_width());
        const lf::DataParallel::Totals t = dp.finish_step(1.5, false);
        QCOMPARE(world.sums, 1);
        QCOMPARE(world.waits, 1);
        QCOMPARE(t.rows, std::int64_t(6));  // one rank: its own totals
        // A world of one sums nothing: 6/8 of the gradient, then scaled back by 8/6 as only 6
        // rows arrived (files that failed elsewhere would do the same).
        for (std::size_t i = 0; i < reference.size(); ++i)
            QVERIFY2(std::abs(model.grads()[i] - reference[i]) <= 1e-6f * (1 + std::abs(reference[i])),
                     qPrintable(QString("gradient %1: %2 vs %3").arg(i).arg(model.grads()[i]).arg(reference[i])));
        QCOMPARE(dp.world_metrics()[0]->state(), metrics[0]->state());
    }

    // A stop request that lands after a step's sum (a signal reaches the ranks at slightly
    // different times) must not stop this rank at that step: the others, whose sum said "go
    // on", would wait for it. It travels in the next step's sum, where every rank stops.
    void a_stop_after_the_steps_sum_stops_at_the_next_step() {
        lf::Model model(mlp_builder({4}, 8, "relu", 3).graph);
        model.init_weights(1);
        lf::TrainingConfig config;
        config.optimizer = {"SGD", {{"learning_rate", 0.1}}};
        config.epochs = 100000;
        config.batch_size = 10;
        lf::Trainer trainer(model, config);
        LateRequestWorld world;
        world.at = 3;
        world.after = [&] { trainer.request_stop(); };
        trainer.set_communicator(&world);
        const lf::TensorDataset train = synthetic(40);
        const lf::FitResult r = trainer.fit(train, nullptr);
        QCOMPARE(r.status, lf::RunStatus::Stopped);
        QCOMPARE(r.steps, std::int64_t(4));
        QCOMPARE(world.steps, std::int64_t(4));
    }

    void an_empty_part_still_takes_part() {
        const lf::Project p = lf::load_project(templatePath("fashion_mlp.lfproj"));
        lf::Model model(p.graph);
        model.init_weights(1);
        std::fill(model.grads().begin(), model.grads().end(), 3.f);
        std::vector<std::unique_ptr<lf::Metric>> metrics;
        RecordingWorld world;
        auto device = lf::load_model(model, "cpu");
        lf::DataParallel dp(world, *device, metrics, 1000);
        lf::PlanOptions o;
        o.batch = 2;
        std::unique_ptr<lf::Plan> plan = device->make_plan(o);
        dp.attach(*plan);
        dp.begin_step(*plan, 0, 1, 4);
        dp.skip_backward();
        QCOMPARE(world.starts.size(), dp.buckets().size());
        for (std::size_t i = 0; i < model.trainable_size(); ++i) QCOMPARE(model.grads()[i], 0.f);
        QCOMPARE(dp.finish_step(0, false).rows, std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestDataParallel)
#include "test_data_parallel.moc"
