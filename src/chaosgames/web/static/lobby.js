// The lobby: one form per game (seats and options), the links of a new game, your games.
"use strict";

(() => {
  for (const form of document.querySelectorAll("form.create")) {
    const players = form.querySelector("select[name=players]");
    const showSeats = () => {
      const n = players ? Number(players.value) : Number(form.dataset.min);
      for (const row of form.querySelectorAll(".seat")) {
        row.hidden = Number(row.dataset.seat) >= n;
      }
    };
    if (players) players.addEventListener("change", showSeats);
    showSeats();
    // "another computer player…" opens a field for its spec.
    for (const row of form.querySelectorAll(".seat")) {
      const select = row.querySelector("select");
      const spec = row.querySelector("input");
      const showSpec = () => {
        spec.hidden = select.value !== "other";
        if (!spec.hidden) spec.focus();
      };
      select.addEventListener("change", showSpec);
      spec.hidden = select.value !== "other";
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      create(form);
    });
  }

  function optionValue(input) {
    const kind = input.dataset.kind;
    if (kind === "bool") return input.checked;
    const text = input.value.trim();
    if (kind === "int" || kind === "float") return text === "" ? text : Number(text);
    // Structured options (a course document, a list of boards) are sent as typed; the
    // server reads them as JSON when they parse, else as a name.
    return text;
  }

  async function create(form) {
    const problemNode = form.querySelector(".problem");
    cg.problem(problemNode, "");
    const n = Number((form.querySelector("select[name=players]") || { value: form.dataset.min }).value);
    const seats = [];
    for (let i = 0; i < n; i++) {
      const chosen = form.querySelector(`[name=seat${i}]`).value;
      seats.push(chosen === "other" ? form.querySelector(`[name=spec${i}]`).value.trim() : chosen);
    }
    const options = {};
    for (const input of form.querySelectorAll("[name^='opt:']")) {
      options[input.name.slice(4)] = optionValue(input);
    }
    const body = { game: form.dataset.game, seats, options };
    const table = tableRules(form);
    if (table) body.table = table;
    const takebacks = form.querySelector("[name=takebacks]").value;
    if (takebacks !== "accept") body.takebacks = takebacks;
    const seed = form.querySelector("[name=seed]").value.trim();
    if (seed !== "") body.seed = Number(seed);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const created = await cg.request("POST", "/api/games", { body });
      cg.remember(created);
      const panel = form.parentElement.querySelector(".created");
      panel.replaceChildren(cg.createdPanel(created));
      panel.hidden = false;
      showMine();
    } catch (err) {
      cg.problem(problemNode, err.message);
    } finally {
      button.disabled = false;
    }
  }

  // The table's rules (docs/web.md, "Table rules"); none chosen: none sent.
  function tableRules(form) {
    const table = {};
    const patience = form.querySelector("[name=patience]").value;
    if (patience) table.patience = Number(patience);
    const clock = form.querySelector("[name=clock]").value;
    if (clock) {
      table.clock = Number(clock);
      table.increment = Number(form.querySelector("[name=increment]").value || 0);
      table.out_of_time = form.querySelector("[name=out_of_time]").value;
    }
    return Object.keys(table).length ? table : null;
  }

  // "New game with these settings" (a finished game's panel): ?game=...&seats=a,b&options={...}
  // fills the game's form in and opens it.
  function fillFromQuery() {
    const query = new URLSearchParams(window.location.search);
    const form = document.querySelector(`form.create[data-game="${CSS.escape(query.get("game") || "")}"]`);
    if (!form) return;
    const seats = (query.get("seats") || "").split(",").filter(Boolean);
    const players = form.querySelector("select[name=players]");
    if (players && seats.length) {
      players.value = String(seats.length);
      players.dispatchEvent(new Event("change"));
    }
    seats.forEach((who, i) => {
      const select = form.querySelector(`[name=seat${i}]`);
      if (!select) return;
      const known = [...select.options].some((o) => o.value === who);
      select.value = known ? who : "other";
      if (!known) form.querySelector(`[name=spec${i}]`).value = who;
      select.dispatchEvent(new Event("change"));
    });
    let options = {};
    try {
      options = JSON.parse(query.get("options") || "{}");
    } catch (err) { /* a hand-made link: the defaults stay */ }
    for (const [key, value] of Object.entries(options)) {
      const input = form.querySelector(`[name="opt:${CSS.escape(key)}"]`);
      if (!input) continue;
      if (input.dataset.kind === "bool") input.checked = !!value;
      else input.value = typeof value === "object" ? JSON.stringify(value) : String(value);
    }
    for (const rule of ["patience", "clock", "out_of_time", "takebacks"]) {
      const select = form.querySelector(`[name=${rule}]`);
      if ([...select.options].some((o) => o.value === query.get(rule))) select.value = query.get(rule);
    }
    if (query.get("increment")) form.querySelector("[name=increment]").value = query.get("increment");
    form.closest("details.new-game").open = true;
    form.closest(".game-card").scrollIntoView();
  }
  fillFromQuery();

  function showMine() {
    const list = cg.mine();
    const section = document.getElementById("mine");
    const ul = document.getElementById("mine-list");
    ul.replaceChildren(
      ...list.slice(0, 10).map((g) => {
        const seats = g.seats.filter((s) => s.link).map((s) => cg.el("a", { href: s.link, class: "small" }, `as ${s.name}`));
        return cg.el(
          "li",
          {},
          cg.el("a", { href: `/games/${g.id}` }, cg.el("strong", {}, g.title)),
          " ",
          cg.el("span", { class: "who" }, new Date(g.at).toLocaleString()),
          " ",
          ...seats.flatMap((a) => [a, " "]),
        );
      }),
    );
    section.hidden = list.length === 0;
  }
  showMine();

  // A preset or a saved design chosen beside a structured option fills its field.
  for (const choice of document.querySelectorAll("select.design-choice")) {
    choice.addEventListener("change", () => {
      if (choice.value !== "") choice.form.querySelector(`[name="${choice.dataset.for}"]`).value = choice.value;
    });
  }

  if (window.location.hash.startsWith("#new-")) {
    const card = document.getElementById(window.location.hash.slice(1));
    if (card) {
      card.querySelector("details.new-game").open = true;
      playDesign(card);
    }
  }

  // "Play it" on a designer page: the design waits in sessionStorage for its game's form.
  function playDesign(card) {
    const text = sessionStorage.getItem("cg-play-design");
    if (!text) return;
    sessionStorage.removeItem("cg-play-design");
    const design = JSON.parse(text);
    const form = card.querySelector("form.create");
    const field = form && form.querySelector(`[name="opt:${design.option}"]`);
    if (!field || form.dataset.game !== design.game) return;
    field.value = JSON.stringify(design.value);
    form.querySelector("details.options").open = true;
    card.scrollIntoView();
  }
})();
