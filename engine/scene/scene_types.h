// The scene description (JSON v1): plain C++ types with their defaults. The member initialisers are
// the only place a default is written: the parameter declarations (params.h) read theirs from a
// default-constructed scene. Loading, saving, validation, the schema document and presets live beside
// this file. All lengths are metres, angles degrees, times seconds, unless a name says otherwise.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/units.h"

namespace tressel {

struct EditedGuides;  // groom/guides_file.h
struct ScalpPaint;    // groom/scalp_paint.h

struct Transform {
    glm::dvec3 translate_m{0.0};
    glm::dvec3 rotate_deg{0.0};   // Euler angles, applied X then Y then Z
    glm::dvec3 scale{1.0};        // JSON accepts a number (uniform) or [x, y, z]
    bool operator==(const Transform&) const = default;
};

struct MeshRef {
    std::string name;             // unique among meshes; referenced by collision meshes and scalps
    std::string path;             // as written in the file; relative paths resolve against the scene file
    std::string units;            // "" = the scene's units, else m / cm / mm / in / ft
    std::string up_axis;          // "" = the scene's up axis, else y / z
    Transform transform;
    bool weld = false;            // merge duplicate positions on import
    bool visible = true;
    // A mesh whose skin names bones but has no skeleton (a TressFX .tfxmesh): the mesh whose file has nodes
    // of those names, and the clips, that animate it. "" = its own file's.
    std::string skeleton;
    bool operator==(const MeshRef&) const = default;
};

enum class SignMethod { Auto, Parity, Winding, FaceNormal };

struct CollisionMesh {
    std::string mesh;             // name of a MeshRef
    int cells_x = 64;             // TressFX numCellsInXAxis: cells across the mesh x extent (largest extent when x is degenerate)
    double padding = 0.8;         // extra cells on every side, as a fraction of cells_x (TressFX 0.8)
    double margin_m = 0.004;      // collision margin in metres (TressFX stores it in cells)
    SignMethod sign = SignMethod::Auto;
    bool animated_band_only = false;  // an animated body's per-frame rebuild: the narrow band only (SdfBuildDesc::band_only)
    bool operator==(const CollisionMesh&) const = default;
};

enum class ColliderType { Sphere, Capsule };

struct Collider {
    std::string name;
    ColliderType type = ColliderType::Sphere;
    glm::dvec3 p0_m{0.0};         // sphere centre / capsule end 0
    glm::dvec3 p1_m{0.0};         // capsule end 1 (unused for spheres)
    double radius_m = 0.05;
    double friction = 0.3;        // 0 = frictionless sliding, 1 = hair sticks
    std::string attach_to;        // mesh name whose motion it follows; "" = world
    std::string attach_joint;     // skeletal animation: joint (node) of attach_to's skin it follows; "" = the mesh's motion
    bool operator==(const Collider&) const = default;
};

enum class RegionType { Whole, Cap, VertexColor, UvMask, Paint };

struct ScalpRegion {
    RegionType type = RegionType::Whole;
    glm::dvec3 axis{0.0, 1.0, 0.0};   // cap: centre direction, mesh space
    double angle_deg = 70.0;          // cap: half angle around the axis
    int channel = 0;                  // vertex_color / uv_mask: 0 r, 1 g, 2 b, 3 a
    double threshold = 0.5;           // vertex_color / uv_mask / paint: included when the value is above this
    std::string mask_path;            // uv_mask: PNG, resolved like mesh paths
    bool operator==(const ScalpRegion&) const = default;
};

struct Scalp {
    std::string mesh;                 // name of a MeshRef (the head itself or a separate scalp mesh)
    ScalpRegion region;
    std::string paint;                // .tpaint file of the maps painted on the scalp (groom/scalp_paint.h); "" = none
    // The scalp paint in memory, not yet saved to `paint` (null: read the file). Not part of the file;
    // compared by identity (a stroke makes a new one), so undo restores it exactly.
    std::shared_ptr<const ScalpPaint> painted;
    bool operator==(const Scalp&) const = default;
};

enum class Placement { PerVertex, Random, File, Edited };
enum class CombSpace { World, Surface };
enum class PartMode { None, Plane };

struct Growth {
    Placement placement = Placement::Random;
    int guides = 3000;                // random: number of guides (ignored when density_per_cm2 > 0)
    double density_per_cm2 = 0.0;     // random: guides per cm^2 of region area; 0 = use `guides`
    uint32_t seed = 7;
    double min_spacing_m = 0.0;       // random: Poisson-disk minimum root distance; 0 = none
    std::string guide_file;           // file: .tfx or .hair guides attached to the nearest scalp triangle;
                                      // edited: the .tguides file brushed guides are kept in (groom/guides_file.h)
    int vertices_per_strand = 32;
    double length_m = 0.25;
    double length_variation = 0.15;   // fraction: lengths spread uniformly in length * [1 - v, 1 + v]
    std::string length_map;           // optional PNG in scalp UV space scaling the length (red channel)
    glm::dvec3 comb_direction{0.0, -1.0, 0.0};
    double comb = 0.0;                // 0 = along the normal, 1 = along comb_direction
    // Surface: comb_direction is laid into the scalp's tangent plane at each root (hair follows the skull).
    CombSpace comb_space = CombSpace::World;
    // A parting: roots on the positive side of the plane (part_point, part_normal) are combed along
    // +part_normal, the others along -part_normal, in the scalp's tangent plane (instead of comb_direction).
    PartMode part = PartMode::None;
    glm::dvec3 part_point_m{0.0};
    glm::dvec3 part_normal{1.0, 0.0, 0.0};
    double curl_radius_m = 0.0;       // helix radius; 0 = no curl
    double curl_pitch_m = 0.02;       // distance advanced along the growth direction per helix turn
    double wave_amplitude_m = 0.0;
    double wave_frequency = 10.0;     // waves per metre of strand
    glm::dvec3 wave_axis{0.0};        // zero = perpendicular to the strand and the comb direction
    double droop = 0.0;               // 0 = straight, 1 = fully bent by gravity toward rest
    double tip_width_scale = 0.2;     // per-point width taper: width at tip / width at root
    // Placement edited: the brushed guides in memory, not yet saved to guide_file (null: read guide_file).
    // Not part of the file; compared by identity (a stroke makes a new one), so undo restores it exactly.
    std::shared_ptr<const EditedGuides> edited;
    bool operator==(const Growth&) const = default;
};

enum class FollowMode { None, TressFX, Barycentric };

struct Follow {
    FollowMode mode = FollowMode::Barycentric;
    int per_guide = 4;                // tressfx: follow hairs per guide
    double root_radius_m = 0.012;     // tressfx: maximum root offset from the guide
    double tip_separation = 1.0;      // spread toward the tip (TressFX tipSeparationFactor)
    int count = 40000;                // barycentric: total follow hairs (ignored when density_per_cm2 > 0)
    double density_per_cm2 = 0.0;
    int subdivisions = 1;             // barycentric: regular subdivision level of each triangle
    double clump = 0.2;               // 0 = spread evenly, 1 = on the nearest guide
    uint32_t seed = 11;
    bool operator==(const Follow&) const = default;
};

enum class SmoothingMode { None, Bezier, CatmullRom };

// How a strand keeps its shape: TressFX's local shape constraint (a child pulled toward its rest segment
// off its parent's frame, iterated) or an elastic rod's bending solved implicitly every step.
enum class BendingModel { LocalShape, Rod };

struct Smoothing {
    SmoothingMode mode = SmoothingMode::None;
    int factor = 2;                   // rendered vertices per guide segment
    bool operator==(const Smoothing&) const = default;
};

struct SimulationParams {
    bool enabled = true;
    int gpu_vertices_per_strand = 32;       // 4, 8, 16, 32 or 64: strands are resampled to this on the GPU
    double damping = 0.08;                  // TressFX damping
    double global_stiffness = 0.4;
    double global_range = 0.3;              // fraction of the strand (from the root) held by global shape
    double local_stiffness = 0.9;
    int local_iterations = 3;
    BendingModel bending = BendingModel::LocalShape;  // how local_stiffness holds the shape
    int length_iterations = 3;
    double vsp_coeff = 0.76;                // velocity shock propagation
    double vsp_threshold = 1.2;             // acceleration threshold for VSP (TressFX vspAccelThreshold)
    double friction = 0.3;                  // Coulomb's kinetic coefficient against collision meshes
    double static_friction = 0.5;           // Coulomb's static coefficient (used as at least `friction`)
    double particle_radius_m = 0.001;       // "pearl" radius added to collider radii
    double max_position_delta_m = 0.2;      // clamp on a vertex's movement per step
    double wind_scale = 1.0;                // how strongly this group feels the wind
    bool chain_shape_matching = false;      // runs of vertices matched to their rest shape (curls)
    double chain_stiffness = 0.5;           // fraction of a run's shape error removed per 1/60 s
    int chain_span = 5;                     // vertices per run
    bool volume = false;                    // hair volume: hair-hair pressure and internal friction on a grid
    double volume_pressure = 0.1;           // push out of regions denser than the target, at 60 Hz
    double volume_friction = 0.1;           // velocity pulled toward the hair's local mean, per 1/60 s
    double volume_density_per_cm2 = 20.0;   // target density: hairs per square centimetre of cross-section
    int volume_cells = 32;                  // grid cells along the hair's largest extent (+3 padding)
    bool sag_free = true;                   // shape targets solved so the groom hangs still under gravity
    std::vector<std::string> sdf;           // collision mesh names this group collides with
    std::vector<std::string> colliders;     // primitive collider names
    bool operator==(const SimulationParams&) const = default;
};

enum class ShadingModel { KajiyaKay, Marschner };

struct Shading {
    ShadingModel model = ShadingModel::KajiyaKay;
    glm::dvec3 root_color{0.2, 0.12, 0.06};   // linear RGB
    glm::dvec3 tip_color{0.5, 0.35, 0.2};
    double tip_percentage = 0.5;              // fraction of the strand over which root blends into tip colour
    double color_variation = 0.1;             // per-strand hue/value jitter
    double brightness_variation = 0.1;
    double opacity = 1.0;
    double fiber_radius_m = 0.002;            // TressFX fiberRadius (ribbon half width at the root)
    double fiber_ratio = 0.463;               // TressFX fiberRatio: tip width / root width when thin_tip
    bool thin_tip = true;
    // Kajiya-Kay (TressFX names)
    double kd = 0.22, ks1 = 0.012, ex1 = 14.4, ks2 = 0.136, ex2 = 11.8;
    double spec_shift = 0.03;                 // shift of the highlights along the fibre, in tangent units
    // Marschner
    double alpha_r_deg = -7.5;                // longitudinal shift of R (TT = -alpha/2, TRT = -3alpha/2)
    double beta_r_deg = 7.5;                  // longitudinal width of R (TT = beta/2, TRT = 2beta)
    double ior = 1.55;
    glm::dvec3 absorption{0.2, 0.3, 0.5};     // per unit fibre diameter, per channel
    // self-shadowing
    bool shadows = true;
    double shadow_alpha = 0.35;               // TressFX shadowAlpha: opacity of one fibre
    double fiber_spacing = 0.4;               // TressFX fiberSpacing
    // Preview level of detail (the compute hair rasterizer): > 1 keeps more strands and vertices as the hair
    // shrinks on screen, < 1 fewer. Not exported: engines choose their own.
    double lod_bias = 1.0;
    bool operator==(const Shading&) const = default;
};

struct HairGroup {
    std::string name;
    Scalp scalp;
    Growth growth;
    Follow follow;
    Smoothing smoothing;
    SimulationParams simulation;
    Shading shading;
    bool visible = true;
    bool operator==(const HairGroup&) const = default;
};

// Cloth (seed 004, extended position-based dynamics): material and solver of a cloth accessory.
struct ClothParams {
    double density_kg_m2 = 0.15;              // mass per area of the fabric
    double stretch_stiffness_n_m = 5000.0;    // in-plane stiffness: tension (N per metre of width) per unit strain
    double bend_stiffness_nm = 1e-5;          // bending rigidity: moment (N m per metre) per unit curvature (1/m); 0 = no bending
    double damping = 0.05;                    // velocity lost per 1/60 s, as the hair's damping
    int iterations = 20;                      // small steps per substep of the world, one Jacobi iteration each
    double relaxation = 1.5;                  // over-relaxation of the averaged corrections (1 = plain average)
    double friction = 0.4;                    // against SDFs and colliders: 0 slides, 1 sticks
    double thickness_m = 0.003;               // collision radius around each cloth vertex
    double wind_scale = 1.0;                  // how strongly the cloth feels the wind
    double tether_slack = 0.0;                // long-range attachments let a vertex go this fraction beyond its rest distance to its pin; < 0 = off
    bool hair_collision = true;               // the hair collides with the cloth (kept under it: a scarf holds the hair down)
    double hair_clearance_m = 0.0;            // extra distance the cloth keeps from collision meshes: room for the hair under it
    bool rest_on_hair = true;                 // the groomed hair grown on those meshes holds the cloth up (add_cloth_hair_rest_field)
    bool operator==(const ClothParams&) const = default;
};

// Soft body (seed 003, shape matching): how a closed accessory mesh is sampled and how firmly it keeps
// its shape.
struct SoftBodyParams {
    double particle_spacing_m = 0.01;         // lattice spacing of the particles sampled inside the mesh
    int cluster_radius = 1;                   // a particle's cluster: the particles within this many lattice steps (1 = 3 x 3 x 3)
    double density_kg_m3 = 100.0;             // mass per volume
    double stiffness = 0.999;                 // fraction of the shape error removed per 1/60 s at 1 cm spacing (1 = rigid)
    double damping = 0.05;                    // velocity lost per 1/60 s, as the hair's
    int iterations = 10;                      // small steps per substep of the world, one matching each
    double friction = 0.4;                    // against SDFs and colliders: 0 slides, 1 sticks
    bool hair_collision = true;               // the hair collides with the body's drawn surface (kept outside it)
    bool operator==(const SoftBodyParams&) const = default;
};

enum class PinMode { NearMesh, VertexColor, Box, None };

// Which vertices of an accessory are pinned (follow the attach mesh rigidly).
struct AccessoryPins {
    PinMode mode = PinMode::NearMesh;
    double distance_m = 0.01;                 // near_mesh: vertices closer than this to the attach mesh
    double color_threshold = 0.5;             // vertex_color: vertices whose red channel is at least this
    glm::dvec3 box_min_m{0.0};                // box: vertices inside [min, max] in the accessory mesh's space
    glm::dvec3 box_max_m{0.0};
    bool operator==(const AccessoryPins&) const = default;
};

enum class AccessoryType { Cloth, SoftBody };

// An accessory shown and simulated with the hair: a headscarf, bandana, hood or ribbon as cloth; a bun,
// bow or pompom as a soft body.
struct Accessory {
    std::string name;
    AccessoryType type = AccessoryType::Cloth;
    std::string mesh;                         // the accessory's own mesh (a MeshRef name)
    std::string attach;                       // mesh its pins follow (usually the head); "" = world
    std::string attach_joint;                 // skeletal animation: joint (node) of attach's skin the pins follow; "" = the mesh's motion
    AccessoryPins pins;
    ClothParams cloth;                        // type cloth
    SoftBodyParams soft_body;                 // type soft_body
    std::vector<std::string> sdf;             // collision mesh names it collides with
    std::vector<std::string> colliders;       // primitive collider names
    glm::dvec3 color{0.45, 0.08, 0.08};       // linear RGB in the viewport
    bool enabled = true;
    bool visible = true;
    bool operator==(const Accessory&) const = default;
};

struct Wind {
    glm::dvec3 direction{1.0, 0.0, 0.0};
    double speed_mps = 0.0;
    double turbulence = 0.0;                  // 0..1 relative gust strength
    double gust_frequency_hz = 0.5;
    bool operator==(const Wind&) const = default;
};

struct Environment {
    glm::dvec3 gravity_mps2{0.0, -9.81, 0.0};
    Wind wind;
    double sim_rate_hz = 60.0;
    int substeps = 2;
    bool operator==(const Environment&) const = default;
};

enum class MotionType { None, Procedural, Animation };

struct Motion {
    MotionType type = MotionType::None;
    std::string mesh;                         // the mesh whose transform is animated ("" = every mesh)
    glm::dvec3 pivot_m{0.0};
    double turn_deg = 30.0;                   // yaw amplitude about the up axis
    double nod_deg = 0.0;                     // pitch amplitude
    double shake_deg = 0.0;                   // fast yaw amplitude at shake_frequency_hz
    double shake_frequency_hz = 3.0;
    glm::dvec3 translate_m{0.0};              // translation amplitude
    double frequency_hz = 0.5;
    std::string animation;                    // animation: clip name in the skinned mesh's file ("" = the first)
    double animation_start_s = 0.0;           // animation: clip time the playback starts at
    double animation_speed = 1.0;             // animation: clip seconds per second of simulation
    bool animation_loop = true;               // animation: wrap at the clip's end (else hold its last frame)
    bool operator==(const Motion&) const = default;
};

struct Light {
    glm::dvec3 direction{-0.4, -0.7, -0.6};   // direction the light travels, world space
    glm::dvec3 color{1.0, 0.97, 0.92};
    double intensity = 3.0;
    bool operator==(const Light&) const = default;
};

struct Lighting {
    Light key;
    Light fill{{0.6, -0.2, 0.5}, {0.6, 0.7, 0.9}, 0.8};
    glm::dvec3 ambient{0.05, 0.05, 0.06};
    bool operator==(const Lighting&) const = default;
};

enum class SliceAxis { X, Y, Z };
// What the slice plane shows: a collision mesh's signed distance field, or a hair group's density on its
// volume grid (the grid hair volume pushes on, built from the guides whether or not volume is on).
enum class SliceSource { Field, HairDensity };
// How the viewport colours the hair: its shading, or a debug colouring (a colour per guide, each segment's
// stretch against its rest length, each vertex's depth in the collision margin, the parameter from root to
// tip, guides the groom had to move out of the scalp or that are degenerate).
enum class HairColouring { Shaded, Guide, Stretch, Depth, RootTip, Problems };

struct View {
    glm::dvec3 target_m{0.0, 0.0, 0.0};
    double yaw_deg = 20.0;
    double pitch_deg = 10.0;
    double distance_m = 1.5;
    double fov_deg = 40.0;
    bool show_guides = true, show_follows = true, show_collision = false, show_colliders = true,
         show_slice = false, show_grid = true;
    SliceAxis slice_axis = SliceAxis::Z;
    double slice_position = 0.5;              // 0..1 across the grid
    std::string slice_mesh;                   // collision mesh whose field is sliced ("" = first)
    SliceSource slice_of = SliceSource::Field;
    std::string slice_group;                  // hair group whose density is sliced ("" = first)
    HairColouring colour_by = HairColouring::Shaded;
    bool operator==(const View&) const = default;
};

struct Scene {
    int version = 1;
    LengthUnit units = LengthUnit::Metre;     // units of imported files unless a mesh overrides them
    UpAxis up_axis = UpAxis::Y;
    std::vector<MeshRef> meshes;
    std::vector<CollisionMesh> collision_meshes;
    std::vector<Collider> colliders;
    std::vector<HairGroup> hair_groups;
    std::vector<Accessory> accessories;
    Environment environment;
    Motion motion;
    Lighting lighting;
    View view;

    // Not saved, and not part of the scene's content (compares equal whatever the folder): the
    // directory relative paths resolve against, i.e. the scene file's folder.
    struct Origin {
        std::filesystem::path dir;
        bool operator==(const Origin&) const { return true; }
    } origin;
    bool operator==(const Scene&) const = default;

    std::filesystem::path resolve(const std::string& path) const {
        std::filesystem::path p(path);
        return p.is_absolute() || origin.dir.empty() ? p : origin.dir / p;
    }
};

}  // namespace tressel
