// The g++ build of a fuzz target: feeds every file of the given corpus folders to
// LLVMFuzzerTestOneInput once, so CTest replays the committed corpora without clang or libFuzzer.
// An escaping exception or a sanitizer report fails the run; it names the file being replayed.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_target.h"

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i)
        for (const auto& e : fs::recursive_directory_iterator(argv[i]))
            if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "no corpus files under the given folders\n");
        return 2;
    }
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        try {
            LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: escaped exception: %s\n", f.c_str(), e.what());
            return 1;
        }
    }
    std::printf("%zu corpus files replayed\n", files.size());
    return 0;
}
