// Must not compile: core is below graph (the memory accounts moved into core for this).
#include "layerforge/graph/graph.h"
