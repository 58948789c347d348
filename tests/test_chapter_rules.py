"""The chapter rules of ``docs/chapters.md``, for every chapter of the table of contents.

A chapter is one lecture a student can finish: a core path (at most 2,500 words of prose, concept checks
inline, at most 5 core exercises, declared minutes, at most 2 h 30 of student work, stated in the opening)
and an optional Going-further layer (sections tagged ``going-further``) that no core needs. Every chapter is
read through the one chapter model, ``tools/chapter_model.py``.
"""

import re

import pytest

import chapter_model as cm
from lincourse.exercises._canonical import KINDS

CHAPTERS = cm.toc_chapters()
MODELS = {path.stem: cm.read(path) for path in CHAPTERS}
INTERNAL = re.compile(r"\b(nbval|CI|helper|lead engineer|seed documents?|sphinx-exercise|cell tag|the issue)\b")
MAX_CORE_WORDS, MAX_CORE_EXERCISES, MAX_CORE_MINUTES, TOLERANCE = 2500, 5, 150, 10
NUMERIC = tuple(name for name, kind in KINDS.items() if kind.reads == "numbers")



def _rule(name):
    """Parametrise a test over the chapters (``name`` names the rule, as ``docs/chapters.md`` does)."""
    return pytest.mark.parametrize("stem", list(MODELS))


def _core(ch):
    return [e for e in ch.exercises if not e.going_further]


def test_the_table_of_contents_lists_every_chapter():
    assert sorted(CHAPTERS) == sorted((cm.ROOT / "chapters").glob("*.ipynb"))
    assert 8 <= len(CHAPTERS) <= 10


@_rule("core_words")
def test_core_prose_is_at_most_2500_words(stem):
    words = MODELS[stem].words()
    assert words <= MAX_CORE_WORDS, f"{stem}: {words} words of core prose (at most {MAX_CORE_WORDS})"


@_rule("inline_checks")
def test_concept_checks_sit_right_after_what_they_test(stem):
    ch = MODELS[stem]
    for e in ch.exercises:
        if e.check and not e.going_further:
            titles = [s.title for s in ch.enclosing(e.statement)]
            assert not any("exercises" in t.lower() for t in titles), \
                f"{stem}: concept check {e.key} sits in the end section {titles[-1]!r}; put it after what it tests"
    # no pile of checks: three checks in a row with no prose between them (the warm-up aside)
    run = 0
    for i, cell in enumerate(ch.cells):
        role = ch.roles.get(i)
        if role == "statement" and ch.exercises and ch.exercise(_key(ch, i)).check:
            warm = any(s.title.lower().startswith("warm-up") for s in ch.enclosing(i))
            run = 0 if warm else run + 1
            assert run < 3, f"{stem}: three concept checks in a row at {_key(ch, i)}; each follows what it tests"
        elif cell.cell_type == "markdown" and role is None and ch.public(i):
            run = 0


def _key(ch, i):
    return next(e.key for e in ch.exercises if e.statement == i)


@_rule("core_exercises")
def test_at_most_five_core_exercises_with_a_proof(stem):
    ch = MODELS[stem]
    core = [e.key for e in _core(ch) if not e.check]
    assert 1 <= len(core) <= MAX_CORE_EXERCISES, f"{stem}: {len(core)} core exercises {core} (1 to 5)"
    assert any(e.kind == "proof" for e in ch.exercises if not e.check), f"{stem}: no proof exercise"


@_rule("minutes")
def test_every_check_and_exercise_declares_core_and_minutes(stem):
    for e in MODELS[stem].exercises:
        assert e.core in (True, False), f"{stem}: {e.key} declares no core=True/False"
        assert isinstance(e.minutes, int) and e.minutes >= 1, f"{stem}: {e.key} declares no minutes="
        assert e.core is (not e.going_further), \
            f"{stem}: {e.key} is declared core={e.core} but sits {'in' if e.going_further else 'outside'} Going further"


@_rule("core_time")
def test_core_work_fits_the_budget_and_the_opening_says_it(stem):
    ch = MODELS[stem]
    core, further = ch.minutes(), ch.minutes(going_further=True)
    assert core <= MAX_CORE_MINUTES, f"{stem}: core student work {cm.duration(core)} (at most 2 h 30 min)"
    stated = ch.stated_times()
    assert stated, f"{stem}: the opening does not say '**Core:** about ... **Going further:** about ...'"
    assert abs(stated[0] - core) <= TOLERANCE, f"{stem}: states core {cm.duration(stated[0])}, computed {cm.duration(core)}"
    assert abs(stated[1] - further) <= TOLERANCE, \
        f"{stem}: states Going further {cm.duration(stated[1])}, computed {cm.duration(further)}"


@_rule("objectives_practised_by_core")
def test_every_objective_is_practised_on_the_core_path(stem):
    ch = MODELS[stem]
    assert ch.objectives, f"{stem}: no numbered learning objectives"
    practised = {e.objective for e in _core(ch)}
    missing = [k for k in range(1, len(ch.objectives) + 1) if k not in practised]
    assert not missing, f"{stem}: objectives {missing} are practised by no core exercise or concept check"


def test_every_objective_is_practised_and_every_exercise_declared():
    for stem, ch in MODELS.items():
        for e in ch.exercises:
            assert e.declaration is not None, f"{stem}: {e.key} has no declaration"
            objective = e.objective
            assert objective is None or objective in range(1, len(ch.objectives) + 1), f"{stem}: {e.key}"
            if objective is None:
                assert e.check and "warm" in e.key, f"{stem}: {e.key} practises no objective (only warm-ups may)"


@_rule("going_further_layer")
def test_the_going_further_layer_is_whole_sections_tagged(stem):
    ch = MODELS[stem]
    expected = set()
    for n, s in enumerate(ch.sections):
        if not s.going_further:
            continue
        assert cm.HEADING.match(cm.source(ch.cells[s.cell])), \
            f"{stem}: the heading {s.title!r} must open its cell"
        end = next((t.cell for t in ch.sections[n + 1:] if t.level <= s.level), len(ch.cells))
        expected |= set(range(s.cell, end))
    tagged = {i for i in range(len(ch.cells)) if ch.is_going_further(i)}
    assert expected, f"{stem}: no Going-further section"
    assert tagged == expected, (f"{stem}: cells {sorted(tagged ^ expected)[:8]} are tagged going-further and outside a "
                                "'Going further' section, or the reverse")


def test_no_core_cell_needs_the_going_further_layer():
    optional = {}
    for stem, ch in MODELS.items():
        for i in range(len(ch.cells)):
            if ch.is_going_further(i):
                optional.update({label: stem for label in ch.labels(i)})
    for stem, ch in MODELS.items():
        for i in range(len(ch.cells)):
            if ch.is_going_further(i) or ch.is_instructor(i):
                continue
            needed = sorted(ch.references(i) & set(optional))
            assert not needed, f"{stem}: a core cell refers to {needed}, defined in Going further ({optional[needed[0]]})"


@_rule("warm_up")
def test_chapters_from_the_second_open_with_a_warm_up(stem):
    ch = MODELS[stem]
    if list(MODELS).index(stem) == 0:
        pytest.skip("the first chapter has nothing to recall")
    warm = [s for s in ch.sections if s.title.lower().startswith("warm-up")]
    assert warm, f"{stem}: no '## Warm-up' section"
    checks = [e for e in ch.exercises if any(s.title.lower().startswith("warm-up") for s in ch.enclosing(e.statement))]
    assert 2 <= len(checks) <= 3 and all(e.check and e.core for e in checks), f"{stem}: {[e.key for e in checks]}"


@_rule("hints")
def test_every_core_exercise_has_a_hint_before_its_solution(stem):
    for e in _core(MODELS[stem]):
        if not e.check:
            assert e.hint is not None, f"{stem}: {e.key} has no hint cell (tagged hint) after its answer cell"
            text = cm.source(MODELS[stem].cells[e.hint])
            assert re.match(r"^:::+\{admonition\} Hint\n:class: dropdown", text), f"{stem}: {e.key}: {text[:60]!r}"


@_rule("slips")
def test_core_numeric_exercises_declare_their_slips(stem):
    for e in _core(MODELS[stem]):
        if not e.check and e.kind in NUMERIC:
            assert "wrong" in e.fields or "wrong" in e.fields.get("_computed", []), \
                f"{stem}: {e.key} declares no common wrong answers (wrong=)"


def test_every_exercise_has_its_cells_in_order():
    """Statement, declaration (hidden code), answer cell (hidden on the website), hint, solution block."""
    for stem, ch in MODELS.items():
        for e in ch.exercises:
            d, a = e.declaration, e.answer
            assert d == e.statement + 1, f"{stem}: {e.key}: the declaration must follow the statement"
            assert {"exercise-declaration", "remove-input"} <= cm.tags(ch.cells[d]), f"{stem}: {e.key}"
            assert a == d + 1 and {"answer", "remove-cell"} <= cm.tags(ch.cells[a]), f"{stem}: {e.key}: no answer cell"
            if e.written:
                assert ch.cells[a].cell_type == "markdown", f"{stem}: {e.key}"
            else:
                assert ch.cells[a].cell_type == "code" and re.search(
                    rf'check\("{e.key}",\s*\w+\)\s*$', cm.source(ch.cells[a])), f"{stem}: {e.key}"
            after = [i for i in (e.hint,) if i is not None] + e.solution
            assert e.solution and after == list(range(a + 1, a + 1 + len(after))), \
                f"{stem}: {e.key}: the solution block (after an optional hint) must follow the answer cell"


@_rule("sources_in_going_further")
def test_sources_are_remarked_on_in_one_folded_note_in_going_further(stem):
    ch = MODELS[stem]
    notes = [i for i, c in enumerate(ch.cells) if c.cell_type == "markdown" and "{admonition} About the sources" in c.source]
    assert len(notes) == 1, f"{stem}: {len(notes)} 'About the sources' notes (one)"
    assert ":class: dropdown" in ch.cells[notes[0]].source
    assert ch.is_going_further(notes[0]), f"{stem}: the remarks on the sources belong to Going further"


def test_teaching_notes_are_folded_for_instructors_with_a_time_plan():
    for stem, ch in MODELS.items():
        notes = [c.source for i, c in enumerate(ch.cells) if ch.is_instructor(i)]
        assert notes, f"{stem}: no teaching notes"
        for note in notes:
            assert re.match(r"^:::+\{admonition\} For instructors\n:class: dropdown instructor", note), note[:80]
        assert re.search(r"\d+\s*min", "\n".join(notes)), f"{stem}: the teaching notes give no time plan"


PLAN = re.compile(r"\*\*Time plan \((\d+) minutes: (\d+) planned, (\d+) in reserve\)\.\*\*(.*?)(?:\n\n|$)", re.S)


@_rule("time_plan")
def test_the_time_plan_adds_up_to_the_lecture(stem):
    """"**Time plan (75 minutes: 70 planned, 5 in reserve).** The learning problem: 10 min. ..." adds up."""
    ch = MODELS[stem]
    notes = "\n".join(c.source for i, c in enumerate(ch.cells) if ch.is_instructor(i))
    m = PLAN.search(notes)
    assert m, f"{stem}: no '**Time plan (T minutes: P planned, R in reserve).**' in the teaching notes"
    total, planned, reserve = map(int, m.groups()[:3])
    items = sum(int(n) for n in re.findall(r"(\d+) min\b", m.group(4)))
    assert planned + reserve == total, f"{stem}: {planned} planned + {reserve} in reserve is not {total}"
    assert items == planned, f"{stem}: the plan's items add up to {items} minutes, not the {planned} planned"
    opening = cm.source(ch.cells[0])
    assert re.search(rf"\b{total}\s*minutes", opening) or f"{total} min" in opening, \
        f"{stem}: the opening does not give the lecture's {total} minutes"


@_rule("notation")
def test_one_notation_weights_are_w_and_a_tilde_marks_augmentation(stem):
    ch = MODELS[stem]
    for i, c in enumerate(ch.cells):
        text = cm.source(c)
        assert "\\theta" not in text and "θ" not in text, f"{stem}: θ in cell {i} (the weights are w)"
        if c.cell_type == "markdown":
            for formula in cm.MATH.findall(text):
                primed = re.search(r"(?<![\\\w])[xwR]'|\\gamma'", formula)
                assert not primed, f"{stem}: {primed.group(0)} in cell {i}: a tilde marks augmentation, not a prime"


def test_the_text_speaks_to_its_readers():
    for stem, ch in MODELS.items():
        for i, cell in enumerate(ch.cells):
            if cell.cell_type == "markdown" and ch.public(i):
                hit = INTERNAL.search(cell.source)
                assert not hit, f"{stem}: {hit.group(0)!r} in {cell.source[:80]!r}"


def test_the_time_model_counts_the_code_a_reader_meets():
    """Shown code and printed text at LINES_PER_MINUTE, a figure, an explorer; hidden input and Going further apart."""
    import nbformat

    v4 = nbformat.v4
    shown = v4.new_code_cell("x = 1\n\n# a comment\nprint(x)", outputs=[v4.new_output("stream", name="stdout", text="1\n2\n")])
    hidden = v4.new_code_cell("secret = 2", metadata={"tags": ["remove-input"]},
                              outputs=[v4.new_output("display_data", data={"image/png": "iVBOR", "text/plain": "<Figure>"})])
    explorer = v4.new_code_cell("lx.explore()", outputs=[v4.new_output(
        "display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m"}, "text/plain": "w"})])
    heading = v4.new_markdown_cell("## Going further: more", metadata={"tags": ["going-further"]})
    further = v4.new_code_cell("a = 1\nb = 2\nc = 3", metadata={"tags": ["going-further"]})
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("# Title"), shown, hidden, explorer, heading, further])
    ch = cm.of_notebook(nb)
    assert ch.code() == (2 + 2 + 1, 1, 1)       # two code lines, two printed, the explorer's call; a figure; an explorer
    assert ch.code(going_further=True) == (3, 0, 0)
    reading = ch.words() / cm.WORDS_PER_MINUTE + 5 / cm.LINES_PER_MINUTE + cm.FIGURE_MINUTES + cm.EXPLORER_MINUTES
    assert ch.minutes() == int(__import__("math").ceil(reading))
