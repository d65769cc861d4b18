"""15-05's judge cache (exported programs kept between sessions) is read only from the grader's own folders:
a file or folder another account could write, or a link, is passed over and the program exported again."""
import importlib.util
import json
import os
from pathlib import Path

import pytest

JUDGE = Path(__file__).with_name("15-05") / "judge.py"


@pytest.fixture(scope="module")
def judge():
    spec = importlib.util.spec_from_file_location("_judge_15_05_cache_test", JUDGE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def cache(judge, tmp_path, monkeypatch):
    folder = tmp_path / "gradebook" / ".judge-cache" / "15-05"
    folder.mkdir(parents=True, mode=0o700)
    os.chmod(folder.parent, 0o700)
    monkeypatch.setattr(judge, "_cache_folder", lambda: folder)
    path = folder / "entry.json"
    path.write_text(json.dumps({"ok": 1}))
    os.chmod(path, 0o600)
    return path


def test_the_graders_own_file_is_read(judge, cache):
    assert json.loads(judge._read_trusted(cache)) == {"ok": 1}


@pytest.mark.parametrize("what", ["file", "topic folder", "cache folder", "gradebook"])
def test_anything_another_account_could_write_is_not_read(judge, cache, what):
    target = {"file": cache, "topic folder": cache.parent, "cache folder": cache.parent.parent,
              "gradebook": cache.parent.parent.parent}[what]
    os.chmod(target, os.stat(target).st_mode | 0o002)
    with pytest.raises(PermissionError):
        judge._read_trusted(cache)


def test_a_link_in_place_of_the_file_is_not_followed(judge, cache, tmp_path):
    elsewhere = tmp_path / "planted.json"
    elsewhere.write_text(json.dumps({"forged": 1}))
    cache.unlink()
    cache.symlink_to(elsewhere)
    with pytest.raises(OSError):
        judge._read_trusted(cache)
