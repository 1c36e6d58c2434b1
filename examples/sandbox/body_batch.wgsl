// Every body of the sandbox in one draw: a quad per body (`look.rs`, `BodyBatchMaterial`).
//
// The mesh holds what changes only when bodies come, go or change shape. Per vertex: the
// corner's offset from the body's centre in the body's own frame (px, the radius line lies
// along +x) and the shape: x = 0 for a circle, 1 for a rectangle; y, z = radius or half
// extents (px); w = the body's slot. What changes every frame is in the `poses` texture,
// two texels per slot: the drawn pose (centre x, y in px, then the cosine and sine of the
// angle) and the fill colour (linear). A moving world re-sends 32 bytes per body, a
// world at rest nothing.
// The fragment draws a disc with its border ring and radius line, or a rectangle with a
// border of constant width, the shades multiplying the fill.

#import bevy_sprite::{
    mesh2d_functions as mesh_functions,
    mesh2d_view_bindings::view,
}

#ifdef TONEMAP_IN_SHADER
#import bevy_core_pipeline::tonemapping
#endif
#ifdef SRGB_OUTPUT
#import bevy_render::color_operations::linear_to_srgb
#endif

struct BodyBatch {
    // Border shade, radius-line shade, inner edge of the disc's ring and half width of its
    // radius line (both shares of the radius).
    shades: vec4<f32>,
    // x: a rectangle's border width, px; y: the width of `poses`, texels.
    rect: vec4<f32>,
};

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> batch: BodyBatch;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var poses: texture_2d<f32>;

struct Vertex {
    @builtin(instance_index) instance_index: u32,
    @location(0) local: vec3<f32>,
    @location(5) shape: vec4<f32>,
};

struct VertexOutput {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) local: vec2<f32>,
    @location(1) color: vec4<f32>,
    @location(2) shape: vec4<f32>,
};

@vertex
fn vertex(vertex: Vertex) -> VertexOutput {
    var out: VertexOutput;
    // Texels 2·slot and 2·slot + 1 lie in one row (the width is even).
    let width = u32(batch.rect.y);
    let first = 2u * u32(vertex.shape.w);
    let at = vec2<i32>(i32(first % width), i32(first / width));
    let pose = textureLoad(poses, at, 0);
    let turned = vec2(
        pose.z * vertex.local.x - pose.w * vertex.local.y,
        pose.w * vertex.local.x + pose.z * vertex.local.y,
    );
    let position = vec4(pose.xy + turned, 0.0, 1.0);
    let world_from_local = mesh_functions::get_world_from_local(vertex.instance_index);
    out.clip_position = mesh_functions::mesh2d_position_local_to_clip(world_from_local, position);
    out.local = vertex.local.xy;
    out.color = textureLoad(poses, at + vec2(1, 0), 0);
    out.shape = vertex.shape;
    return out;
}

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let border_shade = batch.shades.x;
    let line_shade = batch.shades.y;
    let ring_inner = batch.shades.z;
    let line_half_width = batch.shades.w;

    // Distances to the outline, px, and how much they change per screen pixel (for a soft
    // edge one pixel wide); derivatives are taken before any branch.
    let radius = in.shape.y;
    let from_centre = length(in.local);
    let circle_inside = radius - from_centre;
    let edges = in.shape.yz - abs(in.local);
    let rect_inside = min(edges.x, edges.y);
    let circle_pixel = max(fwidth(circle_inside), 1e-4);
    let rect_pixel = max(fwidth(rect_inside), 1e-4);

    var shade = 1.0;
    var coverage = 1.0;
    if in.shape.x < 0.5 {
        coverage = clamp(circle_inside / circle_pixel + 0.5, 0.0, 1.0);
        if from_centre > ring_inner * radius {
            shade = border_shade;
        } else if in.local.x >= 0.0 && abs(in.local.y) <= line_half_width * radius {
            shade = line_shade;
        }
    } else {
        coverage = clamp(rect_inside / rect_pixel + 0.5, 0.0, 1.0);
        if rect_inside < batch.rect.x {
            shade = border_shade;
        }
    }
    if coverage <= 0.0 {
        discard;
    }
    var color = vec4(in.color.rgb * shade, coverage);
#ifdef TONEMAP_IN_SHADER
    color = tonemapping::tone_mapping(color, view.color_grading);
#endif
#ifdef SRGB_OUTPUT
    color = vec4(linear_to_srgb(color.rgb), color.a);
#endif
    return color;
}
