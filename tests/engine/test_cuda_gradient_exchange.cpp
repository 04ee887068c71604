// CudaGradientExchange, the GPU side of data-parallel training, without a GPU: two ranks on
// two threads, each with a CUDA context whose module table is host memory and whose "NCCL
// clique" sums the two ranks' arrays when both have joined. Checks the set-up (rank 0's id
// reaches rank 1 through the host communicator), the scaled in-place sums of the ranges asked,
// that the waits go through the communicator's deadline (wait_until), the scaling entry, and
// the messages when NCCL is missing or a rank cannot join. tests/gpu/gpu_check.sh runs the
// real NCCL on the GPU machine.
#include <QtTest>

#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "backend/cuda/cuda_gradient_exchange.h"
#include "host_cuda_api.h"
#include "layerforge/core/error.h"

namespace {

constexpr int kRanks = 2;

// The stand-in module: a context's device is its rank; the clique pairs the ranks' queued sums.
struct PendingSum {
    float* data;
    std::size_t n;
    float scale;
};
struct Clique {
    std::mutex m;
    std::vector<PendingSum> queued[kRanks];
    int joined[kRanks] = {};  // joins so far, per rank
    int summed = 0;           // joins whose sums are done
    std::string id_seen[kRanks];
};
Clique* clique = nullptr;
// Counted here, checked on the test's thread: QTest's macros are for that thread only.
std::atomic<int> host_sums = 0, bodies_run = 0, wait_untils = 0;
int id_calls = 0, create_calls = 0, done_polls = 0;
bool nccl_missing = false, refuse_rank1 = false;

int rank_of(lf_cuda_context* c) { return lf::test::host_cuda_device(c); }

int fail(lf_cuda_error* e, const char* text) {
    e->code = 5;
    std::snprintf(e->text, sizeof e->text, "%s", text);
    return 5;
}

int host_id(unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES], int* version, lf_cuda_error* e) {
    ++id_calls;
    if (nccl_missing) return fail(e, "opening NCCL: NCCL (libnccl.so.2) is not installed");
    for (int i = 0; i < LF_CUDA_COLLECTIVE_ID_BYTES; ++i) id[i] = (unsigned char)(i * 7 + 1);
    *version = 22809;
    return 0;
}
lf_cuda_collective* host_create(lf_cuda_context* c, const unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES], int rank,
                                int size, lf_cuda_error* e) {
    std::lock_guard lock(clique->m);
    ++create_calls;
    if (size != kRanks || rank != rank_of(c)) return nullptr;
    if (refuse_rank1 && rank == 1) {
        fail(e, "ncclCommInitRank: invalid usage (Duplicate GPU detected)");
        return nullptr;
    }
    clique->id_seen[rank].assign(reinterpret_cast<const char*>(id), LF_CUDA_COLLECTIVE_ID_BYTES);
    return reinterpret_cast<lf_cuda_collective*>(c);
}
void host_collective_destroy(lf_cuda_collective*, int) {}
int host_sum(lf_cuda_collective* c, float* data, size_t n, float scale, lf_cuda_error*) {
    std::lock_guard lock(clique->m);
    clique->queued[rank_of(reinterpret_cast<lf_cuda_context*>(c))].push_back({data, n, scale});
    return 0;
}
int host_join(lf_cuda_collective* c, lf_cuda_error*) {
    std::lock_guard lock(clique->m);
    ++clique->joined[rank_of(reinterpret_cast<lf_cuda_context*>(c))];
    return 0;
}
// Done once every rank has joined as often as this one: the first to see it adds up the pairs.
int host_done(lf_cuda_collective* c, int* done, lf_cuda_error*) {
    std::lock_guard lock(clique->m);
    ++done_polls;
    const int mine = clique->joined[rank_of(reinterpret_cast<lf_cuda_context*>(c))];
    *done = 0;
    if (clique->summed >= mine) {
        *done = 1;
        return 0;
    }
    for (int r = 0; r < kRanks; ++r)
        if (clique->joined[r] < mine) return 0;
    auto& a = clique->queued[0];
    auto& b = clique->queued[1];
    if (a.size() != b.size()) return 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (a[k].n != b[k].n) return 0;
        for (std::size_t i = 0; i < a[k].n; ++i) {
            const float s = a[k].data[i] * a[k].scale + b[k].data[i] * b[k].scale;
            a[k].data[i] = s;
            b[k].data[i] = s;
        }
    }
    a.clear();
    b.clear();
    clique->summed = mine;
    *done = 1;
    return 0;
}
lf_cuda_api host_api() {
    lf_cuda_api a = lf::test::host_cuda_api();
    a.collective_id = host_id;
    a.collective_create = host_create;
    a.collective_destroy = host_collective_destroy;
    a.collective_sum = host_sum;
    a.collective_join = host_join;
    a.collective_done = host_done;
    return a;
}

// Two ranks on threads: broadcasts through a shared slot, waits as polling loops (counted).
struct SharedWorld {
    std::barrier<> sync{kRanks};
    std::string slot;
};

class ThreadRank final : public lf::Communicator {
public:
    ThreadRank(SharedWorld& w, int rank) : w_(w), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return kRanks; }
    std::string host(int r) const override { return "host" + std::to_string(r); }
    int local_rank() const override { return rank_; }
    void start_sum(float*, std::size_t) override { ++host_sums; }  // must stay 0: the GPUs sum
    void progress() override {}
    void wait_all(lf::Collective) override {}
    void sum(double*, std::size_t, lf::Collective) override {}
    void broadcast(float*, std::size_t, int, lf::Collective) override {}
    void broadcast(std::string& bytes, int root, lf::Collective) override {
        if (rank_ == root) w_.slot = bytes;
        w_.sync.arrive_and_wait();
        if (rank_ != root) bytes = w_.slot;
        w_.sync.arrive_and_wait();
    }
    void wait_until(const std::function<bool()>& done, lf::Collective) override {
        ++wait_untils;
        while (!done()) std::this_thread::yield();
    }
    [[noreturn]] void abort(const std::string& m) override {
        std::fprintf(stderr, "abort: %s\n", m.c_str());
        std::abort();
    }

private:
    SharedWorld& w_;
    int rank_;
};

const lf_cuda_api kApi = host_api();

// Runs body(rank, exchange-or-error) on both ranks at once; returns each rank's error text.
std::vector<std::string> on_both(const std::function<void(int, lf::CudaGradientExchange&, std::vector<float>&)>& body,
                                 std::vector<std::vector<float>>& grads) {
    Clique c;
    clique = &c;
    SharedWorld shared;
    std::vector<std::string> errors(kRanks);
    std::vector<std::thread> threads;
    for (int r = 0; r < kRanks; ++r)
        threads.emplace_back([&, r] {
            ThreadRank world(shared, r);
            lf::CudaContext context(kApi, r, "cuda:" + std::to_string(r));
            try {
                lf::CudaGradientExchange x(world, context, grads[std::size_t(r)].data());
                body(r, x, grads[std::size_t(r)]);
            } catch (const lf::Error& e) {
                errors[std::size_t(r)] = e.what();
            }
        });
    for (auto& t : threads) t.join();
    clique = nullptr;
    return errors;
}

}  // namespace

class TestCudaGradientExchange : public QObject {
    Q_OBJECT

private slots:
    void init() {
        id_calls = create_calls = done_polls = 0;
        host_sums = bodies_run = wait_untils = 0;
        nccl_missing = refuse_rank1 = false;
    }

    void rank_0s_id_sets_up_every_rank() {
        std::vector<std::vector<float>> grads(kRanks, std::vector<float>(4, 1.f));
        Clique* seen = nullptr;
        std::string ids[kRanks];
        const auto errors = on_both([&](int r, lf::CudaGradientExchange&, std::vector<float>&) {
            seen = clique;
            std::lock_guard lock(clique->m);
            ids[r] = clique->id_seen[r];
        }, grads);
        QCOMPARE(errors[0], std::string());
        QCOMPARE(errors[1], std::string());
        QVERIFY(seen);
        QCOMPARE(id_calls, 1);  // rank 0 alone makes the id
        QCOMPARE(create_calls, 2);
        QCOMPARE(ids[0].size(), std::size_t(LF_CUDA_COLLECTIVE_ID_BYTES));
        QCOMPARE(ids[1], ids[0]);
        QCOMPARE(int((unsigned char)ids[1][3]), 3 * 7 + 1);
    }

    void ranges_are_scaled_then_summed_in_place() {
        std::vector<std::vector<float>> grads{{1, 2, 3, 4, 5, 6}, {10, 20, 30, 40, 50, 60}};
        const auto errors = on_both([&](int r, lf::CudaGradientExchange& x, std::vector<float>&) {
            // rank 0 holds 1 of 4 rows, rank 1 holds 3: each share scales its mean gradient
            const float share = r == 0 ? 0.25f : 0.75f;
            x.start_sum(4, 6, share);  // the top of the buffer first, as backward finishes it
            x.start_sum(1, 4, share);
            x.progress();
            x.wait_all({"the gradient exchange", 3});
        }, grads);
        QCOMPARE(errors[0], std::string());
        QCOMPARE(errors[1], std::string());
        for (int r = 0; r < kRanks; ++r) {
            const auto& g = grads[std::size_t(r)];
            QCOMPARE(g[0], r == 0 ? 1.f : 10.f);  // outside every range: untouched
            const float expect[] = {0, 2 * 0.25f + 20 * 0.75f, 3 * 0.25f + 30 * 0.75f, 4 * 0.25f + 40 * 0.75f,
                                    5 * 0.25f + 50 * 0.75f, 6 * 0.25f + 60 * 0.75f};
            for (int i = 1; i < 6; ++i) QCOMPARE(g[std::size_t(i)], expect[i]);
        }
        QCOMPARE(wait_untils.load(), 2);  // each rank waited under the communicator's deadline
        QVERIFY(done_polls >= 2);
        QCOMPARE(host_sums.load(), 0);
    }

    void two_steps_keep_their_sums_apart() {
        std::vector<std::vector<float>> grads{{1, 1}, {3, 3}};
        float first[kRanks] = {}, second[kRanks] = {};
        const auto errors = on_both([&](int r, lf::CudaGradientExchange& x, std::vector<float>& g) {
            x.start_sum(0, 2, 0.5f);
            x.wait_all({"the gradient exchange", 1});
            first[r] = g[0];
            g = {4.f + float(r), 4.f + float(r)};  // the next step's backward
            x.start_sum(0, 2, 0.5f);
            x.wait_all({"the gradient exchange", 2});
            second[r] = g[1];
        }, grads);
        QCOMPARE(errors[0], std::string());
        QCOMPARE(errors[1], std::string());
        for (int r = 0; r < kRanks; ++r) {
            QCOMPARE(first[r], 2.f);
            QCOMPARE(second[r], 4.5f);
        }
        QCOMPARE(host_sums.load(), 0);
    }

    void scaling_zeroes_or_multiplies_on_the_device() {
        std::vector<std::vector<float>> grads{{NAN, 2, 7}, {1, 2, 7}};
        const auto errors = on_both([&](int r, lf::CudaGradientExchange& x, std::vector<float>&) {
            if (r == 0) x.scale(2, 0.f);  // a rank without rows: no NaN from an earlier step stays
            else x.scale(2, 3.f);
        }, grads);
        QCOMPARE(errors[0], std::string());
        QCOMPARE(grads[0][2], 7.f);  // beyond n: untouched
        QCOMPARE(grads[1][2], 7.f);
        QCOMPARE(grads[0][0], 0.f);
        QCOMPARE(grads[0][1], 0.f);
        QCOMPARE(grads[1][0], 3.f);
        QCOMPARE(grads[1][1], 6.f);
    }

    void missing_nccl_is_named_on_every_rank() {
        nccl_missing = true;
        std::vector<std::vector<float>> grads(kRanks, std::vector<float>(2));
        const auto errors = on_both([](int, lf::CudaGradientExchange&, std::vector<float>&) { ++bodies_run; }, grads);
        QCOMPARE(bodies_run.load(), 0);  // no exchange without NCCL
        QVERIFY2(errors[0].find("libnccl.so.2") != std::string::npos, errors[0].c_str());
        QVERIFY2(errors[0].find("cuda:0") != std::string::npos, errors[0].c_str());
        QVERIFY2(errors[1].find("rank 0 could not set up NCCL") != std::string::npos, errors[1].c_str());
        QCOMPARE(create_calls, 0);
    }

    void a_rank_that_cannot_join_says_which_and_why() {
        refuse_rank1 = true;
        std::vector<std::vector<float>> grads(kRanks, std::vector<float>(2));
        const auto errors = on_both([](int, lf::CudaGradientExchange&, std::vector<float>&) {}, grads);
        QCOMPARE(errors[0], std::string());
        QVERIFY2(errors[1].find("rank 1 of 2") != std::string::npos, errors[1].c_str());
        QVERIFY2(errors[1].find("host1") != std::string::npos, errors[1].c_str());
        QVERIFY2(errors[1].find("Duplicate GPU") != std::string::npos, errors[1].c_str());
        QVERIFY2(errors[1].find("GPU of its own") != std::string::npos, errors[1].c_str());
    }
};

QTEST_GUILESS_MAIN(TestCudaGradientExchange)
#include "test_cuda_gradient_exchange.moc"
