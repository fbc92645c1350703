// GPU tests: one Vulkan device per test process, validation layers always on. Derive test fixtures from
// GpuTest: a test during which the validation layer reported an error fails, listing the messages.
#pragma once

#include <functional>

#include <gtest/gtest.h>

#include "gpu/device.h"

namespace tressel::test {

// The process's device (created on first use; TRESSEL_DEVICE picks it, e.g. "cpu").
gpu::Device& gpu_device();
// Runs `release` before the test device is destroyed at the end of main(): for objects a test keeps in
// statics (pipelines shared between tests), which would otherwise outlive the device.
void before_device_teardown(std::function<void()> release);

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    gpu::Device& device() { return gpu_device(); }
    // For the test that checks the checker: forget errors reported so far.
    void expect_validation_errors_and_clear(uint32_t at_least);
};

}  // namespace tressel::test
