// Every declared number of a scene struct (and each component of its vectors) as a slot a test can
// read and write, with its message path and its declaration: the range tests push each one just past
// its declared bounds. Shared by the scene and the simulation tests.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "scene/param_decls.h"
#include "scene/scene_fields.h"

namespace tressel::test {

struct NumberSlot {
    std::string path;                    // message path: "hair_groups[0].simulation.damping", "environment.gravity[1]"
    std::string table;                   // ParamTable path of the declaration
    const ParamDecl* decl = nullptr;     // the constant declaration (param_decls.h)
    bool integral = false;               // an int or uint32 member
    double lowest = 0.0, highest = 0.0;  // what the member's type can hold
    std::function<double()> get;
    std::function<void(double)> set;
};

class NumberSlotCollector {
public:
    NumberSlotCollector(std::string table, std::string path) : table_(std::move(table)), path_(std::move(path)) {}
    std::vector<NumberSlot> slots;

    void tag(std::string_view, std::string_view) {}
    void field(std::string_view key, double& m) {
        add(key, join(path_, key), false, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
            [&m] { return m; }, [&m](double v) { m = v; });
    }
    void field(std::string_view key, int& m) {
        add(key, join(path_, key), true, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(),
            [&m] { return static_cast<double>(m); }, [&m](double v) { m = static_cast<int>(v); });
    }
    void field(std::string_view key, uint32_t& m) {
        add(key, join(path_, key), true, 0.0, std::numeric_limits<uint32_t>::max(),
            [&m] { return static_cast<double>(m); }, [&m](double v) { m = static_cast<uint32_t>(v); });
    }
    void field(std::string_view key, glm::dvec3& m) {
        for (int i = 0; i < 3; ++i) {
            double& c = m[i];
            add(key, join(path_, key) + "[" + std::to_string(i) + "]", false, -std::numeric_limits<double>::max(),
                std::numeric_limits<double>::max(), [&c] { return c; }, [&c](double v) { c = v; });
        }
    }
    void scale_field(std::string_view key, glm::dvec3& m) { field(key, m); }
    template <class T>
    void field(std::string_view, T&) {}  // bools, strings, names, enums: no range
    template <class S>
    void object(std::string_view key, S& s) {
        NumberSlotCollector c(join(table_, key), join(path_, key));
        scene_fields::describe(c, s);
        slots.insert(slots.end(), c.slots.begin(), c.slots.end());
    }
    template <class S>
    void array(std::string_view key, std::vector<S>& items) {
        for (size_t i = 0; i < items.size(); ++i) {
            NumberSlotCollector c(join(table_, key) + "[]", join(path_, key) + "[" + std::to_string(i) + "]");
            scene_fields::describe(c, items[i]);
            slots.insert(slots.end(), c.slots.begin(), c.slots.end());
        }
    }

private:
    static std::string join(std::string_view path, std::string_view key) {
        return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
    }
    void add(std::string_view key, std::string path, bool integral, double lowest, double highest, std::function<double()> get,
             std::function<void(double)> set) {
        const ParamTable* t = param_decls::find_table(table_);
        const ParamDecl* d = t ? t->find(key) : nullptr;
        EXPECT_NE(d, nullptr) << table_ << "." << key << " has no declaration";
        if (!d) return;
        slots.push_back(NumberSlot{std::move(path), table_, d, integral, lowest, highest, std::move(get), std::move(set)});
    }

    std::string table_, path_;
};

// The slots of `s`, whose declarations are in table `table`; `path` starts their message paths.
template <class S>
std::vector<NumberSlot> number_slots(S& s, std::string_view table, std::string_view path) {
    NumberSlotCollector c{std::string(table), std::string(path)};
    scene_fields::describe(c, s);
    return std::move(c.slots);
}

// The nearest value below the declared minimum (above the maximum) that the member can hold, or nullopt.
inline std::optional<double> just_below(const NumberSlot& s) {
    double v = s.integral ? s.decl->min - 1.0 : std::nextafter(s.decl->min, -std::numeric_limits<double>::infinity());
    return v >= s.lowest ? std::optional<double>(v) : std::nullopt;
}
inline std::optional<double> just_above(const NumberSlot& s) {
    double v = s.integral ? s.decl->max + 1.0 : std::nextafter(s.decl->max, std::numeric_limits<double>::infinity());
    return v <= s.highest ? std::optional<double>(v) : std::nullopt;
}

// "[min, max]" as the range messages print it.
inline std::string range_text(const ParamDecl& d) {
    const auto text = [](double v) {
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof(buf), v);
        return std::string(buf, r.ptr);
    };
    return "[" + text(d.min) + ", " + text(d.max) + "]";
}

}  // namespace tressel::test
