// Must not compile: store depends on train, so train cannot include store.
#include "layerforge/store/run_store.h"
