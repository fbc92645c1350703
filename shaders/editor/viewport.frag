#version 450
// Shows the renderer's sRGB target in the UI pass. Sampling an sRGB image returns linear values; the
// swapchain is UNORM (as Dear ImGui expects), so the value is encoded back to sRGB here.
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 colour;
vec3 linear_to_srgb(vec3 c) {
    vec3 lo = c * 12.92;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return mix(lo, hi, step(vec3(0.0031308), c));
}
void main() {
    vec4 c = texture(image, uv);
    colour = vec4(linear_to_srgb(clamp(c.rgb, 0.0, 1.0)), 1.0);
}
