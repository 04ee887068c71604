#pragma once
// The memory accounts moved to core (layerforge/core/memory.h), so core no longer reaches up
// into graph. This name stays only for backend/cpu/cpu_backend.cpp until its owner next edits
// it; new code includes core/memory.h.
#include "layerforge/core/memory.h"
