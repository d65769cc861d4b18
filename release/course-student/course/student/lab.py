"""A Jupyter server extension for the student's JupyterLab: Validate no longer freezes the server, and
the kernels are out of classmates' reach.

nbgrader's Validate handler runs the whole notebook inside the server's request handler, so every
other request (saving, the file browser, the kernels) waits until it ends: 40 s on a runaway cell.
Here the same validation runs in a worker thread and the handler awaits it. The kernels talk over
Unix sockets in a private folder and keep torch.compile's cache in a private one (``private``: on a
shared machine the defaults let a classmate read every cell or plant compiled code). Enabled by the
student kit's ``jupyter_server_config.json``.
"""
from __future__ import annotations

import asyncio
import json


def _jupyter_server_extension_points():
    return [{"module": "course.student.lab"}]


def _load_jupyter_server_extension(serverapp) -> None:
    from nbgrader.server_extensions.validate_assignment.handlers import ValidateAssignmentHandler
    from tornado import web

    from .private import kernels_on_private_sockets, private_torch_cache

    kernels_on_private_sockets(serverapp.kernel_manager)
    private_torch_cache()
    if getattr(ValidateAssignmentHandler, "_course_threaded", False):
        return

    @web.authenticated
    async def post(self):
        try:
            path = self.get_argument("path")
        except web.MissingArgumentError:
            path = self.get_json_body()["path"]
        result = await asyncio.get_running_loop().run_in_executor(None, self.validate_notebook, path)
        self.finish(json.dumps(result))

    ValidateAssignmentHandler.post = post
    ValidateAssignmentHandler._course_threaded = True
    serverapp.log.info("course.student.lab: Validate runs beside the server, not inside it")
