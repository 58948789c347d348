/* The course's small page behaviours (Jupyter Book links every .js file of _static/ into every page).
 *
 * Display math wider than the text column: the theme lets such a formula scroll inside its own box.
 * Once MathJax has typeset the page (and again when the window is resized), a formula that does not
 * fit is shrunk to fit, but never below 75% of its size, so that at 375 px most formulas show whole;
 * one that still does not fit keeps its scroll box and is given a place in the Tab order, so that it
 * can be scrolled with the keyboard (WCAG 2.1.1; axe-core's scrollable-region-focusable). Formulas
 * that fit stay out of the Tab order: screen readers read them from MathJax's assistive MathML.
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
