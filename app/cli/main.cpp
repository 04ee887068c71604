#include <cstdio>

int main() {
    std::puts("layerforge-cli");
    return 0;
}
