// Must compile: store declares train (checkpoints hold the optimizer state and TrainState).
#include "layerforge/store/checkpoint.h"
#include "layerforge/train/train_state.h"
