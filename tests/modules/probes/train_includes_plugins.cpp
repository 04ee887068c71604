// Must not compile: plugins add to train's registries; train knows nothing of plugins.
#include "layerforge/plugins/registrar.h"
