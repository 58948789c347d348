/* The student's memory on this device: answers, verdicts, written answers and slider positions, and
 * the progress they add up to (Jupyter Book links every .js file of _static/ into every page; this
 * one runs before the answer boxes and players, which are deferred, and gives them
 * window.lincourseMemory).
 *
 * Everything is kept in the browser's localStorage, under keys "lincourse:<course version>:<what>:<key>"
 * (what: "answer" for an exercise, "sliders" for a player), so that a new version of the course,
 * whose exercises may have changed, starts afresh. Nothing is sent anywhere: this is self-study, and
 * the instructor's grades come from the graded assignments, never from here.
 *
 * What the course holds comes from _static/lincourse-course.js (written when the book is built,
 * lincourse/_theme.py): per chapter page, its exercises' keys, kinds, points and whether they are on
 * the core path. From it and the stored verdicts this script draws
 *   - a progress line at the top of each chapter: concept checks and exercises done, points, and a
 *     "Reset this chapter" button;
 *   - a tick (or "3/11") beside each chapter in the sidebar;
 *   - on the landing page, a "Done" column in the course map (a table inside <div class="course-map">
 *     whose rows' first cell links to a chapter page), and the buttons to export one's progress to a
 *     file, import it on another device, and reset the course.
 *
 * A concept check is an exercise whose key starts with "q-"; a written answer (a proof, an
 * explanation) counts as done once it has been compared with the solution; a function is checked in
 * the notebook, so it is not counted here.
 */
(function () {
  "use strict";
  var course = window.lincourseCourse || {version: "0", chapters: []};
  var PREFIX = "lincourse:" + course.version + ":";
  var WRITTEN = ["proof", "explanation"];
  var byKey = {};
  course.chapters.forEach(function (chapter) {
    chapter.exercises.forEach(function (ex) { byKey[ex.key] = {exercise: ex, chapter: chapter}; });
  });

  var store = (function () {
    try {
      var s = window.localStorage, probe = PREFIX + "probe";
      s.setItem(probe, "1");
      s.removeItem(probe);
      return s;
    } catch (error) {
      return null;   // storage blocked (a private window with storage off): the page works, forgetting
    }
  })();

  function get(what, key) {
    if (!store) return null;
    try { return JSON.parse(store.getItem(PREFIX + what + ":" + key)); } catch (error) { return null; }
  }

  function set(what, key, value) {
    if (!store) return;
    try { store.setItem(PREFIX + what + ":" + key, JSON.stringify(value)); } catch (error) { return; }
    changed();
  }

  function ours() {
    var keys = [];
    if (!store) return keys;
    for (var i = 0; i < store.length; i++) {
      var k = store.key(i);
      if (k && k.indexOf(PREFIX) === 0) keys.push(k);
    }
    return keys;
  }

  function counted(ex) { return ex.kind !== "function"; }

  function done(ex) {
    var saved = get("answer", ex.key);
    if (!saved) return false;
    // a checked answer counts while the box still holds the text that was found right
    return WRITTEN.indexOf(ex.kind) >= 0 ? saved.verdict === "compared" :
      saved.verdict === "right" && saved.checked === saved.text;
  }

  /** What the student has done in a chapter: checks, exercises and points, done and in all. */
  function progress(chapter) {
    var p = {checks: 0, checksDone: 0, exercises: 0, exercisesDone: 0, points: 0, pointsDone: 0,
             core: 0, coreDone: 0, notebook: 0};
    chapter.exercises.forEach(function (ex) {
      if (!counted(ex)) { p.notebook += 1; return; }
      var isDone = done(ex), check = ex.key.indexOf("q-") === 0;
      if (check) { p.checks += 1; if (isDone) p.checksDone += 1; }
      else { p.exercises += 1; if (isDone) p.exercisesDone += 1; }
      if (ex.core !== false) { p.core += 1; if (isDone) p.coreDone += 1; }
      if (WRITTEN.indexOf(ex.kind) < 0) {
        p.points += ex.points || 0;
        if (isDone) p.pointsDone += ex.points || 0;
      }
    });
    p.total = p.checks + p.exercises;
    p.done = p.checksDone + p.exercisesDone;
    return p;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function num(x) { return String(Math.round(x * 100) / 100); }

  function sentence(p) {
    var parts = [p.checksDone + " of " + plural(p.checks, "concept check"),
                 p.exercisesDone + " of " + plural(p.exercises, "exercise"),
                 num(p.pointsDone) + " of " + num(p.points) + " points"];
    return parts.join(", ") + (p.notebook ? " (" + plural(p.notebook, "exercise") + " asking for a function " +
      (p.notebook === 1 ? "is" : "are") + " checked in the notebook)" : "");
  }

  function chapterOfPage() {
    var here = location.pathname.replace(/\.html$/, "").replace(/\/index$/, "");
    for (var i = 0; i < course.chapters.length; i++) {
      var page = course.chapters[i].page;
      if (here === "/" + page || here.slice(-(page.length + 1)) === "/" + page) return course.chapters[i];
    }
    return null;
  }

  function chapterOfHref(href) {
    var path = new URL(href, location.href).pathname.replace(/\.html$/, "");
    for (var i = 0; i < course.chapters.length; i++) {
      var page = course.chapters[i].page;
      if (path.slice(-(page.length + 1)) === "/" + page) return course.chapters[i];
    }
    return null;
  }

  function button(text, onclick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "lincourse-progress-button";
    b.textContent = text;
    b.addEventListener("click", onclick);
    return b;
  }

  function remove(keys) {
    keys.forEach(function (k) { store.removeItem(k); });
    location.reload();
  }

  function resetChapter(chapter) {
    if (!window.confirm("Forget your answers and slider positions on this chapter's page, on this device?")) return;
    var keys = chapter.exercises.map(function (ex) { return PREFIX + "answer:" + ex.key; });
    document.querySelectorAll("figure.lincourse-player script[type='application/json']").forEach(function (s) {
      try { keys.push(PREFIX + "sliders:" + JSON.parse(s.textContent).key); } catch (error) { return; }
    });
    remove(keys);
  }

  function resetCourse() {
    if (!window.confirm("Forget all your answers, slider positions and progress in the course, on this device?")) return;
    remove(ours());
  }

  function exportProgress() {
    var data = {course: "lincourse", version: course.version, saved: new Date().toISOString(), items: {}};
    ours().forEach(function (k) { data.items[k.slice(PREFIX.length)] = JSON.parse(store.getItem(k)); });
    var blob = new Blob([JSON.stringify(data, null, 1)], {type: "application/json"});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "lincourse-progress.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }

  /** Read a progress file (text); returns a sentence saying what was imported or why not. */
  function importProgress(text) {
    var data;
    try { data = JSON.parse(text); } catch (error) { return "This file is not a progress file (it is not JSON)."; }
    if (!data || data.course !== "lincourse" || typeof data.items !== "object")
      return "This file is not a progress file of this course.";
    if (data.version !== course.version)
      return "This file was saved from version " + data.version + " of the course; this is version " +
        course.version + ", whose exercises may differ: nothing was imported.";
    var n = 0;
    Object.keys(data.items).forEach(function (k) {
      if (!/^(answer|sliders):[a-z0-9-]+$/i.test(k)) return;
      store.setItem(PREFIX + k, JSON.stringify(data.items[k]));
      n += 1;
    });
    changed();
    return "Imported " + plural(n, "saved item") + ".";
  }

  // -- drawing ------------------------------------------------------------------------------------
  function drawChapterLine() {
    var chapter = chapterOfPage();
    if (!chapter) return;
    var line = document.getElementById("lincourse-progress");
    if (!line) {
      var heading = document.querySelector("article.bd-article h1") || document.querySelector("main article h1");
      if (!heading) return;
      line = document.createElement("div");
      line.id = "lincourse-progress";
      line.className = "lincourse-progress";
      var text = document.createElement("p");
      text.className = "lincourse-progress-text";
      line.appendChild(text);
      var note = document.createElement("p");
      note.className = "lincourse-progress-note";
      note.textContent = "It is for you alone: nothing is sent or graded.";
      line.appendChild(note);
      var section = heading.closest("section") || heading.parentNode;
      var after = heading;
      section.insertBefore(line, after.nextSibling);
    }
    if (!line.querySelector(".lincourse-progress-button")) {   // the build writes the line without its button
      line.insertBefore(button("Reset this chapter", function () { resetChapter(chapter); }),
                        line.querySelector(".lincourse-progress-note"));
    }
    line.querySelector(".lincourse-progress-text").textContent = "Your progress on this device: " +
      sentence(progress(chapter)) + ".";
  }

  function mark(p) {
    if (p.total && p.done === p.total) return {text: "\u2713", label: "done"};
    if (p.done) return {text: p.done + "/" + p.total, label: p.done + " of " + p.total + " done"};
    return null;
  }

  function drawSidebar() {
    document.querySelectorAll(".bd-docs-nav li.toctree-l1 > a.reference").forEach(function (a) {
      var href = a.getAttribute("href") || "";
      var chapter = href === "#" || href === "" ? chapterOfPage() : chapterOfHref(href);
      if (!chapter) return;
      var tick = a.querySelector(".lincourse-tick"), m = mark(progress(chapter));
      if (!m) { if (tick) tick.remove(); return; }
      if (!tick) {
        tick = document.createElement("span");
        tick.className = "lincourse-tick";
        a.appendChild(tick);
      }
      tick.textContent = m.text;
      tick.setAttribute("aria-label", m.label);
      tick.setAttribute("title", m.label);
    });
  }

  function drawCourseMap() {
    var map = document.querySelector(".course-map");
    var table = map && map.querySelector("table");
    if (!table) return;
    var head = table.querySelector("thead tr");
    if (head && !head.querySelector(".lincourse-done")) {
      var th = document.createElement("th");
      th.className = "lincourse-done";
      th.textContent = "Done (on this device)";
      head.appendChild(th);
    }
    table.querySelectorAll("tbody tr").forEach(function (row) {
      var link = row.querySelector("a[href]");
      var chapter = link && chapterOfHref(link.getAttribute("href"));
      var cell = row.querySelector("td.lincourse-done");
      if (!cell) {
        cell = document.createElement("td");
        cell.className = "lincourse-done";
        row.appendChild(cell);
      }
      if (!chapter) { cell.textContent = ""; return; }
      var p = progress(chapter);
      cell.textContent = (p.total && p.done === p.total ? "\u2713 " : "") + p.done + " of " + p.total +
        ", " + num(p.pointsDone) + " of " + num(p.points) + " points";
    });
    if (!map.querySelector(".lincourse-course-tools")) {
      var tools = document.createElement("div");
      tools.className = "lincourse-course-tools";
      var status = document.createElement("p");
      status.className = "lincourse-course-status";
      status.setAttribute("role", "status");
      var file = document.createElement("input");
      file.type = "file";
      file.accept = "application/json,.json";
      file.hidden = true;
      file.addEventListener("change", function () {
        if (!file.files.length) return;
        file.files[0].text().then(function (text) { status.textContent = importProgress(text); file.value = ""; });
      });
      tools.appendChild(button("Export my progress", exportProgress));
      tools.appendChild(button("Import progress", function () { file.click(); }));
      tools.appendChild(button("Reset the course", resetCourse));
      tools.appendChild(file);
      tools.appendChild(status);
      map.appendChild(tools);
    }
  }

  var pending = false;
  function changed() {
    if (pending) return;
    pending = true;
    setTimeout(function () { pending = false; draw(); }, 0);
  }

  function draw() {
    drawChapterLine();
    drawSidebar();
    drawCourseMap();
  }

  window.lincourseMemory = {
    version: course.version, get: get, set: set, progress: progress, importProgress: importProgress,
    chapters: course.chapters, exercise: function (key) { return byKey[key] || null; }
  };
  window.addEventListener("storage", function (event) {
    if (event.key && event.key.indexOf(PREFIX) === 0) changed();   // another tab of the course
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
})();
