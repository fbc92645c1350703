// Marschner et al. 2003 hair reflectance as 2D lookup textures (seed 002, GPU Gems 2 ch. 23): the
// longitudinal terms M_p(theta_i, theta_o) and the azimuthal terms N_p(phi, theta_d) for p = R, TT, TRT,
// computed on the CPU and recomputed whenever the parameters change.
//
// Angles: theta_i / theta_o are the light / view directions' angles from the plane normal to the fibre
// (sin theta = dot(dir, tangent)); theta_h = (theta_i + theta_o) / 2, theta_d = (theta_i - theta_o) / 2;
// phi is the azimuth between the directions projected onto that plane (0: same side = backscatter
// geometry for R, pi: forward scattering).
//
//   M_p = unit-area Gaussian of width beta_p around alpha_p, evaluated at theta_h.
//         alpha_TT = -alpha_R / 2, alpha_TRT = -3 alpha_R / 2; beta_TT = beta_R / 2, beta_TRT = 2 beta_R.
//   N_p(phi) = sum over the offsets h in [-1, 1] with Phi(p, h) = phi (mod 2 pi) of A(p, h) / |2 dPhi/dh|,
//         Phi(p, h) = 2 p gamma_t - 2 gamma_i + p pi, gamma_i = asin h, gamma_t = asin(h / eta'),
//         eta' = sqrt(eta^2 - sin^2 theta_d) / cos theta_d (Bravais index).
//         A(0, h) = F; A(p, h) = (1 - F)^2 F^(p-1) T^p with F the unpolarised Fresnel reflectance at the
//         3D incidence angle (cos = cos theta_d cos gamma_i) and T = exp(-sigma_a cos(gamma_t) / cos(theta_t))
//         the absorption over the chord of a fibre of unit diameter (sigma_a per unit diameter).
//         Caustics (dPhi/dh = 0, TRT) are capped: |dPhi/dh| >= kCausticMinSlope.
// The full scattering function is S = sum_p M_p N_p / cos^2 theta_d; the N textures hold N_p / cos^2 theta_d.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "scene/scene_types.h"

namespace tressel::render {

struct MarschnerParams {
    double alpha_r_deg = -7.5;
    double beta_r_deg = 7.5;
    double ior = 1.55;
    glm::dvec3 absorption{0.2, 0.3, 0.5};   // per unit fibre diameter, per channel
    static MarschnerParams from(const Shading& s) { return {s.alpha_r_deg, s.beta_r_deg, s.ior, s.absorption}; }
    bool operator==(const MarschnerParams&) const = default;
};

inline constexpr double kCausticMinSlope = 0.5;

// Unit-area Gaussian: exp(-x^2 / (2 beta^2)) / (beta sqrt(2 pi)), x = theta_h - alpha (radians).
double marschner_gaussian(double beta_rad, double x_rad);

struct MarschnerM {
    double r = 0.0, tt = 0.0, trt = 0.0;
};
MarschnerM marschner_m(const MarschnerParams& p, double theta_i_rad, double theta_o_rad);

// Unpolarised Fresnel reflectance of a dielectric of index `eta` at incidence cosine `cos_i`.
double fresnel_dielectric(double eta, double cos_i);

struct MarschnerN {
    double r = 0.0;
    glm::dvec3 tt{0.0}, trt{0.0};
};
// N_p at azimuth phi (radians, any value; N is even and 2 pi periodic) for cos theta_d in (0, 1].
// `samples`: offsets h scanned for roots of Phi(p, h) = phi.
MarschnerN marschner_n(const MarschnerParams& p, double phi_rad, double cos_theta_d, int samples = 512);

// The attenuation A(p, h) of path p at offset h (gray for p = 0), exposed for the energy checks.
glm::dvec3 marschner_attenuation(const MarschnerParams& p, int path, double h, double cos_theta_d);

// Lookup textures, size x size texels, RGBA float, row-major, row v = 0 first. Texel centres sample
//   m:   u = (sin theta_i + 1) / 2, v = (sin theta_o + 1) / 2 -> (M_R, M_TT, M_TRT, cos theta_d)
//   n:   u = (cos phi + 1) / 2,     v = cos theta_d          -> (N_TT rgb, N_R) / cos^2 theta_d
//   trt: same indexing as n                                   -> (N_TRT rgb, 0) / cos^2 theta_d
struct MarschnerLuts {
    int size = 0;
    std::vector<glm::vec4> m, n, trt;
};
MarschnerLuts compute_marschner_luts(const MarschnerParams& p, int size = 64);

}  // namespace tressel::render
