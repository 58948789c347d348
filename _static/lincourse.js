/* The course's small page behaviours (Jupyter Book links every .js file of _static/ into every page).
 *
 * Display math wider than the text column: the theme lets such a formula scroll inside its own box.
 * Once MathJax has typeset the page (and again when the window is resized), a formula that does not
 * fit is shrunk to fit, but never below 75% of its size, so that at 375 px most formulas show whole;
 * one that still does not fit keeps its scroll box and is given a place in the Tab order, so that it
 * can be scrolled with the keyboard (WCAG 2.1.1; axe-core's scrollable-region-focusable). Formulas
 * that fit stay out of the Tab order: screen readers read them from MathJax's assistive MathML.
 *
 * A solution's title names its exercise with a link. The title opens and closes the solution
 * (sphinx-togglebutton), but a click on that link jumped to the exercise instead (and the toggle
 * script met a target it does not know): here a click on it opens or closes the solution.
 *
 * Search: a result's passage is cut from the page's text. Sphinx takes that text with the page's
 * navigation (the "Contents" list), so a word found in a section title showed the list instead of a
 * passage; here the navigation is left out. Formulas in a passage are typeset (the search page loads
 * MathJax: lincourse/_theme.py) instead of showing their TeX source.
 *
 * Live Code: the button loads the Thebe library from a CDN and then asks mybinder.org for a kernel.
 * Offline, or when either cannot be reached, the theme's button would say "Loading thebe from
 * CDN..." for ever; here it says what went wrong and what works instead.
 */
(function () {
  "use strict";
  var SMALLEST = 0.75;

  function fitFormulas() {
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (box) {
      if (!box.hasAttribute("data-lincourse-size")) {
        box.setAttribute("data-lincourse-size", box.style.fontSize || "100%");
      }
      var size = parseFloat(box.getAttribute("data-lincourse-size")) || 100;
      box.style.fontSize = size + "%";
      if (box.scrollWidth > box.clientWidth) {
        var scale = Math.max(SMALLEST, (box.clientWidth - 1) / box.scrollWidth);
        box.style.fontSize = (size * scale).toFixed(2) + "%";
      }
      if (box.scrollWidth > box.clientWidth && /auto|scroll/.test(getComputedStyle(box).overflowX)) {
        box.setAttribute("tabindex", "0");
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }

  var LIVE_FAILED = "Live Code could not start: it needs an internet connection to load its library and " +
    "a kernel from mybinder.org, and {what}. The sliders and answer boxes on this page work without it; " +
    "to run the code, open the notebook in JupyterLab, Binder or Colab.";

  function liveCodeFailed(what) {
    document.querySelectorAll(".thebe-launch-button").forEach(function (button) {
      button.textContent = "Live Code unavailable";
      var note = document.getElementById("lincourse-live-code-status");
      if (!note) {
        note = document.createElement("p");
        note.id = "lincourse-live-code-status";
        note.className = "lincourse-live-code-status";
        note.setAttribute("role", "status");
        var article = document.querySelector("main article, article, main") || document.body;
        article.insertBefore(note, article.firstChild);
      }
      note.textContent = LIVE_FAILED.replace("{what}", what);
    });
  }

  // the theme adds the Thebe script to <head> when the button is pressed: watch for it
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      change.addedNodes.forEach(function (node) {
        if (node.tagName !== "SCRIPT" || !/thebe/i.test(node.src || "")) return;
        var loaded = false;
        node.addEventListener("load", function () { loaded = true; });
        node.addEventListener("error", function () { liveCodeFailed("its library could not be loaded"); });
        setTimeout(function () {
          if (!loaded) liveCodeFailed("its library did not arrive within 20 seconds");
        }, 20000);
      });
    });
  }).observe(document.head, {childList: true});
  window.addEventListener("offline", function () {
    if (document.querySelector(".thebe-launch-button .loading-text, .thebe-launch-button .spinner"))
      liveCodeFailed("the connection was lost");
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".solution.dropdown > .admonition-title a");
    var button = link && link.closest(".admonition").querySelector(".toggle-button");
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    button.click();
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    if (typeof Search === "undefined" || !Search.htmlToText) return;   // not the search page
    var toText = Search.htmlToText;
    Search.htmlToText = function (html, anchor) {
      var page = new DOMParser().parseFromString(html, "text/html");
      page.querySelectorAll("nav, .bd-header-article, .bd-sidebar-secondary, .toc, .prev-next-area, " +
        ".lincourse-player script").forEach(function (el) { el.remove(); });
      return toText(page.documentElement.outerHTML, anchor);
    };
    var results = document.getElementById("search-results");
    if (!results) return;
    new MutationObserver(function (changes) {
      var mj = window.MathJax;
      if (!mj || !mj.startup || !mj.startup.promise) return;
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          var passages = node.nodeType !== 1 ? [] :
            (node.matches("p.context") ? [node] : [].slice.call(node.querySelectorAll("p.context")));
          passages.forEach(function (p) {
            // the passage is cut at fixed lengths: drop a formula cut in two at either end
            var text = p.textContent, open = text.indexOf("\\("), close = text.indexOf("\\)");
            if (close > -1 && (open === -1 || close < open)) text = "..." + text.slice(close + 2);
            var lastOpen = text.lastIndexOf("\\("), lastClose = text.lastIndexOf("\\)");
            if (lastOpen > lastClose) text = text.slice(0, lastOpen) + "...";
            if (text !== p.textContent) p.textContent = text;
            p.classList.add("mathjax_process");
            mj.startup.promise.then(function () { return mj.typesetPromise([p]); });
          });
        });
      });
    }).observe(results, {childList: true, subtree: true});
  });

  var pending = null;
  function later() {
    clearTimeout(pending);
    pending = setTimeout(fitFormulas, 150);
  }

  window.addEventListener("load", function () {
    var mj = window.MathJax;
    if (!mj || !mj.startup || !mj.startup.promise) return;
    mj.startup.promise.then(function () {
      fitFormulas();
      document.documentElement.setAttribute("data-lincourse-math", "fitted");
      if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitFormulas);
      window.addEventListener("resize", later);
    });
  });
})();
