#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "gpu/timestamps.h"
#include "gpu_test.h"
#include "shared/embedded_shaders.h"
#include "shared/float_order.h"
#include "shared/test_kernels.h"

namespace tressel {
namespace {

using namespace tressel::gpu;
using tressel::gpu_shared::FillBufferPush;
using tressel::gpu_shared::FloatOrderPush;
using tressel::gpu_shared::kTestWorkgroupSize;

class GpuCore : public test::GpuTest {};

Result<ComputePipeline> fill_pipeline(Device& dev) {
    return dev.create_compute_pipeline({embedded_spirv("test/fill_buffer.comp"),
                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                        sizeof(FillBufferPush),
                                        "fill_buffer"});
}

TEST_F(GpuCore, ComputeWritesAndReadsBack) {
    auto& dev = device();
    auto pipe = fill_pipeline(dev);
    ASSERT_TRUE(pipe.ok()) << pipe.error().describe();
    const uint32_t count = 1000;  // not a multiple of the workgroup size: the tail must be guarded
    auto buf = dev.create_buffer({(count + 24) * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  MemoryIntent::DeviceLocal, "out"});
    ASSERT_TRUE(buf.ok()) << buf.error().describe();
    auto set = dev.create_descriptor_set(*pipe);
    ASSERT_TRUE(set.ok());
    set->bind_buffer(0, *buf);
    Status s = dev.run_sync([&](CommandBuffer& cmd) {
        cmd.fill(*buf, 0xdeadbeefu);
        cmd.compute_barrier();
        cmd.bind(*pipe, *set);
        cmd.push(*pipe, FillBufferPush{count, 3, 7, 0});
        cmd.dispatch(div_round_up(count, kTestWorkgroupSize));
        cmd.compute_barrier();
    });
    ASSERT_TRUE(s.ok()) << s.error().describe();
    std::vector<uint32_t> out(count + 24);
    ASSERT_TRUE(dev.download(*buf, out.data(), out.size() * 4).ok());
    for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(out[i], i * 3 + 7) << "at " << i;
    for (uint32_t i = count; i < count + 24; ++i) ASSERT_EQ(out[i], 0xdeadbeefu) << "wrote past count at " << i;
}

TEST(DispatchSize, RoundsUp) {
    EXPECT_EQ(div_round_up(0, 64), 0u);
    EXPECT_EQ(div_round_up(1, 64), 1u);
    EXPECT_EQ(div_round_up(64, 64), 1u);
    EXPECT_EQ(div_round_up(65, 64), 2u);
    EXPECT_EQ(div_round_up(16'000'000, 64), 250'000u);
}

TEST_F(GpuCore, LargeDispatchSplitsOverY) {
    auto& dev = device();
    // More groups than the x limit of drivers that cap it at 65,535 (the CPU driver does).
    const uint32_t count = kTestWorkgroupSize * 70'000 + 5;
    DispatchSize d = dispatch_size(dev, count, kTestWorkgroupSize);
    ASSERT_LE(d.x, dev.info().max_workgroup_count[0]);
    ASSERT_GE(uint64_t(d.x) * d.y * kTestWorkgroupSize, count);
    auto pipe = fill_pipeline(dev);
    ASSERT_TRUE(pipe.ok());
    auto buf = dev.create_buffer({count * 4ull});
    ASSERT_TRUE(buf.ok());
    auto set = dev.create_descriptor_set(*pipe);
    set->bind_buffer(0, *buf);
    ASSERT_TRUE(dev.run_sync([&](CommandBuffer& cmd) {
                       cmd.bind(*pipe, *set);
                       cmd.push(*pipe, FillBufferPush{count, 1, 1, 0});
                       cmd.dispatch(d.x, d.y, d.z);
                       cmd.compute_barrier();
                   }).ok());
    std::vector<uint32_t> out(count);
    ASSERT_TRUE(dev.download(*buf, out.data(), count * 4ull).ok());
    for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(out[i], i + 1) << "item " << i << " missed or written twice";
}

TEST_F(GpuCore, FloatOrderEncodingSortsOnTheGpu) {
    auto& dev = device();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> values = {3.5f, -0.0f, 0.0f, -1e-30f, 1e-30f, -inf, inf, -1.0f, 1.0f, -2.5e20f, 2.5e20f,
                                 std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                                 -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0.25f, -0.25f};
    // Pad with a deterministic spread of ordinary values.
    for (int i = 0; i < 300; ++i) values.push_back(std::ldexp(float((i * 7919) % 2001 - 1000), (i % 40) - 20));
    const uint32_t n = static_cast<uint32_t>(values.size());

    auto pipe = dev.create_compute_pipeline({embedded_spirv("test/float_order.comp"),
                                             {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                              VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                             sizeof(FloatOrderPush),
                                             "float_order"});
    ASSERT_TRUE(pipe.ok()) << pipe.error().describe();
    auto in = dev.create_buffer_with(std::span<const float>(values), 0, "values");
    ASSERT_TRUE(in.ok());
    auto enc = dev.create_buffer({n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  MemoryIntent::DeviceLocal, "encoded"});
    uint32_t init[2] = {0xffffffffu, 0u};
    auto minmax = dev.create_buffer_with(std::span<const uint32_t>(init, 2), 0, "minmax");
    ASSERT_TRUE(enc.ok() && minmax.ok());
    auto set = dev.create_descriptor_set(*pipe);
    ASSERT_TRUE(set.ok());
    set->bind_buffer(0, *in);
    set->bind_buffer(1, *enc);
    set->bind_buffer(2, *minmax);
    ASSERT_TRUE(dev.run_sync([&](CommandBuffer& cmd) {
                       cmd.bind(*pipe, *set);
                       cmd.push(*pipe, FloatOrderPush{n, 0, 0, 0});
                       cmd.dispatch(div_round_up(n, kTestWorkgroupSize));
                       cmd.compute_barrier();
                   }).ok());
    std::vector<uint32_t> gpu_enc(n);
    uint32_t mm[2];
    ASSERT_TRUE(dev.download(*enc, gpu_enc.data(), n * 4).ok());
    ASSERT_TRUE(dev.download(*minmax, mm, 8).ok());

    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(gpu_enc[i], gpu_shared::float_to_ordered(values[i])) << "GPU and C++ encodings differ for " << values[i];
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            if (values[i] < values[j]) {
                ASSERT_LT(gpu_enc[i], gpu_enc[j]) << values[i] << " vs " << values[j];
            } else if (values[i] > values[j]) {
                ASSERT_GT(gpu_enc[i], gpu_enc[j]) << values[i] << " vs " << values[j];
            }
        }
    EXPECT_LT(gpu_shared::float_to_ordered(-0.0f), gpu_shared::float_to_ordered(0.0f)) << "-0 sorts just below +0";
    EXPECT_EQ(gpu_shared::ordered_to_float(mm[0]), -inf) << "atomicMin over encodings must give the smallest float";
    EXPECT_EQ(gpu_shared::ordered_to_float(mm[1]), inf);
    for (float v : values) {
        float back = gpu_shared::ordered_to_float(gpu_shared::float_to_ordered(v));
        EXPECT_EQ(std::memcmp(&back, &v, sizeof(float)), 0) << "round trip changed the bits of " << v;
    }
}

TEST_F(GpuCore, ValidationErrorsAreCaught) {
    auto& dev = device();
    // A zero-sized buffer violates VUID-VkBufferCreateInfo-size-00912; the layer must report it.
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 0;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer b = VK_NULL_HANDLE;
    VkResult r = vkCreateBuffer(dev.device(), &bci, nullptr, &b);
    if (r == VK_SUCCESS && b) vkDestroyBuffer(dev.device(), b, nullptr);
    bool mentions = false;
    for (auto& m : dev.take_validation_messages()) mentions |= m.text.find("00912") != std::string::npos;
    EXPECT_TRUE(mentions) << "the message should name the violated rule";
    expect_validation_errors_and_clear(1);
}

TEST_F(GpuCore, TimestampsMeasurePasses) {
    auto& dev = device();
    ASSERT_GT(dev.info().timestamp_valid_bits, 0u) << "the test device must support timestamps";
    auto ts = TimestampQueries::create(dev, 4);
    ASSERT_TRUE(ts.ok()) << ts.error().describe();
    auto pipe = fill_pipeline(dev);
    ASSERT_TRUE(pipe.ok());
    const uint32_t count = 1 << 20;
    auto buf = dev.create_buffer({count * 4ull});
    ASSERT_TRUE(buf.ok());
    auto set = dev.create_descriptor_set(*pipe);
    set->bind_buffer(0, *buf);
    auto cmd = dev.begin_commands();
    ASSERT_TRUE(cmd.ok());
    ts->reset(*cmd);
    ts->begin(*cmd, "empty");
    ts->end(*cmd);
    ts->begin(*cmd, "fill 4 MiB");
    cmd->bind(*pipe, *set);
    cmd->push(*pipe, FillBufferPush{count, 1, 0, 0});
    cmd->dispatch(div_round_up(count, kTestWorkgroupSize));
    ts->end(*cmd);
    auto serial = dev.submit(std::move(*cmd));
    ASSERT_TRUE(serial.ok());
    ASSERT_TRUE(dev.wait(*serial).ok());
    auto passes = ts->read();
    ASSERT_TRUE(passes.ok()) << passes.error().describe();
    ASSERT_EQ(passes->size(), 2u);
    EXPECT_EQ((*passes)[1].name, "fill 4 MiB");
    EXPECT_GE((*passes)[0].ms, 0.0);
    EXPECT_GT((*passes)[1].ms, 0.0) << "a 1M-invocation dispatch cannot take zero time";
    EXPECT_LT((*passes)[1].ms, 10'000.0);
}

TEST_F(GpuCore, TimestampQueriesMoveWithoutLeaksOrCrashes) {
    auto& dev = device();
    ASSERT_TRUE(dev.wait_idle().ok());
    const int64_t live_before = dev.live_objects();
    {
        auto a = TimestampQueries::create(dev, 4);
        auto b = TimestampQueries::create(dev, 8);
        ASSERT_TRUE(a.ok() && b.ok());
        *a = std::move(*b);  // a's pool is retired, b's taken over
        TimestampQueries c(std::move(*a));
        auto cmd = dev.begin_commands();
        ASSERT_TRUE(cmd.ok());
        c.reset(*cmd);
        c.begin(*cmd, "moved");
        c.end(*cmd);
        auto serial = dev.submit(std::move(*cmd));
        ASSERT_TRUE(serial.ok());
        ASSERT_TRUE(dev.wait(*serial).ok());
        auto t = c.read();
        ASSERT_TRUE(t.ok());
        ASSERT_EQ(t->size(), 1u);
        EXPECT_EQ((*t)[0].name, "moved");
        auto empty = a->read();  // moved-from: no pool, no passes
        ASSERT_TRUE(empty.ok());
        EXPECT_TRUE(empty->empty());
    }
    ASSERT_TRUE(dev.wait_idle().ok());
    EXPECT_EQ(dev.live_objects(), live_before);
}

TEST_F(GpuCore, DestructionWaitsForTheGpuAndNothingLeaks) {
    auto& dev = device();
    ASSERT_TRUE(dev.wait_idle().ok());
    const int64_t live_before = dev.live_objects();
    const VkDeviceSize bytes_before = dev.allocated_bytes(MemoryIntent::DeviceLocal);
    uint64_t serial = 0;
    {
        auto pipe = fill_pipeline(dev);
        ASSERT_TRUE(pipe.ok());
        auto buf = dev.create_buffer({(1u << 21) * 4ull});
        ASSERT_TRUE(buf.ok());
        EXPECT_EQ(dev.allocated_bytes(MemoryIntent::DeviceLocal), bytes_before + (1u << 21) * 4ull);
        auto set = dev.create_descriptor_set(*pipe);
        set->bind_buffer(0, *buf);
        auto cmd = dev.begin_commands();
        cmd->bind(*pipe, *set);
        cmd->push(*pipe, FillBufferPush{1u << 21, 1, 0, 0});
        cmd->dispatch(div_round_up(1u << 21, kTestWorkgroupSize));
        auto s = dev.submit(std::move(*cmd));
        ASSERT_TRUE(s.ok());
        serial = *s;
        // Handles go out of scope while the GPU may still run the dispatch: destruction must wait.
    }
    EXPECT_GT(dev.live_objects(), live_before) << "objects in flight must not be destroyed yet or were never counted";
    ASSERT_TRUE(dev.wait(serial).ok());
    EXPECT_EQ(dev.live_objects(), live_before);
    EXPECT_EQ(dev.allocated_bytes(MemoryIntent::DeviceLocal), bytes_before);
    // A command buffer that is never submitted is freed too.
    { auto unused = dev.begin_commands(); }
    ASSERT_TRUE(dev.wait_idle().ok());
    EXPECT_EQ(dev.live_objects(), live_before);
}

TEST_F(GpuCore, MoveOnlyHandlesTransferOwnership) {
    auto& dev = device();
    auto a = dev.create_buffer({256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryIntent::Upload, "a"});
    ASSERT_TRUE(a.ok());
    ASSERT_NE(a->mapped(), nullptr) << "upload buffers are persistently mapped";
    VkBuffer h = a->handle();
    Buffer b = std::move(*a);
    EXPECT_FALSE(a->valid());
    EXPECT_EQ(b.handle(), h);
    Buffer c;
    c = std::move(b);
    EXPECT_EQ(c.handle(), h);
    EXPECT_FALSE(b.valid());
}

TEST_F(GpuCore, OversizedAllocationIsAnErrorNotACrash) {
    auto& dev = device();
    const VkDeviceSize huge = std::max<VkDeviceSize>(dev.info().device_local_bytes, 1ull << 30) * 4;
    auto buf = dev.create_buffer({huge, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryIntent::DeviceLocal, "huge"});
    ASSERT_FALSE(buf.ok());
    EXPECT_EQ(buf.error().code, ErrorCode::OutOfMemory);
    EXPECT_NE(buf.error().message.find("huge"), std::string::npos) << buf.error().message;
}

TEST(GpuDevice, UnknownDevicePreferenceListsTheDevices) {
    DeviceDesc desc;
    desc.validation = true;
    desc.preference = "no-such-gpu-xyz";
    auto dev = Device::create(desc);
    ASSERT_FALSE(dev.ok());
    EXPECT_EQ(dev.error().code, ErrorCode::NotFound);
    EXPECT_NE(dev.error().message.find("no-such-gpu-xyz"), std::string::npos);
    EXPECT_NE(dev.error().message.find("0: "), std::string::npos) << "the message lists the devices: " << dev.error().message;
}

TEST(GpuDevice, CpuPreferencePicksTheCpuDriver) {
    DeviceDesc desc;
    desc.validation = true;
    desc.preference = "cpu";
    auto dev = Device::create(desc);
    if (!dev.ok()) GTEST_SKIP() << "no CPU Vulkan driver here: " << dev.error().message;
    EXPECT_TRUE((*dev)->info().is_cpu());
    EXPECT_EQ((*dev)->validation_error_count(), 0u);
}

}  // namespace
}  // namespace tressel
