// The replay viewer: a stored game or an uploaded record, stepped with a slider and the keys.
"use strict";

(() => {
  const root = document.getElementById("replay");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const board = $("replay-board");
  const frames = new Map();
  let info = null;
  let record = null; // an uploaded record (its positions are asked for with it)
  let at = 0;
  let wanted = 0;
  let loading = false;

  async function frame(k) {
    if (frames.has(k)) return frames.get(k);
    const data = gameId
      ? await cg.request("GET", `/api/games/${encodeURIComponent(gameId)}/replay/${k}`)
      : await cg.request("POST", `/api/replay/${k}`, { body: record });
    frames.set(k, data);
    return data;
  }

  async function go(k) {
    if (!info) return;
    wanted = Math.max(0, Math.min(info.count, k));
    slider.value = String(wanted);
    $("position").textContent = `${wanted} / ${info.count}`;
    if (loading) return;
    loading = true;
    try {
      while (at !== wanted || !$("replay-board").querySelector("svg")) {
        const target = wanted;
        const data = await frame(target);
        const step = Math.abs(target - at) === 1;
        const forward = target > at;
        const before = step ? cgBoard.snapshot(board) : null;
        at = target;
        board.innerHTML = data.svg; // the server's picture
        const svg = cgBoard.picture(board);
        if (svg) {
          svg.setAttribute("role", "img");
          svg.setAttribute("aria-label", "The board at this position; the text view describes it.");
        }
        cgBoard.fitTexts(board);
        cgBoard.markTurn(board, data.turn);
        // One step forward or back is animated; a jump is not (it would be a blur).
        if (before) cgBoard.animate(board, before, forward ? data.turn : null);
        $("replay-text").textContent = data.text;
        cgBoard.legend($("legend-body"), data.legend);
        $("legend").hidden = data.legend.length === 0;
        $("story-list").replaceChildren(...cgBoard.storyItems(data.turn.events));
        const first = data.turn.events.find((e) => e.actor >= 0);
        $("story-title").textContent = data.turn.events.length ? (first ? `This turn: ${first.who}` : "Setting up") : "The start";
        $("story").hidden = data.turn.events.length === 0;
        markLog();
      }
    } catch (err) {
      $("replay-text").textContent = err.message;
    } finally {
      loading = false;
    }
  }

  function markLog() {
    const list = $("replay-log");
    for (const item of list.querySelectorAll(".current")) item.classList.remove("current");
    const item = list.querySelector(`li[data-seq="${at}"]`);
    if (item) {
      item.classList.add("current");
      const top = item.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    } else {
      list.scrollTop = 0;
    }
  }

  // A sentence that starts with the actor's name ("red crashes ...") needs no name before it.
  function named(e) {
    return e.actor < 0 || e.description.includes(e.who);
  }

  // "red wins." from the record's returns (as the game page says it).
  function outcome(data) {
    const best = Math.max(...data.result);
    const winners = data.players.filter((p, i) => data.result[i] === best && best > 0).map((p) => p.name);
    if (winners.length === 1) return `${winners[0]} wins.`;
    return winners.length ? `Shared result: ${winners.join(", ")}.` : "Nobody wins.";
  }

  function show(data) {
    info = data;
    frames.clear();
    at = -1;
    $("replay-title").textContent = `Replay: ${data.title}`;
    $("replay-players").textContent = data.players.map((p) => `${p.name} (${p.who})`).join(", ");
    const result = data.ending || (data.result && outcome(data));
    $("replay-result").textContent = result ? `Result: ${result}` : "The game was not over.";
    const turns = [];
    for (const entry of data.log) {
      const last = turns[turns.length - 1];
      if (last && last[0].turn === entry.turn) last.push(entry);
      else turns.push([entry]);
    }
    $("replay-log").replaceChildren(
      ...turns.map((entries) => {
        const first = entries.find((e) => e.actor >= 0);
        const heading = entries[0].turn === 0 || !first ? "Setup" : `Turn ${entries[0].turn}: ${first.who}`;
        return cg.el(
          "section",
          { class: "turn" },
          cg.el("h3", {}, heading),
          cg.el(
            "ol",
            {},
            entries.map((e) => {
              const item = cg.el(
                "li",
                { class: e.actor < 0 ? "chance" : "", value: e.seq, "data-seq": e.seq },
                named(e) ? null : cg.el("span", { class: "who" }, e.who),
                named(e) ? null : " ",
                e.description,
                " ",
                cg.el("code", {}, e.notation),
              );
              item.addEventListener("click", () => go(e.seq));
              return item;
            }),
          ),
        );
      }),
    );
    slider.max = String(data.count);
    $("controls").hidden = false;
    $("download").hidden = false;
    setupContinue();
    go(data.count);
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  board.addEventListener("mousemove", (event) => {
    const said = cgBoard.titleAt(board, event.clientX, event.clientY);
    if (said) $("inspect").textContent = said;
  });
  board.addEventListener("click", (event) => {
    const said = cgBoard.titleAt(board, event.clientX, event.clientY);
    if (said) $("inspect").textContent = said;
  });
  window.addEventListener("resize", () => cgBoard.fitTexts(board));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(wanted - 1));
  $("next").addEventListener("click", () => go(wanted + 1));
  $("last").addEventListener("click", () => go(info ? info.count : 0));
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type !== "range"))) return;
    if (target === slider && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return; // the slider steps itself
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) {
      event.preventDefault();
      go(wanted + moves[event.key]);
    } else if (event.key === "Home") {
      event.preventDefault();
      go(0);
    } else if (event.key === "End") {
      event.preventDefault();
      go(info ? info.count : 0);
    }
  });

  // -- playing on from a position ------------------------------------------------------------

  async function recordDoc() {
    if (record) return record;
    return cg.request("GET", `/api/games/${encodeURIComponent(gameId)}/record`);
  }

  function setupContinue() {
    const box = $("continue");
    const seats = $("continue-seats");
    seats.replaceChildren(
      ...info.players.map((p, i) =>
        cg.el("label", { class: "row" }, p.name, cg.el("input", { name: `seat${i}`, value: "human", list: "seat-specs-replay", spellcheck: "false" })),
      ),
      cg.el("datalist", { id: "seat-specs-replay" }, ...["human", "easy", "medium", "hard", "random", "greedy", "mcts:time=1.0"].map((s) => cg.el("option", { value: s }))),
    );
    box.hidden = false;
  }

  $("continue-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const problem = form.querySelector(".problem");
    cg.problem(problem, "");
    try {
      const doc = await recordDoc();
      const options = { ...doc.options };
      delete options.players;
      const seats = info.players.map((p, i) => form.querySelector(`[name=seat${i}]`).value.trim());
      const created = await cg.request("POST", "/api/games", {
        body: { game: doc.game, options, seats, actions: doc.actions.slice(0, wanted) },
      });
      cg.remember(created);
      const panel = $("continue").querySelector(".created");
      panel.replaceChildren(cg.createdPanel(created));
      panel.hidden = false;
    } catch (err) {
      cg.problem(problem, err.message);
    }
  });

  // -- where the record comes from ------------------------------------------------------------

  if (gameId) {
    cg.request("GET", `/api/games/${encodeURIComponent(gameId)}/replay`).then(show, (err) => {
      $("replay-text").textContent = err.message;
    });
  } else {
    $("record-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      const problem = $("upload-problem");
      cg.problem(problem, "");
      if (!file) return;
      try {
        const doc = JSON.parse(await file.text());
        const data = await cg.request("POST", "/api/replay", { body: doc });
        record = doc;
        const link = $("download");
        link.href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" }));
        link.download = file.name;
        show(data);
      } catch (err) {
        cg.problem(problem, err instanceof SyntaxError ? `This file is not JSON: ${err.message}` : err.message);
      }
    });
  }
  window.chaosgamesReplay = { get at() { return at; }, get info() { return info; } };
})();
