// Editor panels: each a small class drawing one ImGui window from an explicit EditorContext.
#pragma once

#include "editor_context.h"

namespace tressel::editor {

class Panel {
public:
    virtual ~Panel() = default;
    virtual const char* title() const = 0;
    virtual void draw(EditorContext& ctx) = 0;
    bool open = true;
};

class ScenePanel final : public Panel {
public:
    const char* title() const override { return "Scene"; }
    void draw(EditorContext& ctx) override;
};

class LogPanel final : public Panel {
public:
    const char* title() const override { return "Log"; }
    void draw(EditorContext& ctx) override;

private:
    bool show_info_ = true;
    size_t last_size_ = 0;
};

class StatsPanel final : public Panel {
public:
    const char* title() const override { return "Stats"; }
    void draw(EditorContext& ctx) override;
};

}  // namespace tressel::editor
