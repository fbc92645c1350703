// GPU tests: one Vulkan device per test process, validation layers always on. Derive test fixtures from
// GpuTest: a test during which the validation layer reported an error fails, listing the messages.
#pragma once

#include <gtest/gtest.h>

#include "gpu/device.h"

namespace tressel::test {

// The process's device (created on first use; TRESSEL_DEVICE picks it, e.g. "cpu").
gpu::Device& gpu_device();

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    gpu::Device& device() { return gpu_device(); }
    // For the test that checks the checker: forget errors reported so far.
    void expect_validation_errors_and_clear(uint32_t at_least);
};

}  // namespace tressel::test
