// The Vulkan device: instance and device creation (headless or with a surface), device choice, validation,
// move-only owning resource handles whose destruction is deferred until the GPU is done with them, and
// synchronous helpers for uploads and readbacks.
//
// Threading: a Device and everything created from it is used from one thread at a time (the owner's),
// except validation_error_count() / take_validation_messages(), which are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "core/result.h"

namespace tressel::gpu {

class Device;

// What memory is for; call sites never pick raw memory property flags.
enum class MemoryIntent {
    DeviceLocal,  // GPU-only storage; filled by copies or shaders
    Upload,       // host-visible, written sequentially by the CPU, read by the GPU (staging, per-frame constants)
    Readback,     // host-visible and cached, written by the GPU, read by the CPU
    Constants,    // host-visible, written by the CPU every step or frame and read by many shader invocations:
                  // device-local where the device can map such memory (falls back to Upload's memory)
};

const char* to_string(MemoryIntent intent);

struct DeviceInfo {
    std::string name;
    std::string driver;
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    uint32_t api_version = 0;
    uint32_t index = 0;                     // index among the instance's physical devices
    double timestamp_period_ns = 1.0;       // nanoseconds per timestamp tick
    uint32_t timestamp_valid_bits = 0;      // 0 = the queue has no timestamps
    uint32_t max_workgroup_count[3] = {0, 0, 0};
    uint32_t max_shared_memory_bytes = 16384;  // maxComputeSharedMemorySize
    uint32_t max_workgroup_invocations = 128;  // maxComputeWorkGroupInvocations
    uint32_t max_texel_buffer_elements = 65536;  // maxTexelBufferElements
    uint64_t device_local_bytes = 0;        // size of the largest device-local heap
    bool int64_atomics = false;             // shaderInt64 + shaderBufferInt64Atomics enabled
    bool pipeline_statistics = false;       // VK_KHR_pipeline_executable_properties: compiler statistics
    bool shader_clock = false;              // VK_KHR_shader_clock with shaderSubgroupClock (SM cycle reads)
    bool is_cpu() const { return type == VK_PHYSICAL_DEVICE_TYPE_CPU; }
};

const char* to_string(VkPhysicalDeviceType type);

struct ValidationMessage {
    VkDebugUtilsMessageSeverityFlagBitsEXT severity;
    std::string text;
};

struct DeviceDesc {
    // Validation layers plus a debug messenger that records every error (validation_error_count()).
    // The default follows the build: on in debug builds, or when TRESSEL_VALIDATION=1; tests force it on.
    bool validation = default_validation();
    // "" = TRESSEL_DEVICE from the environment, else automatic (discrete > integrated > virtual > CPU).
    // Otherwise "discrete", "integrated", "cpu", an index ("0"), or a case-insensitive name substring.
    std::string preference;
    // Extra instance extensions (e.g. what GLFW asks for a surface).
    std::vector<std::string> instance_extensions;
    // When set, called once the instance exists; the device must then be able to present to this
    // surface, and the Device owns (destroys) it.
    std::function<VkResult(VkInstance, VkSurfaceKHR*)> create_surface;
    // Called for each validation message at warning level or above (from the driver's thread).
    std::function<void(const ValidationMessage&)> on_validation_message;

    static bool default_validation();
};

// ---------------------------------------------------------------------------------------------------
// Move-only owning handles. Destroying (or moving over) a handle hands the Vulkan objects to the
// device, which destroys them once every submission made before that point has completed.

class Buffer {
public:
    Buffer() = default;
    Buffer(Buffer&& o) noexcept { *this = std::move(o); }
    Buffer& operator=(Buffer&& o) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { release(); }

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    MemoryIntent intent() const { return intent_; }
    // Host pointer for Upload and Readback buffers (persistently mapped, coherent); null for DeviceLocal.
    void* mapped() const { return mapped_; }
    // The texel view of a buffer created with BufferDesc::texel_format (VK_NULL_HANDLE otherwise).
    VkBufferView texel_view() const { return view_; }
    bool valid() const { return buffer_ != VK_NULL_HANDLE; }
    const std::string& name() const { return name_; }
    void release();

private:
    friend class Device;
    Device* device_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkBufferView view_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    MemoryIntent intent_ = MemoryIntent::DeviceLocal;
    void* mapped_ = nullptr;
    std::string name_;
};

class Image {
public:
    Image() = default;
    Image(Image&& o) noexcept { *this = std::move(o); }
    Image& operator=(Image&& o) noexcept;
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;
    ~Image() { release(); }

    VkImage handle() const { return image_; }
    VkImageView view() const { return view_; }
    VkFormat format() const { return format_; }
    VkExtent3D extent() const { return extent_; }
    VkSampleCountFlagBits samples() const { return samples_; }
    bool valid() const { return image_ != VK_NULL_HANDLE; }
    void release();

private:
    friend class Device;
    Device* device_ = nullptr;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent3D extent_{0, 0, 0};
    VkSampleCountFlagBits samples_ = VK_SAMPLE_COUNT_1_BIT;
    VkDeviceSize bytes_ = 0;
};

// A compute pipeline with its descriptor set layout (set 0) and push-constant range.
class ComputePipeline {
public:
    ComputePipeline() = default;
    ComputePipeline(ComputePipeline&& o) noexcept { *this = std::move(o); }
    ComputePipeline& operator=(ComputePipeline&& o) noexcept;
    ComputePipeline(const ComputePipeline&) = delete;
    ComputePipeline& operator=(const ComputePipeline&) = delete;
    ~ComputePipeline() { release(); }

    VkPipeline handle() const { return pipeline_; }
    VkPipelineLayout layout() const { return layout_; }
    VkDescriptorSetLayout set_layout() const { return set_layout_; }
    uint32_t push_constant_bytes() const { return push_bytes_; }
    const std::vector<VkDescriptorType>& bindings() const { return bindings_; }
    const std::string& name() const { return name_; }
    bool valid() const { return pipeline_ != VK_NULL_HANDLE; }
    void release();

private:
    friend class Device;
    Device* device_ = nullptr;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    uint32_t push_bytes_ = 0;
    std::vector<VkDescriptorType> bindings_;
    std::string name_;
};

class DescriptorSet {
public:
    DescriptorSet() = default;
    DescriptorSet(DescriptorSet&& o) noexcept { *this = std::move(o); }
    DescriptorSet& operator=(DescriptorSet&& o) noexcept;
    DescriptorSet(const DescriptorSet&) = delete;
    DescriptorSet& operator=(const DescriptorSet&) = delete;
    ~DescriptorSet() { release(); }

    VkDescriptorSet handle() const { return set_; }
    bool valid() const { return set_ != VK_NULL_HANDLE; }
    // Points a storage/uniform buffer binding at `buffer` (whole buffer unless a range is given).
    void bind_buffer(uint32_t binding, const Buffer& buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
    // Points a uniform texel buffer binding at the buffer's texel view (BufferDesc::texel_format).
    void bind_texel_buffer(uint32_t binding, const Buffer& buffer);
    void bind_image(uint32_t binding, const Image& image, VkImageLayout layout, VkSampler sampler = VK_NULL_HANDLE);
    void release();

private:
    // One descriptor of `binding` (of the layout's type) from whichever of the three is given.
    void write(uint32_t binding, const VkDescriptorBufferInfo* buffer, const VkDescriptorImageInfo* image,
               const VkBufferView* texel_view);

    friend class Device;
    Device* device_ = nullptr;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorType> types_;
};

// A primary command buffer, recording from creation until it is submitted.
class CommandBuffer {
public:
    CommandBuffer() = default;
    CommandBuffer(CommandBuffer&& o) noexcept { *this = std::move(o); }
    CommandBuffer& operator=(CommandBuffer&& o) noexcept;
    CommandBuffer(const CommandBuffer&) = delete;
    CommandBuffer& operator=(const CommandBuffer&) = delete;
    ~CommandBuffer() { release(); }

    VkCommandBuffer handle() const { return cmd_; }
    bool valid() const { return cmd_ != VK_NULL_HANDLE; }
    const Device& device() const { return *device_; }

    void bind(const ComputePipeline& pipeline, const DescriptorSet& set);
    void push(const ComputePipeline& pipeline, const void* data, uint32_t bytes);
    template <class T>
    void push(const ComputePipeline& pipeline, const T& value) { push(pipeline, &value, sizeof(T)); }
    void dispatch(uint32_t x, uint32_t y = 1, uint32_t z = 1);
    // Compute writes -> compute reads/writes (and transfers) of later commands.
    void compute_barrier();
    // Transfer writes -> compute, and compute writes -> transfer.
    void transfer_barrier();
    void fill(Buffer& buffer, uint32_t value, VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE);
    // Writes `bytes` (a multiple of 4, at most 65,536) of `data` into `buffer` at `offset` when the command
    // runs (vkCmdUpdateBuffer: the data is copied into the command buffer now). A transfer: barrier before
    // compute reads it.
    void update(Buffer& buffer, const void* data, VkDeviceSize bytes, VkDeviceSize offset = 0);
    void copy(const Buffer& src, Buffer& dst, VkDeviceSize bytes = VK_WHOLE_SIZE, VkDeviceSize src_offset = 0,
              VkDeviceSize dst_offset = 0);
    void release();

private:
    friend class Device;
    Device* device_ = nullptr;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
};

// ---------------------------------------------------------------------------------------------------

struct BufferDesc {
    VkDeviceSize size = 0;  // bytes, > 0
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    MemoryIntent intent = MemoryIntent::DeviceLocal;
    std::string name;       // shown in errors and in debuggers
    // Also readable as a uniform texel buffer of this format (R32_UINT or R32G32B32A32_UINT/SFLOAT): the
    // buffer gets a view over its first maxTexelBufferElements texels. Texel fetches take the texture
    // path, which CPU drivers vectorize where they read storage buffers one invocation at a time.
    VkFormat texel_format = VK_FORMAT_UNDEFINED;
};

struct ImageDesc {
    uint32_t width = 0, height = 0, depth = 1;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    std::string name;
};

struct ComputePipelineDesc {
    std::span<const uint32_t> spirv;              // e.g. embedded_spirv("sdf/init.comp")
    std::vector<VkDescriptorType> bindings;       // set 0, binding i; default: storage buffers
    uint32_t push_constant_bytes = 0;             // <= 128
    std::string name;
    std::vector<uint32_t> specialization;         // value of constant_id i (32-bit constants), if any
};

struct SubmitDesc {
    std::vector<VkSemaphore> wait_semaphores;     // binary semaphores
    std::vector<VkPipelineStageFlags> wait_stages;
    std::vector<VkSemaphore> signal_semaphores;   // binary semaphores
};

class Device {
public:
    static Result<std::unique_ptr<Device>> create(const DeviceDesc& desc);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physical_device() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queue_family() const { return queue_family_; }
    VkSurfaceKHR surface() const { return surface_; }
    const DeviceInfo& info() const { return info_; }
    bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }

    Result<Buffer> create_buffer(const BufferDesc& desc);
    Result<Image> create_image(const ImageDesc& desc);
    Result<ComputePipeline> create_compute_pipeline(const ComputePipelineDesc& desc);
    Result<DescriptorSet> create_descriptor_set(const ComputePipeline& pipeline);
    // The driver's statistics of a compute pipeline's compiled code ("name": value, e.g. registers per
    // thread, spills), where the device offers them (info().pipeline_statistics); empty otherwise.
    std::vector<std::pair<std::string, std::string>> pipeline_statistics(const ComputePipeline& pipeline) const;
    Result<DescriptorSet> create_descriptor_set(VkDescriptorSetLayout layout, std::vector<VkDescriptorType> types);
    Result<CommandBuffer> begin_commands();

    // Ends recording and submits. Returns the submission's serial; wait(serial) blocks until it is done.
    Result<uint64_t> submit(CommandBuffer&& cmd, const SubmitDesc& desc = {});
    // timeout_ns 0 = the device's default: 30 s on a GPU, 10 minutes on a CPU driver (which may need
    // minutes for work a GPU does in milliseconds). A timeout is reported as a hung GPU (DeviceLost).
    Status wait(uint64_t serial, uint64_t timeout_ns = 0);
    Status wait_idle();
    uint64_t submitted_serial() const { return submitted_serial_; }
    uint64_t completed_serial();
    // Destroys retired objects whose last possible use has completed. Called by submit() and wait().
    void collect_garbage();

    // Synchronous helpers (record, submit, wait): for setup and tests, not per-frame work.
    Status run_sync(const std::function<void(CommandBuffer&)>& record);
    Status upload(Buffer& dst, const void* data, VkDeviceSize bytes, VkDeviceSize dst_offset = 0);
    Status download(const Buffer& src, void* data, VkDeviceSize bytes, VkDeviceSize src_offset = 0);
    template <class T>
    Result<Buffer> create_buffer_with(std::span<const T> data, VkBufferUsageFlags extra_usage, std::string name);

    // Bytes currently allocated, by intent (for the Stats panel).
    VkDeviceSize allocated_bytes(MemoryIntent intent) const { return allocated_[static_cast<int>(intent)]; }
    // Number of live owning handles (buffers, images, pipelines, sets, command buffers) plus retired
    // objects not yet destroyed; tests use it to check for leaks.
    int64_t live_objects() const { return live_objects_; }

    // Failures the CPU driver never produces on its own, injected for tests: the next call of the kind
    // named fails once as the driver would fail it (an allocation of buffer or image memory with
    // VK_ERROR_OUT_OF_DEVICE_MEMORY, a descriptor set with VK_ERROR_OUT_OF_POOL_MEMORY and no new pool,
    // a submission with VK_ERROR_DEVICE_LOST, after which the device is lost for good), through the same
    // error paths.
    enum class Fault { BufferMemory, ImageMemory, DescriptorPool, DeviceLost };
    void inject_fault(Fault fault) { injected_[static_cast<int>(fault)] = true; }
    bool lost() const { return lost_; }

    uint32_t validation_error_count() const { return validation_errors_.load(); }
    std::vector<ValidationMessage> take_validation_messages();
    void reset_validation_errors() { validation_errors_.store(0); }

    // For handles: hand over a destroy function run once `submitted_serial()` at this point is complete.
    // Each retired function stands for one live object until it has run.
    void retire(std::function<void()> destroy);
    void retire_command_buffer(VkCommandBuffer cmd);
    void note_object(int delta) { live_objects_ += delta; }
    void note_allocation(MemoryIntent intent, int64_t bytes) { allocated_[static_cast<int>(intent)] += bytes; }

private:
    Device() = default;
    Status init(const DeviceDesc& desc);
    Result<uint32_t> find_memory_type(uint32_t type_bits, MemoryIntent intent, bool image) const;
    Result<VkDeviceMemory> allocate(const VkMemoryRequirements& req, MemoryIntent intent, bool image, const std::string& what);
    static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queue_family_ = 0;
    VkCommandPool command_pool_ = VK_NULL_HANDLE;
    VkSemaphore timeline_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorPool> descriptor_pools_;
    VkPhysicalDeviceMemoryProperties memory_props_{};
    DeviceInfo info_;
    uint64_t submitted_serial_ = 0;
    uint64_t completed_serial_ = 0;
    bool lost_ = false;
    bool injected_[4] = {false, false, false, false};
    bool take_fault(Fault fault) { return std::exchange(injected_[static_cast<int>(fault)], false); }

    struct Retired {
        uint64_t serial;
        std::function<void()> destroy;
    };
    std::deque<Retired> retired_;
    int64_t live_objects_ = 0;
    VkDeviceSize allocated_[4] = {0, 0, 0, 0};

    std::atomic<uint32_t> validation_errors_{0};
    std::mutex messages_mutex_;
    std::vector<ValidationMessage> messages_;
    std::function<void(const ValidationMessage&)> on_validation_message_;

    friend class DescriptorSet;
};

// Workgroups needed to cover `items` with groups of `group_size` (rounded up). Counts above the
// device's x limit are split over y: shaders index with shared/dispatch.h LINEAR_INVOCATION_INDEX.
struct DispatchSize {
    uint32_t x = 0, y = 1, z = 1;
};
DispatchSize dispatch_size(const Device& device, uint64_t items, uint32_t group_size);
inline uint32_t div_round_up(uint64_t items, uint32_t group_size) {
    return static_cast<uint32_t>((items + group_size - 1) / group_size);
}

template <class T>
Result<Buffer> Device::create_buffer_with(std::span<const T> data, VkBufferUsageFlags extra_usage, std::string name) {
    BufferDesc desc;
    desc.size = std::max<VkDeviceSize>(data.size_bytes(), 4);
    desc.usage |= extra_usage;
    desc.name = std::move(name);
    auto buffer = create_buffer(desc);
    if (!buffer) return buffer.error();
    if (!data.empty()) TRESSEL_TRY(upload(*buffer, data.data(), data.size_bytes()));
    return buffer;
}

}  // namespace tressel::gpu
