#!/usr/bin/env python3
"""The sandbox in a real browser (issue 21, R-WEB-2).

Serves the folder `web/build.sh` wrote on 127.0.0.1, opens it in headless Chromium
(software WebGL2 through SwiftShader) and checks what a visitor would see:

1. the first scene is drawn: the bar at the top (egui's panel fill with lighter text on it)
   and the mixed pile's bodies in their material colours on the world's fill, not a blank
   or black canvas;
2. a click on empty space spawns the palette's body (a rubber disc, radius 20 px): a box
   around the click that was only the world's fill in two screenshots before the click has
   a rubber-red disc in it after;
3. a touch on empty space spawns one too;
4. with `?bench=N` (`--bench N`) it loads the stress scene, waits for the sandbox's report on
   the browser console and prints it (ms per step, in this browser).

Usage: test.py <dist folder> [--bench N] [--seconds S] [--shots DIR]
Needs Debian's chromium, chromium-driver, python3-selenium and python3-pil (`web/test.sh`
installs them). Exits non-zero with a message on the first failed check.
"""

import argparse
import functools
import http.server
import io
import math
import sys
import threading
import time
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By

# Colours from examples/sandbox/look.rs (sRGB, 0..255): the world behind the bodies and the
# four materials' fills, awake (the pile is awake in its first seconds).
WORLD_FILL = (36, 38, 46)  # look::WORLD_FILL = srgb(0.14, 0.15, 0.18)
MATERIALS = {
    "rubber": (230, 82, 97),  # srgb(0.90, 0.32, 0.38)
    "wood": (209, 158, 92),  # srgb(0.82, 0.62, 0.36)
    "steel": (133, 153, 189),  # srgb(0.52, 0.60, 0.74)
    "ice": (163, 230, 250),  # srgb(0.64, 0.90, 0.98)
}
# Per channel: the WebGL rasteriser, sRGB conversion and anti-aliased edges move a colour by
# a few units; 12 keeps the four materials and the fill apart (their nearest pair, steel and
# ice, differ by 30 or more in every channel).
TOLERANCE = 12
# The palette's default body (tools.rs `Palette::default`): a rubber circle of radius 20 px.
SPAWN_RADIUS = 20
WINDOW = (1600, 900)


def fail(message):
    print(f"web test: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def near(pixel, colour, tolerance=TOLERANCE):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour))


def count(image, colour, box=None):
    """Pixels of `colour` in `box` (left, top, right, bottom) or the whole image."""
    region = image.crop(box) if box else image
    return sum(1 for p in region.getdata() if near(p, colour))


def serve(folder):
    """A static server for `folder` on 127.0.0.1, any free port; returns its URL."""
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".wasm": "application/wasm",
            ".js": "text/javascript",
        }

        def log_message(self, *args):
            pass

    handler = functools.partial(Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def browser():
    options = webdriver.ChromeOptions()
    for flag in [
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        "--force-device-scale-factor=1",
        # WebGL2 on the CPU: ANGLE over SwiftShader, allowed explicitly since Chromium 137.
        "--use-gl=angle",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        "--ignore-gpu-blocklist",
        # Frames keep coming while nobody looks at the headless page.
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
    ]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = ChromeService(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


class Console:
    """The browser console's lines so far (Chromium hands each line out once)."""

    def __init__(self, driver):
        self.driver = driver
        self.lines = []

    def read(self):
        for entry in self.driver.get_log("browser"):
            self.lines.append(entry["message"])
        return self.lines

    def errors(self):
        return [l for l in self.read() if "panicked" in l or "RuntimeError" in l]


def screenshot(driver, shots, name):
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    if shots:
        image.save(Path(shots) / f"{name}.png")
    return image


def wait_for_scene(driver, console, shots, timeout=180):
    """Screenshots until the bar and the pile are drawn; returns the last screenshot."""
    start = time.time()
    while True:
        if console.errors():
            fail("the sandbox panicked:\n" + "\n".join(console.errors()))
        image = screenshot(driver, shots, "first-frames")
        bodies = {m: count(image, c) for m, c in MATERIALS.items()}
        drawn = sum(1 for n in bodies.values() if n > 200)
        if drawn >= 3 and count(image, WORLD_FILL) > 0.2 * image.width * image.height:
            print(f"web test: first scene drawn after {time.time() - start:.0f} s: "
                  f"material pixels {bodies}")
            return image
        if time.time() - start > timeout:
            fail(f"no scene after {timeout} s: material pixels {bodies}; console:\n"
                 + "\n".join(console.read()[-20:]))
        time.sleep(2)


def check_bar(image):
    """The bar: the top 24 rows are egui's panel fill (darker than the world, not the world's
    colour) with lighter text and widgets on it."""
    band = image.crop((0, 0, image.width, 24))
    pixels = list(band.getdata())
    dark = sum(1 for p in pixels if max(p) < 60 and not near(p, WORLD_FILL, 4))
    light = sum(1 for p in pixels if min(p) > 120)
    if dark < 0.5 * len(pixels) or light < 200:
        fail(f"no bar at the top: {dark} dark and {light} light pixels of {len(pixels)}")
    print(f"web test: the bar is drawn ({light} text pixels on {dark} panel pixels)")


def empty_spot(before, after, size):
    """The centre of a square of `size` px that is only the world's fill in both
    screenshots, as high up as possible (bodies fall: space above the pile stays empty)."""
    step = 20
    for y in range(120, before.height // 2, step):
        for x in range(before.width // 3, 2 * before.width // 3, step):
            box = (x - size // 2, y - size // 2, x + size // 2, y + size // 2)
            area = size * size
            if count(before, WORLD_FILL, box) == area and count(after, WORLD_FILL, box) == area:
                return x, y
    fail("no empty space above the pile to click on")


def spawn_check(driver, console, shots, how, tap):
    """Taps (mouse or touch) on empty space and checks a rubber disc appears there."""
    # A box wide enough for the disc and tall enough for its fall until the screenshot.
    size = 6 * SPAWN_RADIUS
    first = screenshot(driver, shots, f"{how}-before-1")
    time.sleep(1.0)
    second = screenshot(driver, shots, f"{how}-before-2")
    x, y = empty_spot(first, second, size)
    tap(x, y)
    time.sleep(0.3)
    after = screenshot(driver, shots, f"{how}-after")
    box = (x - size // 2, y - size // 2, x + size // 2, y + size // 2 + 2 * size)
    rubber = count(after, MATERIALS["rubber"], box)
    was = count(second, MATERIALS["rubber"], box)
    # The disc's fill without its darker rim and radius line: about π (0.86 r)² ≈ 930 px.
    expected = math.pi * (0.86 * SPAWN_RADIUS) ** 2
    if rubber - was < 0.5 * expected:
        fail(f"a {how} at ({x}, {y}) spawned no body: {was} → {rubber} rubber pixels, "
             f"expected about {expected:.0f} more")
    print(f"web test: a {how} on empty space at ({x}, {y}) spawned a body "
          f"({was} → {rubber} rubber pixels, a disc's fill is about {expected:.0f})")
    if console.errors():
        fail("the sandbox panicked:\n" + "\n".join(console.errors()))


def mouse_click(driver):
    def click(x, y):
        actions = ActionBuilder(driver)
        actions.pointer_action.move_to_location(x, y).pointer_down().pointer_up()
        actions.perform()
    return click


def touch_tap(driver):
    def tap(x, y):
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(driver, mouse=finger)
        actions.pointer_action.move_to_location(x, y).pointer_down().pause(0.1).pointer_up()
        actions.perform()
    return tap


def bench(driver, console, url, bodies, seconds):
    driver.get(f"{url}?bench={bodies}&seconds={seconds}")
    start = time.time()
    while time.time() - start < 240 + seconds:
        lines = [l for l in console.read() if "bench:" in l]
        if console.errors():
            fail("the bench panicked:\n" + "\n".join(console.errors()))
        if any("CPU time per frame" in l for l in lines):
            for line in lines:
                # Chromium's console lines read `<url> <line>:<col> "<text>"`.
                print("web test:", line.split('"', 1)[-1].rstrip('"').replace("\\u003C", "<"))
            return
        time.sleep(2)
    fail("the bench printed no report; console:\n" + "\n".join(console.read()[-20:]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dist")
    parser.add_argument("--bench", type=int, default=0)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--shots", default=None)
    args = parser.parse_args()
    for name in ["index.html", "sandbox.js", "sandbox_bg.wasm"]:
        if not (Path(args.dist) / name).is_file():
            fail(f"{args.dist}/{name} is missing: run web/build.sh first")
    if args.shots:
        Path(args.shots).mkdir(parents=True, exist_ok=True)

    url = serve(args.dist)
    driver = browser()
    try:
        console = Console(driver)
        driver.get(url)
        canvas = driver.find_element(By.ID, "sandbox")
        first = wait_for_scene(driver, console, args.shots)
        size = (canvas.size["width"], canvas.size["height"])
        if abs(size[0] - first.width) > 2 or abs(size[1] - first.height) > 2:
            fail(f"the canvas is {size}, the page {first.size}: it does not fill the page")
        check_bar(first)
        spawn_check(driver, console, args.shots, "click", mouse_click(driver))
        spawn_check(driver, console, args.shots, "touch", touch_tap(driver))
        if args.bench:
            bench(driver, console, url, args.bench, args.seconds)
    finally:
        driver.quit()
    print("web test: passed")


if __name__ == "__main__":
    main()
