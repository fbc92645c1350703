#include "io/usda.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>

#include "core/file_io.h"

namespace tressel {

const UsdPrimvar* UsdCurves::find(std::string_view n) const {
    for (const auto& p : primvars)
        if (p.name == n) return &p;
    return nullptr;
}

namespace {

// ---------------------------------------------------------------- writer

bool is_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

void put_float(std::string& out, float f) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, f);
    out.append(buf, r.ptr);
}
void put_double(std::string& out, double d) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    out.append(buf, r.ptr);
}

// Components per item of a USD value type and whether it holds integers; 0 for unknown types.
int components(std::string_view type, bool& integer, bool& array) {
    array = type.size() > 2 && type.substr(type.size() - 2) == "[]";
    std::string_view base = array ? type.substr(0, type.size() - 2) : type;
    integer = base.rfind("int", 0) == 0;
    if (base == "int" || base == "float" || base == "double") return 1;
    if (base == "int2" || base == "float2" || base == "texCoord2f") return 2;
    if (base == "int3" || base == "float3" || base == "color3f" || base == "point3f" || base == "vector3f" || base == "normal3f") return 3;
    return 0;
}

std::string usd_quoted(std::string_view s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += (c == '\n' ? ' ' : c);
    }
    return q + "\"";
}

Status write_primvar(std::string& out, const UsdPrimvar& p, const std::string& prim, size_t curves, size_t points,
                     const std::string& indent) {
    auto invalid = [&](const std::string& what) {
        return make_error(ErrorCode::InvalidArgument, "usda: " + prim + ": attribute " + p.name + ": " + what);
    };
    if (p.name.empty() || !(is_identifier(p.name))) return invalid("the name is not a USD identifier");
    bool integer = false, array = false;
    const int comp = components(p.type, integer, array);
    if (comp == 0) return invalid("unsupported type \"" + p.type + "\"");
    if (p.values.size() % size_t(comp) != 0) return invalid("value count is not a multiple of " + std::to_string(comp));
    const size_t items = p.values.size() / size_t(comp);
    if (!array && items != 1) return invalid("a scalar attribute needs exactly one value");
    if (array && !p.interpolation.empty()) {
        const size_t want = p.interpolation == "constant" ? 1 : p.interpolation == "uniform" ? curves : p.interpolation == "vertex" ? points : 0;
        if (want == 0 && p.interpolation != "constant") return invalid("interpolation must be constant, uniform or vertex");
        if (items != want)
            return invalid(std::to_string(items) + " items but " + p.interpolation + " interpolation needs " + std::to_string(want));
    }
    for (double v : p.values)
        if (!std::isfinite(v)) return invalid("holds a value that is not finite");
    out += indent + p.type + " " + (p.interpolation.empty() ? "" : "primvars:") + p.name + " = ";
    if (array) out += '[';
    for (size_t i = 0; i < items; ++i) {
        if (i) out += ", ";
        if (comp > 1) out += '(';
        for (int c = 0; c < comp; ++c) {
            if (c) out += ", ";
            const double v = p.values[i * size_t(comp) + size_t(c)];
            if (integer) out += std::to_string(static_cast<long long>(v));
            else put_float(out, float(v));
        }
        if (comp > 1) out += ')';
    }
    if (array) out += ']';
    if (!p.interpolation.empty()) out += " (\n" + indent + "    interpolation = \"" + p.interpolation + "\"\n" + indent + ")";
    out += "\n";
    return {};
}

// "[(x, y, z), ...]"; the index of the first point that is not finite, or npos.
size_t put_points(std::string& out, const std::vector<glm::vec3>& pts) {
    out += '[';
    for (size_t i = 0; i < pts.size(); ++i) {
        const glm::vec3& p = pts[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return i;
        out += i ? ", (" : "(";
        put_float(out, p.x);
        out += ", ";
        put_float(out, p.y);
        out += ", ";
        put_float(out, p.z);
        out += ')';
    }
    out += ']';
    return std::string::npos;
}

// `point3f[] points = ...` and, when there are samples, `points.timeSamples = { t: [...], ... }`, every
// sample of `total` points at increasing finite times.
Status put_points_and_samples(std::string& out, const std::vector<glm::vec3>& points, const std::vector<double>& times,
                              const std::vector<std::vector<glm::vec3>>& samples, size_t total, const std::string& in,
                              const std::function<Status(const std::string&)>& invalid) {
    out += in + "point3f[] points = ";
    if (const size_t bad = put_points(out, points); bad != std::string::npos) return invalid("point " + std::to_string(bad) + " is not finite");
    out += "\n";
    if (samples.size() != times.size()) return invalid("one time per sample of points");
    if (samples.empty()) return {};
    out += in + "point3f[] points.timeSamples = {\n";
    for (size_t s = 0; s < samples.size(); ++s) {
        if (samples[s].size() != total)
            return invalid("the sample at time " + std::to_string(times[s]) + " has " + std::to_string(samples[s].size()) + " points, not " +
                           std::to_string(total));
        if (!std::isfinite(times[s]) || (s > 0 && !(times[s] > times[s - 1]))) return invalid("sample times must be finite and increasing");
        out += in + "    ";
        put_double(out, times[s]);
        out += ": ";
        if (const size_t bad = put_points(out, samples[s]); bad != std::string::npos)
            return invalid("point " + std::to_string(bad) + " at time " + std::to_string(times[s]) + " is not finite");
        out += ",\n";
    }
    out += in + "}\n";
    return {};
}

Status write_curves(std::string& out, const UsdCurves& c, const std::string& prim, const std::string& indent) {
    auto invalid = [&](const std::string& what) { return make_error(ErrorCode::InvalidArgument, "usda: " + prim + ": " + what); };
    const std::string name = prim.substr(prim.rfind('/') + 1);
    if (!is_identifier(name)) return invalid("\"" + name + "\" is not a USD prim name");
    if (c.vertex_counts.empty()) return invalid("no curves");
    if (c.type != "linear" && c.type != "cubic") return invalid("type must be linear or cubic");
    size_t total = 0;
    for (size_t i = 0; i < c.vertex_counts.size(); ++i) {
        if (c.vertex_counts[i] < 2) return invalid("curve " + std::to_string(i) + " has fewer than 2 points");
        total += size_t(c.vertex_counts[i]);
    }
    if (total != c.points.size())
        return invalid("curveVertexCounts sum to " + std::to_string(total) + " but there are " + std::to_string(c.points.size()) + " points");
    if (!c.widths.empty() && c.widths.size() != 1 && c.widths.size() != total) return invalid("widths must be one per point or one");
    if (!c.display_color.empty() && c.display_color.size() != total) return invalid("displayColor must be one per point");
    const std::string in = indent + "    ";
    out += indent + "def BasisCurves \"" + name + "\"\n" + indent + "{\n";
    out += in + "uniform token type = \"" + c.type + "\"\n";
    if (!c.basis.empty()) out += in + "uniform token basis = \"" + c.basis + "\"\n";
    out += in + "uniform token wrap = \"" + c.wrap + "\"\n";
    out += in + "int[] curveVertexCounts = [";
    for (size_t i = 0; i < c.vertex_counts.size(); ++i) out += (i ? ", " : "") + std::to_string(c.vertex_counts[i]);
    out += "]\n";
    TRESSEL_TRY(put_points_and_samples(out, c.points, c.sample_times, c.point_samples, total, in, invalid));
    if (!c.widths.empty()) {
        UsdPrimvar w{"widths", "float[]", c.widths.size() == 1 ? "constant" : "vertex", {c.widths.begin(), c.widths.end()}};
        std::string tmp;
        TRESSEL_TRY(write_primvar(tmp, w, prim, c.vertex_counts.size(), total, in));
        out += in + "float[] widths" + tmp.substr(tmp.find(" = "));  // widths is a schema attribute, not a primvar
    }
    if (!c.display_color.empty()) {
        UsdPrimvar col{"displayColor", "color3f[]", "vertex", {}};
        col.values.reserve(total * 3);
        for (const auto& v : c.display_color) col.values.insert(col.values.end(), {v.x, v.y, v.z});
        TRESSEL_TRY(write_primvar(out, col, prim, c.vertex_counts.size(), total, in));
    }
    for (const auto& p : c.primvars) TRESSEL_TRY(write_primvar(out, p, prim, c.vertex_counts.size(), total, in));
    out += indent + "}\n";
    return {};
}

Status write_mesh(std::string& out, const UsdMesh& m, const std::string& prim, const std::string& indent) {
    auto invalid = [&](const std::string& what) { return make_error(ErrorCode::InvalidArgument, "usda: " + prim + ": " + what); };
    const std::string name = prim.substr(prim.rfind('/') + 1);
    if (!is_identifier(name)) return invalid("\"" + name + "\" is not a USD prim name");
    if (m.face_vertex_counts.empty()) return invalid("no faces");
    size_t total = 0;
    for (size_t i = 0; i < m.face_vertex_counts.size(); ++i) {
        if (m.face_vertex_counts[i] < 3) return invalid("face " + std::to_string(i) + " has fewer than 3 vertices");
        total += size_t(m.face_vertex_counts[i]);
    }
    if (total != m.face_vertex_indices.size())
        return invalid("faceVertexCounts sum to " + std::to_string(total) + " but there are " + std::to_string(m.face_vertex_indices.size()) + " indices");
    for (int i : m.face_vertex_indices)
        if (i < 0 || size_t(i) >= m.points.size()) return invalid("index " + std::to_string(i) + " is not one of the " + std::to_string(m.points.size()) + " points");
    const std::string in = indent + "    ";
    out += indent + "def Mesh \"" + name + "\"\n" + indent + "{\n";
    out += in + "uniform token subdivisionScheme = \"none\"\n";
    auto ints = [&](const char* key, const std::vector<int>& v) {
        out += in + "int[] " + key + " = [";
        for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
        out += "]\n";
    };
    ints("faceVertexCounts", m.face_vertex_counts);
    ints("faceVertexIndices", m.face_vertex_indices);
    TRESSEL_TRY(put_points_and_samples(out, m.points, m.sample_times, m.point_samples, m.points.size(), in, invalid));
    if (m.display_color) {
        UsdPrimvar col{"displayColor", "color3f[]", "constant", {m.display_color->x, m.display_color->y, m.display_color->z}};
        TRESSEL_TRY(write_primvar(out, col, prim, 1, m.points.size(), in));
    }
    out += indent + "}\n";
    return {};
}

// ---------------------------------------------------------------- reader

struct Token {
    enum Kind { End, Ident, Number, String, Punct } kind = End;
    std::string text;
    int line = 0;
};

struct Value {
    enum Kind { Number, String, Ident, Tuple, List } kind = Number;
    std::string text;
    std::vector<Value> items;
};

class Parser {
public:
    Parser(std::string_view text, std::string name) : s_(text), name_(std::move(name)) {}

    Result<UsdStage> run() {
        if (s_.substr(0, 9) != "#usda 1.0") return fail(1, "missing the \"#usda 1.0\" header");
        pos_ = s_.find('\n');
        if (pos_ == std::string_view::npos) pos_ = s_.size();
        line_ = 1;
        TRESSEL_TRY(advance());
        UsdStage st;
        st.default_prim.clear();
        if (is("(")) {
            std::vector<std::pair<std::string, Value>> meta;
            TRESSEL_TRY(metadata(meta));
            for (auto& [k, v] : meta) {
                if (k == "upAxis" && v.kind == Value::String) st.up_axis = v.text;
                else if (k == "metersPerUnit" && v.kind == Value::Number) st.meters_per_unit = std::strtod(v.text.c_str(), nullptr);
                else if (k == "defaultPrim" && v.kind == Value::String) st.default_prim = v.text;
                else if (k == "startTimeCode" && v.kind == Value::Number) st.start_time_code = std::strtod(v.text.c_str(), nullptr);
                else if (k == "endTimeCode" && v.kind == Value::Number) st.end_time_code = std::strtod(v.text.c_str(), nullptr);
                else if (k == "timeCodesPerSecond" && v.kind == Value::Number) st.time_codes_per_second = std::strtod(v.text.c_str(), nullptr);
                else if (k == "doc" && v.kind == Value::String) st.doc = v.text;
            }
        }
        while (tok_.kind != Token::End) TRESSEL_TRY(prim(st, ""));
        return st;
    }

private:
    Error fail(int line, const std::string& what) const {
        return make_error(ErrorCode::Parse, name_ + ":" + std::to_string(line) + ": " + what);
    }
    bool is(std::string_view p) const { return tok_.kind == Token::Punct && tok_.text == p; }

    Status advance() {
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == '\n') ++line_, ++pos_;
            else if (std::isspace(static_cast<unsigned char>(c)) || c == ';') ++pos_;
            else if (c == '#') {
                while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
            } else break;
        }
        tok_ = Token{};
        tok_.line = line_;
        if (pos_ >= s_.size()) return {};
        const char c = s_[pos_];
        if (std::string_view("()[]{}=,:").find(c) != std::string_view::npos) {
            tok_.kind = Token::Punct;
            tok_.text = std::string(1, c);
            ++pos_;
        } else if (c == '"') {
            tok_.kind = Token::String;
            ++pos_;
            while (true) {
                if (pos_ >= s_.size() || s_[pos_] == '\n') return fail(line_, "unterminated string");
                if (s_[pos_] == '"') break;
                if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
                tok_.text += s_[pos_++];
            }
            ++pos_;
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
            tok_.kind = Token::Number;
            while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' || s_[pos_] == '+' || s_[pos_] == '.'))
                tok_.text += s_[pos_++];
            double d = 0.0;
            auto r = std::from_chars(tok_.text.data(), tok_.text.data() + tok_.text.size(), d);
            if (r.ec != std::errc() || r.ptr != tok_.text.data() + tok_.text.size() || !std::isfinite(d))
                return fail(line_, "\"" + tok_.text + "\" is not a finite number");
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            tok_.kind = Token::Ident;
            while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == ':' || s_[pos_] == '.'))
                tok_.text += s_[pos_++];
            if (s_.substr(pos_, 2) == "[]") tok_.text += "[]", pos_ += 2;
        } else {
            return fail(line_, std::string("unexpected character '") + c + "'");
        }
        return {};
    }

    Status expect(std::string_view p) {
        if (!is(p)) return fail(tok_.line, "expected '" + std::string(p) + "' but found '" + tok_.text + "'");
        return advance();
    }

    Status value(Value& v, int depth = 0) {
        if (depth > 8) return fail(tok_.line, "values nested too deeply");
        if (tok_.kind == Token::Number || tok_.kind == Token::String || tok_.kind == Token::Ident) {
            v.kind = tok_.kind == Token::Number ? Value::Number : tok_.kind == Token::String ? Value::String : Value::Ident;
            v.text = tok_.text;
            return advance();
        }
        if (is("(") || is("[")) {
            const std::string close = is("(") ? ")" : "]";
            v.kind = is("(") ? Value::Tuple : Value::List;
            TRESSEL_TRY(advance());
            while (!is(close)) {
                if (tok_.kind == Token::End) return fail(tok_.line, "unterminated " + std::string(close == ")" ? "tuple" : "array"));
                v.items.emplace_back();
                TRESSEL_TRY(value(v.items.back(), depth + 1));
                if (is(",")) TRESSEL_TRY(advance());
                else if (!is(close)) return fail(tok_.line, "expected ',' or '" + close + "' but found '" + tok_.text + "'");
            }
            return advance();
        }
        return fail(tok_.line, "expected a value but found '" + tok_.text + "'");
    }

    // '(' (key '=' value | string)* ')'
    Status metadata(std::vector<std::pair<std::string, Value>>& out) {
        TRESSEL_TRY(expect("("));
        while (!is(")")) {
            if (tok_.kind == Token::String) {
                out.push_back({"doc", Value{Value::String, tok_.text, {}}});
                TRESSEL_TRY(advance());
                continue;
            }
            if (tok_.kind != Token::Ident) return fail(tok_.line, "expected a metadata key but found '" + tok_.text + "'");
            std::string key = tok_.text;
            TRESSEL_TRY(advance());
            TRESSEL_TRY(expect("="));
            Value v;
            TRESSEL_TRY(value(v));
            out.push_back({std::move(key), std::move(v)});
        }
        return advance();
    }

    static void flatten(const Value& v, std::vector<const Value*>& out) {
        if (v.kind == Value::Number) out.push_back(&v);
        for (const auto& i : v.items) flatten(i, out);
    }

    Status numbers(const Value& v, std::vector<double>& out, int line) {
        std::vector<const Value*> nums;
        flatten(v, nums);
        if (v.kind == Value::String || v.kind == Value::Ident) return fail(line, "expected numbers");
        out.reserve(nums.size());
        for (const Value* n : nums) out.push_back(std::strtod(n->text.c_str(), nullptr));
        return {};
    }
    Status floats(const Value& v, std::vector<float>& out, int line) {
        std::vector<const Value*> nums;
        flatten(v, nums);
        if (v.kind == Value::String || v.kind == Value::Ident) return fail(line, "expected numbers");
        out.reserve(nums.size());
        for (const Value* n : nums) {
            float f = 0.0f;
            std::from_chars(n->text.data(), n->text.data() + n->text.size(), f);
            out.push_back(f);
        }
        return {};
    }

    // def|over|class [Type] "name" [metadata] { ... }
    Status prim(UsdStage& st, const std::string& parent) {
        if (tok_.kind != Token::Ident || (tok_.text != "def" && tok_.text != "over" && tok_.text != "class"))
            return fail(tok_.line, "expected a prim (def ...) but found '" + tok_.text + "'");
        TRESSEL_TRY(advance());
        std::string type;
        if (tok_.kind == Token::Ident) {
            type = tok_.text;
            TRESSEL_TRY(advance());
        }
        if (tok_.kind != Token::String) return fail(tok_.line, "expected the prim's name in quotes");
        const std::string path = parent + "/" + tok_.text;
        TRESSEL_TRY(advance());
        if (is("(")) {
            std::vector<std::pair<std::string, Value>> ignored;
            TRESSEL_TRY(metadata(ignored));
        }
        TRESSEL_TRY(expect("{"));
        const bool curves = type == "BasisCurves", mesh = type == "Mesh";
        const bool root = parent.empty() && path == "/" + st.default_prim;
        UsdCurves c;
        c.path = path;
        c.type.clear();
        c.wrap.clear();
        while (!is("}")) {
            if (tok_.kind == Token::End) return fail(tok_.line, "prim " + path + " is not closed with '}'");
            if (tok_.kind == Token::Ident && (tok_.text == "def" || tok_.text == "over" || tok_.text == "class")) {
                TRESSEL_TRY(prim(st, path));
                continue;
            }
            TRESSEL_TRY(attribute(curves || mesh ? &c : nullptr, root ? &st.root_attributes : nullptr));
        }
        TRESSEL_TRY(advance());
        if (mesh) {
            // Parsed as a curves prim: faceVertexCounts / faceVertexIndices are among its attributes.
            UsdMesh m;
            m.path = path;
            auto list = [&](const char* key, std::vector<int>& out) -> Status {
                const UsdPrimvar* p = c.find(key);
                if (!p) return fail(tok_.line, path + ": no " + key);
                for (double d : p->values) {
                    if (d != std::floor(d) || d < 0 || d > 1e9) return fail(tok_.line, path + ": " + key + " holds " + std::to_string(d));
                    out.push_back(int(d));
                }
                return {};
            };
            TRESSEL_TRY(list("faceVertexCounts", m.face_vertex_counts));
            TRESSEL_TRY(list("faceVertexIndices", m.face_vertex_indices));
            size_t total = 0;
            for (int n : m.face_vertex_counts) total += size_t(n);
            if (total != m.face_vertex_indices.size())
                return fail(tok_.line, path + ": faceVertexCounts sum to " + std::to_string(total) + " but faceVertexIndices has " +
                                           std::to_string(m.face_vertex_indices.size()));
            m.points = std::move(c.points);
            for (int i : m.face_vertex_indices)
                if (size_t(i) >= m.points.size()) return fail(tok_.line, path + ": faceVertexIndices holds " + std::to_string(i) + ", past the points");
            for (size_t s = 0; s < c.point_samples.size(); ++s)
                if (c.point_samples[s].size() != m.points.size())
                    return fail(tok_.line, path + ": the points at time " + std::to_string(c.sample_times[s]) + " are " +
                                               std::to_string(c.point_samples[s].size()) + ", not " + std::to_string(m.points.size()));
            if (c.display_color.size() == 1) m.display_color = c.display_color.front();
            m.sample_times = std::move(c.sample_times);
            m.point_samples = std::move(c.point_samples);
            st.meshes.push_back(std::move(m));
        }
        if (curves) {
            size_t total = 0;
            for (int n : c.vertex_counts) {
                if (n < 1) return fail(tok_.line, path + ": curveVertexCounts holds " + std::to_string(n));
                total += size_t(n);
            }
            if (total != c.points.size())
                return fail(tok_.line, path + ": curveVertexCounts sum to " + std::to_string(total) + " but points has " +
                                           std::to_string(c.points.size()));
            for (size_t s = 0; s < c.point_samples.size(); ++s)
                if (c.point_samples[s].size() != total)
                    return fail(tok_.line, path + ": the points at time " + std::to_string(c.sample_times[s]) + " are " +
                                               std::to_string(c.point_samples[s].size()) + ", not " + std::to_string(total));
            st.curves.push_back(std::move(c));
        }
        return {};
    }

    // name.timeSamples = { time: value, ... }: points' samples are kept (a cache), any other's skipped.
    Status time_samples(UsdCurves* c, const std::string& name, int line) {
        TRESSEL_TRY(expect("="));
        TRESSEL_TRY(expect("{"));
        const bool points = c && name == "points.timeSamples";
        while (!is("}")) {
            if (tok_.kind != Token::Number) return fail(tok_.line, "expected a time code in " + name + " but found '" + tok_.text + "'");
            const double t = std::strtod(tok_.text.c_str(), nullptr);
            TRESSEL_TRY(advance());
            TRESSEL_TRY(expect(":"));
            Value v;
            TRESSEL_TRY(value(v));
            if (is(",")) TRESSEL_TRY(advance());
            if (!points) continue;
            if (!c->sample_times.empty() && !(t > c->sample_times.back())) return fail(line, name + ": time codes are not increasing");
            std::vector<float> f;
            TRESSEL_TRY(floats(v, f, line));
            if (f.size() % 3 != 0) return fail(line, name + " does not hold 3 components per item");
            c->sample_times.push_back(t);
            c->point_samples.emplace_back();
            for (size_t i = 0; i < f.size(); i += 3) c->point_samples.back().push_back({f[i], f[i + 1], f[i + 2]});
        }
        return advance();
    }

    // [uniform|custom|varying]* type name [= value] [metadata]
    Status attribute(UsdCurves* c, std::vector<UsdPrimvar>* root) {
        const int line = tok_.line;
        while (tok_.kind == Token::Ident && (tok_.text == "uniform" || tok_.text == "custom" || tok_.text == "varying"))
            TRESSEL_TRY(advance());
        if (tok_.kind != Token::Ident) return fail(line, "expected an attribute type but found '" + tok_.text + "'");
        const std::string type = tok_.text;
        TRESSEL_TRY(advance());
        if (tok_.kind != Token::Ident) return fail(line, "expected an attribute name after " + type);
        const std::string name = tok_.text;
        TRESSEL_TRY(advance());
        if (name.size() > 12 && name.compare(name.size() - 12, 12, ".timeSamples") == 0) return time_samples(c, name, line);
        Value v;
        bool has_value = false;
        if (is("=")) {
            TRESSEL_TRY(advance());
            TRESSEL_TRY(value(v));
            has_value = true;
        }
        std::string interpolation;
        if (is("(")) {
            std::vector<std::pair<std::string, Value>> meta;
            TRESSEL_TRY(metadata(meta));
            for (auto& [k, mv] : meta)
                if (k == "interpolation") interpolation = mv.text;
        }
        if (!has_value) return {};
        auto primvar = [&]() -> Result<UsdPrimvar> {
            UsdPrimvar p;
            const bool pv = name.rfind("primvars:", 0) == 0;
            p.name = pv ? name.substr(9) : name;
            p.type = type;
            p.interpolation = pv ? (interpolation.empty() ? "constant" : interpolation) : "";
            TRESSEL_TRY(numbers(v, p.values, line));
            return p;
        };
        if (c) {
            if (name == "type") c->type = v.text;
            else if (name == "basis") c->basis = v.text;
            else if (name == "wrap") c->wrap = v.text;
            else if (name == "curveVertexCounts") {
                std::vector<double> n;
                TRESSEL_TRY(numbers(v, n, line));
                for (double d : n) {
                    if (d != std::floor(d) || d < 0 || d > 1e9) return fail(line, "curveVertexCounts holds " + std::to_string(d));
                    c->vertex_counts.push_back(int(d));
                }
            } else if (name == "points" || name == "primvars:displayColor") {
                std::vector<float> f;
                TRESSEL_TRY(floats(v, f, line));
                if (f.size() % 3 != 0) return fail(line, name + " does not hold 3 components per item");
                auto& dst = name == "points" ? c->points : c->display_color;
                for (size_t i = 0; i < f.size(); i += 3) dst.push_back({f[i], f[i + 1], f[i + 2]});
            } else if (name == "widths") {
                TRESSEL_TRY(floats(v, c->widths, line));
            } else if (v.kind != Value::String) {
                auto p = primvar();
                if (!p) return p.error();
                c->primvars.push_back(std::move(*p));
            }
        } else if (root && v.kind != Value::String) {
            auto p = primvar();
            if (!p) return p.error();
            root->push_back(std::move(*p));
        }
        return {};
    }

    std::string_view s_;
    std::string name_;
    size_t pos_ = 0;
    int line_ = 1;
    Token tok_;
};

}  // namespace

Result<std::string> write_usda_text(const UsdStage& st) {
    if (!is_identifier(st.default_prim)) return make_error(ErrorCode::InvalidArgument, "usda: the root prim name \"" + st.default_prim + "\" is not a USD identifier");
    if (st.up_axis != "Y" && st.up_axis != "Z") return make_error(ErrorCode::InvalidArgument, "usda: upAxis must be Y or Z");
    if (!(st.meters_per_unit > 0.0) || !std::isfinite(st.meters_per_unit))
        return make_error(ErrorCode::InvalidArgument, "usda: metersPerUnit must be positive");
    std::string out = "#usda 1.0\n(\n";
    out += "    defaultPrim = " + usd_quoted(st.default_prim) + "\n";
    if (!st.doc.empty()) out += "    doc = " + usd_quoted(st.doc) + "\n";
    out += "    metersPerUnit = ";
    put_double(out, st.meters_per_unit);
    out += "\n    upAxis = " + usd_quoted(st.up_axis) + "\n";
    if (st.time_codes_per_second > 0.0) {
        if (!std::isfinite(st.time_codes_per_second) || !std::isfinite(st.start_time_code) || !std::isfinite(st.end_time_code) ||
            st.end_time_code < st.start_time_code)
            return make_error(ErrorCode::InvalidArgument, "usda: the time codes must be finite, the end not before the start");
        for (const auto& [k, v] : {std::pair{"startTimeCode", st.start_time_code}, std::pair{"endTimeCode", st.end_time_code},
                                   std::pair{"timeCodesPerSecond", st.time_codes_per_second}, std::pair{"framesPerSecond", st.time_codes_per_second}}) {
            out += std::string("    ") + k + " = ";
            put_double(out, v);
            out += "\n";
        }
    }
    out += ")\n\n";
    out += "def Xform " + usd_quoted(st.default_prim) + "\n{\n";
    for (const auto& a : st.root_attributes) TRESSEL_TRY(write_primvar(out, a, "/" + st.default_prim, 1, 1, "    "));
    for (const auto& g : st.groups) {
        const std::string gpath = "/" + st.default_prim + "/" + g.name;
        if (!is_identifier(g.name)) return make_error(ErrorCode::InvalidArgument, "usda: " + gpath + ": \"" + g.name + "\" is not a USD prim name");
        out += "\n    def Xform " + usd_quoted(g.name) + "\n    {\n";
        for (const auto& c : g.curves) {
            const std::string leaf = c.path.substr(c.path.rfind('/') + 1);
            TRESSEL_TRY(write_curves(out, c, gpath + "/" + leaf, "        "));
        }
        for (const auto& m : g.meshes) {
            const std::string leaf = m.path.substr(m.path.rfind('/') + 1);
            TRESSEL_TRY(write_mesh(out, m, gpath + "/" + leaf, "        "));
        }
        out += "    }\n";
    }
    out += "}\n";
    return out;
}

Status write_usda_file(const std::filesystem::path& path, const UsdStage& stage) {
    auto text = write_usda_text(stage);
    if (!text) return make_error(text.error().code, path.string() + ": " + text.error().message);
    return write_file_atomic(path, std::string_view(*text));
}

Result<UsdStage> parse_usda(std::string_view text, const std::string& name) { return Parser(text, name).run(); }

Result<UsdStage> read_usda_file(const std::filesystem::path& path, uint64_t max_file_bytes) {
    auto text = read_file_text(path, max_file_bytes);
    if (!text) return text.error();
    return parse_usda(*text, path.string());
}

}  // namespace tressel
