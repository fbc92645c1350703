#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex, the first pass of a step (cloth_passes::predict): small step 0's prediction from the state
// (in_a: positions, in_b: previous positions) into out_a, the state's positions into out_b, and the
// vertex's frame for the step (its normal, its bending target) into frames.
void main() {
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.count) return;
    ClothStepParams p = P();
    vec4 x = in_a[v];
    ClothVertex cv = vertices[v];
    out_b[v] = x;
    vec3 n = vertex_normal(v);
    frames[2u * v] = vec4(n, 0.0);
    vec4 target = vec4(0.0);
    if (cv.bend_terms > 0u) {
        vec4 rest = bend_rest[v];
        target = vec4(cloth_bend_target(rest, n, x.xyz, in_a[bend_terms[cv.bend_first].x].xyz), rest.w);
    }
    frames[2u * v + 1u] = target;
    if (x.w <= 0.0) {
        out_a[v] = vec4(pin_place(p, v, cv.rest_os.xyz, 0u), x.w);
        return;
    }
    out_a[v] = vec4(cloth_predict(p, x.xyz, in_b[v].xyz, n), x.w);
}
