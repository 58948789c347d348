/* The website players' behaviour (lincourse/explorers/_player.py writes the markup; lincourse/_book.py
 * links this file into every page of the site as _static/lincourse-player.js, deferred).
 *
 * A player (<figure class="lincourse-player">) holds its configuration as JSON (the values of each
 * slider, the frames per chunk file) and its default frame; the other frames live in chunk files
 * c<n>.js beside the player's background, each a call lincoursePlayerChunk(key, n, data) loaded with
 * <script src>, so that they load from a static host and from a folder opened as file://.
 *
 * What a reader sees is never stale: a move shows its frame, readout and slider values together.
 * While the frame's chunk is loading, the player has the class lincourse-loading (its figure and
 * readout are dimmed, player.css), the readout is aria-busy, and the player's status, a polite
 * live region over the figure, says "Loading…". The chunks one step away on every slider are
 * fetched as soon as the player comes near the screen, so that a first step does not wait.
 */
(function () {
  "use strict";
  var registry = window.lincoursePlayers = window.lincoursePlayers || {};

  // A chunk arrived: store it, and let every player showing that explorer draw again.
  window.lincoursePlayerChunk = window.lincoursePlayerChunk || function (key, n, data) {
    var state = registry[key];
    if (!state) return;
    state.chunks[n] = data;
    state.loading[n] = false;
    state.views.forEach(function (view) { view(); });
  };

  function player(root, number) {
    var cfg = JSON.parse(root.querySelector('script[type="application/json"]').textContent);
    var state = registry[cfg.key] = registry[cfg.key] || {chunks: {}, loading: {}, views: []};
    var base = root.getAttribute("data-base");
    var inputs = root.querySelectorAll("input[type=range]"), outs = root.querySelectorAll("output");
    var layer = root.querySelector(".lincourse-layer"), readout = root.querySelector("pre.lincourse-readout");
    var status = root.querySelector(".lincourse-status");

    function index() {  // the frame of the sliders' positions: row-major, the last slider fastest
      var i = 0;
      inputs.forEach(function (input, k) { i = i * cfg.sizes[k] + parseInt(input.value, 10); });
      return i;
    }

    function load(n) {
      if (state.chunks[n] || state.loading[n]) return;
      state.loading[n] = true;
      var script = document.createElement("script");
      script.src = base + "c" + n + ".js";
      script.onerror = function () {
        state.loading[n] = false;
        say("This position could not be loaded.");
      };
      document.head.appendChild(script);
    }

    function say(text) {
      if (status.textContent !== text) status.textContent = text;
    }

    function show() {
      var i = index(), n = Math.floor(i / cfg.chunk), chunk = state.chunks[n];
      if (!chunk) {
        root.classList.add("lincourse-loading");
        readout.setAttribute("aria-busy", "true");
        say("Loading\u2026");
        load(n);
        return;
      }
      var frame = chunk.f[i - n * cfg.chunk], svg = "";
      for (var j = 0; j < frame.length; j++) svg += chunk.s[frame[j]];
      layer.innerHTML = svg;
      readout.textContent = chunk.r[i - n * cfg.chunk];
      // the readout never gets shorter as the sliders move, so the page below it does not jump
      if (readout.offsetHeight > (parseFloat(readout.style.minHeight) || 0)) readout.style.minHeight = readout.offsetHeight + "px";
      inputs.forEach(function (input, k) {
        outs[k].textContent = cfg.values[k][parseInt(input.value, 10)];
      });
      root.setAttribute("data-frame", i);
      root.classList.remove("lincourse-loading");
      readout.removeAttribute("aria-busy");
      say("");
      prefetch();
    }

    // The chunks a next move may need: the current frame's, and those one step either way on
    // every slider (a step of slider k moves the frame index by the product of the later sizes).
    function prefetch() {
      var i = index(), stride = 1;
      load(Math.floor(i / cfg.chunk));
      for (var k = inputs.length - 1; k >= 0; k--) {
        var v = parseInt(inputs[k].value, 10);
        if (v > 0) load(Math.floor((i - stride) / cfg.chunk));
        if (v < cfg.sizes[k] - 1) load(Math.floor((i + stride) / cfg.chunk));
        stride *= cfg.sizes[k];
      }
    }

    state.views.push(show);
    root.addEventListener("focusin", prefetch);
    root.addEventListener("pointerenter", prefetch);
    root.addEventListener("pointerdown", prefetch);
    if ("IntersectionObserver" in window) {
      var near = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) {
          near.disconnect();
          prefetch();
        }
      }, {rootMargin: "50% 0px"});
      near.observe(root);
    }
    // The sliders' positions are kept on this device (_static/lincourse-progress.js), per explorer.
    var memory = window.lincourseMemory;
    function remember() {
      if (!memory) return;
      var positions = [];
      inputs.forEach(function (input) { positions.push(parseInt(input.value, 10)); });
      memory.set("sliders", cfg.key, positions);
    }
    var saved = memory && memory.get("sliders", cfg.key);
    var restored = Array.isArray(saved) && saved.length === inputs.length && saved.every(function (v, k) {
      return v === Math.floor(v) && v >= 0 && v < cfg.sizes[k];
    });
    inputs.forEach(function (input, k) {
      input.disabled = false;
      if (restored && String(saved[k]) !== input.value) {
        input.value = String(saved[k]);
        input.setAttribute("aria-valuetext", cfg.values[k][saved[k]]);
      }
      // The slider's own value (what a screen reader announces) follows the thumb at once; the
      // visible value beside it changes with the figure, in show().
      input.addEventListener("input", function () {
        input.setAttribute("aria-valuetext", cfg.values[k][parseInt(input.value, 10)]);
        show();
      });
      input.addEventListener("change", remember);
    });
    root.classList.add("lincourse-live");
    if (restored && String(index()) !== root.getAttribute("data-frame")) show();

    // A skip link beside the theme's "Skip to main content", so that the keyboard reaches every
    // explorer from the top of the page in a few Tab presses.
    var skip = document.getElementById("pst-skip-link");
    if (skip && root.id) {
      if (document.querySelectorAll('[id="' + root.id + '"]').length > 1) {
        root.id += "-" + (number + 1);
      }
      var a = document.createElement("a");
      a.href = "#" + root.id;
      a.className = "lincourse-skip";
      a.textContent = "Skip to the explorer: " + root.getAttribute("data-title");
      skip.appendChild(a);
    }
  }

  function start() {
    document.querySelectorAll("figure.lincourse-player:not(.lincourse-live)").forEach(player);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
