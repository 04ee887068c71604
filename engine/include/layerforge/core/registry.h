#pragma once
// The storage of the engine's name tables (layer types, losses, metrics). Entries are added at
// start-up, built-ins first and then plugins, and never after freeze(): from then on any thread
// may read without a lock. A deque never moves its elements when one is appended, so pointers
// handed out earlier (an analysis keeps LayerSpec pointers) stay valid while plugins add theirs.
#include <deque>
#include <string>
#include <utility>

#include "layerforge/core/error.h"

namespace lf {

// T's member `Key` names an entry ("Dense", "MeanSquaredError").
template <class T, std::string T::*Key>
class Registry {
public:
    // `what` names the entry for the message: "layer type 'Swish'".
    void add(T entry, const std::string& what) {
        if (frozen_)
            throw runtime_error("cannot add " + what +
                                ": the registries are frozen once start-up is done (load plugins before anything else)");
        entries_.push_back(std::move(entry));
    }
    // Called once on the start-up thread, before other threads read.
    void freeze() { frozen_ = true; }
    bool frozen() const { return frozen_; }
    const std::deque<T>& all() const { return entries_; }
    const T* find(const std::string& key) const {
        for (const T& e : entries_)
            if (e.*Key == key) return &e;
        return nullptr;
    }

private:
    std::deque<T> entries_;
    bool frozen_ = false;
};

}  // namespace lf
