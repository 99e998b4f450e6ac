"""Path-traced scenes: the dice, poses, camera and labels of :mod:`render`, lit and shot by Blender's
Cycles (the ``bpy`` module from PyPI) instead of the light rasteriser.

What a path tracer gives that the rasteriser only imitates: area lights reflected in glossy plastic
(the pale, washed tops of coloured dice), light bounced between dice and walls, soft shadows with a
path tracer's grain, rounded edges catching the light, and ink sunk into the faces. Each die is its
solid as a mesh, bevelled by a modifier, its faces' artwork (:func:`render.face_texture`) in one
texture atlas mapped by UV; the tray's floor carries :func:`render.surface`'s texture, projected so it
lies in the picture where the rasteriser would draw it, and walls stand at the picture's edges about
half the time. A key area light (35-88 degrees up) and usually a fill light, a dim room around them,
a colour temperature each; Filmic, AgX or Standard tone mapping; 16-64 samples a pixel, denoised
half the time; then the same camera effects as the rasteriser's (white balance, noise, JPEG).

Everything random comes from the scene's ``rng``; Cycles' own sampling is seeded from it too, so a
scene is a function of its seed. A development extra: ``bpy`` is installed by ``make render-env``
into ``.venv-render``, never on the Pi.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile

import bpy
import cv2
import numpy as np
from mathutils import Matrix

from .designs import Design
from .render import (
    TEX,
    Camera,
    Placed,
    Scene,
    _camera_effects,
    _label,
    face_polygon,
    face_texture,
    place_dice,
    scene_frame,
    surface,
)

#: the rendering's own settings, drawn per scene: samples a pixel, tone mappings
SAMPLES = (12, 40)
VIEWS = (("Standard", 0.4), ("Filmic", 0.35), ("AgX", 0.25))
#: the tone mappings' contrast looks drawn from (Standard and Filmic share Filmic's looks)
LOOKS = {
    "Standard": ("None", "None", "Medium High Contrast"),
    "Filmic": ("Medium High Contrast", "High Contrast", "Very High Contrast", "None"),
    "AgX": ("AgX - Punchy", "AgX - Medium High Contrast", "AgX - High Contrast", "None"),
}
#: a white floor's linear value under 1 W of area light 1 m above it (measured: 0.239 at 0.6 m)
WATT = 0.086
WALLS = ((0.03, 0.03, 0.035), (0.25, 0.25, 0.26), (0.22, 0.12, 0.06), (0.05, 0.2, 0.08), (0.8, 0.8, 0.78))


def _kelvin(k: float) -> np.ndarray:
    """An approximate linear RGB of a black body at ``k`` kelvin, green 1."""
    t = k / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * np.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * np.log(t - 10) - 305.0)
    rgb = (np.clip([r, g, b], 1, 255) / 255.0) ** 2.2
    return rgb / rgb[1]


def _image(name: str, rgb: np.ndarray, colour: bool = True) -> bpy.types.Image:
    """A Blender image of the float ``rgb`` (H, W, 3) or grey (H, W) picture, row 0 at the top."""
    h, w = rgb.shape[:2]
    img = bpy.data.images.new(name, w, h, alpha=False)  # 8-bit: an sRGB picture, as a photo is
    px = np.ones((h, w, 4), np.float32)
    px[..., :3] = rgb[::-1].reshape(h, w, -1)
    img.colorspace_settings.name = "sRGB" if colour else "Non-Color"  # before the pixels: it reloads them
    img.pixels.foreach_set(px.ravel())
    return img


def _settings(rng: np.random.Generator, w: int, h: int, threads: int) -> dict:
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    samples = int(rng.integers(SAMPLES[0], SAMPLES[1] + 1))
    sc.cycles.samples = samples
    sc.cycles.use_adaptive_sampling = False
    sc.cycles.seed = int(rng.integers(2**31))
    sc.cycles.max_bounces = 4
    sc.cycles.caustics_reflective = sc.cycles.caustics_refractive = False
    denoise = bool(rng.random() < 0.5)
    sc.cycles.use_denoising = denoise
    sc.render.threads_mode = "FIXED"
    sc.render.threads = threads
    sc.render.resolution_x, sc.render.resolution_y, sc.render.resolution_percentage = w, h, 100
    sc.render.image_settings.file_format = "PNG"
    names = [v for v, _ in VIEWS]
    view = str(rng.choice(names, p=[p for _, p in VIEWS]))
    sc.view_settings.view_transform = view
    look = str(rng.choice(LOOKS[view]))
    sc.view_settings.look = look
    sc.view_settings.exposure = float(rng.normal(-1.0 if view == "Standard" else -0.4, 0.25))
    return {"samples": samples, "denoised": denoise, "view": view, "look": look}


def _material(name: str) -> tuple[bpy.types.Material, bpy.types.NodeTree, bpy.types.Node]:
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    tree = mat.node_tree
    bsdf = next(n for n in tree.nodes if n.type == "BSDF_PRINCIPLED")
    return mat, tree, bsdf


def _link_image(tree, img: bpy.types.Image, to, extend: bool = False):
    node = tree.nodes.new("ShaderNodeTexImage")
    node.image = img
    node.interpolation = "Cubic"
    node.extension = "EXTEND" if extend else "REPEAT"
    tree.links.new(node.outputs["Color"], to)
    return node


def _die(rng: np.random.Generator, p: Placed, k: int) -> None:
    """Die ``p`` as a bevelled mesh with its faces' artwork, in metres."""
    s = p.solid
    n = len(s.faces)
    cols = int(np.ceil(np.sqrt(n)))
    rows = int(np.ceil(n / cols))
    atlas = np.zeros((rows * TEX, cols * TEX, 3), np.float32)
    ink = np.zeros((rows * TEX, cols * TEX), np.float32)
    uvs: list[list[tuple[float, float]]] = []
    for fi in range(n):
        tex, alpha, _mask, _ = face_texture(p, fi)
        r, c = divmod(fi, cols)
        atlas[r * TEX : (r + 1) * TEX, c * TEX : (c + 1) * TEX] = tex
        ink[r * TEX : (r + 1) * TEX, c * TEX : (c + 1) * TEX] = alpha / 255.0
        poly, _ = face_polygon(s, fi)
        uvs.append([((c * TEX + x) / (cols * TEX), 1 - (r * TEX + y) / (rows * TEX)) for x, y in poly])
    mesh = bpy.data.meshes.new(f"die{k}")
    verts = (s.vertices @ p.R.T + p.t) / 1000.0
    mesh.from_pydata([tuple(v) for v in verts], [], [tuple(f) for f in s.faces])
    uv = mesh.uv_layers.new(name="art")
    for poly, loops in zip(mesh.polygons, uvs, strict=True):
        for li, co in zip(poly.loop_indices, loops, strict=True):
            uv.data[li].uv = co
    for poly in mesh.polygons:
        poly.use_smooth = True
    obj = bpy.data.objects.new(f"die{k}", mesh)
    bpy.context.scene.collection.objects.link(obj)
    poly, mm_per_px = face_polygon(s, 0)
    half = np.abs(poly[:, 0] - TEX / 2).max() * mm_per_px / 1000.0  # a face's half-width, metres
    bevel = obj.modifiers.new("bevel", "BEVEL")
    bevel.width = float(half * p.style.get("bevel", 0.1) * rng.uniform(0.8, 1.6))
    bevel.segments = 3
    bevel.harden_normals = True
    style = p.style
    mat, tree, bsdf = _material(f"die{k}")
    _link_image(tree, _image(f"art{k}", atlas), bsdf.inputs["Base Color"])
    ink_img = _image(f"ink{k}", ink, colour=False)
    # body and ink roughness, mixed by the ink's alpha
    gloss = style.get("gloss", 0.3)
    mix = tree.nodes.new("ShaderNodeMix")
    mix.data_type = "FLOAT"
    mix.inputs["A"].default_value = float(np.clip(0.5 - 0.4 * gloss + rng.normal(0, 0.05), 0.12, 0.7))
    mix.inputs["B"].default_value = float(rng.uniform(0.3, 0.8))
    _link_image(tree, ink_img, mix.inputs["Factor"])
    tree.links.new(mix.outputs["Result"], bsdf.inputs["Roughness"])
    if style.get("sunk", 0) > 0 or style.get("engraved", False):  # ink sunk into the face
        bump = tree.nodes.new("ShaderNodeBump")
        bump.invert = True
        bump.inputs["Strength"].default_value = float(rng.uniform(0.3, 1.0))
        bump.inputs["Distance"].default_value = float(rng.uniform(0.0001, 0.0004))
        _link_image(tree, ink_img, bump.inputs["Height"])
        tree.links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    if style.get("sheen", 0) > 0.3 and rng.random() < 0.3:  # a lacquered, mirror-like coat
        bsdf.inputs["Coat Weight"].default_value = float(style["sheen"] * 0.6)
        bsdf.inputs["Coat Roughness"].default_value = float(rng.uniform(0.02, 0.15))
    if rng.random() < 0.2:  # translucent plastic
        bsdf.inputs["Subsurface Weight"].default_value = float(rng.uniform(0.05, 0.3))
        bsdf.inputs["Subsurface Scale"].default_value = 0.002
    obj.data.materials.append(mat)


def _floor(img: np.ndarray, cam: Camera, w: int, h: int, kind: str, rng: np.random.Generator) -> None:
    """The tray's floor: a grid under the picture, textured so the surface lies where it would be drawn."""
    g = 12
    us, vs = np.meshgrid(np.linspace(-0.1, 1.1, g + 1) * w, np.linspace(-0.1, 1.1, g + 1) * h)
    pix = np.stack([us.ravel(), vs.ravel()], axis=1)
    ground = cam.ground(pix)
    verts = [(x / 1000.0, y / 1000.0, 0.0) for x, y, _ in ground]
    faces = [
        (r * (g + 1) + c, r * (g + 1) + c + 1, (r + 1) * (g + 1) + c + 1, (r + 1) * (g + 1) + c)
        for r in range(g)
        for c in range(g)
    ]
    mesh = bpy.data.meshes.new("floor")
    mesh.from_pydata(verts, [], faces)
    mesh.validate()
    # every face must face up (+z): the picture's rows and columns may turn either way on the ground
    for poly in mesh.polygons:
        if poly.normal.z < 0:
            poly.flip()
    uv = mesh.uv_layers.new(name="floor")
    for poly in mesh.polygons:
        for li in poly.loop_indices:
            vi = mesh.loops[li].vertex_index
            uv.data[li].uv = (pix[vi, 0] / w, 1 - pix[vi, 1] / h)
    obj = bpy.data.objects.new("floor", mesh)
    bpy.context.scene.collection.objects.link(obj)
    mat, tree, bsdf = _material("floor")
    _link_image(tree, _image("floor", img[..., ::-1]), bsdf.inputs["Base Color"], extend=True)
    rough = {"wood": (0.3, 0.6), "plain": (0.2, 0.9), "mat": (0.4, 0.9)}.get(kind, (0.75, 1.0))
    bsdf.inputs["Roughness"].default_value = float(rng.uniform(*rough))
    if kind in ("felt", "cloth"):
        bsdf.inputs["Sheen Weight"].default_value = float(rng.uniform(0.2, 0.8))
    obj.data.materials.append(mat)


def _walls(rng: np.random.Generator, cam: Camera, rect: np.ndarray) -> None:
    """Four tray walls standing just outside the floor seen in image rectangle ``rect``."""
    corners = cam.ground(rect[[0, 1, 2, 1, 2, 3, 0, 3]].reshape(4, 2).astype(float))[:, :2] / 1000.0
    height = rng.uniform(0.02, 0.05)
    thick = 0.02
    mat, _, bsdf = _material("wall")
    bsdf.inputs["Base Color"].default_value = (*(np.array(WALLS[int(rng.integers(len(WALLS)))])
                                                 * rng.uniform(0.7, 1.3)), 1.0)
    bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.3, 0.9))
    centre = corners.mean(axis=0)
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        out = (a + b) / 2 - centre
        out /= np.linalg.norm(out)
        along = (b - a) / np.linalg.norm(b - a) * thick  # each wall runs on past the corners
        a, b = a - along, b + along
        base = [a, b, b + out * thick, a + out * thick]
        verts = [(x, y, z) for z in (0.0, height) for x, y in base]
        faces = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
        mesh = bpy.data.meshes.new(f"wall{i}")
        mesh.from_pydata(verts, [], faces)
        obj = bpy.data.objects.new(f"wall{i}", mesh)
        bpy.context.scene.collection.objects.link(obj)
        obj.data.materials.append(mat)


def _lights(rng: np.random.Generator) -> dict:
    """A key area light and, mostly, a fill; a dim room around them. Returns what was drawn."""
    sc = bpy.context.scene
    out = {}
    key_az = rng.uniform(0, 2 * np.pi)
    for name, chance in (("key", 1.0), ("fill", 0.75)):
        if rng.random() >= chance:
            continue
        elev = np.radians(rng.uniform(35, 88) if name == "key" else rng.uniform(30, 70))
        az = key_az if name == "key" else key_az + np.pi + rng.normal(0, 0.8)
        dist = rng.uniform(0.4, 0.9)
        size = rng.uniform(0.15, 0.45) if name == "key" else rng.uniform(0.3, 0.8)
        irradiance = rng.uniform(1.2, 3.2) if name == "key" else rng.uniform(0.2, 0.8)
        pos = dist * np.array([np.cos(elev) * np.cos(az), np.cos(elev) * np.sin(az), np.sin(elev)])
        light = bpy.data.lights.new(name, "AREA")
        light.shape = "DISK" if rng.random() < 0.5 else "SQUARE"
        light.size = float(size)
        light.energy = float(irradiance * dist**2 / (WATT * max(np.sin(elev), 0.3)))
        light.color = tuple(_kelvin(rng.uniform(3500, 7200)) / _kelvin(5500).max())
        obj = bpy.data.objects.new(name, light)
        obj.location = tuple(pos)
        down = -pos / np.linalg.norm(pos)
        obj.rotation_mode = "QUATERNION"
        obj.rotation_quaternion = _quat_to(down)
        sc.collection.objects.link(obj)
        out[name] = {"elevation": float(np.degrees(elev)), "irradiance": float(irradiance)}
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    tone = _kelvin(rng.uniform(3000, 8000))
    bg.inputs["Color"].default_value = (*(tone / tone.max()), 1.0)
    bg.inputs["Strength"].default_value = float(rng.uniform(0.01, 0.15))
    sc.world = world
    return out


def _quat_to(direction: np.ndarray) -> tuple[float, float, float, float]:
    """The rotation (w, x, y, z) taking an object's -z axis (where a light points) to ``direction``."""
    a = np.array([0.0, 0.0, -1.0])
    b = direction / np.linalg.norm(direction)
    c = float(a @ b)
    if c < -0.999999:
        return (0.0, 1.0, 0.0, 0.0)
    v = np.cross(a, b)
    q = np.array([1 + c, *v])
    q /= np.linalg.norm(q)
    return tuple(float(x) for x in q)


def _camera_object(cam: Camera, w: int) -> None:
    """Blender's camera where :class:`render.Camera` ``cam`` is (no lens distortion)."""
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36.0
    data.lens = float(cam.f * 36.0 / w)
    data.clip_start, data.clip_end = 0.01, 10.0
    obj = bpy.data.objects.new("camera", data)
    # render.Camera: x right, y down, z forward; Blender's camera: x right, y up, looking along -z
    rot = cam.R.T @ np.diag([1.0, -1.0, -1.0])
    m = np.eye(4)
    m[:3, :3] = rot
    m[:3, 3] = cam.C / 1000.0
    obj.matrix_world = Matrix([list(map(float, r)) for r in m])
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.scene.camera = obj


@contextlib.contextmanager
def _quiet():
    """Blender's renderer prints a line per tile and sample to the process's stdout: drop them."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(devnull)
        os.close(saved)


def render_scene(
    rng: np.random.Generator,
    designs: list[Design],
    size: tuple[int, int] = (640, 480),
    die_px_range: tuple[float, float] = (22.0, 64.0),
    shuffle: float = 0.0,
    lean: float = 0.1,
    threads: int = 1,
) -> Scene:
    """A path-traced picture of ``designs`` thrown on a random surface, and each die's label: the same
    call and result as :func:`render.render_scene`."""
    w, h = size
    die_px, cam, walls, rect = scene_frame(rng, size, die_px_range)
    cam.k1 = 0.0  # Cycles' perspective camera has no barrel distortion
    floor_img, kind = surface(rng, h, w)
    dice = place_dice(rng, designs, cam, rect, shuffle, lean, walls)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    drawn = _settings(rng, w, h, threads)
    _camera_object(cam, w)
    _floor(floor_img, cam, w, h, kind, rng)
    if walls:
        _walls(rng, cam, rect)
    lights = _lights(rng)
    for k, p in enumerate(dice):
        _die(rng, p, k)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "frame.png")
        bpy.context.scene.render.filepath = path
        with _quiet():
            bpy.ops.render.render(write_still=True)
        img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise RuntimeError("Cycles wrote no picture")
    out = _camera_effects(rng, img.astype(np.float32) / 255.0, w, h)
    labels = [_label(p, cam) for p in dice]
    meta = {
        "renderer": "cycles",
        "surface": kind,
        "walls": walls,
        "lights": lights,
        "camera_height_mm": float(cam.C[2]),
        "tilt_deg": float(np.degrees(np.arccos(-cam.R[2, 2]))),
        "die_px": die_px,
        **drawn,
    }
    return Scene(out, labels, meta)
