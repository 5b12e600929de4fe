// The designer's shared parts (issue 54): the live check with the game's own validator,
// undo and redo, import and export, save, play it, test it. An editor (design_course.js,
// design_track.js) hands in how to read and draw its design: cgDesign.start({ ... }).
"use strict";

const cgDesign = (() => {
  const page = document.querySelector(".design-page");
  const data = JSON.parse(document.getElementById("cg-design").textContent);
  const game = page.dataset.game;
  const option = page.dataset.option;
  const $ = (id) => document.getElementById(id);
  let editor = null;
  let past = [];
  let future = [];
  let checkTimer = null;
  let checkNumber = 0;
  let lastPicture = null;

  // -- history ---------------------------------------------------------------------------
  function change(value) {
    past.push(JSON.stringify(editor.get()));
    if (past.length > 200) past.shift();
    future = [];
    show(value);
  }
  function show(value) {
    editor.set(value);
    checkSoon();
    $("undo").disabled = past.length === 0;
    $("redo").disabled = future.length === 0;
  }
  function undo() {
    if (!past.length) return;
    future.push(JSON.stringify(editor.get()));
    show(JSON.parse(past.pop()));
  }
  function redo() {
    if (!future.length) return;
    past.push(JSON.stringify(editor.get()));
    show(JSON.parse(future.pop()));
  }

  // -- the check: the game's own, on the server ------------------------------------------
  function checkSoon() {
    page.dataset.checking = "yes"; // "no" once the latest change is checked and drawn
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 120);
  }
  async function check() {
    const number = ++checkNumber;
    let answer;
    try {
      answer = await cg.request("POST", "/api/designs/check", { body: { game, value: editor.value() } });
    } catch (err) {
      answer = { ok: false, problems: [{ message: err.message, places: [] }], svg: null };
    }
    if (number !== checkNumber) return; // a later change is being checked
    const status = $("check-status");
    status.textContent = answer.ok ? "The game takes this design." : "The game does not take this design yet:";
    status.className = "check-status " + (answer.ok ? "good" : "bad");
    $("problems").replaceChildren(
      ...answer.problems.map((p) => cg.el("li", { class: "problem" }, p.message.replace(/^Option '\w+': /, ""))),
    );
    editor.mark(answer.problems);
    if (answer.svg) {
      $("picture").innerHTML = answer.svg; // the server's picture of the design
      lastPicture = answer.svg;
    } else {
      $("picture").replaceChildren(cg.el("p", { class: "hint" }, "The picture comes back once the game takes the design."));
    }
    $("save").disabled = $("play").disabled = $("trial").disabled = !answer.ok;
    page.dataset.checking = "no";
  }

  // -- import, export, start from --------------------------------------------------------
  function exportJson() {
    const text = JSON.stringify(editor.value(), null, 1);
    const link = cg.el("a", {
      href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
      download: `${(editor.name() || "design").replace(/[^\w-]+/g, "-")}.json`,
    });
    document.body.append(link);
    link.click();
    link.remove();
  }
  async function importJson(input) {
    const file = input.files[0];
    input.value = "";
    if (!file) return;
    try {
      change(editor.read(JSON.parse(await file.text())));
    } catch (err) {
      cg.problem($("save-problem"), `That file is not a design in JSON: ${err.message}`);
    }
  }
  async function startFrom(choice) {
    if (!choice) return;
    if (choice === "empty") change(editor.empty());
    else if (choice.startsWith("preset:")) change(editor.read(data.presets[choice.slice(7)], choice.slice(7)));
    else if (choice.startsWith("saved:")) {
      const saved = data.designs.find((d) => d.id === choice.slice(6));
      if (saved) change(editor.read(saved.value, saved.name));
    }
    $("design-start").value = "";
  }

  // -- save, play ------------------------------------------------------------------------
  async function save() {
    cg.problem($("save-problem"), "");
    try {
      const saved = await cg.request("POST", "/api/designs", { body: { game, name: editor.name(), value: editor.value() } });
      const link = $("saved-link");
      link.querySelector("a").href = saved.link;
      link.querySelector("a").textContent = saved.name;
      link.hidden = false;
      history.replaceState(null, "", saved.link);
    } catch (err) {
      cg.problem($("save-problem"), err.message);
    }
  }
  function play() {
    // The lobby's new-game form picks it up (lobby.js) and fills the option in.
    sessionStorage.setItem("cg-play-design", JSON.stringify({ game, option, value: editor.value() }));
    window.location.href = `/#new-${game}`;
  }

  // -- test it ---------------------------------------------------------------------------
  async function trial(event) {
    event.preventDefault();
    const body = { game, value: editor.value(), games: Number($("trial-games").value), players: Number($("trial-players").value) };
    const preset = $("trial-preset").value;
    body.preset = option === "course" ? preset : data.presets[preset];
    $("trial-result").hidden = false;
    $("trial").disabled = true;
    try {
      let state = await cg.request("POST", "/api/designs/trials", { body });
      const presetPicture = await presetSvg(body.preset);
      const mine = lastPicture;
      while (true) {
        showTrial(state, preset, mine, presetPicture);
        if (state.status === "finished") break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        state = await cg.request("GET", `/api/designs/trials/${state.id}`);
      }
    } catch (err) {
      $("trial-status").textContent = err.message;
    } finally {
      $("trial").disabled = false;
    }
  }
  async function presetSvg(value) {
    try {
      return (await cg.request("POST", "/api/designs/check", { body: { game, value } })).svg;
    } catch (err) {
      return null;
    }
  }
  const percent = (x) => `${Math.round(100 * x)}%`;
  const interval = (f) => `${percent(f.share)} (${percent(f.low)}–${percent(f.high)})`;
  function showTrial(state, presetName, mine, theirs) {
    $("trial-progress").value = state.total ? state.done / state.total : 0;
    $("trial-status").textContent =
      `${state.done} of ${state.total} games played (${state.status})` + (state.note ? `. ${state.note}` : "");
    const sides = [state.design, state.preset];
    const rows = [
      ["Games", ...sides.map((f) => String(f.games))],
      ["Length (rounds): mean, least–most", ...sides.map((f) => f.games ? `${f.rounds.mean.toFixed(1)}, ${f.rounds.least}–${f.rounds.most}` : "–")],
      ["Finished by the rules (95% interval)", ...sides.map((f) => f.games ? interval(f.completion) : "–")],
      ...sides[0].seats.map((s, i) => [`Seat ${s.seat} wins (95% interval)`, ...sides.map((f) => f.games ? interval(f.seats[i]) : "–")]),
      ["How games ended", ...sides.map((f) => Object.entries(f.endings).map(([k, v]) => `${k}: ${v}`).join("; ") || "–")],
    ];
    $("trial-table").replaceChildren(
      cg.el("table", { class: "figures" },
        cg.el("thead", {}, cg.el("tr", {}, cg.el("th", { scope: "col" }, "Figure"), cg.el("th", { scope: "col" }, "This design"), cg.el("th", { scope: "col" }, presetName))),
        cg.el("tbody", {}, ...rows.map(([name, a, b]) => cg.el("tr", {}, cg.el("th", { scope: "row" }, name), cg.el("td", {}, a), cg.el("td", {}, b))))),
    );
    if (option === "course") {
      $("heat").replaceChildren(
        heatMap("Where cruisers crash, ram and wait: this design", mine, state.design.heat),
        heatMap(`… and on ${presetName}`, theirs, state.preset.heat),
        cg.el("p", { class: "hint" }, "Red: out of bounds (where the move began) · orange: rams · blue: waits at speed 0; the bigger, the more often."),
      );
    }
  }
  const HEAT = { crash: "#d62728", ram: "#ff8c00", wait: "#1f5fbf" };
  function heatMap(title, svgText, heat) {
    const figure = cg.el("figure", { class: "board heat-map" }, cg.el("figcaption", {}, title));
    if (!svgText) return figure;
    const holder = cg.el("div");
    holder.innerHTML = svgText; // the server's picture
    const svg = holder.querySelector("svg");
    const most = Math.max(1, ...heat.flatMap((h) => Object.keys(HEAT).map((k) => h[k] || 0)));
    for (const h of heat) {
      const square = svg && svg.querySelector(`[data-place="${h.place}"]`);
      if (!square) continue;
      const x = Number(square.getAttribute("x")), y = Number(square.getAttribute("y"));
      const size = Number(square.getAttribute("width"));
      Object.keys(HEAT).forEach((kind, i) => {
        if (!h[kind]) return;
        const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
        dot.setAttribute("cx", x + size * (0.25 + 0.25 * i));
        dot.setAttribute("cy", y + size * (i === 1 ? 0.3 : 0.7));
        dot.setAttribute("r", 2 + (size / 3) * Math.sqrt(h[kind] / most));
        dot.setAttribute("fill", HEAT[kind]);
        dot.setAttribute("fill-opacity", "0.7");
        dot.append(Object.assign(document.createElementNS("http://www.w3.org/2000/svg", "title"), { textContent: `${h.place}: ${h[kind]} ${kind}` }));
        svg.append(dot);
      });
    }
    figure.append(...holder.childNodes);
    return figure;
  }

  function start(handed) {
    editor = handed;
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    $("export").addEventListener("click", exportJson);
    $("import").addEventListener("change", (e) => importJson(e.target));
    $("design-start").addEventListener("change", (e) => startFrom(e.target.value));
    $("save").addEventListener("click", save);
    $("play").addEventListener("click", play);
    $("trial-form").addEventListener("submit", trial);
    document.addEventListener("keydown", (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.target.matches("input, select")) return;
      if (e.key === "z" && !e.shiftKey) { e.preventDefault(); undo(); }
      else if (e.key === "y" || (e.key === "z" && e.shiftKey) || e.key === "Z") { e.preventDefault(); redo(); }
    });
    const first = data.saved ? editor.read(data.saved.value, data.saved.name) : editor.initial(data.presets);
    show(first);
  }

  return { start, change, data, game };
})();
