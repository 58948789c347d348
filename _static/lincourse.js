/* The course's small page behaviours (Jupyter Book links every .js file of _static/ into every page).
 *
 * Display math wider than the text column (formulas are rendered when the book is built, by KaTeX):
 * such a formula scrolls inside its own box, beside its equation number (lincourse.css). When the
 * page is parsed, when its fonts have loaded and when the window is resized, a formula that does not
 * fit is shrunk to fit, but never below 75% of its size (50% on paper, where nothing can scroll), so
 * that at 375 px most formulas show whole. A numbered formula that still does not fit gives its whole
 * line to the formula: the number goes on a line of its own above it, at the right.
 * One that still does not fit keeps its scroll box, with two cues that there is more: a fading right
 * edge, and an arrow at that edge (the fade alone showed nothing when the cut fell in a space between
 * two equations: (7.2) looked whole after its first half). Both go when the formula is scrolled to its
 * end. The box is given a place in the Tab order, so that it can be scrolled with the keyboard
 * (WCAG 2.1.1; axe-core's scrollable-region-focusable). Formulas that fit stay out of the Tab order:
 * screen readers read them from KaTeX's MathML.
 *
 * Tables wider than the column (three chapters' tables at 375 px) scroll in the theme's box, which the
 * theme puts in the Tab order: they get the same fading edge and arrow, the arrow on a frame around
 * the box. The landing page's course map is a table of seven columns: on a phone each chapter is a
 * card instead (lincourse.css), and each cell is labelled with its column's title here.
 *
 * A solution's title names its exercise with a link. The title opens and closes the solution
 * (sphinx-togglebutton), but a click on that link jumped to the exercise instead (and the toggle
 * script met a target it does not know): here a click on it opens or closes the solution.
 *
 * Search: a result's passage is cut from the page's text. Sphinx takes that text with the page's
 * navigation (the "Contents" list), the theme's block for paper (the title and a "Contents"
 * heading) and the chapter's progress line, so a word found in a title showed those instead of a
 * passage; here they are left out. A formula of a passage is taken as its TeX source and
 * rendered by KaTeX (the search page alone loads KaTeX's script: lincourse/_theme.py), not shown as
 * TeX nor as the garble of its HTML and MathML text.
 *
 * Figures on a phone: a figure drawn smaller than 70% of its own width (a two-panel figure at
 * 375 px is drawn at about 40%, its labels a few pixels high) can be tapped, or focused and
 * opened with Enter, to see it at full size in a dialog that scrolls; Escape or the Close button
 * closes it. A player's figure is shown as it is at that moment.
 *
 * The sidebars' buttons: the themes wire the first ".primary-toggle" and ".secondary-toggle" of the
 * page (document.querySelector), and with pydata-sphinx-theme 0.17 those are its own navbar icons,
 * which sphinx-book-theme hides; the buttons a reader sees (the article header's hamburger and
 * contents icon) had only a tooltip. A click on one of those is handed to the wired button: on a
 * phone the chapter list or the page's contents open in a dialog, on a desktop the chapter list
 * hides and shows again.
 *
 * Live Code: the button loads the Thebe library from a CDN and then asks mybinder.org for a kernel.
 * Offline, or when either cannot be reached, the theme's button would say "Loading thebe from
 * CDN..." for ever; here a banner fixed at the bottom of the window (it moves nothing on the page)
 * says what went wrong and what works instead, the spinning button is put away, and the banner has
 * a Close button. It is shown when the library fails to load or has not arrived after 20 seconds,
 * when Thebe reports that no kernel could be started ("failed" or "dead"), when mybinder.org has not
 * answered 30 seconds after the library loaded, and when the device goes offline meanwhile. Pressing
 * Live Code again tries again.
 *
 * The chapter list (the left sidebar): the theme scrolls it whenever the current chapter's link is in
 * the lower half of the window, even when the whole link would show unscrolled; at 1280 x 800 that cut
 * the course's title at the top of the list ("interactively"); and from one page to the next it keeps
 * the list where the reader left it, where the current chapter may be out of view. Here the list is at
 * its top when the current chapter's link shows whole from there, and otherwise scrolled so that it shows.
 *
 * The page's contents (the right-hand "Contents"): pydata-sphinx-theme marks the section being read
 * only when a section title crosses the band of the top 30% of the window. A reader who scrolls up,
 * or pages down past a title in one jump, kept the mark of another section (chapter 7 showed
 * "Learning objectives" over three sections). Here, after every scroll, the mark goes to the last
 * section whose title is above the bottom of that band, the section the theme would mark had the title
 * crossed it (so the two never disagree); at the very bottom of the page, to the last title in view.
 */
(function () {
  "use strict";
  var SMALLEST = 0.75, SMALLEST_PRINTED = 0.5;

  // the fading edge and the arrow while there is more to the right
  function edge(box) {
    var more = box.classList.contains("lincourse-scrolls") &&
      box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    box.classList.toggle("lincourse-more", more);
    box.parentElement.classList.toggle("lincourse-more", more);
  }

  // shrink a formula to fit its box (not below the floor); true if it then fits
  function shrink(box) {
    var size = parseFloat(box.getAttribute("data-lincourse-size")) || 100;
    box.style.fontSize = size + "%";
    if (box.scrollWidth > box.clientWidth) {
      // a printed page cannot scroll: there a formula may shrink further
      var floor = window.matchMedia && window.matchMedia("print").matches ? SMALLEST_PRINTED : SMALLEST;
      var scale = Math.max(floor, (box.clientWidth - 1) / box.scrollWidth);
      box.style.fontSize = (size * scale).toFixed(2) + "%";
    }
    return box.scrollWidth <= box.clientWidth + 1;
  }

  function fitFormulas() {
    document.querySelectorAll("div.math > .katex-display").forEach(function (box) {
      var math = box.parentElement;
      if (!box.hasAttribute("data-lincourse-size")) box.setAttribute("data-lincourse-size", "100");
      math.classList.remove("lincourse-eqno-apart");
      if (!shrink(box) && math.querySelector(":scope > .eqno")) {
        math.classList.add("lincourse-eqno-apart");   // the number on its own line: the formula has the width
        shrink(box);
      }
      if (box.scrollWidth > box.clientWidth + 1) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", "formula, scrolls sideways");
        box.classList.add("lincourse-scrolls");
        // where the arrow goes: the middle of the formula's right edge (div.math is its offset parent)
        math.style.setProperty("--lincourse-cue-top", (box.offsetTop + box.offsetHeight / 2).toFixed(1) + "px");
        math.style.setProperty("--lincourse-cue-right",
                               (math.clientWidth - box.offsetLeft - box.offsetWidth).toFixed(1) + "px");
        if (!box.hasAttribute("data-lincourse-edge")) {
          box.setAttribute("data-lincourse-edge", "");
          box.addEventListener("scroll", function () { edge(box); }, {passive: true});
        }
      } else {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        box.classList.remove("lincourse-scrolls");
      }
      edge(box);
    });
    document.documentElement.setAttribute("data-lincourse-math", "fitted");
  }

  // tables that scroll: the fading edge and the arrow (on a frame around the theme's box)
  function markTables() {
    document.querySelectorAll("main .pst-scrollable-table-container").forEach(function (box) {
      if (!box.parentElement.classList.contains("lincourse-scroll-frame")) {
        var frame = document.createElement("div");
        frame.className = "lincourse-scroll-frame";
        box.parentNode.insertBefore(frame, box);
        frame.appendChild(box);
        box.addEventListener("scroll", function () { edge(box); }, {passive: true});
      }
      box.classList.toggle("lincourse-scrolls", box.scrollWidth > box.clientWidth + 1);
      edge(box);
    });
  }

  // the course map's cells carry their column's title, shown before them on a phone (lincourse.css);
  // the "Done" column, added by lincourse-progress.js, is labelled by lincourse.css itself
  function labelCourseMap() {
    document.querySelectorAll(".course-map table").forEach(function (table) {
      var titles = [].map.call(table.querySelectorAll("thead th"), function (th) { return th.textContent.trim(); });
      table.querySelectorAll("tbody tr").forEach(function (row) {
        [].forEach.call(row.children, function (cell, k) {
          if (titles[k] && !cell.classList.contains("lincourse-done")) cell.setAttribute("data-label", titles[k]);
        });
      });
    });
  }

  // the message in three parts; on a phone the banner leaves out the second (lincourse.css), so that it
  // takes a few lines at the bottom of the screen instead of half of it
  var LIVE_FAILED = ["Live Code could not start: ",
    "it needs an internet connection to load its library and a kernel from mybinder.org, and ",
    "{what}. The sliders and answer boxes on this page work without it; " +
    "to run the code, open the notebook in JupyterLab, Binder or Colab."];

  var liveAttempt = 0;   // a new press of Live Code starts a new attempt; older timers are then ignored

  function liveCodeFailed(what, attempt) {
    if (attempt !== undefined && attempt !== liveAttempt) return;
    if (document.documentElement.classList.contains("lincourse-live-ready")) return;
    document.documentElement.classList.add("lincourse-live-failed");   // puts the spinning button away
    var banner = document.getElementById("lincourse-live-code-status");
    if (!banner) {
      banner = document.createElement("div");
      banner.id = "lincourse-live-code-status";
      banner.className = "lincourse-live-code-status";
      banner.setAttribute("role", "status");
      var text = document.createElement("p");
      LIVE_FAILED.forEach(function (part, k) {
        var span = document.createElement("span");
        if (k === 1) span.className = "lincourse-live-why";
        text.appendChild(span);
      });
      var close = document.createElement("button");
      close.type = "button";
      close.textContent = "Close";
      close.addEventListener("click", function () { banner.remove(); });
      banner.appendChild(text);
      banner.appendChild(close);
      document.body.appendChild(banner);   // fixed at the bottom of the window: nothing on the page moves
    }
    var parts = banner.querySelectorAll("p > span");
    LIVE_FAILED.forEach(function (part, k) { parts[k].textContent = part.replace("{what}", what); });
  }

  function liveCodeStarted() {
    liveAttempt += 1;
    document.documentElement.classList.remove("lincourse-live-failed", "lincourse-live-ready");
    var banner = document.getElementById("lincourse-live-code-status");
    if (banner) banner.remove();
    if (navigator.onLine === false) liveCodeFailed("this device is offline", liveAttempt);
    return liveAttempt;
  }

  function watchKernel(attempt) {
    if (!window.thebelab || typeof window.thebelab.on !== "function") return;
    var heard = false;
    window.thebelab.on("status", function (event, data) {
      heard = true;
      var status = data && data.status;
      if (status === "ready") document.documentElement.classList.add("lincourse-live-ready");
      if (status === "failed" || status === "dead")
        liveCodeFailed("no kernel could be started (Thebe reports \u201c" + status + "\u201d" +
                       (data.message ? ": " + String(data.message).replace(/<[^>]*>/g, "") : "") + ")", attempt);
    });
    setTimeout(function () {
      if (!heard) liveCodeFailed("mybinder.org did not answer within 30 seconds", attempt);
    }, 30000);
  }

  // a press of Live Code (the launch menu's entry) starts an attempt
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest(".btn-launch-thebe")) liveCodeStarted();
  }, true);

  // the theme adds the Thebe script to <head> when the button is pressed: watch for it
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      change.addedNodes.forEach(function (node) {
        if (node.tagName !== "SCRIPT" || !/thebe/i.test(node.src || "")) return;
        var attempt = liveAttempt, loaded = false;
        node.addEventListener("load", function () { loaded = true; watchKernel(attempt); });
        node.addEventListener("error", function () { liveCodeFailed("its library could not be loaded", attempt); });
        setTimeout(function () {
          if (!loaded) liveCodeFailed("its library did not arrive within 20 seconds", attempt);
        }, 20000);
      });
    });
  }).observe(document.head, {childList: true});
  window.addEventListener("offline", function () {
    if (document.querySelector(".thebe-launch-button .loading-text, .thebe-launch-button .spinner") ||
        (document.querySelector(".thebe-launch-button") && !window.thebelab))
      liveCodeFailed("the connection was lost");
  });

  // the page's contents: mark the section being read after every scroll (see the comment at the top)
  function markSectionRead() {
    var nav = document.getElementById("pst-page-toc-nav");
    if (!nav) return;
    var links = Array.prototype.slice.call(nav.querySelectorAll("a[href^='#']"));
    var line = window.innerHeight * 0.3;   // the bottom of the theme's band (its rootMargin: -70% at the bottom)
    var atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    var current = null;
    links.forEach(function (link) {
      var target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
      if (!target) return;
      var title = target.querySelector("h1, h2, h3, h4, h5, h6") || target;
      var top = title.getBoundingClientRect().top;
      if (top < line || (atBottom && top < window.innerHeight)) current = link;
    });
    if (!current || current.classList.contains("active")) return;
    links.forEach(function (link) {
      var on = link === current;
      link.classList.toggle("active", on);
      if (on) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
    nav.querySelectorAll(".toc-entry").forEach(function (entry) {
      entry.classList.toggle("active", entry.contains(current));
    });
  }
  var markPending = false;
  window.addEventListener("scroll", function () {
    if (markPending) return;
    markPending = true;
    // after the theme's own observer has run for this frame, so that the last word is this one
    requestAnimationFrame(function () { setTimeout(function () { markPending = false; markSectionRead(); }, 0); });
  }, {passive: true});
  window.addEventListener("load", markSectionRead);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".primary-toggle, .secondary-toggle");
    if (!button) return;
    var wired = document.querySelector(button.classList.contains("primary-toggle") ? ".primary-toggle" : ".secondary-toggle");
    if (!wired || wired === button) return;
    event.preventDefault();
    event.stopPropagation();
    button.blur();
    wired.click();
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
      // and the theme's block for paper (.onlyprint: the title again, then a "Contents" heading), which a
      // screen never shows, and the progress line under the title: chapter 2's passage for "margin" was
      // "Signed distance and margins Contents", then the progress line, and not a word of the chapter
      page.querySelectorAll("nav, .bd-header-article, .bd-sidebar-secondary, .toc, .prev-next-area, " +
        ".onlyprint, .lincourse-progress, .lincourse-player script, .eqno").forEach(function (el) { el.remove(); });
      // a formula's text is its TeX source (KaTeX keeps it in the MathML), written \( ... \)
      page.querySelectorAll(".katex").forEach(function (formula) {
        var tex = formula.querySelector('annotation[encoding="application/x-tex"]');
        formula.replaceWith(page.createTextNode(tex ? "\\(" + tex.textContent.trim() + "\\)" : ""));
      });
      return toText(page.documentElement.outerHTML, anchor);
    };
    var results = document.getElementById("search-results");
    if (!results || typeof renderMathInElement === "undefined") return;
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          var passages = node.nodeType !== 1 ? [] :
            (node.matches("p.context") ? [node] : [].slice.call(node.querySelectorAll("p.context")));
          passages.forEach(function (p) {
            if (p.hasAttribute("data-lincourse-math")) return;
            p.setAttribute("data-lincourse-math", "");
            // the passage is cut at fixed lengths: drop a formula cut in two at either end
            var text = p.textContent, open = text.indexOf("\\("), close = text.indexOf("\\)");
            if (close > -1 && (open === -1 || close < open)) text = "..." + text.slice(close + 2);
            var lastOpen = text.lastIndexOf("\\("), lastClose = text.lastIndexOf("\\)");
            if (lastOpen > lastClose) text = text.slice(0, lastOpen) + "...";
            if (text !== p.textContent) p.textContent = text;
            renderMathInElement(p, {delimiters: [{left: "\\(", right: "\\)", display: false}],
                                    throwOnError: false});
          });
        });
      });
    }).observe(results, {childList: true, subtree: true});
  });

  var ZOOM_BELOW = 0.7, zoomDialog = null;

  function naturalWidth(el) {
    if (el.tagName === "IMG") return el.naturalWidth;
    var w = el.getAttribute("width");
    return w ? parseFloat(w) : 0;
  }

  function openZoom(el) {
    if (!zoomDialog) {
      zoomDialog = document.createElement("dialog");
      zoomDialog.className = "lincourse-zoom";
      zoomDialog.setAttribute("aria-label", "Figure at full size");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "lincourse-zoom-close";
      close.textContent = "Close";
      close.addEventListener("click", function () { zoomDialog.close(); });
      var frame = document.createElement("div");
      frame.className = "lincourse-zoom-frame";
      zoomDialog.appendChild(close);
      zoomDialog.appendChild(frame);
      zoomDialog.addEventListener("click", function (event) {
        if (event.target === zoomDialog) zoomDialog.close();   // a tap beside the figure
      });
      document.body.appendChild(zoomDialog);
    }
    var copy = el.cloneNode(true);
    copy.removeAttribute("tabindex");
    copy.removeAttribute("role");
    copy.classList.remove("lincourse-zoomable");
    copy.style.width = naturalWidth(el) + "px";
    copy.style.maxWidth = "none";
    copy.style.height = "auto";
    var frame = zoomDialog.querySelector(".lincourse-zoom-frame");
    frame.replaceChildren(copy);
    zoomDialog.showModal();
  }

  function markZoomable() {
    document.querySelectorAll("main .cell_output img, main svg.lincourse-figure").forEach(function (el) {
      var natural = naturalWidth(el), shown = el.getBoundingClientRect().width;
      var small = natural > 0 && shown > 0 && shown < ZOOM_BELOW * natural;
      el.classList.toggle("lincourse-zoomable", small);
      if (small) {
        el.setAttribute("tabindex", "0");
        if (el.tagName === "IMG") el.setAttribute("role", "button");
        el.setAttribute("aria-description", "press to see the figure at full size");
      } else if (el.hasAttribute("aria-description")) {
        el.removeAttribute("tabindex");
        if (el.tagName === "IMG") el.removeAttribute("role");
        el.removeAttribute("aria-description");
      }
    });
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest(".lincourse-zoomable");
    if (el) openZoom(el);
  });
  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if ((event.key === "Enter" || event.key === " ") && el.classList && el.classList.contains("lincourse-zoomable")) {
      event.preventDefault();
      openZoom(el);
    }
  });

  var pending = null;
  function later() {
    clearTimeout(pending);
    pending = setTimeout(function () { fitFormulas(); markTables(); markZoomable(); }, 150);
  }

  // the chapter list at its top when the current chapter shows whole from there, else scrolled so that
  // it shows (see the top)
  function placeChapterList() {
    var list = document.querySelector("div.bd-sidebar-primary");
    var links = list && list.querySelectorAll(".bd-docs-nav a.current, .bd-docs-nav li.active > a");
    if (!links || !links.length || !list.clientHeight) return;
    var box = links[links.length - 1].getBoundingClientRect(), top = list.getBoundingClientRect().top;
    var linkTop = box.top - top + list.scrollTop, linkBottom = box.bottom - top + list.scrollTop;
    if (linkBottom <= list.clientHeight) list.scrollTop = 0;
    else if (linkTop < list.scrollTop || linkBottom > list.scrollTop + list.clientHeight)
      list.scrollTop = linkTop - list.clientHeight * 0.25;   // as the theme places it
  }

  function fitNow() {
    placeChapterList();
    labelCourseMap();
    fitFormulas();
    markTables();
    markZoomable();
    window.addEventListener("load", markZoomable);   // images have their sizes by then
    window.addEventListener("load", markTables);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(function () { fitFormulas(); markTables(); });
    window.addEventListener("resize", later);
    // printed pages have their own width: fit the formulas to it, and back to the screen after
    window.addEventListener("beforeprint", fitFormulas);
    window.addEventListener("afterprint", fitFormulas);
    if (window.matchMedia) {
      var print = window.matchMedia("print");
      if (print.addEventListener) print.addEventListener("change", fitFormulas);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fitNow);
  else fitNow();
})();
