// Editor panels: each a small class drawing one ImGui window from an explicit EditorContext. Panels
// change ctx.scene (the application turns changes into undo steps and rebuilds) or queue Requests.
#pragma once

#include "editor_context.h"
#include "files.h"

namespace tressel::editor {

class Panel {
public:
    virtual ~Panel() = default;
    virtual const char* title() const = 0;
    // Draws the window (Begin/End included) when `open`.
    void draw_window(EditorContext& ctx);
    bool open = true;

protected:
    virtual void draw(EditorContext& ctx) = 0;
};

class ScenePanel final : public Panel {
public:
    const char* title() const override { return "Scene"; }

protected:
    void draw(EditorContext& ctx) override;

private:
    FileDialog dialog_;
};

class GroomPanel final : public Panel {
public:
    const char* title() const override { return "Groom"; }

protected:
    void draw(EditorContext& ctx) override;
};

class SimulationPanel final : public Panel {
public:
    const char* title() const override { return "Simulation"; }

protected:
    void draw(EditorContext& ctx) override;

private:
    // The accessories: each one's parameters, pins and cloth; a mesh of the scene made cloth.
    void draw_accessories(EditorContext& ctx);
    size_t accessory_mesh_ = 0;  // the mesh chosen to become cloth
};

class CollisionPanel final : public Panel {
public:
    const char* title() const override { return "Collision"; }

protected:
    void draw(EditorContext& ctx) override;
};

class ShadingPanel final : public Panel {
public:
    const char* title() const override { return "Shading"; }

protected:
    void draw(EditorContext& ctx) override;
};

class StatsPanel final : public Panel {
public:
    const char* title() const override { return "Stats"; }

protected:
    void draw(EditorContext& ctx) override;
};

class LogPanel final : public Panel {
public:
    const char* title() const override { return "Log"; }

protected:
    void draw(EditorContext& ctx) override;

private:
    bool show_info_ = true;
    size_t last_size_ = 0;
};

class ExportPanel final : public Panel {
public:
    const char* title() const override { return "Export"; }

protected:
    void draw(EditorContext& ctx) override;

private:
    FileDialog dialog_;
    int format_ = 0;
    bool include_follows_ = false;
    std::string path_ = "export/hair.tfx";
};

}  // namespace tressel::editor
