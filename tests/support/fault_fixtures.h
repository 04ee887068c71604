#pragma once
// Projects and checks shared by the resource-fault tests of the CLI and of the studio.
#include <QtTest>

#include "image_folder_fixture.h"
#include "layerforge/project/project.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"

// The tiny image project that decodes its files every epoch (no cache), so deleting them bites.
inline lf::Project uncachedProject(const QString& images, std::int64_t epochs) {
    lf::Project p = tinyImageProject(images, epochs);
    p.dataset.image["cache"] = std::string("none");
    return p;
}

// A model whose training plan needs ~4.3 GB at batch 64 (a 1x1 Conv2D with 2,048 filters on a
// 64x64 input) while its weights take 0.04 MB: the plan is the allocation a limit refuses or an
// address-space limit makes fail, on any machine with room for it (bigger plans are refused
// before anything is allocated, require_training_fits).
inline lf::Project hugePlanProject(const QString& images) {
    lf::Project p = tinyImageProject(images, 1);
    p.graph.nodes = {{"input", "Input", "input", {{"shape", lf::IntList{64, 64, 1}}}, 0, 0},
                     {"conv", "Conv2D", "conv", {{"filters", std::int64_t(2048)}, {"kernel_size", lf::IntList{1, 1}}}, 0, 0},
                     {"gap", "GlobalAveragePooling2D", "gap", {}, 0, 0},
                     {"dense", "Dense", "dense", {{"units", std::int64_t(3)}}, 0, 0},
                     {"softmax", "Softmax", "softmax", {}, 0, 0}};
    p.graph.edges = {{{"input", 0}, {"conv", 0}}, {{"conv", 0}, {"gap", 0}}, {{"gap", 0}, {"dense", 0}},
                     {{"dense", 0}, {"softmax", 0}}};
    p.training.batch_size = 64;  // 60 images: batches of 60
    return p;
}

// Every checkpoint of the run passes its checksum and loads into the project's model.
inline void verifyRestorable(lf::RunStore& store, const lf::Project& p, std::int64_t run) {
    const auto saved = store.checkpoints(run);
    QVERIFY(!saved.empty());
    for (const lf::CheckpointInfo& c : saved) {
        lf::Model m(p.graph);
        QVERIFY(lf::restore_checkpoint_weights(m, store.checkpoint_blob(c.id), "checkpoint", false).empty());
    }
}
