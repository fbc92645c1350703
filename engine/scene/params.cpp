#include "scene/params.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "scene/param_decls.h"
#include "scene/scene_fields.h"

namespace tressel {
namespace {

constexpr size_t kTableCount = param_decls::kTables.size();

struct Tables {
    std::array<std::vector<ParamDecl>, kTableCount> decls;  // the constant declarations, defaults filled
    std::array<ParamTable, kTableCount> tables;             // spans into `decls`
};

// Walks a default-constructed scene (one default element in every array) and copies each number's
// and boolean's member into its declaration's default_value. Vectors, strings and enums keep their
// defaults in the structs only.
class DefaultReader {
public:
    explicit DefaultReader(Tables& t) : t_(t) {}

    void tag(std::string_view, std::string_view) {}
    void field(std::string_view key, const double& m) { set(key, m); }
    void field(std::string_view key, const int& m) { set(key, static_cast<double>(m)); }
    void field(std::string_view key, const uint32_t& m) { set(key, static_cast<double>(m)); }
    void field(std::string_view key, const bool& m) { set(key, m ? 1.0 : 0.0); }
    template <class T>
    void field(std::string_view key, const T&) { decl(key); }
    void scale_field(std::string_view key, const glm::dvec3&) { decl(key); }
    template <class S>
    void object(std::string_view key, const S& s) { nested(join(table_, key), s); }
    template <class S>
    void array(std::string_view key, const std::vector<S>&) {
        const S element{};
        nested(join(table_, key) + "[]", element);
    }

    template <class S>
    void nested(std::string table, const S& s) {
        std::string saved = std::move(table_);
        table_ = std::move(table);
        scene_fields::describe(*this, s);
        table_ = std::move(saved);
    }

private:
    static std::string join(const std::string& path, std::string_view key) {
        return path.empty() ? std::string(key) : path + "." + std::string(key);
    }
    ParamDecl& decl(std::string_view key) {
        size_t i = 0;
        while (i < kTableCount && param_decls::kTables[i].path != table_) ++i;
        TRESSEL_ASSERT(i < kTableCount, "every object walked in scene_fields.h needs a ParamTable in param_decls.h");
        for (ParamDecl& d : t_.decls[i])
            if (d.key == key) return d;
        TRESSEL_ASSERT(false, "every key walked in scene_fields.h needs a ParamDecl in its table in param_decls.h");
        return t_.decls[i].front();
    }
    void set(std::string_view key, double v) {
        ParamDecl& d = decl(key);
        TRESSEL_ASSERT(d.type == ParamType::Float || d.type == ParamType::Int || d.type == ParamType::Bool,
                       "a number or bool member needs a Float, Int or Bool declaration in param_decls.h");
        d.default_value = v;
    }

    Tables& t_;
    std::string table_;
};

Tables make_tables() {
    Tables t;
    for (size_t i = 0; i < kTableCount; ++i) {
        const ParamTable& c = param_decls::kTables[i];
        t.decls[i].assign(c.decls.begin(), c.decls.end());
    }
    DefaultReader reader(t);
    const Scene defaults{};
    scene_fields::describe(reader, defaults);
    for (size_t i = 0; i < kTableCount; ++i) {
        const ParamTable& c = param_decls::kTables[i];
        for (const ParamDecl& d : t.decls[i])
            TRESSEL_ASSERT(!std::isnan(d.default_value) || (d.type != ParamType::Float && d.type != ParamType::Int && d.type != ParamType::Bool),
                           "every number and bool declared in param_decls.h needs a member walked in scene_fields.h (its default)");
        t.tables[i] = ParamTable{c.path, c.meaning, t.decls[i]};
    }
    return t;
}

const Tables& tables() {
    static const Tables t = make_tables();
    return t;
}

}  // namespace

std::span<const ParamTable> scene_param_tables() { return tables().tables; }

const ParamTable* find_param_table(std::string_view table_path) {
    for (const ParamTable& t : tables().tables)
        if (t.path == table_path) return &t;
    return nullptr;
}

}  // namespace tressel
