/* The answer boxes of the course website (lincourse/exercises/_box.py writes them).

   Each box carries its exercise's public record (hashes only) as JSON. This script reads what the
   student types, turns it into its canonical form, hashes it with the course's salt, and looks the
   hash up in the record: right, a known wrong answer with its feedback, wrong with a hint, or an
   answer of the wrong form. It is the twin of lincourse/exercises/_canonical.py and _check.py
   (functions of the same names do the same double operations), so the website and the notebook
   give the same verdict and the same words; tests/site/test_answer_boxes.py checks it.

   No kernel, no server, no crypto.subtle (absent from file:// and plain-http pages): SHA-256 is
   below, in plain JavaScript. */
(function () {
  "use strict";

  // -- SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, as hex --------------------------------------
  const K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];
  const ror = (x, n) => (x >>> n) | (x << (32 - n));

  function sha256(text) { return hex(sha256Bytes(new TextEncoder().encode(text))); }
  const hex = words => words.map(x => (x >>> 0).toString(16).padStart(8, "0")).join("");

  function sha256Bytes(bytes) {
    const n = bytes.length;
    const words = new Uint32Array(((n + 9 + 63) >> 6) << 4);      // message, 0x80, zeros, 64-bit length
    for (let i = 0; i < n; i++) words[i >> 2] |= bytes[i] << (24 - 8 * (i & 3));
    words[n >> 2] |= 0x80 << (24 - 8 * (n & 3));
    words[words.length - 2] = Math.floor(n / 0x20000000);
    words[words.length - 1] = (n * 8) >>> 0;
    const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    const W = new Uint32Array(64);
    for (let j = 0; j < words.length; j += 16) {
      for (let t = 0; t < 64; t++) {
        if (t < 16) { W[t] = words[j + t]; continue; }
        const a = W[t - 15], b = W[t - 2];
        W[t] = W[t - 16] + (ror(a, 7) ^ ror(a, 18) ^ (a >>> 3)) + W[t - 7] + (ror(b, 17) ^ ror(b, 19) ^ (b >>> 10));
      }
      let [a, b, c, d, e, f, g, h] = H;
      for (let t = 0; t < 64; t++) {
        const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
        const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      [a, b, c, d, e, f, g, h].forEach((x, i) => { H[i] = (H[i] + x) | 0; });
    }
    return H;
  }

  // -- why the right answer is right, sealed with it (the twins of seal/unseal in _canonical.py) -----
  function unseal(record, form, sealed) {
    const data = new Uint8Array(sealed.length / 2);
    for (let i = 0; i < data.length; i++) data[i] = parseInt(sealed.substr(2 * i, 2), 16);
    for (let block = 0; block * 32 < data.length; block++) {
      const words = sha256Bytes(new TextEncoder().encode(`${record.salt}|${record.key}|${form}|explain|${block}`));
      for (let i = block * 32; i < Math.min(data.length, block * 32 + 32); i++)
        data[i] ^= (words[(i % 32) >> 2] >>> (24 - 8 * (i % 4))) & 0xff;
    }
    return new TextDecoder().decode(data);
  }

  // -- canonical forms (the twins of _canonical.py) ----------------------------------------------------
  const ZERO = 1e-12;
  const WS = "[ \\t\\n\\r\\f\\v\\u00a0\\u2009\\u202f]";
  const DECIMAL = "[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?";
  const SLASH = new RegExp(`${WS}*/${WS}*`, "g");
  const TRIM = new RegExp(`^${WS}+|${WS}+$`, "g");
  const INNER = new RegExp(`${WS}+`, "g");
  const QUOTES = /^['"`]+|['"`]+$/g;
  const PAIRS = {"{": "}", "[": "]", "(": ")"};

  class FormError extends Error {}

  const digest = (record, form) => sha256(`${record.salt}|${record.key}|${form}`);
  const power = (a, k) => (k >= 0 ? a * Number("1e" + k) : a / Number("1e" + (-k)));

  function canonicalNumber(x, digits) {
    const a = Math.abs(x);
    if (a < ZERO) return "0";
    let e = Math.floor(Math.log10(a)), m = 0;
    for (let i = 0; i < 3; i++) {  // log10 can be off by one next to a power of ten
      m = Math.floor(power(a, digits - 1 - e) + 0.5);
      if (m >= Number("1e" + digits)) e += 1;
      else if (m < Number("1e" + (digits - 1))) e -= 1;
      else break;
    }
    return (x < 0 ? "-" : "") + String(m) + "e" + String(e - digits + 1);
  }

  function canonicalCount(x) {
    if (!(Number.isFinite(x) && x === Math.floor(x) && Math.abs(x) <= 2 ** 53)) return null;
    return String(x === 0 ? 0 : x);
  }

  const normalise = text => text.replace(/\u2212/g, "-").replace(TRIM, "");

  function readNumbers(text) {
    const t = normalise(text);
    let bracketed = t.length >= 2 && "[(".includes(t[0]) && t[t.length - 1] === PAIRS[t[0]] && closesAtEnd(t);
    let parts = pieces(bracketed ? t.slice(1, -1) : t);
    if (bracketed && t[0] === "(" && parts.length <= 1) { bracketed = false; parts = pieces(t); }
    return [parts.map(value), bracketed];
  }

  function closesAtEnd(t) {
    let depth = 0;
    for (let i = 0; i < t.length; i++) {
      depth += ({"(": 1, "[": 1, ")": -1, "]": -1})[t[i]] || 0;
      if (depth === 0) return i === t.length - 1;
    }
    return false;
  }

  function pieces(t) {
    const parts = [];
    let depth = 0, start = 0;
    for (let i = 0; i < t.length; i++) {
      depth += ({"(": 1, ")": -1})[t[i]] || 0;
      if (",;".includes(t[i]) && depth === 0) { parts.push(t.slice(start, i)); start = i + 1; }
    }
    parts.push(t.slice(start));
    const out = [];
    for (let part of parts) {
      part = part.replace(SLASH, "/").replace(TRIM, "");
      if (part === "") continue;
      const words = part.split(INNER).filter(w => w !== "");
      if (words.length > 1 && words.every(reads)) out.push(...words);
      else out.push(part);
    }
    return out;
  }

  function reads(word) {
    try { value(word); } catch (error) {
      if (error instanceof FormError) return error.message.includes("finite");
      throw error;
    }
    return true;
  }

  // -- arithmetic in an answer (the twin of tokens and _value in _canonical.py) ------------------------
  const TOKEN = new RegExp(`${WS}+|((?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)|([A-Za-z]+)|(\\*\\*|[-+*/^()])`, "y");
  const FUNCTIONS = {sqrt: Math.sqrt, exp: Math.exp, log: Math.log, ln: Math.log};
  const CONSTANTS = {pi: Math.PI, e: Math.E};
  const KNOWN = "sqrt, exp, log, pi and e";

  function tokens(text) {
    const out = [];
    let i = 0;
    while (i < text.length) {
      TOKEN.lastIndex = i;
      const match = TOKEN.exec(text);
      if (!match) throw new FormError(`could not read "${text}" as a number: "${text[i]}" is not part of one ` +
                                   `(use digits, + - * / ^ ( ) and ${KNOWN})`);
      i = TOKEN.lastIndex;
      if (match[1] !== undefined) out.push(["number", match[1]]);
      else if (match[2] !== undefined) {
        const word = match[2].toLowerCase();
        if (!(word in FUNCTIONS) && !(word in CONSTANTS))
          throw new FormError(`could not read "${text}" as a number: "${match[2]}" is not a name I know (${KNOWN})`);
        out.push(["name", word]);
      } else if (match[3] !== undefined) out.push(["op", match[3] === "^" ? "**" : match[3]]);
    }
    let depth = 0;
    for (const [kind, word] of out) {
      if (kind === "op") depth += ({"(": 1, ")": -1})[word] || 0;
      if (depth < 0) break;
    }
    if (depth !== 0) throw new FormError(`could not read "${text}" as a number: its brackets do not match`);
    return out;
  }

  class NotInGrammar extends Error {}

  // Python's grammar, cut down: sum = term (("+" | "-") term)*; term = factor (("*" | "/") factor)*;
  // factor = ("+" | "-") factor | power; power = atom ["**" factor]; atom = number | constant |
  // function "(" sum ")" | "(" sum ")"
  function parse(list) {
    let at = 0;
    const peek = () => list[at] || [null, null];
    const isOp = word => peek()[0] === "op" && peek()[1] === word;
    const expect = word => { if (!isOp(word)) throw new NotInGrammar(); at++; };
    function sum() {
      let v = term();
      while (isOp("+") || isOp("-")) { const op = list[at++][1], w = term(); v = op === "+" ? v + w : v - w; }
      return v;
    }
    function term() {
      let v = factor();
      while (isOp("*") || isOp("/")) {
        const op = list[at++][1], w = factor();
        v = op === "*" ? v * w : w !== 0 ? v / w : v !== 0 ? Math.sign(v) * Infinity : NaN;
      }
      return v;
    }
    function factor() {
      if (isOp("-")) { at++; return -factor(); }
      if (isOp("+")) { at++; return factor(); }
      return power();
    }
    function power() {
      const base = atom();
      if (!isOp("**")) return base;
      at++;
      return Math.pow(base, factor());
    }
    function atom() {
      const [kind, word] = peek();
      at++;
      if (kind === "number") return Number(word);
      if (kind === "name" && word in CONSTANTS) return CONSTANTS[word];
      if (kind === "name") { expect("("); const v = sum(); expect(")"); return FUNCTIONS[word](v); }
      if (kind === "op" && word === "(") { const v = sum(); expect(")"); return v; }
      throw new NotInGrammar();
    }
    const v = sum();
    if (at !== list.length) throw new NotInGrammar();
    return v;
  }

  function value(text) {
    const list = tokens(text);
    let v;
    try { v = parse(list); } catch (error) {
      if (error instanceof NotInGrammar) throw new FormError(`could not read "${text}" as a number`);
      throw error;
    }
    if (!Number.isFinite(v)) throw new FormError(`"${text}" is not a finite number`);
    return v;
  }

  /** Fewer significant digits than asked, in one plain decimal number: how many; else null. */
  function shortDigits(text, digits) {
    const t = normalise(text);
    if (!new RegExp(`^(?:${DECIMAL})$`).test(t)) return null;
    let mantissa = t.split(/[eE]/)[0].replace(/^[+-]/, "").replace(".", "").replace(/^0+/, "");
    if (!t.includes(".") && !t.toLowerCase().includes("e")) mantissa = mantissa.replace(/0+$/, "") || mantissa;
    const n = mantissa.length;
    return n > 0 && n < digits ? n : null;
  }

  function readItems(text, example) {
    let t = normalise(text);
    const opens = t !== "" && "{[(".includes(t[0]), last = t[t.length - 1];
    if ((opens && last !== PAIRS[t[0]]) || (t !== "" && !opens && "}])".includes(last)))
      throw new FormError(`expected a set such as ${example}`);
    if (opens) t = t.slice(1, -1);
    return t.split(/[,;]/).map(itemForm).filter(item => item !== "");
  }

  const itemForm = item => item.replace(TRIM, "").replace(QUOTES, "").replace(TRIM, "").toLowerCase().replace(INNER, " ");

  // A record says how its answers are read and compared (the row of its kind in KINDS of _canonical.py):
  // reads ("numbers", "items", "function", "written"), entries ("one", "size", "any") and compare
  // ("digits", "whole", "item"). The script decides by these fields, never by the kind's name.
  function formOfNumbers(record, numbers, bracketed) {
    if (record.entries === "size") {
      const size = record.size;
      if (numbers.length !== size)
        throw new FormError(`expected a list of ${size} number${size !== 1 ? "s" : ""}, got ${numbers.length}`);
      return numbers.map(x => canonicalNumber(x, record.digits)).join(",");
    }
    if (bracketed) throw new FormError("expected one number, not a list");
    if (numbers.length !== 1) throw new FormError(`expected one number, got ${numbers.length}`);
    if (record.compare === "whole") {
      const form = canonicalCount(numbers[0]);
      if (form === null) throw new FormError("expected a whole number");
      return form;
    }
    return canonicalNumber(numbers[0], record.digits);
  }

  function formOfItems(record, items) {
    if (record.options && record.options.length) {
      const allowed = record.options.map(itemForm);
      for (const item of items)
        if (!allowed.includes(item)) throw new FormError(`"${item}" is not one of the options ${record.options.join(", ")}`);
    }
    if (record.entries === "one") {
      if (items.length !== 1) throw new FormError(`expected one answer such as ${record.example}, got ${items.length}`);
      return items[0];
    }
    return [...new Set(items)].sort().join(",");
  }

  function formOfText(record, text) {
    if (normalise(text) === "") return null;
    if (record.reads === "items") return formOfItems(record, readItems(text, record.example));
    return formOfNumbers(record, ...readNumbers(text));
  }

  // -- the verdict (the twins of _check.py) ------------------------------------------------------------
  function notYet(record, attempt) {
    let text = "Not yet";
    if (record.reads === "numbers" && record.compare === "digits") text += ` (compared to ${record.digits} significant digits)`;
    const hints = record.hints || [];
    return text + (hints.length ? `. Hint: ${hints[Math.min(attempt, hints.length) - 1]}` : ".");
  }

  const formMessage = (record, detail) => `Check the form: ${detail}.` + (record.form_hint ? ` ${record.form_hint}` : "");

  function judge(record, form, state, typed) {
    const h = digest(record, form);
    if (record.accept.includes(h)) {
      const sealed = (record.explain || {})[h];
      return {verdict: true, message: "Correct." + (sealed ? " " + unseal(record, form, sealed) : "")};
    }
    if (h in record.wrong) {
      state.attempts = (state.attempts || 0) + 1;
      return {verdict: false, message: "Not yet: " + record.wrong[h]};
    }
    const short = typed !== undefined ? shortDigits(typed, record.digits) : null;
    if (short !== null)
      return {verdict: null, message: formMessage(record, `give ${record.digits} significant digits (${normalise(typed)} has ${short})`)};
    state.attempts = (state.attempts || 0) + 1;
    return {verdict: false, message: notYet(record, state.attempts)};
  }

  /** The verdict on an answer typed as text: {verdict: true | false | null, message}. */
  function answer(record, text, state) {
    try {
      const form = formOfText(record, text);
      if (form === null) return {verdict: null, message: "No answer yet: type your answer, then press Check."};
      return judge(record, form, state, record.compare === "digits" && record.entries === "one" ? text : undefined);
    } catch (error) {
      if (error instanceof FormError) return {verdict: null, message: formMessage(record, error.message)};
      throw error;
    }
  }

  // -- written answers: the "compare with the solution" step -----------------------------------------
  function compare(record) {
    const link = document.querySelector(`.solution a[href$="#${record.key}"]`);
    const solution = link && link.closest(".solution");
    if (!solution) return `This page has no solution: hand in your ${record.kind}; it is graded by hand.`;
    const toggle = solution.querySelector(".toggle-button[aria-expanded='false'], button.toggle-button");
    if (toggle && solution.classList.contains("toggle-hidden")) toggle.click();
    const details = solution.closest("details");
    if (details) details.open = true;
    solution.setAttribute("tabindex", "-1");
    solution.scrollIntoView({block: "start"});
    solution.focus({preventScroll: true});
    return `Compare your ${record.kind} with the solution below, step by step.`;
  }

  // -- the boxes -------------------------------------------------------------------------------------
  function wire(box) {
    const record = JSON.parse(box.querySelector("script.lincourse-answer-record").textContent);
    const radios = [...box.querySelectorAll("input[type=radio]")];
    // a multiple choice is a group of radio buttons; its value is the chosen option's
    const field = radios.length ? {
      tagName: "INPUT",   // Enter on a radio button checks, as in a text field
      get value() { const on = radios.find(r => r.checked); return on ? on.value : ""; },
      set value(text) { radios.forEach(r => { r.checked = r.value === text; }); },
      addEventListener: (type, listener) => radios.forEach(r => r.addEventListener(type === "input" ? "change" : type, listener)),
    } : box.querySelector("input, textarea");
    const button = box.querySelector("button");
    const result = box.querySelector(".lincourse-answer-result");
    const state = {attempts: 0};
    // "another one": practice variants carried by the record, checked with their own hashes and slips
    let practising = -1;
    const anotherRow = box.querySelector(".lincourse-answer-another-row");
    if (anotherRow && record.variants && record.variants.length) {
      anotherRow.hidden = false;
      anotherRow.querySelector("button").addEventListener("click", () => {
        practising = (practising + 1) % record.variants.length;
        const v = record.variants[practising];
        record.accept = v.accept; record.wrong = v.wrong || {}; record.explain = v.explain;
        state.attempts = 0;
        field.value = "";
        anotherRow.querySelector(".lincourse-answer-numbers").textContent =
          `Another one (numbers ${practising + 1} of ${record.variants.length}): ${v.statement} ` +
          "The rest of the exercise is unchanged; check your answer for these numbers.";
        show(null, "New numbers: the answer box now checks the exercise with them.");
      });
    }
    let count = 0;
    result.textContent = "";
    box.classList.add("lincourse-answer-ready");
    const show = (verdict, message) => {
      // empty the live region first, so that a screen reader repeats a message that has not changed
      result.textContent = "";
      result.dataset.verdict = verdict === true ? "right" : verdict === false ? "wrong" : "none";
      setTimeout(() => { result.textContent = message; result.dataset.count = String(++count); }, 50);
    };
    // the student's memory on this device (_static/lincourse-progress.js): what was typed, and the
    // verdict of the last check of exactly that text
    const memory = window.lincourseMemory;
    const written = record.reads === "written";
    const remember = verdict => {
      if (!memory) return;
      const saved = memory.get("answer", record.key) || {};
      const entry = {text: field.value, attempts: state.attempts};
      if (verdict !== undefined) { entry.checked = field.value; entry.verdict = verdict; }
      else if (saved.checked !== undefined) { entry.checked = saved.checked; entry.verdict = saved.verdict; }
      memory.set("answer", record.key, entry);
    };
    const run = () => {
      if (written) {
        show(null, compare(record));
        return remember(field.value.trim() !== "" ? "compared" : "none");
      }
      const {verdict, message} = answer(record, field.value, state);
      show(verdict, message);
      if (practising < 0) remember(verdict === true ? "right" : verdict === false ? "wrong" : "none");
    };
    button.addEventListener("click", run);
    field.addEventListener("input", () => { if (practising < 0) remember(); });
    if (field.tagName === "INPUT")
      field.addEventListener("keydown", event => { if (event.key === "Enter") { event.preventDefault(); run(); } });
    const saved = memory && memory.get("answer", record.key);
    if (saved && typeof saved.text === "string") {
      field.value = saved.text;
      state.attempts = saved.attempts || 0;
      box.dataset.restored = "";
      if (!written && saved.checked === saved.text && saved.text.trim() !== "") {
        // the verdict again, without counting an attempt
        const {verdict, message} = answer(record, saved.text, {attempts: Math.max(0, state.attempts - 1)});
        show(verdict, message);
      } else if (written && saved.verdict === "compared") {
        show(null, "Your answer from your last visit; you have compared it with the solution.");
      }
    }
  }

  window.lincourseAnswers = {sha256, canonicalNumber, formOfText, readNumbers, answer};
  const start = () => document.querySelectorAll(".lincourse-answer[data-kind]").forEach(wire);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
