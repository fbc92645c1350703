// Guides taken into hand: the curves file a hair group's brushed guides live in (`.tguides`, the
// project's own binary format, docs/guides-file.md). It keeps everything a brush can change and the
// simulation reads, exactly: every point, width and colour, each root's scalp triangle and barycentric
// coordinates, each strand's seed and flags, as the raw little-endian floats and integers, so a save and a
// load give bit-identical guides. It also records the scalp mesh's triangle count, so guides brushed on one
// mesh are refused on another instead of being attached to the wrong triangles.
//
// Why not cyHair (.hair) or USD curves: .hair has no place for the attachment (a side file would have to
// be kept in step with it), and USD's text form needs nine significant digits per float and a parser the
// size of the rest of the loader to round-trip bit for bit. Both remain export formats (io/hair_files.h,
// io/usda.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/result.h"
#include "groom/groom.h"

namespace tressel {

// Guides taken into hand and held in memory by a scene (Growth::edited) until they are saved: the strands
// and the triangle count of the scalp mesh they are attached to. Immutable once made: every brush stroke
// makes a new one, so an undo step that keeps the previous pointer restores the guides bit for bit.
struct EditedGuides {
    Strands guides;
    uint32_t scalp_triangles = 0;
};

inline constexpr char kGuidesFileMagic[8] = {'T', 'R', 'S', 'L', 'G', 'D', 'S', '\0'};
inline constexpr uint32_t kGuidesFileVersion = 1;

// The bytes of a guides file for `guides` attached to a scalp of `scalp_triangles` triangles. The
// strands must be consistent() (a programmer error otherwise).
std::vector<uint8_t> encode_guides(const Strands& guides, uint32_t scalp_triangles);

// Parses a guides file. `name` (the path, for messages) names the file in every error: Parse for a
// truncated or corrupt file (wrong magic, sizes that disagree, a checksum mismatch, non-finite points,
// barycentrics outside [0, 1]), Unsupported for a newer version, InvalidArgument when the triangle count
// it was made for differs from `scalp_triangles` or a root's triangle is out of range.
Result<Strands> decode_guides(const std::vector<uint8_t>& bytes, uint32_t scalp_triangles, const std::string& name);

// A guides file with the scalp triangle count it records (the editor's recovery file, read before any
// mesh is loaded); the same checks as decode_guides against that count.
Result<EditedGuides> load_edited_guides(const std::filesystem::path& path);

// Atomic write (core/file_io.h: a temporary renamed over the file) and whole-file read.
Status save_guides_file(const std::filesystem::path& path, const Strands& guides, uint32_t scalp_triangles);
Result<Strands> load_guides_file(const std::filesystem::path& path, uint32_t scalp_triangles);

// Whether two strand sets are the same bit for bit (points, widths, colours, roots, seeds, flags).
bool bit_identical(const Strands& a, const Strands& b);

}  // namespace tressel
