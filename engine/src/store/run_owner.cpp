#include "store/run_owner.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace lf::store_detail {

namespace {

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}

// Field 22 of /proc/PID/stat; "" when there is no such process.
std::string start_time_of(const std::string& pid) {
    std::ifstream in("/proc/" + pid + "/stat");
    std::string line;
    if (!std::getline(in, line)) return "";
    const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos) return "";
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && rest >> field; ++i) {
    }
    return rest ? field : "";
}

}  // namespace

std::string this_process_owner() {
    const std::string pid = std::to_string(getpid());
    return host_name() + "/" + pid + "/" + start_time_of(pid);
}

OwnerState owner_state(const std::string& owner) {
    const auto a = owner.find('/'), b = owner.rfind('/');
    if (a == std::string::npos || a == b || owner.substr(0, a) != host_name()) return OwnerState::Unknown;
    const std::string pid = owner.substr(a + 1, b - a - 1), start = owner.substr(b + 1);
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || start.empty())
        return OwnerState::Unknown;
    return start_time_of(pid) == start ? OwnerState::Alive : OwnerState::Gone;
}

}  // namespace lf::store_detail
