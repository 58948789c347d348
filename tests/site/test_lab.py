"""The chapters in a real JupyterLab, with a real kernel, driven in Chromium as a student would.

The test starts JupyterLab on 127.0.0.1 (a random token, no browser, its own settings, workspace,
config and runtime folders, all temporary) on a temporary copy of ``chapters/``, with the student
editions (``tools/make_notebooks.py``: no solutions, teaching notes or declarations, outputs cleared)
in its ``student/`` folder, and drives it with Playwright in Debian's headless Chromium. Students run
the student editions (the website's download, Colab), so those are the notebooks this test runs. For
every chapter's student edition it checks that

* opening the notebook leaves it unmodified (no dirty indicator once the kernel is ready: the stored
  kernelspec and language_info are those the kernel reports);
* the course's MyST renders (jupyterlab-myst): no raw ``{prf:...}`` or ``:::{exercise}`` text;
* Run All ends with no error output in any cell and nothing in the log console: the cells left to the
  student (an answer cell's ``...``) do not break the cells after them;
* every answer cell, still unanswered, prints the check's feedback (``No answer yet: ...``, or for a
  function left as ``...`` that it returned None), not an error nor a check that failed;
* every slider of every explorer, moved with the keyboard (focus, ArrowRight), redraws its figure
  (the image changes; the test waits up to 30 s, a limit for a hung kernel, not a performance
  target: `make bench` measures the latency) and shows no error in the explorer;

Run All, then every slider, in a fresh kernel; then, in the chapters of :data:`SECOND_RUN`, the same
again over the first run's live explorers (the old widgets' messages still arriving while the new
ones start), which is where races between slider messages show up. Those chapters draw explorers of
each of the library's three modules (geometry, perceptron, logistic), two explorers each, so that
two explorers' messages interleave; the race is the engine's, which every explorer shares.

The instructor chapters (``chapters/``, with solutions and stored outputs) are only opened: each must
open unmodified with its MyST rendered. Their Run All is proven elsewhere, in a kernel without a
browser: nbval runs every chapter against its stored outputs (``make nbval``, and in the rebuilt
Binder environment, ``tests/site/test_binder.py``), and the website's build executes them.

No request may leave 127.0.0.1. The redraw latencies are written to ``_build/lab_latency.json`` (by
chapter file name). Without Chromium the test skips with a message, except when
``LINCOURSE_REQUIRE_BROWSER`` is set (CI), where it fails.
"""

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from _site import CHROMIUM, ROOT

CHAPTERS = sorted(p.name for p in (ROOT / "chapters").glob("*.ipynb"))
#: The chapters run a second time, over the first run's live explorers (the others run once).
SECOND_RUN = ("02_signed_distance.ipynb", "05_perceptron.ipynb", "07_logistic_model.ipynb")
REDRAW_MS = 30000   # how long to wait for a redraw before calling it hung (not a timing target)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium not found: install Debian's chromium "
                                "package (apt-get install chromium) to run the JupyterLab test")

# User settings of the temporary JupyterLab: every cell in the page (no virtual scrolling, so that
# every output and slider can be inspected), no news or update checks (they would go online).
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                        "checkForUpdates": False},
}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_student_editions(folder):
    """The student editions, as ``make notebooks`` writes them (the chapters are the instructor's)."""
    import nbformat

    from make_notebooks import student_edition   # tools/ is on pytest's pythonpath (pyproject.toml)
    folder.mkdir()
    for name in CHAPTERS:
        nb = nbformat.read(ROOT / "chapters" / name, as_version=4)
        nbformat.write(student_edition(nb), folder / name)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    pytest.importorskip("jupyterlab")
    tmp = tmp_path_factory.mktemp("lab")
    notebooks = tmp / "chapters"
    shutil.copytree(ROOT / "chapters", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    _write_student_editions(notebooks / "student")
    settings = tmp / "settings"
    for name, values in SETTINGS.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    for d in ("workspaces", "config", "ipython"):
        (tmp / d).mkdir()
    # JupyterLab's debugger asks each new kernel for its state, in requests sent at times of its own
    # choosing; a notebook closed while one is unanswered logs "Could not restore the debugger state" as a
    # console error (seen in CI even after waiting for the replies counted so far). The debugger is
    # JupyterLab's, not the course's: it is switched off here, so that every console error is one of ours.
    (tmp / "config" / "labconfig").mkdir()
    (tmp / "config" / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/debugger-extension": True}}))
    # The kernels talk over local sockets in the runtime directory, not TCP ports (another test step
    # running beside this one could take a kernel's port before it binds it); a short path, since a
    # socket's path is limited to about 100 characters.
    runtime = Path(tempfile.mkdtemp(prefix="lab-"))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(runtime),
               IPYTHONDIR=str(tmp / "ipython"), MPLBACKEND="agg", LINCOURSE_EXPLORER_MODE="widget",
               JUPYTER_PLATFORM_DIRS="1")
    log = open(tmp / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={notebooks}", f"--LabApp.user_settings_dir={settings}",
         f"--LabApp.workspaces_dir={tmp / 'workspaces'}", "--LabApp.expose_app_in_browser=True",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly", "--LabApp.news_url=None", "--KernelManager.transport=ipc",
         "--allow-root"],
        cwd=notebooks, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
                break
            except OSError:
                if server.poll() is not None:
                    pytest.fail(f"JupyterLab exited:\n{(tmp / 'server.log').read_text()[-3000:]}")
                time.sleep(0.1)
        else:
            pytest.fail(f"JupyterLab did not start:\n{(tmp / 'server.log').read_text()[-3000:]}")
        yield {"base": base, "token": token, "dir": notebooks, "log": tmp / "server.log"}
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture(scope="module")
def latencies():
    results = {}
    yield results
    out = ROOT / "_build" / "lab_latency.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


# JavaScript run in the page. `jupyterapp` is exposed by --LabApp.expose_app_in_browser.
NOTEBOOK = "jupyterapp.shell.currentWidget"
KERNEL_READY = f"""() => {{
    const w = {NOTEBOOK};
    if (!w || !w.sessionContext || !w.context || !w.context.isReady) return false;
    const k = w.sessionContext.session && w.sessionContext.session.kernel;
    return !!k && k.status === 'idle' && w.sessionContext.kernelDisplayStatus === 'idle'
        && !!w.model.getMetadata('language_info');
}}"""
DIRTY = f"() => {NOTEBOOK}.context.model.dirty"
# True once the notebook's kernelspec and language_info are those the kernel reports (key order aside).
KERNEL_METADATA_MERGED = f"""async () => {{
    const w = {NOTEBOOK};
    const kernel = w.sessionContext.session.kernel;
    const [info, spec] = await Promise.all([kernel.info, kernel.spec]);
    const canon = v => v && typeof v === 'object' && !Array.isArray(v)
        ? '{{' + Object.keys(v).sort().map(k => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}}'
        : JSON.stringify(v);
    const same = (a, b) => canon(a) === canon(b);
    return same(w.model.getMetadata('language_info'), info.language_info)
        && same(w.model.getMetadata('kernelspec'),
                {{display_name: spec.display_name, language: spec.language, name: spec.name}});
}}"""
RUN_DONE = f"""() => {{
    const w = {NOTEBOOK};
    const k = w.sessionContext.session.kernel;
    if (k.status !== 'idle') return false;
    const cells = w.content.widgets.filter(c => c.model.type === 'code');
    // an error stops Run All (the cells after it never run): done, and the ERRORS check reports it
    if (cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'))) return true;
    return cells.every(c => c.model.executionCount !== null && c.promptNode.textContent.indexOf('*') < 0);
}}"""
ERRORS = f"""() => {{
    const w = {NOTEBOOK};
    const found = [];
    w.content.widgets.forEach((c, i) => {{
        if (c.model.type !== 'code') return;
        for (const o of c.model.outputs.toJSON()) {{
            if (o.output_type === 'error') found.push(`cell ${{i}}: ${{o.ename}}: ${{o.evalue}}`);
        }}
    }});
    return found;
}}"""
MYST_RENDERED = f"""() => {{
    const w = {NOTEBOOK};
    return w.sessionContext.isReady && w.content.widgets.every(c => c.model.type !== 'markdown'
        || (c.rendered && !!c.node.querySelector('.myst')));
}}"""
# The answer cells (tagged answer) that are code: [index, source, what they printed], every output
# that is not printed text shown as <its type>.
ANSWERS = f"""() => {{
    const w = {NOTEBOOK};
    const found = [];
    w.content.widgets.forEach((c, i) => {{
        if (c.model.type !== 'code' || !(c.model.getMetadata('tags') || []).includes('answer')) return;
        const printed = c.model.outputs.toJSON().map(o => o.output_type === 'stream' && o.name === 'stdout'
            ? [].concat(o.text).join('') : `<${{o.output_type}}>`).join('');
        found.push([i, c.model.sharedModel.getSource(), printed]);
    }});
    return found;
}}"""
# The log console of the current notebook, at its default level (warning): errors and stderr
# output, e.g. an exception raised in a widget callback, which the notebook itself does not show.
LOG_TEXT = """() => {
    const panel = document.querySelector('.jp-LogConsole .jp-LogConsolePanel');
    if (!panel) return null;
    const entries = panel.querySelectorAll('.jp-OutputArea-child');
    return entries.length ? [...entries].map(e => e.textContent.trim()).join('\\n') : '';
}"""


# The time of the next key press, then: milliseconds since then once the src of explorer e's image
# differs from `before` (the HTML widget replaces the <img> on a redraw), false until then.
START_CLOCK = """() => {
    window.lincourseKeyTime = null;
    document.addEventListener('keydown', () => { window.lincourseKeyTime = performance.now(); },
                              {once: true, capture: true});
}"""
IMAGE_CHANGED = """([e, before]) => {
    const img = document.querySelectorAll('.lincourse-explorer')[e].querySelector('.lincourse-explorer-image img');
    if (!img || img.src === before || window.lincourseKeyTime === null) return false;
    return Math.max(1, performance.now() - window.lincourseKeyTime);
}"""


def _check_opened_unmodified_with_myst_rendered(page, name):
    # JupyterLab writes the kernel's kernelspec and language_info into the notebook's metadata once the
    # kernel has answered, after it is idle; wait until the metadata equals what the kernel reports (at
    # once when the stored metadata is already that; after the write, which marks the notebook dirty,
    # when it is not), then check dirty.
    page.wait_for_function(KERNEL_METADATA_MERGED, timeout=30000, polling=50)
    # every markdown cell rendered by jupyterlab-myst (its output holds a .myst block)
    page.wait_for_function(MYST_RENDERED, timeout=30000, polling=50)
    assert not page.evaluate(DIRTY), f"{name}: opening the notebook modified it"
    text = page.inner_text(".jp-Notebook")
    for raw in ("{prf:", ":::{exercise}", "{solution-start}", "```{"):
        assert raw not in text, f"{name}: MyST shown as raw markup ({raw!r})"


def _close(page):
    page.evaluate(f"() => {NOTEBOOK}.sessionContext.shutdown()")
    page.evaluate(f"() => {NOTEBOOK}.context.model.dirty = false")
    page.evaluate("() => jupyterapp.commands.execute('application:close-all')")
    page.wait_for_function("() => !document.querySelector('.jp-LogConsole')", timeout=10000)


def _new_page(browser):
    """A page whose requests to other hosts are refused and recorded, and whose console errors are kept."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.foreign, page.console_errors = [], []

    def route(r):
        if urlparse(r.request.url).hostname in ("127.0.0.1", None) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            page.foreign.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    return page


def _open(page, lab, name):
    if page.evaluate("() => !!window.jupyterapp"):  # JupyterLab is loaded: open the next notebook in it
        page.evaluate(f"() => {{ jupyterapp.commands.execute('docmanager:open', {{path: {json.dumps(name)}}}); }}")
    else:
        page.goto(f"{lab['base']}/lab/tree/{name}?token={lab['token']}&reset", wait_until="domcontentloaded")
        page.wait_for_function("() => window.jupyterapp && jupyterapp.hasPlugin('@jupyterlab/notebook-extension:tracker')",
                               timeout=60000)
        assert not page.evaluate("() => jupyterapp.hasPlugin('@jupyterlab/debugger-extension:service')"), \
            "the debugger is still on (see the lab fixture)"
    page.wait_for_function(f"() => window.jupyterapp && {NOTEBOOK} && {NOTEBOOK}.context "
                           f"&& {NOTEBOOK}.context.path === {json.dumps(name)}", timeout=60000)
    page.wait_for_function(KERNEL_READY, timeout=60000)
    page.evaluate("() => jupyterapp.commands.execute('logconsole:open', {insertMode: 'split-bottom'})")


def _run_all(page):
    page.evaluate("() => jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_timeout(200)
    page.wait_for_function(RUN_DONE, timeout=300000, polling=250)


def _move_every_slider(page, chapter, run, latencies):
    explorers = page.locator(".lincourse-explorer")
    assert explorers.count() >= 1, "no live explorer after Run All"
    for e in range(explorers.count()):
        explorer = explorers.nth(e)
        image = explorer.locator(".lincourse-explorer-image img")
        title = explorer.locator("b").first.inner_text() if explorer.locator("b").count() else f"explorer {e}"
        sliders = explorer.locator(".widget-slider")
        assert sliders.count() >= 1, f"explorer {e} has no slider"
        for s in range(sliders.count()):
            handle = sliders.nth(s).locator(".noUi-handle")
            label = sliders.nth(s).locator(".widget-label").first.inner_text().strip() or f"slider {s}"
            handle.scroll_into_view_if_needed()
            before = image.get_attribute("src")
            at_end = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
            handle.focus()
            page.evaluate(START_CLOCK)
            page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
            try:  # milliseconds from the key press to the new image, measured in the page
                elapsed = page.wait_for_function(IMAGE_CHANGED, arg=[e, before], timeout=REDRAW_MS,
                                                 polling="raf").json_value()
            except Exception:  # playwright's TimeoutError: reported below with what the page shows
                elapsed = float("inf")
            after = explorers.nth(e).locator(".lincourse-explorer-image img").get_attribute("src")
            changed = after != before
            assert changed, (f"{chapter}, run {run + 1}: explorer {e}, {label}: the figure did not change "
                             f"within {REDRAW_MS} ms; log console: {page.evaluate(LOG_TEXT)!r}")
            errors = explorers.nth(e).locator(".lincourse-explorer-error")
            assert errors.count() == 0, f"{chapter}: explorer {e}, {label}: {errors.first.inner_text()}"
            latencies.setdefault(chapter, {}).setdefault(f"{title} / {label}", []).append(round(elapsed))


def _check_unanswered_feedback(page, chapter, run):
    """Every code answer cell, its ``...`` untouched, printed the check's feedback and nothing else: a
    value's "No answer yet", a function's "returned None" (its body is ``...``). A check never raises,
    so a missing record or a failing check shows only here, as a different line."""
    answers = page.evaluate(ANSWERS)
    assert answers, f"{chapter}: no answer cell"
    for i, source, printed in answers:
        value, function = re.match(r"(\w+) = \.\.\.", source), re.match(r"def \w+\(", source)
        if value:
            expected = f"No answer yet: set {value.group(1)} to your answer and run the cell again.\n"
            assert printed == expected, f"{chapter}, run {run + 1}: answer cell {i} printed {printed!r}"
        else:
            assert function, f"{chapter}: answer cell {i} is neither `name = ...` nor a function: {source!r}"
            assert re.fullmatch(r"Not yet: your function returned None on case 1 of \d+ \(.*\): "
                                r"is a return statement missing\?\n", printed), \
                f"{chapter}, run {run + 1}: answer cell {i} printed {printed!r}"


def test_every_student_edition_runs_in_jupyterlab(lab, browser, latencies):
    assert set(SECOND_RUN) <= set(CHAPTERS), sorted(set(SECOND_RUN) - set(CHAPTERS))
    page = _new_page(browser)
    for name in CHAPTERS:
        chapter = f"student/{name}"
        _open(page, lab, chapter)
        _check_opened_unmodified_with_myst_rendered(page, chapter)
        for run in range(2 if name in SECOND_RUN else 1):
            _run_all(page)
            assert page.evaluate(ERRORS) == [], f"{chapter}, run {run + 1}: error output"
            _check_unanswered_feedback(page, chapter, run)
            _move_every_slider(page, name, run, latencies)
            log = page.evaluate(LOG_TEXT)
            assert log == "", f"{chapter}, run {run + 1}: log console: {log!r}"
        _close(page)
    assert not page.foreign, f"requests to other hosts: {sorted(set(page.foreign))}"
    assert not page.console_errors, f"console errors: {page.console_errors}"
    page.context.close()


def test_instructor_chapters_open_unmodified_with_myst_rendered(lab, browser):
    """The instructor chapters are opened only: their Run All is nbval's and the website build's."""
    page = _new_page(browser)
    for chapter in CHAPTERS:
        _open(page, lab, chapter)
        _check_opened_unmodified_with_myst_rendered(page, chapter)
        _close(page)
    assert not page.foreign, f"requests to other hosts: {sorted(set(page.foreign))}"
    assert not page.console_errors, f"console errors: {page.console_errors}"
    page.context.close()
