"""Publish the app to a Hugging Face Space: only what `python app.py` needs, binaries in the Hub's large-file storage.

    python -m scripts.publish_space --dry-run                # the files it would send, and checks; no network
    python -m scripts.publish_space OWNER/SPACE              # needs a write token (HF_TOKEN or `hf auth login`)

A git push of this repository is refused by the Hub: its history holds safetensors and PNGs as plain git blobs
("Your push was rejected because it contains binary files"). huggingface_hub's `upload_folder` sends files over
HTTP instead and stores each one the way the Space's `.gitattributes` says, so that file goes first
(scripts/space.gitattributes, plus a line for any file of 10 MB or more or any binary of a kind it does not
name), then the app's files in one commit; files on the Space that are no longer sent are deleted.

Sent: the files git tracks that match ALLOW and not IGNORE (app.py, ui/, explorer/, models/, assets/ without
training logs, requirements.txt, README.md with its Space header, LICENSE, and docs/*.md with their figures, which
the README links to). Not sent: tests, bench, scripts, run logs (docs/training-runs), anything untracked (a
checkpoint being trained, __pycache__).

requirements.txt goes with one line more, `--extra-index-url` of PyTorch's CPU wheels: a Space on CPU hardware
then installs torch's CPU build (~200 MB) instead of PyPI's default with its CUDA libraries (several GB) that
it could not use. The repository's own file stays as it is: a local install reads PyPI alone.
"""
from __future__ import annotations

import argparse
import fnmatch
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GITATTRIBUTES = Path(__file__).resolve().parent / "space.gitattributes"
ALLOW = ["app.py", "requirements.txt", "README.md", "LICENSE", "ui/*", "explorer/*", "models/*", "assets/*",
         "docs/*.md", "docs/figures/*"]  # docs: the pages the README (the Space card) links to
IGNORE = ["*/__pycache__/*", "*.pyc", "*.sh", "*train_log*.jsonl", "assets/training-runs/*", "docs/training-runs/*", "*.log",
          "*/.DS_Store"]
LFS_MIN_BYTES = 10 * 1024 * 1024  # the Hub keeps plain git files under 10 MB
CPU_TORCH_INDEX = "https://download.pytorch.org/whl/cpu"


def space_requirements(text: str) -> str:
    """requirements.txt as the Space gets it: PyTorch's CPU index first, every requirement line kept."""
    return (f"# on the Space: torch's CPU build (scripts/publish_space.py adds this line)\n"
            f"--extra-index-url {CPU_TORCH_INDEX}\n{text}")


REWRITE = {"requirements.txt": space_requirements}  # files the Space gets other than the repository holds them


def rewritten(path: str, root: Path = ROOT) -> bytes:
    """A REWRITE file's bytes as the Space gets them (what `plan` counts and `stage` writes)."""
    return REWRITE[path]((root / path).read_text(encoding="utf-8")).encode("utf-8")


def tracked_files(root: Path = ROOT) -> list[str]:
    """The files git tracks under root that exist in the working tree (a walk of the tree when git is missing)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
        names = [n for n in out.decode("utf-8").split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts]
    return sorted(n for n in names if (root / n).is_file())


def space_files(root: Path = ROOT) -> list[str]:
    """The repository paths the Space gets (besides .gitattributes), as huggingface_hub filters them."""
    from huggingface_hub.utils import filter_repo_objects

    return sorted(filter_repo_objects(tracked_files(root), allow_patterns=ALLOW, ignore_patterns=IGNORE))


def lfs_patterns(text: str) -> list[str]:
    """The patterns of a .gitattributes text whose files go to LFS (filter=lfs)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if parts and not parts[0].startswith("#") and "filter=lfs" in parts[1:]:
            out.append(parts[0])
    return out


def covered(path: str, patterns: list[str]) -> bool:
    """Whether a .gitattributes pattern matches path: one without a slash matches the file name at any depth, one
    with a slash the whole path from the root (gitignore rules; '**' as fnmatch's '*')."""
    name = path.rsplit("/", 1)[-1]
    for p in patterns:
        if "/" not in p.rstrip("/"):
            if fnmatch.fnmatchcase(name, p):
                return True
        elif fnmatch.fnmatchcase(path, p.lstrip("/").replace("**/", "*").replace("/**", "/*")):
            return True
    return False


def is_binary(path: Path) -> bool:
    """A NUL byte or bytes that are not UTF-8 in the first 8 KB: the Hub's test for a binary file."""
    head = path.read_bytes()[:8192]
    if b"\0" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start < len(head) - 4  # a multi-byte character cut at the 8 KB mark is still text
    return False


def needs_lfs(path: Path) -> bool:
    return is_binary(path) or path.stat().st_size >= LFS_MIN_BYTES


def gitattributes(files: list[str], root: Path = ROOT) -> str:
    """The Space's .gitattributes: scripts/space.gitattributes, plus the exact path of every file that needs LFS
    and that its patterns miss."""
    text = GITATTRIBUTES.read_text(encoding="utf-8")
    patterns = lfs_patterns(text)
    extra = [f for f in files if needs_lfs(root / f) and not covered(f, patterns)]
    if extra:
        text += "# files that need LFS and match no pattern above (added by scripts/publish_space.py)\n"
        text += "".join(f"/{f} filter=lfs diff=lfs merge=lfs -text\n" for f in extra)
    return text


def plan(root: Path = ROOT) -> list[tuple[str, int, bool]]:
    """(path on the Space, bytes, stored in LFS) for every file sent, .gitattributes first."""
    files = space_files(root)
    attrs = gitattributes(files, root)
    patterns = lfs_patterns(attrs)
    size = lambda f: len(rewritten(f, root)) if f in REWRITE else (root / f).stat().st_size  # noqa: E731
    return [(".gitattributes", len(attrs.encode("utf-8")), False)] + [(f, size(f), covered(f, patterns)) for f in files]


def stage(files: list[str], dest: Path, root: Path = ROOT) -> Path:
    """The files as the Space gets them, in dest: each one linked (copied where a link cannot be made),
    the files of REWRITE as `rewritten` gives them."""
    for f in files:
        out = dest / f
        out.parent.mkdir(parents=True, exist_ok=True)
        if f in REWRITE:
            out.write_bytes(rewritten(f, root))
            continue
        try:
            out.hardlink_to(root / f)
        except OSError:
            shutil.copy2(root / f, out)
    return dest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Publish the app to a Hugging Face Space (files over HTTP; binaries "
                                             "in LFS).")
    ap.add_argument("repo_id", nargs="?", help="the Space, OWNER/NAME (not needed with --dry-run)")
    ap.add_argument("--dry-run", action="store_true", help="print the files it would send and check them; no network")
    ap.add_argument("--private", action="store_true", help="create the Space private (when it does not exist)")
    ap.add_argument("--message", default="Publish Attention Explorer", help="commit message on the Space")
    args = ap.parse_args(argv)
    if not args.repo_id and not args.dry_run:
        ap.error("the Space to publish to, OWNER/NAME, is needed (or --dry-run for the file list)")
    rows = plan()
    for path, size, lfs in rows:
        print(f"{'LFS ' if lfs else '    '}{size:>12,}  {path}")
    print(f"{len(rows)} files, {sum(s for _, s, _ in rows) / 1e6:.1f} MB ({sum(lfs for *_, lfs in rows)} in LFS)")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    if not readme.startswith("---\n") or "\nsdk: gradio" not in readme.split("\n---", 1)[0]:
        print("README.md lacks the Space header (--- sdk: gradio, app_file: app.py ... ---)", file=sys.stderr)
        return 1
    if args.dry_run:
        return 0
    from huggingface_hub import HfApi

    api = HfApi()
    api.create_repo(args.repo_id, repo_type="space", space_sdk="gradio", private=args.private, exist_ok=True)
    api.upload_file(path_or_fileobj=gitattributes(space_files()).encode("utf-8"), path_in_repo=".gitattributes",
                    repo_id=args.repo_id, repo_type="space", commit_message="LFS rules for binaries")
    files = [p for p, _, _ in rows[1:]]
    with tempfile.TemporaryDirectory() as tmp:
        api.upload_folder(folder_path=stage(files, Path(tmp)), repo_id=args.repo_id, repo_type="space",
                          commit_message=args.message, allow_patterns=files, delete_patterns="*")
    print(f"https://huggingface.co/spaces/{args.repo_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
