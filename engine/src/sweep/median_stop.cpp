#include <algorithm>

#include "layerforge/sweep/sweep.h"

namespace lf {

namespace {

double best_so_far(const std::vector<double>& curve, std::size_t epochs, bool maximize) {
    const auto end = curve.begin() + std::ptrdiff_t(epochs);
    return maximize ? *std::max_element(curve.begin(), end) : *std::min_element(curve.begin(), end);
}

}  // namespace

bool median_says_stop(const std::vector<std::vector<double>>& earlier, const std::vector<double>& curve, bool maximize,
                      const MedianStop& rule) {
    const std::size_t epochs = curve.size();
    if (epochs == 0 || std::int64_t(epochs) <= rule.warmup_epochs) return false;
    std::vector<double> others;
    for (const std::vector<double>& c : earlier)
        if (c.size() >= epochs) others.push_back(best_so_far(c, epochs, maximize));
    if (others.empty() || std::int64_t(others.size()) < rule.min_trials) return false;
    std::sort(others.begin(), others.end());
    const std::size_t n = others.size();
    const double median = n % 2 ? others[n / 2] : (others[n / 2 - 1] + others[n / 2]) / 2;
    const double mine = best_so_far(curve, epochs, maximize);
    return maximize ? mine < median : mine > median;
}

}  // namespace lf
