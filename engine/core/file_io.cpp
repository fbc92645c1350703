#include "core/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

namespace tressel {
namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

template <class Container>
Result<Container> read_impl(const fs::path& path, uint64_t max_bytes) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return make_error(ErrorCode::NotFound, "file not found: " + path.string());
    if (fs::is_directory(path, ec)) return make_error(ErrorCode::Io, "expected a file but found a directory: " + path.string());
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return make_error(ErrorCode::Io, "cannot open " + path.string() + ": " + errno_text());
    Container out;
    if (std::fseek(f, 0, SEEK_END) != 0) {
        std::fclose(f);
        return make_error(ErrorCode::Io, "cannot seek in " + path.string());
    }
    long size = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    if (size < 0) {
        std::fclose(f);
        return make_error(ErrorCode::Io, "cannot size " + path.string());
    }
    if (static_cast<uint64_t>(size) > max_bytes) {
        std::fclose(f);
        return make_error(ErrorCode::LimitExceeded, path.string() + " is " + std::to_string(size) +
                                                        " bytes, above the limit of " + std::to_string(max_bytes));
    }
    out.resize(static_cast<size_t>(size));
    size_t got = size ? std::fread(out.data(), 1, out.size(), f) : 0;
    std::fclose(f);
    if (got != out.size()) return make_error(ErrorCode::Io, "short read from " + path.string());
    return out;
}

}  // namespace

Result<std::vector<uint8_t>> read_file_bytes(const fs::path& path, uint64_t max_bytes) {
    return read_impl<std::vector<uint8_t>>(path, max_bytes);
}

Result<std::string> read_file_text(const fs::path& path, uint64_t max_bytes) {
    return read_impl<std::string>(path, max_bytes);
}

Status write_file_atomic(const fs::path& path, std::span<const uint8_t> bytes) {
    fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return make_error(ErrorCode::NotFound, "directory does not exist: " + dir.string());
    std::random_device rd;
    char suffix[32];
    std::snprintf(suffix, sizeof(suffix), ".tmp-%08x", static_cast<unsigned>(rd()));
    fs::path tmp = path;
    tmp += suffix;

    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return make_error(ErrorCode::Io, "cannot write " + path.string() + ": " + errno_text());
    auto fail = [&](const std::string& what) -> Status {
        std::string msg = what + " " + path.string() + ": " + errno_text();
        ::close(fd);
        ::unlink(tmp.c_str());
        return make_error(ErrorCode::Io, msg);
    };
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail("cannot write");
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) return fail("cannot flush");
    if (::close(fd) != 0) {
        ::unlink(tmp.c_str());
        return make_error(ErrorCode::Io, "cannot close " + tmp.string() + ": " + errno_text());
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string msg = "cannot replace " + path.string() + ": " + errno_text();
        ::unlink(tmp.c_str());
        return make_error(ErrorCode::Io, msg);
    }
    // Make the rename itself durable.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return {};
}

Status write_file_atomic(const fs::path& path, std::string_view text) {
    return write_file_atomic(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace tressel
