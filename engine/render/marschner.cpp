#include "render/marschner.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tressel::render {

namespace {
constexpr double kPi = std::numbers::pi;

double wrap_pi(double a) {
    a = std::fmod(a + kPi, 2.0 * kPi);
    if (a < 0.0) a += 2.0 * kPi;
    return a - kPi;
}

struct PathGeometry {
    double eta_prime = 1.55;
    double cos_theta_t = 1.0;
};

PathGeometry geometry(const MarschnerParams& p, double cos_theta_d) {
    double cd = std::clamp(cos_theta_d, 1e-4, 1.0);
    double sd2 = 1.0 - cd * cd;
    PathGeometry g;
    g.eta_prime = std::sqrt(std::max(p.ior * p.ior - sd2, 1e-8)) / cd;
    double sin_t = std::sqrt(sd2) / p.ior;
    g.cos_theta_t = std::sqrt(std::max(1.0 - sin_t * sin_t, 1e-8));
    return g;
}

double phi_of(int path, double h, double eta_prime) {
    double gi = std::asin(std::clamp(h, -1.0, 1.0));
    double gt = std::asin(std::clamp(h / eta_prime, -1.0, 1.0));
    return 2.0 * path * gt - 2.0 * gi + path * kPi;
}

double dphi_dh(int path, double h, double eta_prime) {
    double ci = std::sqrt(std::max(1.0 - h * h, 1e-12));
    double ht = h / eta_prime;
    double ct = std::sqrt(std::max(1.0 - ht * ht, 1e-12));
    return 2.0 * path / (eta_prime * ct) - 2.0 / ci;
}
}  // namespace

double marschner_gaussian(double beta_rad, double x_rad) {
    return std::exp(-x_rad * x_rad / (2.0 * beta_rad * beta_rad)) / (beta_rad * std::sqrt(2.0 * kPi));
}

MarschnerM marschner_m(const MarschnerParams& p, double theta_i_rad, double theta_o_rad) {
    double th = 0.5 * (theta_i_rad + theta_o_rad);
    double a = glm::radians(p.alpha_r_deg), b = glm::radians(std::max(std::abs(p.beta_r_deg), 0.1));
    return {marschner_gaussian(b, th - a), marschner_gaussian(b * 0.5, th + a * 0.5),
            marschner_gaussian(b * 2.0, th + a * 1.5)};
}

double fresnel_dielectric(double eta, double cos_i) {
    cos_i = std::clamp(cos_i, 0.0, 1.0);
    double sin_t2 = (1.0 - cos_i * cos_i) / (eta * eta);
    if (sin_t2 >= 1.0) return 1.0;
    double cos_t = std::sqrt(1.0 - sin_t2);
    double rs = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
    double rp = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
    return 0.5 * (rs * rs + rp * rp);
}

glm::dvec3 marschner_attenuation(const MarschnerParams& p, int path, double h, double cos_theta_d) {
    PathGeometry g = geometry(p, cos_theta_d);
    double ci = std::sqrt(std::max(1.0 - h * h, 0.0));
    double f = fresnel_dielectric(p.ior, std::clamp(cos_theta_d, 0.0, 1.0) * ci);
    if (path == 0) return glm::dvec3(f);
    double ht = h / g.eta_prime;
    double ct = std::sqrt(std::max(1.0 - ht * ht, 0.0));
    glm::dvec3 t = glm::exp(-p.absorption * (ct / g.cos_theta_t));
    glm::dvec3 tp = path == 1 ? t : t * t;
    return (1.0 - f) * (1.0 - f) * (path == 1 ? 1.0 : f) * tp;
}

MarschnerN marschner_n(const MarschnerParams& p, double phi_rad, double cos_theta_d, int samples) {
    PathGeometry g = geometry(p, cos_theta_d);
    MarschnerN out;
    samples = std::max(samples, 16);
    for (int path = 0; path < 3; ++path) {
        glm::dvec3 sum(0.0);
        double h0 = -1.0;
        double d0 = wrap_pi(phi_of(path, h0, g.eta_prime) - phi_rad);
        for (int i = 1; i <= samples; ++i) {
            double h1 = -1.0 + 2.0 * i / samples;
            double d1 = wrap_pi(phi_of(path, h1, g.eta_prime) - phi_rad);
            // A root: the difference changes sign without wrapping around +-pi.
            if ((d0 <= 0.0) != (d1 <= 0.0) && std::abs(d1 - d0) < kPi) {
                double lo = h0, hi = h1, dlo = d0;
                for (int it = 0; it < 40; ++it) {
                    double mid = 0.5 * (lo + hi);
                    double dm = wrap_pi(phi_of(path, mid, g.eta_prime) - phi_rad);
                    if ((dm <= 0.0) == (dlo <= 0.0)) {
                        lo = mid;
                        dlo = dm;
                    } else {
                        hi = mid;
                    }
                }
                double h = 0.5 * (lo + hi);
                double slope = std::max(std::abs(dphi_dh(path, h, g.eta_prime)), kCausticMinSlope);
                sum += marschner_attenuation(p, path, h, cos_theta_d) / (2.0 * slope);
            }
            h0 = h1;
            d0 = d1;
        }
        if (path == 0) out.r = sum.x;
        else if (path == 1) out.tt = sum;
        else out.trt = sum;
    }
    return out;
}

MarschnerLuts compute_marschner_luts(const MarschnerParams& p, int size) {
    MarschnerLuts l;
    l.size = std::max(size, 4);
    size_t texels = size_t(l.size) * size_t(l.size);
    l.m.resize(texels);
    l.n.resize(texels);
    l.trt.resize(texels);
    for (int v = 0; v < l.size; ++v) {
        double sv = (v + 0.5) / l.size;
        for (int u = 0; u < l.size; ++u) {
            double su = (u + 0.5) / l.size;
            double ti = std::asin(su * 2.0 - 1.0), to = std::asin(sv * 2.0 - 1.0);
            MarschnerM m = marschner_m(p, ti, to);
            l.m[size_t(v) * l.size + u] = glm::vec4(float(m.r), float(m.tt), float(m.trt), float(std::cos(0.5 * (ti - to))));
            double cos_d = sv;
            MarschnerN n = marschner_n(p, std::acos(su * 2.0 - 1.0), cos_d);
            double inv = 1.0 / (cos_d * cos_d);
            l.n[size_t(v) * l.size + u] = glm::vec4(glm::vec3(n.tt * inv), float(n.r * inv));
            l.trt[size_t(v) * l.size + u] = glm::vec4(glm::vec3(n.trt * inv), 0.0f);
        }
    }
    return l;
}

}  // namespace tressel::render
