/* The course's JupyterLab plugin for students, written by hand as a prebuilt extension (no build step).
 *
 * nbgrader's Validate dialog says "Success! Your notebook passes all the tests." when the visible
 * checks pass; its text is fixed in nbgrader's own bundle, and the server's reply carries no message.
 * Validate runs only the visible checks (the hidden tests run when the work is graded), so this plugin
 * rewrites that one line as the dialog opens. Failures and errors are shown as nbgrader shows them.
 *
 * JupyterLab loads this file as a module-federation container (window._JUPYTERLAB[name] with init and
 * get, see jupyterlab's bootstrap) and activates the plugin that "./extension" exports. It needs no
 * shared package. Installed by pip with course-student into share/jupyter/labextensions/.
 */
(function () {
  "use strict";
  var NAME = "course-student-validate";
  var MESSAGE = "Success! The visible checks pass. Hidden tests run when your work is graded.";
  var SUCCESS = "#validation-message.validation-success";  // nbgrader's success dialog body

  function relabel(node) {
    if (node.nodeType !== 1) {
      return;
    }
    var bodies = Array.prototype.slice.call(node.querySelectorAll(SUCCESS));
    if (node.matches(SUCCESS)) {
      bodies.push(node);
    }
    bodies.forEach(function (body) {
      body.querySelectorAll("p").forEach(function (p) {
        if (/^Success!/.test(p.innerText || p.textContent)) {
          p.textContent = MESSAGE;
        }
      });
    });
  }

  var plugin = {
    id: NAME + ":validate-message",
    description: "Validate's success dialog says that only the visible checks ran.",
    autoStart: true,
    activate: function () {
      new MutationObserver(function (records) {
        records.forEach(function (r) {
          r.addedNodes.forEach(relabel);
        });
      }).observe(document.body, { childList: true, subtree: true });
    }
  };

  var containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers[NAME] = {
    init: function () {
      return Promise.resolve();
    },
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error(NAME + " has no module " + module));
      }
      return Promise.resolve(function () {
        return { __esModule: true, default: plugin };
      });
    }
  };
})();
