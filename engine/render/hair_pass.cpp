#include "render/hair_pass.h"

#include <string>

#include "render/raster_pass.h"
#include "render/ribbon_pass.h"

namespace tressel::render {

Result<std::unique_ptr<HairPassBase>> create_hair_pass(const PassSetup& setup) {
    switch (setup.desc.hair_renderer) {
        case HairRenderer::Ribbons: {
            auto p = RibbonHairPass::create(setup);
            if (!p) return p.error();
            return std::unique_ptr<HairPassBase>(std::move(*p));
        }
        case HairRenderer::ComputeRaster: {
            auto p = ComputeRasterHairPass::create(setup);
            if (!p) return p.error();
            return std::unique_ptr<HairPassBase>(std::move(*p));
        }
    }
    return make_error(ErrorCode::InvalidArgument,
                      "renderer: hair_renderer " + std::to_string(static_cast<int>(setup.desc.hair_renderer)) +
                          " is not one of HairRenderer's values (render/renderer.h)");
}

}  // namespace tressel::render
