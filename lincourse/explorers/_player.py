"""The kernel-free player: an explorer precomputed over a grid of parameter values.

The same ``draw`` function as the live widget is evaluated at every combination of a coarse grid
of each parameter; the frames are embedded in one self-contained HTML fragment (PNG images as data
URIs, a few lines of inline JavaScript, no request to any other host). Each slider is a native
``<input type="range">``, keyboard-operable and labelled with its parameter's name and value; the
image's alt text is the frame's readout. This is what the published website shows, since a static
page has no kernel to run the widget's callbacks.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
import math

__all__ = ["player_grid", "player_frames", "player_html", "FRAME_BUDGET"]

#: Default upper limit on the number of frames of one player (page weight, see the README).
FRAME_BUDGET = 60


def player_grid(explorer, budget=FRAME_BUDGET):
    """Per-parameter lists of values for the player, with at most ``budget`` combinations in all."""
    grids = {}
    free = [p for p in explorer.params if p.player_step is None]
    fixed = 1
    for p in explorer.params:
        if p.player_step is not None:
            grids[p.name] = p.grid(p.player_step)
            fixed *= len(grids[p.name])
    per = max(2, int(math.floor((budget / fixed) ** (1.0 / len(free)) + 1e-9))) if free else 0
    for p in free:
        full = p.grid()
        if len(full) <= per:
            grids[p.name] = full
            continue
        count = per
        step = (p.max - p.min) / (count - 1)
        grids[p.name] = sorted({p.clip(p.min + i * step) for i in range(count)} | {p.clip(p.default)})
    return {p.name: grids[p.name] for p in explorer.params}


def _compact_png(png):
    """Re-encode a PNG with a 256-colour palette (several times smaller for line art)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def player_frames(explorer, grids=None):
    """Evaluate the explorer over ``grids``; returns (grids, list of (png_bytes, readout)).

    Frames are ordered like ``itertools.product`` over the parameters, the last one fastest.
    The explorer is left at its default values.
    """
    grids = grids or player_grid(explorer)
    defaults = dict(explorer.values)
    frames = []
    for combo in itertools.product(*grids.values()):
        png, text = explorer.render(**dict(zip(grids, combo)))
        frames.append((_compact_png(png), text))
    explorer.set(**defaults)
    return grids, frames


_SCRIPT = """
(function(root){
  var data = JSON.parse(root.querySelector('script[type="application/json"]').textContent);
  var inputs = root.querySelectorAll('input[type=range]');
  var img = root.querySelector('img'), out = root.querySelector('pre');
  function update(){
    var index = 0;
    inputs.forEach(function(input, k){
      var i = parseInt(input.value, 10);
      index = index * data.sizes[k] + i;
      var shown = data.values[k][i];
      root.querySelectorAll('output')[k].textContent = shown;
      input.setAttribute('aria-valuetext', data.labels[k] + ' = ' + shown);
    });
    img.src = 'data:image/png;base64,' + data.frames[index];
    img.alt = data.alts[index];
    out.textContent = data.readouts[index];
  }
  inputs.forEach(function(input){ input.addEventListener('input', update); });
  update();
})(document.currentScript.parentElement);
"""


def player_html(explorer, grids=None):
    """The self-contained HTML fragment of the explorer's player."""
    grids, frames = player_frames(explorer, grids)
    labels = [p.label or p.name for p in explorer.params]
    values = [[_show(v) for v in grids[p.name]] for p in explorer.params]
    readouts = [text for _, text in frames]
    caption = explorer.caption or explorer.title
    data = {
        "sizes": [len(v) for v in values],
        "values": values,
        "labels": [_plain(label) for label in labels],
        "frames": [base64.b64encode(png).decode("ascii") for png, _ in frames],
        "readouts": readouts,
        "alts": [f"{caption} {text}".strip() for text in readouts],
    }
    rows = []
    for k, p in enumerate(explorer.params):
        start = grids[p.name].index(p.clip(p.default))
        rows.append(
            f'<label style="display:flex;gap:.5em;align-items:center">'
            f'<span style="min-width:10em">{html.escape(_plain(labels[k]))}</span>'
            f'<input type="range" min="0" max="{len(values[k]) - 1}" step="1" value="{start}" '
            f'aria-label="{html.escape(_plain(labels[k]))}" style="flex:1">'
            f"<output>{values[k][start]}</output></label>"
        )
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (
        # Own colours (dark text on white, like the figures) so the player reads the same in the
        # theme's light and dark modes.
        f'<figure class="lincourse-player" style="margin:1em 0;padding:.6em .8em;background:#fff;'
        f'color:#1a1a1a;border:1px solid #ccc;border-radius:6px">'
        f'<figcaption style="color:#1a1a1a"><b>{html.escape(explorer.title)}</b> '
        f"<small>(precomputed: {len(frames)} frames; run the notebook for continuous sliders)</small>"
        f"</figcaption>{''.join(rows)}"
        f'<img style="max-width:100%;background:white" alt="">'
        f'<pre class="lincourse-readout" style="margin:0" aria-live="polite"></pre>'
        f'<script type="application/json">{payload}</script>'
        f"<script>{_SCRIPT}</script></figure>"
    )


def _show(value):
    return str(value) if isinstance(value, int) else f"{value:g}"


def _plain(label):
    """Strip LaTeX dollars and backslashes from a slider label for HTML text."""
    return label.replace("$", "").replace("\\", "")
