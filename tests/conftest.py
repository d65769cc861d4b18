# Every hidden suite talks to submissions through course.pytest_plugin
# (fixtures `student` and `gen`, markers `task` and `gpu`).
from pathlib import Path

import pytest

pytest_plugins = ["course.pytest_plugin"]

HERE = Path(__file__).parent
# Under `pytest -n N --dist loadgroup` (make test), the longest groups go out first.
LONGEST_FIRST = ["test_round_trip", "test_hostile", "submissions-15-10", "submissions-15-07", "submissions-15-04"]


def _group(item) -> str:
    mark = item.get_closest_marker("xdist_group")
    if mark:
        return mark.args[0] if mark.args else mark.kwargs.get("name", "")
    rel = Path(item.path).resolve().relative_to(HERE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem  # a topic's suite shares one worker


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if not getattr(config.option, "loadgroup", False):  # set on xdist workers under --dist loadgroup
        return
    for it in items:
        if not it.get_closest_marker("xdist_group"):
            it.add_marker(pytest.mark.xdist_group(_group(it)))
    rank = {g: i for i, g in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda it: rank.get(_group(it), len(rank)))  # stable: file order otherwise
