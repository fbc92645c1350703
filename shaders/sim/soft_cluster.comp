#version 450
#include "sim/cloth_common.glsl"
layout(local_size_x = kClothWorkgroupSize) in;

// Per cluster of a soft body (soft_passes::cluster): its members' positions (in_a) matched to their rest
// shape: centroid, covariance, rotation warm-started from the cluster's last one; the rotation and the
// goals' translation written to clusters.
void main() {
    uint c = LINEAR_INVOCATION_INDEX;
    if (c >= pc.count) return;
    ClothVertex cv = vertices[c];
    vec3 mean = vec3(0.0);
    for (uint i = 0u; i < cv.edges; ++i) mean += in_a[adjacency[cv.first + i]].xyz;
    mean /= float(cv.edges);
    vec3 rest_mean = cluster_rest[c].xyz;
    mat3 a = mat3(0.0);
    for (uint i = 0u; i < cv.edges; ++i) {
        uint j = adjacency[cv.first + i];
        a += sm_outer(in_a[j].xyz - mean, vertices[j].rest_os.xyz - rest_mean);
    }
    vec4 q = sm_extract_rotation(a, clusters[2u * c], kShapeMatchRotationIterations);
    clusters[2u * c] = q;
    clusters[2u * c + 1u] = vec4(sm_translation(mean, q, rest_mean), 0.0);
}
