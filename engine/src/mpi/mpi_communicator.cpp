// lf::Communicator over MPI-3 non-blocking collectives. Every wait polls with a deadline instead
// of blocking in MPI, so a rank that died or hangs cannot stall the others forever: when the
// deadline passes, the waiting rank asks every other rank whether it is alive (on a separate
// communicator the waiting ranks keep answering), names the ones that do not answer, and ends
// the job with MPI_Abort. Rank 0 gives up first, so its message is the one a user reads; the
// others wait a few seconds longer.
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "mpi_entry.h"

namespace lf {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kProbeTag = 1, kAnswerTag = 2;
constexpr double kAnswerSeconds = 3;  // how long a timed-out rank waits for the others' answers
constexpr double kLaterRanksGrace = 5;  // ranks other than 0 wait this much longer

class MpiCommunicator final : public Communicator {
public:
    MpiCommunicator(double timeout, double setup_timeout) : timeout_(timeout), setup_timeout_(setup_timeout) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
        MPI_Comm_dup(MPI_COMM_WORLD, &probes_);
        MPI_Comm_set_errhandler(probes_, MPI_ERRORS_RETURN);  // a dead peer is an answer, not a crash
        MPI_Comm_rank(comm_, &rank_);
        MPI_Comm_size(comm_, &size_);
        char name[MPI_MAX_PROCESSOR_NAME] = {};
        int len = 0;
        MPI_Get_processor_name(name, &len);
        std::vector<char> all(std::size_t(size_) * MPI_MAX_PROCESSOR_NAME);
        MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm_);
        for (int r = 0; r < size_; ++r) hosts_.emplace_back(all.data() + std::size_t(r) * MPI_MAX_PROCESSOR_NAME);
        MPI_Comm node = MPI_COMM_NULL;  // the ranks sharing this host's memory
        MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &local_rank_);
        MPI_Comm_free(&node);
        pending_.reserve(64);
    }

    ~MpiCommunicator() override {
        MPI_Comm_free(&probes_);
        MPI_Comm_free(&comm_);
        MPI_Finalize();
    }

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    std::string host(int r) const override { return hosts_.at(std::size_t(r)); }
    int local_rank() const override { return local_rank_; }

    void start_sum(float* data, std::size_t n) override {
        for (std::size_t done = 0; done < n;) {
            const int count = int(std::min<std::size_t>(n - done, INT_MAX));
            pending_.emplace_back();
            MPI_Iallreduce(MPI_IN_PLACE, data + done, count, MPI_FLOAT, MPI_SUM, comm_, &pending_.back());
            done += std::size_t(count);
        }
    }

    void progress() override {
        if (pending_.empty()) return;
        int flag = 0;
        MPI_Testall(int(pending_.size()), pending_.data(), &flag, MPI_STATUSES_IGNORE);
        if (flag) pending_.clear();
    }

    void wait_all(Collective what) override {
        wait(pending_, what);
        pending_.clear();
    }

    void sum(double* data, std::size_t n, Collective what) override {
        MPI_Request r;
        MPI_Iallreduce(MPI_IN_PLACE, data, int(n), MPI_DOUBLE, MPI_SUM, comm_, &r);
        wait_one(r, what);
    }

    void broadcast(float* data, std::size_t n, int root, Collective what) override {
        for (std::size_t done = 0; done < n;) {
            const int count = int(std::min<std::size_t>(n - done, INT_MAX));
            MPI_Request r;
            MPI_Ibcast(data + done, count, MPI_FLOAT, root, comm_, &r);
            wait_one(r, what);
            done += std::size_t(count);
        }
    }

    void broadcast(std::string& bytes, int root, Collective what) override {
        unsigned long long n = bytes.size();
        MPI_Request r;
        MPI_Ibcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, comm_, &r);
        wait_one(r, what);
        if (rank_ != root) bytes.resize(std::size_t(n));
        for (std::size_t done = 0; done < n;) {
            const int count = int(std::min<std::size_t>(std::size_t(n) - done, INT_MAX));
            MPI_Ibcast(bytes.data() + done, count, MPI_CHAR, root, comm_, &r);
            wait_one(r, what);
            done += std::size_t(count);
        }
    }

    void wait_until(const std::function<bool()>& done, Collective what) override {
        poll(done, what);
    }

    [[noreturn]] void abort(const std::string& message) override {
        std::fprintf(stderr, "rank %d (host %s): %s\n", rank_, hosts_[std::size_t(rank_)].c_str(), message.c_str());
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
        _exit(1);  // MPI_Abort does not return; this keeps [[noreturn]] honest if it does
    }

private:
    void wait_one(MPI_Request& r, Collective what) {
        one_.assign(1, r);
        wait(one_, what);
    }

    void wait(std::vector<MPI_Request>& requests, Collective what) {
        if (requests.empty()) return;
        poll([&] {
            int flag = 0;
            MPI_Testall(int(requests.size()), requests.data(), &flag, MPI_STATUSES_IGNORE);
            return flag != 0;
        }, what);
    }

    // Polls until done(), answering the other ranks' liveness probes meanwhile; past the
    // deadline, finds who is missing and ends the job.
    template <class Done>
    void poll(const Done& done, Collective what) {
        const double limit = (what.setup ? setup_timeout_ : timeout_) + (rank_ == 0 ? 0 : kLaterRanksGrace);
        const auto start = Clock::now();
        for (long spins = 0;; ++spins) {
            if (done()) return;
            answer_probes();
            // Spin briefly (a sum between ranks on one machine takes microseconds), then yield
            // the core: ranks may share cores with each other and with the data workers.
            if (spins > 200) std::this_thread::sleep_for(std::chrono::microseconds(spins > 20000 ? 200 : 20));
            if ((spins & 255) == 0 && seconds_since(start) > limit) give_up(what, limit);
        }
    }

    void answer_probes() {
        for (;;) {
            int flag = 0;
            MPI_Status st;
            if (MPI_Iprobe(MPI_ANY_SOURCE, kProbeTag, probes_, &flag, &st) != MPI_SUCCESS || !flag) return;
            int token = 0;
            MPI_Recv(&token, 1, MPI_INT, st.MPI_SOURCE, kProbeTag, probes_, MPI_STATUS_IGNORE);
            MPI_Send(&token, 1, MPI_INT, st.MPI_SOURCE, kAnswerTag, probes_);  // eager: never blocks
        }
    }

    [[noreturn]] void give_up(Collective what, double limit) {
        std::vector<int> tokens(std::size_t(size_), rank_), answers(std::size_t(size_), -1);
        std::vector<MPI_Request> sends, recvs;
        for (int r = 0; r < size_; ++r) {
            if (r == rank_) continue;
            sends.emplace_back();
            MPI_Isend(&tokens[std::size_t(r)], 1, MPI_INT, r, kProbeTag, probes_, &sends.back());
            recvs.emplace_back();
            MPI_Irecv(&answers[std::size_t(r)], 1, MPI_INT, r, kAnswerTag, probes_, &recvs.back());
        }
        const auto start = Clock::now();
        while (seconds_since(start) < kAnswerSeconds) {
            answer_probes();
            int flag = 0;
            if (MPI_Testall(int(recvs.size()), recvs.data(), &flag, MPI_STATUSES_IGNORE) != MPI_SUCCESS || flag) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        std::string missing;
        for (int r = 0; r < size_; ++r)
            if (r != rank_ && answers[std::size_t(r)] != rank_)
                missing += (missing.empty() ? "" : ", ") + ("rank " + std::to_string(r) + " (host " + hosts_[std::size_t(r)] + ")");
        std::string where = what.what;
        if (what.step >= 0) where += " of step " + std::to_string(what.step);
        const std::string secs = std::to_string(int(limit + 0.5));
        abort(missing.empty()
                  ? where + " did not complete within " + secs + " s although every rank answers; stopping the job"
                  : missing + " did not reach " + where + " within " + secs +
                        " s and does not answer (it hangs or has died); stopping the job");
    }

    static double seconds_since(Clock::time_point t) {
        return std::chrono::duration<double>(Clock::now() - t).count();
    }

    double timeout_, setup_timeout_;
    MPI_Comm comm_ = MPI_COMM_NULL, probes_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1, local_rank_ = 0;
    std::vector<std::string> hosts_;
    std::vector<MPI_Request> pending_, one_;
};

}  // namespace

}  // namespace lf

extern "C" __attribute__((visibility("default"))) lf::Communicator* lf_mpi_open(int abi_version, double timeout_seconds,
                                                                               double setup_timeout_seconds, char* error,
                                                                               std::size_t error_size) {
    auto fail = [&](const std::string& m) -> lf::Communicator* {
        if (error && error_size) std::snprintf(error, error_size, "%s", m.c_str());
        return nullptr;
    };
    if (abi_version != LF_MPI_ABI_VERSION)
        return fail("the MPI module was built for another version of Layerforge (ABI " +
                    std::to_string(LF_MPI_ABI_VERSION) + ", the program expects " + std::to_string(abi_version) + ")");
    int provided = 0;
    // Only the training thread calls MPI.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return fail("MPI could not be initialised (is this process started by mpirun or srun?)");
    try {
        return new lf::MpiCommunicator(timeout_seconds, setup_timeout_seconds);
    } catch (const std::exception&) {
        MPI_Finalize();
        return fail("out of memory while starting MPI");
    }
}
