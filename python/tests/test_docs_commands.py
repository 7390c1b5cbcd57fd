"""The README's Python example works after either README command, and every documented
command that runs Python names an interpreter that has NumPy."""

import os
import pathlib
import re
import shlex
import subprocess

import gpsimd

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def shell_blocks(path):
    """Yield the lines of the ```sh blocks of a Markdown file."""
    inside = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh" if not inside else False
            continue
        if inside:
            yield line


def test_the_readme_python_example_prints_its_comment():
    text = (ROOT / "README.md").read_text()
    match = re.search(r'PYTHONPATH=build/release/python /usr/bin/python3 -c "\n(.*?)"\s+# (.*?)\n',
                      text, re.S)
    assert match, "the README's Python example is missing"
    code, expected = match.groups()
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(gpsimd.__file__).parents[1]))
    out = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True,
                         env=env, check=True, cwd=ROOT)
    assert out.stdout.strip() == expected.strip()


def test_demo_builds_the_python_module():
    # The README's first command is scripts/demo.sh: after it, `import gpsimd` must work.
    script = (ROOT / "scripts" / "demo.sh").read_text()
    builds = [shlex.split(line) for line in script.splitlines()
              if line.startswith("cmake --build")]
    assert builds, "demo.sh builds nothing"
    targets = set()
    for argv in builds:
        targets.update(argv[argv.index("--target") + 1:] if "--target" in argv else ["all"])
    assert {"gpsimd", "gpsimd_python"} <= targets or "all" in targets


def test_documented_python_commands_name_an_interpreter_with_numpy():
    bad = []
    for path in DOCS:
        for line in shell_blocks(path):
            for command in re.split(r"&&|\|\||;|\|", line.split(" #")[0]):
                words = [w for w in command.split() if "=" not in w]  # skip VAR=value
                if not words:
                    continue
                word = words[0]
                if re.fullmatch(r"python3?(\.\d+)?", word.rsplit("/", 1)[-1]):
                    # Debian's interpreter, or a virtual environment's bin/python.
                    if word != "/usr/bin/python3" and not re.search(r"(^|/)bin/python3?$", word):
                        bad.append(f"{path.name}: {line.strip()}")
    assert not bad, bad
