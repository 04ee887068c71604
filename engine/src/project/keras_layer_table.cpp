// Keras layer configs -> Layerforge layers. Keras 2 (tf.keras) and Keras 3 write the same
// classes with a few different field names (LeakyReLU alpha / negative_slope, InputLayer
// batch_input_shape / batch_shape) and aliases (MaxPool2D for MaxPooling2D). Fields that do not
// change the computation (dtype, initializers) are ignored; `trainable` becomes the node's flag
// (keras_import.cpp).
#include "project/keras_layer_table.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

#include "layerforge/core/error.h"
#include "layerforge/layers/registry.h"

namespace lf::keras {

namespace {

using Json = nlohmann::json;

// One layer's config with the accessors every converter needs; failures name the layer.
// The names the engine's Activation layer takes (the same list as Dense's and the convolutions').
const std::vector<std::string>& activation_choices() {
    for (const ParamSpec& p : LayerRegistry::instance().find("Activation")->params)
        if (p.name == "activation") return p.choices;
    throw runtime_error("the Activation layer has no 'activation' parameter");
}

struct LayerConfig {
    const Json& c;
    const std::string& name;

    [[noreturn]] void fail(const std::string& msg) const { throw input_error("layer '" + name + "': " + msg); }
    bool has(const char* key) const { return c.contains(key) && !c[key].is_null(); }

    // An int or a list of ints (Keras accepts both for sizes and strides).
    IntList ints(const char* key) const {
        const Json& v = c[key];
        if (v.is_number_integer()) return {v.get<std::int64_t>()};
        IntList out;
        if (!v.is_array()) fail(std::string(key) + " must be an integer or a list of integers");
        for (const Json& e : v) {
            if (!e.is_number_integer()) fail(std::string(key) + " must hold integers");
            out.push_back(e.get<std::int64_t>());
        }
        return out;
    }
    double number(const char* key) const {
        if (!c[key].is_number()) fail(std::string(key) + " must be a number");
        return c[key].get<double>();
    }
    std::string text(const char* key) const {
        if (!c[key].is_string()) fail(std::string(key) + " must be a string");
        return c[key].get<std::string>();
    }
    bool flag(const char* key, bool fallback) const {
        if (!has(key)) return fallback;
        if (!c[key].is_boolean()) fail(std::string(key) + " must be true or false");
        return c[key].get<bool>();
    }

    // A 2-D window field: Keras' single int means the same on both axes.
    void copy_ints(Params& p, const char* key) const {
        if (!has(key)) return;
        const IntList v = ints(key);
        p[key] = v.size() == 1 ? IntList{v[0], v[0]} : v;
    }
    void copy_number(Params& p, const char* from, const char* to) const {
        if (has(from)) p[to] = number(from);
    }
    void require_channels_last() const {
        if (has("data_format") && text("data_format") != "channels_last")
            fail("data_format '" + text("data_format") + "' is not supported; Layerforge layers are channels_last");
    }
    void copy_padding(Params& p) const {
        if (!has("padding")) return;
        std::string pad = text("padding");
        for (char& ch : pad) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        if (pad != "valid" && pad != "same") fail("padding '" + pad + "' is not supported (valid or same)");
        p["padding"] = pad;
    }
    void copy_activation(Params& p) const {
        if (!has("activation")) return;
        const std::string a = activation_name(c["activation"]);
        // Keras 2's hard_sigmoid is clip(0.2 x + 0.5), Keras 3's relu6(x + 3) / 6, and a config does
        // not say which wrote it: refused rather than guessed.
        if (a == "hard_sigmoid")
            fail("activation 'hard_sigmoid' is ambiguous (Keras 2: clip(0.2 x + 0.5, 0, 1); Keras 3 and Layerforge: "
                 "relu6(x + 3) / 6); set Activation(hard_sigmoid) on the canvas after import if Keras 3 wrote the model");
        const std::vector<std::string>& engine = activation_choices();
        if (std::find(engine.begin(), engine.end(), a) == engine.end()) {
            std::string list;
            for (const std::string& e : engine)
                if (e != "hard_sigmoid") list += (list.empty() ? "" : ", ") + e;
            fail("activation '" + a + "' is not supported here; use a separate ReLU/LeakyReLU layer or one of " + list);
        }
        p["activation"] = a;
    }
    void copy_use_bias(Params& p) const {
        if (has("use_bias")) p["use_bias"] = flag("use_bias", true);
    }
};

ConvertedLayer dense(const LayerConfig& l) {
    ConvertedLayer out{"Dense", {}, {}};
    if (!l.has("units") || !l.c["units"].is_number_integer()) l.fail("Dense needs an integer 'units'");
    out.params["units"] = l.c["units"].get<std::int64_t>();
    l.copy_activation(out.params);
    l.copy_use_bias(out.params);
    return out;
}

// Conv2D, DepthwiseConv2D and Conv2DTranspose share Keras' BaseConv fields.
ConvertedLayer convolution(const LayerConfig& l, const std::string& type) {
    l.require_channels_last();
    if (l.has("groups") && l.ints("groups") != IntList{1})
        l.fail("groups " + std::to_string(l.ints("groups").at(0)) + " is not supported (grouped convolution); only 1");
    ConvertedLayer out{type, {}, {}};
    if (type != "DepthwiseConv2D") {
        if (!l.has("filters") || !l.c["filters"].is_number_integer()) l.fail(type + " needs an integer 'filters'");
        out.params["filters"] = l.c["filters"].get<std::int64_t>();
    } else if (l.has("depth_multiplier")) {
        out.params["depth_multiplier"] = l.ints("depth_multiplier").at(0);
    }
    for (const char* key : {"kernel_size", "strides", "dilation_rate"}) l.copy_ints(out.params, key);
    if (type == "Conv2DTranspose") l.copy_ints(out.params, "output_padding");  // null: Keras' own size, the default
    l.copy_padding(out.params);
    l.copy_activation(out.params);
    l.copy_use_bias(out.params);
    return out;
}

ConvertedLayer window_pooling(const LayerConfig& l, const std::string& type) {
    l.require_channels_last();
    ConvertedLayer out{type, {}, {}};
    l.copy_ints(out.params, "pool_size");
    l.copy_ints(out.params, "strides");  // null: the pool size, the default
    l.copy_padding(out.params);
    return out;
}

ConvertedLayer global_pooling(const LayerConfig& l, const std::string& type) {
    l.require_channels_last();
    if (l.flag("keepdims", false)) l.fail("keepdims=True is not supported; add a Reshape((1, 1, C)) after the pooling");
    return {type, {}, {}};
}

ConvertedLayer batch_normalization(const LayerConfig& l) {
    ConvertedLayer out{"BatchNormalization", {}, {}};
    if (l.has("axis")) {
        const IntList axis = l.ints("axis");
        if (axis.size() != 1) l.fail("BatchNormalization over several axes is not supported (the channel axis only)");
        out.channel_axis = axis[0];
    }
    if (l.flag("renorm", false)) l.fail("batch renormalization (renorm=True) is not supported");
    l.copy_number(out.params, "momentum", "momentum");
    l.copy_number(out.params, "epsilon", "epsilon");
    if (!l.flag("scale", true)) out.absent_weights.push_back("gamma");
    if (!l.flag("center", true)) out.absent_weights.push_back("beta");
    return out;
}

// ZeroPadding2D's padding: p, (rows, cols) or ((top, bottom), (left, right)) -> top, bottom, left, right.
ConvertedLayer zero_padding(const LayerConfig& l) {
    l.require_channels_last();
    ConvertedLayer out{"ZeroPadding2D", {}, {}};
    if (!l.has("padding")) return out;
    const Json& v = l.c["padding"];
    IntList t;
    if (v.is_array() && v.size() == 2 && v[0].is_array() && v[1].is_array()) {
        for (const Json& pair : v) {
            if (pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_integer())
                l.fail("padding must be ((top, bottom), (left, right))");
            t.push_back(pair[0].get<std::int64_t>());
            t.push_back(pair[1].get<std::int64_t>());
        }
    } else {
        const IntList p = l.ints("padding");
        if (p.size() == 1) t = {p[0], p[0], p[0], p[0]};
        else if (p.size() == 2) t = {p[0], p[0], p[1], p[1]};
        else l.fail("padding must be an integer, (rows, cols) or ((top, bottom), (left, right))");
    }
    out.params["padding"] = t;
    return out;
}

// Activation(name): Keras names the engine has as an Activation; relu6 and leaky_relu as the
// layers that compute them.
ConvertedLayer activation(const LayerConfig& l) {
    const std::string a = l.has("activation") ? activation_name(l.c["activation"]) : "linear";
    if (a == "relu6") return {"ReLU", {{"max_value", 6.0}}, {}};
    if (a == "leaky_relu") return {"LeakyReLU", {{"alpha", 0.2}}, {}};  // keras.activations.leaky_relu's default
    ConvertedLayer out{"Activation", {}, {}};
    l.copy_activation(out.params);
    return out;
}

ConvertedLayer relu(const LayerConfig& l) {
    ConvertedLayer out{"ReLU", {}, {}};
    l.copy_number(out.params, "max_value", "max_value");
    l.copy_number(out.params, "negative_slope", "negative_slope");
    l.copy_number(out.params, "threshold", "threshold");
    return out;
}

ConvertedLayer leaky_relu(const LayerConfig& l) {
    ConvertedLayer out{"LeakyReLU", {}, {}};
    l.copy_number(out.params, "alpha", "alpha");           // Keras 2
    l.copy_number(out.params, "negative_slope", "alpha");  // Keras 3
    return out;
}

ConvertedLayer softmax(const LayerConfig& l) {
    ConvertedLayer out{"Softmax", {}, {}};
    if (l.has("axis")) {
        const IntList axis = l.ints("axis");
        if (axis.size() != 1) l.fail("Softmax over several axes is not supported (the last axis only)");
        out.params["axis"] = axis[0];
    }
    return out;
}

ConvertedLayer dropout(const LayerConfig& l) {
    ConvertedLayer out{"Dropout", {}, {}};
    if (l.has("noise_shape")) l.fail("Dropout with a noise_shape is not supported");
    l.copy_number(out.params, "rate", "rate");
    return out;
}

ConvertedLayer flatten(const LayerConfig& l) {
    l.require_channels_last();  // channels_first flattens in another order
    return {"Flatten", {}, {}};
}

ConvertedLayer reshape(const LayerConfig& l) {
    ConvertedLayer out{"Reshape", {}, {}};
    if (!l.has("target_shape")) l.fail("Reshape needs a target_shape");
    out.params["target_shape"] = l.ints("target_shape");
    return out;
}

ConvertedLayer concatenate(const LayerConfig& l) {
    ConvertedLayer out{"Concatenate", {}, {}};
    if (l.has("axis")) out.params["axis"] = l.ints("axis").at(0);
    return out;
}

using Converter = std::function<ConvertedLayer(const LayerConfig&)>;

const std::map<std::string, Converter>& table() {
    auto conv = [](const char* type) { return [type](const LayerConfig& l) { return convolution(l, type); }; };
    auto pool = [](const char* type) { return [type](const LayerConfig& l) { return window_pooling(l, type); }; };
    auto global = [](const char* type) { return [type](const LayerConfig& l) { return global_pooling(l, type); }; };
    auto plain = [](const char* type) { return [type](const LayerConfig&) { return ConvertedLayer{type, {}, {}}; }; };
    static const std::map<std::string, Converter> t = {
        {"Dense", dense},
        {"Conv2D", conv("Conv2D")},
        {"Convolution2D", conv("Conv2D")},
        {"DepthwiseConv2D", conv("DepthwiseConv2D")},
        {"Conv2DTranspose", conv("Conv2DTranspose")},
        {"Convolution2DTranspose", conv("Conv2DTranspose")},
        {"MaxPooling2D", pool("MaxPool2D")},
        {"MaxPool2D", pool("MaxPool2D")},
        {"AveragePooling2D", pool("AveragePooling2D")},
        {"AvgPool2D", pool("AveragePooling2D")},
        {"GlobalAveragePooling2D", global("GlobalAveragePooling2D")},
        {"GlobalAvgPool2D", global("GlobalAveragePooling2D")},
        {"GlobalMaxPooling2D", global("GlobalMaxPooling2D")},
        {"GlobalMaxPool2D", global("GlobalMaxPooling2D")},
        {"BatchNormalization", batch_normalization},
        {"ZeroPadding2D", zero_padding},
        {"Activation", activation},
        {"ReLU", relu},
        {"LeakyReLU", leaky_relu},
        {"Softmax", softmax},
        {"Dropout", dropout},
        {"Flatten", flatten},
        {"Reshape", reshape},
        {"Add", plain("Add")},
        {"Concatenate", concatenate},
        {"Multiply", plain("Multiply")},
    };
    return t;
}

// Fields whose non-default values Layerforge does not apply; the import says so.
void note_ignored_fields(const LayerConfig& l, std::vector<std::string>& notes) {
    for (const auto& [key, value] : l.c.items()) {
        const bool regularizer = key.size() > 12 && key.ends_with("_regularizer");
        const bool constraint = key.size() > 11 && key.ends_with("_constraint");
        if ((regularizer || constraint) && !value.is_null())
            notes.push_back("layer '" + l.name + "': " + key + " ignored (Layerforge applies no per-layer " +
                            (regularizer ? "regularizers" : "constraints") + ")");
    }
}

}  // namespace

std::string activation_name(const Json& value) {
    if (value.is_null()) return "linear";
    if (value.is_string()) return value.get<std::string>();
    // Keras 3: {"module": "keras.activations", "class_name": "function", "config": "relu", ...}
    if (value.is_object() && value.contains("config") && value["config"].is_string()) return value["config"].get<std::string>();
    if (value.is_object() && value.contains("class_name") && value["class_name"].is_string())
        return value["class_name"].get<std::string>();
    return "?";
}

ConvertedLayer convert_layer(const std::string& class_name, const Json& config, const std::string& name,
                             std::vector<std::string>& notes) {
    const LayerConfig l{config, name};
    const auto it = table().find(class_name);
    if (it == table().end()) l.fail(class_name + " is not supported by Layerforge yet");
    ConvertedLayer out = it->second(l);
    note_ignored_fields(l, notes);
    return out;
}

}  // namespace lf::keras
