#include <cstdio>
#include <dlfcn.h>
#include <memory>
#include <vector>

#include "gpu_test.h"

namespace tressel::test {
// Owned here so main() can destroy it before static destruction (the loader's own statics go first).
std::unique_ptr<gpu::Device> g_device;
std::vector<std::function<void()>> g_teardown;

void before_device_teardown(std::function<void()> release) { g_teardown.push_back(std::move(release)); }

gpu::Device& gpu_device() {
    if (!g_device) {
        gpu::DeviceDesc desc;
        desc.validation = true;
        auto dev = gpu::Device::create(desc);
        if (!dev) {
            std::fprintf(stderr, "cannot create the test GPU device: %s\n", dev.error().describe().c_str());
            std::abort();
        }
        g_device = std::move(*dev);
        std::fprintf(stderr, "[gpu] %s (%s), validation on\n", g_device->info().name.c_str(),
                     gpu::to_string(g_device->info().type));
    }
    return *g_device;
}

void GpuTest::SetUp() {
    gpu_device().reset_validation_errors();
    gpu_device().take_validation_messages();
}

void GpuTest::TearDown() {
    auto& dev = gpu_device();
    (void)dev.wait_idle();
    uint32_t errors = dev.validation_error_count();
    if (errors > 0) {
        std::string text;
        for (auto& m : dev.take_validation_messages())
            if (m.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) text += "\n  " + m.text;
        ADD_FAILURE() << errors << " Vulkan validation error(s) during this test:" << text;
        dev.reset_validation_errors();
    }
}

void GpuTest::expect_validation_errors_and_clear(uint32_t at_least) {
    auto& dev = gpu_device();
    EXPECT_GE(dev.validation_error_count(), at_least) << "the validation layer should have reported an error";
    dev.reset_validation_errors();
    dev.take_validation_messages();
}

}  // namespace tressel::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
#if defined(__SANITIZE_ADDRESS__)
    // The Vulkan loader unloads the driver and the validation layer when the device goes; the leak checker
    // runs after that and cannot name a library that is gone, so tests/lsan.supp could not match what those
    // keep until exit. Loaded once more here and never unloaded, they keep their names.
    for (const char* lib : {"libvulkan_lvp.so", "libVkLayer_khronos_validation.so"}) (void)dlopen(lib, RTLD_NOW | RTLD_NODELETE);
#endif
    int rc = RUN_ALL_TESTS();
    for (auto& release : tressel::test::g_teardown) release();
    tressel::test::g_device.reset();
    return rc;
}
