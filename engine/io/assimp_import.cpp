// Assimp path for FBX, PLY, STL, DAE and the other formats Assimp reads. The bytes come from memory
// (read with the size cap by the caller) after the pre-flight checks; Assimp's logger stays off (none
// is created), so nothing is printed. Skins (bones) and skeletal animations are kept as the glTF importer
// keeps them: nodes with their rest TRS, one skin per skinned mesh (its bones' nodes and offset matrices),
// clips as keyframe channels in seconds.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "io/import_detail.h"

// Assimp checks its own invariants with ai_assert, which Debian's build keeps and which aborts the process
// (a malformed DAE reached one in its Collada reader: the whole editor gone with the user's work). This
// definition takes the place of the library's (exported from every binary that links tressel_io, see
// engine/io/CMakeLists.txt) and throws instead; Assimp's importer catches exceptions from its readers and
// returns "no scene" with the message, which import_assimp reports as a parse error naming the file.
namespace Assimp {
void aiAssertViolation(const char* failed, const char* file, int line) {
    throw std::runtime_error(std::string("Assimp's own check failed (") + (failed ? failed : "?") + " at " + (file ? file : "?") + ":" +
                             std::to_string(line) + ")");
}
}  // namespace Assimp

namespace tressel::detail {

namespace {

glm::dmat4 to_glm(const aiMatrix4x4& m) {
    glm::dmat4 out;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) out[c][r] = m[r][c];
    return out;
}

// Reads a numeric metadata entry whatever type the format stored it as.
bool metadata_number(const aiScene* scene, const char* key, double& out) {
    if (!scene->mMetaData) return false;
    const aiMetadata* md = scene->mMetaData;
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (md->mKeys[i] != aiString(key)) continue;
        const aiMetadataEntry& e = md->mValues[i];
        if (!e.mData) return false;
        switch (e.mType) {
            case AI_INT32: out = *static_cast<const int32_t*>(e.mData); return true;
            case AI_UINT64: out = double(*static_cast<const uint64_t*>(e.mData)); return true;
            case AI_FLOAT: out = *static_cast<const float*>(e.mData); return true;
            case AI_DOUBLE: out = *static_cast<const double*>(e.mData); return true;
            default: return false;
        }
    }
    return false;
}

// Assimp's key times are in ticks; 0 ticks per second means "not given", for which Assimp's own
// documentation and viewer take 25.
double ticks_per_second(const aiAnimation& a) { return a.mTicksPerSecond > 0.0 && std::isfinite(a.mTicksPerSecond) ? a.mTicksPerSecond : 25.0; }

// One clip: each node channel's position, rotation and scaling keys as Translation, Rotation and Scale
// channels in seconds. A key list that is not finite and strictly increasing is left out with a warning.
Animation read_animation(const aiAnimation& a, size_t index, const std::unordered_map<std::string, int>& nodes, const SourceFile& file,
                         Diagnostics& diagnostics) {
    Animation anim;
    anim.name = a.mName.length ? a.mName.C_Str() : "clip " + std::to_string(index);
    const double tps = ticks_per_second(a);
    size_t skipped = 0, unknown = 0;
    for (unsigned c = 0; c < a.mNumChannels; ++c) {
        const aiNodeAnim* ch = a.mChannels[c];
        if (!ch) continue;
        auto node = nodes.find(ch->mNodeName.C_Str());
        if (node == nodes.end()) {
            ++unknown;
            continue;
        }
        auto add = [&](AnimPath path, unsigned count, auto key_at) {
            if (count == 0) return;
            AnimationChannel out;
            out.node = node->second;
            out.path = path;
            bool valid = true;
            for (unsigned k = 0; k < count && valid; ++k) {
                const auto [t, v] = key_at(k);
                const double ts = t / tps;
                valid = std::isfinite(ts) && (out.times_s.empty() || float(ts) > out.times_s.back());
                for (float x : v) valid &= std::isfinite(x);
                if (path == AnimPath::Rotation) valid &= (v[0] != 0.0f || v[1] != 0.0f || v[2] != 0.0f || v[3] != 0.0f);
                out.times_s.push_back(float(ts));
                out.values.insert(out.values.end(), v.begin(), v.begin() + (path == AnimPath::Rotation ? 4 : 3));
            }
            if (!valid) {
                ++skipped;
                return;
            }
            anim.duration_s = std::max(anim.duration_s, double(out.times_s.back()));
            anim.channels.push_back(std::move(out));
        };
        add(AnimPath::Translation, ch->mNumPositionKeys, [&](unsigned k) {
            const aiVectorKey& key = ch->mPositionKeys[k];
            return std::pair{key.mTime, std::array<float, 4>{key.mValue.x, key.mValue.y, key.mValue.z, 0.0f}};
        });
        add(AnimPath::Rotation, ch->mNumRotationKeys, [&](unsigned k) {
            const aiQuatKey& key = ch->mRotationKeys[k];
            return std::pair{key.mTime, std::array<float, 4>{key.mValue.x, key.mValue.y, key.mValue.z, key.mValue.w}};
        });
        add(AnimPath::Scale, ch->mNumScalingKeys, [&](unsigned k) {
            const aiVectorKey& key = ch->mScalingKeys[k];
            return std::pair{key.mTime, std::array<float, 4>{key.mValue.x, key.mValue.y, key.mValue.z, 0.0f}};
        });
    }
    if (skipped)
        diagnostics.warn(file.name(), "clip '" + anim.name + "': " + std::to_string(skipped) +
                                          " channels with non-finite, non-increasing or zero-rotation keys were left out");
    if (unknown)
        diagnostics.warn(file.name(), "clip '" + anim.name + "': " + std::to_string(unknown) + " channels name no node of the file and were left out");
    return anim;
}

}  // namespace

Result<ImportedScene> import_assimp(const SourceFile& file, const std::string& ext, FileFrame& frame, Progress*) {
    // COLLADA and FBX by name or by content (Assimp also picks its reader by a file's first bytes).
    const std::string_view head(reinterpret_cast<const char*>(file.bytes.data()), std::min<size_t>(file.bytes.size(), 1024));
    if (ext == "dae" || head.find("<COLLADA") != std::string_view::npos) TRESSEL_TRY(check_collada_text(file));
    else if (ext == "fbx" || head.starts_with("Kaydara FBX Binary") || head.find("FBXHeaderExtension") != std::string_view::npos)
        TRESSEL_TRY(check_fbx_structure(file));

    ImportedScene scene;
    Assimp::Importer importer;
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // FBX pivots folded into each node's transform: one node per joint, as the clips name them.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    // JoinIdenticalVertices only merges vertices equal in every attribute, which undoes Assimp's
    // one-vertex-per-corner output without changing the mesh; position-only welding is ImportOptions::weld.
    const unsigned flags = aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_SortByPType |
                           aiProcess_JoinIdenticalVertices;
    const aiScene* ai = importer.ReadFileFromMemory(file.bytes.data(), file.bytes.size(), flags, ext.c_str());
    if (!ai) {
        // Clips that fail Assimp's validation of the whole scene (keys past the clip's end, as some exporters
        // write them) should not cost the artist the mesh: read it again unvalidated, take the clips out and
        // validate the rest.
        const std::string why = importer.GetErrorString();
        if (why.find("aiNodeAnim") != std::string::npos || why.find("aiAnimation") != std::string::npos) {
            const aiScene* again = importer.ReadFileFromMemory(file.bytes.data(), file.bytes.size(), flags & ~unsigned(aiProcess_ValidateDataStructure),
                                                               ext.c_str());
            if (again) {
                auto* editable = const_cast<aiScene*>(again);  // the importer owns it; its clips are dropped here
                for (unsigned a = 0; a < editable->mNumAnimations; ++a) delete editable->mAnimations[a];
                delete[] editable->mAnimations;
                editable->mAnimations = nullptr;
                editable->mNumAnimations = 0;
                ai = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure);
                if (ai) scene.diagnostics.warn(file.name(), "the file's animations are malformed and were left out (" + why + ")");
            }
            if (!ai) importer.FreeScene();
        }
    }
    if (!ai) {
        std::string why = importer.GetErrorString();
        return make_error(ErrorCode::Parse, file.name() + ": cannot read the " + ext + " file: " + (why.empty() ? "unknown error" : why));
    }
    if ((ai->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !ai->mRootNode)
        return make_error(ErrorCode::Parse, file.name() + ": the " + ext + " file has no complete scene");

    // FBX UnitScaleFactor is not trusted: most exporters leave the centimetre default whatever the
    // geometry's real unit (the Infinite head scan is in metres yet declares centimetres), so the import
    // option decides and the declaration is only reported.
    double unit_scale_cm = 0.0;
    if (metadata_number(ai, "UnitScaleFactor", unit_scale_cm) && unit_scale_cm > 0.0 && std::isfinite(unit_scale_cm)) {
        const double mpu = unit_scale_cm / 100.0;
        if (std::abs(mpu - frame.metres_per_unit) > 1e-9 * mpu) {
            scene.diagnostics.info(file.name(), "the file declares " + std::to_string(mpu) + " metres per unit; the import option (" +
                                                    std::to_string(frame.metres_per_unit) + ") was used");
            scene.diagnostics.items.back().code = "unit_conflict";
            scene.declared_metres_per_unit = mpu;
        }
    }
    double up = -1.0;
    if (metadata_number(ai, "UpAxis", up)) {
        const UpAxis declared = up == 2.0 ? UpAxis::Z : UpAxis::Y;
        if (up == 1.0 || up == 2.0) {
            if (declared != frame.up_axis) scene.diagnostics.info(file.name(), std::string("the file declares ") + (up == 2.0 ? "Z" : "Y") + " up; used instead of the import option");
            frame.up_axis = declared;
        }
    }

    // The node tree, depth first with an explicit stack (no recursion on file-controlled depth): each node's
    // rest TRS and world transform; bones and clips find their nodes by name.
    struct Item {
        const aiNode* node;
        int parent;
    };
    std::vector<const aiNode*> ai_nodes;
    std::vector<glm::dmat4> world;
    std::unordered_map<std::string, int> by_name;
    std::vector<Item> stack{{ai->mRootNode, -1}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        if (scene.nodes.size() > 1000000) return make_error(ErrorCode::LimitExceeded, file.name() + ": more than a million nodes");
        Node node;
        node.name = it.node->mName.C_Str();
        node.parent = it.parent;
        aiVector3D s, p;
        aiQuaternion q;
        it.node->mTransformation.Decompose(s, q, p);
        node.translation = glm::dvec3(p.x, p.y, p.z);
        node.rotation = glm::dquat(q.w, q.x, q.y, q.z);
        node.scale = glm::dvec3(s.x, s.y, s.z);
        const int index = int(scene.nodes.size());
        world.push_back((it.parent >= 0 ? world[size_t(it.parent)] : glm::dmat4(1.0)) * to_glm(it.node->mTransformation));
        by_name.emplace(node.name, index);  // the first of equal names
        scene.nodes.push_back(node);
        ai_nodes.push_back(it.node);
        for (unsigned c = it.node->mNumChildren; c-- > 0;) {
            if (it.node->mChildren[c]) stack.push_back({it.node->mChildren[c], index});
        }
    }

    size_t unknown_bones = 0, extra_influences = 0, unweighted = 0;
    const size_t node_count = scene.nodes.size();
    for (size_t ni = 0; ni < node_count; ++ni) {
        const aiNode* an = ai_nodes[ni];
        for (unsigned k = 0; k < an->mNumMeshes; ++k) {
            const unsigned mi = an->mMeshes[k];
            if (mi >= ai->mNumMeshes) return make_error(ErrorCode::Parse, file.name() + ": node '" + scene.nodes[ni].name + "' refers to a missing mesh");
            const aiMesh* am = ai->mMeshes[mi];
            if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
            // A node holding several meshes gets a child per extra mesh (identity transform), so that every
            // mesh has a node of its own to follow.
            size_t owner = ni;
            if (scene.nodes[ni].mesh >= 0) {
                Node child;
                child.name = scene.nodes[ni].name;
                child.parent = int(ni);
                owner = scene.nodes.size();
                scene.nodes.push_back(child);
                world.push_back(world[ni]);
            }
            Mesh mesh;
            mesh.name = am->mName.length ? am->mName.C_Str() : scene.nodes[ni].name;
            // Bones: the skin of this mesh (its bones' nodes and offset matrices, plus the mesh's own node
            // for vertices no bone weighs) and each vertex's four largest weights.
            std::vector<glm::dmat4> joint_m;
            Skin skin;
            std::vector<std::array<std::pair<float, uint16_t>, 4>> influences;
            if (am->mNumBones > 0 && am->mBones) {
                skin.name = mesh.name;
                influences.assign(am->mNumVertices, {});
                for (unsigned b = 0; b < am->mNumBones; ++b) {
                    const aiBone* bone = am->mBones[b];
                    if (!bone) continue;
                    auto it = by_name.find(bone->mName.C_Str());
                    if (it == by_name.end()) {
                        ++unknown_bones;
                        continue;
                    }
                    const glm::dmat4 offset = to_glm(bone->mOffsetMatrix);
                    bool finite = true;
                    for (int c = 0; c < 4; ++c)
                        for (int r = 0; r < 4; ++r) finite &= std::isfinite(offset[c][r]);
                    if (!finite) return make_error(ErrorCode::Parse, file.name() + ": bone '" + std::string(bone->mName.C_Str()) + "' has a non-finite offset matrix");
                    if (skin.joints.size() >= 65535) return make_error(ErrorCode::LimitExceeded, file.name() + ": mesh '" + mesh.name + "' has over 65,535 bones");
                    const auto j = uint16_t(skin.joints.size());
                    skin.joints.push_back(it->second);
                    skin.inverse_bind.push_back(glm::mat4(offset));
                    joint_m.push_back(world[size_t(it->second)] * offset);
                    for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                        const aiVertexWeight& vw = bone->mWeights[w];
                        if (vw.mVertexId >= am->mNumVertices || !(vw.mWeight > 0.0f) || !std::isfinite(vw.mWeight)) continue;
                        auto& slots = influences[vw.mVertexId];
                        auto weakest = std::min_element(slots.begin(), slots.end());
                        if (weakest->first > 0.0f) ++extra_influences;
                        if (vw.mWeight > weakest->first) *weakest = {vw.mWeight, j};
                    }
                }
                skin.joints.push_back(int(owner));  // the mesh's node, for unweighted vertices
                skin.inverse_bind.push_back(glm::mat4(1.0f));
                joint_m.push_back(world[owner]);
            }
            const bool skinned = !joint_m.empty();
            const glm::dmat4& w = world[owner];
            mesh.positions.reserve(am->mNumVertices);
            for (unsigned v = 0; v < am->mNumVertices; ++v) {
                const aiVector3D& a = am->mVertices[v];
                glm::dmat4 m = w;
                if (skinned) {
                    auto& slots = influences[v];
                    std::sort(slots.begin(), slots.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
                    double sum = 0.0;
                    for (const auto& sl : slots) sum += sl.first;
                    glm::u16vec4 jv(0);
                    glm::vec4 wv(0.0f);
                    if (sum > 1e-12) {
                        m = glm::dmat4(0.0);
                        for (int c = 0; c < 4; ++c) {
                            jv[c] = slots[size_t(c)].second;
                            wv[c] = float(slots[size_t(c)].first / sum);
                            m += joint_m[jv[c]] * double(wv[c]);
                        }
                    } else {
                        ++unweighted;
                        jv[0] = uint16_t(joint_m.size() - 1);
                        wv[0] = 1.0f;
                    }
                    mesh.joints.push_back(jv);
                    mesh.weights.push_back(wv);
                }
                mesh.positions.push_back(glm::vec3(m * glm::dvec4(a.x, a.y, a.z, 1.0)));
                if (am->mNormals) {
                    const aiVector3D& n = am->mNormals[v];
                    mesh.normals.push_back(glm::vec3(glm::transpose(glm::inverse(glm::dmat3(m))) * glm::dvec3(n.x, n.y, n.z)));
                }
            }
            if (am->mTextureCoords[0]) {
                for (unsigned v = 0; v < am->mNumVertices; ++v) mesh.uvs.emplace_back(am->mTextureCoords[0][v].x, am->mTextureCoords[0][v].y);
            }
            if (am->mColors[0]) {
                for (unsigned v = 0; v < am->mNumVertices; ++v) {
                    const aiColor4D& c = am->mColors[0][v];
                    mesh.colors.emplace_back(c.r, c.g, c.b, c.a);
                }
            }
            for (unsigned f = 0; f < am->mNumFaces; ++f) {
                const aiFace& face = am->mFaces[f];
                if (face.mNumIndices != 3) continue;
                for (int c = 0; c < 3; ++c) mesh.indices.push_back(face.mIndices[c]);
            }
            if (skinned) {
                mesh.skin = int(scene.skins.size());
                scene.nodes[owner].skin = mesh.skin;
                scene.skins.push_back(std::move(skin));
            }
            scene.nodes[owner].mesh = int(scene.meshes.size());
            scene.meshes.push_back(std::move(mesh));
        }
    }
    if (unknown_bones) scene.diagnostics.warn(file.name(), std::to_string(unknown_bones) + " bones name no node of the file; their weights were left out");
    if (extra_influences)
        scene.diagnostics.info(file.name(), std::to_string(extra_influences) + " bone weights beyond a vertex's four largest were left out (the rest scaled to sum to 1)");
    if (unweighted) scene.diagnostics.warn(file.name(), std::to_string(unweighted) + " skinned vertices have no bone weight; they follow their mesh's node");
    for (unsigned a = 0; a < ai->mNumAnimations; ++a)
        if (ai->mAnimations[a]) scene.animations.push_back(read_animation(*ai->mAnimations[a], a, by_name, file, scene.diagnostics));
    return scene;
}

}  // namespace tressel::detail
