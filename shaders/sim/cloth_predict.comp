#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per vertex, the first pass of a step (cloth_passes::predict): small step 0's prediction from the state
// (in_a: positions, in_b: previous positions) into out_a, the state's positions into out_b.
void main() {
    uint v = LINEAR_INVOCATION_INDEX;
    if (v >= pc.count) return;
    ClothStepParams p = P();
    vec4 x = in_a[v];
    out_b[v] = x;
    if (x.w <= 0.0) {
        out_a[v] = vec4(cloth_pin_position(p, vertices[v].rest_os.xyz, 0u), x.w);
        return;
    }
    out_a[v] = vec4(cloth_predict(p, x.xyz, in_b[v].xyz, vertex_normal(v)), x.w);
}
