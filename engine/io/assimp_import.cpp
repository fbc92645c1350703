// Assimp path for FBX, PLY, STL, DAE and the other formats Assimp reads. The bytes come from memory
// (read with the size cap by the caller) after the pre-flight checks; Assimp's logger stays off (none
// is created), so nothing is printed.
#include <cmath>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "io/import_detail.h"

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

}  // namespace

Result<ImportedScene> import_assimp(const SourceFile& file, const std::string& ext, FileFrame& frame, Progress*) {
    if (ext == "ply") TRESSEL_TRY(check_ply(file));
    if (ext == "stl") TRESSEL_TRY(check_stl(file));

    Assimp::Importer importer;
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // JoinIdenticalVertices only merges vertices equal in every attribute, which undoes Assimp's
    // one-vertex-per-corner output without changing the mesh; position-only welding is ImportOptions::weld.
    const unsigned flags = aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_SortByPType |
                           aiProcess_JoinIdenticalVertices;
    const aiScene* ai = importer.ReadFileFromMemory(file.bytes.data(), file.bytes.size(), flags, ext.c_str());
    if (!ai) {
        std::string why = importer.GetErrorString();
        return make_error(ErrorCode::Parse, file.name() + ": cannot read the " + ext + " file: " + (why.empty() ? "unknown error" : why));
    }
    if ((ai->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !ai->mRootNode)
        return make_error(ErrorCode::Parse, file.name() + ": the " + ext + " file has no complete scene");

    ImportedScene scene;
    // FBX UnitScaleFactor is not trusted: most exporters leave the centimetre default whatever the
    // geometry's real unit (the Infinite head scan is in metres yet declares centimetres), so the import
    // option decides and the declaration is only reported.
    double unit_scale_cm = 0.0;
    if (metadata_number(ai, "UnitScaleFactor", unit_scale_cm) && unit_scale_cm > 0.0 && std::isfinite(unit_scale_cm)) {
        const double mpu = unit_scale_cm / 100.0;
        if (std::abs(mpu - frame.metres_per_unit) > 1e-9 * mpu)
            scene.diagnostics.info(file.name(), "the file declares " + std::to_string(mpu) + " metres per unit; the import option (" +
                                                    std::to_string(frame.metres_per_unit) + ") was used");
    }
    double up = -1.0;
    if (metadata_number(ai, "UpAxis", up)) {
        const UpAxis declared = up == 2.0 ? UpAxis::Z : UpAxis::Y;
        if (up == 1.0 || up == 2.0) {
            if (declared != frame.up_axis) scene.diagnostics.info(file.name(), std::string("the file declares ") + (up == 2.0 ? "Z" : "Y") + " up; used instead of the import option");
            frame.up_axis = declared;
        }
    }

    size_t bones = 0;
    // Depth-first over the node tree with an explicit stack (no recursion on file-controlled depth).
    struct Item {
        const aiNode* node;
        int parent;
        glm::dmat4 parent_world;
    };
    std::vector<Item> stack{{ai->mRootNode, -1, glm::dmat4(1.0)}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        if (scene.nodes.size() > 1000000) return make_error(ErrorCode::LimitExceeded, file.name() + ": more than a million nodes");
        const glm::dmat4 world = it.parent_world * to_glm(it.node->mTransformation);
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
        const glm::dmat3 normal_m = glm::transpose(glm::inverse(glm::dmat3(world)));
        for (unsigned k = 0; k < it.node->mNumMeshes; ++k) {
            const unsigned mi = it.node->mMeshes[k];
            if (mi >= ai->mNumMeshes) return make_error(ErrorCode::Parse, file.name() + ": node '" + node.name + "' refers to a missing mesh");
            const aiMesh* am = ai->mMeshes[mi];
            if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
            Mesh mesh;
            mesh.name = am->mName.length ? am->mName.C_Str() : node.name;
            mesh.positions.reserve(am->mNumVertices);
            for (unsigned v = 0; v < am->mNumVertices; ++v) {
                const aiVector3D& a = am->mVertices[v];
                mesh.positions.push_back(glm::vec3(world * glm::dvec4(a.x, a.y, a.z, 1.0)));
            }
            if (am->mNormals) {
                for (unsigned v = 0; v < am->mNumVertices; ++v) {
                    const aiVector3D& a = am->mNormals[v];
                    mesh.normals.push_back(glm::vec3(normal_m * glm::dvec3(a.x, a.y, a.z)));
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
            bones += am->mNumBones;
            if (node.mesh < 0) node.mesh = int(scene.meshes.size());
            scene.meshes.push_back(std::move(mesh));
        }
        scene.nodes.push_back(node);
        for (unsigned c = it.node->mNumChildren; c-- > 0;) {
            if (it.node->mChildren[c]) stack.push_back({it.node->mChildren[c], index, world});
        }
    }
    if (bones > 0) scene.diagnostics.warn(file.name(), "skinning bones of " + ext + " files are not imported; meshes are in their bind pose");
    return scene;
}

}  // namespace tressel::detail
