#include "gpu/device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "gpu/vk_error.h"

namespace tressel::gpu {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

int type_rank(VkPhysicalDeviceType t) {
    switch (t) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
        default: return 0;
    }
}

bool has_layer(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

bool has_instance_extension(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    vkEnumerateInstanceExtensionProperties(nullptr, &n, exts.data());
    for (auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
    for (auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

}  // namespace

const char* to_string(MemoryIntent intent) {
    switch (intent) {
        case MemoryIntent::DeviceLocal: return "device-local";
        case MemoryIntent::Upload: return "upload";
        case MemoryIntent::Readback: return "readback";
        case MemoryIntent::Constants: return "constants";
    }
    return "?";
}

const char* to_string(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
        default: return "other";
    }
}

bool DeviceDesc::default_validation() {
    const char* env = std::getenv("TRESSEL_VALIDATION");
    if (env && *env) return std::strcmp(env, "0") != 0;
#ifdef NDEBUG
    return false;
#else
    return true;
#endif
}

// ---------------------------------------------------------------------------------------------------
// Handles

Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        release();
        device_ = std::exchange(o.device_, nullptr);
        buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
        view_ = std::exchange(o.view_, VK_NULL_HANDLE);
        memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
        size_ = std::exchange(o.size_, 0);
        intent_ = o.intent_;
        mapped_ = std::exchange(o.mapped_, nullptr);
        name_ = std::move(o.name_);
    }
    return *this;
}

void Buffer::release() {
    if (!device_) return;
    Device* dev = device_;
    VkDevice d = dev->device();
    VkBuffer b = buffer_;
    VkBufferView v = view_;
    VkDeviceMemory m = memory_;
    int64_t bytes = static_cast<int64_t>(size_);
    MemoryIntent intent = intent_;
    dev->retire([dev, d, b, v, m, bytes, intent] {
        if (v) vkDestroyBufferView(d, v, nullptr);
        vkDestroyBuffer(d, b, nullptr);
        vkFreeMemory(d, m, nullptr);
        dev->note_allocation(intent, -bytes);
    });
    device_ = nullptr;
    buffer_ = VK_NULL_HANDLE;
    view_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
    size_ = 0;
}

Image& Image::operator=(Image&& o) noexcept {
    if (this != &o) {
        release();
        device_ = std::exchange(o.device_, nullptr);
        image_ = std::exchange(o.image_, VK_NULL_HANDLE);
        view_ = std::exchange(o.view_, VK_NULL_HANDLE);
        memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
        format_ = o.format_;
        extent_ = o.extent_;
        samples_ = o.samples_;
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

void Image::release() {
    if (!device_) return;
    Device* dev = device_;
    VkDevice d = dev->device();
    VkImage i = image_;
    VkImageView v = view_;
    VkDeviceMemory m = memory_;
    int64_t bytes = static_cast<int64_t>(bytes_);
    dev->retire([dev, d, i, v, m, bytes] {
        vkDestroyImageView(d, v, nullptr);
        vkDestroyImage(d, i, nullptr);
        vkFreeMemory(d, m, nullptr);
        dev->note_allocation(MemoryIntent::DeviceLocal, -bytes);
    });
    device_ = nullptr;
    image_ = VK_NULL_HANDLE;
    view_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
}

ComputePipeline& ComputePipeline::operator=(ComputePipeline&& o) noexcept {
    if (this != &o) {
        release();
        device_ = std::exchange(o.device_, nullptr);
        pipeline_ = std::exchange(o.pipeline_, VK_NULL_HANDLE);
        layout_ = std::exchange(o.layout_, VK_NULL_HANDLE);
        set_layout_ = std::exchange(o.set_layout_, VK_NULL_HANDLE);
        push_bytes_ = o.push_bytes_;
        bindings_ = std::move(o.bindings_);
        name_ = std::move(o.name_);
    }
    return *this;
}

void ComputePipeline::release() {
    if (!device_) return;
    VkDevice d = device_->device();
    VkPipeline p = pipeline_;
    VkPipelineLayout l = layout_;
    VkDescriptorSetLayout s = set_layout_;
    device_->retire([d, p, l, s] {
        vkDestroyPipeline(d, p, nullptr);
        vkDestroyPipelineLayout(d, l, nullptr);
        vkDestroyDescriptorSetLayout(d, s, nullptr);
    });
    device_ = nullptr;
    pipeline_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
    set_layout_ = VK_NULL_HANDLE;
}

DescriptorSet& DescriptorSet::operator=(DescriptorSet&& o) noexcept {
    if (this != &o) {
        release();
        device_ = std::exchange(o.device_, nullptr);
        set_ = std::exchange(o.set_, VK_NULL_HANDLE);
        pool_ = std::exchange(o.pool_, VK_NULL_HANDLE);
        types_ = std::move(o.types_);
    }
    return *this;
}

void DescriptorSet::release() {
    if (!device_) return;
    VkDevice d = device_->device();
    VkDescriptorPool pool = pool_;
    VkDescriptorSet s = set_;
    device_->retire([d, pool, s] { vkFreeDescriptorSets(d, pool, 1, &s); });
    device_ = nullptr;
    set_ = VK_NULL_HANDLE;
}

void DescriptorSet::write(uint32_t binding, const VkDescriptorBufferInfo* buffer, const VkDescriptorImageInfo* image,
                          const VkBufferView* texel_view) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set_;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = types_[binding];
    w.pBufferInfo = buffer;
    w.pImageInfo = image;
    w.pTexelBufferView = texel_view;
    vkUpdateDescriptorSets(device_->device(), 1, &w, 0, nullptr);
}

void DescriptorSet::bind_buffer(uint32_t binding, const Buffer& buffer, VkDeviceSize offset, VkDeviceSize range) {
    TRESSEL_ASSERT(device_ && binding < types_.size(), "bind_buffer: binding index beyond the pipeline's bindings");
    TRESSEL_ASSERT(buffer.valid(), "bind_buffer: the buffer is empty (moved from or never created)");
    VkDescriptorBufferInfo info{buffer.handle(), offset, range};
    write(binding, &info, nullptr, nullptr);
}

void DescriptorSet::bind_texel_buffer(uint32_t binding, const Buffer& buffer) {
    TRESSEL_ASSERT(device_ && binding < types_.size(), "bind_texel_buffer: binding index beyond the layout's bindings");
    TRESSEL_ASSERT(buffer.texel_view() != VK_NULL_HANDLE, "bind_texel_buffer: the buffer has no texel view");
    VkBufferView view = buffer.texel_view();
    write(binding, nullptr, nullptr, &view);
}

void DescriptorSet::bind_image(uint32_t binding, const Image& image, VkImageLayout layout, VkSampler sampler) {
    TRESSEL_ASSERT(device_ && binding < types_.size(), "bind_image: binding index beyond the layout's bindings");
    VkDescriptorImageInfo info{sampler, image.view(), layout};
    write(binding, nullptr, &info, nullptr);
}

CommandBuffer& CommandBuffer::operator=(CommandBuffer&& o) noexcept {
    if (this != &o) {
        release();
        device_ = std::exchange(o.device_, nullptr);
        cmd_ = std::exchange(o.cmd_, VK_NULL_HANDLE);
    }
    return *this;
}

void CommandBuffer::release() {
    if (!device_) return;
    // Never submitted (submit() takes the handle over): free it once earlier submissions are done.
    device_->retire_command_buffer(cmd_);
    device_ = nullptr;
    cmd_ = VK_NULL_HANDLE;
}

void CommandBuffer::bind(const ComputePipeline& pipeline, const DescriptorSet& set) {
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
    VkDescriptorSet s = set.handle();
    if (s != VK_NULL_HANDLE)
        vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, &s, 0, nullptr);
}

void CommandBuffer::push(const ComputePipeline& pipeline, const void* data, uint32_t bytes) {
    TRESSEL_ASSERT(bytes == pipeline.push_constant_bytes(),
                   "push: the struct size differs from the pipeline's push_constant_bytes (check shaders/shared)");
    vkCmdPushConstants(cmd_, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes, data);
}

void CommandBuffer::dispatch(uint32_t x, uint32_t y, uint32_t z) {
    if (x == 0 || y == 0 || z == 0) return;
    vkCmdDispatch(cmd_, x, y, z);
}

void CommandBuffer::compute_barrier() {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b, 0, nullptr,
                         0, nullptr);
}

void CommandBuffer::transfer_barrier() {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                      VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_HOST_BIT,
                         0, 1, &b, 0, nullptr, 0, nullptr);
}

void CommandBuffer::fill(Buffer& buffer, uint32_t value, VkDeviceSize offset, VkDeviceSize size) {
    vkCmdFillBuffer(cmd_, buffer.handle(), offset, size, value);
}

void CommandBuffer::update(Buffer& buffer, const void* data, VkDeviceSize bytes, VkDeviceSize offset) {
    vkCmdUpdateBuffer(cmd_, buffer.handle(), offset, bytes, data);
}

void CommandBuffer::copy(const Buffer& src, Buffer& dst, VkDeviceSize bytes, VkDeviceSize src_offset,
                         VkDeviceSize dst_offset) {
    if (bytes == VK_WHOLE_SIZE) bytes = std::min(src.size() - src_offset, dst.size() - dst_offset);
    VkBufferCopy region{src_offset, dst_offset, bytes};
    vkCmdCopyBuffer(cmd_, src.handle(), dst.handle(), 1, &region);
}

// ---------------------------------------------------------------------------------------------------
// Device

Result<std::unique_ptr<Device>> Device::create(const DeviceDesc& desc) {
    std::unique_ptr<Device> device(new Device());
    Status s = device->init(desc);
    if (!s) return s.error();
    return device;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Device::debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<Device*>(user);
    ValidationMessage msg{severity, data && data->pMessage ? data->pMessage : ""};
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) self->validation_errors_.fetch_add(1);
    {
        std::lock_guard<std::mutex> lock(self->messages_mutex_);
        if (self->messages_.size() < 1000) self->messages_.push_back(msg);
    }
    if (self->on_validation_message_) self->on_validation_message_(msg);
    return VK_FALSE;
}

std::vector<ValidationMessage> Device::take_validation_messages() {
    std::lock_guard<std::mutex> lock(messages_mutex_);
    return std::exchange(messages_, {});
}

Status Device::init(const DeviceDesc& desc) {
    on_validation_message_ = desc.on_validation_message;

    // Instance
    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    for (auto& e : desc.instance_extensions) extensions.push_back(e.c_str());
    bool validation = desc.validation;
    if (validation) {
        if (!has_layer(kValidationLayer))
            return make_error(ErrorCode::Unsupported,
                              "validation was requested but the Vulkan validation layer is not installed "
                              "(Debian package vulkan-validationlayers)");
        if (!has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            return make_error(ErrorCode::Unsupported, "validation needs VK_EXT_debug_utils, which the loader lacks");
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "Tressel";
    app.pEngineName = "Tressel";
    app.apiVersion = VK_API_VERSION_1_2;

    VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger_info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = &Device::debug_callback;
    messenger_info.pUserData = this;

    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = static_cast<uint32_t>(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    ici.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    if (validation) ici.pNext = &messenger_info;  // also catch messages from instance creation itself
    VkResult r = vkCreateInstance(&ici, nullptr, &instance_);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return make_error(ErrorCode::Unsupported,
                          "no Vulkan 1.2 driver found: install a GPU driver or Mesa's CPU driver (mesa-vulkan-drivers)");
    TRESSEL_VK_TRY(r, "create the Vulkan instance");

    if (validation) {
        auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        if (!create_messenger) return make_error(ErrorCode::Unsupported, "vkCreateDebugUtilsMessengerEXT is missing");
        TRESSEL_VK_TRY(create_messenger(instance_, &messenger_info, nullptr, &messenger_), "create the debug messenger");
    }

    if (desc.create_surface) TRESSEL_VK_TRY(desc.create_surface(instance_, &surface_), "create the window surface");

    // Physical device
    uint32_t count = 0;
    TRESSEL_VK_TRY(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "enumerate GPUs");
    std::vector<VkPhysicalDevice> devices(count);
    TRESSEL_VK_TRY(vkEnumeratePhysicalDevices(instance_, &count, devices.data()), "enumerate GPUs");
    if (devices.empty())
        return make_error(ErrorCode::Unsupported,
                          "no Vulkan device found: install a GPU driver or Mesa's CPU driver (mesa-vulkan-drivers)");

    std::string pref = desc.preference;
    if (pref.empty()) {
        const char* env = std::getenv("TRESSEL_DEVICE");
        if (env) pref = env;
    }
    pref = lower(pref);

    struct Candidate {
        uint32_t index;
        VkPhysicalDevice pd;
        VkPhysicalDeviceProperties props;
        uint32_t family;
    };
    std::vector<Candidate> usable;
    std::string names;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devices[i], &props);
        names += (names.empty() ? "" : ", ") + std::to_string(i) + ": " + props.deviceName + " (" +
                 to_string(props.deviceType) + ")";
        if (props.apiVersion < VK_API_VERSION_1_2) continue;
        uint32_t nf = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &nf, nullptr);
        std::vector<VkQueueFamilyProperties> fams(nf);
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &nf, fams.data());
        for (uint32_t f = 0; f < nf; ++f) {
            bool gc = (fams[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (fams[f].queueFlags & VK_QUEUE_COMPUTE_BIT);
            VkBool32 present = VK_TRUE;
            if (surface_) vkGetPhysicalDeviceSurfaceSupportKHR(devices[i], f, surface_, &present);
            if (gc && present) {
                usable.push_back({i, devices[i], props, f});
                break;
            }
        }
    }
    if (usable.empty())
        return make_error(ErrorCode::Unsupported, "no Vulkan 1.2 device with a graphics+compute queue" +
                                                      std::string(surface_ ? " that can present to the window" : "") +
                                                      " (found: " + names + ")");

    const Candidate* chosen = nullptr;
    if (!pref.empty() && pref != "auto") {
        for (auto& c : usable) {
            std::string type = to_string(c.props.deviceType);
            if (pref == type || pref == std::to_string(c.index) || lower(c.props.deviceName).find(pref) != std::string::npos) {
                chosen = &c;
                break;
            }
        }
        if (!chosen)
            return make_error(ErrorCode::NotFound, "no usable Vulkan device matches '" + pref +
                                                       "' (TRESSEL_DEVICE / --device); devices: " + names);
    } else {
        chosen = &usable[0];
        for (auto& c : usable)
            if (type_rank(c.props.deviceType) > type_rank(chosen->props.deviceType)) chosen = &c;
    }
    physical_ = chosen->pd;
    queue_family_ = chosen->family;

    VkPhysicalDeviceDriverProperties driver_props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props2.pNext = &driver_props;
    vkGetPhysicalDeviceProperties2(physical_, &props2);
    info_.name = chosen->props.deviceName;
    info_.driver = std::string(driver_props.driverName) + " " + driver_props.driverInfo;
    info_.type = chosen->props.deviceType;
    info_.api_version = chosen->props.apiVersion;
    info_.index = chosen->index;
    info_.timestamp_period_ns = chosen->props.limits.timestampPeriod;
    for (int i = 0; i < 3; ++i) info_.max_workgroup_count[i] = chosen->props.limits.maxComputeWorkGroupCount[i];
    info_.max_shared_memory_bytes = chosen->props.limits.maxComputeSharedMemorySize;
    info_.max_workgroup_invocations = chosen->props.limits.maxComputeWorkGroupInvocations;
    info_.max_texel_buffer_elements = chosen->props.limits.maxTexelBufferElements;
    {
        uint32_t nf = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nf, nullptr);
        std::vector<VkQueueFamilyProperties> fams(nf);
        vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nf, fams.data());
        info_.timestamp_valid_bits = fams[queue_family_].timestampValidBits;
    }
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_props_);
    for (uint32_t h = 0; h < memory_props_.memoryHeapCount; ++h)
        if (memory_props_.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            info_.device_local_bytes = std::max(info_.device_local_bytes, memory_props_.memoryHeaps[h].size);

    // Logical device: Vulkan 1.2 with timeline semaphores (required); optional features when present.
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(physical_, &f2);
    if (!f12.timelineSemaphore)
        return make_error(ErrorCode::Unsupported, info_.name + " lacks timeline semaphores (Vulkan 1.2)");
    VkPhysicalDeviceVulkan12Features en12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    en12.timelineSemaphore = VK_TRUE;
    en12.hostQueryReset = f12.hostQueryReset;
    en12.scalarBlockLayout = f12.scalarBlockLayout;
    en12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
    VkPhysicalDeviceFeatures2 en2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    en2.pNext = &en12;
    // Compiler statistics (registers, spills) for benchmarks, where offered.
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pexec{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    const bool has_pexec = has_device_extension(physical_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (has_pexec) {
        VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        q.pNext = &pexec;
        vkGetPhysicalDeviceFeatures2(physical_, &q);
        pexec.pNext = nullptr;
        if (pexec.pipelineExecutableInfo) en12.pNext = &pexec;
    }
    info_.pipeline_statistics = has_pexec && pexec.pipelineExecutableInfo;
    // Clock reads in shaders, for the simulation's per-phase cycle counts (bench sim --phases), where offered.
    VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
    if (has_device_extension(physical_, VK_KHR_SHADER_CLOCK_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        q.pNext = &clock;
        vkGetPhysicalDeviceFeatures2(physical_, &q);
        clock.pNext = nullptr;
        clock.shaderDeviceClock = VK_FALSE;
        if (clock.shaderSubgroupClock) {
            clock.pNext = en12.pNext;
            en12.pNext = &clock;
            info_.shader_clock = true;
        }
    }
    en2.features.fillModeNonSolid = f2.features.fillModeNonSolid;
    en2.features.wideLines = f2.features.wideLines;
    en2.features.sampleRateShading = f2.features.sampleRateShading;
    en2.features.independentBlend = f2.features.independentBlend;
    en2.features.shaderInt64 = f2.features.shaderInt64;
    info_.int64_atomics = f2.features.shaderInt64 && f12.shaderBufferInt64Atomics;
    en2.features.samplerAnisotropy = f2.features.samplerAnisotropy;

    std::vector<const char*> dev_exts;
    if (info_.pipeline_statistics) dev_exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (info_.shader_clock) dev_exts.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
    if (surface_) {
        if (!has_device_extension(physical_, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
            return make_error(ErrorCode::Unsupported, info_.name + " cannot present (no VK_KHR_swapchain)");
        dev_exts.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    }

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &en2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = static_cast<uint32_t>(dev_exts.size());
    dci.ppEnabledExtensionNames = dev_exts.data();
    TRESSEL_VK_TRY(vkCreateDevice(physical_, &dci, nullptr, &device_), "create the Vulkan device on " + info_.name);
    vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pci.queueFamilyIndex = queue_family_;
    TRESSEL_VK_TRY(vkCreateCommandPool(device_, &pci, nullptr, &command_pool_), "create a command pool");

    VkSemaphoreTypeCreateInfo sti{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    sti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    sti.initialValue = 0;
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    sci.pNext = &sti;
    TRESSEL_VK_TRY(vkCreateSemaphore(device_, &sci, nullptr, &timeline_), "create the timeline semaphore");
    return {};
}

Device::~Device() {
    if (device_) {
        vkDeviceWaitIdle(device_);
        completed_serial_ = submitted_serial_;
        for (auto& r : retired_) r.destroy();
        live_objects_ -= static_cast<int64_t>(retired_.size());
        retired_.clear();
        for (VkDescriptorPool p : descriptor_pools_) vkDestroyDescriptorPool(device_, p, nullptr);
        if (timeline_) vkDestroySemaphore(device_, timeline_, nullptr);
        if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (instance_) {
        if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
        if (messenger_) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
            if (destroy) destroy(instance_, messenger_, nullptr);
        }
        vkDestroyInstance(instance_, nullptr);
    }
}

void Device::retire(std::function<void()> destroy) {
    retired_.push_back({submitted_serial_, std::move(destroy)});
}

void Device::retire_command_buffer(VkCommandBuffer cmd) {
    VkDevice d = device_;
    VkCommandPool pool = command_pool_;
    retire([d, pool, cmd] { vkFreeCommandBuffers(d, pool, 1, &cmd); });
}

uint64_t Device::completed_serial() {
    if (lost_) return completed_serial_;
    uint64_t value = 0;
    if (vkGetSemaphoreCounterValue(device_, timeline_, &value) == VK_SUCCESS) completed_serial_ = value;
    return completed_serial_;
}

void Device::collect_garbage() {
    uint64_t done = completed_serial();
    while (!retired_.empty() && retired_.front().serial <= done) {
        auto destroy = std::move(retired_.front().destroy);
        retired_.pop_front();
        destroy();
        note_object(-1);
    }
}

Result<uint32_t> Device::find_memory_type(uint32_t type_bits, MemoryIntent intent, bool image) const {
    VkMemoryPropertyFlags required = 0, preferred = 0, avoided = 0;
    switch (intent) {
        case MemoryIntent::DeviceLocal:
            preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
            avoided = image ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
            break;
        case MemoryIntent::Upload:
            required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            break;
        case MemoryIntent::Readback:
            required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
            break;
        case MemoryIntent::Constants:
            // Read by every workgroup of a dispatch, often after each barrier: in host memory each miss is a
            // bus round trip (on an H100 that made the fused simulation step latency-bound and its time
            // depend on where the host placed the pages).
            required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
            break;
    }
    int best = -1, best_score = -1;
    for (uint32_t i = 0; i < memory_props_.memoryTypeCount; ++i) {
        if (!(type_bits & (1u << i))) continue;
        VkMemoryPropertyFlags f = memory_props_.memoryTypes[i].propertyFlags;
        if ((f & required) != required) continue;
        int score = 1 + ((f & preferred) == preferred ? 4 : 0) + ((f & avoided) ? 0 : 2);
        if (score > best_score) {
            best = static_cast<int>(i);
            best_score = score;
        }
    }
    if (best < 0)
        return make_error(ErrorCode::Unsupported,
                          std::string("no memory type suits ") + to_string(intent) + " memory on " + info_.name);
    return static_cast<uint32_t>(best);
}

Result<VkDeviceMemory> Device::allocate(const VkMemoryRequirements& req, MemoryIntent intent, bool image,
                                        const std::string& what) {
    auto type = find_memory_type(req.memoryTypeBits, intent, image);
    if (!type) return type.error();
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = *type;
    VkDeviceMemory mem = VK_NULL_HANDLE;
    if (take_fault(image ? Fault::ImageMemory : Fault::BufferMemory)) {
        char size_text[32];
        std::snprintf(size_text, sizeof(size_text), "%.1f MiB", static_cast<double>(req.size) / (1024.0 * 1024.0));
        return vk_error(VK_ERROR_OUT_OF_DEVICE_MEMORY, std::string("allocate ") + size_text + " of " + to_string(intent) + " memory for " + what);
    }
    if (intent == MemoryIntent::Constants) {
        // The mappable device-local heap can be small (256 MiB without resizable BAR): when it is full,
        // host memory still works, only slower to read.
        if (vkAllocateMemory(device_, &mai, nullptr, &mem) == VK_SUCCESS) return mem;
        return allocate(req, MemoryIntent::Upload, image, what);
    }
    char size_text[32];
    std::snprintf(size_text, sizeof(size_text), "%.1f MiB", static_cast<double>(req.size) / (1024.0 * 1024.0));
    TRESSEL_VK_TRY(vkAllocateMemory(device_, &mai, nullptr, &mem),
                   std::string("allocate ") + size_text + " of " + to_string(intent) + " memory for " + what);
    return mem;
}

Result<Buffer> Device::create_buffer(const BufferDesc& desc) {
    TRESSEL_ASSERT(desc.size > 0, "create_buffer: size must be > 0 (round tiny buffers up to 4 bytes)");
    std::string what = "buffer '" + desc.name + "'";
    if (info_.device_local_bytes && desc.size > info_.device_local_bytes)
        return make_error(ErrorCode::OutOfMemory,
                          what + " needs " + std::to_string(desc.size >> 20) + " MiB, more than the GPU's " +
                              std::to_string(info_.device_local_bytes >> 20) + " MiB");
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = desc.size;
    bci.usage = desc.usage;
    VkDeviceSize texel_bytes = 0;
    switch (desc.texel_format) {
    case VK_FORMAT_UNDEFINED: break;
    case VK_FORMAT_R32_UINT: texel_bytes = 4; break;
    case VK_FORMAT_R32G32B32A32_UINT:
    case VK_FORMAT_R32G32B32A32_SFLOAT: texel_bytes = 16; break;
    default: TRESSEL_ASSERT(false, "create_buffer: unsupported texel_format");
    }
    if (texel_bytes) bci.usage |= VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    Buffer b;
    TRESSEL_VK_TRY(vkCreateBuffer(device_, &bci, nullptr, &b.buffer_), "create " + what);
    b.device_ = this;  // from here on, release() cleans up
    note_object(+1);
    b.intent_ = desc.intent;
    b.name_ = desc.name;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, b.buffer_, &req);
    auto mem = allocate(req, desc.intent, false, what);
    if (!mem) return mem.error();
    b.memory_ = *mem;
    b.size_ = desc.size;  // counted in allocated_bytes() from here on
    note_allocation(desc.intent, static_cast<int64_t>(desc.size));
    TRESSEL_VK_TRY(vkBindBufferMemory(device_, b.buffer_, b.memory_, 0), "bind memory to " + what);
    if (desc.intent != MemoryIntent::DeviceLocal)
        TRESSEL_VK_TRY(vkMapMemory(device_, b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_), "map " + what);
    if (texel_bytes && desc.size >= texel_bytes) {
        VkBufferViewCreateInfo vci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
        vci.buffer = b.buffer_;
        vci.format = desc.texel_format;
        vci.offset = 0;
        vci.range = std::min<VkDeviceSize>(desc.size / texel_bytes, info_.max_texel_buffer_elements) * texel_bytes;
        TRESSEL_VK_TRY(vkCreateBufferView(device_, &vci, nullptr, &b.view_), "create a texel view of " + what);
    }
    return b;
}

Result<Image> Device::create_image(const ImageDesc& desc) {
    TRESSEL_ASSERT(desc.width > 0 && desc.height > 0 && desc.depth > 0, "create_image: extent must be non-zero");
    std::string what = "image '" + desc.name + "'";
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = desc.depth > 1 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
    ici.format = desc.format;
    ici.extent = {desc.width, desc.height, desc.depth};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = desc.samples;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = desc.usage;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    Image img;
    TRESSEL_VK_TRY(vkCreateImage(device_, &ici, nullptr, &img.image_), "create " + what);
    img.device_ = this;
    note_object(+1);
    img.format_ = desc.format;
    img.extent_ = ici.extent;
    img.samples_ = desc.samples;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, img.image_, &req);
    auto mem = allocate(req, MemoryIntent::DeviceLocal, true, what);
    if (!mem) return mem.error();
    img.memory_ = *mem;
    img.bytes_ = req.size;
    note_allocation(MemoryIntent::DeviceLocal, static_cast<int64_t>(req.size));
    TRESSEL_VK_TRY(vkBindImageMemory(device_, img.image_, img.memory_, 0), "bind memory to " + what);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image_;
    vci.viewType = desc.depth > 1 ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D;
    vci.format = desc.format;
    vci.subresourceRange = {desc.aspect, 0, 1, 0, 1};
    TRESSEL_VK_TRY(vkCreateImageView(device_, &vci, nullptr, &img.view_), "create a view of " + what);
    return img;
}

Result<ComputePipeline> Device::create_compute_pipeline(const ComputePipelineDesc& desc) {
    TRESSEL_ASSERT(!desc.spirv.empty(), "create_compute_pipeline: empty SPIR-V (is the shader listed in shaders/CMakeLists.txt?)");
    TRESSEL_ASSERT(desc.push_constant_bytes <= 128, "create_compute_pipeline: push constants are limited to 128 bytes");
    ComputePipeline p;
    p.device_ = this;
    note_object(+1);
    p.name_ = desc.name;
    p.push_bytes_ = desc.push_constant_bytes;
    p.bindings_ = desc.bindings;

    std::vector<VkDescriptorSetLayoutBinding> lb;
    for (uint32_t i = 0; i < desc.bindings.size(); ++i)
        lb.push_back({i, desc.bindings[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dlci.bindingCount = static_cast<uint32_t>(lb.size());
    dlci.pBindings = lb.data();
    TRESSEL_VK_TRY(vkCreateDescriptorSetLayout(device_, &dlci, nullptr, &p.set_layout_),
                   "create the descriptor layout of " + desc.name);

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, desc.push_constant_bytes};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &p.set_layout_;
    plci.pushConstantRangeCount = desc.push_constant_bytes ? 1 : 0;
    plci.pPushConstantRanges = &range;
    TRESSEL_VK_TRY(vkCreatePipelineLayout(device_, &plci, nullptr, &p.layout_), "create the layout of " + desc.name);

    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = desc.spirv.size_bytes();
    smci.pCode = desc.spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    TRESSEL_VK_TRY(vkCreateShaderModule(device_, &smci, nullptr, &module), "load the shader of " + desc.name);

    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    std::vector<VkSpecializationMapEntry> entries;
    for (uint32_t i = 0; i < desc.specialization.size(); ++i)
        entries.push_back({i, uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)});
    VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), desc.specialization.size() * sizeof(uint32_t),
                              desc.specialization.data()};
    if (!entries.empty()) cpci.stage.pSpecializationInfo = &spec;
    if (info_.pipeline_statistics) cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    cpci.layout = p.layout_;
    VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, nullptr, &p.pipeline_);
    vkDestroyShaderModule(device_, module, nullptr);
    TRESSEL_VK_TRY(r, "create the compute pipeline " + desc.name);
    return p;
}

std::vector<std::pair<std::string, std::string>> Device::pipeline_statistics(const ComputePipeline& pipeline) const {
    std::vector<std::pair<std::string, std::string>> out;
    if (!info_.pipeline_statistics || !pipeline.valid()) return out;
    auto get_props = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutablePropertiesKHR"));
    auto get_stats = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
    if (!get_props || !get_stats) return out;
    VkPipelineInfoKHR pi{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pi.pipeline = pipeline.handle();
    uint32_t n = 0;
    if (get_props(device_, &pi, &n, nullptr) != VK_SUCCESS) return out;
    std::vector<VkPipelineExecutablePropertiesKHR> props(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    if (get_props(device_, &pi, &n, props.data()) != VK_SUCCESS) return out;
    for (uint32_t e = 0; e < n; ++e) {
        VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        ei.pipeline = pipeline.handle();
        ei.executableIndex = e;
        uint32_t m = 0;
        if (get_stats(device_, &ei, &m, nullptr) != VK_SUCCESS) continue;
        std::vector<VkPipelineExecutableStatisticKHR> st(m, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        if (get_stats(device_, &ei, &m, st.data()) != VK_SUCCESS) continue;
        const std::string prefix = n > 1 ? std::string(props[e].name) + ": " : std::string();
        for (const auto& v : st) {
            std::string value;
            switch (v.format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = v.value.b32 ? "true" : "false"; break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(v.value.i64); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(v.value.u64); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = std::to_string(v.value.f64); break;
                default: break;
            }
            out.emplace_back(prefix + v.name, value);
        }
    }
    return out;
}

Result<DescriptorSet> Device::create_descriptor_set(const ComputePipeline& pipeline) {
    return create_descriptor_set(pipeline.set_layout(), pipeline.bindings());
}

Result<DescriptorSet> Device::create_descriptor_set(VkDescriptorSetLayout layout, std::vector<VkDescriptorType> types) {
    auto try_alloc = [&](VkDescriptorPool pool, VkDescriptorSet* out) {
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = pool;
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &layout;
        return vkAllocateDescriptorSets(device_, &ai, out);
    };
    DescriptorSet s;
    if (take_fault(Fault::DescriptorPool)) return vk_error(VK_ERROR_OUT_OF_POOL_MEMORY, "allocate a descriptor set");
    for (auto it = descriptor_pools_.rbegin(); it != descriptor_pools_.rend(); ++it) {
        if (try_alloc(*it, &s.set_) == VK_SUCCESS) {
            s.pool_ = *it;
            break;
        }
    }
    if (!s.set_) {
        VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1024},
                                        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 256},
                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 256},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 128},
                                        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 128}};
        VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        dpci.maxSets = 256;
        dpci.poolSizeCount = 5;
        dpci.pPoolSizes = sizes;
        VkDescriptorPool pool = VK_NULL_HANDLE;
        TRESSEL_VK_TRY(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool), "create a descriptor pool");
        descriptor_pools_.push_back(pool);
        TRESSEL_VK_TRY(try_alloc(pool, &s.set_), "allocate a descriptor set");
        s.pool_ = pool;
    }
    s.device_ = this;
    note_object(+1);
    s.types_ = std::move(types);
    return s;
}

Result<CommandBuffer> Device::begin_commands() {
    collect_garbage();
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = command_pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    CommandBuffer cb;
    TRESSEL_VK_TRY(vkAllocateCommandBuffers(device_, &ai, &cb.cmd_), "allocate a command buffer");
    cb.device_ = this;
    note_object(+1);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VkResult r = vkBeginCommandBuffer(cb.cmd_, &bi);
    if (r < 0) {
        vkFreeCommandBuffers(device_, command_pool_, 1, &cb.cmd_);
        cb.cmd_ = VK_NULL_HANDLE;
        return vk_error(r, "begin a command buffer");
    }
    return cb;
}

Result<uint64_t> Device::submit(CommandBuffer&& cmd, const SubmitDesc& desc) {
    TRESSEL_ASSERT(cmd.valid() && cmd.device_ == this, "submit: the command buffer is empty or from another device");
    if (lost_) return make_error(ErrorCode::DeviceLost, "the GPU was lost earlier; restart the GPU work");
    // Take the handle over; it is freed (and stops counting as live) once this submission completes.
    VkCommandBuffer c = std::exchange(cmd.cmd_, VK_NULL_HANDLE);
    cmd.device_ = nullptr;

    VkResult r = vkEndCommandBuffer(c);
    if (r < 0) {
        retire_command_buffer(c);
        return vk_error(r, "finish recording commands");
    }
    uint64_t signal_value = submitted_serial_ + 1;
    std::vector<VkSemaphore> signals = desc.signal_semaphores;
    signals.push_back(timeline_);
    std::vector<uint64_t> signal_values(signals.size(), 0);
    signal_values.back() = signal_value;
    std::vector<uint64_t> wait_values(desc.wait_semaphores.size(), 0);

    VkTimelineSemaphoreSubmitInfo tsi{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    tsi.waitSemaphoreValueCount = static_cast<uint32_t>(wait_values.size());
    tsi.pWaitSemaphoreValues = wait_values.data();
    tsi.signalSemaphoreValueCount = static_cast<uint32_t>(signal_values.size());
    tsi.pSignalSemaphoreValues = signal_values.data();
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.pNext = &tsi;
    si.waitSemaphoreCount = static_cast<uint32_t>(desc.wait_semaphores.size());
    si.pWaitSemaphores = desc.wait_semaphores.data();
    si.pWaitDstStageMask = desc.wait_stages.data();
    si.commandBufferCount = 1;
    si.pCommandBuffers = &c;
    si.signalSemaphoreCount = static_cast<uint32_t>(signals.size());
    si.pSignalSemaphores = signals.data();
    r = take_fault(Fault::DeviceLost) ? VK_ERROR_DEVICE_LOST : vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE);
    if (r == VK_ERROR_DEVICE_LOST) lost_ = true;
    if (r < 0) {
        retire_command_buffer(c);
        return vk_error(r, "submit GPU work");
    }
    submitted_serial_ = signal_value;
    retire_command_buffer(c);  // freed once this very submission completes
    collect_garbage();
    return signal_value;
}

Status Device::wait(uint64_t serial, uint64_t timeout_ns) {
    if (timeout_ns == 0) timeout_ns = info_.is_cpu() ? 600'000'000'000ull : 30'000'000'000ull;
    if (lost_) return make_error(ErrorCode::DeviceLost, "the GPU was lost earlier; restart the GPU work");
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline_;
    wi.pValues = &serial;
    VkResult r = vkWaitSemaphores(device_, &wi, timeout_ns);
    if (r == VK_TIMEOUT)
        return make_error(ErrorCode::DeviceLost, "the GPU did not finish its work within " +
                                                     std::to_string(timeout_ns / 1'000'000'000ull) + " s (hung?)");
    if (r == VK_ERROR_DEVICE_LOST) lost_ = true;
    TRESSEL_VK_TRY(r, "wait for the GPU");
    collect_garbage();
    return {};
}

Status Device::wait_idle() {
    VkResult r = vkDeviceWaitIdle(device_);
    if (r == VK_ERROR_DEVICE_LOST) lost_ = true;
    TRESSEL_VK_TRY(r, "wait for the GPU to go idle");
    collect_garbage();
    return {};
}

Status Device::run_sync(const std::function<void(CommandBuffer&)>& record) {
    auto cmd = begin_commands();
    if (!cmd) return cmd.error();
    record(*cmd);
    auto serial = submit(std::move(*cmd));
    if (!serial) return serial.error();
    return wait(*serial);
}

Status Device::upload(Buffer& dst, const void* data, VkDeviceSize bytes, VkDeviceSize dst_offset) {
    TRESSEL_ASSERT(dst_offset + bytes <= dst.size(), "upload: writes past the end of the buffer");
    if (bytes == 0) return {};
    if (dst.mapped()) {
        std::memcpy(static_cast<uint8_t*>(dst.mapped()) + dst_offset, data, bytes);
        return {};
    }
    auto staging = create_buffer({bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryIntent::Upload, "staging upload"});
    if (!staging) return staging.error();
    std::memcpy(staging->mapped(), data, bytes);
    return run_sync([&](CommandBuffer& cmd) {
        cmd.copy(*staging, dst, bytes, 0, dst_offset);
        cmd.transfer_barrier();
    });
}

Status Device::download(const Buffer& src, void* data, VkDeviceSize bytes, VkDeviceSize src_offset) {
    TRESSEL_ASSERT(src_offset + bytes <= src.size(), "download: reads past the end of the buffer");
    if (bytes == 0) return {};
    if (src.mapped()) {
        std::memcpy(data, static_cast<const uint8_t*>(src.mapped()) + src_offset, bytes);
        return {};
    }
    auto staging = create_buffer({bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryIntent::Readback, "staging readback"});
    if (!staging) return staging.error();
    TRESSEL_TRY(run_sync([&](CommandBuffer& cmd) {
        cmd.compute_barrier();
        cmd.copy(src, *staging, bytes, src_offset, 0);
        cmd.transfer_barrier();
    }));
    std::memcpy(data, staging->mapped(), bytes);
    return {};
}

DispatchSize dispatch_size(const Device& device, uint64_t items, uint32_t group_size) {
    uint64_t groups = (items + group_size - 1) / group_size;
    uint64_t max_x = device.info().max_workgroup_count[0];
    DispatchSize d;
    if (groups <= max_x) {
        d.x = static_cast<uint32_t>(groups);
        return d;
    }
    d.y = static_cast<uint32_t>((groups + max_x - 1) / max_x);
    d.x = static_cast<uint32_t>((groups + d.y - 1) / d.y);
    TRESSEL_ASSERT(d.y <= device.info().max_workgroup_count[1], "dispatch_size: job too large for one dispatch");
    return d;
}

}  // namespace tressel::gpu
