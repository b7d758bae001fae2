// The workbench page: asks /api for everything, draws nothing of its own but the controls.
"use strict";

const $ = (id) => document.getElementById(id);
const view = { kind: null, id: null, ruleset: null, path: null, moments: 0, game: null, lines: [], asked: 0 };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

async function api(method, url, body) {
  const response = await fetch(url, body === undefined ? { method } :
    { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw data;
  return data;
}

function refused(problem) {
  const box = $("diagnostics");
  box.hidden = false;
  const texts = problem && problem.diagnostics ? problem.diagnostics.map((d) => d.text) : [String(problem)];
  box.querySelector("pre").textContent = texts.join("\n");
}

// ── the files ──

async function listFiles() {
  const found = await api("GET", "/api/files");
  const picker = $("picker");
  for (const [label, paths] of [["rulesets", found.rulesets], ["scenarios", found.scenarios]]) {
    const group = el("optgroup", { label });
    for (const p of paths) group.append(el("option", { value: p }, p));
    picker.append(group);
  }
  $("with").append(...found.overlays.map((p) => el("option", { value: p }, p)));
  const asked = new URLSearchParams(location.search).get("open") || found.start;
  if (asked) { $("path").value = asked; openFile(asked); }
}

async function openFile(path, at) {
  $("diagnostics").hidden = true;
  const side = $("side").value || null;
  let opened;
  try { opened = await api("POST", "/api/open", { path, side }); } catch (problem) { refused(problem); return; }
  Object.assign(view, { kind: opened.kind, id: opened.id, ruleset: opened.ruleset, path, game: null, lines: [] });
  history.replaceState(null, "", "?open=" + encodeURIComponent(path));
  if (opened.kind === "game") { $("play-form").hidden = true; $("odds").hidden = true; $("narration").replaceChildren();
    $("result").textContent = ""; showGame(opened, true); return; }
  $("title").textContent = opened.title;
  $("rests-on").textContent = (opened.rests_on || []).map((r) => "rests on: " + r).join("; ");
  setSides(opened.sides, side);
  $("decision").hidden = true; $("ending").hidden = true; $("odds-answer").textContent = "";
  $("odds").hidden = opened.kind !== "scenario";
  $("odds-game").hidden = true;
  $("ask-odds").textContent = "Odds of this scenario";
  showPlayForm(opened);
  if (opened.kind === "scenario") showRun(opened, at); else { $("narration").replaceChildren(); $("result").textContent = "";
    $("timeline").hidden = true; $("map").replaceChildren(); }
}

function setSides(sides, chosen) {
  const select = $("side");
  select.replaceChildren(el("option", { value: "" }, "everything"), ...sides.map((s) => el("option", { value: s }, s)));
  select.value = chosen || "";
}

function showPlayForm(opened) {
  $("play-form").hidden = false;
  const setups = opened.kind === "rules" ? ["", ...opened.scenarios] : [""];
  $("setup").replaceChildren(...setups.map((s) => el("option", { value: s }, s || (opened.kind === "rules" ? "the demo set-up" : "this scenario's set-up"))));
  $("human").replaceChildren(...opened.sides.map((s) => el("option", { value: s }, s)), el("option", { value: "" }, "no side: watch"));
}

// ── a scenario's run: narration, timeline, map ──

function citeLink(cite, sections) {
  if (!cite) return "";
  if (!sections.length) return "[" + cite + "]";
  return el("a", { class: "cite", href: "#", "data-sections": sections.join(" "), title: "the rules that encode " + sections.join(", "),
    onclick: (e) => { e.preventDefault(); e.stopPropagation(); showRule(sections); } }, "[" + cite + "]");
}

function showRun(run, at) {
  view.lines = run.lines;
  view.moments = run.moments;
  $("narration").replaceChildren(...run.lines.filter((l) => !l.detail).map((l) =>
    el("li", { value: l.n, "data-n": l.n, onclick: () => { setMoment(l.n); explain(l); } }, citeLink(l.cite, l.sections), " ", l.text)));
  $("result").textContent = [...run.result, run.error || ""].join("\n");
  timeline(run.moments, at === undefined ? run.moments : at);
}

function explain(line) {
  const item = document.querySelector(`#narration li[data-n="${line.n}"]`);
  if (!item || item.querySelector(".why")) return;
  const why = [line.where ? "by " + line.where + (line.source ? ": " + line.source : "") : "",
    line.within.length ? "within " + line.within.join(" > ") : "", ...line.consulted.map((c) => "consulted " + c)];
  item.append(el("span", { class: "why" }, why.filter(Boolean).join("\n")));
}

function timeline(count, at) {
  $("timeline").hidden = false;
  const range = $("moment");
  range.max = count; range.value = at;
  setMoment(at);
}

async function setMoment(at) {
  const range = $("moment");
  at = Math.max(0, Math.min(Number(range.max), at));
  range.value = at;
  const game = view.game;
  const url = game ? `/api/games/${game.id}/picture?at=${at}` : `/api/runs/${view.id}/picture?at=${at}`;
  $("moment-label").textContent = game ? `${game.moments[at].label} (${at + 1} of ${game.moments.length})`
    : at === 0 ? `the set-up (of ${view.moments} lines)` : `line ${at} of ${view.moments}`;
  const told = game ? game.moments[at].told : at;
  for (const li of $("narration").children) {
    const n = Number(li.dataset.n);
    li.classList.toggle("future", n > told);
    li.classList.toggle("current", game ? n === told : n === at);
  }
  const current = document.querySelector("#narration li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  const asked = ++view.asked;  // a later moment asked before this picture came is the one shown
  try { const picture = await api("GET", url); if (asked === view.asked) $("map").innerHTML = picture; } catch (problem) { refused(problem); }
}

// ── a citation: the rules that encode it ──

async function showRule(sections) {
  const body = $("rule-body");
  body.replaceChildren();
  $("rule").hidden = false;
  for (const section of sections) {
    try {
      const found = await api("GET", `/api/rule?ruleset=${encodeURIComponent(view.ruleset)}&section=${encodeURIComponent(section)}`);
      body.append(el("h3", { class: "rule-heading" }, found.heading));
      for (const place of found.places) body.append(el("div", { class: "place" }, el("h4", {}, place[0]), el("pre", {}, place.slice(1).join("\n"))));
    } catch (problem) {
      body.append(el("p", { class: "refused" }, problem.error || String(problem)));
    }
  }
}

// ── a game against the agents ──

async function startGame() {
  const body = { path: view.path, scenario: $("setup").value || null, side: $("human").value || null,
    agent: $("agent").value, seed: $("seed").value || "1", overlays: $("with").value ? [$("with").value] : [] };
  $("diagnostics").hidden = true;
  $("ending").hidden = true;
  $("narration").replaceChildren();
  $("result").textContent = "";
  $("odds").hidden = true;
  try { showGame(await api("POST", "/api/games", body), true); } catch (problem) { refused(problem); }
}

function showGame(state, fresh) {
  view.game = state;
  view.ruleset = state.ruleset;
  $("title").textContent = state.title + (state.side ? ` — you play ${state.side}` : "");
  if (fresh) $("narration").replaceChildren();
  const list = $("narration");
  state.narration.forEach((l, i) => list.append(el("li", { value: state.from + i + 1, "data-n": state.from + i + 1 },
    citeLink(l.cite, l.sections), l.cite ? " " : "", l.text)));
  showDecision(state);
  if (state.over) { $("ending").hidden = false; $("ending").textContent = state.ending || "the game is over"; }
  if (state.moments.length) timeline(state.moments.length - 1, state.moments.length - 1);
  list.lastElementChild && list.lastElementChild.scrollIntoView({ block: "nearest" });
  if (!state.over && !state.decision) setTimeout(() => followGame(state.id), 1000);  // the agents are still at it
}

async function followGame(id) {
  if (!view.game || view.game.id !== id) return;
  try {
    const state = await api("GET", `/api/games/${id}?since=${view.game.told}`);
    showGame(state, false);
  } catch (problem) { refused(problem); }
}

function showDecision(state) {
  const d = state.decision;
  $("decision").hidden = !d;
  $("said").textContent = state.said.join("\n");
  oddsOfThePosition(d);
  if (!d) return;
  $("question").replaceChildren(citeLink(d.cite, d.sections), ` ${d.chooser}, decide '${d.name}': ${d.prompt}`);
  const options = $("options");
  options.replaceChildren();
  if (d.mode === "one" || d.mode === "reroll") {
    d.options.forEach((o) => options.append(el("button", { class: "option", "data-answer": o.answer, onclick: () => answer(o.answer) }, `${o.answer}. ${o.text}`)));
    if (d.optional) options.append(el("button", { class: "option decline", onclick: () => answer("0") }, "0. none"));
  } else {
    d.options.forEach((o) => options.append(el("label", { class: "option" },
      el("input", { type: d.mode === "split" ? "number" : "checkbox", min: "0", "data-answer": o.answer, class: "pick" }), ` ${o.answer}. ${o.text}`)));
    options.append(el("button", { class: "submit-picks", onclick: () => answer(picked(d)) }, "Answer"));
  }
  // The options a house rule or an erratum removed: shown struck out; choosing one is refused with its rule.
  d.ruled_out.forEach((o) => options.append(el("button", { class: "option ruled-out", title: o.why || "not legal",
    "data-answer": o.answer, onclick: () => answer(o.answer) }, o.text)));
  options.append(el("p", { class: "expected" }, d.expected));
}

function picked(d) {
  const inputs = [...document.querySelectorAll("#options input.pick")];
  if (d.mode === "split") return inputs.filter((i) => i.value).map((i) => `${i.dataset.answer}:${i.value}`).join(" ") || "0";
  return inputs.filter((i) => i.checked).map((i) => i.dataset.answer).join(" ") || "0";
}

async function answer(text) {
  const game = view.game;
  $("odds-answer").textContent = "";
  try {
    const state = await api("POST", `/api/games/${game.id}/answer`, { answer: text });
    const since = game.told;
    state.narration = state.narration.slice(since); state.from = since;
    showGame(state, false);
  } catch (problem) { refused(problem); }
}

// ── the odds ──

// In a game, the odds are those of the position in front of the person: their decision, answered as the
// policy answers it or with the option they pick (`umpire odds SAVE.toml --decide SIDE:NAME=OPTION`).
function oddsOfThePosition(d) {
  $("odds").hidden = !d;
  if (!d) return;
  $("odds-game").hidden = false;
  $("ask-odds").textContent = "Odds of the position in front of you";
  const choose = $("odds-choose");
  choose.replaceChildren(el("option", { value: "" }, "as the policy does (the first legal option)"));
  d.options.filter((o) => o.name).forEach((o) => choose.append(el("option", { value: o.name }, `${o.answer}. ${o.text}`)));
}

function oddsQuestion() {
  if (!view.game || $("odds-game").hidden) return { path: view.path };
  return { game: view.game.id, choose: $("odds-choose").value || null, until: $("odds-until").value };
}

async function askOdds() {
  $("odds-answer").textContent = "";
  const bar = $("odds-progress");
  bar.hidden = false;
  let job;
  try { job = await api("POST", "/api/odds", oddsQuestion()); } catch (problem) { bar.hidden = true; refused(problem); return; }
  while (!job.over) {
    $("odds-how").textContent = job.how + (job.total ? ` ${job.done} of ${job.total}` : "");
    if (job.total) { bar.max = job.total; bar.value = job.done; } else bar.removeAttribute("value");
    await new Promise((r) => setTimeout(r, 300));
    try { job = await api("GET", `/api/odds/${job.id}`); } catch (problem) { bar.hidden = true; refused(problem); return; }
  }
  bar.hidden = true;
  $("odds-how").textContent = "";
  $("odds-answer").textContent = job.error ? job.error.diagnostics.map((d) => d.text).join("\n") : job.lines.join("\n");
}

// ── the controls ──

$("opener").addEventListener("submit", (e) => { e.preventDefault(); const p = $("path").value.trim(); if (p) openFile(p); });
$("picker").addEventListener("change", () => { if ($("picker").value) { $("path").value = $("picker").value; openFile($("picker").value); } });
$("side").addEventListener("change", () => { if (view.path && view.kind === "scenario") openFile(view.path, Number($("moment").value)); });
$("first").addEventListener("click", () => setMoment(0));
$("previous").addEventListener("click", () => setMoment(Number($("moment").value) - 1));
$("next").addEventListener("click", () => setMoment(Number($("moment").value) + 1));
$("last").addEventListener("click", () => setMoment(Number($("moment").max)));
$("moment").addEventListener("input", () => setMoment(Number($("moment").value)));
$("zoom").addEventListener("click", () => $("map").classList.toggle("actual"));
$("close-rule").addEventListener("click", () => { $("rule").hidden = true; });
$("start").addEventListener("click", startGame);
$("typed").addEventListener("submit", (e) => { e.preventDefault(); const a = $("answer").value.trim(); if (a) { $("answer").value = ""; answer(a); } });
$("ask-odds").addEventListener("click", askOdds);
listFiles();
