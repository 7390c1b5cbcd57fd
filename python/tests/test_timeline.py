"""`gpsimd run --timeline`: the picture of a run of queues (docs/cli.md).

The SVG parses as XML, has one lane per engine, names every issued word (and each
blocked head of a deadlock) in a box of its engine's lane, draws the acquires as arrows,
and marks a race's two words and a deadlock's blocked heads in red.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import xml.etree.ElementTree as ET

import gpsimd

ROOT = pathlib.Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
RED = "#c00000"


def _cli():
    cli = os.environ.get("GPSIMD_CLI")
    if cli is None:  # the build tree's tool, next to the module
        cli = pathlib.Path(gpsimd.__file__).resolve().parents[2] / "tools" / "gpsimd"
    return str(cli)


def timeline(tmp_path, example, name="t.svg", status=0):
    out = tmp_path / name
    r = subprocess.run([_cli(), "run", f"examples/{example}.gpsimd", "--no-write",
                        "--timeline", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == status, r.stdout + r.stderr
    return out


def svg_root(path):
    text = path.read_text()
    if path.suffix == ".html":
        assert text.startswith("<!DOCTYPE html>")
        text = text[text.index("<svg"):text.index("</svg>") + len("</svg>")]
    return ET.fromstring(text)


def groups(root, cls):
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


def label(g):
    return g.find(f"{SVG}text").text


def lane_of(root, g):
    """The engine whose lane holds a word's box (by the box's y)."""
    y = float(g.find(f"{SVG}rect").get("y"))
    for lane in groups(root, "lane"):
        r = lane.find(f"{SVG}rect")
        if float(r.get("y")) <= y < float(r.get("y")) + float(r.get("height")):
            return lane.get("id").removeprefix("lane-")
    raise AssertionError(f"box at y={y} is in no lane")


def test_producer_consumer(tmp_path):
    root = svg_root(timeline(tmp_path, "producer_consumer"))
    assert [g.get("id") for g in groups(root, "lane")] == ["lane-dve", "lane-pool", "lane-act"]
    words = groups(root, "word")
    # Every word, in schedule order (left to right), in its engine's lane.
    assert [label(g) for g in words] == ["pool:0 Iota", "dve:0 Max8"]
    xs = [float(g.find(f"{SVG}rect").get("x")) for g in words]
    assert xs == sorted(xs) and xs[0] < xs[1]
    assert [lane_of(root, g) for g in words] == ["pool", "dve"]
    # Each box's title is the word's file line and its assembly.
    assert words[1].find(f"{SVG}title").text.startswith(
        "examples/producer_consumer.gpsimd:18: Max8 ")
    # The wait of dve:0 acquired pool:0's update of semaphore 1: one arrow, nothing red.
    arrows = groups(root, "acquire")
    assert len(arrows) == 1
    assert arrows[0].find(f"{SVG}title").text.startswith("sem[1]: pool:0 updates it, dve:0")
    assert arrows[0].find(f"{SVG}line").get("marker-end") == "url(#arrow)"
    assert not groups(root, "race")
    assert all(e.get("stroke") != RED for e in root.iter(f"{SVG}rect"))


def test_race_is_marked(tmp_path):
    root = svg_root(timeline(tmp_path, "race", status=4))
    words = groups(root, "word")
    assert [label(g) for g in words] == ["dve:0 Max8", "pool:0 Iota"]
    racy = groups(root, "race")
    # Both words of the race in red, with their access, and the line between them.
    boxes = [g for g in racy if g.tag == f"{SVG}g" and "word" in g.get("class")]
    assert [label(g) for g in boxes] == ["dve:0 Max8", "pool:0 Iota"]
    for g, access in zip(boxes, ["read", "write"]):
        assert g.find(f"{SVG}rect").get("stroke") == RED
        assert [t.text for t in g.findall(f"{SVG}text")][1] == f"race: {access}"
    line = [g for g in racy if g.get("class") == "race"]
    assert len(line) == 1
    assert line[0].find(f"{SVG}line").get("stroke") == RED
    assert "race at sbuf[p=0] +0x100" in line[0].find(f"{SVG}title").text
    assert "race at sbuf[p=0] +0x100" in root.find(f"{SVG}title").text


def test_deadlock_html(tmp_path):
    root = svg_root(timeline(tmp_path, "deadlock", "t.html", status=3))
    # Nothing issued; the two blocked heads, dashed red, in their lanes.
    blocked = groups(root, "blocked")
    assert [label(g) for g in blocked] == ["dve:0 Max8", "pool:0 Iota"]
    assert [lane_of(root, g) for g in blocked] == ["dve", "pool"]
    for g in blocked:
        assert g.find(f"{SVG}rect").get("stroke") == RED
        assert g.find(f"{SVG}rect").get("stroke-dasharray")
    assert "waits GE sem[2] >= 1, sem[2] = 0" in blocked[0].find(f"{SVG}title").text
    assert "deadlock" in root.find(f"{SVG}title").text
