#include "project/json_view.h"

#include "core/json_numbers.h"

namespace lf::detail {

Error JsonView::error(const std::string& problem) const {
    return input_error(*origin_ + ": " + (path_.empty() ? "" : path_ + ": ") + problem);
}

Error JsonView::type_error(const char* expected) const {
    return error(std::string("expected ") + expected + ", found " + j_->type_name() + "; fix the value");
}

void JsonView::expect_object(std::initializer_list<std::string_view> allowed) const {
    if (!j_->is_object()) throw type_error("an object");
    if (allowed.size() == 0) return;
    for (const auto& [key, value] : j_->items()) {
        bool known = false;
        for (std::string_view a : allowed) known = known || a == key;
        if (!known) {
            std::string list;
            for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            throw child(key)->error("unknown field; remove it or use one of: " + list);
        }
    }
}

std::optional<JsonView> JsonView::child(const std::string& key) const {
    if (!j_->is_object()) throw type_error("an object");
    auto it = j_->find(key);
    if (it == j_->end()) return std::nullopt;
    return JsonView(*it, path_.empty() ? key : path_ + "." + key, *origin_);
}

JsonView JsonView::required(const std::string& key, const std::string& hint) const {
    if (auto c = child(key)) return *c;
    throw JsonView(*j_, path_.empty() ? key : path_ + "." + key, *origin_)
        .error("missing required field; " + hint);
}

std::size_t JsonView::array_size() const {
    if (!j_->is_array()) throw type_error("an array");
    return j_->size();
}

JsonView JsonView::element(std::size_t i) const {
    return JsonView((*j_)[i], path_ + "[" + std::to_string(i) + "]", *origin_);
}

std::string JsonView::as_string(std::size_t max_bytes) const {
    if (!j_->is_string()) throw type_error("a string");
    const auto& s = j_->get_ref<const std::string&>();
    if (std::string problem = text_problem(s, max_bytes); !problem.empty()) throw error("the text " + problem);
    return s;
}

std::int64_t JsonView::as_int() const {
    if (!j_->is_number_integer()) throw type_error("an integer");
    if (auto v = json_int64(*j_)) return *v;
    throw error("integer too large; use a value below 2^63");
}

double JsonView::as_number() const {
    if (!j_->is_number()) throw type_error("a number");
    if (j_->is_number_float()) return j_->get<double>();
    return static_cast<double>(as_int());
}

bool JsonView::as_bool() const {
    if (!j_->is_boolean()) throw type_error("true or false");
    return j_->get<bool>();
}

ParamValue JsonView::as_param() const {
    switch (j_->type()) {
        case Json::value_t::boolean: return as_bool();
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned: return as_int();
        case Json::value_t::number_float: return j_->get<double>();
        case Json::value_t::string: return as_string();
        case Json::value_t::array: {
            IntList list;
            for (std::size_t i = 0; i < j_->size(); ++i) {
                if (!(*j_)[i].is_number_integer())
                    throw error("lists may hold only integers, found " + std::string((*j_)[i].type_name()) +
                                " at element " + std::to_string(i) + "; fix the value");
                list.push_back(element(i).as_int());
            }
            return list;
        }
        default: throw type_error("a number, string, true/false or a list of integers");
    }
}

void JsonView::read(const std::string& key, std::string& out, std::size_t max_bytes) const {
    if (auto c = child(key)) out = c->as_string(max_bytes);
}
void JsonView::read(const std::string& key, std::int64_t& out) const {
    if (auto c = child(key)) out = c->as_int();
}
void JsonView::read(const std::string& key, double& out) const {
    if (auto c = child(key)) out = c->as_number();
}
void JsonView::read(const std::string& key, bool& out) const {
    if (auto c = child(key)) out = c->as_bool();
}

}  // namespace lf::detail
