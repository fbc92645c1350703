// Transcendental functions built only from IEEE-754 basic operations (+ - * / sqrt), so their results
// are the same bits on every compiler, C library and CPU (std::sin and friends differ between libm
// versions). Grooming uses these wherever a result ends up in the groom. Accuracy: a few ulps in double.
// The target compiles with -ffp-contract=off so no fused multiply-add changes the rounding.
#pragma once

#include <cmath>

namespace tressel::det {

inline constexpr double kPi = 3.141592653589793238462643383279502884;

// sin and cos of r for |r| <= pi/4 (Taylor series, Horner form).
inline double sin_kernel(double r) {
    const double r2 = r * r;
    double p = -1.0 / 1307674368000.0;            // 1/15!
    p = p * r2 + 1.0 / 6227020800.0;               // 1/13!
    p = p * r2 - 1.0 / 39916800.0;                 // 1/11!
    p = p * r2 + 1.0 / 362880.0;                   // 1/9!
    p = p * r2 - 1.0 / 5040.0;                     // 1/7!
    p = p * r2 + 1.0 / 120.0;                      // 1/5!
    p = p * r2 - 1.0 / 6.0;                        // 1/3!
    return r + r * r2 * p;
}
inline double cos_kernel(double r) {
    const double r2 = r * r;
    double p = -1.0 / 20922789888000.0;           // 1/16!
    p = p * r2 + 1.0 / 87178291200.0;              // 1/14!
    p = p * r2 - 1.0 / 479001600.0;                // 1/12!
    p = p * r2 + 1.0 / 3628800.0;                  // 1/10!
    p = p * r2 - 1.0 / 40320.0;                    // 1/8!
    p = p * r2 + 1.0 / 720.0;                      // 1/6!
    p = p * r2 - 1.0 / 24.0;                       // 1/4!
    p = p * r2 + 0.5;                              // 1/2!
    return 1.0 - r2 * p;
}

// sin and cos of x for |x| up to about 1e6 (Cody-Waite reduction by pi/2 in three parts).
inline void sincos(double x, double* s, double* c) {
    const double k = std::nearbyint(x * (2.0 / kPi));
    // pi/2 = p1 + p2 + p3, p1 and p2 with 33 significant bits so k * p1 and k * p2 are exact (fdlibm).
    const double r = ((x - k * 1.57079632673412561417e+00) - k * 6.07710050630396597660e-11) - k * 2.02226624871116645580e-21;
    const double sr = sin_kernel(r), cr = cos_kernel(r);
    switch (static_cast<long long>(k) & 3) {
        case 0: *s = sr, *c = cr; break;
        case 1: *s = cr, *c = -sr; break;
        case 2: *s = -sr, *c = -cr; break;
        default: *s = -cr, *c = sr; break;
    }
}
inline double sin(double x) { double s, c; sincos(x, &s, &c); return s; }
inline double cos(double x) { double s, c; sincos(x, &s, &c); return c; }

// atan(x): argument halved twice (atan x = 2 atan(x / (1 + sqrt(1 + x^2)))) after folding |x| > 1, then
// a Taylor series on |x| < 0.2.
inline double atan(double x) {
    const bool neg = x < 0.0;
    double a = neg ? -x : x;
    const bool inv = a > 1.0;
    if (inv) a = 1.0 / a;
    a = a / (1.0 + std::sqrt(1.0 + a * a));
    a = a / (1.0 + std::sqrt(1.0 + a * a));
    const double a2 = a * a;
    double p = 0.0;
    for (int n = 25; n >= 1; n -= 2) p = p * a2 + ((n / 2) % 2 ? -1.0 : 1.0) / double(n);
    double r = 4.0 * a * p;
    if (inv) r = kPi / 2.0 - r;
    return neg ? -r : r;
}

inline double atan2(double y, double x) {
    if (x > 0.0) return atan(y / x);
    if (x < 0.0) return y >= 0.0 ? atan(y / x) + kPi : atan(y / x) - kPi;
    if (y > 0.0) return kPi / 2.0;
    if (y < 0.0) return -kPi / 2.0;
    return 0.0;
}

inline double acos(double x) {
    x = x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x);
    return atan2(std::sqrt((1.0 - x) * (1.0 + x)), x);
}

}  // namespace tressel::det
