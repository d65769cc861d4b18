"""The two ways a sandbox is made, for the isolation tests: bubblewrap (``bwrap_argv``) and a child of a
template (``course/sandbox/template.py``, root only). A test module that imports ``launcher`` runs each of
its tests both ways: under "template", ``sandbox.bwrap_argv`` gives a prefix that runs the command in a
child of one template made for the module (``template.argv``), so the same assertions hold for both."""
import pytest

from course import sandbox
from course.sandbox import template

WHY_NOT = template.usable()


@pytest.fixture(scope="module")
def _template():
    if WHY_NOT:
        yield None
        return
    t = template.Template()
    yield t
    t.close()


@pytest.fixture(params=["bwrap", "template"])
def launcher(request, _template, monkeypatch):
    if request.param == "template":
        if _template is None:
            pytest.skip(f"no template here: {WHY_NOT}")
        monkeypatch.setattr(sandbox, "bwrap_argv", lambda **kw: template.argv(_template.path, **kw))
    return request.param


def bwrap_only(launcher):
    """For a test that reads bubblewrap's own command line."""
    if launcher != "bwrap":
        pytest.skip("reads bubblewrap's command line")


@pytest.fixture(params=["bwrap", "template"])
def kernel_launcher(request, monkeypatch):
    """For a test that grades through the kernel launcher or the judge's zygote: under "template" they ask
    the module's template for their sandbox (COURSE_SANDBOX_TEMPLATE, COURSE_TEMPLATE_SOCKET), as the runner's
    commands do."""
    if request.param == "bwrap":
        monkeypatch.setenv("COURSE_SANDBOX_TEMPLATE", "0")  # the default as root is the template
    if request.param == "template":
        if WHY_NOT:
            pytest.skip(f"no template here: {WHY_NOT}")
        _template = request.getfixturevalue("_template")
        monkeypatch.setenv("COURSE_SANDBOX_TEMPLATE", "1")
        for k, v in _template.env().items():
            monkeypatch.setenv(k, v)
    return request.param
