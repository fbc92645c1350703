#version 450
#ifdef TRESSEL_SIM_PHASE_CLOCKS
#extension GL_ARB_shader_clock : require
#endif
#if defined(TRESSEL_SIM_CHAIN_SHUFFLE) || defined(TRESSEL_SIM_PHASE_CLOCKS)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#define SIM_HAS_SHUFFLE 1
#endif
// The guide step of a hair group after the strand data pass (strand_data.comp) in one dispatch:
// integration, global shape, VSP, local shape, length constraints with colliders, clamp, per SDF the
// vertex and midpoint pushes, and the follow-the-leader sweep that keeps the contacts - the passes of
// sim_passes in the CPU reference's order, with the same shared formulas.
//
// Every pass of the step reads and writes only its own strand (integration's tangent and the SDF passes'
// pinned neighbour are vertices of the same strand), so running them workgroup by workgroup over whole
// strands gives what running them pass by pass over all strands gives. A workgroup takes batches of S
// strands in turn (see "Batches" below) and stages each in shared memory (read and written once per step,
// coalesced), then alternates:
//  - per-vertex phases (integration, global shape, VSP, clamp, SDF vertices; SDF midpoints per segment of
//    one parity): every thread, striding over the workgroup's vertices;
//  - sequential sweeps (local shape, length) in the CPU's Gauss-Seidel order, one lane per strand and
//    iteration, pipelined along the strand (see sweeps()), over shared memory only (reference vectors and
//    rest lengths staged too);
//  - the last sweep, follow-the-leader with the contacts, after the SDF phases: one lane per strand, no
//    barrier inside (a lane touches only its own strand). The reference vectors' shared arrays, free once
//    the sweeps are done, hold each vertex's contact normal from the clamp phase on. The other subgroups
//    meanwhile read the next batch into registers and, where a subgroup holds whole strands, take it
//    through integration, global shape and VSP there (AHEAD).
// Shared arrays are vertex-major with a stride of S + 1, so a warp's lanes at one vertex of consecutive
// strands and a warp's run of consecutive vertices both hit distinct banks. The split passes (integrate.comp ... sdf_midpoint.comp)
// stay for per-pass timing. Built a second time with TRESSEL_SIM_PHASE_CLOCKS as sim/strands_phases.comp,
// which also records the SM cycles each phase of each batch takes (phase_mark).
#include "shared/sim_gpu.h"
layout(constant_id = 0) const uint S = 32u;   // strands per workgroup
layout(constant_id = 1) const uint N = 16u;   // vertices per strand of the group
layout(constant_id = 2) const uint T = 256u;  // threads per workgroup (>= S)
layout(constant_id = 3) const bool CHAIN = true;  // with the chain shape matching phase
// The chain shape matching phase by subgroup shuffles (chain_by_shuffles): the host sets it where a
// subgroup holds whole strands (N divides the subgroup size, which divides T) and the variant has them.
layout(constant_id = 4) const bool CHAIN_SHUFFLE = false;
layout(constant_id = 5) const uint SUB = 32u;  // the device's subgroup size
// Integration of the next batch in registers during the contact-keeping sweep (integrate_batch): the host
// sets it where a subgroup holds whole strands and the variant has shuffles.
layout(constant_id = 6) const bool AHEAD = false;
// Workgroups that take batches from the work counter (see "Batches"); without it, batch = workgroup.
layout(constant_id = 7) const bool PERSIST = true;
// Items per step of the pipelined sweeps (see sweep_lag_steps).
layout(constant_id = 8) const uint SWEEP_ITEMS = 1u;
// The contact-keeping sweep's threads, whole subgroups: the other threads read the next batch meanwhile.
const uint TF = ((S + SUB - 1u) / SUB) * SUB;
layout(local_size_x_id = 2) in;

uint g_field_offset = 0u;  // first float of the SDF being collided with
#define SDF_FETCH(i) sdf_fields[g_field_offset + (i)]
#define SIM_FRICTION_FIELDS
#include "sim/sim_common.glsl"

// ---- Phase clocks (sim/strands_phases.comp only) ----
// Thread 0 reads the SM clock after each phase's closing barrier, when every thread is done with it, adds
// the cycles since its previous reading to the phase's count in shared memory (a global read-modify-write
// there put an L2 round trip on thread 0's path into the next phase), and writes the counts to the
// workgroup's kSimPhaseCount slots at the end (a step's counts, overwritten by the next step's).
#ifdef TRESSEL_SIM_PHASE_CLOCKS
layout(std430, binding = kSimBindPhaseClocks) writeonly buffer PhaseClocksBuf { uint phase_cycles[]; };
shared uint s_phase_cycles[kSimPhaseCount];
uint g_clock = 0u;
void phase_start() {
    if (gl_LocalInvocationIndex != 0u) return;
    for (uint i = 0u; i < kSimPhaseCount; ++i) s_phase_cycles[i] = 0u;
    g_clock = clock2x32ARB().x;
}
void phase_mark(uint phase) {
    if (gl_LocalInvocationIndex != 0u) return;
    uint c = clock2x32ARB().x;
    s_phase_cycles[phase] += c - g_clock;
    g_clock = c;
}
void phase_end(uint workgroup) {
    if (gl_LocalInvocationIndex != 0u) return;
    for (uint i = 0u; i < kSimPhaseCount; ++i) phase_cycles[workgroup * kSimPhaseCount + i] = s_phase_cycles[i];
}
// The parts of a phase that run side by side (kSimPhaseLanesFirst on): every thread of a part reads the
// clock as the phase starts (lane_start) and as its part ends (lane_mark), and the part's count is the
// longest of its threads' - what the phase would take with that part alone on its path.
uint g_lane_clock = 0u;
void lane_start() { g_lane_clock = clock2x32ARB().x; }
void lane_mark(uint phase) { atomicMax(s_phase_cycles[phase], clock2x32ARB().x - g_lane_clock); }
#else
void phase_start() {}
void phase_mark(uint phase) {}
void phase_end(uint workgroup) {}
void lane_start() {}
void lane_mark(uint phase) {}
#endif

// The step's parameters and the SDF being collided with, copied to shared memory once per workgroup (and
// per SDF). Every phase reads them; from their buffers each read was a round trip to L1, or to L2 once the
// staging and the SDF fetches had evicted them (H100, 16M guide vertices: 3.6% of the step). Not copied
// into registers: held live there, they took registers from every phase.
shared SimGroupParams s_params;
shared SdfGridParams s_grid;
shared SimSdfFrame s_sdf_frame;
#define p s_params
#define G s_grid
#define F s_sdf_frame

const uint V = (S * N + T - 1u) / T;  // vertices per thread in the per-vertex phases
const uint SP = S + 1u;
const uint M = N * SP;
shared float s_x[M];
shared float s_y[M];
shared float s_z[M];
shared float s_w[M];
shared float s_px[M];
shared float s_py[M];
shared float s_pz[M];
shared float s_rx[M];   // reference vectors (local shape); after the sweeps chain translations, then contact normals
shared float s_ry[M];
shared float s_rz[M];
shared float s_len[M];  // rest length of the segment from vertex k to k + 1
// Per strand: from the strand pass, for the VSP and local shape phases.
shared vec4 s_frame0[S];
shared vec4 s_vsp_q[S];
shared vec4 s_root_old[S];  // w: VSP blend
shared vec4 s_root_new[S];
// The strand's SDF exemptions (sdf_exempt, one bit per field), which the SDF phases test for every vertex
// and segment, set up with the strand: read from the buffer there, each phase's work first waited on the
// read's round trip (H100, 4M guide vertices: the SDF phases 15,870 -> 14,500 cycles a batch, the step
// 0.7638 -> 0.7452 ms).
shared uint s_exempt[S];
bool exempt(uint s, uint sdf) { return (s_exempt[s] & (1u << sdf)) != 0u; }

uint at(uint s, uint k) { return k * SP + s; }
vec4 X(uint i) { return vec4(s_x[i], s_y[i], s_z[i], s_w[i]); }
void set_x(uint i, vec4 v) {
    s_x[i] = v.x;
    s_y[i] = v.y;
    s_z[i] = v.z;
    s_w[i] = v.w;
}
vec3 XP(uint i) { return vec3(s_px[i], s_py[i], s_pz[i]); }
void set_xp(uint i, vec3 v) {
    s_px[i] = v.x;
    s_py[i] = v.y;
    s_pz[i] = v.z;
}
vec3 REF(uint i) { return vec3(s_rx[i], s_ry[i], s_rz[i]); }

// The per-strand values of this step for slot s, from the strand data pass (strand_data.comp, the
// dispatch before this one): a long dependent chain for one thread per strand, which here would hold up
// every thread of the workgroup. Run by S threads past the contact-keeping sweep's lanes (setup_first), for
// the next batch while the sweep of this one runs: no phase after the chain shape matching reads these
// arrays. The host checks that the workgroup has TF + S threads.
void strand_setup(uint strand, uint s, uint strand_count) {
    SimStrandData d = strand_data[strand];
    vec4 rest_q = rest_root_frame_q[strand];
    vec3 r0 = rest_os[strand * N].xyz;
    s_frame0[s] = sim_quat_normalize(sim_quat_mul(d.root_frame_q, rest_q));
    s_vsp_q[s] = d.vsp_q;
    s_root_old[s] = with_w(sim_transform_point(root_before(strand, strand_count), r0), d.vsp_t_m.w);
    s_root_new[s] = with_w(sim_transform_point(root_now(strand, strand_count), r0), 0.0);
    s_exempt[s] = sdf_exempt[strand];
}

// ---- Batches ----
// A workgroup takes batches of S strands from the group's work counter (zeroed by the strand data pass)
// until none is left, and reads the next batch's vertices into registers while the contact-keeping sweep
// of this one runs (one lane per strand: 15 of 16 subgroups would wait), so that staging a batch in is a
// copy from registers to shared memory; with AHEAD it also integrates them there (integrate_batch). The
// host dispatches at most kSimStrandsMaxWorkgroups (an H100 holds 132 at once); any more find the counter
// past the end and return. Which workgroup takes a batch changes nothing in its result.
// Which thread holds which of a batch's vertices: every thread, vertex i = t + v T (V of them), as the
// per-vertex phases take them; or, for a batch integrated ahead (AHEAD), only the subgroups past the
// sweep's (TF) that do not share its scheduler - an SM issues subgroup w on scheduler w % 4, and beside
// the next batch's work the sweep's chain of dependent instructions took 18,000-21,000 cycles against
// 14,200 alone (an H100, 4M guide vertices) - i = u + v U (VA of them, u the thread's place among them).
const uint SUBS = T / SUB;
const uint SWEEP_SUBS = TF / SUB;
const uint U = (SUBS - SWEEP_SUBS - ((SUBS + 3u) / 4u - (SWEEP_SUBS + 3u) / 4u)) * SUB;
const uint VA = (S * N + U - 1u) / U;
const uint VR = V > VA ? V : VA;
shared uint s_batch;
vec4 g_x[VR];     // position, inverse mass
vec4 g_xp[VR];    // previous position; w: the previous step's contact (sim_contact_code), for friction
vec4 g_ref[VR];   // reference vector; w: rest length of the segment to the next vertex
vec3 g_rest[VR];  // rest position, scalp space (pinned vertices, global shape)

uint batch_strands(uint batch) { return min(S, pc.count - batch * S); }
// The first of the S threads that set up a batch's strands (strand_setup; the contact-keeping sweep's threads
// are below TF). With AHEAD, subgroup 4 on: it shares the sweep's scheduler and reads nothing ahead
// (ahead_thread), so the set-up no longer waits behind a subgroup's reading and integration of the next
// batch (H100, 4M guide vertices: the next batch's part of the follow-the-leader phase 12,850 -> 11,150
// cycles, the step 0.887 -> 0.866 ms). Otherwise the threads just past the sweep's.
uint setup_first() {
    if (!AHEAD) return TF;  // nested ifs: glslc's optimizer fails on && of specialization constants
    if (SWEEP_SUBS > 4u) return TF;
    if (4u * SUB + S > T) return TF;
    return 4u * SUB;
}
bool ahead_thread(uint t) {
    uint w = t / SUB;
    return w >= SWEEP_SUBS && w % 4u != 0u;
}
uint batch_item(uint t, uint v, bool ahead) {
    if (!ahead) return t + v * T;
    uint w = t / SUB;
    uint before = w - SWEEP_SUBS - ((w + 3u) / 4u - (SWEEP_SUBS + 3u) / 4u);  // ahead subgroups below w
    return before * SUB + t % SUB + v * U;
}

// Reads batch `batch`'s vertices into this thread's registers.
void load_batch(uint t, uint batch, bool ahead) {
    if (ahead && !ahead_thread(t)) return;
    uint items = batch_strands(batch) * N;
    uint base_all = batch * S * N;
    for (uint v = 0u; v < VR; ++v) {
        uint i = batch_item(t, v, ahead);
        if (v >= (ahead ? VA : V) || i >= items) break;
        g_rest[v] = rest_os[base_all + i].xyz;
        g_x[v] = pos[base_all + i];
        g_xp[v] = prev[base_all + i];
        g_ref[v] = vec4(ref_vectors[base_all + i].xyz, rest_lengths[base_all + i]);
    }
}

// Stages the registers load_batch filled into shared memory.
void store_batch(uint t, uint items, bool ahead) {
    if (ahead && !ahead_thread(t)) return;
    for (uint v = 0u; v < VR; ++v) {
        uint i = batch_item(t, v, ahead);
        if (v >= (ahead ? VA : V) || i >= items) break;
        uint j = at(i / N, i % N);
        set_x(j, g_x[v]);
        set_xp(j, g_xp[v].xyz);
        s_rx[j] = g_ref[v].x;
        s_ry[j] = g_ref[v].y;
        s_rz[j] = g_ref[v].z;
        s_len[j] = g_ref[v].w;
    }
}

// sim_passes::integrate for vertex k of `strand` (x, xp: its position and previous position before the
// step; ahead, behind: its neighbours' positions, its own at the ends; rest: its object-space rest position).
vec4 integrate_at(uint strand, vec4 x, vec3 xp, vec3 ahead, vec3 behind, vec3 rest, float contact_code) {
    if (x.w <= 0.0) return with_w(sim_transform_point(root_now(strand, p.strand_count), rest), x.w);
    float dt = p.gravity_mps2.w;
    vec3 push = vec3(0.0);
    if (p.volume_nodes > 0u) {
        SimPair vol = volume_integration(p, x.xyz, xp);
        xp = vol.a.xyz;
        push = vol.b.xyz;
    }
    vec3 v = (x.xyz - xp) / dt;
    vec3 tangent = sim_safe_normalize(ahead - behind, vec3(0.0));
    vec3 accel = p.gravity_mps2.xyz + sim_wind_accel(sim_wind_velocity(p, strand), v, tangent, p.wind_drag_per_s);
    vec3 predicted = sim_integrate(x.xyz, xp, accel, p.damping_decay, dt) + push;
    return with_w(friction_prediction(p, strand, x.xyz, predicted, tangent, contact_code), x.w);
}

// The same for vertex k of slot s, from shared memory: the new position (the neighbours' positions before
// the step stay in shared memory until every thread has read them).
vec4 integrate_vertex(uint strand, uint s, uint k, vec3 rest, float contact_code) {
    vec4 x = X(at(s, k));
    vec3 ahead = k + 1u < N ? X(at(s, k + 1u)).xyz : x.xyz;
    vec3 behind = X(at(s, k > 0u ? k - 1u : k)).xyz;
    return integrate_at(strand, x, XP(at(s, k)), ahead, behind, rest, contact_code);
}

// sim_passes::global_shape then sim_passes::vsp for vertex k of `strand` (x: its new position, xp: its
// previous position, after the swap; its strand's VSP rotation, root before (w: the blend) and root now):
// .a the position, .b the previous position.
SimPair shape_and_vsp_at(uint strand, uint k, vec4 x, vec3 xp, vec3 rest, vec4 vsp_q, vec4 root_old, vec3 root_new) {
    SimPair r;
    r.a = x;
    r.b = vec4(xp, 0.0);
    if (x.w <= 0.0) return r;
    if (p.global_stiffness > 0.0 && sim_in_global_range(k, N, p.global_range)) {
        vec3 target = sim_transform_point(root_now(strand, p.strand_count), rest);
        x = with_w(sim_global_shape(x.xyz, target, p.global_stiffness), x.w);
    }
    if (root_old.w > 0.0) {
        x = with_w(sim_vsp_apply(x.xyz, vsp_q, root_old.xyz, root_new, root_old.w), x.w);
        r.b.xyz = sim_vsp_apply(xp, vsp_q, root_old.xyz, root_new, root_old.w);
    }
    r.a = x;
    return r;
}

// The same for vertex k of slot s, in place in shared memory.
void shape_and_vsp_vertex(uint strand, uint s, uint k, vec3 rest) {
    uint i = at(s, k);
    SimPair r = shape_and_vsp_at(strand, k, X(i), XP(i), rest, s_vsp_q[s], s_root_old[s], s_root_new[s].xyz);
    set_x(i, r.a);
    set_xp(i, r.b.xyz);
}

// AHEAD: the first phases of batch `batch` in the registers load_batch filled - integration (the
// neighbours' positions by shuffles: a subgroup holds whole strands), the swap, global shape and VSP (each
// lane computing its strand's VSP motion as strand_setup does) - so that the batch skips those phases.
// Called by whole subgroups (ahead_thread).
void integrate_batch(uint t, uint batch) {
#ifdef SIM_HAS_SHUFFLE
    if (!AHEAD) return;
    uint items = batch_strands(batch) * N;
    uint lane = gl_SubgroupInvocationID;
    uint up = min(lane + 1u, gl_SubgroupSize - 1u), down = lane > 0u ? lane - 1u : 0u;
    for (uint v = 0u; v < VA; ++v) {
        uint i = batch_item(t, v, true);
        vec3 x = g_x[v].xyz;
        vec3 ahead = subgroupShuffle(x, up);
        vec3 behind = subgroupShuffle(x, down);
        if (i < items) {
            uint strand = batch * S + i / N, k = i % N;
            vec4 moved = integrate_at(strand, g_x[v], g_xp[v].xyz, k + 1u < N ? ahead : x, k > 0u ? behind : x, g_rest[v], g_xp[v].w);
            SimStrandData d = strand_data[strand];
            vec3 r0 = rest_os[strand * N].xyz;
            vec4 root_old = with_w(sim_transform_point(root_before(strand, p.strand_count), r0), d.vsp_t_m.w);
            vec3 root_new = sim_transform_point(root_now(strand, p.strand_count), r0);
            SimPair r = shape_and_vsp_at(strand, k, moved, x, g_rest[v], d.vsp_q, root_old, root_new);
            g_x[v] = r.a;
            g_xp[v].xyz = r.b.xyz;
        }
    }
#endif
}

// ---- The sequential sweeps as a pipeline ----
// The CPU sweeps each strand Gauss-Seidel, root to tip: every local shape iteration, then every length
// iteration (each followed by the sphere and capsule colliders). Iteration i + 1
// only needs iteration i to have finished the vertices just ahead of it, so each iteration (a "stage") gets
// its own lane and runs a few vertices (its lag, sweep_lag()) behind the stage before it: a strand's stages
// all move at once, one item per step and a barrier between steps. That gives the CPU's result (every item
// reads exactly the values the sequential order gives it) in N + the sum of the lags dependent steps
// instead of stages x N, with S x stages lanes busy instead of S. Lanes are stage-major (S lanes per
// stage), so a warp's lanes share the stage and the item, hit consecutive banks and do not diverge. Rounds
// of T / S stages run one after another when there are more stages than that.
//
// The lags (stage j at item k; "before" = in an earlier step):
//  - local shape after local shape, 1: item k writes child k + 2 from its joint k + 1 (in a register
//    since its item k - 1) and child k + 2 as the previous stage left it (its item k, a step before); the
//    previous stage is at item k + 1, touching vertex k + 3 and its joint's previous position k + 2;
//  - length after length, 2: item k (pair k, k + 1) keeps vertex k + 1 in a register and writes vertex k,
//    after reading vertex k + 1 as the previous stage left it (its item k + 1, a step before);
//  - length after the last local shape stage, 0: item k reads vertex k + 1 and the
//    previous position of vertex k, which local shape finished at its item k - 1, a step before, while its
//    item k in the same step touches only child k + 2 and joint k + 1;
//  - no stage ever reads a vertex a later stage has already written.
// The colliders apply per vertex once its stage is done with it. The local shape reaction
// (sim_shape_reaction) is written in two halves: the first local shape stage's, from each child before it
// moves, and the last one's, as it settles.
uint sweep_lag(uint j, uint local_n) {
    if (j < local_n) return 1u;   // local shape after local shape
    if (j == local_n) return 0u;  // the first stage after local shape
    return 2u;
}
const uint R = T / S;  // stages in flight per round
// SWEEP_ITEMS (constant 8): items a stage takes per step, one after the other on its lane, so that a round
// takes fewer steps and barriers (SimGpuPipelines::set_sweep_items; bench sim --sweep-items). A stage
// lagging `lag` items behind the one before it starts ceil((SWEEP_ITEMS - 1 + lag) / SWEEP_ITEMS) steps
// after it: every item it takes in a step then reads what the stage before left a step earlier (its items
// up to the last one's + lag - 1), and that stage's items of the same step are at least `lag` ahead of
// each of them - the pattern of one item per step; items further ahead touch only vertices further along
// the strand, which no item of the later stage in that step reads.
uint sweep_lag_steps(uint lag) { return (SWEEP_ITEMS - 1u + lag + SWEEP_ITEMS - 1u) / SWEEP_ITEMS; }

vec4 collide_vertex(vec4 v, vec3 xp, float friction_scale) {
    if (v.w <= 0.0) return v;
    for (uint c = 0u; c < p.collider_count; ++c)
        v = with_w(sim_collide_primitive(v.xyz, xp, colliders[pc.slot * pc.max_colliders + c], p.particle_radius_m,
                                         friction_scale), v.w);
    return v;
}

// The lane's stage state between items: the last vertex it moved (kept in a register, as the CPU's sweep
// keeps it) and, for local shape, the frame of that vertex's segment.
struct SweepLane {
    vec4 a;
    vec4 frame;
};

// sim_passes::local_shape, one iteration, item k (k + 2 < N): joint k + 1 (lane.a) places child k + 2. The
// first iteration is the first to touch the child, so it writes the joint's reaction's - half from the
// child as it was before the sweeps (no other item reads or writes that joint's previous position until
// the last iteration adds the + half). Every iteration writes the joint's previous position, with scales
// of zero where it adds nothing (the same value to the bit), rather than branching on first and last.
void local_shape_item(uint s, uint k, float before_scale, float moved_scale, float stiffness, inout SweepLane lane) {
    uint ia = at(s, k + 1u);
    uint ib = at(s, k + 2u);
    vec4 before = X(ib);
    vec3 target = lane.a.xyz + sim_quat_rotate(lane.frame, REF(ib));
    vec4 moved = sim_shape_child(before, target, stiffness);
    set_x(ib, moved);
    vec4 reaction = sim_shape_reaction(vec4(XP(ia), 0.0), lane.a, before, before_scale);
    set_xp(ia, sim_shape_reaction(reaction, lane.a, moved, moved_scale).xyz);
    lane.frame = sim_frame_advance(lane.frame, moved.xyz - lane.a.xyz);
    lane.a = moved;
}

// sim_passes::length_and_colliders, one iteration, item k: the pair (k, k + 1), then vertex k is final.
void length_item(uint s, uint k, bool colliders, inout SweepLane lane) {
    uint i = at(s, k);
    vec4 done = lane.a;
    if (k + 1u < N) {
        SimPair r = sim_length_pair(lane.a, X(at(s, k + 1u)), s_len[i]);
        done = r.a;
        lane.a = r.b;
    }
    set_x(i, colliders ? collide_vertex(done, XP(i), 0.0) : done);  // friction: at integration (sim_collider_friction)
}

// sim_passes::bend for slot s, by one lane per strand before the sweeps (the group bends as a rod): a rigid
// strand's children placed on their rest segments, or one L D L^T solve of inertia plus bending (shared/
// sim.h, "rod bending") root to tip and back. z = D^-1 L^-1 r of row i goes to the reference vectors'
// arrays at vertex i, whose own vector the forward sweep used two joints before; the factors to a
// private array.
void bend_strand(uint s) {
    vec4 frame = s_frame0[s];
    if (p.bend_mode == kSimBendRigid) {
        for (uint k = 0u; k + 2u < N; ++k) {
            uint ia = at(s, k + 1u), ib = at(s, k + 2u);
            vec4 a = X(ia);
            vec4 moved = sim_shape_child(X(ib), a.xyz + sim_quat_rotate(frame, REF(ib)), 1.0);
            set_x(ib, moved);
            frame = sim_frame_advance(frame, moved.xyz - a.xyz);
        }
        return;
    }
    vec2 lf[N];
    lf[1] = vec2(0.0);
    float k_prev2 = 0.0, k_prev = 0.0, d1 = 1.0, d2 = 1.0;
    vec3 res_prev2 = vec3(0.0), res_prev = vec3(0.0), y1 = vec3(0.0), y2 = vec3(0.0);
    for (uint j = 1u; j <= N; ++j) {
        float k = 0.0;
        vec3 res = vec3(0.0);
        if (j + 1u < N) {
            vec3 xm = X(at(s, j - 1u)).xyz, x0 = X(at(s, j)).xyz, xp = X(at(s, j + 1u)).xyz;
            if (j >= 2u) frame = sim_frame_advance(frame, x0 - xm);
            float l_prev = s_len[at(s, j - 1u)];
            k = sim_bend_weight(p.bend_rigidity_dt2, l_prev, s_len[at(s, j)], j);
            res = sim_bend_residual(frame, REF(at(s, j + 1u)), l_prev, xm, x0, xp);
        }
        uint i = j - 1u;
        if (i >= kSimPinnedVertices) {
            float mass = sim_bend_mass(s_len[at(s, i - 1u)], i + 1u < N ? s_len[at(s, i)] : 0.0);
            vec4 f = sim_bend_factor_row(i, mass, k_prev2, k_prev, k, d1, lf[i - 1u].x, d2);
            vec3 r = k_prev2 * res_prev2 - 2.0 * k_prev * res_prev + k * res;
            vec3 y = r - f.x * y1 - f.y * y2;
            lf[i] = f.xy;
            vec3 zi = y / f.z;
            uint a = at(s, i);
            s_rx[a] = zi.x;
            s_ry[a] = zi.y;
            s_rz[a] = zi.z;
            y2 = y1;
            y1 = y;
            d2 = d1;
            d1 = f.z;
        }
        k_prev2 = k_prev;
        k_prev = k;
        res_prev2 = res_prev;
        res_prev = res;
    }
    vec3 e1 = vec3(0.0), e2 = vec3(0.0);
    for (uint i = N; i-- > kSimPinnedVertices;) {
        uint a = at(s, i);
        vec3 d = REF(a) - (i + 1u < N ? lf[i + 1u].x : 0.0) * e1 - (i + 2u < N ? lf[i + 2u].y : 0.0) * e2;
        vec4 x = X(a);
        if (x.w > 0.0) set_x(a, with_w(x.xyz + d, x.w));
        e2 = e1;
        e1 = d;
    }
}

// The stage within a round (R: none) of the lanes of stage group w (threads w S .. w S + S - 1), where
// the round has `locals` local shape stages and `in_round` stages in all. Where a stage is a whole
// subgroup, the local shape stages go to subgroups of an SM's schedulers 1-3 (subgroup w issues from
// scheduler w % 4), one each, and the length stages, about half a local shape item's instructions each,
// to scheduler 0's, rather than a local shape stage beside a length stage on two schedulers (H100, 4M
// guide vertices: the step 0.9135 -> 0.9019 ms). Otherwise later stages on lower lanes: a device that runs
// a step's lanes in index order (the CPU driver does) then meets every missed dependency between stages -
// a read before the earlier stage's write, a write before the earlier stage's read - so the tests see it.
uint sweep_stage(uint w, uint locals, uint in_round) {
    if (S == SUB && R % 4u == 0u && locals <= R - R / 4u && in_round - locals <= R / 4u) {
        if (w % 4u != 0u) {
            uint i = w - w / 4u - 1u;  // among the subgroups of schedulers 1-3
            return i < locals ? i : R;
        }
        uint i = w / 4u;
        return i < in_round - locals ? locals + i : R;
    }
    return R - 1u - w;
}

// Every sweep of the step for the workgroup's strands; called by every thread (it holds barriers).
void sweeps(uint t, uint strands_here) {
    uint local_n = p.local_stiffness_iter > 0.0 ? p.local_iterations : 0u;
    uint stages = local_n + p.length_iterations;
    uint s = t % S;
    for (uint first = 0u; first < stages; first += R) {
        uint in_round = min(R, stages - first);
        uint r = sweep_stage(t / S, min(local_n - min(local_n, first), in_round), in_round);
        uint j = first + r;
        bool busy = r < in_round && s < strands_here;
        // The lane's state before its first item: a local shape stage starts at joint 1 in the root frame, a
        // length stage at vertex 0 - pinned vertices, which no stage moves, so read here once rather than
        // by a branch in every item. The stiffness and whether there are colliders, in registers (read
        // from shared memory, they would be read again after every barrier).
        SweepLane lane;
        lane.frame = s_frame0[s];
        lane.a = X(at(s, j < local_n ? 1u : 0u));
        float stiffness = p.local_stiffness_iter;
        bool colliders = p.collider_count > 0u;
        // The reaction's scales (local_shape_item), and the items the lane takes - a local shape stage's
        // last child is vertex N - 1 - so that an item has no branch of its own (H100, 4M guide vertices:
        // the sweeps 21,300 -> 19,000 cycles a batch; with ftl_contact_strand's read ahead without a
        // branch too, the step 0.806 -> 0.764 ms).
        float before_scale = j == 0u ? -kSimShapeVelocityCorrection : 0.0;
        float moved_scale = j + 1u == local_n ? kSimShapeVelocityCorrection : 0.0;
        uint items = busy ? (j < local_n ? N - 2u : N) : 0u;
        // Steps this lane's stage starts after the round's first, and steps the round takes.
        uint offset = 0u, last_offset = 0u;
        for (uint i = 1u; i < in_round; ++i) {
            last_offset += sweep_lag_steps(sweep_lag(first + i, local_n));
            if (i == r) offset = last_offset;
        }
        uint steps = last_offset + (N + SWEEP_ITEMS - 1u) / SWEEP_ITEMS;
        for (uint step = 0u; step < steps; ++step) {
            for (uint b = 0u; b < SWEEP_ITEMS; ++b) {
                uint k = (step - offset) * SWEEP_ITEMS + b;  // wraps below the lane's first step
                if (k < items) {
                    if (j < local_n) local_shape_item(s, k, before_scale, moved_scale, stiffness, lane);
                    else length_item(s, k, colliders, lane);
                }
            }
            barrier();
        }
    }
}

// sim_passes::chain_match_run for the run starting at vertex k of slot s (a thread whose k starts no run
// returns): positions from shared memory, rest positions from their buffer; the translation into the
// reference vectors' arrays at the run's first vertex.
void chain_run(uint base_all, uint s, uint k) {
    uint span = p.chain_span;
    if (k < kSimChainFirstVertex || k + span > N) return;
    uint g = base_all + s * N + k;
    vec3 c = vec3(0.0), cr = vec3(0.0);
    for (uint i = 0u; i < span; ++i) {
        c += X(at(s, k + i)).xyz;
        cr += chain_rest_os[g + i].xyz;
    }
    float inv = 1.0 / float(span);
    c *= inv;
    cr *= inv;
    mat3 a = mat3(0.0);
    for (uint i = 0u; i < span; ++i) a += sm_outer(X(at(s, k + i)).xyz - c, chain_rest_os[g + i].xyz - cr);
    vec4 q = sm_extract_rotation(a, sm_warm_start(s_vsp_q[s], chain_q[g]), kShapeMatchRotationIterations);
    chain_q[g] = q;
    vec3 tr = sm_translation(c, q, cr);
    uint j = at(s, k);
    s_rx[j] = tr.x;
    s_ry[j] = tr.y;
    s_rz[j] = tr.z;
}

// sim_passes::chain_match_vertex for vertex k of slot s (rest: its rest position, in a register since
// staging). It writes only its own vertex and reads no other's position.
void chain_vertex(uint base_all, uint s, uint k, vec3 rest) {
    uint span = p.chain_span;
    uint i = at(s, k);
    vec4 x = X(i);
    if (x.w <= 0.0) return;
    uint first = sim_chain_first_run(k, span), last = sim_chain_last_run(k, N, span);
    if (first > last) return;
    vec3 sum = vec3(0.0);
    for (uint j = first; j <= last; ++j) {
        uint r = at(s, j);
        sum += sm_goal(chain_q[base_all + s * N + j], vec3(s_rx[r], s_ry[r], s_rz[r]), rest) - x.xyz;
    }
    set_x(i, with_w(x.xyz + sum * (p.chain_stiffness / float(span)), x.w));
}

#ifdef SIM_HAS_SHUFFLE
// Chain shape matching with a subgroup's lanes, item i (t + v T) of every thread: its run (the one starting at its
// vertex) matched in registers, and the runs containing its vertex - those starting 0 .. span - 1
// vertices before it, on the lanes as many places before it - read by shuffles. A subgroup holds whole
// strands, so no lane reads another strand's runs, and no shared or global memory is written between
// the two halves (the fallback goes through the reference vectors' shared arrays and the rotations'
// global slots, an L2 round trip per run and vertex). Every lane runs every shuffle (items past the
// workgroup's strands compute on whatever shared memory holds and write nothing).
void chain_by_shuffles(uint i, uint base_all, uint items, vec3 rest) {
    uint span = p.chain_span;
    uint lane = gl_SubgroupInvocationID;
    bool live = i < items;
    uint s = min(i / N, S - 1u), k = i % N;
    uint g = base_all + s * N + k;
    vec4 q = vec4(0.0, 0.0, 0.0, 1.0);
    vec3 tr = vec3(0.0);
    if (live && k + span <= N) {
        vec3 c = vec3(0.0), cr = vec3(0.0);
        for (uint m = 0u; m < span; ++m) {
            c += X(at(s, k + m)).xyz;
            cr += chain_rest_os[g + m].xyz;
        }
        float inv = 1.0 / float(span);
        c *= inv;
        cr *= inv;
        mat3 a = mat3(0.0);
        for (uint m = 0u; m < span; ++m) a += sm_outer(X(at(s, k + m)).xyz - c, chain_rest_os[g + m].xyz - cr);
        q = sm_extract_rotation(a, sm_warm_start(s_vsp_q[s], chain_q[g]), kShapeMatchRotationIterations);
        chain_q[g] = q;
        tr = sm_translation(c, q, cr);
    }
    vec4 x = X(at(s, k));
    vec3 sum = vec3(0.0);
    for (uint d = 0u; d < span; ++d) {
        uint src = lane >= d ? lane - d : lane;
        vec4 qj = subgroupShuffle(q, src);
        vec3 tj = subgroupShuffle(tr, src);
        if (k >= d && k - d + span <= N) sum += sm_goal(qj, tj, rest) - x.xyz;
    }
    if (live && x.w > 0.0) set_x(at(s, k), with_w(x.xyz + sum * (p.chain_stiffness / float(span)), x.w));
}
#endif

vec3 CONTACT(uint i) { return vec3(s_rx[i], s_ry[i], s_rz[i]); }
void set_contact(uint i, vec3 n) {
    s_rx[i] = n.x;
    s_ry[i] = n.y;
    s_rz[i] = n.z;
}

// sim_passes::sdf_vertex (SDF `sdf`) for vertex k of slot s (in place; the pinned neighbour it may read
// does not move in this phase).
void sdf_vertex(uint s, uint k) {
    uint i = at(s, k);
    vec4 x = X(i);
    if (x.w <= 0.0) return;
    vec3 xp = XP(i);
    SimContact r = sim_sdf_collide_vertex(G, F, x.xyz, xp);
    if (r.normal == vec4(0.0)) return;
    vec3 moved = r.moved.xyz;
    vec3 c = r.normal.xyz;
    if (k > 0u) {
        vec4 before = X(at(s, k - 1u));
        if (before.w <= 0.0) {
            moved = sim_keep_distance(moved, before.xyz, s_len[at(s, k - 1u)]);
            c = sim_contact_lifted(r.normal.xyz, r.moved.xyz, moved, F.params.x);
        }
    }
    set_xp(i, xp + sim_sdf_prev_shift(r.dep.xyz, moved - x.xyz));
    set_x(i, with_w(moved, x.w));
    set_contact(i, c);
}

// sim_passes::sdf_midpoint for the segment from vertex k of slot s.
void sdf_midpoint(uint s, uint k) {
    uint ia = at(s, k);
    uint ib = at(s, k + 1u);
    vec4 a = X(ia);
    vec4 b = X(ib);
    if (a.w <= 0.0 || b.w <= 0.0) return;
    vec3 mid = (a.xyz + b.xyz) * 0.5;
    vec3 push = sim_sdf_displacement(G, F, mid);
    if (push == vec3(0.0)) return;
    vec3 pa = XP(ia);
    vec3 pb = XP(ib);
    vec3 dep = sim_sdf_depenetration(push, mid - sim_transform_point(F.step_motion, (pa + pb) * 0.5));
    vec3 moved_a = a.xyz + push;
    vec3 normal = sim_safe_normalize(push, vec3(0.0));
    vec3 contact_a = normal;
    if (k > 0u) {
        vec4 before = X(at(s, k - 1u));
        if (before.w <= 0.0) {
            moved_a = sim_keep_distance(moved_a, before.xyz, s_len[at(s, k - 1u)]);
            contact_a = sim_contact_lifted(normal, a.xyz + push, moved_a, F.params.x);
        }
    }
    set_xp(ia, pa + sim_sdf_prev_shift(dep, moved_a - a.xyz));
    set_xp(ib, pb + dep);
    set_x(ia, with_w(moved_a, a.w));
    set_x(ib, with_w(b.xyz + push, b.w));
    set_contact(ia, contact_a);
    set_contact(ib, normal);
}

// sim_passes::ftl_contact for slot s: root to tip, each free vertex at its rest length from its (final)
// parent, outside its contact plane and the primitive colliders; DFTL's correction on the parent. A
// lane's loop is one dependent chain through `a`; the next item's inputs (its vertex, contact, previous
// position, rest length) do not depend on it - this item writes only its own vertex and its parent's
// previous position - so they are read one item ahead, and their shared-memory latency overlaps the
// item's arithmetic instead of adding to it (H100: the sweep took 520 cycles per item reading them in
// turn).
void ftl_contact_strand(uint s) {
    vec4 a = X(at(s, 0u));
    vec3 a_prev = XP(at(s, 0u));
    uint ib = at(s, 1u);
    vec4 b = X(ib);
    vec3 n = CONTACT(ib);
    vec3 b_prev = XP(ib);
    float rest = s_len[at(s, 0u)];
    uint colliders_here = p.collider_count;
    for (uint k = 0u; k + 1u < N; ++k) {
        uint ia = at(s, k);
        ib = at(s, k + 1u);
        vec4 next_b = b;
        vec3 next_n = n, next_prev = b_prev;
        float next_rest = rest;
        {  // past the tip, the last vertex again, read and not used: without a branch here the sweep's lanes
           // take 10,980 cycles a batch against 12,340 (H100, 4M guide vertices)
            uint ic = at(s, min(k + 2u, N - 1u));
            next_b = X(ic);
            next_n = CONTACT(ic);
            next_prev = XP(ic);
            next_rest = s_len[ib];
        }
        // A pinned child or parent keeps its values: written back unchanged, with no branch on the chain.
        SimPair f = sim_ftl_contact(a, b, rest, n);
        vec3 t = f.a.xyz;
        for (uint c = 0u; c < colliders_here; ++c)
            t = sim_keep_distance(sim_collide_primitive(t, b_prev, colliders[pc.slot * pc.max_colliders + c], p.particle_radius_m, 0.0),
                                  a.xyz, rest);
        bool free_child = b.w > 0.0;
        b = free_child ? with_w(t, b.w) : b;
        set_x(ib, b);
        set_xp(ia, free_child && a.w > 0.0 ? a_prev + f.b.xyz * kSimFtlVelocityCorrection : a_prev);
        a = b;
        a_prev = b_prev;
        b = next_b;
        n = next_n;
        b_prev = next_prev;
        rest = next_rest;
    }
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uint batches = (pc.count + S - 1u) / S;
    uint batch = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    if (PERSIST) {
        if (t == 0u) s_batch = atomicAdd(work_counter[0], 1u);
        barrier();
        batch = s_batch;
    }
    if (batch >= batches) return;  // the whole workgroup: no barrier is skipped by part of it

    phase_start();
    // The first batch: positions, previous positions, reference vectors and rest lengths, rest positions;
    // the step's parameters and the last SDF's grid and frame (the first met) by three threads of three
    // warps that take no part in the set-up (one thread doing all three put its round trips on its path).
    load_batch(t, batch, AHEAD);
    if (t == T - 65u) s_params = step_params[pc.slot];
    if (step_params[pc.slot].sdf_count > 0u) {  // the last field: the guides meet them last to first
        uint last = step_params[pc.slot].sdf_count - 1u;
        if (t == T - 1u) s_grid = sdf_grids[last];
        if (t == T - 33u) s_sdf_frame = sdf_frames[pc.slot * 2u * pc.max_sdfs + last];
    }
    uint setup = setup_first();
    if (t >= setup && t - setup < batch_strands(batch)) strand_setup(batch * S + t - setup, t - setup, step_params[pc.slot].strand_count);

    if (AHEAD) {  // the first batch integrated in registers too, once the parameters are in shared memory
        barrier();
        if (ahead_thread(t)) integrate_batch(t, batch);
    }
    const bool integrated = AHEAD;  // whether the batch's registers hold it integrated, swapped, shaped and VSP'd
    for (;;) {
        uint first = batch * S;
        uint strands_here = batch_strands(batch);
        uint items = strands_here * N;
        uint base_all = first * N;
        store_batch(t, items, integrated);
        // The batch after this one, wanted at the contact-keeping sweep (the counter's round trip waits
        // there, not here).
        uint next_claim = 0u;
        if (PERSIST && t == 0u) next_claim = atomicAdd(work_counter[0], 1u);
        barrier();
        phase_mark(0u);
        // Integration: each thread's new positions go to its own vertices' previous-position slots (which
        // only it reads), while every thread can still read the current ones; then the two swap - the CPU's
        // buffer swap, previous <- current - with global shape and VSP. Done in registers already for a
        // batch read during the previous one's last sweep, where a subgroup holds whole strands (AHEAD).
        if (!integrated) {
            for (uint v = 0u; v < V; ++v) {
                uint i = t + v * T;
                if (i >= items) break;
                uint s = i / N, k = i % N;
                vec4 x = integrate_vertex(first + s, s, k, g_rest[v], g_xp[v].w);
                set_xp(at(s, k), x.xyz);
            }
            barrier();
            phase_mark(1u);
            for (uint v = 0u; v < V; ++v) {
                uint i = t + v * T;
                if (i >= items) break;
                uint s = i / N, k = i % N;
                uint a = at(s, k);
                vec4 x = X(a);
                set_x(a, with_w(XP(a), x.w));
                set_xp(a, x.xyz);
                shape_and_vsp_vertex(first + s, s, k, g_rest[v]);
            }
            barrier();
        }
        phase_mark(2u);

        // The rod's bending, where the group bends as a rod (it replaces local shape), then the sweeps (local
        // shape with its reaction, length).
        if (p.bend_mode != kSimBendLocalShape) {
            if (t < strands_here) bend_strand(t);
            barrier();
        }
        sweeps(t, strands_here);
        phase_mark(3u);

        // Chain shape matching: every run's rotation and translation, then every free vertex toward its runs'
        // goals. The translations go to the reference vectors' arrays (free until the clamp clears them for
        // the contacts), the rotations to their global slots, which the vertices read back after the barrier.
    #ifdef SIM_HAS_SHUFFLE
        if (CHAIN && CHAIN_SHUFFLE && p.chain_span > 0u) {
            for (uint v = 0u; v < V; ++v) chain_by_shuffles(t + v * T, base_all, items, chain_rest_os[base_all + min(t + v * T, items - 1u)].xyz);
            barrier();
        } else
    #endif
        if (CHAIN && p.chain_span > 0u) {
            for (uint i = t; i < items; i += T) chain_run(base_all, i / N, i % N);
            memoryBarrierBuffer();
            barrier();
            for (uint v = 0u; v < V; ++v) {
                uint i = t + v * T;
                if (i >= items) break;
                chain_vertex(base_all, i / N, i % N, chain_rest_os[base_all + i].xyz);
            }
            barrier();
        }
        phase_mark(4u);

        // Clamp (clearing the contact normals), then per SDF, last to first (sim::step_once): vertices, even
        // segments, odd segments.
        for (uint i = t; i < items; i += T) {
            uint a = at(i / N, i % N);
            set_contact(a, vec3(0.0));
            vec4 x = X(a);
            if (x.w > 0.0) set_x(a, with_w(sim_clamp_delta(x.xyz, XP(a), p.max_delta_m), x.w));
        }
        for (uint k = 0u; k < p.sdf_count; ++k) {
            uint sdf = p.sdf_count - 1u - k;
            g_field_offset = sdf_offsets[sdf];
            if (k > 0u) {  // every thread is done with the previous SDF (the barrier after its odd segments)
                if (t == 0u) s_grid = sdf_grids[sdf];
                if (t == 32u % T) s_sdf_frame = sdf_frames[pc.slot * 2u * pc.max_sdfs + sdf];
                barrier();
            }
            for (uint i = t; i < items; i += T)
                if (!exempt(i / N, sdf)) sdf_vertex(i / N, i % N);
            barrier();
            phase_mark(5u);
            for (uint parity = 0u; parity < 2u; ++parity) {
                // Only the segments of this parity, consecutive threads on consecutive segments of a strand:
                // every thread has one segment (32 strands of 32 vertices, 512 threads), where striding over
                // all vertices left every other lane idle and gave each working lane two, one after the
                // other; and a subgroup's field fetches fall along one or two strands, a few cells, where
                // consecutive strands scattered them over the body (H100, 4M guide vertices: 4,840 / 4,460
                // -> 4,450 / 4,140 cycles a batch, the step 0.866 -> 0.855 ms). A strand's segments of
                // one parity are 2 (S + 1) floats apart, so a subgroup's lanes keep to distinct banks (but
                // for a lane or two where a third strand starts in it).
                uint segs = (N - parity) / 2u;
                uint segments = strands_here * segs;
                for (uint i = t; i < segments; i += T)
                    if (!exempt(i / segs, sdf)) sdf_midpoint(i / segs, parity + 2u * (i % segs));
                barrier();
                phase_mark(6u + parity);
            }
        }
        if (t == 0u) s_batch = next_claim;
        barrier();
        lane_start();

        // The last sweep: follow-the-leader with the contacts, one lane per strand; meanwhile the other
        // subgroups read the next batch into registers (integrating it with AHEAD), S threads from
        // setup_first() set its strands up, and with several SDFs the last one's grid and frame are staged again.
        uint next = PERSIST ? s_batch : batches;
        bool more = next < batches;
        if (t < TF) {
            // Without AHEAD the sweep's subgroup reads its vertices of the next batch after the sweep: held
            // through it, they took the registers the sweep's loop keeps its next item in.
            if (t < strands_here) {
                ftl_contact_strand(t);
                lane_mark(kSimPhaseLanesFirst);
            }
            if (more && !AHEAD) load_batch(t, next, false);
        } else if (more) {
            load_batch(t, next, AHEAD);
            if (ahead_thread(t)) integrate_batch(t, next);
            if (t >= setup && t - setup < batch_strands(next)) strand_setup(next * S + t - setup, t - setup, p.strand_count);
            if (p.sdf_count > 1u) {  // the SDF phases left the first field's grid and frame
                uint last = p.sdf_count - 1u;
                if (t == T - 1u) s_grid = sdf_grids[last];
                if (t == T - 33u) s_sdf_frame = sdf_frames[pc.slot * 2u * pc.max_sdfs + last];
            }
            lane_mark(kSimPhaseLanesFirst + 1u);
        }
        barrier();
        phase_mark(8u);

        // Out: the new positions to the integration buffer (the next current), the new previous positions
        // over the old current ones (the CPU's buffer swap): each workgroup read its own range of them above.
        // A previous position's w keeps the vertex's contact for the next step's friction (sim_passes::ftl_contact).
        for (uint i = t; i < items; i += T) {
            uint a = at(i / N, i % N);
            float w = s_w[a];
            scratch[base_all + i] = vec4(s_x[a], s_y[a], s_z[a], w);
            pos[base_all + i] = vec4(s_px[a], s_py[a], s_pz[a], w > 0.0 ? sim_contact_code(CONTACT(a)) : w);
        }
        phase_mark(9u);
        phase_end(batch);
        if (!more) break;
        phase_start();
        barrier();  // every thread is done reading this batch from shared memory
        batch = next;
    }
}
