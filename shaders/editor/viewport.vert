#version 450
// A full-rectangle triangle strip covering the viewport region set by vkCmdSetViewport.
layout(location = 0) out vec2 uv;
void main() {
    vec2 p = vec2(float(gl_VertexIndex & 1), float((gl_VertexIndex >> 1) & 1));
    uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
